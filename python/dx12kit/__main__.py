"""Command line: ``python -m dx12kit info``, ``python -m dx12kit demo [--out PATH] [--size N] [--heap-map PNG]``,
``python -m dx12kit memory-map DUMP.json -o OUT.png`` and ``python -m dx12kit bench [W1 ...] [--runs N] [--peers]``."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

PLASMA_CS = """
cbuffer Params : register(b0) { float time; uint size; };
RWTexture2D<float4> img : register(u0);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= size || id.y >= size) return;
    float2 p = (float2(id.xy) / size) * 2.0 - 1.0;
    // a Mandelbrot set, coloured by escape time
    float2 c = p * 1.3 - float2(0.55, 0.0);
    float2 z = float2(0, 0);
    uint i = 0;
    for (i = 0; i < 96; ++i) {
        z = float2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        if (dot(z, z) > 16.0) break;
    }
    float t = i / 96.0;
    float3 col = 0.5 + 0.5 * cos(6.2831 * (float3(0.0, 0.33, 0.67) + t * 3.0 + time));
    img[id.xy] = float4(i == 96 ? float3(0.02, 0.02, 0.05) : col, 1.0);
}
"""

QUAD_VS = """
struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
cbuffer Xform : register(b0) { float angle; float scale; };
VSOut main(uint id : SV_VertexID) {
    float2 corners[6] = { float2(-1,-1), float2(-1,1), float2(1,-1), float2(1,-1), float2(-1,1), float2(1,1) };
    float2 p = corners[id];
    VSOut o;
    float s = sin(angle), c = cos(angle);
    o.pos = float4(float2(p.x * c - p.y * s, p.x * s + p.y * c) * scale, 0, 1);
    o.uv = p * float2(0.5, -0.5) + 0.5;
    return o;
}
"""

QUAD_PS = """
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    float4 c = tex.Sample(smp, uv);
    return float4(c.rgb, 0.85);
}
"""


def setup(force: bool) -> int:
    """``python -m dx12kit setup``: makes sure an HLSL compiler is there. Reports the one found, or
    fetches vkd3d-compiler into the per-user prefix (see dx12kit/_compiler_setup.py)."""
    from . import shaders
    from ._compiler_setup import CompilerSetupError, fetch_compiler

    if not force:
        try:
            exe = shaders.find_compiler()
            print(f"HLSL compiler found: {exe} ({shaders.compiler_version(exe)})")
            return 0
        except Exception:  # Dx12Error: none found; fetch one below
            pass
    try:
        fetch_compiler()
    except CompilerSetupError as e:
        print(f"dx12kit setup: {e}", file=sys.stderr)
        return 1
    shaders._forget_compiler()
    print(f"HLSL compiler ready: {shaders.find_compiler()}")
    return 0


def info() -> int:
    import dx12kit

    dev = dx12kit.Device()
    for k, v in dev.info.items():
        print(f"{k:24} {v}")
    print(f"{'hlsl_compiler':24} {dx12kit.find_compiler()}")
    return 0


def demo(out: Path, size: int, heap_map: "Path | None" = None) -> int:
    import dx12kit as dx
    from .images import save_image

    t0 = time.perf_counter()
    dev = dx.Device()
    q = dev.queue()
    # Compute pass: a Mandelbrot image into a UAV texture.
    cs = dx.compile_hlsl(PLASMA_CS, profile="cs_5_0")
    crs = dev.create_root_signature([dx.RootConstants(0, 2), dx.DescriptorTable([dx.UAV(0)])])
    compute = dev.create_compute_pipeline(cs, crs)
    # Render pass: the image drawn as two rotated, alpha-blended quads with a linear sampler.
    vs = dx.compile_hlsl(QUAD_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(QUAD_PS, profile="ps_5_0")
    grs = dev.create_root_signature([dx.RootConstants(0, 2, visibility="vertex"), dx.DescriptorTable([dx.SRV(0)], visibility="pixel")],
                                    static_samplers=[dx.StaticSampler(0, filter="linear", address="clamp")])
    graphics = dev.create_graphics_pipeline(vs, ps, grs, rtv_formats=["rgba8_unorm"], blend="alpha")
    t_setup = time.perf_counter()

    image = dev.create_texture2d(size, size, "rgba8_unorm", uav=True, name="mandelbrot")
    target = dev.create_texture2d(size, size, "rgba8_unorm", render_target=True, name="target")
    cl = q.command_list()
    cl.set_pipeline_state(compute)
    cl.set_constants(0, [0.0, size])
    cl.set_unordered_access_view(1, 0, image)
    cl.dispatch((size + 7) // 8, (size + 7) // 8)
    cl.set_pipeline_state(graphics)            # no barriers written: the tracker moves image UAV -> SRV
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0.08, 0.08, 0.12, 1.0])
    cl.set_shader_resource_view(1, 0, image)
    for angle, scale in [(0.0, 0.95), (0.35, 0.6)]:
        cl.set_constants(0, [angle, scale])
        cl.draw(6)
    q.wait(q.execute(cl))
    t_gpu = time.perf_counter()
    pixels = q.read_texture(target)
    save_image(out, pixels)
    t_end = time.perf_counter()
    print(f"wrote {out.resolve()} ({size}x{size}) on {dev.info['adapter']} via {dev.info['backend']}")
    print(f"setup (device, shaders, pipelines) {1e3 * (t_setup - t0):.1f} ms, "
          f"compute + render {1e3 * (t_gpu - t_setup):.1f} ms, readback + png {1e3 * (t_end - t_gpu):.1f} ms, "
          f"total {1e3 * (t_end - t0):.1f} ms")
    m = dev.memory_stats()["total"]
    print(f"GPU memory: {m['block_count']} blocks, {m['block_bytes'] / 2**20:.1f} MiB, "
          f"{m['allocation_count']} allocations, {m['allocation_bytes'] / 2**20:.1f} MiB")
    if heap_map is not None:
        dx.memory.heap_map(dev, heap_map)
        print(f"wrote {heap_map.resolve()} (heap map)")
    return 0


def memory_map(dump: Path, out: Path) -> int:
    from .memory import heap_map

    try:
        text = dump.read_text(encoding="utf-8")
    except OSError as e:
        print(f"memory-map: cannot read {dump}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        heap_map(text, out)
    except ValueError as e:  # json.JSONDecodeError is a ValueError
        print(f"memory-map: {dump} is not a dx12kit memory dump: {e}", file=sys.stderr)
        return 2
    print(f"wrote {out.resolve()}")
    return 0


def bench(rest: "list[str]") -> int:
    """``python -m dx12kit bench``: dx12kit's W1-W4 figures (dx12kit/workloads.py); with ``--peers``, from a
    source checkout (the current directory), benchmarks/bench_peers.py's table beside moderngl and wgpu-py."""
    if "--peers" in rest:
        script = Path.cwd() / "benchmarks" / "bench_peers.py"
        if not script.exists():
            print("bench --peers: run it from a dx12kit source checkout (benchmarks/bench_peers.py not found)", file=sys.stderr)
            return 2
        import runpy

        sys.path.insert(0, str(script.parent))
        sys.argv = [str(script)] + [a for a in rest if a != "--peers"]
        runpy.run_path(str(script), run_name="__main__")
        return 0
    from .workloads import main as bench_main

    return bench_main(rest)


def main(argv: "list[str] | None" = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["bench"]:
        return bench(args_in[1:])
    p = argparse.ArgumentParser(prog="python -m dx12kit", description="dx12kit command line")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("info", help="print the device info")
    s = sub.add_parser("setup", help="fetch the HLSL compiler (vkd3d-compiler) into the per-user prefix if none is found")
    s.add_argument("--force", action="store_true", help="fetch even when a compiler is found")
    d = sub.add_parser("demo", help="render a compute-generated image with a render pass and write a PNG")
    d.add_argument("--out", type=Path, default=Path("dx12kit-demo.png"))
    d.add_argument("--size", type=int, default=256)
    d.add_argument("--heap-map", type=Path, default=None, help="also draw the device's memory heaps into this PNG")
    mm = sub.add_parser("memory-map", help="draw a Device.memory_json() dump as a PNG heap map")
    mm.add_argument("dump", type=Path, help="a JSON file written from Device.memory_json()")
    mm.add_argument("-o", "--out", type=Path, default=Path("heap-map.png"))
    sub.add_parser("bench", help="W1-W4 speed on this machine ([W1 ...] [--runs N]; --peers: beside moderngl/wgpu-py, from a checkout)")
    args = p.parse_args(argv)
    if args.cmd == "setup":
        return setup(args.force)
    if args.cmd == "info":
        return info()
    if args.cmd == "memory-map":
        return memory_map(args.dump, args.out)
    return demo(args.out, args.size, args.heap_map)


if __name__ == "__main__":
    sys.exit(main())
