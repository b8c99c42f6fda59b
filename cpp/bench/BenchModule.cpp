// dx12kit._bench: the benchmark module. Built beside dx12kit.dx12core (CMake option DX12KIT_BENCH,
// on by default under scikit-build-core) and installed into the package directory, but never
// imported by dx12kit: only benchmarks/ and the tests import it. It holds what used to ship inside
// the extension for the benchmarks' sake: the C++ timing loops (BindBench.cpp), the descriptor
// loops (DescriptorBenchmarks.cpp) and the textbook free list BaselineBimap (benchmarks/baseline/),
// the yardstick and reference placements of the allocator benchmarks and property tests.
//
// The module imports dx12kit.dx12core first: the Device, PipelineState, Resource and
// CpuDescriptorAllocator arguments are dx12core's registered types (pybind11 shares type
// registrations between modules built with the same pybind11), and dx12core's exception
// translators turn the C++ errors thrown here into dx12kit's Python exceptions.
#include "BenchBindings.hpp"

#include "../bindings/AllocBindings.hpp"
#include "BaselineBimap.hpp"

namespace py = pybind11;

namespace {

using namespace dx12kit::bindings::allocpy;
using dx12kit::bench::BaselineBimap;

py::dict ReplayBaseline(const py::object& allocator, const Ops& ops, const py::object& alignmentObj, bool recordOffsets) {
    if (ops.ndim() != 2 || ops.shape(1) != 3)
        throw dx12kit::InvalidArgument("replay: ops must have shape (N, 3), rows [kind, slot, size]");
    const uint64_t alignment = ToU64(alignmentObj, "alignment");
    py::dict result;
    if (TryReplay<BaselineBimap>(allocator, ops, alignment, recordOffsets, result)) return result;
    throw py::type_error("replay: allocator must be a dx12kit._bench.BaselineBimap");
}

}  // namespace

PYBIND11_MODULE(_bench, m) {
    m.doc() = "dx12kit's benchmark helpers (not part of dx12kit's API; imported by benchmarks/ and tests/ only)";
    py::module_::import("dx12kit.dx12core");  // the argument types and the exception translators

    auto baseline = BindCommon<BaselineBimap>(
        m, "BaselineBimap",
        "BaselineBimap(capacity)\n\nThe textbook std::map + size-ordered set free list "
        "(benchmarks/baseline/): the reference\nplacements and the speed yardstick of "
        "dx12kit.alloc.FreeList. Not for production use.");
    BindDeferred(baseline);
    // dx12kit.alloc.replay() calls an allocator class's own _replay when it has one.
    baseline.def_static("_replay", &ReplayBaseline, py::arg("allocator"), py::arg("ops"), py::arg("alignment") = 1,
                        py::arg("record_offsets") = false,
                        "_replay(allocator, ops, alignment=1, record_offsets=False) -> dict\n\n"
                        "The replay loop of dx12kit.alloc.replay for a BaselineBimap (call that instead).");

    dx12kit::bindings::BindBench(m);
    dx12kit::bindings::BindBenchDescriptors(m);
}
