"""W4 (1024² textured frames, clear + draw, 100 frames) on dx12kit and moderngl: wall and CPU time per frame.

Wall time on the shared 2-core machine swings 2x between runs (load ~20); the CPU time the process
spends per frame (all its threads: the caller, lavapipe's/llvmpipe's rasteriser threads, vkd3d's fence
thread) moves far less, since waiting for the cores is not counted. Each side runs in its own
process (dx12kit with this Python, moderngl with the peers' Python, see bench_peers.py), the two
alternating, and every run checks its pixels as W4 does. Per run: wall ms per frame, CPU ms per
frame (``time.process_time``), and for dx12kit the vkd3d fence thread's CPU ms per frame.

A third side, ``moderngl-flush``, is moderngl with a ``glFlush`` after every frame, as a GL program
that presents each frame does (``SwapBuffers`` flushes). It is the like-for-like peer of a D3D12
frame: on lavapipe each command list's render pass is rasterised as a scene of its own, so dx12kit
(like wgpu-py) renders one scene per frame, while GL without a flush bins many frames into one
llvmpipe scene and draws each 64x64 tile for all of them while it is in cache. ``--no-clear`` drops
the clear on every side (it shows the draws alone).

``python benchmarks/w4_cpu.py [rounds] [--no-clear]`` prints the medians; ``--side
dx12kit|moderngl|moderngl-flush [--no-clear]`` runs one side once (what the driver starts) and
prints one JSON line.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
FRAMES, RUNS = 100, 3

MGL_VS = """#version 430
out vec2 uv;
void main() { vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
  uv = vec2((p.x + 1.0) * 0.5, (1.0 - p.y) * 0.5); gl_Position = vec4(p, 0.0, 1.0); }"""
MGL_FS = """#version 430
uniform sampler2D tex; in vec2 uv; out vec4 c;
void main() { c = texture(tex, uv); }"""


def _time_runs(run, frames: int, extra=None) -> Dict[str, List[float]]:
    out: Dict[str, List[float]] = {"wall": [], "cpu": [], "fence": []}
    run()  # warm-up
    for _ in range(RUNS):
        f0 = extra() if extra else None
        t, c = time.perf_counter(), time.process_time()
        run()
        out["wall"].append((time.perf_counter() - t) * 1e3 / frames)
        out["cpu"].append((time.process_time() - c) * 1e3 / frames)
        if f0 is not None:
            out["fence"].append((extra() - f0) * 1e3 / frames)
    return out


def side_dx12kit(clear: bool = True) -> Dict[str, List[float]]:
    import dx12kit as dx

    sys.path.insert(0, str(HERE))
    import workloads as b

    dev = dx.Device()
    w = b.W4(dev, dev.queue("direct"), frames=FRAMES)

    import numpy as np

    k = w.size // w.img.shape[0]
    exp = np.repeat(np.repeat(w.img, k, 0), k, 1)  # once, as the moderngl side (W4.verify builds it each call)

    def run() -> None:
        if clear:
            w.run()
        else:
            for _ in range(w.frames):
                cl = w.q.command_list()
                cl.set_pipeline_state(w.pso)
                cl.set_render_targets([w.rt])
                cl.set_shader_resource_view(0, 0, w.tex)
                cl.draw(3)
                w.q.execute(cl)
            w.out = w.q.read_texture(w.rt)
        assert w.out is not None and np.array_equal(w.out.reshape(exp.shape), exp), "dx12kit W4 mismatch"

    r = _time_runs(run, FRAMES, b.fence_thread_cpu_seconds)
    r["signals_per_frame"] = [dev.stats()["submissions"]["signals"] / ((RUNS + 1) * FRAMES + 1)]
    return r


def side_moderngl(clear: bool = True, flush: bool = False) -> Dict[str, List[float]]:
    import ctypes

    import moderngl
    import numpy as np

    ctx = moderngl.create_standalone_context(backend="egl", require=430)
    gl_flush = ctypes.CDLL("libGL.so.1").glFlush  # moderngl has finish() only; a flush does not wait
    size, t = 1024, 256
    prog = ctx.program(vertex_shader=MGL_VS, fragment_shader=MGL_FS)
    img = np.random.randint(0, 256, (t, t, 4), np.uint8)
    tex = ctx.texture((t, t), 4, img.tobytes())
    tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
    tex.use(0)
    fbo = ctx.simple_framebuffer((size, size), components=4)
    fbo.use()
    vao = ctx.vertex_array(prog, [])
    exp = np.repeat(np.repeat(img, size // t, 0), size // t, 1)

    def run() -> None:
        for _ in range(FRAMES):
            if clear:
                fbo.clear(0, 0, 0, 1)
            vao.render(moderngl.TRIANGLES, vertices=3)
            if flush:
                gl_flush()
        got = np.frombuffer(fbo.read(components=4), np.uint8).reshape(size, size, 4)
        assert np.array_equal(got, exp) or np.array_equal(got[::-1], exp), "moderngl W4 mismatch"

    return _time_runs(run, FRAMES)


def main(rounds: int, clear: bool = True) -> int:
    import _gpu_common as g

    env = {**os.environ, "XDG_RUNTIME_DIR": os.environ.get("XDG_RUNTIME_DIR", tempfile.gettempdir())}
    sides = {"dx12kit": sys.executable}
    peers = g.peers_python()
    if peers is not None:
        sides["moderngl"] = sides["moderngl-flush"] = str(peers)
    res: Dict[str, Dict[str, List[float]]] = {s: {} for s in sides}
    load0 = os.getloadavg()
    for r in range(rounds):
        for side, py in sides.items():
            p = subprocess.run([py, __file__, "--side", side] + ([] if clear else ["--no-clear"]), capture_output=True, text=True, env=env, timeout=900)
            line = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
            if p.returncode or not line:
                raise RuntimeError(f"w4_cpu: {side} failed ({p.returncode}): {p.stderr[-2000:]}")
            for k, v in json.loads(line[-1]).items():
                res[side].setdefault(k, []).extend(v)
            print(f"  round {r + 1} {side}: " + ", ".join(f"{k} {statistics.median(v):.3f}" for k, v in json.loads(line[-1]).items() if v),
                  flush=True)
    print(f"\nW4{'' if clear else ' without the clear'}, {rounds} alternating rounds x {RUNS} runs of {FRAMES} frames (medians over runs); load average "
          f"{' '.join(f'{v:.1f}' for v in load0)} at start, {' '.join(f'{v:.1f}' for v in os.getloadavg())} at end")
    print(f"{'side':14s} {'wall ms/frame':>14s} {'CPU ms/frame':>13s} {'fence thread CPU ms/frame (median, mean)':>42s}")
    for side, v in res.items():
        fence = f"{statistics.median(v['fence']):.3f}, {statistics.mean(v['fence']):.3f}" if v.get("fence") else "-"
        print(f"{side:14s} {statistics.median(v['wall']):14.2f} {statistics.median(v['cpu']):13.2f} {fence:>42s}")
    for peer in ("moderngl", "moderngl-flush"):
        if peer in res:
            d, m = res["dx12kit"], res[peer]
            print(f"dx12kit vs {peer} (>1: dx12kit faster): wall {statistics.median(m['wall']) / statistics.median(d['wall']):.2f}x, "
                  f"CPU {statistics.median(m['cpu']) / statistics.median(d['cpu']):.2f}x")
    return 0


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="W4 on dx12kit and moderngl: wall and CPU ms per frame")
    ap.add_argument("rounds", nargs="?", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--side", choices=("dx12kit", "moderngl", "moderngl-flush"), help="run one side once, print JSON")
    ap.add_argument("--no-clear", action="store_true", help="draw without the clear on every side")
    a = ap.parse_args()
    if a.side:
        one = side_dx12kit(not a.no_clear) if a.side == "dx12kit" else side_moderngl(not a.no_clear, a.side == "moderngl-flush")
        print(json.dumps(one))
        sys.exit(0)
    sys.exit(main(a.rounds, not a.no_clear))
