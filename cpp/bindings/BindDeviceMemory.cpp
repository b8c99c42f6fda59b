// dx12core: Device's memory methods (allocate_memory, create_pool, defragment, memory_stats, memory_budget,
// memory_json, trim_memory, validate_memory), called by BindDevice. Only conversions live here.
#include "docs/DeviceDocs.hpp"
#include "GpuArgs.hpp"
#include "Progress.hpp"
#include "StatsDicts.hpp"

#include "dx12kit/features/Defragment.hpp"

namespace dx12kit::bindings {

void BindDeviceMemory(Classes& c) {
    c.device
        .def(
            "allocate_memory",
            [](Device& d, Int size, Int alignment, OptChoice<HeapTypeChoice> heap, OptPoolArg pool, OptNameArg name) {
                const char* fn = "allocate_memory";
                const ResourcePlacement from = ParsePlacement(heap.value, pool, false, false, py::none(), 0, "allocate_memory");
                return d.AllocateMemory(U64(size, fn, "size"), U64(alignment, fn, "alignment"), from,
                                        name.is_none() ? "memory" : Str(name, fn, "name"));
            },
            "size"_a, py::kw_only(), "alignment"_a = 65536, "heap"_a = py::none(), "pool"_a = py::none(), "name"_a = py::none(),
            docs::Device::allocate_memory)
        .def(
            "create_pool",
            [](Device& d, Choice<HeapTypeChoice> heap, py::object blockSize, Int minBlocks, Int maxBlocks, Choice<PoolAlgorithmChoice> algorithm,
               OptNameArg name) {
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
                return d.Context()->Memory().CreatePool(desc);
            },
            py::kw_only(), "heap"_a = "default", "block_size"_a = py::none(), "min_blocks"_a = 0, "max_blocks"_a = 0, "algorithm"_a = "tlsf",
            "name"_a = py::none(), docs::Device::create_pool)
        .def(
            "defragment",
            [](Device& d, OptPoolArg pool, Choice<DefragAlgorithmChoice> algorithm, py::object maxBytes, py::object maxMoves,
               ProgressArg progressArg) {
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
                const py::object progress = py::reinterpret_borrow<py::object>(progressArg.value);
                ProgressReporter report(bytes || moves ? (progress.is_none() ? py::object(py::bool_(false)) : progress) : progress, "defragment",
                                        "moves");
                DefragmentStats st;
                {
                    ReleaseGil release;
                    st = Defragment(d, p, alg, bytes, moves, report.Callback());
                }
                return DefragmentStatsDict(st);
            },
            py::kw_only(), "pool"_a = py::none(), "algorithm"_a = "full", "max_bytes"_a = py::none(), "max_moves"_a = py::none(),
            "progress"_a = py::none(), docs::Device::defragment)
        .def(
            "memory_stats", [](Device& d) { return TotalMemoryStatsDict(d.Context()->Memory().Stats()); }, docs::Device::memory_stats)
        .def(
            "memory_budget",
            [](Device& d) {
                const memory::MemoryManager& mm = d.Context()->Memory();
                return py::dict("local"_a = BudgetDict(mm.Budget(true)), "non_local"_a = BudgetDict(mm.Budget(false)));
            },
            docs::Device::memory_budget)
        .def(
            "memory_json", [](Device& d, bool detailed) { return d.Context()->Memory().BuildJson(detailed, d.AdapterName()); }, "detailed"_a = true,
            docs::Device::memory_json)
        .def("trim_memory", &Device::TrimMemory, py::call_guard<ReleaseGil>(), docs::Device::trim_memory)
        .def(
            "validate_memory", [](Device& d) { d.Context()->Memory().Validate(); }, py::call_guard<ReleaseGil>(), docs::Device::validate_memory);
}

}  // namespace dx12kit::bindings
