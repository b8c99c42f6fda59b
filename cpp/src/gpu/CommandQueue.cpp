#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/QueryHeap.hpp"
#include "dx12kit/gpu/QueueSubmitter.hpp"

#include "dx12kit/base/HostCopy.hpp"

#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/FenceChecks.hpp"
#include "dx12kit/gpu/UmaAccess.hpp"
#include "dx12kit/platform/FenceEvent.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

namespace dx12kit {

const std::shared_ptr<FenceCheckSink>& CommandQueue::FenceChecks() const {
    return m_Device.FenceChecks();  // one sink per device (Device.hpp)
}

CommandQueue::CommandQueue(Device& device, D3D12_COMMAND_LIST_TYPE type) : m_Device(device), m_Context(device.Context()), m_Type(type) {
    D3D12_COMMAND_QUEUE_DESC d{};
    d.Type = type;
    d.Priority = D3D12_COMMAND_QUEUE_PRIORITY_NORMAL;
    d.Flags = D3D12_COMMAND_QUEUE_FLAG_NONE;
    ID3D12Device* dev = m_Context->D3D12Device();
    ThrowIfFailed(dev->CreateCommandQueue(&d, IID_ID3D12CommandQueue, m_d3d12Queue.ReleaseAndGetVoidAddress()), "CreateCommandQueue");
    ThrowIfFailed(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_ID3D12Fence, m_d3d12Fence.ReleaseAndGetVoidAddress()), "CreateFence");
    const char* name = type == D3D12_COMMAND_LIST_TYPE_DIRECT ? "direct" : type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "compute" : "copy";
#if defined(_WIN32)
    constexpr bool kMayDefer = false;  // ID3D12CommandQueue::Wait queues the wait and returns
#else
    constexpr bool kMayDefer = true;  // vkd3d blocks in a Wait on an unreached value (QueueSubmitter.hpp)
#endif
    m_Submitter = std::make_shared<QueueSubmitter>(m_d3d12Queue, m_d3d12Fence, name, kMayDefer);
    SetName(type == D3D12_COMMAND_LIST_TYPE_DIRECT ? "direct" : type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "compute" : "copy");
#if !defined(_WIN32)
    m_LazySignals = m_Context->Options().lazyFenceSignals;
#endif
}

std::string CommandQueue::Name() const {
    std::lock_guard<std::mutex> lock(m_NameMutex);
    return m_Name;
}

void CommandQueue::SetName(std::string name) {
    std::lock_guard<std::mutex> lock(m_NameMutex);
    m_Name = std::move(name);
    const std::wstring wide(m_Name.begin(), m_Name.end());
    m_d3d12Queue->SetName(wide.c_str());
}

CommandQueue::~CommandQueue() {
    try {
        Flush();
    } catch (...) {
        // Interrupted: work may still run on the GPU. Leak what it uses (and the events it may
        // still signal) rather than free it under the GPU.
        new std::deque<InFlight>(std::move(m_InFlight));
        new std::shared_ptr<DeviceContext>(m_Context);  // its heaps, pages and memory blocks too
        m_Submitter->Abandon(m_Submitter);              // its thread may still issue, its waiter still be signalled
        (void)m_d3d12Queue.AddRefAndGet();
        (void)m_d3d12Fence.AddRefAndGet();
        return;
    }
    m_Submitter->Stop();  // every queued op was issued before the flush's signal: returns at once
    m_InFlight.clear();
}

std::vector<InsertedBarrier> CommandQueue::LastInsertedBarriers() const {
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    return m_LastInserted;
}

uint64_t CommandQueue::LastSubmittedValue() const {
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    return m_LastSubmitted;
}

bool CommandQueue::Submit(UINT count, ID3D12CommandList* const* lists) {
    m_Context->CheckNotForked("execute");
    const bool queued = m_Submitter->Execute(count, lists, m_LastSubmitted + 1);
    m_Context->Submits().submissions.fetch_add(1, std::memory_order_relaxed);
    m_Executes.fetch_add(1, std::memory_order_relaxed);
    return queued;
}

void CommandQueue::PoolSubmitted(ComPtr<ID3D12GraphicsCommandList> list, bool queued) {
    if (!queued) m_ListPool.push_back(std::move(list));  // a list may be reset once submitted
}

HRESULT CommandQueue::IssueWait(CommandQueue& other, uint64_t value) {
    return m_Submitter->Wait(other.m_Submitter, value, m_LastSubmitted + 1);
}

void CommandQueue::ThrowIfQueuedOpFailed(const char* what, uint64_t upTo) const {
    QueueSubmitter::Failure f;
    if (!m_Submitter->Failed() || !m_Submitter->TakeFailure(upTo, f)) return;
    throw DeviceError(std::string(what) + ": an earlier submission on queue '" + Name() + "' failed on its submission thread: " + f.what + " (" +
                          HResultName(f.hr) + "); the work from fence value " + std::to_string(f.value) + " on may have run without it",
                      static_cast<int32_t>(f.hr), HResultName(f.hr));
}

HRESULT CommandQueue::SignalSubmitted() {
    m_Context->Submits().signals.fetch_add(1, std::memory_order_relaxed);
    m_Signals.fetch_add(1, std::memory_order_relaxed);
    // A signal issued while an earlier one of this queue is not seen reached: the case in which vkd3d
    // 1.2 can lose a value (see the header), so stalls are healed quickly until the fence catches up.
    if (m_LastSignalled > ReadCompleted()) {
        m_SignalOverlap = true;
        m_Context->Submits().overlappingSignals.fetch_add(1, std::memory_order_relaxed);
        m_OverlappingSignals.fetch_add(1, std::memory_order_relaxed);
    }
    const HRESULT hr = m_Submitter->Signal(m_LastSubmitted);
    if (SUCCEEDED(hr)) {
        m_LastSignalled = m_LastSubmitted;
        m_HealSince = std::chrono::steady_clock::now();  // a stall is counted from the latest signal
    }
    return hr;
}

bool CommandQueue::SignalPending() {
    return SignalPendingAt(ReadCompleted());
}

bool CommandQueue::SignalPendingAt(uint64_t done) {
    if (done >= m_LastSignalled) {
        m_SignalOverlap = false;
        return false;
    }
#if !defined(_WIN32)
    HealIfStalled(done);
#endif
    return true;
}

uint64_t CommandQueue::ReadCompleted() const {
    return m_Submitter->ReadCompleted();
}

void CommandQueue::HealIfStalled(uint64_t done) {
    // One timer per queue (not per waiter or per call): however many threads wait or poll, a
    // stall costs one re-issued signal after kHealFirst, then one after twice as long each time.
    // The re-issued signal is the latest submission's: harmless when the value is merely still
    // ahead (long GPU work), and it restores a value vkd3d's fence lost by going back.
    constexpr auto kHealFirst = std::chrono::milliseconds(50);
    constexpr auto kHealMax = std::chrono::milliseconds(2000);
    const auto now = std::chrono::steady_clock::now();
    const bool idle = m_Submitter->Idle();
    if (done != m_HealSeen || (!idle && done >= m_Submitter->IssuedSignal())) {
        // Progress, or every signal issued so far is reached and the rest is still queued on the
        // submission thread (late, not lost): start over.
        m_HealSeen = done;
        m_HealSince = now;
        m_HealAfter = kHealFirst;
        return;
    }
    // With one signal pending at a time no value can be lost: a stall is then long GPU work (W4's
    // 100 frames behind one signal), and a re-issued signal would only be a second pending one
    // that vkd3d's fence thread polls for until both are reached. Healed after kHealMax only.
    if (now - m_HealSince < (m_SignalOverlap ? m_HealAfter : std::max<std::chrono::steady_clock::duration>(m_HealAfter, kHealMax))) return;
    // Never throws (Execute checks for pending signals after its lists are on the GPU): a failed
    // re-issue is tried again after the next stall.
    m_Context->Submits().reissuedSignals.fetch_add(1, std::memory_order_relaxed);
    m_ReissuedSignals.fetch_add(1, std::memory_order_relaxed);
    if (idle) {
        (void)SignalSubmitted();  // restarts m_HealSince
    } else {
        // The submission thread is busy: re-issue the latest signal it issued, ordered with its own.
        m_Context->Submits().signals.fetch_add(1, std::memory_order_relaxed);
        m_Signals.fetch_add(1, std::memory_order_relaxed);
        (void)m_Submitter->Reissue();
        m_HealSince = now;
    }
    m_HealAfter = std::min<std::chrono::steady_clock::duration>(m_HealAfter * 2, kHealMax);
}

void CommandQueue::PumpSignal() {
    if (m_LastSubmitted > m_LastSignalled && !m_Device.AnySignalPending()) ThrowIfFailed(SignalSubmitted(), "ID3D12CommandQueue::Signal");
}

uint64_t CommandQueue::DeferredSignalTarget(uint64_t value, bool afterPending) {
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    if (value <= m_LastSignalled || value > m_LastSubmitted) return value;
    if (afterPending && m_LazySignals) {
        const uint64_t done = ReadCompleted();
        if (done < m_LastSignalled) return m_LastSignalled;  // this queue's signal is pending: wait for it first
    }
    ThrowIfFailed(SignalSubmitted(), "ID3D12CommandQueue::Signal");
    return value;
}

void CommandQueue::EnsureSignalled(uint64_t value) {
    (void)DeferredSignalTarget(value, false);  // a GPU wait cannot wait for the pending signal first
}

uint64_t CommandQueue::CompletedValue() {
    m_Context->CheckNotForked("completed_value");
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    ThrowIfQueuedOpFailed("completed_value");
    PumpSignal();
    const uint64_t done = ReadCompleted();
    SignalPendingAt(done);  // re-issues a signal that has stalled (vkd3d's lost values; see the header)
    return done;
}

ComPtr<ID3D12CommandAllocator> CommandQueue::ReadyAllocator(ComPtr<ID3D12CommandAllocator> a) {
    if (a) {
        ThrowIfFailed(a->Reset(), "ID3D12CommandAllocator::Reset");
        return a;
    }
    ThrowIfFailed(m_Context->D3D12Device()->CreateCommandAllocator(m_Type, IID_ID3D12CommandAllocator, a.ReleaseAndGetVoidAddress()),
                  "CreateCommandAllocator");
    return a;
}

ComPtr<ID3D12GraphicsCommandList> CommandQueue::ReadyList(ComPtr<ID3D12GraphicsCommandList> l, ID3D12CommandAllocator* allocator) {
    if (l) {
        ThrowIfFailed(l->Reset(allocator, nullptr), "ID3D12GraphicsCommandList::Reset");
        return l;
    }
    ThrowIfFailed(
        m_Context->D3D12Device()->CreateCommandList(0, m_Type, allocator, nullptr, IID_ID3D12GraphicsCommandList, l.ReleaseAndGetVoidAddress()),
        "CreateCommandList");
    return l;
}

ComPtr<ID3D12CommandAllocator> CommandQueue::AcquireAllocatorFrom(std::deque<ComPtr<ID3D12CommandAllocator>>& pool) {
    ComPtr<ID3D12CommandAllocator> a;
    if (!pool.empty()) {
        a = std::move(pool.front());
        pool.pop_front();
    }
    return ReadyAllocator(std::move(a));
}

ComPtr<ID3D12GraphicsCommandList> CommandQueue::AcquireList(ID3D12CommandAllocator* allocator) {
    if (m_Submitter->HasSubmittedLists()) m_Submitter->TakeSubmittedLists(m_ListPool);
    ComPtr<ID3D12GraphicsCommandList> l;
    if (!m_ListPool.empty()) {
        l = std::move(m_ListPool.back());
        m_ListPool.pop_back();
    }
    return ReadyList(std::move(l), allocator);
}

void CommandQueue::ReturnUnused(ComPtr<ID3D12CommandAllocator> allocator, ComPtr<ID3D12GraphicsCommandList> list) {
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    // A list that was never executed: its allocator holds no GPU work, so it is free at once.
    if (allocator) m_AllocatorPool.push_back(std::move(allocator));
    if (list) m_ListPool.push_back(std::move(list));
}

std::shared_ptr<CommandList> CommandQueue::CreateCommandList(const std::shared_ptr<CommandQueue>& self) {
    m_Context->CheckNotForked("command_list");
    ComPtr<ID3D12CommandAllocator> alloc;
    ComPtr<ID3D12GraphicsCommandList> list;
    {
        std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
        ThrowIfQueuedOpFailed("command_list");
        if (m_Submitter->HasSubmittedLists()) m_Submitter->TakeSubmittedLists(m_ListPool);
        // Device-wide: publishes the completed serial, so upload pages and descriptor chunks of
        // finished work are reused even by a loop that never waits.
        m_Device.Poll();
        if (!m_AllocatorPool.empty()) {
            alloc = std::move(m_AllocatorPool.front());
            m_AllocatorPool.pop_front();
        }
        if (!m_ListPool.empty()) {
            list = std::move(m_ListPool.back());
            m_ListPool.pop_back();
        }
    }
    // The resets run outside the submission mutex: they free the previous recording (about 1 ms for
    // 10,000 draws on vkd3d over lavapipe), and the pooled objects are this call's alone now, so
    // threads creating lists (and executes) do not wait for each other's resets.
    try {
        alloc = ReadyAllocator(std::move(alloc));
    } catch (...) {
        if (list) ReturnUnused(nullptr, std::move(list));  // not reset yet: still poolable
        throw;
    }
    list = ReadyList(std::move(list), alloc.Get());
    return std::make_shared<CommandList>(m_Device.shared_from_this(), self, std::move(alloc), std::move(list));
}

namespace {
// D3D12Rules rule 7 (CommandQueue.hpp): what a submission on queue type `self` using `r` (writing it
// when `writes`) must follow: per other queue type, the highest fence value, into `needed`.
inline void CrossQueueHazard(int self, Resource* r, bool writes, uint64_t (&needed)[4]) {
    const Resource::QueueUses& u = r->CrossQueueUses();
    if (u.writeValue && u.writeQueue != self) needed[u.writeQueue] = std::max(needed[u.writeQueue], u.writeValue);
    if (!writes) return;
    for (int q = 0; q < 4; ++q)
        if (q != self && u.readValue[q] > needed[q]) needed[q] = u.readValue[q];
}

// Rule 7: records the use once submitted as fence `value` of queue type `self`. A write follows
// every earlier use (waited for, or on the same queue), so it replaces them all.
inline void NoteCrossQueueUse(int self, Resource* r, bool writes, uint64_t value) {
    if (self == D3D12_COMMAND_LIST_TYPE_COMPUTE && !r->UsedOnComputeQueue()) r->NoteComputeQueueUse();
    Resource::QueueUses& u = r->CrossQueueUses();
    if (writes) {
        u = Resource::QueueUses{};
        u.writeQueue = static_cast<uint8_t>(self);
        u.writeValue = value;
    } else {
        u.readValue[self] = value;
    }
}
}  // namespace

CommandQueue::CrossQueueStats CommandQueue::CrossQueueCounters() const {
    CrossQueueStats s;
    s.waits = m_XqWaits.load(std::memory_order_relaxed);
    for (int q = 0; q < 4; ++q) s.waitsOn[q] = m_XqWaitsOn[q].load(std::memory_order_relaxed);
    s.completed = m_XqCompleted.load(std::memory_order_relaxed);
    s.alreadyWaited = m_XqAlreadyWaited.load(std::memory_order_relaxed);
    return s;
}

void CommandQueue::NoteGpuWait(const CommandQueue& other, uint64_t value) {
    uint64_t& w = m_WaitedUpTo[static_cast<int>(other.Type())];
    w = std::max(w, value);
}

HRESULT CommandQueue::WaitForHazards(const uint64_t (&needed)[4]) {
    HRESULT failed = S_OK;
    for (int q = 0; q < 4; ++q) {
        const uint64_t value = needed[q];
        if (!value || q == static_cast<int>(m_Type)) continue;
        if (value <= m_WaitedUpTo[q]) {
            m_XqAlreadyWaited.fetch_add(1, std::memory_order_relaxed);
            continue;
        }
        CommandQueue& other = m_Device.QueueRef(static_cast<D3D12_COMMAND_LIST_TYPE>(q));
        if (other.ReadCompleted() >= value) {  // finished work needs no wait
            m_XqCompleted.fetch_add(1, std::memory_order_relaxed);
            continue;
        }
        // Lazy signals: the GPU waits for a value that must be signalled (as in WaitFor).
        HRESULT hr = value > other.m_LastSignalled ? other.SignalSubmitted() : S_OK;
        if (SUCCEEDED(hr)) hr = IssueWait(other, value);
        if (FAILED(hr)) {
            if (SUCCEEDED(failed)) failed = hr;
            continue;
        }
        m_WaitedUpTo[q] = value;
        m_XqWaits.fetch_add(1, std::memory_order_relaxed);
        m_XqWaitsOn[q].fetch_add(1, std::memory_order_relaxed);
    }
    return failed;
}

// What one step of Execute hands to the next (caller holds the submission mutex throughout).
struct CommandQueue::ExecutePlan {
    explicit ExecutePlan(size_t lists) : pre(lists), gpuWrites(lists) {}
    ExecuteStates states;                                  // the global states as the lists leave them
    std::vector<std::vector<D3D12_RESOURCE_BARRIER>> pre;  // per list: barriers recorded before it on this queue
    std::vector<D3D12_RESOURCE_BARRIER> onDirect;          // barriers done on the direct queue before the call
    std::vector<InsertedBarrier> inserted;
    std::vector<Resource*> resolvedWrites;  // rule 7: resources of the barriers resolved here (writes)
    std::vector<Resource*> directOwners;    // the resources of onDirect's barriers
    // Pending writes into CPU-visible buffers: done on the CPU at commit, or by a copy in a pre-list.
    std::vector<const CommandList::PendingWrite*> cpuWrites;
    std::vector<std::vector<const CommandList::PendingWrite*>> gpuWrites;
    uint64_t gpuWriteCount = 0;
    struct Recorded {
        CommandQueue* queue;
        ComPtr<ID3D12CommandAllocator> allocator;
        ComPtr<ID3D12GraphicsCommandList> list;
    };
    std::vector<Recorded> recorded;           // [0] is the direct queue's when onDirect is not empty
    std::vector<ID3D12CommandList*> natives;  // what this queue's ExecuteCommandLists carries, in order
    HRESULT directFailed = S_OK;              // the direct queue's transitions (its signal, this queue's wait)
    HRESULT hazardWaits = S_OK;               // rule 7's GPU waits before this queue's lists
    HRESULT signalled = S_OK;                 // this queue's signal after the lists

    /// Records a fix-up list on `q`: `barriers`, then the `copies`; closed, appended to `recorded`.
    void Record(CommandQueue& q, const std::vector<D3D12_RESOURCE_BARRIER>& barriers, const std::vector<const CommandList::PendingWrite*>* copies);
    /// Rule 7: whether this call's use of `r` is a write (a written use, or a barrier resolved here).
    bool WritesAt(Resource* r, bool writes) const {
        return writes || (!resolvedWrites.empty() && std::binary_search(resolvedWrites.begin(), resolvedWrites.end(), r));
    }
};

void CommandQueue::ExecutePlan::Record(CommandQueue& q, const std::vector<D3D12_RESOURCE_BARRIER>& barriers,
                                       const std::vector<const CommandList::PendingWrite*>* copies) {
    Recorded r{&q, q.AcquireFixUpAllocator(), nullptr};
    r.list = q.AcquireList(r.allocator.Get());
    if (!barriers.empty()) r.list->ResourceBarrier(static_cast<UINT>(barriers.size()), barriers.data());
    if (copies)
        for (const CommandList::PendingWrite* w : *copies)
            r.list->CopyBufferRegion(w->dst->D3D12Resource(), w->offset, w->src.resource, w->src.offset, w->src.size);
    const HRESULT hr = r.list->Close();
    recorded.push_back(std::move(r));
    ThrowIfFailed(hr, "Close (barrier list)");
}


namespace {
// Locks every list before the submission mutex (the order a recording thread takes them in), in
// address order so that two executes sharing lists cannot deadlock. A thread recording into one of
// them finishes its call first; its next call finds the list closed. One lock per distinct list.
std::vector<std::unique_lock<OwnerMutex>> LockListsForExecute(const std::vector<std::shared_ptr<CommandList>>& lists) {
    if (lists.empty()) throw InvalidArgument("execute: no command lists given");
    for (const auto& l : lists)
        if (!l) throw InvalidArgument("execute: None is not a command list");
    std::vector<CommandList*> order;
    for (const auto& l : lists) order.push_back(l.get());
    std::sort(order.begin(), order.end());
    order.erase(std::unique(order.begin(), order.end()), order.end());
    std::vector<std::unique_lock<OwnerMutex>> listLocks;
    listLocks.reserve(order.size());
    for (CommandList* l : order) listLocks.push_back(l->LockForExecute());
    return listLocks;
}
}  // namespace

uint64_t CommandQueue::Execute(const std::vector<std::shared_ptr<CommandList>>& lists) {
    m_Context->CheckNotForked("execute");
    const std::vector<std::unique_lock<OwnerMutex>> listLocks = LockListsForExecute(lists);
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    ThrowIfQueuedOpFailed("execute");
    ValidateForExecute(lists, listLocks.size());
    ExecutePlan plan(lists.size());
    ResolveBarriers(lists, plan);  // 1. against a copy of the global states; nothing changes yet
    PlaceUmaWrites(lists, plan);
    // New resources read as zeros: their zeroing runs first (on the direct queue), except for
    // resources whose first use in these lists overwrites them completely. After validation, before
    // the transitions: the zeroing leaves every resource it touches in COMMON.
    m_Device.InitializeNewResources(*this, [&lists](const Resource* r) {
        for (const auto& l : lists)
            if (l->Tracker().Touches(r)) return l->FullyWrites(r);
        return false;
    });
    RecordFixUpLists(lists, plan);  // 2. and 3.: the transition lists, then the lists closed
    CommitExecute(plan);            // 4. from here on nothing may fail before the record is stored
    SubmitDirectTransitions(plan);
    WaitForListHazards(lists, plan);
    const uint64_t value = SubmitLists(lists, plan);
    ThrowIfFailed(plan.directFailed, "direct-queue transitions (Signal/Wait)");
    ThrowIfFailed(plan.hazardWaits, "ID3D12CommandQueue::Wait (cross-queue hazard)");
    ThrowIfFailed(plan.signalled, "ID3D12CommandQueue::Signal");
    return value;
}

void CommandQueue::ValidateForExecute(const std::vector<std::shared_ptr<CommandList>>& lists, size_t distinct) const {
    for (const auto& l : lists) {
        if (&l->Queue() != this) throw InvalidArgument("execute: a command list was created for another queue");
        if (l->IsExecuted()) throw InvalidArgument("execute: a command list was already executed; record a new one with queue.command_list()");
        if (l->IsDead()) throw InvalidArgument("execute: a command list failed to close earlier and cannot be executed");
        l->CheckQueriesEnded("execute");
    }
    if (distinct != lists.size()) throw InvalidArgument("execute: the same command list is given twice");
}

void CommandQueue::ResolveBarriers(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan) {
    std::vector<Resource*> owners;
    for (size_t li = 0; li < lists.size(); ++li) {
        owners.clear();
        const std::vector<D3D12_RESOURCE_BARRIER> barriers = lists[li]->Tracker().ResolvePendingBarriers(plan.states, &owners);
        plan.resolvedWrites.insert(plan.resolvedWrites.end(), owners.begin(), owners.end());
        PlaceBarriers(li, *lists[li], barriers, owners, plan);
        lists[li]->Tracker().ApplyFinalStates(plan.states);
    }
    plan.states.Decay(m_Type);
}

void CommandQueue::PlaceBarriers(size_t li, const CommandList& list, const std::vector<D3D12_RESOURCE_BARRIER>& barriers,
                                 const std::vector<Resource*>& owners, ExecutePlan& plan) {
    // Aliasing barriers (D3D12Rules rule 6) stay in order before their resource's transitions:
    // on this queue (legal on every queue type, rule 6b), or on the direct queue with them when
    // a transition of the same resource has to go there.
    std::vector<Resource*> toDirect;
    for (size_t i = 0; i < barriers.size(); ++i) {
        if (barriers[i].Type != D3D12_RESOURCE_BARRIER_TYPE_TRANSITION) continue;
        const D3D12_RESOURCE_TRANSITION_BARRIER& t = barriers[i].Transition;
        if (!d3d12rules::QueueCanTransition(m_Type, t.StateBefore, t.StateAfter)) toDirect.push_back(owners[i]);
    }
    for (size_t i = 0; i < barriers.size(); ++i) {
        if (barriers[i].Type == D3D12_RESOURCE_BARRIER_TYPE_ALIASING) {
            const bool direct = std::find(toDirect.begin(), toDirect.end(), owners[i]) != toDirect.end() || !d3d12rules::QueueCanAlias(m_Type);
            (direct ? plan.onDirect : plan.pre[li]).push_back(barriers[i]);
            if (direct) plan.directOwners.push_back(owners[i]);
            continue;
        }
        const D3D12_RESOURCE_TRANSITION_BARRIER& t = barriers[i].Transition;
        for (D3D12_RESOURCE_STATES st : {t.StateBefore, t.StateAfter})
            if (const char* why = d3d12rules::InvalidStateReason(st))
                throw InvalidArgument("execute: list " + std::to_string(li) + " ('" + list.Name() + "') needs resource '" + owners[i]->Name() +
                                      "' in state " + StateName(st) + ", which " + why);
        // d3d12rules rule 3: a transition this queue type may not record is done on the direct
        // queue before the whole call. That is right for list li too: the subresource is in a
        // state this queue cannot hold, so no earlier list of this call touched it.
        const bool direct = !d3d12rules::QueueCanTransition(m_Type, t.StateBefore, t.StateAfter);
        if (direct && m_Type == D3D12_COMMAND_LIST_TYPE_DIRECT)
            throw InvalidArgument("execute: transition " + StateName(t.StateBefore) + " -> " + StateName(t.StateAfter) + " is not recordable");
        (direct ? plan.onDirect : plan.pre[li]).push_back(barriers[i]);
        if (direct) plan.directOwners.push_back(owners[i]);
        plan.inserted.push_back({static_cast<uint32_t>(li), owners[i]->Name(), t.Subresource, t.StateBefore, t.StateAfter, direct});
    }
}

void CommandQueue::PlaceUmaWrites(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan) const {
    // Pending writes into CPU-visible buffers (UmaAccess.hpp) land now, in execution order: on the
    // CPU (at the commit) when no GPU work can still see the buffer's old bytes: every
    // submission that used it has completed and no earlier list of this call uses it; otherwise by
    // a copy in the list's pre-list, after its transitions (the buffer is in COPY_DEST there).
    for (size_t li = 0; li < lists.size(); ++li)
        for (const CommandList::PendingWrite& w : lists[li]->PendingWrites()) {
            bool busy = w.dst->LastUseSerial() > m_Context->CompletedSerial();
            for (size_t lj = 0; lj < li && !busy; ++lj) busy = lists[lj]->Tracker().Touches(w.dst.get());
            (busy ? plan.gpuWrites[li] : plan.cpuWrites).push_back(&w);
            plan.gpuWriteCount += busy;
        }
}

void CommandQueue::RecordFixUpLists(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan) {
    // 2. Record the transition lists. On failure the allocators and lists go back to the pools.
    try {
        if (!plan.onDirect.empty()) plan.Record(m_Device.QueueRef(D3D12_COMMAND_LIST_TYPE_DIRECT), plan.onDirect, nullptr);
        for (size_t li = 0; li < lists.size(); ++li) {
            if (!plan.pre[li].empty() || !plan.gpuWrites[li].empty()) {
                plan.Record(*this, plan.pre[li], &plan.gpuWrites[li]);
                plan.natives.push_back(plan.recorded.back().list.Get());
            }
            plan.natives.push_back(lists[li]->D3D12List());
        }
        // 3. Close the lists. A failing Close leaves that list dead (closed, never executable);
        // the lists closed before it stay executable as they are.
        for (const auto& l : lists) l->Close();
    } catch (...) {
        for (auto& r : plan.recorded) {
            r.queue->m_FixUpAllocatorPool.push_back(std::move(r.allocator));  // never submitted: reusable now
            r.queue->m_ListPool.push_back(std::move(r.list));
        }
        throw;
    }
}

void CommandQueue::CommitExecute(ExecutePlan& plan) {
    plan.states.Commit();
    for (const CommandList::PendingWrite* w : plan.cpuWrites) host::Copy(w->dst->Mapped() + w->offset, w->src.cpu, static_cast<size_t>(w->src.size));
    if (!plan.cpuWrites.empty()) m_Context->Submits().umaCpuWrites.fetch_add(plan.cpuWrites.size(), std::memory_order_relaxed);
    if (plan.gpuWriteCount) m_Context->Submits().umaGpuWrites.fetch_add(plan.gpuWriteCount, std::memory_order_relaxed);
    m_Context->Barriers().aliasing.fetch_add(plan.states.aliasingBarriers, std::memory_order_relaxed);
    m_Context->Barriers().aliasingAutomatic.fetch_add(plan.states.aliasingBarriers, std::memory_order_relaxed);
    m_LastInserted = std::move(plan.inserted);
    m_Context->Barriers().insertedAtExecute.fetch_add(m_LastInserted.size(), std::memory_order_relaxed);
    m_Context->Barriers().batches.fetch_add(plan.recorded.size(), std::memory_order_relaxed);
}

void CommandQueue::SubmitDirectTransitions(ExecutePlan& plan) {
    if (plan.onDirect.empty()) return;
    CommandQueue& directQueue = m_Device.QueueRef(D3D12_COMMAND_LIST_TYPE_DIRECT);
    // Rule 7: the direct queue's transitions follow the other queues' unfinished uses of them.
    uint64_t directNeeded[4] = {0, 0, 0, 0};
    for (Resource* r : plan.directOwners) CrossQueueHazard(D3D12_COMMAND_LIST_TYPE_DIRECT, r, true, directNeeded);
    HRESULT directFailed = directQueue.WaitForHazards(directNeeded);
    ExecutePlan::Recorded& r = plan.recorded[0];
    ID3D12CommandList* native = r.list.Get();
    const bool directQueued = directQueue.Submit(1, &native);
    const uint64_t dv = ++directQueue.m_LastSubmitted;
    const HRESULT directSignalled = directQueue.SignalSubmitted();  // always: this queue waits for it on the GPU
    if (SUCCEEDED(directFailed)) directFailed = directSignalled;
    for (Resource* dr : plan.directOwners) NoteCrossQueueUse(D3D12_COMMAND_LIST_TYPE_DIRECT, dr, true, dv);
    InFlight drec;
    drec.serial = m_Context->NextSerial();
    drec.fenceValue = dv;
    drec.fixUpAllocators.push_back(std::move(r.allocator));
    directQueue.m_InFlight.push_back(std::move(drec));
    directQueue.PoolSubmitted(std::move(r.list), directQueued);
    if (SUCCEEDED(directFailed)) {
        directFailed = IssueWait(directQueue, dv);
        if (SUCCEEDED(directFailed)) NoteGpuWait(directQueue, dv);
    }
    plan.directFailed = directFailed;
}

void CommandQueue::WaitForListHazards(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan) {
    // Rule 7: one GPU wait per other queue whose unfinished work this call's lists depend on,
    // before the ExecuteCommandLists that carries the lists and their transition lists.
    std::sort(plan.resolvedWrites.begin(), plan.resolvedWrites.end());
    const int self = static_cast<int>(m_Type);
    uint64_t needed[4] = {0, 0, 0, 0};
    for (const auto& l : lists)
        l->Tracker().ForEachUse([&](Resource* r, bool writes) { CrossQueueHazard(self, r, plan.WritesAt(r, writes), needed); });
    plan.hazardWaits = WaitForHazards(needed);
}

uint64_t CommandQueue::SubmitLists(const std::vector<std::shared_ptr<CommandList>>& lists, ExecutePlan& plan) {
    InFlight record;
    record.serial = m_Context->NextSerial();
    for (auto& k : plan.states.keep) record.tracked.push_back(std::move(k));  // named by the pre-lists' barriers
    const bool queued = Submit(static_cast<UINT>(plan.natives.size()), plan.natives.data());
    const uint64_t value = ++m_LastSubmitted;
    // The lists are on the GPU now (or queued for it): whatever happens next, their record must be kept, or their
    // memory would be reused under the GPU. A failed Signal leaves the record unfinished forever
    // (a leak, never an early free) and is reported after the record is stored. Lazy signals:
    // none while another signal of the device is pending (a later signal or wait covers this one).
    plan.signalled = m_LazySignals && m_Device.AnySignalPending() ? S_OK : SignalSubmitted();
    record.fenceValue = value;
    const int self = static_cast<int>(m_Type);
    for (const auto& l : lists)
        l->Tracker().ForEachUse([&](Resource* r, bool writes) { NoteCrossQueueUse(self, r, plan.WritesAt(r, writes), value); });
    for (size_t i = plan.onDirect.empty() ? 0 : 1; i < plan.recorded.size(); ++i) {
        record.fixUpAllocators.push_back(std::move(plan.recorded[i].allocator));
        PoolSubmitted(std::move(plan.recorded[i].list), queued);
    }
    for (const auto& l : lists) {
        ComPtr<ID3D12CommandAllocator> a;
        ComPtr<ID3D12GraphicsCommandList> native;
        l->Retire(record.serial, record.tracked, a, native);
        record.allocators.push_back(std::move(a));
        PoolSubmitted(std::move(native), queued);
    }
    m_InFlight.push_back(std::move(record));
    return value;
}

uint64_t CommandQueue::WriteBuffer(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<Resource>& buffer, const void* data,
                                   uint64_t bytes, uint64_t offset) {
    m_Context->CheckNotForked("write_buffer");
    if (!buffer->IsBuffer()) throw InvalidArgument("write_buffer: resource '" + buffer->Name() + "' is a texture; use CommandList.upload");
    buffer->CheckNotClosed("write_buffer");
    if (&buffer->Context() != m_Context.get()) throw InvalidArgument("write_buffer: the buffer belongs to another device");
    const bool uma = uma::ReadsDirectly(*buffer);
    // An UPLOAD/READBACK buffer (not a copy destination the GPU writes in this call) is written only through
    // its mapping, once no submitted work uses it, as ReadBuffer reads one; a UMA default buffer likewise
    // when idle, else by a one-upload list.
    const bool mapped = buffer->HeapType() != D3D12_HEAP_TYPE_DEFAULT && buffer->Mapped();
    if ((uma || mapped) && bytes != 0 && offset <= buffer->Size() && bytes <= buffer->Size() - offset) {
        for (;;) {
            {
                // Checked and copied under the submit mutex: no execute can start using the buffer in between,
                // and every later execute comes after the write (what executing a one-upload list now would do).
                std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
                if (buffer->LastUseSerial() > m_Context->CompletedSerial()) m_Device.Poll();  // publishes what has completed
                if (buffer->LastUseSerial() <= m_Context->CompletedSerial()) {
                    host::Copy(buffer->Mapped() + offset, data, static_cast<size_t>(bytes));
                    if (uma) m_Context->Submits().umaCpuWrites.fetch_add(1, std::memory_order_relaxed);
                    return std::min(ReadCompleted(), m_LastSubmitted);
                }
            }
            if (!mapped) break;                               // a busy UMA buffer: the list below
            m_Device.WaitForSerial(buffer->LastUseSerial());  // the work using it, not the whole device
        }
    }
    auto list = CreateCommandList(self);  // busy, staging, or invalid (Upload names what is wrong)
    list->SetName("write_buffer");
    list->Upload(buffer, data, bytes, 0, 0, offset, "write_buffer");
    return Execute({list});
}

uint64_t CommandQueue::ExecuteInternal(ComPtr<ID3D12GraphicsCommandList> list, ComPtr<ID3D12CommandAllocator> allocator,
                                       std::vector<std::shared_ptr<void>> tracked, uint64_t* serial) {
    m_Context->CheckNotForked("execute");
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    InFlight record;
    record.serial = m_Context->NextSerial();
    if (serial) *serial = record.serial;
    ID3D12CommandList* native = list.Get();
    const bool queued = Submit(1, &native);
    const uint64_t value = ++m_LastSubmitted;
    const HRESULT signalled = SignalSubmitted();  // always: other queues may wait for it on the GPU
    record.fenceValue = value;
    record.allocators.push_back(std::move(allocator));
    // What this work replaces or reads (resources moved by defragmentation, the zero buffer) is
    // released once every submission up to it, on every queue, is done: not on this queue's fence
    // alone, since lists submitted earlier on other queues may still use a moved resource.
    m_Context->ReleaseAfter(record.serial, std::move(tracked));
    PoolSubmitted(std::move(list), queued);
    m_InFlight.push_back(std::move(record));
    ThrowIfFailed(signalled, "ID3D12CommandQueue::Signal");
    return value;
}

uint64_t CommandQueue::Poll() {
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    const uint64_t done = ReadCompleted();
    while (!m_InFlight.empty() && m_InFlight.front().fenceValue <= done) {
        InFlight rec = std::move(m_InFlight.front());
        m_InFlight.pop_front();
        for (auto& a : rec.allocators) m_AllocatorPool.push_back(std::move(a));  // their work is done
        for (auto& a : rec.fixUpAllocators) m_FixUpAllocatorPool.push_back(std::move(a));
        // rec.tracked is released here: the GPU no longer uses those objects.
    }
    SignalPendingAt(done);  // re-issues a signal that has stalled (vkd3d's lost values; see the header)
    if (m_LazySignals) PumpSignal();
    return m_InFlight.empty() ? std::numeric_limits<uint64_t>::max() : m_InFlight.front().serial;
}

bool CommandQueue::WaitOldest(double timeoutSeconds) {
    uint64_t value;
    {
        std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
        if (m_InFlight.empty()) return false;
        value = m_InFlight.front().fenceValue;
    }
    if (!WaitForFence(value, timeoutSeconds))
        throw Timeout("wait: fence value " + std::to_string(value) + " not reached within " + std::to_string(timeoutSeconds) + " s");
    return true;
}

bool CommandQueue::WaitForFence(uint64_t value, double timeoutSeconds) {
    m_Context->CheckNotForked("wait");
    if (ReadCompleted() >= value) {
        // A queued op before `value` failed: reached or not, the work it marks may be wrong. (The
        // value cannot be reached before the failure is recorded: its signal is queued after the op.)
        if (m_Submitter->Failed()) ThrowIfQueuedOpFailed("wait", value);
        return true;
    }
    // Lazy signals: the value this wait needs may not be signalled yet. While this queue's own
    // signal is pending, the wait first waits for that one and signals `value` after it: a second
    // pending signal would make vkd3d 1.2's fence thread poll (a core) until the first is reached,
    // and the queue runs in order, so the first is reached before `value` anyway.
    uint64_t target = DeferredSignalTarget(value);
    using Clock = std::chrono::steady_clock;
    const bool forever = timeoutSeconds < 0;
    const Clock::time_point deadline =
        forever ? Clock::time_point::max()
                : Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::min(timeoutSeconds, 1e9)));
    const uint32_t slice = m_Context->WaitSliceMs();
    // Slices of 1, 2, 4 ... ms up to `slice`: a wake-up the watcher misses (seen with short waits,
    // more often with lazy signals, where waits block instead of finding the signal done) costs
    // at most the slice it fell in, not a whole 50 ms one.
    uint32_t grow = 1;
    for (;;) {
        uint32_t ms = std::min(slice, grow);
        grow = std::min<uint32_t>(slice, grow * 2);
        if (!forever) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            ms = static_cast<uint32_t>(std::max<int64_t>(0, std::min<int64_t>(left, ms)));
        }
        bool done = false;
        m_Context->Blocking([&] { done = m_Submitter->Waiter().WaitFor(target, ms); });
        const uint64_t now = ReadCompleted();
        ThrowIfQueuedOpFailed("wait", value);
        if (now >= value || (done && target == value)) return true;
        if (target < value && (done || now >= target)) {
            target = DeferredSignalTarget(value);  // the pending signal is reached: signal `value` now
            grow = 1;
            continue;
        }
        if (!m_Context->KeepWaiting()) throw Interrupted("wait for fence value " + std::to_string(value) + " interrupted");
        {
            // The queue's stall check (HealIfStalled). Never blocks: when another thread holds the
            // submission mutex, it runs the check itself or this wait tries after its next slice.
            std::unique_lock<std::recursive_mutex> lock(m_Context->SubmitMutex(), std::try_to_lock);
            // While this queue's submission thread is busy, the value may wait on another queue's
            // fence through it: every queue's stall is checked.
            if (lock.owns_lock()) {
                if (m_Submitter->Idle()) SignalPending();
                else (void)m_Device.AnySignalPending();
            }
        }
        if (!forever && Clock::now() >= deadline) return ReadCompleted() >= value;
    }
}

void CommandQueue::Wait(uint64_t value, double timeoutSeconds) {
    m_Context->CheckNotForked("wait");
    {
        std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
        if (value > m_LastSubmitted)
            throw InvalidArgument("wait: fence value " + std::to_string(value) + " was never submitted on this queue (last is " +
                                  std::to_string(m_LastSubmitted) + ")");
    }
    if (!WaitForFence(value, timeoutSeconds))
        throw Timeout("wait: fence value " + std::to_string(value) + " not reached within " + std::to_string(timeoutSeconds) +
                      " s (completed: " + std::to_string(ReadCompleted()) + ")");
    m_Device.Poll();
    m_Device.FenceChecks()->ThrowIfAny("wait");
}

uint64_t CommandQueue::Flush(double timeoutSeconds, bool raiseGpuErrors) {
    m_Context->CheckNotForked("flush");
    uint64_t value;
    {
        std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
        value = ++m_LastSubmitted;
        ThrowIfFailed(SignalSubmitted(), "ID3D12CommandQueue::Signal");
    }
    if (!WaitForFence(value, timeoutSeconds)) throw Timeout("flush: the queue did not go idle within " + std::to_string(timeoutSeconds) + " s");
    m_Device.Poll();
    if (raiseGpuErrors) m_Device.FenceChecks()->ThrowIfAny("flush");
    return value;
}

void CommandQueue::WaitFor(CommandQueue& other, uint64_t value) {
    m_Context->CheckNotForked("wait_for");
    if (other.m_Context != m_Context) throw InvalidArgument("wait_for: the other queue belongs to another device");
    if (value > other.LastSubmittedValue())
        throw InvalidArgument("wait_for: fence value " + std::to_string(value) + " was never submitted on the other queue");
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    other.EnsureSignalled(value);  // lazy signals: the GPU waits for a value that must be signalled
    ThrowIfFailed(IssueWait(other, value), "ID3D12CommandQueue::Wait");
    if (&other != this) NoteGpuWait(other, value);  // later executes need not wait for it again (rule 7)
}

}  // namespace dx12kit

// ------------------------------------------------------------------------------- readback

namespace dx12kit {

std::shared_ptr<Resource> CommandQueue::ReadbackBuffer(uint64_t size) {
    if (!m_Readback || m_Readback->Size() < size) {
        uint64_t cap = m_Readback ? std::max(size, m_Readback->Size() * 2) : std::max<uint64_t>(size, 1u << 20);
        m_Readback = m_Device.CreateBuffer(cap, false, D3D12_HEAP_TYPE_READBACK, "readback");
    }
    return m_Readback;
}

namespace {
/// Maps a READBACK/UPLOAD buffer for reading and unmaps it when done.
struct ReadMapping {
    ID3D12Resource* resource;
    const uint8_t* data = nullptr;
    ReadMapping(ID3D12Resource* r, uint64_t bytes) : resource(r) {
        D3D12_RANGE range{0, static_cast<SIZE_T>(bytes)};
        void* p = nullptr;
        ThrowIfFailed(r->Map(0, &range, &p), "ID3D12Resource::Map (readback)");
        data = static_cast<const uint8_t*>(p);
    }
    ~ReadMapping() {
        D3D12_RANGE none{0, 0};
        resource->Unmap(0, &none);
    }
};
}  // namespace

void CommandQueue::ReadBuffer(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<Resource>& buffer, void* dst, uint64_t size,
                              double timeoutSeconds) {
    m_Context->CheckNotForked("read_buffer");
    if (!buffer->IsBuffer()) throw InvalidArgument("read_buffer: resource '" + buffer->Name() + "' is a texture; use read_texture");
    buffer->CheckNotClosed("read_buffer");
    if (&buffer->Context() != m_Context.get()) throw InvalidArgument("read_buffer: the buffer belongs to another device");
    if (size != buffer->Size()) throw InvalidArgument("read_buffer: destination size does not match the buffer");
    // One memcpy (UmaAccess.hpp), or a GPU copy below when other threads keep using the buffer.
    if (uma::ReadsDirectly(*buffer) && uma::ReadDirect(m_Device, *buffer, dst, size, timeoutSeconds)) {
        m_Device.FenceChecks()->ThrowIfAny("read_buffer");  // ReadDirect polled what completed
        return;
    }
    if (buffer->HeapType() != D3D12_HEAP_TYPE_DEFAULT) {
        m_Device.WaitIdle();  // an UPLOAD/READBACK/CUSTOM buffer (never moved): read directly once every queue is idle
        ReadMapping map(buffer->D3D12Resource(), size);
        host::Copy(dst, map.data, static_cast<size_t>(size));
        return;
    }
    std::lock_guard<std::mutex> lock(m_ReadbackMutex);
    auto rb = ReadbackBuffer(size);
    auto list = CreateCommandList(self);
    list->CopyBufferRegion(rb, 0, buffer, 0, size);
    Wait(Execute({list}), timeoutSeconds);
    ReadMapping map(rb->D3D12Resource(), size);
    host::Copy(dst, map.data, static_cast<size_t>(size));
}

void CommandQueue::ReadQueries(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<QueryHeap>& heap, D3D12_QUERY_TYPE type,
                               uint32_t start, uint32_t count, void* dst, uint64_t size, double timeoutSeconds) {
    m_Context->CheckNotForked("read_queries");
    if (!heap) throw InvalidArgument("read_queries: heap is None");
    if (size != uint64_t(count) * queryrules::ResultBytes(type)) throw InvalidArgument("read_queries: destination size does not match the results");
    std::lock_guard<std::mutex> lock(m_ReadbackMutex);
    auto rb = ReadbackBuffer(size);
    auto list = CreateCommandList(self);
    list->SetName("read_queries");
    list->ResolveQueryData(heap, type, start, count, rb, 0);  // every check, and the backend's fixes
    Wait(Execute({list}), timeoutSeconds);
    ReadMapping map(rb->D3D12Resource(), size);
    host::Copy(dst, map.data, static_cast<size_t>(size));
}

uint64_t CommandQueue::TimestampFrequency() const {
    if (m_Type == D3D12_COMMAND_LIST_TYPE_COPY && !m_Context->Queries().copyQueueTimestamps)
        throw InvalidArgument(
            "timestamp_frequency: this device cannot time copy-queue lists (vkd3d 1.2 refuses 'copy_queue_timestamp' query "
            "heaps); time the work from the direct or compute queue");
    UINT64 frequency = 0;
    ThrowIfFailed(m_d3d12Queue->GetTimestampFrequency(&frequency), "GetTimestampFrequency");
    return frequency;
}

void CommandQueue::ReadTexture(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<Resource>& texture, uint32_t mip, uint32_t arraySlice,
                               void* dst, uint64_t size, double timeoutSeconds) {
    m_Context->CheckNotForked("read_texture");
    if (texture->IsBuffer()) throw InvalidArgument("read_texture: resource '" + texture->Name() + "' is a buffer; use read_buffer");
    texture->CheckNotClosed("read_texture");
    if (&texture->Context() != m_Context.get()) throw InvalidArgument("read_texture: the texture belongs to another device");
    auto& tex = static_cast<Texture&>(*texture);
    tex.CheckMipSlice(mip, arraySlice, "read_texture");
    // Multisampled textures cannot be copied to a buffer (CopyTextureRegion); dx12kit does not
    // resolve behind the user's back (which samples and which format would be a guess).
    if (tex.SampleCount() > 1)
        throw InvalidArgument("read_texture: texture '" + tex.Name() + "' is multisampled (" + std::to_string(tex.SampleCount()) +
                              " samples); resolve it into a single-sample texture with CommandList.resolve and read that");
    const TextureFootprint f = tex.Footprint(mip, arraySlice);
    // A depth-stencil texture is read through its depth plane (plane 0). D3D12 lays plane 0 out
    // with the depth plane's texel size (4 bytes); vkd3d 1.2 has no planes in its footprints and
    // gives D32_FLOAT_S8X24's whole 8-byte texel, of which the depth plane is the first 4 bytes.
    const uint64_t width = tex.Width(mip);
    const uint64_t dstTexel = f.rows && width ? size / (uint64_t(f.rows) * width) : 0;
    const uint64_t srcTexel = width ? f.rowBytes / width : 0;
    const bool planeOfWider = tex.PlaneCount() > 1 && dstTexel && srcTexel > dstTexel && size == dstTexel * width * f.rows;
    if (size != f.rowBytes * f.rows && !planeOfWider) throw InvalidArgument("read_texture: destination size does not match the subresource");
    std::lock_guard<std::mutex> lock(m_ReadbackMutex);
    auto rb = ReadbackBuffer(f.totalBytes);
    auto list = CreateCommandList(self);
    list->CopyTextureToBuffer(rb, texture, mip, arraySlice);
    Wait(Execute({list}), timeoutSeconds);
    ReadMapping map(rb->D3D12Resource(), f.placed.Offset + f.totalBytes);
    if (!planeOfWider) {
        host::CopyRows(dst, f.rowBytes, map.data + f.placed.Offset, f.placed.Footprint.RowPitch, f.rowBytes, f.rows);
        return;
    }
    auto* out = static_cast<uint8_t*>(dst);
    for (uint32_t y = 0; y < f.rows; ++y) {
        const uint8_t* row = map.data + f.placed.Offset + uint64_t(y) * f.placed.Footprint.RowPitch;
        for (uint64_t x = 0; x < width; ++x) std::memcpy(out + (y * width + x) * dstTexel, row + x * srcTexel, dstTexel);
    }
}

}  // namespace dx12kit
