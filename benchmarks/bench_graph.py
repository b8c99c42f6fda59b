"""Render graph costs (issue 26).

- Building and compiling a 50-pass graph (CPU only; the target is at most 1 ms): a chain of passes on
  the direct and compute queues over 50 transients of four kinds, ending in an imported texture.
- Executing the compiled deferred-renderer frame (``dx12kit.graph_demo``) against recording the same
  passes by hand, side by side (target: the graph adds at most 10%). Measured two ways: the CPU time of
  the submitting call alone (``execute()`` against record + ``queue.execute``), and end to end with the
  wait for the GPU.

Run ``pytest benchmarks/bench_graph.py`` (pytest-benchmark) or ``python benchmarks/bench_graph.py``
(prints medians and the ratio).
"""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable, Dict, List, Tuple

import pytest

import dx12kit as dx
from dx12kit import graph_demo as gd

PASSES = 50


def build_50(dev: dx.Device, out: dx.Texture) -> dx.RenderGraph:
    """A 50-pass graph: each pass writes a transient the next one reads; every 5th pass on the compute queue."""
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    kinds = [("rgba8_unorm", 64), ("rgba16_float", 64), ("r32_float", 128), ("rgba8_unorm", 128)]
    prev = None
    noop: Callable[[Any, Any], None] = lambda cl, r: None
    for i in range(PASSES - 1):
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


def time_build_compile(dev: dx.Device, out: dx.Texture, rounds: int = 50) -> List[float]:
    build_50(dev, out).compile()   # warm: allocation sizes are measured once per description
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        build_50(dev, out).compile()
        times.append(time.perf_counter() - t0)
    return times


class Frame:
    def __init__(self) -> None:
        self.dev = dx.Device()
        self.q = self.dev.queue()
        self.target = self.dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
        self.graph, _ = gd.build_deferred_graph(self.dev, self.target)
        self.hand_target = self.dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="hand")
        self.textures = gd.by_hand_textures(self.dev)
        self.q.wait(self.graph.execute())
        self.q.wait(gd.record_deferred_by_hand(self.dev, self.hand_target, self.textures))

    def graph_frame(self) -> int:
        return self.graph.execute()

    def hand_frame(self) -> int:
        return gd.record_deferred_by_hand(self.dev, self.hand_target, self.textures)


def side_by_side(fr: Frame, rounds: int = 60) -> Dict[str, float]:
    """Alternates graph and by-hand frames; medians of submit CPU time and of end-to-end time."""
    sub: Dict[str, List[float]] = {"graph": [], "hand": []}
    e2e: Dict[str, List[float]] = {"graph": [], "hand": []}
    for i in range(rounds):
        for name, fn in (("graph", fr.graph_frame), ("hand", fr.hand_frame)) if i % 2 else \
                (("hand", fr.hand_frame), ("graph", fr.graph_frame)):
            t0 = time.perf_counter()
            v = fn()
            t1 = time.perf_counter()
            fr.q.wait(v)
            t2 = time.perf_counter()
            sub[name].append(t1 - t0)
            e2e[name].append(t2 - t0)
    out = {f"{k}_submit_us": statistics.median(v) * 1e6 for k, v in sub.items()}
    out.update({f"{k}_e2e_us": statistics.median(v) * 1e6 for k, v in e2e.items()})
    out["submit_ratio"] = out["graph_submit_us"] / out["hand_submit_us"]
    out["e2e_ratio"] = out["graph_e2e_us"] / out["hand_e2e_us"]
    return out


@pytest.fixture(scope="module")
def frame() -> Frame:
    return Frame()


def test_build_and_compile_50_passes(benchmark: Any) -> None:
    dev = dx.Device()
    out = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="out")
    build_50(dev, out).compile()
    g = benchmark(lambda: build_50(dev, out).compile())
    st = build_50(dev, out).stats()
    assert st["passes"] == PASSES and st["transient_bytes"] < st["transient_bytes_unaliased"]


def test_execute_graph_frame(benchmark: Any, frame: Frame) -> None:
    benchmark(lambda: frame.q.wait(frame.graph_frame()))


def test_execute_hand_frame(benchmark: Any, frame: Frame) -> None:
    benchmark(lambda: frame.q.wait(frame.hand_frame()))


if __name__ == "__main__":
    dev = dx.Device()
    out = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="out")
    ts = time_build_compile(dev, out)
    print(f"build + compile, {PASSES} passes: median {statistics.median(ts) * 1e6:.0f} us "
          f"(min {min(ts) * 1e6:.0f}, max {max(ts) * 1e6:.0f})")
    g = build_50(dev, out)
    t0 = time.perf_counter()
    g.compile()
    print(f"  compile alone: {(time.perf_counter() - t0) * 1e6:.0f} us")
    fr = Frame()
    for k, v in side_by_side(fr).items():
        print(f"{k}: {v:.3f}" if k.endswith("ratio") else f"{k}: {v:.0f}")
