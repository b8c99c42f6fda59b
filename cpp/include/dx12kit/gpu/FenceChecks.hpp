// FenceChecks: errors that only the GPU can find (a built-in pass found the user's GPU-written data
// breaking a rule, e.g. an ExecuteIndirect root CBV address in no referenced buffer), reported when
// the work's fence is reached and raised by the next wait or read of any queue of the device.
//
// A pass that checks on the GPU writes a word (0: fine) into a READBACK buffer and keeps a FenceCheck
// with its list's tracked objects. Those are released only once the list's fence is reached
// (CommandQueue::Poll), and a FenceCheck's destructor reads its word then: non-zero makes its message
// a failure of the device's FenceCheckSink (one per device, shared by its queues), which every wait
// raises (InvalidArgument) and clears, so it is raised once: CommandQueue::Wait / Flush / ReadBuffer
// (the UMA direct read too) / ReadTexture / ReadQueries on any queue, and Device::WaitIdle, after
// every queue is idle. A list never executed reports nothing (the word starts at 0).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

namespace dx12kit {

class Resource;

class FenceCheckSink {
public:
    void Report(std::string message);
    /// InvalidArgument "<what>: <first failure>" when any was reported (then none is left).
    void ThrowIfAny(const char* what);

private:
    std::mutex m_Mutex;
    std::vector<std::string> m_Failures;
    std::atomic<bool> m_Any{false};  // m_Failures is not empty: a wait or read with nothing to raise takes no lock
};

class FenceCheck {
public:
    /// `readback`: a READBACK buffer whose first 8 bytes the GPU writes (two uint32, 0 0: fine);
    /// `describe(word0, word1)` makes the message for a failure. The buffer is zeroed here.
    FenceCheck(std::shared_ptr<FenceCheckSink> sink, std::shared_ptr<Resource> readback, std::function<std::string(uint32_t, uint32_t)> describe);
    ~FenceCheck();
    FenceCheck(const FenceCheck&) = delete;
    FenceCheck& operator=(const FenceCheck&) = delete;

private:
    std::shared_ptr<FenceCheckSink> m_Sink;
    std::shared_ptr<Resource> m_Readback;
    std::function<std::string(uint32_t, uint32_t)> m_Describe;
};

}  // namespace dx12kit
