"""The four peer workloads (W1-W4) on dx12kit, for ``python -m dx12kit bench`` and bench_peers.py.

Benchmark code, not part of the package: ``python -m dx12kit bench`` runs this file from a
source checkout, and ``python benchmarks/workloads.py`` does the same. The workloads use only the
public API. Comparing with other libraries (moderngl, wgpu-py, compushady) is bench_peers.py.

- W1: a 64 MiB float32 numpy array uploaded into a buffer and read back (``CommandQueue.read_buffer``,
  into a reused array and into a new one): MB/s each way. The upload is ``CommandQueue.write_buffer``
  + wait (as the peers' wgpu ``queue.write_buffer`` and moderngl ``Buffer.write``), and also
  ``CommandList.upload``, execute, wait ("W1 upload (list)").
- W2: 2,000 dispatches in one command list, each with its own 16-byte constants
  (``set_dynamic_constant_buffer``), then execute and wait: µs per dispatch.
- W3: y = a*x + y over 16M floats: upload x and y, one dispatch, read y back: ms in total.
- W4: a full-screen textured triangle into a 1024x1024 RGBA8 target, 100 frames (one execute each,
  nothing waited for until the end), then the last frame read back: ms per frame.

Every workload checks its result as the peers' scripts do (exact where they are exact).
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

MB = 1e6

W2_CS = """
cbuffer C : register(b0) { uint index; float value; float pad0; float pad1; };
RWStructuredBuffer<float> o : register(u0);
[numthreads(64, 1, 1)] void main(uint t : SV_GroupIndex) { o[index * 64 + t] = value + t; }
"""

W3_CS = """
cbuffer P : register(b0) { float a; };
StructuredBuffer<float> x : register(t0);
RWStructuredBuffer<float> y : register(u0);
[numthreads(256, 1, 1)]
void main(uint3 g : SV_DispatchThreadID) { uint i = g.y * 65536 + g.x; y[i] = a * x[i] + y[i]; }
"""

W4_VS = """
struct VO { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
VO main(uint i : SV_VertexID) {
    float2 p = float2((float)((i << 1) & 2), (float)(i & 2)) * 2.0 - 1.0;   // (-1,-1) (3,-1) (-1,3)
    VO o;
    o.pos = float4(p, 0, 1);
    o.uv = float2((p.x + 1.0) * 0.5, (1.0 - p.y) * 0.5);
    return o;
}
"""

W4_PS = """
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target { return tex.Sample(smp, uv); }
"""


def timed_runs(fn: Callable[[], object], reps: int = 5, warmup: int = 1) -> List[float]:
    """Wall times in seconds of `reps` calls of `fn` after `warmup` calls (the peers' `bench`)."""
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return ts


def median_time(fn: Callable[[], object], reps: int = 5, warmup: int = 1) -> float:
    """Median wall time in seconds of `reps` calls of `fn` after `warmup` calls."""
    return statistics.median(timed_runs(fn, reps, warmup))


class W1:
    """W1: upload and read back `mib` MiB of float32 (64 as the peers)."""

    def __init__(self, dev: Any, q: Any, mib: int = 64):
        self.q = q
        self.n = mib * 2**20 // 4
        self.x = np.random.default_rng(0).random(self.n, dtype=np.float32)
        self.buf = dev.create_buffer(self.n * 4, name="w1")
        self.dst = np.empty_like(self.x)
        np.copyto(self.dst, self.x)  # fault the memcpy destination in once
        self.out: Optional[np.ndarray] = None
        self.into = np.zeros_like(self.x)  # read_buffer(out=): as moderngl's read_into, compushady's readback(array)

    def upload(self) -> None:
        self.q.wait(self.q.write_buffer(self.buf, self.x))

    def upload_list(self) -> None:
        cl = self.q.command_list()
        cl.upload(self.buf, self.x)
        self.q.wait(self.q.execute(cl))

    def readback(self) -> None:
        self.out = self.q.read_buffer(self.buf, out=self.into)

    def readback_new_array(self) -> None:
        self.out = self.q.read_buffer(self.buf, dtype=np.float32)

    def memcpy(self) -> None:
        np.copyto(self.dst, self.x)

    def verify(self) -> None:
        for up in (self.upload, self.upload_list):
            self.x[:4] += 1.0  # new contents each time: a stale result cannot pass
            up()
            self.readback()
            assert self.out is not None and np.array_equal(self.out, self.x), "W1 upload/readback mismatch"

    def measure(self, reps: int = 5) -> Dict[str, float]:
        self.verify()
        nb = self.n * 4
        r = {"W1 upload MB/s": nb / median_time(self.upload, reps) / MB,
             "W1 upload (list) MB/s": nb / median_time(self.upload_list, reps) / MB,
             "W1 readback (new array) MB/s": nb / median_time(self.readback_new_array, reps) / MB,
             "W1 readback MB/s": nb / median_time(self.readback, reps) / MB,
             "memcpy MB/s": nb / median_time(self.memcpy, reps) / MB}
        assert self.out is not None and np.array_equal(self.out, self.x), "W1 readback mismatch"
        return r


class W2:
    """W2: `d` dispatches (2,000 as the peers), each writing value + t into its own 64 floats."""

    def __init__(self, dev: Any, q: Any, d: int = 2000):
        import dx12kit as dx

        self.q, self.d = q, d
        rs = dev.create_root_signature([dx.RootCBV(0), dx.RootUAV(0)])
        self.pso = dev.create_compute_pipeline(dx.compile_hlsl(W2_CS, profile="cs_5_0"), rs)
        self.out = dev.create_buffer(d * 64 * 4, uav=True, name="w2")
        self.run_no = 0

    def run(self) -> None:
        self.run_no += 1
        c = np.zeros((self.d, 4), np.float32)
        c.view(np.uint32)[:, 0] = np.arange(self.d)
        c[:, 1] = np.arange(self.d) * 1000 + self.run_no
        cl = self.q.command_list()
        cl.set_pipeline_state(self.pso)
        cl.set_root_uav(1, self.out)
        f, dispatch = cl.set_dynamic_constant_buffer, cl.dispatch
        for i in range(self.d):
            f(0, c[i])
            dispatch(1)
        self.q.wait(self.q.execute(cl))

    def verify(self) -> None:
        r = self.q.read_buffer(self.out, dtype=np.float32).reshape(self.d, 64)
        exp = (np.arange(self.d) * 1000 + self.run_no)[:, None] + np.arange(64)[None, :]
        assert np.array_equal(r, exp.astype(np.float32)), "W2 mismatch"

    def measure(self, reps: int = 5) -> Dict[str, float]:
        t = median_time(self.run, reps)
        self.verify()
        return {"W2 us/dispatch": t / self.d * 1e6}


class W3:
    """W3: saxpy over `n` floats (16M as the peers; a multiple of 65,536 x 256 workgroup rows)."""

    A = 2.5

    def __init__(self, dev: Any, q: Any, n: int = 16 * 2**20):
        import dx12kit as dx

        assert n % 65536 == 0, "rows of 65,536 threads (256 groups of 256), as the peers' shaders index"
        self.q, self.n = q, n
        rs = dev.create_root_signature([dx.RootConstants(0, 1), dx.RootSRV(0), dx.RootUAV(0)])
        self.pso = dev.create_compute_pipeline(dx.compile_hlsl(W3_CS, profile="cs_5_0"), rs)
        self.xb = dev.create_buffer(n * 4, name="w3_x")
        self.yb = dev.create_buffer(n * 4, uav=True, name="w3_y")
        rng = np.random.default_rng(3)
        self.x = rng.random(n, dtype=np.float32)
        self.y0 = rng.random(n, dtype=np.float32)
        self.out: Optional[np.ndarray] = None
        self.into = np.zeros_like(self.y0)
        self.grid = (256, n // 65536)

    def run(self) -> None:
        cl = self.q.command_list()
        cl.upload(self.xb, self.x)
        cl.upload(self.yb, self.y0)
        cl.set_pipeline_state(self.pso)
        cl.set_constants(0, [self.A])
        cl.set_root_srv(1, self.xb)
        cl.set_root_uav(2, self.yb)
        cl.dispatch(*self.grid)
        self.q.execute(cl)  # read_buffer waits for it
        self.out = self.q.read_buffer(self.yb, out=self.into)

    def verify(self) -> None:
        exp = np.float32(self.A) * self.x + self.y0
        assert self.out is not None and np.allclose(self.out, exp, rtol=1e-6, atol=1e-6), "W3 mismatch"

    def measure(self, reps: int = 5) -> Dict[str, float]:
        t = median_time(self.run, reps)
        self.verify()
        return {"W3 ms": t * 1e3}


class W4:
    """W4: a full-screen textured triangle into a `size`² RGBA8 target (1024 as the peers), `frames` frames."""

    def __init__(self, dev: Any, q: Any, size: int = 1024, tex_size: int = 256, frames: int = 100):
        import dx12kit as dx

        self.q, self.size, self.frames = q, size, frames
        rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)], visibility="pixel")],
                                       static_samplers=[dx.StaticSampler(0, filter="point", address="clamp")])
        self.pso = dev.create_graphics_pipeline(dx.compile_hlsl(W4_VS, profile="vs_5_0"), dx.compile_hlsl(W4_PS, profile="ps_5_0"),
                                                rs, rtv_formats=["rgba8_unorm"])
        self.img = np.random.default_rng(4).integers(0, 256, (tex_size, tex_size, 4), np.uint8)
        self.tex = dev.create_texture2d(tex_size, tex_size, "rgba8_unorm", name="w4_tex")
        self.rt = dev.create_texture2d(size, size, "rgba8_unorm", render_target=True, name="w4_rt")
        cl = q.command_list()
        cl.upload(self.tex, self.img)
        q.wait(q.execute(cl))
        self.out: Optional[np.ndarray] = None

    def frame(self) -> int:
        cl = self.q.command_list()
        cl.set_pipeline_state(self.pso)
        cl.set_render_targets([self.rt])
        cl.clear_render_target(self.rt, [0.0, 0.0, 0.0, 1.0])
        cl.set_shader_resource_view(0, 0, self.tex)
        cl.draw(3)
        return int(self.q.execute(cl))

    def run(self) -> None:
        for _ in range(self.frames):
            self.frame()
        self.out = self.q.read_texture(self.rt)

    def verify(self) -> None:
        k = self.size // self.img.shape[0]
        exp = np.repeat(np.repeat(self.img, k, 0), k, 1)
        assert self.out is not None and np.array_equal(self.out.reshape(exp.shape), exp), "W4 mismatch"

    def measure(self, reps: int = 5) -> Dict[str, float]:
        t = median_time(self.run, reps)
        self.verify()
        return {"W4 ms/frame": t / self.frames * 1e3}


WORKLOADS = ("W1", "W2", "W3", "W4")


def make(dev: Any, q: Any, name: str, small: bool = False) -> Any:
    """Workload `name` set up on `dev` and its direct queue `q`; `small` gives sizes fit for a test."""
    if name == "W1":
        return W1(dev, q, mib=1 if small else 64)
    if name == "W2":
        return W2(dev, q, d=64 if small else 2000)
    if name == "W3":
        return W3(dev, q, n=65536 if small else 16 * 2**20)
    if name == "W4":
        return W4(dev, q, size=256 if small else 1024, tex_size=64 if small else 256, frames=3 if small else 100)
    raise ValueError(f"unknown workload {name!r} (one of {', '.join(WORKLOADS)})")


def fence_thread_cpu_seconds() -> Optional[float]:
    """CPU time (user + system, seconds) of this process's vkd3d fence threads (Linux, /proc), or None."""
    total, found = 0.0, False
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    for t in tasks:
        try:
            with open(f"/proc/self/task/{t}/stat") as f:
                s = f.read()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        if not name.startswith("vkd3d_fence"):
            continue
        fields = s[s.rindex(")") + 2:].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14, 15 of stat)
        found = True
    return total if found else None


def measure_all(dev: Any, q: Any, names: Tuple[str, ...] = WORKLOADS, reps: int = 5,
                progress: Optional[Callable[[str], None]] = None) -> Dict[str, float]:
    """Runs the workloads `names` once each (medians of `reps`), with the fence thread's CPU seconds per workload."""
    out: Dict[str, float] = {}
    for n in names:
        w = make(dev, q, n)
        f0, t0 = fence_thread_cpu_seconds(), time.perf_counter()
        out.update(w.measure(reps))
        f1, t1 = fence_thread_cpu_seconds(), time.perf_counter()
        if f0 is not None and f1 is not None:
            out[f"{n} fence-thread CPU %"] = 100.0 * (f1 - f0) / (t1 - t0)
        if progress:
            progress(f"{n}: " + ", ".join(f"{k} {v:.2f}" for k, v in out.items() if k.startswith(n)))
        del w
    return out


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m dx12kit bench [W1 W2 ...] [--runs N]``: dx12kit's figures on this machine."""
    import argparse

    import dx12kit as dx

    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())  # quiets Mesa/Vulkan loader warnings
    p = argparse.ArgumentParser(prog="python -m dx12kit bench", description=__doc__.split("\n\n")[0])
    p.add_argument("workloads", nargs="*", default=list(WORKLOADS), help="any of W1 W2 W3 W4 (default: all)")
    p.add_argument("--runs", type=int, default=3, help="runs of each workload (medians of 5 each); the median is printed")
    a = p.parse_args(argv)
    dev = dx.Device()  # default settings (uma_direct on cache-coherent UMA; docs/performance.rst)
    q = dev.queue("direct")
    print(f"dx12kit {dx.__version__ if hasattr(dx, '__version__') else ''} on {dev.info.get('adapter')} "
          f"({dev.info.get('backend')}); load average {os.getloadavg() if hasattr(os, 'getloadavg') else '-'}", flush=True)
    runs = [measure_all(dev, q, tuple(a.workloads), progress=lambda s: print("  " + s, flush=True)) for _ in range(a.runs)]
    print()
    for k in runs[0]:
        print(f"{k:28s} {statistics.median(r[k] for r in runs):10.2f}   (runs: {' '.join(f'{r[k]:.2f}' for r in runs)})")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
