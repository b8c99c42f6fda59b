// fork() bookkeeping (dx12kit/platform/Fork.hpp).
#include "dx12kit/platform/Fork.hpp"

#include "dx12kit/base/Errors.hpp"

#include <atomic>
#include <mutex>
#include <string>

#if defined(_WIN32)
#  include <windows.h>
#else
#  include <pthread.h>
#  include <unistd.h>
#endif

namespace dx12kit::platform {

namespace {
std::atomic<uint32_t> g_ForkGeneration{0};
#if !defined(_WIN32)
void InForkedChild() {
    g_ForkGeneration.fetch_add(1, std::memory_order_relaxed);
}
#endif
}  // namespace

uint32_t ForkGeneration() noexcept {
    return g_ForkGeneration.load(std::memory_order_relaxed);
}

void WatchForks() {
#if !defined(_WIN32)
    static std::once_flag once;
    std::call_once(once, [] { pthread_atfork(nullptr, nullptr, &InForkedChild); });
#endif
}

uint64_t ProcessId() noexcept {
#if defined(_WIN32)
    return GetCurrentProcessId();
#else
    return static_cast<uint64_t>(getpid());
#endif
}

void ThrowForked(const char* what, uint64_t creatorPid) {
    throw ForkedDevice(std::string(what) + ": this device was created in process " + std::to_string(creatorPid) + ", and this process (" +
                       std::to_string(ProcessId()) +
                       ") is a fork() of it. A device cannot be used in a forked child: the threads that run its GPU "
                       "work did not survive the fork, so its waits would never end. Create devices in the child "
                       "process itself, and start worker processes with multiprocessing's 'spawn' or 'forkserver' "
                       "start method (multiprocessing.get_context('spawn')), not 'fork'. (The child never releases "
                       "the parent's device, nor waits for its GPU work.)");
}

}  // namespace dx12kit::platform
