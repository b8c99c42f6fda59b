"""Render graph costs.

- Building and compiling a 50-pass graph (CPU only; the target is at most 1 ms): a chain of passes on
  the direct and compute queues over 50 transients of four kinds, ending in an imported texture.
- Compile cost per pass at 50 and 800 passes (``compile_scaling``; target: the 800-pass graph costs at
  most 1.3x per pass what the 50-pass one does).
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

import gc
import statistics
import time
from typing import Any, Callable, Dict, List, Tuple

import pytest

import dx12kit as dx
from dx12kit import graph_demo as gd
from dx12kit.graph import plan_cache

PASSES = 50


def build_50(dev: dx.Device, out: dx.Texture) -> dx.RenderGraph:
    """A 50-pass graph: each pass writes a transient the next one reads; every 5th pass on the compute queue."""
    return build_chain(dev, out, PASSES)


def build_chain(dev: dx.Device, out: dx.Texture, passes: int) -> dx.RenderGraph:
    """A graph of ``passes`` passes: each writes a transient the next one reads; every 5th pass on the
    compute queue; the last renders into ``out``."""
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


def time_build_compile(dev: dx.Device, out: dx.Texture, rounds: int = 50, cached: bool = False) -> List[float]:
    """Times of building and compiling :func:`build_50`; cold compiles unless ``cached`` (then each takes
    the plan of the identical graph before it from the device's plan cache)."""
    plan_cache(dev).capacity = 4 if cached else 0
    build_50(dev, out).compile()   # warm: allocation sizes are measured once per description
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        build_50(dev, out).compile()
        times.append(time.perf_counter() - t0)
    plan_cache(dev).capacity = 4
    return times


def compile_us_per_pass(dev: dx.Device, out: dx.Texture, passes: int, repeat: int = 5) -> Dict[str, float]:
    """Per-pass cost of a graph of ``passes`` passes (:func:`build_chain`): ``compile_us`` (``compile()``
    alone) and ``build_compile_us`` (declaring it too), the minimum over ``repeat`` fresh graphs (after
    one warm-up, which measures each description's allocation size once), in thread CPU time (the
    machine's other load counts less than in wall time); the cycle collector is paused while timing."""
    plan_cache(dev).capacity = 0   # cold compiles: no plan taken from the device's cache
    build_chain(dev, out, passes).compile()
    comp, both = [], []
    gc.collect()
    gc.disable()
    try:
        comp, both = _timed_compiles(dev, out, passes, repeat)
    finally:
        gc.enable()
        plan_cache(dev).capacity = 4
    return {"compile_us": min(comp) * 1e6 / passes, "build_compile_us": min(both) * 1e6 / passes}


def _timed_compiles(dev: dx.Device, out: dx.Texture, passes: int, repeat: int) -> Tuple[List[float], List[float]]:
    comp, both = [], []
    for _ in range(repeat):
        t0 = time.thread_time()
        g = build_chain(dev, out, passes)
        t1 = time.thread_time()
        g.compile()
        t2 = time.thread_time()
        comp.append(t2 - t1)
        both.append(t2 - t0)
        del g
    return comp, both


def compile_scaling(dev: dx.Device, out: dx.Texture, small: int = 50, large: int = 800) -> Dict[str, float]:
    """Per-pass compile cost at ``small`` and ``large`` passes and their ratio (target: at most 1.3)."""
    a = compile_us_per_pass(dev, out, small, repeat=20)
    b = compile_us_per_pass(dev, out, large, repeat=5)
    return {f"compile_us_per_pass_{small}": a["compile_us"], f"compile_us_per_pass_{large}": b["compile_us"],
            "compile_ratio": b["compile_us"] / a["compile_us"],
            f"build_compile_us_per_pass_{small}": a["build_compile_us"],
            f"build_compile_us_per_pass_{large}": b["build_compile_us"],
            "build_compile_ratio": b["build_compile_us"] / a["build_compile_us"]}


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
    plan_cache(dev).capacity = 0   # cold compiles
    build_50(dev, out).compile()
    benchmark(lambda: build_50(dev, out).compile())
    st = build_50(dev, out).stats()
    assert st["passes"] == PASSES and st["transient_bytes"] < st["transient_bytes_unaliased"]


@pytest.mark.benchmark(group="graph-compile-scaling")
@pytest.mark.parametrize("passes", [50, 800])
def test_compile_per_pass(benchmark: Any, passes: int) -> None:
    dev = dx.Device()
    out = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="out")
    plan_cache(dev).capacity = 0   # cold compiles
    build_chain(dev, out, passes).compile()
    benchmark.pedantic(lambda g: g.compile(), setup=lambda: ((build_chain(dev, out, passes),), {}),
                       rounds=20 if passes <= 50 else 3)


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
    tc = time_build_compile(dev, out, rounds=200, cached=True)
    print(f"build + compile, {PASSES} passes, identical rebuild (plan cache hit): median "
          f"{statistics.median(tc) * 1e6:.0f} us (min {min(tc) * 1e6:.0f})")
    plan_cache(dev).capacity = 0
    g = build_50(dev, out)
    t0 = time.perf_counter()
    g.compile()
    cold = time.perf_counter() - t0
    plan_cache(dev).capacity = 4
    g = build_50(dev, out)
    g.compile()
    g = build_50(dev, out)
    t0 = time.perf_counter()
    g.compile()
    print(f"  compile alone, cold {cold * 1e6:.0f} us, plan cache hit {(time.perf_counter() - t0) * 1e6:.0f} us")
    g = build_50(dev, out)
    t0 = time.perf_counter()
    g.compile()
    print(f"  compile alone: {(time.perf_counter() - t0) * 1e6:.0f} us")
    print("compile cost per pass (chain graphs, min of repeats):")
    for k, v in compile_scaling(dev, out).items():
        print(f"  {k}: {v:.2f}")
    for label, kw in (("one queue", {}), ("one queue, aliasing=False", {"aliasing": False}),
                      ("lighting on the compute queue", {"compute_lighting": True})):
        print(f"deferred frame, {label}:")
        for k, v in side_by_side(Frame(**kw)).items():
            print(f"  {k}: {v:.3f}" if k.endswith("ratio") else f"  {k}: {v:.0f}")
