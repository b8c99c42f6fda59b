"""Dispatch and state-tracking benchmarks, side by side with the peers' W2 when installed.

- W2: 2,000 dispatches in one command list, each with its own 16-byte constants through
  ``set_dynamic_constant_buffer``, then execute and wait: µs per dispatch, end to end, verified.
  Two variants: the default (automatic UAV barriers: every dispatch writes the same root UAV, so the
  tracker puts a UAV barrier between each two), and ``cl.auto_uav_barriers = False`` (the
  dispatches write disjoint ranges, which the user knows and the tracker cannot). Also split into
  recording alone and execute + wait.
- A tracked transition: in C++ (``dx12kit._bench.transition``: the tracker alone, whole resource,
  same state, one subresource, and through ``CommandList::TransitionBarrier``) and from Python
  (``cl.transition_barrier``).

Run ``pytest benchmarks/bench_dispatch.py`` (pytest-benchmark) or ``python benchmarks/bench_dispatch.py``
(prints the figures, and the peers' beside them when ../peers-venv exists).
"""
from __future__ import annotations

import statistics
import time

import numpy as np
import pytest

import dx12kit

import _gpu_common as g  # beside this file: on sys.path via conftest.py, or as the script's folder
import _native

_bench = _native.require()

D = 2000


class W2:
    def __init__(self):
        self.dev, self.q = g.device()
        self.pso = g.cb_pipeline()
        self.out = self.dev.create_buffer(D * 64 * 4, uav=True, name="w2")
        self.run_no = 0

    def consts(self):
        c = np.zeros((D, 4), np.float32)
        c.view(np.uint32)[:, 0] = np.arange(D)
        c[:, 1] = np.arange(D) * 1000 + self.run_no
        return c

    def record(self, auto_uav=True):
        self.run_no += 1
        consts = self.consts()
        cl = self.q.command_list()
        cl.auto_uav_barriers = auto_uav
        cl.set_pipeline_state(self.pso)
        cl.set_root_uav(1, self.out)
        f, d = cl.set_dynamic_constant_buffer, cl.dispatch
        for i in range(D):
            f(0, consts[i])
            d(1)
        return cl

    def run(self, auto_uav=True):
        cl = self.record(auto_uav)
        self.q.wait(self.q.execute(cl))

    def check(self):
        r = self.q.read_buffer(self.out, dtype=np.float32).reshape(D, 64)
        exp = (np.arange(D) * 1000 + self.run_no)[:, None] + np.arange(64)[None, :]
        assert np.array_equal(r, exp.astype(np.float32)), "W2 mismatch"

    def split(self, reps=5):
        """(recording alone, execute + wait) in seconds, medians."""
        rec, ex = [], []
        for _ in range(reps + 1):
            t = time.perf_counter()
            cl = self.record(False)
            t1 = time.perf_counter()
            self.q.wait(self.q.execute(cl))
            t2 = time.perf_counter()
            rec.append(t1 - t)
            ex.append(t2 - t1)
        return statistics.median(rec[1:]), statistics.median(ex[1:])


@pytest.fixture(scope="module")
def w2():
    w = W2()
    w.run()
    w.check()
    return w


def _per_dispatch(benchmark):
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        benchmark.extra_info["us/dispatch"] = round(stats.stats.median / D * 1e6, 2)


@pytest.mark.benchmark(group="W2 2000 dispatches")
def test_w2_auto_uav_barriers(benchmark, w2):
    benchmark.pedantic(w2.run, rounds=5, warmup_rounds=1)
    w2.check()
    _per_dispatch(benchmark)


@pytest.mark.benchmark(group="W2 2000 dispatches")
def test_w2_no_uav_barriers(benchmark, w2):
    benchmark.pedantic(lambda: w2.run(False), rounds=5, warmup_rounds=1)
    w2.check()
    _per_dispatch(benchmark)


@pytest.mark.benchmark(group="W2 2000 dispatches")
def test_w2_recording_only(benchmark, w2):
    benchmark.pedantic(lambda: w2.record(False), rounds=5, warmup_rounds=1)
    _per_dispatch(benchmark)
    w2.q.wait(w2.q.execute(w2.record(False)))  # what was recorded computes the right thing
    w2.check()


# ------------------------------------------------------------------------- transitions


def transition_resources():
    dev, _ = g.device()
    return (dev.create_texture2d(64, 64, "rgba8_unorm", mip_levels=4, name="bench_tex"),
            dev.create_buffer(4096, name="bench_buf"))


def cpp_transition(n=200_000):

    dev, _ = g.device()
    tex, _ = transition_resources()
    return _bench.transition(dev, tex, n)


def python_transition_ns(n=50_000):
    import dx12kit as dx

    _, q = g.device()
    _, buf = transition_resources()
    a, b = dx.ResourceState.COPY_DEST, dx.ResourceState.COPY_SOURCE

    def run():
        cl = q.command_list()
        f = cl.transition_barrier
        t = time.perf_counter()
        for _ in range(n // 2):
            f(buf, a)
            f(buf, b)
        return (time.perf_counter() - t) / n * 1e9

    run()
    return min(run() for _ in range(3))


@pytest.mark.benchmark(group="tracked transition")
def test_transition_in_cpp(benchmark):
    r = benchmark.pedantic(cpp_transition, rounds=1, warmup_rounds=0)
    for k in ("transition_ns", "same_state_ns", "subresource_transition_ns", "command_list_transition_ns"):
        benchmark.extra_info[k + " (min, median)"] = tuple(round(v, 1) for v in r[k])
    assert r["transition_ns"][0] > 0


@pytest.mark.benchmark(group="tracked transition")
def test_transition_from_python(benchmark):
    ns = benchmark.pedantic(python_transition_ns, rounds=3, warmup_rounds=0)
    benchmark.extra_info["ns/call"] = round(ns, 1)
    assert ns > 0
    # The tracker really moves resources: a list that ends with the texture in COPY_SOURCE leaves it
    # there (a texture explicitly transitioned does not decay at the end of the execute; buffers do).
    _, q = g.device()
    tex, _ = transition_resources()
    cl = q.command_list()
    cl.transition_barrier(tex, dx12kit.ResourceState.COPY_DEST)
    cl.transition_barrier(tex, dx12kit.ResourceState.COPY_SOURCE)
    q.wait(q.execute(cl))
    assert tex.global_state() == dx12kit.ResourceState.COPY_SOURCE


# ------------------------------------------------------------------------- script mode


def measure() -> dict:
    w = W2()
    w.run()
    w.check()
    auto, _ = g.median_and_times(w.run)
    w.check()
    plain, _ = g.median_and_times(lambda: w.run(False))
    w.check()
    rec, ex = w.split()
    w.check()
    cpp = cpp_transition()
    return {
        "w2_auto_us": auto / D * 1e6, "w2_no_uav_us": plain / D * 1e6,
        "w2_record_us": rec / D * 1e6, "w2_execute_wait_us": ex / D * 1e6,
        "transition_ns": cpp["transition_ns"][0], "same_state_ns": cpp["same_state_ns"][0],
        "subresource_transition_ns": cpp["subresource_transition_ns"][0],
        "command_list_transition_ns": cpp["command_list_transition_ns"][0],
        "python_transition_ns": python_transition_ns(),
    }


PEER_SCRIPTS = ["wgpu_w2.py", "cs_w2.py", "mgl_all.py"]
PEERS = [
    ("wgpu-py, dynamic-offset uniforms", "wgpu_w2.py", r"dyn-offset uniforms:\s+([\d.]+) us"),
    ("wgpu-py, immediates", "wgpu_w2.py", r"immediates:\s+([\d.]+) us"),
    ("compushady (submit per dispatch)", "cs_w2.py", r"compushady W2: ([\d.]+) us"),
    ("moderngl", "mgl_all.py", r"moderngl W2 \(uniforms per dispatch\): ([\d.]+) us"),
]


def main() -> None:
    print(f"dx12kit dispatch benchmarks (W2: {D} dispatches, own 16-byte constants each; medians of 5 per run)\n", flush=True)
    runs, outputs, adjacent = g.interleave(measure, PEER_SCRIPTS)
    ours = g.combine(*runs)
    print(f"\ndx12kit W2, median of {len(runs)} runs: {ours['w2_auto_us']:.2f} us/dispatch (automatic UAV barriers), "
          f"{ours['w2_no_uav_us']:.2f} (auto_uav_barriers=False); recording {ours['w2_record_us']:.2f} + execute/wait "
          f"{ours['w2_execute_wait_us']:.2f}")
    print(f"tracked transition, C++ (min of 5 runs): {ours['transition_ns']:.1f} ns whole resource, "
          f"{ours['same_state_ns']:.1f} ns same state (nothing recorded), {ours['subresource_transition_ns']:.1f} ns one "
          f"subresource, {ours['command_list_transition_ns']:.1f} ns through CommandList::TransitionBarrier; "
          f"from Python {ours['python_transition_ns']:.0f} ns per cl.transition_barrier")
    if outputs:
        rows = [("peer (W2, us/dispatch)", "peer", "dx12kit", "ratio", "dx12kit no UAV barriers", "ratio")]
        for label, script, rx in PEERS:
            v, adj = g.find_rate(outputs.get(script), rx), adjacent.get(script, ours)
            rows.append((label, f"{v:.1f}" if v else "-", f"{adj['w2_auto_us']:.1f}", g.fmt_ratio(adj["w2_auto_us"], v, False),
                         f"{adj['w2_no_uav_us']:.1f}", g.fmt_ratio(adj["w2_no_uav_us"], v, False)))
        print("\nside by side (dx12kit: mean of the runs just before and after that peer; ratio > 1: dx12kit faster)")
        print(g.table(rows))
        rec = g.find_rate(outputs.get("wgpu_w2.py"), r"Python-side recording \(variant A\): ([\d.]+) us")
        sub = g.find_rate(outputs.get("wgpu_w2.py"), r"submit\+GPU\+wait \(variant A\):\s+([\d.]+) us")
        if rec and sub:
            adj = adjacent["wgpu_w2.py"]
            print(f"split, us/dispatch: recording dx12kit {adj['w2_record_us']:.2f} vs wgpu {rec:.2f}; "
                  f"execute+wait dx12kit {adj['w2_execute_wait_us']:.2f} vs wgpu submit+wait {sub:.2f}")
    g.print_runs_and_peers(runs, outputs, 28, "8.2f")


if __name__ == "__main__":
    main()
