// CommandQueue: an ID3D12CommandQueue, its fence, and the work it has in flight.
//
// Execute() locks the lists (a thread still recording waits, then finds the list closed), then
// runs under the device's submission mutex, all or nothing:
//   1. validate: each list resolves its pending barriers against a copy of the global states
//      (ExecuteStates), advanced list by list; D3D12's implicit decay applies once, after the last
//      list (d3d12rules rule 5). Nothing has changed yet, so any error leaves every list open and
//      re-executable and every global state as it was;
//   2. the transitions go into small command lists executed just before each list; those this
//      queue type may not record (d3d12rules rule 3: a compute queue leaving RENDER_TARGET) go
//      into one list executed on the direct queue, which this queue waits for on the GPU;
//   3. the lists are closed; only if every Close succeeded are the states committed, then
//      ExecuteCommandLists, Signal(fence, ++value), and an in-flight record
//      {serial, fence value, command allocators, every object the lists used, upload pages,
//       descriptor chunks} that is released when the fence reaches the value.
//
// Fence signals on vkd3d are lazy: every execute gets the next fence value as before,
// but Signal(fence, value) is issued only when no signal of the device is pending, or when a CPU
// wait, a GPU wait of another queue or a poll needs a value not signalled yet (EnsureSignalled,
// PumpSignal). vkd3d 1.2 has one thread per device waiting on every pending signal's Vulkan fence
// at once, and lavapipe answers that wait-any by polling: with many signals pending the thread
// burns a core. One signal covers every earlier execute of its queue (a queue runs in order), so
// everything that retires by fence value or serial still does, one signal round later at most.
// On Windows every execute signals (drivers wait properly); DeviceOptions::lazyFenceSignals.
//
// vkd3d 1.2 can move a fence's value backwards (measured here: 128555 -> 128553, once in 400k
// executes): a Signal whose Vulkan fence is already complete is applied at once on the calling
// thread, and the device's fence thread applies an older pending value after it. The later value
// is then lost until the next signal. dx12kit reads the fence only through ReadCompleted(), which
// never goes back (the highest value seen), and a signal that makes no progress for a while is
// issued again (HealIfStalled, one timer per queue, checked by waits, polls, completed-value reads
// and the lazy-signal test of every queue), so that nothing waits forever for a value vkd3d forgot.
// Command allocators and native command lists are pooled and reused after their fence.
//
// Cross-queue hazards (D3D12Rules rule 7): each resource remembers the last submission that wrote
// it (queue, fence value) and, per queue, the last one that read it since (Resource::QueueUses).
// Execute collects, for the resources its lists use, the other queues' values it must follow:
// the last write (read-after-write, write-after-write) and, where the lists write the resource,
// the reads (write-after-read). A write is a write state, a transition (resolved at execute
// included), a UAV barrier, an aliasing activation. Per other queue the highest value becomes one
// ID3D12CommandQueue::Wait before the ExecuteCommandLists (and so before the transition lists
// inserted for it), unless that value is complete already (the other fence is read) or this queue
// already waits for it (a table per queue of the value it waited up to, advanced by these waits,
// by WaitFor and by the waits for dx12kit's own work). The direct-queue transition list of a
// compute or copy execute gets the same treatment on the direct queue. No CPU wait; counted in
// CrossQueueCounters (CommandQueue.stats() in Python).
//
// Every native call of the queue (ExecuteCommandLists, Signal, Wait) goes through its QueueSubmitter
// (QueueSubmitter.hpp): on vkd3d a GPU wait on a value not reached yet is handed to the queue's
// submission thread with every op after it until that thread's FIFO drains, so execute never blocks
// in the backend; fence values are still assigned here, at execute, under the submission mutex. A
// failure of a queued op is raised (DeviceError, naming the op) by the next execute, command_list or
// completed_value of the queue, and by every wait for a value at or after the failed one.
//
// Thread-safe: several threads may record lists for one queue and execute them concurrently.
#pragma once

#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dx12kit {

class Device;
class DeviceContext;
class CommandList;
class Resource;
class QueueSubmitter;
class FenceCheckSink;

/// One transition that Execute inserted before a list (see CommandQueue::LastInsertedBarriers).
struct InsertedBarrier {
    uint32_t listIndex;    ///< position of the list in the Execute call
    std::string resource;  ///< the resource's name
    uint32_t subresource;  ///< or kAllSubresources
    D3D12_RESOURCE_STATES before, after;
    bool onDirectQueue = false;  ///< recorded on the direct queue (this queue type may not)
};

class CommandQueue {
public:
    CommandQueue(Device& device, D3D12_COMMAND_LIST_TYPE type);
    ~CommandQueue();

    D3D12_COMMAND_LIST_TYPE Type() const { return m_Type; }
    /// Its name, for messages and debuggers ("direct", "compute" or "copy" unless set; SetName also
    /// names the native queue). Thread-safe.
    std::string Name() const;
    void SetName(std::string name);
    ID3D12CommandQueue* D3D12Queue() const { return m_d3d12Queue.Get(); }
    ID3D12Fence* D3D12Fence() const { return m_d3d12Fence.Get(); }
    const std::shared_ptr<DeviceContext>& Context() const { return m_Context; }

    /// A new command list recording for this queue. `self` is this queue's owning pointer.
    std::shared_ptr<CommandList> CreateCommandList(const std::shared_ptr<CommandQueue>& self);
    /// Executes `lists` in order; returns the fence value that marks their completion.
    uint64_t Execute(const std::vector<std::shared_ptr<CommandList>>& lists);
    /// Writes `bytes` of `data` into `buffer` at `offset` as if a command list holding only that
    /// upload were executed now (wgpu's queue.write_buffer). A CPU-visible 'default' buffer
    /// (uma_direct, UmaAccess.hpp) that no unfinished submission uses is written by one memcpy
    /// from `data` under the submission mutex (no upload memory, nothing submitted); otherwise
    /// such a list is recorded and executed. Returns a fence value of this queue after which the
    /// data is in place (the completed value when written directly). `self` is this queue's
    /// owning pointer.
    uint64_t WriteBuffer(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<Resource>& buffer, const void* data, uint64_t bytes,
                         uint64_t offset);
    /// Executes a list dx12kit recorded itself (no state tracking), signals, and keeps `tracked`
    /// alive until every submission up to this one, on every queue, has completed
    /// (DeviceContext::ReleaseAfter). Returns the fence value; `serial` (if given) receives the
    /// submission's serial. Caller holds the submission mutex.
    uint64_t ExecuteInternal(ComPtr<ID3D12GraphicsCommandList> list, ComPtr<ID3D12CommandAllocator> allocator,
                             std::vector<std::shared_ptr<void>> tracked, uint64_t* serial = nullptr);
    /// Blocks until the fence reaches `value` (InvalidArgument if never signalled). `timeoutSeconds`
    /// < 0 waits forever; Timeout is thrown when it expires, Interrupted when WaitHooks say stop.
    void Wait(uint64_t value, double timeoutSeconds = -1.0);
    /// Signals and waits: every submitted list has completed on return (same timeout rules).
    /// `raiseGpuErrors`: raise the errors the GPU found (FenceChecks.hpp; Device::WaitIdle raises
    /// them itself once every queue is idle).
    uint64_t Flush(double timeoutSeconds = -1.0, bool raiseGpuErrors = true);
    /// THE one place the CPU waits for this queue's fence (every wait above and below goes through
    /// it): waits in slices of WaitHooks::sliceMs through WaitHooks::blocking, asking
    /// WaitHooks::keepWaiting between slices (Interrupted when it says stop). Returns false when
    /// `timeoutSeconds` (>= 0) expired first.
    bool WaitForFence(uint64_t value, double timeoutSeconds = -1.0);
    /// Makes this queue wait on the GPU until `other` reaches `value`.
    void WaitFor(CommandQueue& other, uint64_t value);
    /// The fence's completed value (issues a deferred signal first when none is pending, so that a
    /// loop reading only this value still sees progress).
    uint64_t CompletedValue();
    /// Makes sure a signal of at least `value` is issued (lazy signals; see above):
    /// DeferredSignalTarget(value, false).
    void EnsureSignalled(uint64_t value);
    /// For a CPU wait for `value`: the value to wait for first. Issues the signal `value` needs and
    /// returns `value`, unless (lazy signals, `afterPending`) this queue's own signal is still
    /// pending: then returns that signal's value and issues nothing, so that one signal is pending
    /// at a time.
    uint64_t DeferredSignalTarget(uint64_t value, bool afterPending = true);
    /// Whether a signal issued on this queue has not been reached yet. When it has made no
    /// progress for a while, re-issues the latest signal first (HealIfStalled). Caller holds the
    /// submission mutex.
    bool SignalPending();
    /// The fence's completed value as dx12kit counts it: the highest value ever read, so that it
    /// never goes back (vkd3d 1.2 can lower it; see above). Thread-safe.
    uint64_t ReadCompleted() const;
    /// Whether executes signal lazily (DeviceOptions::lazyFenceSignals, in effect on vkd3d only).
    bool LazySignals() const { return m_LazySignals; }
    /// Issues the deferred signal when the device has no signal pending. Caller holds the submission mutex.
    void PumpSignal();
    /// The transitions the last Execute on this queue inserted before its lists, resolved against
    /// the global states (for tests and debugging; a copy, taken under the submission mutex).
    std::vector<InsertedBarrier> LastInsertedBarriers() const;
    uint64_t LastSubmittedValue() const;

    /// Cross-queue hazard counters (see above). Thread-safe.
    struct CrossQueueStats {
        uint64_t waits = 0;          ///< GPU waits Execute inserted on this queue
        uint64_t waitsOn[4] = {};    ///< of which on each other queue, by D3D12_COMMAND_LIST_TYPE
        uint64_t completed = 0;      ///< hazards on work already complete at execute: no wait
        uint64_t alreadyWaited = 0;  ///< hazards this queue already waited for (wait_for, earlier waits)
    };
    CrossQueueStats CrossQueueCounters() const;
    /// This queue's share of DeviceContext::Submits()' executes, signals, overlapping and re-issued
    /// signals (the device's counters stay the sums). Thread-safe.
    struct SubmitCounts {
        uint64_t executes = 0, signals = 0, overlappingSignals = 0, reissuedSignals = 0;
    };
    SubmitCounts SubmitCounters() const { return {m_Executes.load(), m_Signals.load(), m_OverlappingSignals.load(), m_ReissuedSignals.load()}; }
    /// Records that this queue waits on the GPU until `other` reaches `value` (a wait dx12kit issued
    /// itself): later executes do not wait for that value again. Caller holds the submission mutex.
    void NoteGpuWait(const CommandQueue& other, uint64_t value);
    /// Makes this queue wait on the GPU until `other` reaches `value` (through the submitter: never
    /// blocks the caller). For dx12kit's own waits; callers then NoteGpuWait. Caller holds the
    /// submission mutex.
    HRESULT IssueWait(CommandQueue& other, uint64_t value);
    /// The queue's submitter (its submission thread, counters, the test hook for queued failures).
    QueueSubmitter& Submitter() const { return *m_Submitter; }
    /// Errors the GPU found in the device's work (FenceChecks.hpp; one sink per device), raised by the
    /// next Wait, Flush, ReadBuffer, ReadTexture or ReadQueries of any queue, or Device::WaitIdle.
    const std::shared_ptr<FenceCheckSink>& FenceChecks() const;

    /// Copies a buffer back to the CPU into `dst` (`size` bytes = the buffer's size): records a
    /// copy into this queue's readback buffer (kept and grown as needed), executes, waits.
    void ReadBuffer(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<class Resource>& buffer, void* dst, uint64_t size,
                    double timeoutSeconds = -1.0);
    /// Resolves queries [start, start + count) of `heap` (CommandList::ResolveQueryData's checks) into
    /// this queue's readback buffer, executes, waits, and copies the `size` bytes of results to `dst`.
    void ReadQueries(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<class QueryHeap>& heap, D3D12_QUERY_TYPE type, uint32_t start,
                     uint32_t count, void* dst, uint64_t size, double timeoutSeconds = -1.0);
    /// Ticks per second of the timestamps written on this queue (GetTimestampFrequency).
    /// InvalidArgument on a copy queue of a device without copy-queue timestamps.
    uint64_t TimestampFrequency() const;
    /// Copies subresource (mip, slice) of a texture into `dst` as tightly packed rows.
    void ReadTexture(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<class Resource>& texture, uint32_t mip, uint32_t arraySlice,
                     void* dst, uint64_t size, double timeoutSeconds = -1.0);

    /// Releases completed in-flight work. Returns the smallest serial still in flight on this
    /// queue, or UINT64_MAX when idle. Caller holds the device's submission mutex.
    uint64_t Poll();
    /// Waits for the oldest in-flight submission; false when nothing is in flight.
    /// Throws Timeout when `timeoutSeconds` (>= 0) expires first.
    bool WaitOldest(double timeoutSeconds = -1.0);

    // Pools (caller holds the submission mutex).
    ComPtr<ID3D12CommandAllocator> AcquireAllocator() { return AcquireAllocatorFrom(m_AllocatorPool); }
    /// An allocator for dx12kit's own fix-up lists (barriers and copies only), from a pool of its own:
    /// such an allocator never held a vkd3d buffer view (vkd3d 1.2 makes one per root UAV/SRV a user
    /// list sets, destroyed at the allocator's reset), so resetting it never waits for lavapipe's queue
    /// lock, which Mesa 25's lavapipe holds while it runs submitted work: Execute never waits for the GPU.
    ComPtr<ID3D12CommandAllocator> AcquireFixUpAllocator() { return AcquireAllocatorFrom(m_FixUpAllocatorPool); }
    ComPtr<ID3D12GraphicsCommandList> AcquireList(ID3D12CommandAllocator* allocator);
    void ReturnUnused(ComPtr<ID3D12CommandAllocator> allocator, ComPtr<ID3D12GraphicsCommandList> list);

private:
    /// The oldest allocator of `pool` (one of the two above), reset; or a new one.
    ComPtr<ID3D12CommandAllocator> AcquireAllocatorFrom(std::deque<ComPtr<ID3D12CommandAllocator>>& pool);
    // The halves of AcquireAllocator / AcquireList that need no lock: reset a pooled object (now the
    // caller's alone), or create one when `pooled` is null.
    ComPtr<ID3D12CommandAllocator> ReadyAllocator(ComPtr<ID3D12CommandAllocator> pooled);
    ComPtr<ID3D12GraphicsCommandList> ReadyList(ComPtr<ID3D12GraphicsCommandList> pooled, ID3D12CommandAllocator* allocator);

    mutable std::mutex m_NameMutex;
    std::string m_Name;
    struct InFlight {
        uint64_t serial;
        uint64_t fenceValue;
        std::vector<ComPtr<ID3D12CommandAllocator>> allocators;
        std::vector<ComPtr<ID3D12CommandAllocator>> fixUpAllocators;  // back to m_FixUpAllocatorPool
        std::vector<std::shared_ptr<void>> tracked;
    };

    Device& m_Device;
    std::shared_ptr<DeviceContext> m_Context;
    D3D12_COMMAND_LIST_TYPE m_Type;
    ComPtr<ID3D12CommandQueue> m_d3d12Queue;
    ComPtr<ID3D12Fence> m_d3d12Fence;
    uint64_t m_LastSubmitted = 0;  // fence value of the latest submission (what Execute returns)
    uint64_t m_LastSignalled = 0;  // latest value a Signal was issued for (<= m_LastSubmitted)
    // The stall timer (vkd3d only; guarded by the submission mutex): the completed value last
    // seen below m_LastSignalled, since when it has not moved (or the latest signal), and how long
    // a stall lasts before the next re-issued signal.
    uint64_t m_HealSeen = 0;
    std::chrono::steady_clock::time_point m_HealSince{};
    std::chrono::steady_clock::duration m_HealAfter = std::chrono::milliseconds(50);
    // Whether a signal was issued while an earlier one was not yet seen reached (since the fence
    // last caught up with m_LastSignalled): only then can vkd3d lose a value, and only then are
    // stalls healed after m_HealAfter rather than after 2 s.
    bool m_SignalOverlap = false;
    /// Re-issues the latest signal when `done` (< m_LastSignalled) has not moved for
    /// m_HealAfter; doubles m_HealAfter (at most 2 s) each time. Caller holds the submission mutex.
    void HealIfStalled(uint64_t done);
    /// Raises a failure of a queued op (QueueSubmitter::Failure, DeviceError naming the op) that no
    /// call reported yet: at the next execute, command_list or completed_value (`upTo` = all), or at
    /// a wait for a value at or after the failed op's (`upTo` = that value). Each failure is raised once.
    void ThrowIfQueuedOpFailed(const char* what, uint64_t upTo = UINT64_MAX) const;
    /// Pools a submitted native list (not when its submission was queued: the submitter hands it
    /// back once issued). Caller holds the submission mutex.
    void PoolSubmitted(ComPtr<ID3D12GraphicsCommandList> list, bool queued);
    /// SignalPending for a completed value the caller has just read (no second fence read).
    bool SignalPendingAt(uint64_t done);
    bool m_LazySignals = false;
    /// Signal(fence, m_LastSubmitted) now. Caller holds the submission mutex.
    /// ExecuteCommandLists (through the submitter), counted in DeviceContext::Submits(). Returns whether
    /// it was queued (see PoolSubmitted). Caller holds the submission mutex.
    bool Submit(UINT count, ID3D12CommandList* const* lists);
    HRESULT SignalSubmitted();
    std::vector<InsertedBarrier> m_LastInserted;
    // Cross-queue hazards (guarded by the submission mutex; the counters are read without it).
    uint64_t m_WaitedUpTo[4] = {0, 0, 0, 0};  // per other queue type: value this queue waits for
    std::atomic<uint64_t> m_XqWaits{0}, m_XqCompleted{0}, m_XqAlreadyWaited{0};
    std::atomic<uint64_t> m_Executes{0}, m_Signals{0}, m_OverlappingSignals{0}, m_ReissuedSignals{0};  // SubmitCounters
    std::atomic<uint64_t> m_XqWaitsOn[4] = {{0}, {0}, {0}, {0}};
    /// Issues one GPU wait per other queue whose `needed` value (by queue type) is neither complete
    /// nor waited for already; signals it first when lazy signals left it unsignalled. Never throws:
    /// returns the first failure. Caller holds the submission mutex.
    HRESULT WaitForHazards(const uint64_t (&needed)[4]);
    // Execute's steps, in order (CommandQueue.cpp); the plan carries what one hands to the next.
    // Caller holds the submission mutex. Nothing changes global state before CommitExecute.
    struct ExecutePlan;
    void ValidateForExecute(const std::vector<std::shared_ptr<CommandList>>& lists, size_t distinct) const;
    void ResolveBarriers(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan);
    void PlaceBarriers(size_t li, const CommandList& list, const std::vector<D3D12_RESOURCE_BARRIER>& barriers, const std::vector<Resource*>& owners,
                       ExecutePlan& plan);
    void PlaceUmaWrites(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan) const;
    void RecordFixUpLists(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan);
    void CommitExecute(ExecutePlan& plan);
    void SubmitDirectTransitions(ExecutePlan& plan);
    void WaitForListHazards(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan);
    uint64_t SubmitLists(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan);
    std::deque<InFlight> m_InFlight;
    std::deque<ComPtr<ID3D12CommandAllocator>> m_AllocatorPool;       // only allocators whose work completed
    std::deque<ComPtr<ID3D12CommandAllocator>> m_FixUpAllocatorPool;  // the same, of fix-up lists only (AcquireFixUpAllocator)
    std::vector<ComPtr<ID3D12GraphicsCommandList>> m_ListPool;
    std::mutex m_ReadbackMutex;                                     // one readback at a time per queue
    std::shared_ptr<class Resource> m_Readback;                     // reused READBACK buffer, grown as needed
    std::shared_ptr<class Resource> ReadbackBuffer(uint64_t size);  // caller holds m_ReadbackMutex
    // The native calls, the submission thread and the timed waits on m_d3d12Fence (declared after
    // it: destroyed first, once the queue is idle).
    std::shared_ptr<QueueSubmitter> m_Submitter;
};

}  // namespace dx12kit
