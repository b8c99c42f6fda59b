// dx12core: Pool (a custom memory pool: Device.create_pool).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/PoolDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

namespace {
const char* AlgorithmName(memory::PoolAlgorithm a) {
    return a == memory::PoolAlgorithm::Linear ? "linear" : "tlsf";
}
}  // namespace

void BindPool(Classes& c) {
    Documented(c.pool, docs::Pool::class_)
        .def_property_readonly(
            "name", [](const memory::MemoryPool& p) { return p.Desc().name; }, docs::Pool::name)
        .def_property_readonly(
            "heap", [](const memory::MemoryPool& p) { return memory::HeapKindName(p.Desc().heap); }, docs::Pool::heap)
        .def_property_readonly(
            "block_size", [](const memory::MemoryPool& p) { return p.PreferredBlockSize(); }, docs::Pool::block_size)
        .def_property_readonly(
            "min_blocks", [](const memory::MemoryPool& p) { return p.Desc().minBlocks; }, docs::Pool::min_blocks)
        .def_property_readonly(
            "max_blocks", [](const memory::MemoryPool& p) { return p.Desc().maxBlocks; }, docs::Pool::max_blocks)
        .def_property_readonly(
            "algorithm", [](const memory::MemoryPool& p) { return AlgorithmName(p.Desc().algorithm); }, docs::Pool::algorithm)
        .def_property_readonly("block_count", &memory::MemoryPool::BlockCount, docs::Pool::block_count)
        .def(
            "stats", [](const memory::MemoryPool& p) { return MemoryStatsDict(p.Stats()); }, docs::Pool::stats)
        .def("validate", &memory::MemoryPool::Validate, py::call_guard<ReleaseGil>(), docs::Pool::validate)
        .def("__repr__", [](const memory::MemoryPool& p) {
            return "<dx12kit.Pool '" + p.Desc().name + "' heap=" + memory::HeapKindName(p.Desc().heap) +
                   " algorithm=" + AlgorithmName(p.Desc().algorithm) + " blocks=" + std::to_string(p.BlockCount()) + ">";
        });
    // A pool does not know its device: leaked in any forked child.
    InstallForkLeak<memory::MemoryPool>(nullptr);
}

}  // namespace dx12kit::bindings
