"""Descriptor benchmarks: the dynamic descriptor heap's commit against the direct-copy
floor, CPU descriptor allocation, and dynamic sub-allocation.

The hot paths cost tens to hundreds of nanoseconds, far below what a Python loop can time, so the
timed loops are C++ (``dx12kit._bench.measure_*``, cpp/bench/
DescriptorBenchmarks.cpp); Python only reads their results:

- commit: per draw, stage n descriptors picked at random from 512 distinct SRVs and commit them
  (``StageDescriptors`` x n + ``CommitStagedDescriptorsForDraw``), against the floor of doing the
  same by hand (n ``CopyDescriptorsSimple`` into the shader-visible heap + one
  ``SetGraphicsRootDescriptorTable``). Both run interleaved in one process; medians over repeats;
  ratio = commit / direct (goal: <= 1.5).
- CPU descriptors: ``Allocate(count)`` x 1024, drop them (deferred frees), ``ReleaseStaleDescriptors``;
  allocations/s, frees/s (drop + release) and complete pairs/s (goal: tens of millions per second).
  Wall-clock rates, median and best of 5 runs, plus pairs per second of the calling thread's CPU
  time (``time.thread_time`` around the C++ loop), which a loaded machine disturbs far less.
- dynamic sub-allocations: ``DynamicDescriptorHeap::AllocateDynamic`` per second, chunk turnover
  (Retire + ReleaseStale) included.
- For scale, the same binding from Python: ``cl.set_shader_resource_view`` x 4 + ``cl.draw`` per
  draw (recording only), where the Python call overhead dominates.

Run ``pytest benchmarks/bench_descriptors.py`` (pytest-benchmark; figures in extra_info) or
``python benchmarks/bench_descriptors.py`` (prints the tables; results in bench_descriptors.md).
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())  # quiets Mesa/Vulkan loader warnings

COUNTS = [1, 8, 32]

FULLSCREEN_VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""
FOUR_SRV_PS = """
Texture2D t0 : register(t0);
Texture2D t1 : register(t1);
Texture2D t2 : register(t2);
Texture2D t3 : register(t3);
float4 main(float4 pos : SV_Position) : SV_Target {
    int3 p = int3(0, 0, 0);
    return t0.Load(p) + t1.Load(p) + t2.Load(p) + t3.Load(p);
}
"""

_DEVICE = None


def device():
    global _DEVICE
    if _DEVICE is None:
        import dx12kit as dx

        _DEVICE = dx.Device()
    return _DEVICE


def descriptors():
    import _native

    return _native.require()


def commit_table(draws: int = 10000, repeats: int = 5) -> list:
    return descriptors().measure_commit(device(), COUNTS, draws=draws, repeats=repeats)


def cpu_allocator(allocations: int = 2_000_000, count: int = 1) -> dict:
    return descriptors().measure_cpu_allocator(device(), page_size=256, allocations=allocations, batch=1024, count=count)


def cpu_allocator_runs(count: int = 1, runs: int = 5, allocations: int = 2_000_000) -> dict:
    """cpu_allocator() `runs` times: median and best of each rate, and pairs per CPU second."""
    results = []
    for _ in range(runs):
        t = time.thread_time()
        r = cpu_allocator(allocations=allocations, count=count)
        r["cpu_pairs_per_s"] = r["allocations"] / max(time.thread_time() - t, 1e-9)
        results.append(r)
    out = {"count": count, "runs": runs}
    for key in ("allocations_per_s", "frees_per_s", "pairs_per_s", "cpu_pairs_per_s"):
        values = [r[key] for r in results]
        out[key] = statistics.median(values)
        out[key + "_best"] = max(values)
    return out


def dynamic(n: int = 10_000_000, count: int = 1) -> dict:
    return descriptors().measure_dynamic_suballocation(device(), chunk_size=256, suballocations=n, count=count)


def python_binding(draws: int = 2000, reps: int = 3) -> float:
    """µs per draw to bind 4 textures by slot and draw, from Python (recording only, median)."""
    import dx12kit as dx

    dev = device()
    q = dev.queue()
    vs = dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(FOUR_SRV_PS, profile="ps_5_0")
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0, count=4)])])
    pso = dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])
    textures = [dev.create_texture2d(4, 4, "rgba8_unorm") for _ in range(64)]
    value = [(i % 60) + 1 for i in range(64)]  # texture i holds value[i] in every channel (sums of 4 stay < 256)
    cl = q.command_list()
    for t, v in zip(textures, value):
        cl.upload(t, np.full((4, 4, 4), v, np.uint8))
    q.execute(cl)
    rt = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True)
    times = []
    for _ in range(reps):
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_render_targets([rt])
        srv, draw = cl.set_shader_resource_view, cl.draw
        t = time.perf_counter()
        for d in range(draws):
            srv(0, 0, textures[d & 63])
            srv(0, 1, textures[(d * 7) & 63])
            srv(0, 2, textures[(d * 13) & 63])
            srv(0, 3, textures[(d * 29) & 63])
            draw(3)
        times.append((time.perf_counter() - t) / draws * 1e6)
        q.wait(q.execute(cl))
    # The last draw covers the target: each pixel is the sum of the four textures it bound.
    d = draws - 1
    expected = sum(value[i] for i in (d & 63, (d * 7) & 63, (d * 13) & 63, (d * 29) & 63))
    pixels = q.read_texture(rt)
    assert (pixels == expected).all(), f"bound textures drew {np.unique(pixels)}, expected {expected}"
    return statistics.median(times)


# ------------------------------------------------------------------------------ pytest-benchmark

def _once(benchmark, fn):
    return benchmark.pedantic(fn, rounds=1, iterations=1, warmup_rounds=0)


@pytest.mark.benchmark(group="descriptors-commit")
def test_commit_vs_direct_copies(benchmark):
    rows = _once(benchmark, lambda: commit_table(draws=5000, repeats=3))
    for r in rows:
        benchmark.extra_info[f"n{r['descriptors']}_commit_ns"] = r["commit_ns"]
        benchmark.extra_info[f"n{r['descriptors']}_direct_ns"] = r["direct_ns"]
        benchmark.extra_info[f"n{r['descriptors']}_ratio"] = r["ratio"]
    assert [r["descriptors"] for r in rows] == COUNTS and all(r["ratio"] > 0 for r in rows)


@pytest.mark.benchmark(group="descriptors-cpu")
def test_cpu_descriptor_allocations(benchmark):
    r = _once(benchmark, lambda: cpu_allocator(allocations=1_000_000))
    benchmark.extra_info.update(r)
    assert r["allocations"] == 1_000_000


@pytest.mark.benchmark(group="descriptors-dynamic")
def test_dynamic_suballocations(benchmark):
    r = _once(benchmark, lambda: dynamic(n=5_000_000))
    benchmark.extra_info.update(r)
    assert r["suballocations"] == 5_000_000


@pytest.mark.benchmark(group="descriptors-python")
def test_bind_four_textures_and_draw_from_python(benchmark):
    us = _once(benchmark, lambda: python_binding(draws=1000, reps=1))
    benchmark.extra_info["us_per_draw"] = us


# ------------------------------------------------------------------------------------------ script

def main() -> None:
    import dx12kit as dx

    info = device().info
    print(f"dx12kit {dx.__version__} on {info['backend']} / {info['adapter']}")
    print()
    print("Commit of n staged descriptors per draw vs the direct CopyDescriptorsSimple floor (ns per draw, medians)")
    print(f"{'n':>4} {'commit':>10} {'direct':>10} {'ratio':>7}")
    for r in commit_table():
        print(f"{r['descriptors']:>4} {r['commit_ns']:>10.1f} {r['direct_ns']:>10.1f} {r['ratio']:>7.2f}")
    print()
    print("CPU descriptors: Allocate(count) x 1024, drop, release; M per second, median (best) of 5 runs")
    print(f"{'count':>5} {'allocations/s':>15} {'frees/s':>15} {'pairs/s':>15} {'pairs/CPU-s':>15}")
    for count in (1, 4):
        c = cpu_allocator_runs(count=count)
        cells = [f"{c[k] / 1e6:.1f} ({c[k + '_best'] / 1e6:.1f})"
                 for k in ("allocations_per_s", "frees_per_s", "pairs_per_s", "cpu_pairs_per_s")]
        print(f"{count:>5} " + " ".join(f"{cell:>15}" for cell in cells))
    print()
    for count in (1, 4):
        d = dynamic(count=count)
        print(f"Dynamic sub-allocations of {count}: {d['per_s'] / 1e6:.1f} M/s ({d['chunks_acquired']} chunks of 256)")
    print(f"From Python, set_shader_resource_view x 4 + draw: {python_binding():.2f} µs per draw (recording)")


if __name__ == "__main__":
    main()
