"""W4 (1024² textured frames: clear + draw) on dx12kit and moderngl: instructions per frame, per thread.

Wall and CPU time of W4 on the shared 2-core machine move more between runs than dx12kit and
moderngl differ (``w4_cpu.py``); instruction counts do not. Each side runs under
``valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes`` in its own process (dx12kit
with this Python, moderngl with the peers' Python, see bench_peers.py), draws 3 frames untimed, then
counts F frames and the final readback between ``dx12kit_bench.callgrind_start`` / ``callgrind_stop``
(the moderngl side loads the benchmark module too, for its client requests only). Printed per side:
instructions per frame of the calling thread, of the two rasteriser threads (llvmpipe's, the two
busiest) and of every other thread that ran, each apart: on the dx12kit side lavapipe's queue thread
(it executes the submitted command buffers) and vkd3d's fence thread, whose polling while two
signals are pending depends on timing, so on valgrind's slowness (its real-run CPU is
``w4_cpu.py``'s fence column).

``python benchmarks/callgrind_w4.py [F] [--no-clear]`` (F = 10 by default; each side takes a few
minutes under valgrind). ``--no-clear`` leaves the clear out on both sides (the draws alone).
"""
from __future__ import annotations

import glob
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
MARK = "DX12KIT_CALLGRIND_W4_CHILD"


def child(side: str, frames: int, clear: bool) -> None:
    sys.path.insert(0, str(HERE))
    if side == "moderngl":
        sys.path.append(os.environ[MARK])  # dx12kit's site-packages, after the peers' own (their numpy first)
    import _native

    cg = _native.require()
    if side == "moderngl":
        import moderngl
        import numpy as np
        from w4_cpu import MGL_FS, MGL_VS

        ctx = moderngl.create_standalone_context(backend="egl", require=430)
        prog = ctx.program(vertex_shader=MGL_VS, fragment_shader=MGL_FS)
        img = np.random.randint(0, 256, (256, 256, 4), np.uint8)
        tex = ctx.texture((256, 256), 4, img.tobytes())
        tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
        tex.use(0)
        fbo = ctx.simple_framebuffer((1024, 1024), components=4)
        fbo.use()
        vao = ctx.vertex_array(prog, [])

        def run(n: int) -> None:
            for _ in range(n):
                if clear:
                    fbo.clear(0, 0, 0, 1)
                vao.render(moderngl.TRIANGLES, vertices=3)
            fbo.read(components=4)
    else:
        import dx12kit as dx
        import workloads as b

        dev = dx.Device()
        w = b.W4(dev, dev.queue("direct"), frames=frames)
        if not clear:
            def frame() -> int:
                cl = w.q.command_list()
                cl.set_pipeline_state(w.pso)
                cl.set_render_targets([w.rt])
                cl.set_shader_resource_view(0, 0, w.tex)
                cl.draw(3)
                return int(w.q.execute(cl))
            w.frame = frame  # type: ignore[method-assign]

        def run(n: int) -> None:
            w.frames = n
            w.run()
    run(3)
    if not cg.callgrind_start():
        sys.exit("callgrind_w4.py: callgrind client requests do not work (dx12kit_bench built without <valgrind/callgrind.h>)")
    run(frames)
    cg.callgrind_stop(f"{side} W4")


def thread_totals(prefix: str) -> Dict[int, int]:
    """Instructions per thread number in the dumps callgrind wrote under `prefix`."""
    out: Dict[int, int] = {}
    for f in glob.glob(prefix + "*"):
        text = Path(f).read_text(errors="replace")
        th, tot = re.search(r"^thread: (\d+)", text, re.M), re.search(r"^totals: (\d+)", text, re.M)
        if th and tot:
            out[int(th.group(1))] = out.get(int(th.group(1)), 0) + int(tot.group(1))
    return out


def measure(side: str, python: str, frames: int, clear: bool) -> Tuple[int, int, List[int]]:
    """(calling thread, the two rasteriser threads, [each other thread]) instructions per frame."""
    site = next(p for p in sys.path if p.endswith("site-packages"))
    env = {**os.environ, MARK: site, "XDG_RUNTIME_DIR": os.environ.get("XDG_RUNTIME_DIR", tempfile.gettempdir())}
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "cg")
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes", f"--callgrind-out-file={prefix}.%p",
               python, str(Path(__file__).resolve()), "--child", side, str(frames), "clear" if clear else "none"]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        totals = thread_totals(prefix)
        if p.returncode or not totals:
            raise RuntimeError(f"callgrind_w4.py: {side} failed ({p.returncode}): {p.stderr[-1500:]}")
        main_t = totals.pop(1, 0)
        rest = sorted((v for v in totals.values() if v), reverse=True)
        return main_t // frames, sum(rest[:2]) // frames, [v // frames for v in rest[2:]]


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    frames = int(args[0]) if args else 10
    clear = "--no-clear" not in sys.argv
    sys.path.insert(0, str(HERE))
    import _gpu_common as g

    sides = {"dx12kit": sys.executable}
    peers = g.peers_python()
    if peers is None:
        print("(no peers venv: set DX12KIT_PEERS_PYTHON; dx12kit alone)")
    else:
        sides["moderngl"] = str(peers)
    with ThreadPoolExecutor(max_workers=2) as pool:
        res = dict(zip(sides, pool.map(lambda s: measure(s, sides[s], frames, clear), sides)))
    print(f"W4 {'clear + draw' if clear else 'draw alone'}, {frames} frames + one readback, instructions per frame (callgrind)")
    print(f"{'side':10s} {'calling thread':>15s} {'rasterisers':>12s} {'sum':>12s}   other threads, each")
    for side, (m, r, others) in res.items():
        print(f"{side:10s} {m:15,d} {r:12,d} {m + r:12,d}   {', '.join(f'{o:,d}' for o in others) or '-'}")
    return 0


if __name__ == "__main__":
    if os.environ.get(MARK) and len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "clear")
        sys.exit(0)
    sys.exit(main())
