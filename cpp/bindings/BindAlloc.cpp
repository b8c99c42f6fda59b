// dx12core.alloc: the device-free allocators (FreeList, Linear, Tlsf), the benchmark baseline
// (BaselineBimap) and the replay entry point. The documented Python API is dx12kit/alloc.py.
//
// Each allocator is bound inside a Guarded<> holder that adds a `busy` flag: replay() releases
// the GIL while it runs the trace, and every other method of that allocator raises instead of
// racing with it. The flag is only read and written with the GIL held, so it needs no atomics.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "Bindings.hpp"
#include "dx12kit/alloc/FreeListAllocator.hpp"
#include "dx12kit/alloc/LinearAllocator.hpp"
#include "dx12kit/alloc/Replay.hpp"
#include "dx12kit/alloc/TlsfAllocator.hpp"
// The baseline lives with the benchmarks (it is not library API); this target has no include
// directory for it, hence the relative path.
#include "../../benchmarks/baseline/BaselineBimap.hpp"

namespace py = pybind11;

namespace dx12kit::bindings {
namespace {

using alloc::AllocatorStats;
using alloc::kInvalidOffset;

template <class A>
struct Guarded {
    template <class... Args>
    explicit Guarded(Args&&... args) : impl(std::forward<Args>(args)...) {}
    A impl;
    bool busy = false;

    A& Get() {
        if (busy) throw Error("this allocator is running replay() on another thread");
        return impl;
    }
};

// Python int (or anything with __index__, e.g. numpy integers) -> uint64, with range errors as
// InvalidArgumentError rather than TypeError/OverflowError.
uint64_t ToU64(const py::handle& value, const char* name) {
    PyObject* index = PyNumber_Index(value.ptr());
    if (!index) {
        PyErr_Clear();
        throw py::type_error(std::string(name) + " must be an int, not " +
                             std::string(py::str(py::type::of(value).attr("__name__"))));
    }
    py::int_ v = py::reinterpret_steal<py::int_>(index);
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow < 0 || (overflow == 0 && x < 0))
        throw InvalidArgument(std::string(name) + " must be >= 0, got " + std::string(py::str(v)));
    if (overflow == 0) return static_cast<uint64_t>(x);
    unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
    if (PyErr_Occurred()) {
        PyErr_Clear();
        throw InvalidArgument(std::string(name) + " " + std::string(py::str(v)) +
                              " does not fit in 64 bits");
    }
    return u;
}

py::dict StatsDict(const AllocatorStats& s) {
    py::dict d;
    d["capacity"] = s.capacity;
    d["used"] = s.used;
    d["free"] = s.free;
    d["free_blocks"] = s.freeBlocks;
    d["largest_free_block"] = s.largestFreeBlock;
    d["allocations"] = s.allocations;
    return d;
}

py::object OffsetOrNone(uint64_t offset) {
    return offset == kInvalidOffset ? py::object(py::none()) : py::object(py::int_(offset));
}

// Lists of (offset, size) taken from CalculateBlocks(): state 0 = free, 1 = live, 2 = pending.
template <class A>
py::list BlockList(A& a, int wantState, bool withState) {
    py::list out;
    for (const auto& b : a.CalculateBlocks()) {
        if (wantState >= 0 && static_cast<int>(b.state) != wantState) continue;
        if (withState)
            out.append(py::make_tuple(b.offset, b.size, b.state));
        else
            out.append(py::make_tuple(b.offset, b.size));
    }
    return out;
}

template <class A>
std::string Repr(const char* name, A& a) {
    AllocatorStats s = a.GetStats();
    return std::string("<dx12kit.alloc.") + name + " capacity=" + std::to_string(s.capacity) +
           " used=" + std::to_string(s.used) + " allocations=" + std::to_string(s.allocations) +
           " free_blocks=" + std::to_string(s.freeBlocks) + ">";
}

constexpr const char* kAllocateDoc = R"(allocate(size, alignment=1) -> int | None

Allocates `size` units at a multiple of `alignment`.

Returns:
    The offset, or None when the allocator has no room (an expected outcome, not an error).
Raises:
    InvalidArgumentError: size 0, size larger than the capacity, alignment not a power of two
        (the allocator is unchanged).)";

constexpr const char* kFreeDoc = R"(free(offset) -> None

Returns the allocation starting at `offset`.

Raises:
    InvalidArgumentError: `offset` is not the start of a live allocation (never allocated,
        already freed, or passed to free_deferred); the allocator is unchanged.)";

constexpr const char* kFreeDeferredDoc = R"(free_deferred(offset, fence_value) -> None

Frees the allocation at `offset` once the fence reaches `fence_value`: until
release_stale(v) with v >= fence_value the range is neither reusable nor freeable, and stays
counted in stats()["used"] and ["allocations"].

Raises:
    InvalidArgumentError: as free().)";

constexpr const char* kReleaseDoc = R"(release_stale(completed_value) -> None

Frees every deferred range whose fence value is <= `completed_value`.)";

constexpr const char* kStatsDoc = R"(stats() -> dict

Keys: capacity, used, free, free_blocks, largest_free_block, allocations (deferred frees not
yet released count as used and as allocations).)";

template <class A>
py::class_<Guarded<A>> BindCommon(py::module_& m, const char* name, const char* doc,
                                  bool plainInit = true) {
    using G = Guarded<A>;
    py::class_<G> cls(m, name, doc);
    if (plainInit)
        cls.def(py::init([](const py::object& capacity) {
                    return std::make_unique<G>(ToU64(capacity, "capacity"));
                }),
                py::arg("capacity"));
    cls.def(
            "allocate",
            [](G& g, const py::object& size, const py::object& alignment) {
                A& a = g.Get();
                return OffsetOrNone(a.Allocate(ToU64(size, "size"), ToU64(alignment, "alignment")));
            },
            py::arg("size"), py::arg("alignment") = 1, kAllocateDoc)
        .def(
            "free", [](G& g, const py::object& offset) { g.Get().Free(ToU64(offset, "offset")); },
            py::arg("offset"), kFreeDoc)
        .def(
            "reset", [](G& g) { g.Get().Reset(); },
            "reset() -> None\n\nForgets every allocation (and deferred free): the whole capacity is free again.")
        .def(
            "stats", [](G& g) { return StatsDict(g.Get().GetStats()); }, kStatsDoc)
        .def(
            "validate", [](G& g) { g.Get().Validate(); },
            "validate() -> None\n\nChecks every internal invariant; raises Dx12Error naming the "
            "first broken one.")
        .def_property_readonly(
            "capacity", [](G& g) { return g.impl.Capacity(); }, "Number of units managed.")
        .def_property_readonly_static(
            "MAX_CAPACITY", [](const py::object&) { return A::kMaxCapacity; },
            "Largest capacity this allocator accepts.")
        .def("__repr__", [name](G& g) { return Repr(name, g.impl); });
    return cls;
}

template <class A>
void BindDeferred(py::class_<Guarded<A>>& cls) {
    using G = Guarded<A>;
    cls.def(
           "free_deferred",
           [](G& g, const py::object& offset, const py::object& fence) {
               A& a = g.Get();
               a.FreeDeferred(ToU64(offset, "offset"), ToU64(fence, "fence_value"));
           },
           py::arg("offset"), py::arg("fence_value"), kFreeDeferredDoc)
        .def(
            "release_stale",
            [](G& g, const py::object& completed) {
                A& a = g.Get();
                a.ReleaseStale(ToU64(completed, "completed_value"));
            },
            py::arg("completed_value"), kReleaseDoc)
        .def(
            "free_blocks_list", [](G& g) { return BlockList(g.Get(), 0, false); },
            "free_blocks_list() -> list[tuple[int, int]]\n\n(offset, size) of every free block "
            "in address order. O(capacity or blocks); for tests.")
        .def(
            "allocations_list", [](G& g) { return BlockList(g.Get(), 1, false); },
            "allocations_list() -> list[tuple[int, int]]\n\n(offset, size) of every live "
            "allocation (deferred frees excluded) in address order.")
        .def(
            "pending_list", [](G& g) { return BlockList(g.Get(), 2, false); },
            "pending_list() -> list[tuple[int, int]]\n\n(offset, size) of every range waiting "
            "for release_stale(), in address order.")
        .def(
            "blocks", [](G& g) { return BlockList(g.Get(), -1, true); },
            "blocks() -> list[tuple[int, int, int]]\n\n(offset, size, state) of every block in "
            "address order; state 0 = free, 1 = allocated, 2 = deferred free pending.");
}

// ---- replay ------------------------------------------------------------------------------------

using Ops = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

template <class A>
bool TryReplay(const py::object& obj, const Ops& ops, uint64_t alignment, bool recordOffsets,
               py::dict& result) {
    if (!py::isinstance<Guarded<A>>(obj)) return false;
    Guarded<A>& g = obj.cast<Guarded<A>&>();
    A& a = g.Get();
    const size_t n = static_cast<size_t>(ops.shape(0));
    // A private copy of the trace, taken with the GIL held: `ops` may be the caller's own array
    // (forcecast copies only when converting), and another Python thread could change it while
    // the GIL is released below, between validation and replay.
    const std::vector<int64_t> trace(ops.data(), ops.data() + n * 3);
    const int64_t* rows = trace.data();
    if (!alloc::detail::IsPowerOfTwo(alignment))
        throw InvalidArgument("replay: alignment " + std::to_string(alignment) +
                              " is not a power of two");
    py::array_t<int64_t> offsets;
    int64_t* offsetsData = nullptr;
    if (recordOffsets) {
        offsets = py::array_t<int64_t>(static_cast<py::ssize_t>(n));
        offsetsData = offsets.mutable_data();
    }
    alloc::ReplayResult r;
    {
        struct BusyScope {  // cleared after the GIL is back (destroyed after `nogil`)
            bool& flag;
            explicit BusyScope(bool& f) : flag(f) { flag = true; }
            ~BusyScope() { flag = false; }
        } busy(g.busy);
        // Safe without the GIL: the loop touches only the allocator (guarded by `busy`), our copy
        // of the trace and the offsets buffer we own.
        py::gil_scoped_release nogil;
        size_t slots = alloc::ValidateTrace(rows, n, a.Capacity(), A::kSupportsDeferred);
        r = alloc::Replay(a, rows, n, slots, alignment, offsetsData);
    }
    result["ns"] = r.ns;
    result["failed"] = r.failed;
    result["stats"] = StatsDict(a.GetStats());
    if (recordOffsets) result["offsets"] = offsets;
    return true;
}

py::dict ReplayPy(const py::object& allocator, const Ops& ops, const py::object& alignmentObj,
                  bool recordOffsets) {
    if (ops.ndim() != 2 || ops.shape(1) != 3)
        throw InvalidArgument("replay: ops must have shape (N, 3), rows [kind, slot, size]");
    uint64_t alignment = ToU64(alignmentObj, "alignment");
    py::dict result;
    if (TryReplay<alloc::FreeListAllocator>(allocator, ops, alignment, recordOffsets, result) ||
        TryReplay<alloc::TlsfAllocator>(allocator, ops, alignment, recordOffsets, result) ||
        TryReplay<alloc::LinearAllocator>(allocator, ops, alignment, recordOffsets, result) ||
        TryReplay<bench::BaselineBimap>(allocator, ops, alignment, recordOffsets, result))
        return result;
    throw py::type_error("replay: allocator must be a FreeList, Tlsf, Linear or BaselineBimap");
}

py::array_t<int64_t> BuildRandomTracePy(
    const py::array_t<double, py::array::c_style | py::array::forcecast>& uAlloc,
    const py::array_t<double, py::array::c_style | py::array::forcecast>& uPick,
    const py::array_t<int64_t, py::array::c_style | py::array::forcecast>& sizes,
    uint64_t maxLive, double pAlloc) {
    const py::ssize_t n = uAlloc.size();
    if (uAlloc.ndim() != 1 || uPick.ndim() != 1 || sizes.ndim() != 1 || uPick.size() != n ||
        sizes.size() != n)
        throw InvalidArgument("_build_random_trace: three 1-D arrays of equal length expected");
    py::array_t<int64_t> out({n, py::ssize_t(3)});
    int64_t* outData = out.mutable_data();
    {
        py::gil_scoped_release nogil;
        alloc::BuildRandomTrace(uAlloc.data(), uPick.data(), sizes.data(), static_cast<size_t>(n),
                                maxLive, pAlloc, outData);
    }
    return out;
}

}  // namespace

void BindAlloc(py::module_& m) {
    py::module_ a = m.def_submodule("alloc", "Device-free range allocators (see dx12kit.alloc)");

    using GFreeList = Guarded<alloc::FreeListAllocator>;
    auto freeList = BindCommon<alloc::FreeListAllocator>(
        a, "FreeList",
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
                 if (!bitmapBins.is_none())
                     bins = static_cast<uint32_t>(std::min<uint64_t>(ToU64(bitmapBins, "bitmap_bins"), bins - 1));
                 return std::make_unique<GFreeList>(ToU64(capacity, "capacity"), bins);
             }),
             py::arg("capacity"), py::kw_only(), py::arg("bitmap_bins") = py::none())
        .def_property_readonly(
            "bitmap_bins", [](GFreeList& g) { return g.impl.BitmapBins(); },
            "Sizes below this value are indexed by bitmaps (the others by heaps).");
    BindDeferred(freeList);

    auto tlsf = BindCommon<alloc::TlsfAllocator>(
        a, "Tlsf",
        "Tlsf(capacity)\n\nTwo-level segregated fit: O(1) allocate and free, capacity up to "
        "2**40, alignment without\nscans, fence-deferred frees. The allocator of the memory "
        "heaps.");
    BindDeferred(tlsf);

    auto baseline = BindCommon<bench::BaselineBimap>(
        a, "BaselineBimap",
        "BaselineBimap(capacity)\n\nThe textbook std::map + size-ordered set free list "
        "(benchmarks/baseline/): the reference\nplacements and the speed yardstick of FreeList. "
        "Not for production use.");
    BindDeferred(baseline);

    BindCommon<alloc::LinearAllocator>(
        a, "Linear",
        "Linear(capacity)\n\nBump allocator of the upload pages: O(1) aligned allocate, "
        "reset(); allocate() returns None\nwhen the page is full. free(offset) only undoes the "
        "most recent allocation.")
        .def_property_readonly(
            "head", [](Guarded<alloc::LinearAllocator>& g) { return g.Get().Head(); },
            "Offset where the next allocation with alignment 1 would start.")
        .def(
            "free_blocks_list",
            [](Guarded<alloc::LinearAllocator>& g) {
                const auto& l = g.Get();
                py::list out;
                if (l.Head() < l.Capacity()) out.append(py::make_tuple(l.Head(), l.Capacity() - l.Head()));
                return out;
            },
            "free_blocks_list() -> list[tuple[int, int]]\n\nThe free tail [head, capacity), if any.");

    a.def("replay", &ReplayPy, py::arg("allocator"), py::arg("ops"), py::arg("alignment") = 1,
          py::arg("record_offsets") = false,
          "replay(allocator, ops, alignment=1, record_offsets=False) -> dict\n\nSee "
          "dx12kit.alloc.replay.");
    a.def("_build_random_trace", &BuildRandomTracePy, py::arg("u_alloc"), py::arg("u_pick"),
          py::arg("sizes"), py::arg("max_live"), py::arg("p_alloc"),
          "Sequential part of benchmarks/traces.py's random traces (see Replay.hpp).");
}

}  // namespace dx12kit::bindings
