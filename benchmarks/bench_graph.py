"""Render graph costs.

- Building and compiling a 50-pass graph (CPU only; the target is at most 1 ms): a chain of passes on
  the direct and compute queues over 50 transients of four kinds, ending in an imported texture.
- Executing the compiled deferred-renderer frame (``dx12kit.graph_demo``) against recording the same
  passes by hand, side by side (target: the graph adds at most 10%): on one queue (against one list
  by hand), and with lighting on the compute queue (against the same four lists and GPU waits by
  hand, ``record_deferred_by_hand_queues``). The pytest-benchmark tests time the submitting call
  (``execute()`` against record + ``queue.execute``; the GPU work is waited for after the rounds).
  ``python benchmarks/bench_graph.py`` alternates the two and prints medians of the submitting
  thread's CPU time and of the time to completion.

Run ``pytest benchmarks/bench_graph.py`` (pytest-benchmark) or ``python benchmarks/bench_graph.py``
(prints medians and the ratio).
"""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable, Dict, List

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
    """The deferred frame as a graph and by hand, on one device.

    Args:
        compute_lighting: lighting on the compute queue; the by-hand frame then submits the same four
            command lists with the same GPU waits (``record_deferred_by_hand_queues``), else one list.
        aliasing: the graph's ``aliasing`` option.
    """

    def __init__(self, compute_lighting: bool = False, aliasing: bool = True) -> None:
        self.dev = dx.Device()
        self.q = self.dev.queue()
        self.target = self.dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
        self.graph, _ = gd.build_deferred_graph(self.dev, self.target, compute_lighting=compute_lighting)
        if not aliasing:
            self.graph = _without_aliasing(self.graph)
        self.hand_target = self.dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="hand")
        self.textures = gd.by_hand_textures(self.dev)
        self.by_hand = gd.record_deferred_by_hand_queues if compute_lighting else gd.record_deferred_by_hand
        for _ in range(3):
            self.q.wait(self.graph.execute())
            self.q.wait(self.hand_frame())

    def graph_frame(self) -> int:
        return self.graph.execute()

    def hand_frame(self) -> int:
        return self.by_hand(self.dev, self.hand_target, self.textures)


def _without_aliasing(g: dx.RenderGraph) -> dx.RenderGraph:
    g.aliasing = False   # takes effect at the next compile (execute compiles a changed graph)
    return g


def side_by_side(fr: Frame, rounds: int = 300) -> Dict[str, float]:
    """Alternates graph and by-hand frames; medians of the submitting thread's CPU time
    (``time.thread_time``: not the GPU's threads, not the wait) and of the wall time to completion."""
    cpu: Dict[str, List[float]] = {"graph": [], "hand": []}
    e2e: Dict[str, List[float]] = {"graph": [], "hand": []}
    for i in range(rounds):
        for name, fn in (("graph", fr.graph_frame), ("hand", fr.hand_frame)) if i % 2 else \
                (("hand", fr.hand_frame), ("graph", fr.graph_frame)):
            w0, c0 = time.perf_counter(), time.thread_time()
            v = fn()
            c1 = time.thread_time()
            fr.q.wait(v)
            w1 = time.perf_counter()
            cpu[name].append(c1 - c0)
            e2e[name].append(w1 - w0)
    out = {f"{k}_cpu_us": statistics.median(v) * 1e6 for k, v in cpu.items()}
    out.update({f"{k}_e2e_us": statistics.median(v) * 1e6 for k, v in e2e.items()})
    out["cpu_ratio"] = out["graph_cpu_us"] / out["hand_cpu_us"]
    out["e2e_ratio"] = out["graph_e2e_us"] / out["hand_e2e_us"]
    return out


def _submit_only(benchmark: Any, fr: Frame, fn: Callable[[], int]) -> None:
    """Times the submitting call alone; the frame before is waited for outside the timing (frames
    piling up in flight would measure vkd3d 1.2's fence thread instead, see PLATFORM.md)."""
    last = [0]

    def setup() -> None:
        fr.q.wait(last[0])

    def run() -> None:
        last[0] = fn()

    benchmark.pedantic(run, setup=setup, rounds=300, warmup_rounds=5)
    fr.q.wait(last[0])


@pytest.fixture(scope="module")
def frame() -> Frame:
    return Frame()


@pytest.fixture(scope="module")
def frame_queues() -> Frame:
    return Frame(compute_lighting=True)


@pytest.mark.benchmark(group="graph-build-compile")
def test_build_and_compile_50_passes(benchmark: Any) -> None:
    dev = dx.Device()
    out = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="out")
    build_50(dev, out).compile()
    benchmark(lambda: build_50(dev, out).compile())
    st = build_50(dev, out).stats()
    assert st["passes"] == PASSES and st["transient_bytes"] < st["transient_bytes_unaliased"]


@pytest.mark.benchmark(group="graph-frame-one-queue")
def test_execute_graph_frame(benchmark: Any, frame: Frame) -> None:
    _submit_only(benchmark, frame, frame.graph_frame)


@pytest.mark.benchmark(group="graph-frame-one-queue")
def test_execute_hand_frame(benchmark: Any, frame: Frame) -> None:
    _submit_only(benchmark, frame, frame.hand_frame)


@pytest.mark.benchmark(group="graph-frame-compute-queue")
def test_execute_graph_frame_queues(benchmark: Any, frame_queues: Frame) -> None:
    _submit_only(benchmark, frame_queues, frame_queues.graph_frame)


@pytest.mark.benchmark(group="graph-frame-compute-queue")
def test_execute_hand_frame_queues(benchmark: Any, frame_queues: Frame) -> None:
    _submit_only(benchmark, frame_queues, frame_queues.hand_frame)


if __name__ == "__main__":
    dev = dx.Device()
    out = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="out")
    ts = time_build_compile(dev, out, rounds=200)
    print(f"build + compile, {PASSES} passes: median {statistics.median(ts) * 1e6:.0f} us "
          f"(min {min(ts) * 1e6:.0f}, max {max(ts) * 1e6:.0f})")
    g = build_50(dev, out)
    t0 = time.perf_counter()
    g.compile()
    print(f"  compile alone: {(time.perf_counter() - t0) * 1e6:.0f} us")
    for label, kw in (("one queue", {}), ("one queue, aliasing=False", {"aliasing": False}),
                      ("lighting on the compute queue", {"compute_lighting": True})):
        print(f"deferred frame, {label}:")
        for k, v in side_by_side(Frame(**kw)).items():
            print(f"  {k}: {v:.3f}" if k.endswith("ratio") else f"  {k}: {v:.0f}")
