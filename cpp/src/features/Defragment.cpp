// Defragment(Device&, ...) (Python Device.defragment): moves placed resources so that memory blocks empty and can be released,
// finishing every step D3D12MA leaves to its users.
//
//   plan (MemoryPool::PlanDefragmentation)     which allocation goes where; destinations reserved
//   claim (Resource::TryBeginMove)             only resources no open command list uses
//   copy  (one list, copy queue when every     new placed resource, CopyResource old -> new, the new
//          source is in COMMON, else direct)   one left in the old one's states; queues wait on it
//   re-point (Resource::Repoint)               the same Resource object now owns the new resource;
//                                              its cached views are re-created at the same CPU
//                                              descriptors, so staged and cached handles stay valid
//   free                                       the old resource and memory, and the Resource
//                                              object, ride with the copy's submission and are
//                                              released once it and every earlier submission on
//                                              every queue are done (DeviceContext::ReleaseAfter)
//
// Which pools: the device's default pools that place movable resources, the 'default' heap's and,
// on a cache-coherent UMA adapter, the 'custom' heap's (where uma_direct puts 'default' buffers);
// or one 'default'-heap Pool. What moves is GPU memory as the user sees it: resources created with
// heap='default' (Device::AdoptPlacement registers them). CPU-visible memory as the user sees it
// never moves: upload and readback resources (fixed GENERIC_READ / COPY_DEST states) and
// heap='custom' buffers, whose CPU pointers (Buffer.map, Buffer::HostView) the user may hold.
//
// uma_direct buffers sit in CPU-visible memory, but only dx12kit touches it with the CPU, and each
// such touch is safe against a move:
//   read_buffer (uma::ReadDirect)          pins the buffer during the wait and the memcpy
//   write_buffer / execute's CPU writes    under the submission mutex, which this holds while it
//                                          re-points; a moved buffer's last-use serial is the
//                                          copy's, so no CPU write lands in the new place before
//                                          the copy that fills it has completed (it goes through
//                                          the GPU, behind the copy)
//   uploads pending in an open list        the list uses the buffer: not moved
// A moved mapped resource is mapped again in its new place (Repoint): dx12kit's own later accesses
// use the new address.
//
// Thread-safety: runs under the submission mutex; resources being recorded into lists are never
// moved (they are skipped), and a list that starts using a resource during its move waits in
// Resource::BeginUse until the move is done.
#include "dx12kit/features/Defragment.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <chrono>
#include <string>
#include <unordered_map>

namespace dx12kit {

namespace {

struct PreparedMove {
    std::shared_ptr<Resource> resource;
    ComPtr<ID3D12Resource> moved;  // the copy, placed at the destination
    uint8_t* mapped = nullptr;     // its mapping, when the resource is persistently mapped
    memory::DefragMove plan;
};

/// Resources a pass claimed (Resource::TryBeginMove), released with EndMove when the pass ends.
using Claims = std::unordered_map<const Resource*, std::shared_ptr<Resource>>;

struct Limits {
    memory::DefragAlgorithm algorithm;
    uint64_t maxBytes, maxMoves;  // 0: none
};

/// The pools defragment covers: `onlyPool` (a 'default'-heap pool of this device), or the device's
/// default pools that place movable resources.
std::vector<std::shared_ptr<memory::MemoryPool>> ChoosePools(Device& device, const std::shared_ptr<memory::MemoryPool>& onlyPool) {
    if (onlyPool && onlyPool->D3D12Device() != device.D3D12Device()) throw InvalidArgument("defragment: the pool belongs to another device");
    std::vector<std::shared_ptr<memory::MemoryPool>> pools;
    if (onlyPool) {
        const memory::HeapKind heap = onlyPool->Desc().heap;
        if (heap != memory::HeapKind::Default)
            throw InvalidArgument(std::string("defragment: pool '") + onlyPool->Desc().name + "' holds CPU-visible memory ('" +
                                  memory::HeapKindName(heap) +
                                  "'), which never moves (the CPU may hold pointers into it); "
                                  "only 'default' heap pools are defragmented (pool=None also covers the uma_direct buffers)");
        pools.push_back(onlyPool);
    } else {
        memory::MemoryManager& mm = device.Context()->Memory();
        pools.push_back(mm.DefaultPool(memory::HeapKind::Default));
        if (mm.CacheCoherentUma())  // the custom heap's pool exists: uma_direct buffers move
            pools.push_back(mm.DefaultPool(memory::HeapKind::Custom));
    }
    return pools;
}

uint64_t BlockCount(const std::vector<std::shared_ptr<memory::MemoryPool>>& pools) {
    uint64_t n = 0;
    for (const auto& p : pools) n += p->BlockCount();
    return n;
}

/// 1. Plan, claiming each candidate; the claims of candidates that got no destination are dropped
/// by the caller (every claim is). The pool asks about a candidate again when an earlier phase of
/// the same plan gave it no destination: a candidate this pass already claimed stays movable.
std::vector<PreparedMove> PlanMoves(const std::vector<std::shared_ptr<memory::MemoryPool>>& pools, const Limits& limits, const DefragmentStats& done,
                                    Claims& claimed) {
    std::vector<PreparedMove> moves;
    uint64_t plannedBytes = 0;  // this pass's, over the pools planned so far
    for (const auto& pool : pools) {
        const uint64_t bytesLeft = limits.maxBytes ? limits.maxBytes - std::min(limits.maxBytes, done.bytesMoved + plannedBytes) : 0;
        const uint64_t movesLeft = limits.maxMoves ? limits.maxMoves - std::min<uint64_t>(limits.maxMoves, done.moves + moves.size()) : 0;
        if ((limits.maxBytes && !bytesLeft) || (limits.maxMoves && !movesLeft)) break;
        std::vector<memory::DefragMove> plan =
            pool->PlanDefragmentation(limits.algorithm, bytesLeft, movesLeft, [&claimed](const std::shared_ptr<void>& owner) {
                auto r = std::static_pointer_cast<Resource>(owner);
                if (claimed.count(r.get())) return true;
                if (r->IsClosed() || !r->TryBeginMove()) return false;
                claimed.emplace(r.get(), std::move(r));
                return true;
            });
        for (auto& mv : plan) {
            plannedBytes += mv.size;
            PreparedMove pm;
            pm.resource = std::static_pointer_cast<Resource>(mv.owner);
            pm.plan = std::move(mv);
            moves.push_back(std::move(pm));
        }
    }
    return moves;
}

/// 2a. A new placed resource per move, the old one's description, at its destination (mapped when
/// the old one is). Returns whether every source is in COMMON.
bool CreateDestinations(ID3D12Device* device, std::vector<PreparedMove>& moves) {
    bool allCommon = true;
    for (auto& m : moves) {
        const SubresourceStates& st = m.resource->GlobalState();
        if (!st.IsUniform() || st.All() != D3D12_RESOURCE_STATE_COMMON) allCommon = false;
        D3D12_RESOURCE_DESC desc = m.resource->Desc();
        const bool clear = desc.Flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
        D3D12_CLEAR_VALUE cv{};
        cv.Format = m.resource->ViewFormat();
        if (desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL) cv.DepthStencil.Depth = 1.0f;
        desc.Alignment = m.plan.dst.Alignment();
        memory::CheckPlacement(m.plan.dst.BlockSize(), m.plan.dst.Offset(), m.plan.dst.Size(), m.plan.dst.Alignment(), "defragment");
        ThrowIfFailed(device->CreatePlacedResource(m.plan.dst.Heap(), m.plan.dst.Offset(), &desc, D3D12_RESOURCE_STATE_COMMON, clear ? &cv : nullptr,
                                                   IID_ID3D12Resource, m.moved.ReleaseAndGetVoidAddress()),
                      "CreatePlacedResource (defragment)");
        if (!m.resource->Name().empty()) {
            std::wstring wide(m.resource->Name().begin(), m.resource->Name().end());
            m.moved->SetName(wide.c_str());
        }
        if (m.resource->Mapped()) {
            // CPU-visible memory (custom heap): mapped for the resource's life, as before the move.
            // Nobody holds the old address (a pinned resource is not claimed).
            void* p = nullptr;
            const D3D12_RANGE read{0, static_cast<SIZE_T>(desc.Width)};
            ThrowIfFailed(m.moved->Map(0, &read, &p), "ID3D12Resource::Map (defragment)");
            m.mapped = static_cast<uint8_t*>(p);
        }
    }
    return allCommon;
}

/// 2b. The copies, on `list`, closed. The D3D12 rules this relies on, for both heaps moved here
/// ('default', and 'custom' with CPU_PAGE_PROPERTY_WRITE_BACK in MEMORY_POOL_L0):
///  - a placed resource in either may be created in COMMON and take any state (the fixed
///    GENERIC_READ / COPY_DEST states bind UPLOAD and READBACK heaps only, which are never moved);
///    custom-heap buffers are tracked like 'default' ones, so they too may sit in UNORDERED_ACCESS,
///    COPY_DEST, ... between lists;
///  - buffers and simultaneous-access textures promote from COMMON to COPY_SOURCE / COPY_DEST on
///    any queue, the copy queue included, and decay to COMMON when the ExecuteCommandLists
///    completes; CopyResource between two placed resources of the same description is legal on
///    copy and direct queues whatever their heaps;
///  - a copy queue may hold no state but COMMON, COPY_SOURCE and COPY_DEST.
/// Hence: on the copy queue when every source is in COMMON (both decay back to COMMON), else on the
/// direct queue, with explicit transitions that leave the copy in the source's states.
void RecordCopies(ID3D12GraphicsCommandList* list, const std::vector<PreparedMove>& moves, bool allCommon) {
    std::vector<D3D12_RESOURCE_BARRIER> before, after;
    if (!allCommon) {
        for (auto& m : moves) {
            const SubresourceStates& st = m.resource->GlobalState();
            for (uint32_t s = 0; s < (st.IsUniform() ? 1u : m.resource->NumSubresources()); ++s) {
                const uint32_t sub = st.IsUniform() ? kAllSubresources : s;
                const D3D12_RESOURCE_STATES state = st.IsUniform() ? st.All() : st.Get(s);
                if (state != D3D12_RESOURCE_STATE_COPY_SOURCE && state != D3D12_RESOURCE_STATE_COMMON)
                    before.push_back(d3dx::TransitionBarrier(m.resource->D3D12Resource(), state, D3D12_RESOURCE_STATE_COPY_SOURCE, sub));
                if (state != D3D12_RESOURCE_STATE_COPY_DEST)
                    after.push_back(d3dx::TransitionBarrier(m.moved.Get(), D3D12_RESOURCE_STATE_COPY_DEST, state, sub));
            }
            before.push_back(d3dx::TransitionBarrier(m.moved.Get(), D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST, kAllSubresources));
        }
    }
    if (!before.empty()) list->ResourceBarrier(static_cast<UINT>(before.size()), before.data());
    for (auto& m : moves) list->CopyResource(m.moved.Get(), m.resource->D3D12Resource());
    if (!after.empty()) list->ResourceBarrier(static_cast<UINT>(after.size()), after.data());
    ThrowIfFailed(list->Close(), "Close (defragment list)");
}

/// The copy follows every submission so far on every queue (the GPU may still be writing a source).
void WaitForEarlierWork(Device& device, CommandQueue& used) {
    for (D3D12_COMMAND_LIST_TYPE t : {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY}) {
        CommandQueue& q = device.QueueRef(t);
        if (&q != &used && q.CompletedValue() < q.LastSubmittedValue()) {
            q.EnsureSignalled(q.LastSubmittedValue());  // lazy fence signals: the GPU waits for a signalled value
            ThrowIfFailed(used.IssueWait(q, q.LastSubmittedValue()), "ID3D12CommandQueue::Wait (defragment)");
        }
    }
}

/// 3. Re-point, then submit: the old resources and memory go with the copy's submission, and so does
/// the Resource itself: it owns the copy's destination from here on, and a user dropping it while
/// the copy runs must not destroy that destination early. Returns the copy's fence value.
uint64_t RepointAndSubmit(CommandQueue& used, ComPtr<ID3D12GraphicsCommandList> list, ComPtr<ID3D12CommandAllocator> allocator,
                          std::vector<PreparedMove>& moves, DefragmentStats& stats) {
    std::vector<std::shared_ptr<void>> tracked;
    for (auto& m : moves) {
        tracked.push_back(m.resource);
        ComPtr<ID3D12Resource> oldResource;
        memory::MemoryAllocation oldMemory;
        m.resource->Repoint(std::move(m.moved), std::move(m.plan.dst), oldResource, oldMemory, m.mapped);
        tracked.push_back(std::make_shared<ComPtr<ID3D12Resource>>(std::move(oldResource)));
        tracked.push_back(std::make_shared<memory::MemoryAllocation>(std::move(oldMemory)));
        stats.bytesMoved += m.plan.size;
        ++stats.moves;
    }
    uint64_t copySerial = 0;
    const uint64_t fence = used.ExecuteInternal(std::move(list), std::move(allocator), std::move(tracked), &copySerial);
    // The moved resources' last use is the copy: CPU reads and writes of a mapped one (UmaAccess.hpp)
    // wait for it, or go through the GPU behind it, instead of touching the new place before the copy
    // has filled it.
    for (auto& m : moves) m.resource->NoteUse(copySerial);
    return fence;
}

/// One pass under the submission mutex: plan, copy, re-point. Returns the queue the copies went to
/// (nullptr: nothing moved) and their fence value in `fence`.
CommandQueue* RunPass(Device& device, int pass, const std::vector<std::shared_ptr<memory::MemoryPool>>& pools, const Limits& limits,
                      DefragmentStats& stats, uint64_t& fence) {
    CommandQueue& direct = device.QueueRef(D3D12_COMMAND_LIST_TYPE_DIRECT);
    std::lock_guard<std::recursive_mutex> lock(device.Context()->SubmitMutex());
    // New resources still waiting for their zeroing are zeroed first (on the direct queue, which the
    // copies below wait for): moved before it, the zeroing at the next execute would race the copy
    // into the new place, and the copy would move garbage.
    if (pass == 0) device.ZeroNewResources(direct, nullptr);
    Claims claimed;
    auto unclaim = [&] {
        for (auto& kv : claimed) kv.second->EndMove();
    };
    std::vector<PreparedMove> moves;
    try {
        moves = PlanMoves(pools, limits, stats, claimed);
        if (moves.empty()) {
            unclaim();
            return nullptr;
        }
        const bool allCommon = CreateDestinations(device.D3D12Device(), moves);
        CommandQueue& used = allCommon ? device.QueueRef(D3D12_COMMAND_LIST_TYPE_COPY) : direct;
        ComPtr<ID3D12CommandAllocator> allocator = used.AcquireAllocator();
        ComPtr<ID3D12GraphicsCommandList> list = used.AcquireList(allocator.Get());
        RecordCopies(list.Get(), moves, allCommon);
        WaitForEarlierWork(device, used);
        fence = RepointAndSubmit(used, std::move(list), std::move(allocator), moves, stats);
        device.FollowInternalWork(used, fence);  // every later execute, on any queue, follows the copies
        unclaim();
        return &used;
    } catch (...) {
        for (auto& m : moves)
            if (!m.plan.dst.IsNull()) m.plan.dst.Pool()->CancelMove(m.plan.srcBlockId, m.plan.srcOffset);
        unclaim();
        throw;
    }
}

}  // namespace

DefragmentStats Defragment(Device& device, const std::shared_ptr<memory::MemoryPool>& onlyPool, memory::DefragAlgorithm algorithm, uint64_t maxBytes,
                           uint64_t maxMoves, const std::function<void(uint64_t, uint64_t)>& progress) {
    device.Context()->CheckNotForked("defragment");
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<std::shared_ptr<memory::MemoryPool>> pools = ChoosePools(device, onlyPool);
    const Limits limits{algorithm, maxBytes, maxMoves};
    const bool incremental = maxBytes != 0 || maxMoves != 0;
    DefragmentStats stats;
    const uint64_t blocksBefore = BlockCount(pools);
    for (int pass = 0; pass < 16; ++pass) {
        device.Poll();
        const uint64_t movesBefore = stats.moves;
        uint64_t fence = 0;
        CommandQueue* used = RunPass(device, pass, pools, limits, stats, fence);
        if (!used) break;
        ++stats.passes;
        if (!incremental) used->Wait(fence);  // the sources free once the copies are done; the next pass may use them
        if (progress)                         // no lock held here: the callback may take its runtime's lock (the GIL)
            for (uint64_t m = movesBefore; m < stats.moves; ++m) progress(m + 1, stats.moves);
        if (incremental) break;
    }
    if (!incremental) device.TrimMemory();
    const uint64_t blocksAfter = BlockCount(pools);
    stats.blocksFreed = blocksBefore > blocksAfter ? blocksBefore - blocksAfter : 0;
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return stats;
}

}  // namespace dx12kit
