"""Render graph recording on worker threads: ``RenderGraph(..., threads=N)`` against one thread.

A graph of PASSES compute passes on the direct queue, each writing its own slice of one imported UAV buffer
(so they stay alive and in one planned command list), in two kinds:

- ``small``: each pass records a few small calls (pipeline, constants, root UAV, one dispatch): Python and
  pybind11 dominate, and they hold the GIL.
- ``rows``: each pass records one ``dispatch_many`` of ROWS rows of root constants, which dx12core records
  without the GIL (cpp/bindings/BindCommandList.cpp, ``kNoGilRows``): the native recording can overlap.

Each execution is timed alone (the GPU idle before it): ``wall`` is ``execute()`` (record and submit), ``main
cpu`` the calling thread's CPU time in it, ``worker cpu`` each part's worker CPU time (``stats()
["recording"]``); medians over ROUNDS executions, threads=1 and threads=2 alternating. The machine's two
cores are shared with other work: the 1-minute load average is printed with the figures.

Run ``python benchmarks/bench_graph_threads.py`` (prints the medians) or ``pytest
benchmarks/bench_graph_threads.py`` (pytest-benchmark, one entry per kind and thread count).
"""
from __future__ import annotations

import os
import statistics
import time
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import dx12kit as dx

PASSES = 128
ROWS = 2048
ROUNDS = 15

CS = """
cbuffer C : register(b0) { uint slot; uint v; uint2 pad; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[slot] = v; }
"""


class Setup:
    def __init__(self) -> None:
        self.dev = dx.Device()
        self.q = self.dev.queue()
        self.rs = self.dev.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
        self.pso = self.dev.create_compute_pipeline(dx.compile_hlsl(CS, profile="cs_5_0"), self.rs)
        self.out = self.dev.create_buffer(PASSES * 4, uav=True, name="out")

    def graph(self, kind: str, threads: int) -> dx.RenderGraph:
        g = dx.RenderGraph(self.dev, threads=threads)
        o = g.import_resource(self.out)
        pso = self.pso
        for i in range(PASSES):
            if kind == "small":
                consts = np.array([i, i + 1, 0, 0], np.uint32)

                def rec(cl: Any, r: Any, consts: Any = consts) -> None:
                    cl.set_pipeline_state(pso)
                    cl.set_constants(0, consts)
                    cl.set_root_uav(1, r[o])
                    cl.dispatch(1)
            else:
                rows = np.zeros((ROWS, 4), np.uint32)
                rows[:, 0], rows[:, 1] = i, np.arange(ROWS) + i + 1 - ROWS + 1   # the last row writes i + 1

                def rec(cl: Any, r: Any, rows: Any = rows) -> None:
                    cl.set_pipeline_state(pso)
                    cl.set_root_uav(1, r[o])
                    cl.dispatch_many((1, 1, 1), rows)
            g.add_pass(f"p{i}", rec, writes=[o])
        return g

    def check(self) -> None:
        got = self.q.read_buffer(self.out, np.uint32)
        assert (got == np.arange(PASSES) + 1).all(), got[:8]

    def once(self, g: dx.RenderGraph) -> Tuple[float, float, List[float]]:
        """One execution, the GPU idle before it: wall ms, main-thread CPU ms, worker CPU ms per part."""
        self.q.flush()
        t0, c0 = time.perf_counter(), time.thread_time()
        v = g.execute()
        wall, cpu = (time.perf_counter() - t0) * 1e3, (time.thread_time() - c0) * 1e3
        self.q.wait(v)
        rec = g.stats().get("recording")
        return wall, cpu, list(rec["cpu_ms"]) if rec else []


def measure(rounds: int = ROUNDS) -> Dict[Tuple[str, int], Dict[str, float]]:
    s = Setup()
    out: Dict[Tuple[str, int], Dict[str, float]] = {}
    for kind in ("small", "rows"):
        graphs = {t: s.graph(kind, t) for t in (1, 2)}
        for g in graphs.values():   # compile, bake, warm up
            s.q.wait(g.execute())
            s.check()
        runs: Dict[int, List[Tuple[float, float, List[float]]]] = {1: [], 2: []}
        for _ in range(rounds):
            for t, g in graphs.items():
                runs[t].append(s.once(g))
        for t, rs in runs.items():
            parts = [sum(w) for _, _, w in rs]
            out[(kind, t)] = {"wall_ms": statistics.median(r[0] for r in rs),
                              "main_cpu_ms": statistics.median(r[1] for r in rs),
                              "worker_cpu_ms_total": statistics.median(parts) if t > 1 else 0.0,
                              "worker_cpu_ms_per_thread": statistics.median(parts) / t if t > 1 else 0.0}
        s.check()
    return out


@pytest.fixture(scope="module")
def setup() -> Setup:
    return Setup()


@pytest.mark.parametrize("kind", ["small", "rows"])
@pytest.mark.parametrize("threads", [1, 2])
def test_graph_recording_threads(benchmark: Any, setup: Setup, kind: str, threads: int) -> None:
    g = setup.graph(kind, threads)
    setup.q.wait(g.execute())
    benchmark.pedantic(lambda: setup.q.wait(g.execute()), rounds=ROUNDS, iterations=1)
    setup.check()


if __name__ == "__main__":
    load = os.getloadavg()[0]
    res = measure()
    print(f"{PASSES} passes, load average {load:.1f} on {os.cpu_count()} cores (after: {os.getloadavg()[0]:.1f}); "
          f"medians of {ROUNDS}")
    for (kind, t), r in res.items():
        print(f"{kind:5} threads={t}: wall {r['wall_ms']:7.2f} ms  main cpu {r['main_cpu_ms']:7.2f} ms  "
              f"workers cpu {r['worker_cpu_ms_total']:7.2f} ms ({r['worker_cpu_ms_per_thread']:.2f} per thread)")
    for kind in ("small", "rows"):
        print(f"{kind}: wall 2 threads / 1 thread = {res[(kind, 2)]['wall_ms'] / res[(kind, 1)]['wall_ms']:.2f}")
