"""Per-call recording costs of dx12kit's C++ CommandList beside raw D3D12.

Each kind runs ``dx12kit_bench.compare_calls``: one recording loop through dx12kit's C++ CommandList
and one making the same native calls by hand (the raw D3D12 a C++ application would write: no
state tracking, no checks), on the same device, in the same run, alternating, 5 rounds of
N iterations each; lists are never executed (recording cost only). Printed as ns per iteration and
the ratio dx12kit / raw (1.00 = as cheap as raw).

- ``draw``: 4 root constants + DrawInstanced(3);
- ``root_constants``: the 4 root constants alone;
- ``descriptor_table``: an SRV written into a one-descriptor table + draw (dx12kit stages it and
  copies it into its shader-visible heap at the draw; raw: CopyDescriptorsSimple +
  SetGraphicsRootDescriptorTable + DrawInstanced);
- ``dispatch``: 4 root constants + Dispatch(1) (UAV barriers off in dx12kit: raw records none);
- ``dynamic_cb``: 16 bytes of constants through upload memory + root CBV + Dispatch(1) (raw: a
  bump pointer in one upload region);
- ``transitions``: copies back and forth between two buffers, each copy moving both between
  COPY_SOURCE and COPY_DEST (dx12kit's tracker; raw: ResourceBarrier with the two by hand).

The Python-side figures (instructions per draw from Python, from draw_many and raw) come from
``benchmarks/callgrind_calls.py``. Run ``pytest benchmarks/bench_calls.py`` or
``python benchmarks/bench_calls.py`` (prints the table).
"""
from __future__ import annotations

import functools

import numpy as np
import pytest

import _gpu_common as g
import _native

_bench = _native.require()

N = 5000
KINDS = ["draw", "root_constants", "descriptor_table", "dispatch", "dynamic_cb", "transitions"]

FULL_VS = """
struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
VSOut main(uint id : SV_VertexID) {
    VSOut o;
    o.uv = float2((id << 1) & 2, id & 2);
    o.pos = float4(o.uv * float2(2, -2) + float2(-1, 1), 0, 1);
    return o;
}
"""
TEXTURED_PS = """
cbuffer Tint : register(b0) { float4 tint; };
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target { return tex.Sample(smp, uv) * tint; }
"""
WRITE_CS = """
cbuffer C : register(b0) { uint4 v; };
RWStructuredBuffer<uint> outbuf : register(u0);
[numthreads(1, 1, 1)]
void main() { outbuf[v.x % 64] = v.y; }
"""


@functools.lru_cache(maxsize=None)
def setups():
    """(pipeline, resources) per kind, on the benchmarks' shared device."""
    import dx12kit as dx

    dev, q = g.device()
    rs = dev.create_root_signature([dx.RootConstants(0, 4), dx.DescriptorTable([dx.SRV(0)])],
                                   static_samplers=[dx.StaticSampler(0, filter="point", address="clamp")])
    gpso = dev.create_graphics_pipeline(dx.compile_hlsl(FULL_VS, profile="vs_5_0"), dx.compile_hlsl(TEXTURED_PS, profile="ps_5_0"),
                                        rs, rtv_formats=["rgba8_unorm"])
    crs = dev.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    cpso = dev.create_compute_pipeline(dx.compile_hlsl(WRITE_CS, profile="cs_5_0"), crs)
    rt = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="bench_rt")
    tex = dev.create_texture2d(64, 64, "rgba8_unorm", name="bench_tex")
    uav = dev.create_buffer(256, uav=True, name="bench_uav")
    a = dev.create_buffer(4096, name="bench_a")
    b = dev.create_buffer(4096, name="bench_b")
    cl = q.command_list()  # defined contents for everything the loops read
    cl.upload(tex, np.zeros((64, 64, 4), np.uint8))
    cl.upload(a, np.zeros(1024, np.uint32))
    cl.upload(b, np.zeros(1024, np.uint32))
    cl.upload(uav, np.zeros(64, np.uint32))
    q.wait(q.execute(cl))
    return {
        "draw": (gpso, [rt, tex]), "root_constants": (gpso, [rt, tex]), "descriptor_table": (gpso, [rt, tex]),
        "dispatch": (cpso, [uav]), "dynamic_cb": (g.cb_pipeline(), [uav]), "transitions": (cpso, [a, b]),
    }


def compare(kind: str, n: int = N) -> dict:
    dev, _ = g.device()
    pso, res = setups()[kind]
    return _bench.compare_calls(dev, kind, pso, res, n)


@pytest.mark.benchmark(group="C++ calls beside raw D3D12")
@pytest.mark.parametrize("kind", KINDS)
def test_calls_vs_raw(benchmark, kind):
    r = benchmark.pedantic(lambda: compare(kind), rounds=1, warmup_rounds=0)
    benchmark.extra_info["dx12kit ns (min, median)"] = tuple(round(v, 1) for v in r["dx12kit_ns"])
    benchmark.extra_info["raw ns (min, median)"] = tuple(round(v, 1) for v in r["raw_ns"])
    benchmark.extra_info["ratio dx12kit/raw (medians)"] = round(r["ratio"], 2)
    benchmark.extra_info["ratio dx12kit/raw (mins)"] = round(r["ratio_min"], 2)
    print(f"\n{kind}: dx12kit {r['dx12kit_ns'][0]:.0f} ns, raw {r['raw_ns'][0]:.0f} ns (mins), ratio {r['ratio_min']:.2f}")
    assert r["dx12kit_ns"][0] > 0 and r["raw_ns"][0] > 0


# ------------------------------------------------------------------ the same draws from Python


def python_draws(how: str, n: int = N):
    """Records n draws, each with its own 4 root constants, on a fresh list: from a Python loop
    (set_constants + draw), with one draw_many, or raw (dx12kit_bench.record_raw: the native calls in
    C++). Wall time; benchmarks/callgrind_calls.py counts the instructions of the same loops."""
    _, q = g.device()
    pso, (rt, tex) = setups()["draw"]
    consts = np.zeros((n, 4), np.float32)
    consts[:, 0] = np.linspace(0, 1, n)
    rows = list(consts)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.set_shader_resource_view(1, 0, tex)
    cl.set_constants(0, rows[0])
    cl.draw(3)

    def run():
        if how == "python":
            sc, dr = cl.set_constants, cl.draw
            for r in rows:
                sc(0, r)
                dr(3)
        elif how == "draw_many":
            cl.draw_many(3, consts)
        else:
            _bench.record_raw(cl, "draw", consts)

    return run


@pytest.mark.benchmark(group="5000 draws with their own constants, recorded from Python")
@pytest.mark.parametrize("how", ["python", "draw_many", "raw"])
def test_draws_from_python(benchmark, how):
    benchmark.pedantic(python_draws(how), rounds=5, warmup_rounds=1)

def main() -> None:
    print(f"dx12kit C++ CommandList beside raw D3D12, same device, same run (N = {N} per round, medians of 5 rounds)\n")
    rows = [("kind", "dx12kit ns (min, median)", "raw ns (min, median)", "dx12kit/raw (mins)", "(medians)")]
    for kind in KINDS:
        r = compare(kind)
        rows.append((kind, "%.0f, %.0f" % r["dx12kit_ns"], "%.0f, %.0f" % r["raw_ns"], f"{r['ratio_min']:.2f}x", f"{r['ratio']:.2f}x"))
    print(g.table(rows))


if __name__ == "__main__":
    main()
