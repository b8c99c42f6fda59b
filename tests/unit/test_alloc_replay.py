"""dx12kit.alloc.replay: long random traces, exact agreement with the baseline, determinism, and
malformed traces."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import dx12kit
from dx12kit import alloc

try:
    import dx12kit_bench  # the benchmark module: in the build tree only (tests/conftest.py finds it)
except ImportError:  # a product-only install (scripts/test-wheel.sh): the cases that need it skip
    dx12kit_bench = None
needs_bench = pytest.mark.skipif(dx12kit_bench is None, reason="needs the benchmark module dx12kit_bench (not in a product-only install)")
BASELINE = pytest.param(getattr(dx12kit_bench, "BaselineBimap", None), id="BaselineBimap", marks=needs_bench)

N = 200_000  # rows per long trace: a fraction of a second per allocator


@pytest.fixture(scope="module")
def trace_s(traces):
    if dx12kit_bench is None:  # random traces are built by the benchmark module
        pytest.skip("needs the benchmark module dx12kit_bench (not in a product-only install)")
    return traces.random_trace(N, traces.sizes_s)


@pytest.fixture(scope="module")
def trace_u(traces):
    if dx12kit_bench is None:
        pytest.skip("needs the benchmark module dx12kit_bench (not in a product-only install)")
    return traces.random_trace(N, traces.sizes_u)


def with_deferred(ops: np.ndarray, seed: int = 7) -> np.ndarray:
    """Turns about a third of the frees into deferred frees tagged with a rising fence, and adds
    a release_stale every 1000 rows for the fence two steps back."""
    rng = np.random.default_rng(seed)
    ops = ops.copy()
    rows = []
    fence = 0
    for start in range(0, len(ops), 1000):
        chunk = ops[start:start + 1000].copy()
        frees = chunk[:, 0] == 1
        deferred = frees & (rng.random(len(chunk)) < 0.33)
        chunk[deferred, 0] = 2
        chunk[deferred, 2] = fence
        rows.append(chunk)
        rows.append(np.array([[3, 0, max(fence - 2, 0)]], dtype=np.int64))
        fence += 1
    return np.concatenate(rows)


# ---- exact agreement and invariants ------------------------------------------------------------


@pytest.mark.parametrize("name", ["S", "U"])
@pytest.mark.parametrize("alignment", [1, 4])
def test_freelist_places_exactly_like_the_baseline(name, alignment, trace_s, trace_u):
    ops = trace_s if name == "S" else trace_u
    if alignment > 1:
        ops = ops[:30_000]  # aligned best fit scans; keep the baseline's share short
    capacity = 1_000_000 if name == "S" else 300_000  # U at 300k runs full: failures matter
    results = []
    for make in (dx12kit_bench.BaselineBimap, alloc.FreeList,
                 lambda c: alloc.FreeList(c, bitmap_bins=0)):
        a = make(capacity)
        r = alloc.replay(a, ops, alignment=alignment, record_offsets=True)
        a.validate()
        results.append(r)
    base = results[0]
    for r in results[1:]:
        np.testing.assert_array_equal(r["offsets"], base["offsets"])
        assert r["failed"] == base["failed"]
        assert r["stats"] == base["stats"]
    if name == "U" and alignment == 1:
        assert base["failed"] > 0  # the full-heap regime was exercised


@pytest.mark.parametrize("name", ["S", "U"])
def test_deferred_frees_in_a_trace(name, trace_s, trace_u):
    ops = with_deferred(trace_s if name == "S" else trace_u)
    results = []
    for cls in (dx12kit_bench.BaselineBimap, alloc.FreeList, alloc.Tlsf):
        a = cls(1_000_000)
        r = alloc.replay(a, ops, record_offsets=True)
        a.validate()
        assert a.stats() == r["stats"]
        results.append((a, r))
    np.testing.assert_array_equal(results[1][1]["offsets"], results[0][1]["offsets"])
    for a, _ in results:
        a.release_stale(10**9)
        a.validate()


@pytest.mark.parametrize("cls", [alloc.FreeList, alloc.Tlsf, BASELINE])
def test_long_trace_ends_valid_and_consistent(cls, trace_u):
    a = cls(1_000_000)
    r = alloc.replay(a, trace_u)
    a.validate()
    s = r["stats"]
    assert s == a.stats()
    assert s["used"] + s["free"] == s["capacity"]
    assert sum(size for _, size in a.free_blocks_list()) == s["free"]
    assert len(a.allocations_list()) == s["allocations"]
    assert r["ns"] > 0


def test_tlsf_trace_invariants_with_alignment(trace_s):
    a = alloc.Tlsf(1_000_000)
    r = alloc.replay(a, trace_s, alignment=256, record_offsets=True)
    a.validate()
    offsets = r["offsets"]
    placed = offsets[offsets >= 0]
    assert np.all(placed % 256 == 0)
    assert r["failed"] == np.count_nonzero(offsets == -1)


def test_linear_trace(traces):
    ops = traces.linear_trace(300_000, reset_every=100_000)
    a = alloc.Linear(traces.LINEAR_CAPACITY)
    r = alloc.replay(a, ops, alignment=256)
    assert r["failed"] == 0
    a.validate()
    t = alloc.Tlsf(traces.LINEAR_CAPACITY)
    r2 = alloc.replay(t, ops, alignment=256)
    assert r2["failed"] == 0
    t.validate()
    assert r2["stats"]["allocations"] == r["stats"]["allocations"] == 0  # ends with a reset


def test_linear_page_full_is_reported_as_failures():
    a = alloc.Linear(1000)
    ops = np.array([[0, -1, 300]] * 5 + [[4, 0, 0]] + [[0, -1, 300]], dtype=np.int64)
    r = alloc.replay(a, ops, record_offsets=True)
    assert r["failed"] == 2
    assert list(r["offsets"]) == [0, 300, 600, -1, -1, -2, 0]


# ---- determinism -------------------------------------------------------------------------------------


@needs_bench
def test_traces_are_deterministic(traces):
    a = traces.random_trace(50_000, traces.sizes_s)
    b = traces.random_trace(50_000, traces.sizes_s)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, traces.random_trace(50_000, traces.sizes_s, seed=43))
    assert a.dtype == np.int64 and a.shape == (50_000, 3)
    live = 0
    for kind in a[:, 0]:
        live += 1 if kind == 0 else -1
        assert 0 <= live <= 50_000


@needs_bench
def test_trace_shape_follows_the_issue(traces):
    ops = traces.random_trace(300_000, traces.sizes_s)
    sizes = ops[ops[:, 0] == 0, 2]
    assert sizes.min() == 1 and sizes.max() <= 256
    assert 0.65 < np.mean(sizes == 1) < 0.75
    assert 0.53 < np.mean(ops[:, 0] == 0) < 0.57
    u = traces.random_trace(100_000, traces.sizes_u)[:, 2]
    assert u[u > 0].min() == 1 and u.max() == 64


@pytest.mark.parametrize("cls", [alloc.FreeList, alloc.Tlsf, BASELINE])
def test_replay_is_deterministic(cls, trace_s):
    r1 = alloc.replay(cls(1_000_000), trace_s, record_offsets=True)
    r2 = alloc.replay(cls(1_000_000), trace_s, record_offsets=True)
    np.testing.assert_array_equal(r1["offsets"], r2["offsets"])
    assert r1["stats"] == r2["stats"] and r1["failed"] == r2["failed"]


# ---- malformed traces: raise, allocator unchanged ---------------------------------------------------


BAD_TRACES = [
    np.zeros((5, 2), np.int64),                      # wrong shape
    np.zeros((2, 3, 1), np.int64),
    np.array([[7, 0, 1]]),                           # unknown kind
    np.array([[0, -2, 1]]),                          # bad slot
    np.array([[1, -1, 0]]),                          # -1 only for allocations
    np.array([[0, 1 << 40, 1]]),                     # slot out of range
    np.array([[0, 0, 0]]),                           # size 0
    np.array([[0, 0, 2000]]),                        # larger than the capacity
    np.array([[0, 0, 1], [0, 0, 1]]),                # allocation into a held slot
    np.array([[0, 0, 1], [2, 0, -1]]),               # negative fence
]


@pytest.mark.parametrize("cls", [alloc.FreeList, alloc.Tlsf, BASELINE, alloc.Linear])
@pytest.mark.parametrize("ops", BAD_TRACES, ids=range(len(BAD_TRACES)))
def test_bad_trace_raises_and_changes_nothing(cls, ops):
    a = cls(1000)
    a.allocate(10)
    before = (a.stats(), a.free_blocks_list())
    with pytest.raises(dx12kit.InvalidArgumentError):
        alloc.replay(a, ops)
    assert (a.stats(), a.free_blocks_list()) == before
    a.validate()


def test_replay_rejects_deferred_kinds_on_linear():
    a = alloc.Linear(1000)
    with pytest.raises(dx12kit.InvalidArgumentError, match="deferred"):
        alloc.replay(a, np.array([[0, 0, 1], [2, 0, 5]]))
    assert a.stats()["allocations"] == 0


def test_replay_argument_types():
    a = alloc.FreeList(100)
    with pytest.raises(TypeError):
        alloc.replay(a, np.zeros((3, 3), np.float64))
    with pytest.raises(TypeError):
        alloc.replay(object(), np.zeros((3, 3), np.int64))
    with pytest.raises(dx12kit.InvalidArgumentError):
        alloc.replay(a, np.zeros((3, 3), np.int64), alignment=3)
    # other integer dtypes and non-contiguous views are converted
    ops = np.array([[0, 0, 5, 9], [1, 0, 0, 9]], dtype=np.int32)[:, :3]
    r = alloc.replay(a, ops)
    assert r["failed"] == 0 and r["stats"]["allocations"] == 0
    assert set(r) == {"ns", "failed", "stats"}
    assert alloc.replay(a, np.zeros((0, 3), np.int64))["failed"] == 0


def test_replay_releases_the_gil_and_guards_the_allocator(trace_u):
    """Two replays run in parallel threads; calls into an allocator that is replaying raise."""
    allocators = [alloc.FreeList(1_000_000), alloc.Tlsf(1_000_000)]
    results = [None, None]

    def work(i):
        results[i] = alloc.replay(allocators[i], trace_u)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    busy_seen = 0
    while any(t.is_alive() for t in threads):
        try:
            allocators[0].stats()
        except dx12kit.Dx12Error as e:
            assert "replay" in str(e)
            busy_seen += 1
    for t in threads:
        t.join()
    for a, r in zip(allocators, results):
        assert r is not None and r["stats"] == a.stats()
        a.validate()
