// Statistics as plain dicts (StatsDicts.hpp): the one converter of each statistics struct.
#include "StatsDicts.hpp"

#include <algorithm>

#include "GpuArgs.hpp"

#include "dx12kit/base/HostCopy.hpp"
#include "dx12kit/features/Defragment.hpp"
#include "dx12kit/memory/MemoryManager.hpp"

namespace dx12kit::bindings {

using memory::HeapKind;
using memory::MemoryPool;

namespace {
py::object OptionalMin(uint64_t count, uint64_t v) {
    return py::int_(count ? v : 0);
}
}  // namespace

py::dict MemoryStatsDict(const memory::MemoryStats& s) {
    return py::dict("block_count"_a = s.blockCount, "block_bytes"_a = s.blockBytes, "allocation_count"_a = s.allocationCount,
                    "allocation_bytes"_a = s.allocationBytes, "unused_range_count"_a = s.unusedRangeCount,
                    "allocation_size_min"_a = OptionalMin(s.allocationCount, s.allocationSizeMin), "allocation_size_max"_a = s.allocationSizeMax,
                    "unused_range_size_min"_a = OptionalMin(s.unusedRangeCount, s.unusedRangeSizeMin),
                    "unused_range_size_max"_a = s.unusedRangeSizeMax);
}

py::dict TotalMemoryStatsDict(const memory::TotalMemoryStats& t) {
    py::dict kinds;
    for (int k = 0; k < memory::kHeapKindCount; ++k) kinds[memory::HeapKindName(static_cast<HeapKind>(k))] = MemoryStatsDict(t.heapKinds[k]);
    return py::dict("total"_a = MemoryStatsDict(t.total), "heap_types"_a = kinds);
}

py::dict BudgetDict(const memory::BudgetInfo& b) {
    return py::dict("budget_bytes"_a = b.budgetBytes, "usage_bytes"_a = b.usageBytes, "block_bytes"_a = b.blockBytes,
                    "allocation_bytes"_a = b.allocationBytes);
}

py::dict AllocationDict(const memory::MemoryAllocation& a) {
    const MemoryPool* pool = a.Pool();
    py::dict d("heap_type"_a = memory::HeapKindName(pool->Desc().heap), "committed"_a = a.IsCommitted(),
               "block"_a = a.IsCommitted() ? py::object(py::none()) : py::object(py::int_(a.BlockId())), "offset"_a = a.Offset(), "size"_a = a.Size(),
               "alignment"_a = a.Alignment(), "pool"_a = pool->IsDefault() ? py::object(py::none()) : py::object(py::str(pool->Desc().name)));
    if (a.IsAlias()) d["aliased"] = true;
    return d;
}

py::dict UploadStatsDict(const UploadPoolStats& s) {
    py::dict d;
    d["cpu"] =
        py::dict("pages_in_use"_a = s.pagesInUse, "pages_retired"_a = s.pagesRetired, "pages_free"_a = s.pagesFree, "peak_pages"_a = s.peakPages);
    d["dedicated_in_use"] = s.dedicatedInUse;
    d["dedicated_bytes"] = s.dedicatedBytes;
    d["bytes_allocated"] = s.bytesAllocated;
    d["pages_created"] = s.pagesCreated;
    d["large_cached"] = s.largeCached;
    d["large_cached_bytes"] = s.largeCachedBytes;
    d["large_reused"] = s.largeReused;
    d["pages_trimmed"] = s.pagesTrimmed;
    return d;
}

py::dict CpuDescriptorStatsDict(const CpuDescriptorStats& s) {
    return py::dict("in_use"_a = s.inUse, "pages"_a = s.pages, "peak"_a = s.peakInUse, "stale"_a = s.stale, "capacity"_a = s.capacity);
}

py::dict ShaderVisibleHeapStatsDict(const ShaderVisibleHeapStats& v) {
    return py::dict("capacity"_a = v.capacity, "static_capacity"_a = v.staticCapacity, "static_in_use"_a = v.staticInUse,
                    "dynamic_capacity"_a = v.dynamicCapacity, "dynamic_in_use"_a = v.dynamicInUse, "chunk_size"_a = v.chunkSize,
                    "chunks_in_use"_a = v.chunksInUse, "chunks_retired"_a = v.chunksRetired, "peak_dynamic_in_use"_a = v.peakDynamicInUse);
}

py::dict DescriptorStatsDict(DeviceContext& core) {
    core.CheckNotForked("descriptor_stats");  // the allocators' locks
    py::dict d;
    const std::pair<const char*, D3D12_DESCRIPTOR_HEAP_TYPE> types[] = {{"cbv_srv_uav", D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV},
                                                                        {"sampler", D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER},
                                                                        {"rtv", D3D12_DESCRIPTOR_HEAP_TYPE_RTV},
                                                                        {"dsv", D3D12_DESCRIPTOR_HEAP_TYPE_DSV}};
    for (const auto& t : types) {
        py::dict e = CpuDescriptorStatsDict(core.CpuDescriptors(t.second).GetStats());
        if (t.second == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV) e["shader_visible"] = ShaderVisibleHeapStatsDict(core.ViewHeap().GetStats());
        else if (t.second == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER) e["shader_visible"] = ShaderVisibleHeapStatsDict(core.SamplerHeap().GetStats());
        d[t.first] = e;
    }
    return d;
}

py::dict DefragmentStatsDict(const DefragmentStats& st) {
    return py::dict("moves"_a = st.moves, "bytes_moved"_a = st.bytesMoved, "blocks_freed"_a = st.blocksFreed, "passes"_a = st.passes,
                    "seconds"_a = st.seconds);
}

py::dict DeviceStatsDict(Device& d) {
    DeviceContext& c = *d.Context();
    c.CheckNotForked("stats");  // the upload pages', allocators' and pools' locks
    BarrierStats& b = c.Barriers();
    py::dict out;
    out["upload"] = UploadStatsDict(c.UploadPages().GetStats());
    // Each counter read once, the automatic part first: another thread's barrier between the reads
    // can then only make the total larger, never the difference negative (it would wrap).
    const uint64_t automatic = b.aliasingAutomatic.load(), aliasing = std::max<uint64_t>(b.aliasing.load(), automatic);
    out["barriers"] =
        py::dict("recorded"_a = b.recorded.load(), "batches"_a = b.batches.load(), "inserted_at_execute"_a = b.insertedAtExecute.load(),
                 "uav"_a = b.uav.load(), "aliasing"_a = aliasing, "aliasing_automatic"_a = automatic, "aliasing_explicit"_a = aliasing - automatic);
    out["descriptors"] = DescriptorStatsDict(c);
    out["live_resources"] = c.LiveResources().load();
    out["memory"] = TotalMemoryStatsDict(c.Memory().Stats());
    out["zero_init"] = py::dict("resources"_a = c.ZeroInitCounters().resources.load(), "bytes"_a = c.ZeroInitCounters().bytes.load());
    MipStats& mips = MipGeneratorOf(d).Stats();
    out["mips"] = py::dict("in_place"_a = mips.inPlace.load(), "staged"_a = mips.staged.load(), "aliased"_a = mips.aliased.load(),
                           "dispatches"_a = mips.dispatches.load());
    out["submissions"] =
        py::dict("executes"_a = c.Submits().submissions.load(), "signals"_a = c.Submits().signals.load(),
                 "overlapping_signals"_a = c.Submits().overlappingSignals.load(), "reissued_signals"_a = c.Submits().reissuedSignals.load());
    py::dict perQueue;  // each queue's share of "submissions" (a key of its own: those keys stay as they were)
    for (D3D12_COMMAND_LIST_TYPE t : {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY}) {
        const CommandQueue::SubmitCounts n = d.QueueRef(t).SubmitCounters();
        perQueue[QueueKindName(t)] = py::dict("executes"_a = n.executes, "signals"_a = n.signals, "overlapping_signals"_a = n.overlappingSignals,
                                              "reissued_signals"_a = n.reissuedSignals);
    }
    out["submissions_per_queue"] = perQueue;
    out["uma_writes"] = py::dict("cpu"_a = c.Submits().umaCpuWrites.load(), "gpu"_a = c.Submits().umaGpuWrites.load());
    out["last_serial"] = c.LastSerial();
    out["completed_serial"] = c.CompletedSerial();
    return out;
}

py::dict CrossQueueStatsDict(const CommandQueue& q) {
    const CommandQueue::CrossQueueStats s = q.CrossQueueCounters();
    py::dict on;
    for (D3D12_COMMAND_LIST_TYPE t : {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY})
        if (t != q.Type()) on[QueueKindName(t)] = s.waitsOn[t];
    return py::dict("cross_queue_waits"_a = s.waits, "cross_queue_waits_on"_a = on, "cross_queue_completed"_a = s.completed,
                    "cross_queue_already_waited"_a = s.alreadyWaited);
}

py::dict CopyStatsDict() {
    const host::CopyStats s = host::Stats();
    return py::dict("copies"_a = s.copies, "parallel_copies"_a = s.parallelCopies, "bytes"_a = s.bytes, "parallel_bytes"_a = s.parallelBytes);
}

}  // namespace dx12kit::bindings
