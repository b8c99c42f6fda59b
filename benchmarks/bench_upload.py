"""Upload memory benchmarks, side by side with the peers' W1 when they are installed.

- W1: a 64 MiB float32 numpy array uploaded to a DEFAULT buffer (``CommandList.upload``, execute,
  wait) and read back (``CommandQueue.read_buffer``), MB/s, verified.
- The zero-copy path (``allocate_upload`` + filling ``.array()`` in place + ``copy_from_upload``)
  against numpy's memcpy (``np.copyto``) measured in the same run, as a ratio.
- The same upload and readback with the host copies on one thread (``dx12kit.set_copy_threads(1)``)
  beside the default (copies of 2 MiB and more split over ``dx12kit.copy_threads()`` threads).
- A dynamic constant buffer (16 bytes) per ``set_dynamic_constant_buffer`` call from Python, and in
  C++ (``dx12kit._bench.dynamic_cb``: allocation + copy alone, and the whole call).

Run ``pytest benchmarks/bench_upload.py`` (pytest-benchmark) or ``python benchmarks/bench_upload.py``
(prints the figures, and the peers' beside them when ../peers-venv exists).
"""
from __future__ import annotations

import statistics
import time

import numpy as np
import pytest

import dx12kit as dx

import _gpu_common as g  # beside this file: on sys.path via conftest.py, or as the script's folder
import _native

_bench = _native.require()

N = 64 * 2**20 // 4      # 64 MiB of float32, as the peers' W1
NB = N * 4
MB = 1e6


class W1:
    """The W1 workload on dx12kit, set up once."""

    def __init__(self):
        import dx12kit as dx

        self.dx = dx
        self.dev, self.q = g.device()
        self.x = np.random.default_rng(0).random(N, dtype=np.float32)
        self.buf = self.dev.create_buffer(NB, name="w1")
        self.dst = np.empty_like(self.x)
        np.copyto(self.dst, self.x)  # fault the memcpy destination in once
        self.out = None

    def upload(self):
        cl = self.q.command_list()
        cl.upload(self.buf, self.x)
        self.q.wait(self.q.execute(cl))

    def zero_copy(self):
        cl = self.q.command_list()
        a = cl.allocate_upload(NB)
        np.copyto(a.array(np.float32), self.x)  # the only CPU copy: numpy straight into upload memory
        cl.copy_from_upload(self.buf, a)
        self.q.wait(self.q.execute(cl))

    def zero_copy_fill(self):
        """Filling the upload memory alone (what the zero-copy path costs the CPU)."""
        cl = self.q.command_list()
        a = cl.allocate_upload(NB)
        view = a.array(np.float32)
        t = time.perf_counter()
        np.copyto(view, self.x)
        return time.perf_counter() - t

    def memcpy(self):
        np.copyto(self.dst, self.x)

    def one_thread(self, fn):
        """`fn` with every host copy on the calling thread (a single memcpy, as before the copy threads)."""
        def run():
            self.dx.set_copy_threads(1)
            try:
                fn()
            finally:
                self.dx.set_copy_threads(None)
        return run

    def readback(self):
        self.out = self.q.read_buffer(self.buf, dtype=np.float32)

    def verify(self):
        self.upload()
        self.readback()
        assert np.array_equal(self.out, self.x), "W1 upload/readback mismatch"


@pytest.fixture(scope="module")
def w1():
    w = W1()
    w.verify()
    return w


def _record_rate(benchmark, nbytes):
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        benchmark.extra_info["MB/s"] = round(nbytes / stats.stats.median / MB)


@pytest.mark.benchmark(group="W1 upload 64 MiB")
def test_w1_upload(benchmark, w1):
    benchmark.pedantic(w1.upload, rounds=5, warmup_rounds=1)
    _record_rate(benchmark, NB)
    w1.readback()
    assert np.array_equal(w1.out, w1.x), "W1 upload mismatch"


@pytest.mark.benchmark(group="W1 upload 64 MiB")
def test_w1_zero_copy(benchmark, w1):
    benchmark.pedantic(w1.zero_copy, rounds=5, warmup_rounds=1)
    _record_rate(benchmark, NB)
    memcpy, _ = g.median_and_times(w1.memcpy)
    fill = min(w1.zero_copy_fill() for _ in range(5))
    benchmark.extra_info["fill/memcpy"] = round(memcpy / fill, 3)
    w1.zero_copy()
    w1.readback()
    assert np.array_equal(w1.out, w1.x), "W1 zero-copy upload mismatch"


@pytest.mark.benchmark(group="W1 upload 64 MiB")
def test_w1_memcpy(benchmark, w1):
    benchmark.pedantic(w1.memcpy, rounds=5, warmup_rounds=1)
    _record_rate(benchmark, NB)
    assert np.array_equal(w1.dst, w1.x)


@pytest.mark.benchmark(group="W1 upload 64 MiB")
def test_w1_upload_one_copy_thread(benchmark, w1):
    benchmark.pedantic(w1.one_thread(w1.upload), rounds=5, warmup_rounds=1)
    _record_rate(benchmark, NB)
    w1.readback()
    assert np.array_equal(w1.out, w1.x), "W1 upload mismatch"


@pytest.mark.benchmark(group="W1 readback 64 MiB")
def test_w1_readback(benchmark, w1):
    benchmark.pedantic(w1.readback, rounds=5, warmup_rounds=1)
    _record_rate(benchmark, NB)
    assert np.array_equal(w1.out, w1.x)


@pytest.mark.benchmark(group="W1 readback 64 MiB")
def test_w1_readback_one_copy_thread(benchmark, w1):
    benchmark.pedantic(w1.one_thread(w1.readback), rounds=5, warmup_rounds=1)
    _record_rate(benchmark, NB)
    assert np.array_equal(w1.out, w1.x)


# ------------------------------------------------------------------------- dynamic constants

def python_cb_ns(n=100_000):
    """ns per set_dynamic_constant_buffer call from Python (a 16-byte numpy array), min of 3."""
    _, q = g.device()
    pso = g.cb_pipeline()
    data = np.array([1, 2, 3, 4], np.uint32)

    def run():
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        f = cl.set_dynamic_constant_buffer
        t = time.perf_counter()
        for _ in range(n):
            f(0, data)
        return (time.perf_counter() - t) / n * 1e9

    run()
    return min(run() for _ in range(3))


def cpp_cb_ns(n=100_000):
    """dx12kit._bench.dynamic_cb: {name: (min, median) ns} over 5 runs of n calls."""

    dev, _ = g.device()
    return _bench.dynamic_cb(dev, g.cb_pipeline(), 0, n)


@pytest.mark.benchmark(group="dynamic constant buffer")
def test_dynamic_cb_from_python(benchmark):
    _, q = g.device()
    data = np.array([1, 2, 3, 4], np.uint32)
    cl = q.command_list()
    cl.set_pipeline_state(g.cb_pipeline())

    def thousand():
        for _ in range(1000):
            cl.set_dynamic_constant_buffer(0, data)

    benchmark.pedantic(thousand, rounds=20, warmup_rounds=2)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        benchmark.extra_info["ns/call (median round)"] = round(stats.stats.median / 1000 * 1e9)
    assert cl.upload_pages >= 1  # the constants went to upload memory the list holds


@pytest.mark.benchmark(group="dynamic constant buffer")
def test_dynamic_cb_in_cpp(benchmark):
    r = benchmark.pedantic(cpp_cb_ns, rounds=1, warmup_rounds=0)
    for k in ("allocate_ns", "set_dynamic_constant_buffer_ns", "native_set_root_cbv_ns"):
        benchmark.extra_info[k + " (min, median)"] = tuple(round(v, 1) for v in r[k])
    assert r["allocate_ns"][0] > 0


# ------------------------------------------------------------------------- script mode


def measure() -> dict:
    w = W1()
    w.verify()
    up, _ = g.median_and_times(w.upload)
    zc, _ = g.median_and_times(w.zero_copy)
    mc, _ = g.median_and_times(w.memcpy)
    fill = statistics.median([w.zero_copy_fill() for _ in range(5)])
    rb, _ = g.median_and_times(w.readback)
    assert np.array_equal(w.out, w.x)
    up1, _ = g.median_and_times(w.one_thread(w.upload))
    rb1, _ = g.median_and_times(w.one_thread(w.readback))
    assert np.array_equal(w.out, w.x)
    cpp = cpp_cb_ns()
    return {
        "upload": NB / up / MB, "zero_copy": NB / zc / MB, "memcpy": NB / mc / MB,
        "zero_copy_fill": NB / fill / MB, "readback": NB / rb / MB,
        "upload_1_thread": NB / up1 / MB, "readback_1_thread": NB / rb1 / MB, "cb_python_ns": python_cb_ns(),
        "cb_cpp_alloc_ns": cpp["allocate_ns"][0], "cb_cpp_call_ns": cpp["set_dynamic_constant_buffer_ns"][0],
        "cb_native_ns": cpp["native_set_root_cbv_ns"][0],
    }


PEER_SCRIPTS = ["memcpy.py", "wgpu_w1.py", "cs_w1.py", "mgl_all.py"]
# (label, script, regex for upload MB/s, regex for readback MB/s)
PEERS = [
    ("wgpu-py, queue.write_buffer/read_buffer", "wgpu_w1.py", r"wgpu idiomatic\s+upload\s+(\d+)", r"wgpu idiomatic.*readback\s+(\d+)"),
    ("wgpu-py, reused mapped staging", "wgpu_w1.py", r"wgpu staging\s+upload\s+(\d+)", r"wgpu staging.*readback\s+(\d+)"),
    ("compushady", "cs_w1.py", r"compushady upload\s+(\d+)", r"compushady upload.*readback\s+(\d+)"),
    ("moderngl", "mgl_all.py", r"moderngl W1 upload (\d+)", r"moderngl W1 .*readback (\d+)"),
]


def main() -> None:
    print("dx12kit upload benchmarks (W1: 64 MiB float32, medians of 5 per run)\n", flush=True)
    runs, outputs, adjacent = g.interleave(measure, PEER_SCRIPTS)
    ours = g.combine(*runs)
    print(f"\ndx12kit, median of {len(runs)} runs (MB/s): upload {ours['upload']:.0f}, zero-copy upload "
          f"{ours['zero_copy']:.0f}, readback {ours['readback']:.0f}; memcpy (np.copyto, warm) {ours['memcpy']:.0f}")
    print(f"host copies on {dx.copy_threads()} threads against one: upload {ours['upload'] / ours['upload_1_thread']:.2f}x "
          f"({ours['upload_1_thread']:.0f} MB/s on one), readback {ours['readback'] / ours['readback_1_thread']:.2f}x "
          f"({ours['readback_1_thread']:.0f} MB/s on one)")
    print(f"zero-copy fill (np.copyto into fresh upload memory) {ours['zero_copy_fill']:.0f} MB/s = "
          f"{ours['zero_copy_fill'] / ours['memcpy']:.2f} x memcpy; whole zero-copy upload = {ours['zero_copy'] / ours['memcpy']:.2f} x memcpy")
    print(f"dynamic constant buffer, 16 bytes: from Python {ours['cb_python_ns']:.0f} ns/call; in C++ "
          f"{ours['cb_cpp_alloc_ns']:.1f} ns allocation+copy, {ours['cb_cpp_call_ns']:.1f} ns whole SetDynamicConstantBuffer, "
          f"of which vkd3d's SetComputeRootConstantBufferView {ours['cb_native_ns']:.1f} ns (C++: min of 5 runs)")
    if outputs:
        rows = [("peer (W1, MB/s)", "peer up", "dx12kit up", "ratio", "peer read", "dx12kit read", "ratio")]
        for label, script, up_re, rb_re in PEERS:
            out, adj = outputs.get(script), adjacent.get(script, ours)
            pu, pr = g.find_rate(out, up_re), g.find_rate(out, rb_re)
            rows.append((label, f"{pu:.0f}" if pu else "-", f"{adj['upload']:.0f}", g.fmt_ratio(adj["upload"], pu),
                         f"{pr:.0f}" if pr else "-", f"{adj['readback']:.0f}", g.fmt_ratio(adj["readback"], pr)))
        print("\nside by side (dx12kit: mean of the runs just before and after that peer; ratio > 1: dx12kit faster)")
        print(g.table(rows))
        mem = g.find_rate(outputs.get("memcpy.py"), r"memcpy 64 MiB: .* (\d+) MB/s")
        if mem:
            print(f"peers' memcpy.py, 64 MiB: {mem:.0f} MB/s")
    g.print_runs_and_peers(runs, outputs, 16, "9.1f")


if __name__ == "__main__":
    main()
