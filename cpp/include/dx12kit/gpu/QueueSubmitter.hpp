// QueueSubmitter: the one way a CommandQueue's native calls (ExecuteCommandLists, Signal, Wait) reach
// the backend, and the queue's submission thread (docs/guides/threads.rst, "Queues that overlap").
//
// D3D12's ID3D12CommandQueue::Wait queues a wait on the GPU and returns. vkd3d 1.2 instead blocks the
// thread that issues a Wait on a value not reached yet (inside vkQueueSubmit, holding the Vulkan
// queue's mutex, which lavapipe's single queue family makes common to all three D3D12 queues), and a
// Wait issued before the matching Signal is skipped without a word ("Failed to acquire Vulkan
// semaphore"). So on vkd3d dx12kit never calls Wait: a wait on a value not reached yet is queued in
// this queue's FIFO, and the queue's worker thread waits on the CPU for the other fence (through its
// FenceWaiter, no backend lock held) before it issues the ops after it. Once one op is queued, every
// later op of the queue is queued too until the FIFO drains, so the backend sees each queue's ops in
// exactly the order the callers made them. A wait on a value already reached is nothing to do.
// Everything else (the FIFO empty, no unreached wait) is issued on the caller's thread as before: the
// plain path costs one atomic load. On Windows every op is issued directly (Wait does not block).
//
// Fence values are assigned by the caller (CommandQueue, under the submission mutex) at enqueue.
// A queued ExecuteCommandLists owns its native lists until it is issued; the worker then hands them
// back (TakeSubmittedLists, merged into the queue's list pool under the submission mutex), so a list
// is never reset before it reaches the backend. The first failure of a queued op is kept (Failure())
// and reported by the queue. Thread-safe; the worker takes neither the GIL nor the submission mutex.
#pragma once

#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dx12kit {

class FenceWaiter;

class QueueSubmitter {
public:
    /// `mayDefer`: whether unreached waits go to the worker (vkd3d); false issues every op directly.
    QueueSubmitter(ComPtr<ID3D12CommandQueue> queue, ComPtr<ID3D12Fence> fence, std::string name, bool mayDefer);
    ~QueueSubmitter();  // Stop()s the worker (the queue is flushed first)
    QueueSubmitter(const QueueSubmitter&) = delete;
    QueueSubmitter& operator=(const QueueSubmitter&) = delete;

    /// No op queued or being issued: the caller may issue directly. One acquire load.
    bool Idle() const { return m_Unfinished.load(std::memory_order_acquire) == 0; }
    /// ExecuteCommandLists now, or queued (returns true) behind earlier queued ops: the op then holds
    /// its own references to the lists, and the caller must not pool them (TakeSubmittedLists does).
    /// `value` is the fence value that will mark the lists (for messages).
    bool Execute(UINT count, ID3D12CommandList* const* lists, uint64_t value);
    /// Signal(fence, value) now (its HRESULT), or queued (S_OK; a failure is kept for Failure()).
    HRESULT Signal(uint64_t value);
    /// This queue waits until `other`'s fence reaches `value`: nothing when it has (on vkd3d), else
    /// queued for the worker (vkd3d) or ID3D12CommandQueue::Wait (Windows). `other` must have a
    /// Signal of at least `value` issued or queued. `next` is the fence value this queue's next
    /// submission will get (for a failure's messages and the waits it fails).
    HRESULT Wait(const std::shared_ptr<QueueSubmitter>& other, uint64_t value, uint64_t next);
    /// Signal(fence, IssuedSignal()) again while the worker is busy (the stall cure, CommandQueue::
    /// HealIfStalled): under the FIFO mutex, which the worker holds while it issues a Signal, so
    /// no newer signal can land before it. S_OK when nothing was issued yet.
    HRESULT Reissue();

    /// The fence's completed value, never going back (vkd3d 1.2 can lower it; CommandQueue.hpp).
    uint64_t ReadCompleted() const;
    /// The highest value a Signal was issued to the backend for.
    uint64_t IssuedSignal() const { return m_IssuedSignal.load(std::memory_order_acquire); }
    FenceWaiter& Waiter() const { return *m_Waiter; }
    ID3D12CommandQueue* Native() const { return m_Queue.Get(); }
    ID3D12Fence* Fence() const { return m_Fence.Get(); }

    /// Native lists the worker has issued, for the queue's pool (caller holds the submission mutex).
    bool HasSubmittedLists() const { return m_HasHandback.load(std::memory_order_acquire); }
    void TakeSubmittedLists(std::vector<ComPtr<ID3D12GraphicsCommandList>>& pool);

    struct Failure {
        HRESULT hr = S_OK;
        uint64_t value = 0;  ///< the fence value of the queue's work the failed op belonged to
        std::string what;    ///< "Signal of fence value 7", "wait for compute's fence value 4", ...
    };
    /// Whether a queued op failed and was not reported yet (one acquire load).
    bool Failed() const { return m_Failed.load(std::memory_order_acquire); }
    Failure FirstFailure() const;
    /// Takes the unreported failure (the first since the last one taken) when it belongs to work at or
    /// before fence value `upTo`: the caller reports it, and later failures can be reported again.
    bool TakeFailure(uint64_t upTo, Failure& out);
    /// For tests of the error path: the next queued op fails with `hr` instead of being issued
    /// (the op is dropped, as a failed backend call would leave it).
    void FailNextQueuedOp(HRESULT hr);

    /// Counters (relaxed): ops issued by the worker, waits it did on the CPU, times the worker started.
    uint64_t QueuedOps() const { return m_QueuedOps.load(std::memory_order_relaxed); }
    uint64_t WorkerWaits() const { return m_WorkerWaits.load(std::memory_order_relaxed); }

    /// Waits until every queued op is issued, then ends the worker. Called once the queue is flushed.
    void Stop();
    /// Leaves the worker running with this object (never joined, never freed): a queue whose final
    /// flush was interrupted must not free what the worker may still use.
    void Abandon(const std::shared_ptr<QueueSubmitter>& self);

private:
    struct Op {
        enum Kind : uint8_t { kExecute, kSignal, kWait } kind;
        uint64_t value = 0;
        std::vector<ComPtr<ID3D12GraphicsCommandList>> lists;  // kExecute
        std::shared_ptr<QueueSubmitter> other;                 // kWait
        uint64_t next = 0;                                     // kWait: the value of the work after it
    };
    void Enqueue(Op op);
    void Work();
    void RunOp(Op& op);
    void WaitOnCpu(QueueSubmitter& other, uint64_t value);
    void NoteIssued(uint64_t value);
    void Fail(HRESULT hr, uint64_t value, std::string what);

    ComPtr<ID3D12CommandQueue> m_Queue;
    ComPtr<ID3D12Fence> m_Fence;
    std::unique_ptr<FenceWaiter> m_Waiter;
    std::string m_Name;
    const bool m_MayDefer;
    mutable std::atomic<uint64_t> m_CompletedSeen{0};
    std::atomic<uint64_t> m_IssuedSignal{0};
    std::atomic<size_t> m_Unfinished{0};  // queued ops not yet issued (the one in progress included)
    std::atomic<bool> m_HasHandback{false};
    std::atomic<bool> m_Failed{false};
    std::atomic<uint64_t> m_QueuedOps{0}, m_WorkerWaits{0};

    mutable std::mutex m_Mutex;         // guards everything below
    std::condition_variable m_Work;     // worker: an op arrived, or stop
    std::condition_variable m_Drained;  // Stop(): the FIFO is empty
    std::deque<Op> m_Fifo;
    std::vector<ComPtr<ID3D12GraphicsCommandList>> m_Handback;
    Failure m_Failure;
    HRESULT m_InjectFailure = S_OK;
    bool m_Stop = false;
    std::thread m_Thread;  // started by the first queued op
};

}  // namespace dx12kit
