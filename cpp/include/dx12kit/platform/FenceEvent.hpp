// CPU waits for a fence. vkd3d 1.2's SetEventOnCompletion(value, nullptr) returns at once instead
// of blocking, so every wait goes through a real event: vkd3d_create_event on Linux, CreateEvent
// on Windows. Waits are done in slices (CommandQueue::WaitForFence) so that they can be
// interrupted and time out; vkd3d 1.2's vkd3d_wait_event cannot time out (only 0 or infinite), so
// on Linux a watcher thread per fence does the infinite waits and wakes waiters through a
// condition variable, which can.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace dx12kit {

/// One event. A request made with Arm cannot be withdrawn: the event must outlive every request
/// made on it (or be leaked), and a later wait may see a signal meant for an earlier request.
class FenceEvent {
public:
    FenceEvent();
    ~FenceEvent();
    FenceEvent(const FenceEvent&) = delete;
    FenceEvent& operator=(const FenceEvent&) = delete;

    /// Asks the fence to signal this event when it reaches `value` (at once when it has).
    void Arm(ID3D12Fence* fence, uint64_t value);
    /// Blocks until the event is signalled (Linux: no timeout; Windows: up to `timeoutMs`).
    bool WaitSignal(uint32_t timeoutMs);
    /// Signals the event from the CPU (wakes a waiter).
    void Signal();

private:
    HANDLE m_Event;
};

/// Timed waits on one fence, from any number of threads.
///
/// Destroy it only once the fence has reached every value waited for (a queue flushes first), or
/// leak it: the fence may still signal its event.
class FenceWaiter {
public:
    explicit FenceWaiter(ID3D12Fence* fence) : m_Fence(fence) {}
    ~FenceWaiter();
    FenceWaiter(const FenceWaiter&) = delete;
    FenceWaiter& operator=(const FenceWaiter&) = delete;

    /// Blocks up to `timeoutMs` until the fence reaches `value`; true when it has.
    bool WaitFor(uint64_t value, uint32_t timeoutMs);

private:
    ID3D12Fence* m_Fence;
    std::mutex m_Mutex;
    std::condition_variable m_Progress;  // waiters: the fence may have advanced
#if defined(_WIN32)
    std::vector<FenceEvent*> m_Events;  // idle events, reused (they may still be armed)
#else
    void Watch();
    std::condition_variable m_Work;     // watcher: a waiter arrived
    std::multiset<uint64_t> m_Targets;  // values waiters want
    uint64_t m_Armed = 0;               // value the watcher waits for (0: none)
    bool m_Stop = false;
    FenceEvent* m_Event = nullptr;  // the watcher's event
    std::thread m_Thread;           // started by the first wait that must block
#endif
};

}  // namespace dx12kit
