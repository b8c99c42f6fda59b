// dx12core: Device's memory methods (allocate_memory, create_pool, defragment, memory_stats, memory_budget,
// memory_json, trim_memory, validate_memory), called by BindDevice. Only conversions live here.
#include "GpuArgs.hpp"
#include "Progress.hpp"
#include "StatsDicts.hpp"

namespace dx12kit::bindings {

void BindDeviceMemory(Classes& c) {
    c.device
        .def("allocate_memory", [](Device& d, Int size, Int alignment, OptChoice<HeapTypeChoice> heap, py::handle pool, py::object name) {
            const char* fn = "allocate_memory";
            const ResourcePlacement from = ParsePlacement(heap.value, pool, false, false, py::none(), 0, "allocate_memory");
            return d.AllocateMemory(U64(size, fn, "size"), U64(alignment, fn, "alignment"), from, name.is_none() ? "memory" : Str(name, fn, "name"));
        }, "size"_a, py::kw_only(), "alignment"_a = 65536, "heap"_a = py::none(), "pool"_a = py::none(), "name"_a = py::none(),
           "Memory to place resources in yourself, for aliasing: `size` bytes at a multiple of `alignment` (a power of two\n"
           ">= 4096) from the default pool of `heap` or from `pool`. Place resources with create_buffer(..., memory=m, offset=o);\n"
           "offsets are checked against the resource's alignment and the memory's size.\n\n"
           "Args:\n"
           "    size: bytes.\n"
           "    alignment: a power of two >= 4096.\n"
           "    heap: a HeapType or its name; None: the default heap, or pool's.\n"
           "    pool: a Pool to allocate from, or None.\n"
           "    name: a debug name, or None ('memory').\n\n"
           "Returns:\n"
           "    A Memory.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a bad size or alignment, or a heap that differs from pool's.\n"
           "    OutOfMemoryError: no memory left.")
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
           "OutOfMemoryError); algorithm 'tlsf' (general) or 'linear' (offsets only grow; a block restarts at 0 when empty).\n\n"
           "Args:\n"
           "    heap: a HeapType or its name.\n"
           "    block_size: bytes per block (a multiple of 65536), or None.\n"
           "    min_blocks: blocks made at once and kept.\n"
           "    max_blocks: the block limit (0: none).\n"
           "    algorithm: a PoolAlgorithm or its name.\n"
           "    name: the pool's name, or None.\n\n"
           "Returns:\n"
           "    A Pool.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a block size that is not a multiple of 65536, or min_blocks > max_blocks.")
        .def("defragment", [](Device& d, py::handle pool, Choice<DefragAlgorithmChoice> algorithm, py::object maxBytes, py::object maxMoves,
                              py::object progress) {
            const char* fn = "defragment";
            std::shared_ptr<memory::MemoryPool> p;
            if (!pool.is_none()) {
                if (!py::isinstance<memory::MemoryPool>(pool)) throw py::type_error("defragment: pool must be a dx12kit.Pool or None");
                p = pool.cast<std::shared_ptr<memory::MemoryPool>>();
            }
            const memory::DefragAlgorithm alg = Parse(algorithm, "defragment: algorithm");
            const uint64_t bytes = maxBytes.is_none() ? 0 : static_cast<uint64_t>(detail::Ranged(maxBytes, fn, "max_bytes", 1, INT64_MAX));
            const uint64_t moves = maxMoves.is_none() ? 0 : static_cast<uint64_t>(detail::Ranged(maxMoves, fn, "max_moves", 1, INT64_MAX));
            // progress=: None (a bar on a terminal, only for a full run), False, True or a callable(done, total) (_progress.py).
            ProgressReporter report(bytes || moves ? (progress.is_none() ? py::object(py::bool_(false)) : progress) : progress,
                                    "defragment", "moves");
            DefragmentStats st;
            {
                ReleaseGil release;
                st = d.Defragment(p, alg, bytes, moves, report.Callback());
            }
            return DefragmentStatsDict(st);
        }, py::kw_only(), "pool"_a = py::none(), "algorithm"_a = "full", "max_bytes"_a = py::none(), "max_moves"_a = py::none(),
           "progress"_a = py::none(),
           "Moves placed resources so that memory blocks empty and are released, doing every step itself: new placement,\n"
           "GPU copies (on the copy queue when every source is in COMMON), the same Python objects re-pointed (their cached\n"
           "views and the CPU descriptors handed out describe the moved resource), old memory freed after the copy.\n"
           "With pool=None it covers every default pool of the device that places movable resources: the 'default' heap's\n"
           "and, on a cache-coherent UMA adapter, the 'custom' heap's (where a plain Device() keeps its buffers: uma_direct).\n"
           "algorithm (a dx12kit.DefragAlgorithm): 'fast' (empty the least-used blocks into fuller ones), 'balanced' (also\n"
           "move small allocations down within blocks), 'full' (every allocation to the lowest free range). max_bytes /\n"
           "max_moves bound one incremental pass (for a frame loop; no wait); without them passes run until nothing moves,\n"
           "then empty blocks are released. What moves is GPU memory as you see it: resources created with heap='default'\n"
           "(uma_direct buffers included; dx12kit orders its own CPU reads and writes of them after the copy). Never moved:\n"
           "CPU-visible memory you may hold pointers into (heap='custom', 'upload', 'readback'), resources used by a\n"
           "command list still being recorded, committed resources, memory= placements. A buffer's gpu_address changes\n"
           "when it moves.\n\n"
           "Args:\n"
           "    pool: a 'default'-heap Pool, or None for the device's default pools.\n"
           "    algorithm: a DefragAlgorithm or its name.\n"
           "    max_bytes: bytes one pass may move (summed over the pools), or None.\n"
           "    max_moves: moves one pass may make (summed over the pools), or None.\n"
           "    progress: None (a bar when stderr is a terminal, for a full run only), False, True (a bar), or a\n"
           "        callable(done, total) called once per moved allocation after its pass's copies completed (incremental: were\n"
           "        submitted), total being the\n"
           "        moves planned so far (it grows as passes find more).\n\n"
           "Returns:\n"
           "    A dict: moves, bytes_moved, blocks_freed, passes, seconds (summed over the pools).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a pool of the 'custom', 'upload' or 'readback' heap, a linear pool, a pool of another device,\n"
           "        a bad algorithm or a max_bytes / max_moves below 1.\n"
           "    TypeError: pool is not a Pool or None, or max_bytes / max_moves not an int.")
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
             "name) and free ranges in address order. dx12kit.memory.heap_map draws it.\n\n"
           "Args:\n"
           "    detailed: list every block's suballocations and free ranges.\n\n"
           "Returns:\n"
           "    A JSON string.")
        .def("trim_memory", &Device::TrimMemory, py::call_guard<ReleaseGil>(),
             "Destroys the idle upload pages (free pages and cached large pages; those of lists in flight stay), then\n"
             "releases, now, every empty memory block above each pool's min_blocks (they are otherwise released after a\n"
             "grace period, so per-frame allocate/free patterns do not create and destroy heaps).")
        .def("validate_memory", [](Device& d) { d.Core()->Memory().Validate(); }, py::call_guard<ReleaseGil>(),
             "Checks every pool's invariants and the budget's bookkeeping; raises Dx12Error naming a broken one.");
}

}  // namespace dx12kit::bindings
