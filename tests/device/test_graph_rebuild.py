"""Rebuilt render graphs: a dropped graph frees its transients without the cycle collector, and an
identical rebuilt graph takes its compiled plan and transients from the device's plan cache."""
from __future__ import annotations

import gc
import time
from typing import Any, Callable, Dict, Iterator, List, Tuple

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import graph_demo as gd
from dx12kit.graph import plan_cache


@pytest.fixture
def no_cycle_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _live(dev: dx.Device) -> Tuple[int, int, int]:
    """Blocks, allocations and allocated bytes of the device's memory (dropped resources count until
    their work completes: wait first; empty blocks are kept a while: trim them)."""
    dev.wait_idle()
    dev.poll()
    dev.trim_memory()
    m = dev.memory_stats()["total"]
    return m["block_count"], m["allocation_count"], m["allocation_bytes"]


def _small_graph(dev: dx.Device, out: dx.Texture, size: int) -> dx.RenderGraph:
    """Two transients of ``size`` texels, one cleared and copied into the other, which the pass clearing
    ``out`` to blue reads; the records close over the handles."""
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    a = g.create_texture("a", size, size, "rgba8_unorm")
    b = g.create_texture("b", size, size, "rgba8_unorm")
    g.add_pass("a", lambda cl, r: None, render_targets=[a], clear={a: (0, 0, 1, 1)})
    g.add_pass("a2b", lambda cl, r: cl.copy_resource(r[b], r[a]),
               copy_from=[a], copy_to=[b])
    g.add_pass("o", lambda cl, r: None, reads=[b], render_targets=[o], clear={o: (0, 0, 1, 1)})
    return g


def test_dropped_graphs_free_their_transients_without_the_cycle_collector(no_cycle_collector: None) -> None:
    dev = dx.Device()
    q = dev.queue()
    out = dev.create_texture2d(16, 16, "rgba8_unorm", render_target=True, name="out")
    plan_cache(dev).capacity = 0   # every rebuild compiles and allocates anew
    q.wait(_small_graph(dev, out, 16).execute())
    before = _live(dev)
    for i in range(1000):
        g = _small_graph(dev, out, 16 + 16 * (i % 3))
        g.execute()
        del g
        if i % 100 == 99:
            assert _live(dev) == before, f"after {i + 1} rebuilds"
    assert _live(dev) == before
    assert (q.read_texture(out) == [0, 0, 255, 255]).all()


def test_rebuilt_identical_graphs_share_one_plan_and_its_memory(no_cycle_collector: None) -> None:
    dev = dx.Device()
    q = dev.queue()
    out = dev.create_texture2d(16, 16, "rgba8_unorm", render_target=True, name="out")
    g0 = _small_graph(dev, out, 32)
    q.wait(g0.execute())
    assert g0.stats()["compile_cached"] is False
    del g0
    before = _live(dev)
    s0 = plan_cache(dev).stats()
    for _ in range(1000):
        g = _small_graph(dev, out, 32)
        g.execute()
    assert g.stats()["compile_cached"] is True
    del g
    s1 = plan_cache(dev).stats()
    assert (s1["hits"] - s0["hits"], s1["misses"] - s0["misses"]) == (1000, 0)
    assert _live(dev) == before
    assert (q.read_texture(out) == [0, 0, 255, 255]).all()


def test_plan_cache_is_bounded_least_recently_used_first(no_cycle_collector: None) -> None:
    dev = dx.Device()
    out = dev.create_texture2d(16, 16, "rgba8_unorm", render_target=True, name="out")
    cache = plan_cache(dev)
    sizes = [16 * (k + 1) for k in range(cache.capacity + 2)]
    for s in sizes:
        _small_graph(dev, out, s).execute()
    st = cache.stats()
    assert st["entries"] == st["capacity"] and st["evictions"] == 2 and st["misses"] == len(sizes)
    _small_graph(dev, out, sizes[-1]).compile()          # the most recent: a hit
    _small_graph(dev, out, sizes[0]).compile()           # dropped: a miss
    st2 = cache.stats()
    assert (st2["hits"], st2["misses"]) == (1, len(sizes) + 1)


def _deferred_pixels(dev: dx.Device, target: dx.Texture, frames: int = 2) -> Tuple[np.ndarray, Dict[str, Any]]:
    q = dev.queue()
    g, _ = gd.build_deferred_graph(dev, target)
    for _ in range(frames):
        q.wait(g.execute())
    return q.read_texture(target), g.stats()


@pytest.mark.parametrize("validate", [False, True])
def test_cached_plan_gives_the_pixels_of_a_fresh_compile_with_the_new_graphs_records(validate: bool) -> None:
    dev = dx.Device(validate=validate)
    target = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
    plan_cache(dev).capacity = 0
    fresh, st0 = _deferred_pixels(dev, target)
    assert st0["compile_cached"] is False
    plan_cache(dev).capacity = 4
    _deferred_pixels(dev, target)                           # fills the cache
    q = dev.queue()
    q.wait(q.execute(_clear_list(q, target)))
    cached, st1 = _deferred_pixels(dev, target)
    assert st1["compile_cached"] is True
    assert fresh.std() > 10 and np.array_equal(cached, fresh)
    # the new graph's record functions run, not the cached graph's
    calls: List[str] = []
    g, h = gd.build_deferred_graph(dev, target)
    g.add_pass("probe", lambda cl, r: calls.append(r[h["frame"]].name), copy_from=[h["frame"]], side_effects=True)
    g2, h2 = gd.build_deferred_graph(dev, target)
    g2.add_pass("probe", lambda cl, r: calls.append("second " + r[h2["frame"]].name), copy_from=[h2["frame"]],
                side_effects=True)
    q.wait(g.execute())
    q.wait(g2.execute())
    assert g2.stats()["compile_cached"] is True and calls == ["frame", "second frame"]


def _clear_list(q: Any, target: dx.Texture) -> Any:
    cl = q.command_list()
    cl.clear_render_target(target, (0, 0, 0, 0))
    return cl


def _chain(dev: dx.Device, out: dx.Texture, passes: int) -> dx.RenderGraph:
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    kinds = [("rgba8_unorm", 64), ("rgba16_float", 64), ("r32_float", 128), ("rgba8_unorm", 128)]
    prev = None
    noop: Callable[[Any, Any], None] = lambda cl, r: None
    for i in range(passes - 1):
        fmt, size = kinds[i % 4]
        t = g.create_texture(f"t{i}", size, size, fmt)
        reads = [prev] if prev is not None else []
        if i % 5 == 4:
            g.add_pass(f"p{i}", noop, queue="compute", reads=reads, writes=[t])
        else:
            g.add_pass(f"p{i}", noop, reads=reads, render_targets=[t], clear={t: (0, 0, 0, 0)})
        prev = t
    g.add_pass("final", noop, reads=[prev], render_targets=[o])
    return g


def test_cached_compile_of_a_50_pass_graph_costs_at_most_a_tenth_of_a_cold_one() -> None:
    dev = dx.Device()
    out = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="out")
    cache = plan_cache(dev)
    _chain(dev, out, 50).compile()   # allocation sizes measured once per description
    cold, hot = [], []
    for _ in range(15):
        cache.clear()
        g = _chain(dev, out, 50)
        t0 = time.perf_counter()
        g.compile()
        cold.append(time.perf_counter() - t0)
        g = _chain(dev, out, 50)
        t0 = time.perf_counter()
        g.compile()
        hot.append(time.perf_counter() - t0)
        assert g.stats()["compile_cached"] is True
    assert min(hot) <= 0.1 * min(cold), (min(hot), min(cold))
