// dx12core: Pool (a custom memory pool: Device.create_pool).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

namespace {
const char* AlgorithmName(memory::PoolAlgorithm a) { return a == memory::PoolAlgorithm::Linear ? "linear" : "tlsf"; }
}  // namespace

void BindPool(Classes& c) {
    Documented(c.pool,
        "A custom memory pool: heaps of one heap type with its own block size, block limits and placement\n"
        "algorithm. Create with Device.create_pool; pass as pool= to create_buffer / create_texture2d.")
        .def_property_readonly("name", [](const memory::MemoryPool& p) { return p.Desc().name; }, "The pool's name (create_pool(name=)).")
        .def_property_readonly("heap", [](const memory::MemoryPool& p) { return memory::HeapKindName(p.Desc().heap); },
                               "'default', 'upload', 'readback' or 'custom'.")
        .def_property_readonly("block_size", [](const memory::MemoryPool& p) { return p.PreferredBlockSize(); },
                               "Bytes of each block (the largest new block size when the pool grows).")
        .def_property_readonly("min_blocks", [](const memory::MemoryPool& p) { return p.Desc().minBlocks; }, "Blocks the pool keeps even when empty.")
        .def_property_readonly("max_blocks", [](const memory::MemoryPool& p) { return p.Desc().maxBlocks; }, "0 = no limit.")
        .def_property_readonly("algorithm", [](const memory::MemoryPool& p) { return AlgorithmName(p.Desc().algorithm); }, "'tlsf' or 'linear' (a dx12kit.PoolAlgorithm value).")
        .def_property_readonly("block_count", &memory::MemoryPool::BlockCount, "Heaps the pool holds now.")
        .def("stats", [](const memory::MemoryPool& p) { return MemoryStatsDict(p.Stats()); },
             "Statistics of this pool: block_count, block_bytes, allocation_count, allocation_bytes, unused_range_count,\n"
             "allocation_size_min/max, unused_range_size_min/max (bytes).")
        .def("validate", &memory::MemoryPool::Validate, py::call_guard<ReleaseGil>(),
             "Checks the pool's invariants (no overlap, allocator consistency); raises Dx12Error naming a broken one.")
        .def("__repr__", [](const memory::MemoryPool& p) {
            return "<dx12kit.Pool '" + p.Desc().name + "' heap=" + memory::HeapKindName(p.Desc().heap) + " algorithm=" +
                   AlgorithmName(p.Desc().algorithm) + " blocks=" + std::to_string(p.BlockCount()) + ">";
        });
    // A pool does not know its device: leaked in any forked child.
    InstallForkLeak<memory::MemoryPool>(nullptr);
}

}  // namespace dx12kit::bindings
