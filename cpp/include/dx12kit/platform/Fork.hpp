// fork() and devices. A forked child has a copy of its parent's memory but only the thread that
// called fork(): the threads behind a device (vkd3d's fence thread, the driver's queue and worker
// threads) are gone, and locks they held stay locked. A device of the parent is therefore unusable
// in the child: waits would never end, and even releasing its objects can block. dx12kit counts
// forks with a pthread_atfork child handler; a DeviceContext remembers the count it was created at,
// and one created before the latest fork refuses every use (ForkedDevice) and is never released
// (leaked on purpose: the child must not touch the parent's D3D12 objects, nor wait for its GPU).
//
// Why pthread_atfork and not a getpid() check or Python's os.register_at_fork: the handler runs
// for every fork() of the process (os.fork, multiprocessing's fork start method, forks made by
// other C/C++ code), also without Python; it only increments an atomic (async-signal-safe); and a
// check is then a relaxed load, where getpid() is a system call on glibc 2.25+.
#pragma once

#include <cstdint>

namespace dx12kit::platform {

/// How many fork()s lie between the process that started and this one (0 in a process that was
/// not forked, or forked before dx12kit watched for forks).
uint32_t ForkGeneration() noexcept;
/// Starts counting forks (registers the pthread_atfork handler once; thread-safe). Called before
/// the first device is created. On Windows (no fork) it does nothing.
void WatchForks();
/// The id of this process.
uint64_t ProcessId() noexcept;

/// Throws ForkedDevice (dx12kit/base/Errors.hpp) for `what`, used in this process, a fork() of
/// process `creatorPid` that created the device: the one message every refusal gives.
[[noreturn]] void ThrowForked(const char* what, uint64_t creatorPid);

/// The fork generation and process an object of a device was created in (its device's, for the
/// objects a device creates after WatchForks()). Check() refuses it in a later fork.
class ForkStamp {
public:
    ForkStamp() noexcept : m_Generation(ForkGeneration()), m_Pid(ProcessId()) {}
    bool Forked() const noexcept { return m_Generation != ForkGeneration(); }
    void Check(const char* what) const {
        if (Forked()) ThrowForked(what, m_Pid);
    }

private:
    uint32_t m_Generation;
    uint64_t m_Pid;
};

}  // namespace dx12kit::platform
