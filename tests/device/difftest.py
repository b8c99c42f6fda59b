"""Differential shader testing: one construct, or one combination of constructs, per small
generated shader, run on the real device in every stage that can write results out, compared with a
numpy reference over seeded random inputs.

A :class:`Case` gives file-scope HLSL (``decls``) and the body of ``uint4 dt_f(uint4 x, uint i)``:
`x` is the item's input (four random uint32 words, floats passed with asuint) and `i` its index.
The harness wraps it into

- ``cs``: a compute shader writing ``dt_f`` to a RWStructuredBuffer<uint4> (u0);
- ``vs``: a vertex shader computing ``dt_f`` for vertex ``SV_VertexID`` of a point list, passed out
  as a ``nointerpolation uint4`` to a pixel that a pass-through pixel shader writes to an
  RGBA32_UINT render target (one pixel per vertex); ``vs_instance`` does the same with one vertex
  per instance and ``SV_InstanceID`` (drawn with start instance 3: D3D's SV_InstanceID excludes it);
- ``ps``: a pixel shader computing ``dt_f`` for pixel ``i = y * W + x`` of a full-screen triangle
  into the RGBA32_UINT target.

Inputs reach every stage through a StructuredBuffer<uint4> at t0 (root SRV). Cases may add a
constant buffer at b0/b1 (root CBVs), raw buffers and a texture in a descriptor table (t1-t3) and
two static samplers (s0 point/clamp, s1 linear/clamp). A mismatch raises
:class:`DifferentialMismatch` with the whole shader, the inputs and both results of the first
differing items.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np

import dx12kit as dx

W, H = 16, 8
N = W * H  # items per run: a multiple of 64 (compute groups) and one RGBA32_UINT pixel each
STAGES = ("cs", "vs", "vs_instance", "ps")
RT_CLEAR = 0x5EED  # the render target's clear value (a discarded pixel keeps it)

Ref = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Case:
    """One construct. `ref(x, i)` gets x: (N, 4) uint32 and i: (N,) uint32 and returns (N, 4) (uint32,
    or float32 viewed as uint32 by the harness when `floats` is set)."""

    name: str
    group: str
    body: str
    ref: Ref
    decls: str = ""
    stages: Sequence[str] = ("cs", "vs", "ps")
    inputs: Optional[Callable[[np.random.Generator, int], np.ndarray]] = None  # default: random uint32
    cb0: Optional[np.ndarray] = None        # bytes of the constant buffer at b0
    cb1: Optional[np.ndarray] = None
    raw: Optional[np.ndarray] = None        # ByteAddressBuffer / raw view at t1 (uint32 words)
    raw2: Optional[np.ndarray] = None       # at t2
    texture: Optional[np.ndarray] = None    # (h, w, 4) float32, Texture2D<float4> at t3
    ulps: int = 0                           # allowed float difference in units in the last place (0: bit-exact)
    fast: bool = False                      # part of the suite's fast slice
    cs_template: Optional[str] = None       # a compute shader of its own (groupshared), with {decls} {body}
    pixel_template: Optional[str] = None    # a pixel shader of its own (discard), as PS_TEMPLATE
    note: str = ""

    def __post_init__(self) -> None:
        bad = [s for s in self.stages if s not in STAGES]
        if bad:
            raise ValueError(f"{self.name}: unknown stages {bad}")


class DifferentialMismatch(AssertionError):
    pass


HEADER = """
StructuredBuffer<uint4> dt_in : register(t0);
{decls}
uint4 dt_f(uint4 x, uint i)
{{
{body}
}}
"""

CS_TEMPLATE = HEADER + """
RWStructuredBuffer<uint4> dt_out : register(u0);
[numthreads(64, 1, 1)]
void main(uint3 t : SV_DispatchThreadID)
{{
    dt_out[t.x] = dt_f(dt_in[t.x], t.x);
}}
"""

VS_OUT = """
struct DT_V {{ float4 pos : SV_Position; nointerpolation uint4 r : DTRESULT; }};
float4 dt_pixel(uint i) {{
    float2 p = (float2(i % {W}u, i / {W}u) + 0.5) / float2({W}, {H});
    return float4(p.x * 2 - 1, 1 - p.y * 2, 0, 1);
}}
"""

VS_TEMPLATE = HEADER + VS_OUT + """
DT_V main(uint vid : SV_VertexID)
{{
    DT_V o;
    uint i = vid - {start};
    o.r = dt_f(dt_in[i], i);
    o.pos = dt_pixel(i);
    return o;
}}
"""

VS_INSTANCE_TEMPLATE = HEADER + VS_OUT + """
DT_V main(uint iid : SV_InstanceID, uint vid : SV_VertexID)
{{
    DT_V o;
    uint i = iid;  // D3D: SV_InstanceID does not include the start instance
    o.r = dt_f(dt_in[i], i);
    o.r.w ^= vid;  // one vertex per instance: SV_VertexID is 0
    o.pos = dt_pixel(i);
    return o;
}}
"""

PASS_PS = """
struct DT_V { float4 pos : SV_Position; nointerpolation uint4 r : DTRESULT; };
uint4 main(DT_V v) : SV_Target { return v.r; }
"""

FULL_VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""

PS_TEMPLATE = HEADER + """
uint4 main(float4 pos : SV_Position) : SV_Target
{{
    uint i = uint(pos.y) * {W}u + uint(pos.x);
    return dt_f(dt_in[i], i);
}}
"""


def source(case: Case, stage: str, start: int = 0) -> str:
    """The HLSL of `case` in `stage`."""
    t = {"cs": case.cs_template or CS_TEMPLATE, "vs": VS_TEMPLATE, "vs_instance": VS_INSTANCE_TEMPLATE,
         "ps": case.pixel_template or PS_TEMPLATE}[stage]
    return t.format(decls=case.decls, body=case.body, W=W, H=H, start=start)


def default_inputs(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, 2**32, (n, 4), dtype=np.uint64).astype(np.uint32)


class Harness:
    """Pipelines and buffers shared by the cases of one device."""

    def __init__(self, device, queue):
        self.device = device
        self.queue = queue
        table = dx.DescriptorTable([dx.SRV(1, 3)])
        samplers = [dx.StaticSampler(0, filter="point", address="clamp"), dx.StaticSampler(1, filter="linear", address="clamp")]
        # 0: inputs t0, 1: b0, 2: b1, 3: table t1-t3, 4: u0 (compute)
        self.rs = device.create_root_signature([dx.RootSRV(0), dx.RootCBV(0), dx.RootCBV(1), table, dx.RootUAV(0)],
                                               static_samplers=samplers)
        self.full_vs = dx.compile_hlsl(FULL_VS, profile="vs_5_0")
        self.pass_ps = dx.compile_hlsl(PASS_PS, profile="ps_5_0")
        self.zero_cb = np.zeros(64, np.uint32)
        self.zero_raw = device.create_buffer(256, name="dt-zero-raw")
        self.zero_tex = device.create_texture2d(4, 4, "rgba32_float", name="dt-zero-tex")
        self.rt = device.create_texture2d(W, H, "rgba32_uint", render_target=True, name="dt-target")
        self.out = device.create_buffer(N * 16, uav=True, name="dt-out")
        cl = queue.command_list()
        cl.upload(self.zero_raw, np.zeros(64, np.uint32))
        cl.upload(self.zero_tex, np.zeros((4, 4, 4), np.float32))
        queue.wait(queue.execute(cl))

    def compile(self, case: Case, stage: str, start: int = 0) -> dx.Shader:
        profile = {"cs": "cs_5_0", "vs": "vs_5_0", "vs_instance": "vs_5_0", "ps": "ps_5_0"}[stage]
        return dx.compile_hlsl(source(case, stage, start), profile=profile, source_name=f"{case.name}.{stage}.hlsl")

    def _bind(self, cl, case: Case, keep: list) -> None:
        cl.set_dynamic_constant_buffer(1, case.cb0 if case.cb0 is not None else self.zero_cb)
        cl.set_dynamic_constant_buffer(2, case.cb1 if case.cb1 is not None else self.zero_cb)
        for slot, data in ((0, case.raw), (1, case.raw2)):
            buf = self.zero_raw
            if data is not None:
                buf = self.device.create_buffer(data.nbytes, name=f"dt-raw{slot}")
                cl.upload(buf, data)
                keep.append(buf)
            cl.set_shader_resource_view(3, slot, buf)
        tex = self.zero_tex
        if case.texture is not None:
            h, w = case.texture.shape[:2]
            tex = self.device.create_texture2d(w, h, "rgba32_float", name="dt-tex")
            cl.upload(tex, np.ascontiguousarray(case.texture, np.float32))
            keep.append(tex)
        cl.set_shader_resource_view(3, 2, tex)

    def run(self, case: Case, stage: str, x: np.ndarray, shader: Optional[dx.Shader] = None) -> np.ndarray:
        """What the GPU computes for inputs `x` ((N, 4) uint32) in `stage`: (N, 4) uint32."""
        start = 5 if stage == "vs_instance" else 0
        shader = shader or self.compile(case, stage, start)
        keep: list = []
        cl = self.queue.command_list()
        if stage == "cs":
            pso = self.device.create_compute_pipeline(shader, self.rs)
            cl.set_pipeline_state(pso)
        else:
            if stage == "ps":
                pso = self.device.create_graphics_pipeline(self.full_vs, shader, self.rs, ["rgba32_uint"])
            else:
                pso = self.device.create_graphics_pipeline(shader, self.pass_ps, self.rs, ["rgba32_uint"], topology="point")
            cl.set_pipeline_state(pso)
            cl.set_render_targets([self.rt])
            cl.clear_render_target(self.rt, [RT_CLEAR] * 4)
        cl.set_dynamic_structured_buffer(0, np.ascontiguousarray(x, np.uint32))
        self._bind(cl, case, keep)
        cl.set_root_uav(4, self.out)
        if stage == "cs":
            cl.dispatch(N // 64)
        elif stage == "vs":
            cl.draw(N)
        elif stage == "vs_instance":
            cl.draw(1, N, 0, 3)
        else:
            cl.draw(3)
        self.queue.wait(self.queue.execute(cl))
        if stage == "cs":
            return self.queue.read_buffer(self.out, dtype=np.uint32).reshape(N, 4)
        return np.asarray(self.queue.read_texture(self.rt)).reshape(N, 4).astype(np.uint32)

    def check(self, case: Case, stage: str, seed: int = 0, rounds: int = 1) -> None:
        """Runs `case` in `stage` over `rounds` sets of N seeded random inputs; raises DifferentialMismatch."""
        shader = self.compile(case, stage, 5 if stage == "vs_instance" else 0)
        rng = np.random.default_rng([seed, zlib_crc(case.name), STAGES.index(stage)])
        idx = np.arange(N, dtype=np.uint32)
        for r in range(rounds):
            x = (case.inputs or default_inputs)(rng, N).astype(np.uint32).reshape(N, 4)
            got = self.run(case, stage, x, shader)
            want = np.asarray(case.ref(x.copy(), idx.copy()))
            want = (want.view(np.uint32) if want.dtype == np.float32 else want.astype(np.uint32)).reshape(N, 4)
            bad = ~_agree(got, want, case.ulps)
            if bad.any():
                rows = np.nonzero(bad.any(axis=1))[0]
                lines = [f"{case.group}/{case.name} in {stage}: {len(rows)} of {N} items differ (seed {seed}, round {r})",
                         "--- shader ---", source(case, stage, 5 if stage == "vs_instance" else 0), "--- first differing items ---"]
                for k in rows[:8]:
                    lines.append(f"i={k} input={_hex(x[k])} gpu={_hex(got[k])} ref={_hex(want[k])}"
                                 f" (as float: gpu={got[k].view(np.float32)} ref={want[k].view(np.float32)})")
                raise DifferentialMismatch("\n".join(lines))


def _agree(got: np.ndarray, want: np.ndarray, ulps: int) -> np.ndarray:
    if ulps == 0:
        return got == want
    g, w = got.view(np.float32), want.view(np.float32)
    both_nan = np.isnan(g) & np.isnan(w)
    # ordered integer representations: distance in ulps
    gi = np.where(got >= 0x80000000, 0x80000000 - got.astype(np.int64), got.astype(np.int64))
    wi = np.where(want >= 0x80000000, 0x80000000 - want.astype(np.int64), want.astype(np.int64))
    return both_nan | (np.abs(gi - wi) <= ulps)


def _hex(v: np.ndarray) -> str:
    return "[" + " ".join(f"{int(a):08x}" for a in v) + "]"


def zlib_crc(s: str) -> int:
    import zlib

    return zlib.crc32(s.encode())
