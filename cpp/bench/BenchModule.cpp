// dx12kit_bench: the benchmark module. Not part of dx12kit: built only with the CMake option
// DX12KIT_BENCH (scripts/bootstrap.sh's developer build turns it on), into <build>/bench/, and never
// installed; benchmarks/_native.py finds it there for benchmarks/ and tests/. It holds what the
// benchmarks need in C++: the timing loops (BindBench.cpp), the descriptor loops
// (DescriptorBenchmarks.cpp), the random trace builder of benchmarks/traces.py (RandomTrace.cpp)
// and the textbook free list BaselineBimap (benchmarks/baseline/), the yardstick and reference
// placements of the allocator benchmarks and property tests.
//
// The module imports dx12kit.dx12core first: the Device, PipelineState, Resource and
// CpuDescriptorAllocator arguments are dx12core's registered types (pybind11 shares type
// registrations between modules built with the same pybind11), and dx12core's exception
// translators turn the C++ errors thrown here into dx12kit's Python exceptions.
#include "BenchBindings.hpp"

#include "../bindings/AllocBindings.hpp"
#include "BaselineBimap.hpp"
#include "RandomTrace.hpp"

namespace py = pybind11;

namespace {

using namespace dx12kit::bindings::allocpy;
using dx12kit::bench::BaselineBimap;

py::dict ReplayBaseline(const py::object& allocator, const Ops& ops, const py::object& alignmentObj, bool recordOffsets) {
    if (ops.ndim() != 2 || ops.shape(1) != 3) throw dx12kit::InvalidArgument("replay: ops must have shape (N, 3), rows [kind, slot, size]");
    const uint64_t alignment = ToU64(alignmentObj, "alignment");
    py::dict result;
    if (TryReplay<BaselineBimap>(allocator, ops, alignment, recordOffsets, result)) return result;
    throw py::type_error("replay: allocator must be a dx12kit_bench.BaselineBimap");
}

py::array_t<int64_t> BuildRandomTracePy(const py::array_t<double, py::array::c_style | py::array::forcecast>& uAlloc,
                                        const py::array_t<double, py::array::c_style | py::array::forcecast>& uPick,
                                        const py::array_t<int64_t, py::array::c_style | py::array::forcecast>& sizes, uint64_t maxLive,
                                        double pAlloc) {
    const py::ssize_t n = uAlloc.size();
    if (uAlloc.ndim() != 1 || uPick.ndim() != 1 || sizes.ndim() != 1 || uPick.size() != n || sizes.size() != n)
        throw dx12kit::InvalidArgument("build_random_trace: three 1-D arrays of equal length expected");
    py::array_t<int64_t> out({n, py::ssize_t(3)});
    int64_t* outData = out.mutable_data();
    {
        py::gil_scoped_release nogil;
        dx12kit::bench::BuildRandomTrace(uAlloc.data(), uPick.data(), sizes.data(), static_cast<size_t>(n), maxLive, pAlloc, outData);
    }
    return out;
}

}  // namespace

PYBIND11_MODULE(dx12kit_bench, m) {
    m.doc() = "dx12kit's benchmark helpers (not part of dx12kit's API; imported by benchmarks/ and tests/ only)";
    py::module_::import("dx12kit.dx12core");  // the argument types and the exception translators

    auto baseline = BindCommon<BaselineBimap>(m, "BaselineBimap",
                                              "BaselineBimap(capacity)\n\nThe textbook std::map + size-ordered set free list "
                                              "(benchmarks/baseline/): the reference\nplacements and the speed yardstick of "
                                              "dx12kit.alloc.FreeList. Not for production use.");
    BindDeferred(baseline);
    // dx12kit.alloc.replay() calls an allocator class's own _replay when it has one.
    baseline.def_static("_replay", &ReplayBaseline, py::arg("allocator"), py::arg("ops"), py::arg("alignment") = 1, py::arg("record_offsets") = false,
                        "_replay(allocator, ops, alignment=1, record_offsets=False) -> dict\n\n"
                        "The replay loop of dx12kit.alloc.replay for a BaselineBimap (call that instead).");

    m.def("build_random_trace", &BuildRandomTracePy, py::arg("u_alloc"), py::arg("u_pick"), py::arg("sizes"), py::arg("max_live"), py::arg("p_alloc"),
          "build_random_trace(u_alloc, u_pick, sizes, max_live, p_alloc) -> numpy.ndarray\n\n"
          "The sequential part of benchmarks/traces.py's random traces (cpp/bench/RandomTrace.hpp).");
    dx12kit::bindings::BindBench(m);
    dx12kit::bindings::BindBenchDescriptors(m);
    dx12kit::bindings::BindBenchCalls(m);
    dx12kit::bindings::BindBenchBindings(m);
}
