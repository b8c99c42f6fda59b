// The Python docstrings of Alloc (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace Allocator {
inline constexpr const char reset[] = "reset() -> None\n\nForgets every allocation (and deferred free): the whole capacity is free again.";
inline constexpr const char validate[] =
    "validate() -> None\n\nChecks every internal invariant; raises Dx12Error naming the "
    "first broken one.";
inline constexpr const char capacity[] = "Number of units managed.";
inline constexpr const char MAX_CAPACITY[] = "Largest capacity this allocator accepts.";
inline constexpr const char free_blocks_list[] =
    "free_blocks_list() -> list[tuple[int, int]]\n\n(offset, size) of every free block "
    "in address order. O(capacity or blocks); for tests.";
inline constexpr const char allocations_list[] =
    "allocations_list() -> list[tuple[int, int]]\n\n(offset, size) of every live "
    "allocation (deferred frees excluded) in address order.";
inline constexpr const char pending_list[] =
    "pending_list() -> list[tuple[int, int]]\n\n(offset, size) of every range waiting "
    "for release_stale(), in address order.";
inline constexpr const char blocks[] =
    "blocks() -> list[tuple[int, int, int]]\n\n(offset, size, state) of every block in "
    "address order; state 0 = free, 1 = allocated, 2 = deferred free pending.";
}  // namespace Allocator

namespace alloc {
inline constexpr const char module_[] = "Device-free range allocators (see dx12kit.alloc)";
inline constexpr const char replay[] =
    "replay(allocator, ops, alignment=1, record_offsets=False) -> dict\n\nSee "
    "dx12kit.alloc.replay.";
}  // namespace alloc

namespace FreeList {
inline constexpr const char init[] =
    "An empty allocator.\n\nArgs:\n    capacity: units managed (at most MAX_CAPACITY).\n"
    "    bitmap_bins: sizes below it are indexed by bitmaps; None picks it from the capacity.\n\n"
    "Raises:\n    InvalidArgumentError: a capacity of 0 or above MAX_CAPACITY.";
inline constexpr const char bitmap_bins[] = "Sizes below this value are indexed by bitmaps (the others by heaps).";
}  // namespace FreeList

namespace Linear {
inline constexpr const char head[] = "Offset where the next allocation with alignment 1 would start.";
inline constexpr const char free_blocks_list[] = "free_blocks_list() -> list[tuple[int, int]]\n\nThe free tail [head, capacity), if any.";
}  // namespace Linear

}  // namespace dx12kit::bindings::docs
