"""Device-free range allocators: the algorithms under descriptor heaps, upload pages and memory heaps.

Every allocator hands out ranges ``[offset, offset + size)`` of an abstract space of
``capacity`` units and never touches memory itself, so it works (and is tested) without a GPU:

- :class:`FreeList` -- exact address-ordered best fit (the smallest free block that fits, the
  lowest offset among equally small ones), alignment, fence-deferred frees. The allocator of the
  descriptor pages. Capacity up to ``2**32 - 1``.
- :class:`Tlsf` -- two-level segregated fit: O(1) allocate and free for memory heaps of up to
  ``2**40`` units; alignment never causes a scan.
- :class:`Linear` -- the bump allocator of the upload pages: O(1) aligned allocation,
  :meth:`Linear.reset`, ``None`` when the page is full.

The textbook ``std::map`` + size-ordered ``std::set`` free list that serves as the reference for
FreeList's placements and as the benchmarks' yardstick is not part of dx12kit: it lives in the
benchmark module ``dx12kit_bench`` (``BaselineBimap``; cpp/bench/, built in a source checkout only),
which :func:`replay` also accepts.

Common methods (see each class's docstrings):

``allocate(size, alignment=1) -> int | None``
    The offset, or ``None`` when there is no room. Raises :class:`~dx12kit.InvalidArgumentError`
    for size 0, a size larger than the capacity, or an alignment that is not a power of two.
``free(offset)``
    Raises :class:`~dx12kit.InvalidArgumentError` for an offset that is not a live allocation
    (never allocated, double free). Linear only undoes its most recent allocation.
``free_deferred(offset, fence_value)``, ``release_stale(completed_value)``
    (FreeList, Tlsf) the range stays unusable until the fence completes.
``reset()``, ``stats() -> dict``, ``validate()``, ``capacity``
    ``stats()`` keys: capacity, used, free, free_blocks, largest_free_block, allocations.
``free_blocks_list()``, ``allocations_list()``, ``pending_list()``, ``blocks()``
    Listings for tests and debugging.

Bad input never changes an allocator: the exception is raised before any state changes.
None of the allocators is thread-safe; while :func:`replay` runs (without the GIL) on one
allocator, every other call on that allocator raises :class:`~dx12kit.Dx12Error`.

Example::

    >>> from dx12kit import alloc
    >>> heap = alloc.FreeList(1024)
    >>> a = heap.allocate(16)
    >>> b = heap.allocate(100, alignment=64)
    >>> heap.free(a)
    >>> heap.stats()["allocations"]
    1
"""
from __future__ import annotations

from typing import Any, Dict, Union

import numpy as np

from . import dx12core as _core

__all__ = ["FreeList", "Tlsf", "Linear", "Allocator", "replay", "KIND_ALLOCATE",
           "KIND_FREE", "KIND_FREE_DEFERRED", "KIND_RELEASE_STALE", "KIND_RESET"]

_alloc = _core.alloc

FreeList = _alloc.FreeList
Tlsf = _alloc.Tlsf
Linear = _alloc.Linear

Allocator = Union[FreeList, Tlsf, Linear]

#: Row kinds of a replay trace.
KIND_ALLOCATE = 0
KIND_FREE = 1
KIND_FREE_DEFERRED = 2
KIND_RELEASE_STALE = 3
KIND_RESET = 4


def replay(
    allocator: Allocator,
    ops: Any,
    *,
    alignment: int = 1,
    record_offsets: bool = False,
) -> Dict[str, Any]:
    """Run a whole allocation trace in C++, without Python per operation.

    Args:
        allocator: a :class:`FreeList`, :class:`Tlsf` or :class:`Linear` (or an allocator
            class that brings its own replay loop as a ``_replay`` static method, such as the
            benchmarks' ``dx12kit_bench.BaselineBimap``); it is modified by the trace.
        ops: integer array of shape (N, 3) (converted to C-contiguous int64), one row
            ``[kind, slot, size]`` per operation:

            - 0: allocate ``size`` (at ``alignment``) into ``slot``; slot -1 discards the offset;
            - 1: free the allocation held by ``slot``;
            - 2: deferred free of ``slot`` with fence value ``size``;
            - 3: release stale frees up to fence value ``size``;
            - 4: reset the allocator (all slots become empty).

            Freeing a slot whose allocation failed (or that is empty) does nothing.
        alignment: alignment of every allocation of the trace (a power of two).
        record_offsets: also return ``offsets``.

    Returns:
        A dict: ``"ns"`` (elapsed nanoseconds of the replay loop), ``"failed"`` (failed
        allocations), ``"stats"`` (allocator.stats() after the trace), plus ``"offsets"`` (int64 array of N:
        the offset of each allocation row, -1 where it failed, -2 on other rows) when
        ``record_offsets`` is true.

    Raises:
        InvalidArgumentError: a malformed trace (bad shape, unknown kind, slot out of range,
            size outside 1..capacity, an allocation into a slot that still holds one, kinds 2
            and 3 on Linear); detected before any operation runs, so the allocator is unchanged.
        TypeError: ``ops`` is not an integer array, or ``allocator`` is not an allocator.

    The GIL is released while the trace runs, so other Python threads keep running.

    See also: ``benchmarks/traces.py`` for the standard traces.
    """
    arr = np.asarray(ops)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"replay: ops must be an integer array, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != 3:
        from .errors import InvalidArgumentError

        raise InvalidArgumentError(
            f"replay: ops must have shape (N, 3), rows [kind, slot, size]; got {arr.shape}"
        )
    arr = np.ascontiguousarray(arr, dtype=np.int64)
    native = getattr(type(allocator), "_replay", None) or _alloc.replay
    return native(allocator, arr, alignment, record_offsets)  # type: ignore[no-any-return]
