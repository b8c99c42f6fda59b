"""dx12kit.alloc: direct behaviour and bad input of every allocator."""
from __future__ import annotations

import pytest

import dx12kit
from dx12kit import alloc

try:
    import dx12kit_bench  # the benchmark module: in the build tree only (tests/conftest.py finds it)
except ImportError:  # a product-only install (scripts/test-wheel.sh): the cases that need it skip
    dx12kit_bench = None
needs_bench = pytest.mark.skipif(dx12kit_bench is None, reason="needs the benchmark module dx12kit_bench (not in a product-only install)")
BASELINE = pytest.param(getattr(dx12kit_bench, "BaselineBimap", None), id="BaselineBimap", marks=needs_bench)
FREE_LISTS = [alloc.FreeList, alloc.Tlsf, BASELINE]
ALL = FREE_LISTS + [alloc.Linear]
STATS_KEYS = {"capacity", "used", "free", "free_blocks", "largest_free_block", "allocations"}


def snapshot(a):
    snap = {"stats": a.stats()}
    if hasattr(a, "blocks"):
        snap["blocks"] = a.blocks()
    else:
        snap["free_blocks"] = a.free_blocks_list()
    return snap


# ---- construction and stats ---------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL)
def test_fresh_allocator_is_one_free_block(cls):
    a = cls(1000)
    assert a.capacity == 1000
    s = a.stats()
    assert set(s) == STATS_KEYS
    assert s == {"capacity": 1000, "used": 0, "free": 1000, "free_blocks": 1,
                 "largest_free_block": 1000, "allocations": 0}
    assert a.free_blocks_list() == [(0, 1000)]
    a.validate()
    assert "capacity=1000" in repr(a)


@pytest.mark.parametrize("cls", ALL)
@pytest.mark.parametrize("capacity", [0, -1])
def test_bad_capacity(cls, capacity):
    with pytest.raises(dx12kit.InvalidArgumentError):
        cls(capacity)


@pytest.mark.parametrize("cls", [alloc.FreeList, alloc.Tlsf, alloc.Linear])
def test_capacity_above_maximum(cls):
    with pytest.raises(dx12kit.InvalidArgumentError):
        cls(cls.MAX_CAPACITY + 1)


def test_max_capacities():
    assert alloc.FreeList.MAX_CAPACITY == 2**32 - 1
    assert alloc.Tlsf.MAX_CAPACITY == 2**40


@pytest.mark.parametrize("cls", ALL)
def test_fill_exactly_then_fail(cls):
    a = cls(64)
    offsets = [a.allocate(16) for _ in range(4)]
    assert sorted(offsets) == [0, 16, 32, 48]
    assert a.allocate(1) is None
    s = a.stats()
    assert s["used"] == 64 and s["free"] == 0 and s["free_blocks"] == 0
    assert s["largest_free_block"] == 0 and s["allocations"] == 4
    a.validate()


@pytest.mark.parametrize("cls", ALL)
def test_alignment_is_honoured(cls):
    a = cls(4096)
    a.allocate(3)
    for alignment in (1, 2, 4, 64, 256, 1024):
        offset = a.allocate(5, alignment)
        assert offset is not None and offset % alignment == 0
    a.validate()


@pytest.mark.parametrize("cls", ALL)
def test_alignment_larger_than_capacity_means_offset_zero(cls):
    a = cls(100)
    assert a.allocate(10, 1 << 40) == 0
    assert a.allocate(10, 1 << 40) is None
    a.validate()


@pytest.mark.parametrize("cls", ALL)
def test_numpy_integers_are_accepted(cls):
    np = pytest.importorskip("numpy")
    a = cls(np.int64(100))
    offset = a.allocate(np.uint32(10), alignment=np.int16(4))
    assert offset == 0
    a.free(np.int64(offset))


@pytest.mark.parametrize("cls", FREE_LISTS)
def test_free_coalesces_both_neighbours(cls):
    a = cls(30)
    x, y, z = a.allocate(10), a.allocate(10), a.allocate(10)
    a.free(x)
    a.free(z)
    assert a.stats()["free_blocks"] == 2
    a.free(y)
    assert a.free_blocks_list() == [(0, 30)]
    assert a.stats()["allocations"] == 0
    a.validate()


@pytest.mark.parametrize("cls", [alloc.FreeList, BASELINE])
def test_best_fit_prefers_smallest_then_lowest(cls):
    a = cls(100)
    offs = [a.allocate(s) for s in (5, 1, 3, 1, 5, 1, 3, 1)]
    assert offs == [0, 5, 6, 9, 10, 15, 16, 19]
    for o in (0, 6, 10, 16):  # holes: 5@0, 3@6, 5@10, 3@16; tail 80@20
        a.free(o)
    assert a.allocate(3) == 6      # exact fit, lowest of the two 3-holes
    assert a.allocate(4) == 0      # smallest that fits is a 5-hole, lowest first
    assert a.allocate(2) == 16     # the 3-hole; the 1-unit rest of the 5-hole is too small
    assert a.allocate(1) == 4      # the 1-unit rest at offset 4
    assert a.allocate(6) == 20     # nothing but the tail holds 6
    a.validate()


# ---- deferred frees -------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", FREE_LISTS)
def test_deferred_free_waits_for_its_fence(cls):
    a = cls(10)
    x = a.allocate(10)
    a.free_deferred(x, 5)
    assert a.allocate(1) is None
    assert a.stats()["allocations"] == 1 and a.stats()["used"] == 10
    assert a.pending_list() == [(0, 10)] and a.allocations_list() == []
    a.release_stale(4)
    assert a.allocate(1) is None
    a.release_stale(5)
    assert a.stats()["allocations"] == 0
    assert a.allocate(10) == 0
    a.validate()


@pytest.mark.parametrize("cls", FREE_LISTS)
def test_deferred_frees_release_in_any_fence_order(cls):
    a = cls(30)
    xs = [a.allocate(10) for _ in range(3)]
    for x, fence in zip(xs, (7, 3, 5)):
        a.free_deferred(x, fence)
    a.release_stale(5)
    assert a.pending_list() == [(xs[0], 10)]
    a.validate()
    a.release_stale(100)
    assert a.free_blocks_list() == [(0, 30)]
    a.validate()


@pytest.mark.parametrize("cls", ALL)
def test_reset_forgets_everything(cls):
    a = cls(100)
    for _ in range(5):
        a.allocate(7, 4)
    if hasattr(a, "free_deferred"):
        a.free_deferred(a.allocate(3), 9)
    a.reset()
    assert a.stats()["allocations"] == 0 and a.free_blocks_list() == [(0, 100)]
    a.validate()
    assert a.allocate(100) == 0


# ---- Linear -----------------------------------------------------------------------------------------


def test_linear_bumps_and_pads():
    a = alloc.Linear(1000)
    assert a.allocate(10) == 0
    assert a.allocate(10, 256) == 256
    assert a.head == 266
    assert a.stats() == {"capacity": 1000, "used": 266, "free": 734, "free_blocks": 1,
                         "largest_free_block": 734, "allocations": 2}
    assert a.allocate(735) is None          # page full: state unchanged
    assert a.head == 266
    assert a.allocate(734) == 266
    assert a.stats()["free_blocks"] == 0
    a.validate()


def test_linear_free_undoes_only_the_last_allocation():
    a = alloc.Linear(1000)
    x = a.allocate(10)
    y = a.allocate(10, 256)
    before = snapshot(a)
    with pytest.raises(dx12kit.InvalidArgumentError, match="most recent"):
        a.free(x)
    assert snapshot(a) == before
    a.free(y)
    assert a.head == 10 and a.stats()["allocations"] == 1   # padding undone too
    with pytest.raises(dx12kit.InvalidArgumentError):
        a.free(x)                                            # one level of undo only
    a.validate()
    assert a.allocate(1) == 10


def test_linear_has_no_deferred_frees():
    assert not hasattr(alloc.Linear(10), "free_deferred")


# ---- bad input: raises, state unchanged --------------------------------------------------------------


def _prepared(cls):
    a = cls(256)
    live = [a.allocate(8), a.allocate(8, 16), a.allocate(3)]
    if hasattr(a, "free_deferred"):
        a.free(live[1])
        a.free_deferred(live[2], 10)
    return a, live


BAD_ALLOCATE = [
    ((0,), {}),                          # size 0
    ((257,), {}),                        # larger than the capacity
    ((1 << 70,), {}),                    # does not fit in 64 bits
    ((-5,), {}),                         # negative size
    ((8,), {"alignment": 3}),            # not a power of two
    ((8,), {"alignment": 0}),
    ((8,), {"alignment": -4}),
    ((8,), {"alignment": 96}),
]


@pytest.mark.parametrize("cls", ALL)
@pytest.mark.parametrize("args,kwargs", BAD_ALLOCATE)
def test_bad_allocate_raises_and_changes_nothing(cls, args, kwargs):
    a, _ = _prepared(cls)
    before = snapshot(a)
    with pytest.raises(dx12kit.InvalidArgumentError) as info:
        a.allocate(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    assert snapshot(a) == before
    a.validate()


@pytest.mark.parametrize("cls", FREE_LISTS)
def test_bad_free_raises_and_changes_nothing(cls):
    a, live = _prepared(cls)
    before = snapshot(a)
    bad = [
        live[1],           # double free
        live[2],           # already passed to free_deferred
        live[0] + 1,       # inside an allocation
        200,               # inside free space
        256,               # at the capacity
        10**6,             # far outside
        -1,                # negative
    ]
    for offset in bad:
        with pytest.raises(dx12kit.InvalidArgumentError):
            a.free(offset)
        assert snapshot(a) == before, offset
        with pytest.raises(dx12kit.InvalidArgumentError):
            a.free_deferred(offset, 99)
        assert snapshot(a) == before, offset
    a.validate()
    # and the good paths still work afterwards
    a.free(live[0])
    a.release_stale(10)
    assert a.free_blocks_list() == [(0, 256)]


@pytest.mark.parametrize("cls", FREE_LISTS)
def test_bad_fence_values(cls):
    a, live = _prepared(cls)
    before = snapshot(a)
    with pytest.raises(dx12kit.InvalidArgumentError):
        a.free_deferred(live[0], -1)
    with pytest.raises(dx12kit.InvalidArgumentError):
        a.release_stale(-1)
    assert snapshot(a) == before


@pytest.mark.parametrize("cls", ALL)
def test_wrong_types_raise_type_error(cls):
    a = cls(10)
    with pytest.raises(TypeError):
        a.allocate("4")
    with pytest.raises(TypeError):
        a.allocate(4.0)
    a.validate()


# ---- TLSF specifics ----------------------------------------------------------------------------------


def test_tlsf_huge_capacity():
    cap = 2**40
    a = alloc.Tlsf(cap)
    big = a.allocate(2**39)
    assert big == 0
    x = a.allocate(12345, 2**20)
    assert x % 2**20 == 0 and x >= 2**39
    assert a.allocate(2**39) is None
    a.free(big)
    # two free blocks now: [0, 2**39) and the smaller tail after x, which wins (closer fit)
    assert a.allocate(2**39 - 2**20) == x + 12345
    assert a.allocate(2**39 - 2**20) == 0
    a.validate()
    s = a.stats()
    assert s["used"] + s["free"] == cap


def test_tlsf_alignment_padding_stays_free():
    a = alloc.Tlsf(4096)
    assert a.allocate(10) == 0
    assert a.allocate(10, 256) == 256
    assert a.free_blocks_list() == [(10, 246), (266, 4096 - 266)]
    a.validate()


def test_freelist_large_blocks_and_long_scans():
    # Blocks far larger than the exact-size bins, and start-bit scans across long free ranges.
    a = alloc.FreeList(3_000_000)
    xs = [a.allocate(s) for s in (1, 100_000, 1, 700_000, 1, 5000, 1)]
    assert xs == [0, 1, 100_001, 100_002, 800_002, 800_003, 805_003]
    a.free(xs[1])
    a.free(xs[3])
    a.free(xs[5])
    assert a.allocate(4096) == 800_003        # smallest hole that holds it
    assert a.allocate(100_000) == 1           # exact fit
    assert a.allocate(650_000) == 100_002
    a.validate()
    for offset, _ in a.allocations_list():
        a.free(offset)
    assert a.free_blocks_list() == [(0, 3_000_000)]
    a.validate()


def test_freelist_bitmap_bins_option():
    assert 64 <= alloc.FreeList(1000).bitmap_bins <= 1001     # the busiest (smallest) sizes
    assert 64 <= alloc.FreeList(1_000_000).bitmap_bins < 4096
    assert alloc.FreeList(2**30).bitmap_bins == 0             # too large: heaps only
    assert alloc.FreeList(1000, bitmap_bins=0).bitmap_bins == 0
    assert alloc.FreeList(1000, bitmap_bins=10**9).bitmap_bins == 1001
    with pytest.raises(TypeError):
        alloc.FreeList(1000, 0)  # keyword-only
