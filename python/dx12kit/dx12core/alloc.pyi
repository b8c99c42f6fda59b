"""
Device-free range allocators (see dx12kit.alloc)
"""
from __future__ import annotations
import numpy
import numpy.typing
import typing
class _Allocator:
    """
    What every allocator of dx12kit.alloc has (a stub-only base: FreeList, Tlsf, Linear).
    """
    def __init__(self, capacity: typing.Any) -> None:
        """
        An empty allocator.
        
        Args:
            capacity: units managed (at most MAX_CAPACITY).
        
        Raises:
            InvalidArgumentError: a capacity of 0 or above MAX_CAPACITY.
        """
    def __repr__(self) -> str:
        ...
    def allocate(self, size: typing.Any, alignment: typing.Any = 1) -> typing.Any:
        """
        allocate(size, alignment=1) -> int | None
        
        Allocates `size` units at a multiple of `alignment`.
        
        Args:
            size: units to allocate (> 0).
            alignment: a power of two.
        
        Returns:
            The offset, or None when the allocator has no room (an expected outcome, not an error).
        
        Raises:
            InvalidArgumentError: size 0, size larger than the capacity, alignment not a power of two
                (the allocator is unchanged).
        """
    def free(self, offset: typing.Any) -> None:
        """
        free(offset) -> None
        
        Returns the allocation starting at `offset`.
        
        Args:
            offset: the offset allocate() returned.
        
        Raises:
            InvalidArgumentError: `offset` is not the start of a live allocation (never allocated,
                already freed, or passed to free_deferred); the allocator is unchanged.
        """
    def reset(self) -> None:
        """
        reset() -> None
        
        Forgets every allocation (and deferred free): the whole capacity is free again.
        """
    def stats(self) -> dict[str, typing.Any]:
        """
        stats() -> dict
        
        Keys: capacity, used, free, free_blocks, largest_free_block, allocations (deferred frees not
        yet released count as used and as allocations).
        """
    def validate(self) -> None:
        """
        validate() -> None
        
        Checks every internal invariant; raises Dx12Error naming the first broken one.
        """
    @property
    def capacity(self) -> int:
        """
        Number of units managed.
        """
class _DeferredAllocator(_Allocator):
    """
    Fence-deferred frees and block lists (a stub-only base: FreeList, Tlsf).
    """
    def allocations_list(self) -> list[typing.Any]:
        """
        allocations_list() -> list[tuple[int, int]]
        
        (offset, size) of every live allocation (deferred frees excluded) in address order.
        """
    def blocks(self) -> list[typing.Any]:
        """
        blocks() -> list[tuple[int, int, int]]
        
        (offset, size, state) of every block in address order; state 0 = free, 1 = allocated, 2 = deferred free pending.
        """
    def free_blocks_list(self) -> list[typing.Any]:
        """
        free_blocks_list() -> list[tuple[int, int]]
        
        (offset, size) of every free block in address order. O(capacity or blocks); for tests.
        """
    def free_deferred(self, offset: typing.Any, fence_value: typing.Any) -> None:
        """
        free_deferred(offset, fence_value) -> None
        
        Frees the allocation at `offset` once the fence reaches `fence_value`: until
        release_stale(v) with v >= fence_value the range is neither reusable nor freeable, and stays
        counted in stats()["used"] and ["allocations"].
        
        Args:
            offset: the offset allocate() returned.
            fence_value: the fence value after which the range may be reused.
        
        Raises:
            InvalidArgumentError: as free().
        """
    def pending_list(self) -> list[typing.Any]:
        """
        pending_list() -> list[tuple[int, int]]
        
        (offset, size) of every range waiting for release_stale(), in address order.
        """
    def release_stale(self, completed_value: typing.Any) -> None:
        """
        release_stale(completed_value) -> None
        
        Frees every deferred range whose fence value is <= `completed_value`.
        
        Args:
            completed_value: the fence's completed value.
        """
class FreeList(_DeferredAllocator):
    """
    FreeList(capacity, *, bitmap_bins=None)
    
    Exact address-ordered best fit (smallest block that fits, lowest offset among equals), with
    alignment and fence-deferred frees. The allocator of the descriptor pages. capacity <= 2**32 - 1;
    about 3 bits of bookkeeping per unit.
    
    bitmap_bins: sizes below it are indexed by bitmaps, larger ones by heaps; None picks it from the
    capacity. Placements never depend on it (tests set it to exercise both).
    """
    MAX_CAPACITY: typing.ClassVar[int] = 4294967295
    def __init__(self, capacity: typing.Any, *, bitmap_bins: typing.Any = None) -> None:
        """
        An empty allocator.
        
        Args:
            capacity: units managed (at most MAX_CAPACITY).
            bitmap_bins: sizes below it are indexed by bitmaps; None picks it from the capacity.
        
        Raises:
            InvalidArgumentError: a capacity of 0 or above MAX_CAPACITY.
        """
    @property
    def bitmap_bins(self) -> int:
        """
        Sizes below this value are indexed by bitmaps (the others by heaps).
        """
class Tlsf(_DeferredAllocator):
    """
    Tlsf(capacity)
    
    Two-level segregated fit: O(1) allocate and free, capacity up to 2**40, alignment without
    scans, fence-deferred frees. The allocator of the memory heaps.
    """
    MAX_CAPACITY: typing.ClassVar[int] = 1099511627776
class Linear(_Allocator):
    """
    Linear(capacity)
    
    Bump allocator of the upload pages: O(1) aligned allocate, reset(); allocate() returns None
    when the page is full. free(offset) only undoes the most recent allocation.
    """
    MAX_CAPACITY: typing.ClassVar[int] = 4611686018427387904
    def free_blocks_list(self) -> list[typing.Any]:
        """
        free_blocks_list() -> list[tuple[int, int]]
        
        The free tail [head, capacity), if any.
        """
    @property
    def head(self) -> int:
        """
        Offset where the next allocation with alignment 1 would start.
        """
def replay(allocator: typing.Any, ops: typing.Annotated[numpy.typing.ArrayLike, numpy.int64], alignment: typing.Any = 1, record_offsets: bool = False) -> dict[str, typing.Any]:
    """
    replay(allocator, ops, alignment=1, record_offsets=False) -> dict
    
    See dx12kit.alloc.replay.
    """
