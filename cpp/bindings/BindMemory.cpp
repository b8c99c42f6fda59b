// Bindings of the memory layer: Pool, Device.create_pool / memory_stats / memory_budget /
// memory_json / trim_memory, Resource.allocation, Buffer.map. Only conversions live here.
#include "Args.hpp"
#include "ForkSafety.hpp"
#include "Bindings.hpp"
#include "GpuArgs.hpp"

#include "dx12kit/core/Errors.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/memory/MemoryManager.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>

namespace py = pybind11;
using namespace py::literals;

namespace dx12kit::bindings {

using memory::HeapKind;
using memory::MemoryPool;
using memory::PoolAlgorithm;

namespace {

py::object OptionalMin(uint64_t count, uint64_t v) { return py::int_(count ? v : 0); }

py::dict BudgetDict(const memory::BudgetInfo& b) {
    return py::dict("budget_bytes"_a = b.budgetBytes, "usage_bytes"_a = b.usageBytes, "block_bytes"_a = b.blockBytes,
                    "allocation_bytes"_a = b.allocationBytes);
}

const char* AlgorithmName(PoolAlgorithm a) { return a == PoolAlgorithm::Linear ? "linear" : "tlsf"; }

}  // namespace

py::dict MemoryStatsDict(const memory::MemoryStats& s) {
    return py::dict("block_count"_a = s.blockCount, "block_bytes"_a = s.blockBytes, "allocation_count"_a = s.allocationCount,
                    "allocation_bytes"_a = s.allocationBytes, "unused_range_count"_a = s.unusedRangeCount,
                    "allocation_size_min"_a = OptionalMin(s.allocationCount, s.allocationSizeMin),
                    "allocation_size_max"_a = s.allocationSizeMax,
                    "unused_range_size_min"_a = OptionalMin(s.unusedRangeCount, s.unusedRangeSizeMin),
                    "unused_range_size_max"_a = s.unusedRangeSizeMax);
}

py::dict TotalMemoryStatsDict(const memory::TotalMemoryStats& t) {
    py::dict kinds;
    for (int k = 0; k < memory::kHeapKindCount; ++k) kinds[memory::HeapKindName(static_cast<HeapKind>(k))] = MemoryStatsDict(t.heapKinds[k]);
    return py::dict("total"_a = MemoryStatsDict(t.total), "heap_types"_a = kinds);
}

ResourcePlacement ParsePlacement(py::handle heap, py::handle pool, bool committed, bool withinBudget, py::handle memoryRegion,
                                 uint64_t offset, const char* what) {
    ResourcePlacement p;
    if (!memoryRegion.is_none()) {
        if (!py::isinstance<memory::MemoryRegion>(memoryRegion))
            throw py::type_error(std::string(what) + ": memory must be a dx12kit.Memory (from Device.allocate_memory) or None");
        p.memory = memoryRegion.cast<std::shared_ptr<memory::MemoryRegion>>();
        p.offset = offset;
    } else if (offset != 0) {
        throw InvalidArgument(std::string(what) + ": offset= needs memory= (the memory to place the resource in)");
    }
    // heap=None (the default): the default heap, or the heap of pool= / memory=. A heap named
    // explicitly must be that heap: a pool or a memory region brings its own.
    const bool heapGiven = !heap.is_none();
    p.heap = heapGiven ? ParseChoice<HeapTypeChoice>(heap, (std::string(what) + ": heap").c_str()) : HeapKind::Default;
    if (!pool.is_none()) {
        if (!py::isinstance<MemoryPool>(pool)) throw py::type_error(std::string(what) + ": pool must be a dx12kit.Pool or None");
        p.pool = pool.cast<std::shared_ptr<MemoryPool>>();
        if (heapGiven && p.heap != p.pool->Desc().heap)
            throw InvalidArgument(std::string(what) + ": heap '" + memory::HeapKindName(p.heap) + "' differs from the pool's heap '" +
                                  memory::HeapKindName(p.pool->Desc().heap) + "' (leave heap= out with pool=)");
        p.heap = p.pool->Desc().heap;
    }
    p.committed = committed;
    p.withinBudget = withinBudget;
    if (p.memory) {
        if (heapGiven && p.heap != p.memory->heap)
            throw InvalidArgument(std::string(what) + ": heap '" + memory::HeapKindName(p.heap) + "' differs from the heap of memory= ('" +
                                  memory::HeapKindName(p.memory->heap) + "'; leave heap= out with memory=)");
        p.heap = p.memory->heap;
    }
    return p;
}

namespace {
py::dict AllocationDict(const memory::MemoryAllocation& a) {
    const MemoryPool* pool = a.Pool();
    py::dict d("heap_type"_a = memory::HeapKindName(pool->Desc().heap), "committed"_a = a.IsCommitted(),
               "block"_a = a.IsCommitted() ? py::object(py::none()) : py::object(py::int_(a.BlockId())), "offset"_a = a.Offset(),
               "size"_a = a.Size(), "alignment"_a = a.Alignment(),
               "pool"_a = pool->IsDefault() ? py::object(py::none()) : py::object(py::str(pool->Desc().name)));
    if (a.IsAlias()) d["aliased"] = true;
    return d;
}
}  // namespace

void BindMemory(py::module_& m, Classes& c) {
    Documented(c.pool,
        "A custom memory pool: heaps of one heap type with its own block size, block limits and placement\n"
        "algorithm. Create with Device.create_pool; pass as pool= to create_buffer / create_texture2d.")
        .def_property_readonly("name", [](const MemoryPool& p) { return p.Desc().name; }, "The pool's name (create_pool(name=)).")
        .def_property_readonly("heap", [](const MemoryPool& p) { return memory::HeapKindName(p.Desc().heap); },
                               "'default', 'upload', 'readback' or 'custom'.")
        .def_property_readonly("block_size", [](const MemoryPool& p) { return p.PreferredBlockSize(); },
                               "Bytes of each block (the largest new block size when the pool grows).")
        .def_property_readonly("min_blocks", [](const MemoryPool& p) { return p.Desc().minBlocks; }, "Blocks the pool keeps even when empty.")
        .def_property_readonly("max_blocks", [](const MemoryPool& p) { return p.Desc().maxBlocks; }, "0 = no limit.")
        .def_property_readonly("algorithm", [](const MemoryPool& p) { return AlgorithmName(p.Desc().algorithm); }, "'tlsf' or 'linear' (a dx12kit.PoolAlgorithm value).")
        .def_property_readonly("block_count", &MemoryPool::BlockCount, "Heaps the pool holds now.")
        .def("stats", [](const MemoryPool& p) { return MemoryStatsDict(p.Stats()); },
             "Statistics of this pool: block_count, block_bytes, allocation_count, allocation_bytes, unused_range_count,\n"
             "allocation_size_min/max, unused_range_size_min/max (bytes).")
        .def("validate", &MemoryPool::Validate, py::call_guard<ReleaseGil>(),
             "Checks the pool's invariants (no overlap, allocator consistency); raises Dx12Error naming a broken one.")
        .def("__repr__", [](const MemoryPool& p) {
            return "<dx12kit.Pool '" + p.Desc().name + "' heap=" + memory::HeapKindName(p.Desc().heap) + " algorithm=" +
                   AlgorithmName(p.Desc().algorithm) + " blocks=" + std::to_string(p.BlockCount()) + ">";
        });

    auto& resource = c.resource;
    resource.def_property_readonly("allocation", [](const Resource& r) -> py::object {
        const memory::MemoryAllocation& a = r.Memory();
        if (a.IsNull()) return py::none();
        return AllocationDict(a);
    }, "Where the resource's memory lies: dict with heap_type, committed, block (None when committed), offset (in the\n"
       "block), size, alignment, pool (its name, None for the device's default pools); 'aliased': True for a resource\n"
       "placed with memory= (it lies in that memory, which other resources may share).");

    Documented(c.memory,
        "GPU memory to place resources in yourself (aliasing): Device.allocate_memory, then create_buffer /\n"
        "create_texture2d with memory= and offset=. Resources placed in it keep it alive.")
        .def_property_readonly("size", [](const memory::MemoryRegion& r) { return r.allocation.Size(); })
        .def_property_readonly("allocation", [](const memory::MemoryRegion& r) { return AllocationDict(r.allocation); },
                               "Where the memory lies (as Resource.allocation).")
        .def_property_readonly("heap", [](const memory::MemoryRegion& r) { return memory::HeapKindName(r.heap); })
        .def_property_readonly("name", [](const memory::MemoryRegion& r) { return r.name; })
        .def("__repr__", [](const memory::MemoryRegion& r) {
            return "<dx12kit.Memory '" + r.name + "' " + std::to_string(r.allocation.Size()) + " bytes heap=" + memory::HeapKindName(r.heap) +
                   " block=" + std::to_string(r.allocation.BlockId()) + " offset=" + std::to_string(r.allocation.Offset()) + ">";
        });

    auto& buffer = c.buffer;
    buffer.def("map", [](py::object self, py::object dtype) {
        auto& b = self.cast<Buffer&>();
        b.Core().CheckNotForked("map");  // the child's copy of the mapping never reaches the GPU
        b.CheckNotClosed("map");
        if (!b.Mapped() || b.HeapType() == D3D12_HEAP_TYPE_DEFAULT)  // uma_direct buffers are mapped for dx12kit only
            throw InvalidArgument("map: buffer '" + b.Name() + "' lives in GPU-only memory; create it with heap='upload', 'readback' "
                                  "or 'custom' to map it");
        py::dtype dt = FixedSizeDtype(dtype, "map");  // no object, sizeless or byte-swapped dtypes
        const uint64_t item = static_cast<uint64_t>(dt.itemsize());
        if (b.Size() % item)
            throw InvalidArgument("map: buffer '" + b.Name() + "' of " + std::to_string(b.Size()) + " bytes is not a whole number of " +
                                  std::to_string(item) + "-byte items");
        // The array's base is the Buffer object, so the memory stays mapped while the array lives.
        return py::array(dt, {static_cast<py::ssize_t>(b.Size() / item)}, {static_cast<py::ssize_t>(item)}, b.Mapped(), self);
    }, "dtype"_a = py::dtype::of<uint8_t>(),
       "A numpy view of a CPU-visible buffer's memory (heap 'upload', 'readback' or 'custom'), valid while the buffer lives.\n"
       "Writes to upload memory are seen by the GPU work submitted after them; read readback memory after the\n"
       "GPU work that wrote it has completed (queue.wait).");

    auto& device = c.device;
    device
        .def("allocate_memory", [](Device& d, Int size, Int alignment, OptChoice<HeapTypeChoice> heap, py::handle pool, py::object name) {
            const char* fn = "allocate_memory";
            const ResourcePlacement from = ParsePlacement(heap.value, pool, false, false, py::none(), 0, "allocate_memory");
            return d.AllocateMemory(U64(size, fn, "size"), U64(alignment, fn, "alignment"), from, name.is_none() ? "memory" : Str(name, fn, "name"));
        }, "size"_a, py::kw_only(), "alignment"_a = 65536, "heap"_a = py::none(), "pool"_a = py::none(), "name"_a = py::none(),
           "Memory to place resources in yourself, for aliasing: `size` bytes at a multiple of `alignment` (a power of two\n"
           ">= 4096) from the default pool of `heap` or from `pool`. Place resources with create_buffer(..., memory=m, offset=o);\n"
           "offsets are checked against the resource's alignment and the memory's size.")
        .def("create_pool", [](Device& d, Choice<HeapTypeChoice> heap, py::object blockSize, Int minBlocks, Int maxBlocks,
                               Choice<PoolAlgorithmChoice> algorithm, py::object name) {
            // (no py::keep_alive here: pybind11 runs its postcall on a failed overload's sentinel; the
            // pool holds a reference to the ID3D12Device itself)
            memory::PoolDesc desc;
            desc.heap = Parse(heap, "create_pool: heap");
            if (!blockSize.is_none()) {
                if (!py::isinstance<py::int_>(blockSize)) throw py::type_error("create_pool: block_size must be an int or None");
                const long long v = detail::Ranged(blockSize, "create_pool", "block_size", 1, INT64_MAX);
                desc.blockSize = static_cast<uint64_t>(v);
            }
            desc.minBlocks = U32(minBlocks, "create_pool", "min_blocks");
            desc.maxBlocks = U32(maxBlocks, "create_pool", "max_blocks");
            desc.algorithm = Parse(algorithm, "create_pool: algorithm");
            if (!name.is_none()) desc.name = Str(name, "create_pool", "name");
            return d.Core()->Memory().CreatePool(desc);
        }, py::kw_only(), "heap"_a = "default", "block_size"_a = py::none(), "min_blocks"_a = 0, "max_blocks"_a = 0,
           "algorithm"_a = "tlsf", "name"_a = py::none(),
           "A custom pool. block_size: bytes of each block (a multiple of 65536; None grows blocks as the default pools do);\n"
           "min_blocks created up front and kept; max_blocks the limit (0 = none; at the limit allocation raises\n"
           "OutOfMemoryError); algorithm 'tlsf' (general) or 'linear' (offsets only grow; a block restarts at 0 when empty).")
        .def("defragment", [](Device& d, py::handle pool, Choice<DefragAlgorithmChoice> algorithm, py::object maxBytes, py::object maxMoves) {
            const char* fn = "defragment";
            std::shared_ptr<MemoryPool> p;
            if (!pool.is_none()) {
                if (!py::isinstance<MemoryPool>(pool)) throw py::type_error("defragment: pool must be a dx12kit.Pool or None");
                p = pool.cast<std::shared_ptr<MemoryPool>>();
            }
            const memory::DefragAlgorithm alg = Parse(algorithm, "defragment: algorithm");
            const uint64_t bytes = maxBytes.is_none() ? 0 : static_cast<uint64_t>(detail::Ranged(maxBytes, fn, "max_bytes", 1, INT64_MAX));
            const uint64_t moves = maxMoves.is_none() ? 0 : static_cast<uint64_t>(detail::Ranged(maxMoves, fn, "max_moves", 1, INT64_MAX));
            DefragmentStats st;
            {
                ReleaseGil release;
                st = d.Defragment(p, alg, bytes, moves);
            }
            return py::dict("moves"_a = st.moves, "bytes_moved"_a = st.bytesMoved, "blocks_freed"_a = st.blocksFreed,
                            "passes"_a = st.passes, "seconds"_a = st.seconds);
        }, py::kw_only(), "pool"_a = py::none(), "algorithm"_a = "full", "max_bytes"_a = py::none(), "max_moves"_a = py::none(),
           "Moves placed resources so that memory blocks empty and are released, doing every step itself: new placement,\n"
           "GPU copies (on the copy queue when every source is in COMMON), the same Python objects re-pointed (their cached\n"
           "views and the CPU descriptors handed out describe the moved resource), old memory freed after the copy.\n"
           "pool: a 'default'-heap Pool, or None for the device's default pool. algorithm (a dx12kit.DefragAlgorithm): 'fast' (empty the least-used\n"
           "blocks into fuller ones), 'balanced' (also move small allocations down within blocks), 'full' (every allocation\n"
           "to the lowest free range). max_bytes / max_moves bound one incremental pass (for a frame loop; no wait);\n"
           "without them passes run until nothing moves, then empty blocks are released. Resources used by a command list\n"
           "still being recorded are not moved. Returns {'moves', 'bytes_moved', 'blocks_freed', 'passes', 'seconds'}.\n"
           "A buffer's gpu_address changes when it moves.")
        .def("memory_stats", [](Device& d) { return TotalMemoryStatsDict(d.Core()->Memory().Stats()); },
             "GPU memory statistics: {'total': {...}, 'heap_types': {'default', 'upload', 'readback', 'custom'}}, each with\n"
             "block_count, block_bytes, allocation_count, allocation_bytes, unused_range_count, allocation_size_min/max,\n"
             "unused_range_size_min/max. A committed resource counts as a block holding one allocation. Memory of dropped\n"
             "resources is counted until the GPU work that used it has completed.")
        .def("memory_budget", [](Device& d) {
            const memory::MemoryManager& mm = d.Core()->Memory();
            return py::dict("local"_a = BudgetDict(mm.Budget(true)), "non_local"_a = BudgetDict(mm.Budget(false)));
        }, "{'local': {...}, 'non_local': {...}} with budget_bytes, usage_bytes, block_bytes, allocation_bytes. usage is\n"
           "dx12kit's own bookkeeping (vkd3d reports no budget); on a UMA adapter everything is local.")
        .def("memory_json", [](Device& d, bool detailed) { return d.Core()->Memory().BuildJson(detailed, d.AdapterName()); },
             "detailed"_a = true,
             "The memory layout as JSON (in the spirit of D3D12MA's BuildStatsString): General, Total, MemoryInfo, HeapTypes,\n"
             "DefaultPools and CustomPools; with detailed=True every block lists its suballocations (offset, type, size, flags,\n"
             "name) and free ranges in address order. dx12kit.memory.heap_map draws it.")
        .def("trim_memory", &Device::TrimMemory, py::call_guard<ReleaseGil>(),
             "Destroys the idle upload pages (free pages and cached large pages; those of lists in flight stay), then\n"
             "releases, now, every empty memory block above each pool's min_blocks (they are otherwise released after a\n"
             "grace period, so per-frame allocate/free patterns do not create and destroy heaps).")
        .def("validate_memory", [](Device& d) { d.Core()->Memory().Validate(); }, py::call_guard<ReleaseGil>(),
             "Checks every pool's invariants and the budget's bookkeeping; raises Dx12Error naming a broken one.");
    // A pool or memory region does not know its device: leaked in any forked child.
    InstallForkLeak<MemoryPool>(nullptr);
    InstallForkLeak<memory::MemoryRegion>(nullptr);
}

}  // namespace dx12kit::bindings
