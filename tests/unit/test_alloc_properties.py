"""Property tests: random operation sequences against plain-Python models.

FreeList and BaselineBimap must place every allocation exactly where the address-ordered best
fit model does. Tlsf and Linear are checked against the invariants every allocator owes:
no overlap, inside the capacity, aligned, fully coalesced free blocks, deferred ranges not
reused before their fence, and everything freed leaves one block.
"""
from __future__ import annotations

from typing import Dict, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dx12kit import alloc

try:
    import dx12kit_bench  # the benchmark module: in the build tree only (tests/conftest.py finds it)
except ImportError:  # a product-only install (scripts/test-wheel.sh): the cases that need it skip
    dx12kit_bench = None
needs_bench = pytest.mark.skipif(dx12kit_bench is None, reason="needs the benchmark module dx12kit_bench (not in a product-only install)")

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# One operation: (kind, a, b). Kinds: allocate(size=a, alignment=2**b), free(live[a % n]),
# free_deferred(live[a % n], fence=now + b), release_stale(now), bump the fence clock, reset.
OP = st.one_of(
    st.tuples(st.just("alloc"), st.integers(1, 40), st.sampled_from([0, 0, 0, 0, 1, 2, 3, 5, 8])),
    st.tuples(st.just("free"), st.integers(0, 1000), st.just(0)),
    st.tuples(st.just("defer"), st.integers(0, 1000), st.integers(0, 3)),
    st.tuples(st.just("release"), st.just(0), st.just(0)),
    st.tuples(st.just("tick"), st.just(0), st.just(0)),
    st.tuples(st.just("reset"), st.just(0), st.just(0)),
)
OPS = st.lists(OP, max_size=120)
CAPACITY = st.one_of(st.integers(1, 64), st.integers(65, 600), st.just(5000))


def check_common(m, a, capacity: int, live: Dict[int, int], pending: Dict[int, Tuple[int, int]]):
    """Invariants every allocator owes, given the ranges the test believes are taken."""
    taken = dict(live)
    taken.update({o: s for o, (s, _) in pending.items()})
    end = 0
    for offset, size in sorted(taken.items()):
        assert offset >= end, "two live ranges overlap"
        end = offset + size
    assert end <= capacity, "a range lies outside the capacity"
    free = m.coalesced_free_runs(capacity, taken)
    # Equal to the maximal runs: every free block is coalesced with its free neighbours.
    assert a.free_blocks_list() == free
    s = a.stats()
    used = sum(taken.values())
    assert s["used"] == used and s["free"] == capacity - used
    assert s["allocations"] == len(taken)
    assert s["free_blocks"] == len(free)
    assert s["largest_free_block"] == max((sz for _, sz in free), default=0)
    a.validate()


def run_sequence(m, a, capacity, ops, model=None, tlsf=False):
    live: Dict[int, int] = {}
    pending: Dict[int, Tuple[int, int]] = {}
    order = []  # live offsets in allocation order, to pick from
    fence = 0
    for kind, x, y in ops:
        if kind == "alloc":
            size, alignment = min(x, capacity), 1 << y
            offset = a.allocate(size, alignment)
            if model is not None:
                assert offset == model.allocate(size, alignment), "placement differs from best fit"
            if offset is None:
                if tlsf:
                    # TLSF is a good fit, not a best fit, but it must find any block that holds
                    # the request with room to spare (rounded to its size classes).
                    largest = a.stats()["largest_free_block"]
                    assert largest < (size + alignment - 1) * 33 // 32 + 64
            else:
                assert offset % alignment == 0
                assert 0 <= offset and offset + size <= capacity
                for o, s in list(live.items()) + [(o, s) for o, (s, _) in pending.items()]:
                    assert offset + size <= o or o + s <= offset, "overlaps a live or deferred range"
                live[offset] = size
                order.append(offset)
        elif kind in ("free", "defer") and order:
            offset = order.pop(x % len(order))
            if kind == "free":
                a.free(offset)
                del live[offset]
                if model is not None:
                    model.free(offset)
            else:
                a.free_deferred(offset, fence + y)
                pending[offset] = (live.pop(offset), fence + y)
                if model is not None:
                    model.free_deferred(offset, fence + y)
        elif kind == "release":
            a.release_stale(fence)
            for o in [o for o, (_, f) in pending.items() if f <= fence]:
                del pending[o]
            if model is not None:
                model.release_stale(fence)
        elif kind == "tick":
            fence += 1
        elif kind == "reset":
            a.reset()
            live.clear()
            pending.clear()
            order.clear()
            if model is not None:
                model.reset()
        check_common(m, a, capacity, live, pending)
        if model is not None:
            assert a.stats() == model.stats()
    # Freeing everything leaves one block.
    for offset in list(live):
        a.free(offset)
    a.release_stale(fence + 10)
    assert a.free_blocks_list() == [(0, capacity)]
    assert a.stats()["allocations"] == 0
    a.validate()


BEST_FIT = {
    "FreeList": alloc.FreeList,
    # the two kinds of size bin, each alone: placements must not depend on them
    "FreeList-heaps": lambda capacity: alloc.FreeList(capacity, bitmap_bins=0),
    "FreeList-bitmaps": lambda capacity: alloc.FreeList(capacity, bitmap_bins=1 << 20),
}
if dx12kit_bench is not None:  # (absent from a product-only install)
    BEST_FIT["BaselineBimap"] = dx12kit_bench.BaselineBimap


@pytest.mark.parametrize("make", BEST_FIT.values(), ids=BEST_FIT.keys())
@SETTINGS
@given(capacity=CAPACITY, ops=OPS)
def test_best_fit_matches_model(models, make, capacity, ops):
    run_sequence(models, make(capacity), capacity, ops, model=models.BestFitModel(capacity))


@SETTINGS
@given(capacity=st.one_of(CAPACITY, st.integers(2**20, 2**40)), ops=OPS)
def test_tlsf_invariants(models, capacity, ops):
    run_sequence(models, alloc.Tlsf(capacity), capacity, ops, tlsf=True)


@SETTINGS
@given(capacity=CAPACITY,
       ops=st.lists(st.tuples(st.sampled_from(["alloc", "alloc", "alloc", "undo", "reset"]),
                              st.integers(1, 40), st.sampled_from([0, 0, 1, 2, 4, 8])),
                    max_size=120))
def test_linear_matches_model(models, capacity, ops):
    a = alloc.Linear(capacity)
    head, last = 0, None  # last = (offset, head before it)
    count = 0
    for kind, x, y in ops:
        if kind == "alloc":
            size, alignment = min(x, capacity), 1 << y
            offset = a.allocate(size, alignment)
            expected = models.align_up(head, alignment)
            if expected + size > capacity:
                assert offset is None
            else:
                assert offset == expected
                last = (offset, head)
                head = offset + size
                count += 1
        elif kind == "undo":
            if last is None:
                with pytest.raises(ValueError):
                    a.free(head)
            else:
                a.free(last[0])
                head = last[1]
                last = None
                count -= 1
        else:
            a.reset()
            head, last, count = 0, None, 0
        s = a.stats()
        assert s["used"] == head and s["allocations"] == count
        assert s["largest_free_block"] == capacity - head
        a.validate()


@SETTINGS
@given(capacity=st.integers(1, 300),
       sizes=st.lists(st.integers(1, 300), min_size=1, max_size=60),
       data=st.data())
def test_freeing_everything_in_any_order_leaves_one_block(capacity, sizes, data):
    for cls in (alloc.FreeList, alloc.Tlsf) + ((dx12kit_bench.BaselineBimap,) if dx12kit_bench else ()):
        a = cls(capacity)
        offsets = [o for o in (a.allocate(min(s, capacity)) for s in sizes) if o is not None]
        for o in data.draw(st.permutations(offsets)):
            a.free(o)
            a.validate()
        assert a.free_blocks_list() == [(0, capacity)]
