"""W4's clear on vkd3d 1.2: is clearing inside the draw's render pass cheaper?

vkd3d 1.2 runs every ClearRenderTargetView as a render pass of its own; the D3D12 API gives no way
to fold it into the next draw's pass as a load op, so the one in-pass alternative is a clear draw (a
full-screen triangle of the clear colour, drawn with its own pipeline before the textured one). This
script runs W4's frame three ways on one device, alternating, and checks that the pixels agree:

- ``clear``: clear_render_target + textured draw (what W4 does; dx12kit records the clear as given);
- ``cleardraw``: a solid full-screen draw + textured draw (one render pass);
- ``none``: the textured draw alone (W4's triangle covers every pixel);
- ``batched``: W4's frames (clear + draw, a list each), all executed by one ``execute([...])``;
- ``onelist``: every frame's textured draw in one list (targets and view set once), no clear.

The last two show where lavapipe (Mesa 22.3) cuts its binned scenes: ``batched`` costs as much as
``clear`` (each list's render pass is a scene of its own, even in one ExecuteCommandLists), while
``onelist`` is several times faster (one scene, in which llvmpipe drops the commands an opaque
full-tile draw overwrites). GL without a flush bins many frames into one scene, which is the gap
``benchmarks/w4_cpu.py`` measures against moderngl with and without a flush per frame.

``python benchmarks/w4_clear.py [rounds]`` prints ms per frame (100 frames per run, medians).
Measured 2026-11-25 (docs/performance.rst): clear 3.35 / cleardraw 3.32 / none 2.99 ms per frame (7 rounds),
4.41 / 4.38 / 3.80 (15 rounds, busier machine): the clear draw saves nothing measurable, so
dx12kit keeps recording clears as clears.
"""
from __future__ import annotations

import statistics
import sys
import time
from typing import Any, Dict, List

import numpy as np

import workloads as b

SOLID_VS = """float4 main(uint i : SV_VertexID) : SV_Position {
    float2 p = float2((float)((i << 1) & 2), (float)(i & 2)) * 2.0 - 1.0; return float4(p, 0, 1); }"""
SOLID_PS = "float4 main(float4 pos : SV_Position) : SV_Target { return float4(0, 0, 0, 1); }"
MODES = ("clear", "cleardraw", "none", "batched", "onelist")


def main(rounds: int = 7, frames: int = 100, size: int = 1024) -> Dict[str, List[float]]:
    """Runs the three modes alternating after checking that their pixels agree; prints and returns the times.

    Args:
        rounds: alternating rounds (each runs every mode once).
        frames: frames per mode and round (100 in the measurements quoted above).
        size: the render target's width and height (W4's 1024; the smoke test uses a small one).

    Returns:
        Per mode, the ms per frame of each round.
    """
    import dx12kit as dx

    dev = dx.Device()
    q = dev.queue()
    w = b.W4(dev, q, size=size)
    solid = dev.create_graphics_pipeline(dx.compile_hlsl(SOLID_VS, profile="vs_5_0"), dx.compile_hlsl(SOLID_PS, profile="ps_5_0"),
                                         dev.create_root_signature([]), rtv_formats=["rgba8_unorm"])

    def record(mode: str, cl: Any = None) -> Any:
        cl = cl or q.command_list()
        cl.set_render_targets([w.rt])
        if mode in ("clear", "batched"):
            cl.clear_render_target(w.rt, [0.0, 0.0, 0.0, 1.0])
        elif mode == "cleardraw":
            cl.set_pipeline_state(solid)
            cl.draw(3)
        cl.set_pipeline_state(w.pso)
        cl.set_shader_resource_view(0, 0, w.tex)
        cl.draw(3)
        return cl

    def run(mode: str, count: int = frames) -> np.ndarray:
        if mode == "batched":
            q.execute([record(mode) for _ in range(count)])
        elif mode == "onelist":  # targets set once: vkd3d begins a new render pass at every set_render_targets
            cl = record("none")
            for _ in range(count - 1):
                cl.draw(3)
            q.execute(cl)
        else:
            for _ in range(count):
                q.execute(record(mode))
        return q.read_texture(w.rt)

    ref = run("clear", 3)
    if ref.std() == 0:
        raise RuntimeError("w4_clear: the textured frame is one flat colour (the draw did not run)")
    for m in MODES:
        if not np.array_equal(run(m, 3), ref):
            raise RuntimeError(f"w4_clear: mode {m!r} gives other pixels than 'clear'")
    times: Dict[str, List[float]] = {m: [] for m in MODES}
    for _ in range(rounds):
        for m in MODES:
            t = time.perf_counter()
            run(m)
            times[m].append((time.perf_counter() - t) * 1e3 / frames)
    print(f"pixels identical in all modes; ms per frame, medians of {rounds} alternating rounds:")
    for m, v in times.items():
        print(f"  {m:10s} {statistics.median(v):.2f}   ({' '.join(f'{x:.2f}' for x in v)})")
    return times


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
