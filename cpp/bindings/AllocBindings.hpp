// Helpers shared by the allocator bindings: dx12core.alloc (BindAlloc.cpp) and the benchmark
// module's BaselineBimap (bench/BenchAlloc.cpp, dx12kit_bench). Header-only templates: each module
// instantiates what it binds.
//
// Each allocator is bound inside a Guarded<> holder that adds a `busy` flag: replay() releases
// the GIL while it runs the trace, and every other method of that allocator raises instead of
// racing with it. The flag is only read and written with the GIL held, so it needs no atomics.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "docs/AllocDocs.hpp"
#include "Args.hpp"

#include "dx12kit/alloc/AllocatorCommon.hpp"
#include "dx12kit/alloc/Replay.hpp"
#include "dx12kit/base/Errors.hpp"

namespace dx12kit::bindings::allocpy {

namespace py = pybind11;

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

// Python int (or anything with __index__, e.g. numpy integers) -> uint64: the one integer
// conversion (Args.hpp), TypeError for another type, InvalidArgumentError for a value out of range.
inline uint64_t ToU64(const py::handle& value, const char* name) {
    return U64(value, "allocator", name);
}

inline py::dict StatsDict(const AllocatorStats& s) {
    py::dict d;
    d["capacity"] = s.capacity;
    d["used"] = s.used;
    d["free"] = s.free;
    d["free_blocks"] = s.freeBlocks;
    d["largest_free_block"] = s.largestFreeBlock;
    d["allocations"] = s.allocations;
    return d;
}

inline py::object OffsetOrNone(uint64_t offset) {
    return offset == kInvalidOffset ? py::object(py::none()) : py::object(py::int_(offset));
}

// Lists of (offset, size) taken from CalculateBlocks(): state 0 = free, 1 = live, 2 = pending.
template <class A>
py::list BlockList(A& a, int wantState, bool withState) {
    py::list out;
    for (const auto& b : a.CalculateBlocks()) {
        if (wantState >= 0 && static_cast<int>(b.state) != wantState) continue;
        if (withState) out.append(py::make_tuple(b.offset, b.size, b.state));
        else out.append(py::make_tuple(b.offset, b.size));
    }
    return out;
}

template <class A>
std::string Repr(const char* name, A& a) {
    AllocatorStats s = a.GetStats();
    return std::string("<dx12kit.alloc.") + name + " capacity=" + std::to_string(s.capacity) + " used=" + std::to_string(s.used) +
           " allocations=" + std::to_string(s.allocations) + " free_blocks=" + std::to_string(s.freeBlocks) + ">";
}

constexpr const char* kAllocateDoc = R"(allocate(size, alignment=1) -> int | None

Allocates `size` units at a multiple of `alignment`.

Args:
    size: units to allocate (> 0).
    alignment: a power of two.

Returns:
    The offset, or None when the allocator has no room (an expected outcome, not an error).

Raises:
    InvalidArgumentError: size 0, size larger than the capacity, alignment not a power of two
        (the allocator is unchanged).)";

constexpr const char* kFreeDoc = R"(free(offset) -> None

Returns the allocation starting at `offset`.

Args:
    offset: the offset allocate() returned.

Raises:
    InvalidArgumentError: `offset` is not the start of a live allocation (never allocated,
        already freed, or passed to free_deferred); the allocator is unchanged.)";

constexpr const char* kFreeDeferredDoc = R"(free_deferred(offset, fence_value) -> None

Frees the allocation at `offset` once the fence reaches `fence_value`: until
release_stale(v) with v >= fence_value the range is neither reusable nor freeable, and stays
counted in stats()["used"] and ["allocations"].

Args:
    offset: the offset allocate() returned.
    fence_value: the fence value after which the range may be reused.

Raises:
    InvalidArgumentError: as free().)";

constexpr const char* kReleaseDoc = R"(release_stale(completed_value) -> None

Frees every deferred range whose fence value is <= `completed_value`.

Args:
    completed_value: the fence's completed value.)";

constexpr const char* kStatsDoc = R"(stats() -> dict

Keys: capacity, used, free, free_blocks, largest_free_block, allocations (deferred frees not
yet released count as used and as allocations).)";

constexpr const char* kInitDoc = R"(An empty allocator.

Args:
    capacity: units managed (at most MAX_CAPACITY).

Raises:
    InvalidArgumentError: a capacity of 0 or above MAX_CAPACITY.)";

template <class A>
py::class_<Guarded<A>> BindCommon(py::module_& m, const char* name, const char* doc, bool plainInit = true) {
    using G = Guarded<A>;
    py::class_<G> cls(m, name, doc);
    if (plainInit)
        cls.def(py::init([](const py::object& capacity) { return std::make_unique<G>(ToU64(capacity, "capacity")); }), py::arg("capacity"), kInitDoc);
    cls.def(
           "allocate",
           [](G& g, const py::object& size, const py::object& alignment) {
               A& a = g.Get();
               return OffsetOrNone(a.Allocate(ToU64(size, "size"), ToU64(alignment, "alignment")));
           },
           py::arg("size"), py::arg("alignment") = 1, kAllocateDoc)
        .def(
            "free", [](G& g, const py::object& offset) { g.Get().Free(ToU64(offset, "offset")); }, py::arg("offset"), kFreeDoc)
        .def(
            "reset", [](G& g) { g.Get().Reset(); }, docs::Allocator::reset)
        .def(
            "stats", [](G& g) { return StatsDict(g.Get().GetStats()); }, kStatsDoc)
        .def(
            "validate", [](G& g) { g.Get().Validate(); }, docs::Allocator::validate)
        .def_property_readonly(
            "capacity", [](G& g) { return g.impl.Capacity(); }, docs::Allocator::capacity)
        .def_property_readonly_static(
            "MAX_CAPACITY", [](const py::object&) { return A::kMaxCapacity; }, docs::Allocator::MAX_CAPACITY)
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
            "free_blocks_list", [](G& g) { return BlockList(g.Get(), 0, false); }, docs::Allocator::free_blocks_list)
        .def(
            "allocations_list", [](G& g) { return BlockList(g.Get(), 1, false); }, docs::Allocator::allocations_list)
        .def(
            "pending_list", [](G& g) { return BlockList(g.Get(), 2, false); }, docs::Allocator::pending_list)
        .def(
            "blocks", [](G& g) { return BlockList(g.Get(), -1, true); }, docs::Allocator::blocks);
}

// ---- replay ------------------------------------------------------------------------------------

using Ops = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

template <class A>
bool TryReplay(const py::object& obj, const Ops& ops, uint64_t alignment, bool recordOffsets, py::dict& result) {
    if (!py::isinstance<Guarded<A>>(obj)) return false;
    Guarded<A>& g = obj.cast<Guarded<A>&>();
    A& a = g.Get();
    const size_t n = static_cast<size_t>(ops.shape(0));
    // A private copy of the trace, taken with the GIL held: `ops` may be the caller's own array
    // (forcecast copies only when converting), and another Python thread could change it while
    // the GIL is released below, between validation and replay.
    const std::vector<int64_t> trace(ops.data(), ops.data() + n * 3);
    const int64_t* rows = trace.data();
    if (!alloc::detail::IsPowerOfTwo(alignment)) throw InvalidArgument("replay: alignment " + std::to_string(alignment) + " is not a power of two");
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

}  // namespace dx12kit::bindings::allocpy
