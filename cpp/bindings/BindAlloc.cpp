// dx12core.alloc: the device-free allocators (FreeList, Linear, Tlsf) and the replay entry point.
// The documented Python API is dx12kit/alloc.py. The benchmark baseline (BaselineBimap) is bound
// in the benchmark module dx12kit_bench (bench/BenchAlloc.cpp); both share AllocBindings.hpp.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "docs/AllocDocs.hpp"
#include "Bindings.hpp"
#include "dx12kit/alloc/FreeListAllocator.hpp"
#include "dx12kit/alloc/LinearAllocator.hpp"
#include "dx12kit/alloc/Replay.hpp"
#include "dx12kit/alloc/TlsfAllocator.hpp"
#include "AllocBindings.hpp"

namespace py = pybind11;

namespace dx12kit::bindings {
namespace {

using namespace allocpy;

py::dict ReplayPy(const py::object& allocator, const Ops& ops, const py::object& alignmentObj, bool recordOffsets) {
    if (ops.ndim() != 2 || ops.shape(1) != 3) throw InvalidArgument("replay: ops must have shape (N, 3), rows [kind, slot, size]");
    uint64_t alignment = ToU64(alignmentObj, "alignment");
    py::dict result;
    if (TryReplay<alloc::FreeListAllocator>(allocator, ops, alignment, recordOffsets, result) ||
        TryReplay<alloc::TlsfAllocator>(allocator, ops, alignment, recordOffsets, result) ||
        TryReplay<alloc::LinearAllocator>(allocator, ops, alignment, recordOffsets, result))
        return result;
    throw py::type_error(
        "replay: allocator must be a FreeList, Tlsf or Linear (dx12kit_bench.BaselineBimap has its own "
        "replay)");
}

}  // namespace

void BindAlloc(py::module_& m) {
    py::module_ a = m.def_submodule("alloc", docs::alloc::module_);

    using GFreeList = Guarded<alloc::FreeListAllocator>;
    auto freeList = BindCommon<alloc::FreeListAllocator>(a, "FreeList",
                                                         "FreeList(capacity, *, bitmap_bins=None)\n\nExact address-ordered best fit (smallest "
                                                         "block that fits, lowest offset among equals), with\nalignment and fence-deferred frees. "
                                                         "The allocator of the descriptor pages. capacity <= 2**32 - 1;\nabout 3 bits of "
                                                         "bookkeeping per unit.\n\nbitmap_bins: sizes below it are indexed by bitmaps, larger ones "
                                                         "by heaps; None picks it from the\ncapacity. Placements never depend on it (tests set it "
                                                         "to exercise both).",
                                                         false);
    freeList
        .def(py::init([](const py::object& capacity, const py::object& bitmapBins) {
                 uint32_t bins = alloc::FreeListAllocator::kAutoBitmapBins;
                 if (!bitmapBins.is_none()) bins = static_cast<uint32_t>(std::min<uint64_t>(ToU64(bitmapBins, "bitmap_bins"), bins - 1));
                 return std::make_unique<GFreeList>(ToU64(capacity, "capacity"), bins);
             }),
             py::arg("capacity"), py::kw_only(), py::arg("bitmap_bins") = py::none(), docs::FreeList::init)
        .def_property_readonly(
            "bitmap_bins", [](GFreeList& g) { return g.impl.BitmapBins(); }, docs::FreeList::bitmap_bins);
    BindDeferred(freeList);

    auto tlsf = BindCommon<alloc::TlsfAllocator>(a, "Tlsf",
                                                 "Tlsf(capacity)\n\nTwo-level segregated fit: O(1) allocate and free, capacity up to "
                                                 "2**40, alignment without\nscans, fence-deferred frees. The allocator of the memory "
                                                 "heaps.");
    BindDeferred(tlsf);

    BindCommon<alloc::LinearAllocator>(a, "Linear",
                                       "Linear(capacity)\n\nBump allocator of the upload pages: O(1) aligned allocate, "
                                       "reset(); allocate() returns None\nwhen the page is full. free(offset) only undoes the "
                                       "most recent allocation.")
        .def_property_readonly(
            "head", [](Guarded<alloc::LinearAllocator>& g) { return g.Get().Head(); }, docs::Linear::head)
        .def(
            "free_blocks_list",
            [](Guarded<alloc::LinearAllocator>& g) {
                const auto& l = g.Get();
                py::list out;
                if (l.Head() < l.Capacity()) out.append(py::make_tuple(l.Head(), l.Capacity() - l.Head()));
                return out;
            },
            docs::Linear::free_blocks_list);

    a.def("replay", &ReplayPy, py::arg("allocator"), py::arg("ops"), py::arg("alignment") = 1, py::arg("record_offsets") = false,
          docs::alloc::replay);
}

}  // namespace dx12kit::bindings
