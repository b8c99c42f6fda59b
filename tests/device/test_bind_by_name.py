"""Automatic root signatures and CommandList.bind: binding by the names the HLSL declares.

Real numbers on the real device: buffer contents and pixels read back."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

SQUARE = """
RWStructuredBuffer<float> data : register(u0);
[numthreads(64, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { data[i.x] = data[i.x] * data[i.x]; }
"""

QUAD_VS = """
cbuffer Scene : register(b0) { float4x4 transform; float4 unused[2]; };   // 96 bytes: a root CBV
struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
VSOut main(uint id : SV_VertexID) {
    float2 uv = float2(id & 1, id >> 1);
    VSOut o;
    o.pos = mul(transform, float4(uv.x * 2 - 1, 1 - uv.y * 2, 0, 1));
    o.uv = uv;
    return o;
}
"""

QUAD_PS = """
Texture2D tex : register(t0);
SamplerState smp : register(s0);
cbuffer Params : register(b1) { float4 tint; float2 uv_offset; float gain; };  // 8 values: root constants
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    return tex.Sample(smp, uv + uv_offset) * tint * gain;
}
"""

# x' = 0.5 x + 0.5, y' = 0.5 y: the quad covers the right half horizontally and the middle half vertically.
TRANSFORM = np.array([[0.5, 0, 0, 0.5], [0, 0.5, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=np.float32)


def test_square_numbers_without_root_signature_or_indices(device, queue):
    x = np.arange(256, dtype=np.float32) / 8
    pso = device.create_compute_pipeline(dx.compile_hlsl(SQUARE))
    buf = device.create_buffer(x.nbytes, uav=True)
    cl = queue.command_list()
    cl.upload(buf, x)
    cl.set_pipeline_state(pso)
    cl.bind(data=buf)
    cl.dispatch(4)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(buf, dtype=np.float32), x * x)


def test_bind_before_set_pipeline_state_applies_at_it(device, queue):
    x = np.arange(64, dtype=np.float32) - 20
    pso = device.create_compute_pipeline(dx.compile_hlsl(SQUARE))
    buf = device.create_buffer(x.nbytes, uav=True)
    cl = queue.command_list()
    cl.upload(buf, x)
    cl.bind("data", buf)         # no pipeline yet: kept
    cl.set_pipeline_state(pso)   # applied here
    cl.dispatch(1)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(buf, dtype=np.float32), x * x)


@pytest.fixture(scope="module")
def quad(device):
    vs = dx.compile_hlsl(QUAD_VS)
    ps = dx.compile_hlsl(QUAD_PS)
    assert (vs.profile, ps.profile) == ("vs_5_0", "ps_5_0")
    return device.create_graphics_pipeline(vs, ps, rtv_formats="rgba8_unorm", topology="triangle_strip")


def test_automatic_root_signature_layout(quad):
    params = quad.root_signature.parameters
    # Root constants first, then root CBVs, then the view tables, then the sampler tables (dx12kit/gpu/AutoRootSignature.hpp).
    assert [p.kind for p in params] == ["constants", "cbv", "table", "table"]
    assert (params[0].register, params[0].count, params[0].visibility) == (1, 8, 5)      # Params, pixel
    assert (params[1].register, params[1].visibility) == (0, 1)                           # Scene, vertex
    assert [(r.kind, r.register) for r in params[2].ranges] == [("srv", 0)] and params[2].visibility == 5
    assert [(r.kind, r.register) for r in params[3].ranges] == [("sampler", 0)] and params[3].visibility == 5
    assert quad.root_signature.name == "automatic"
    assert set(dx.binding.declarations(quad)) == {"Scene", "tex", "smp", "Params"}


def _draw_quad(device, queue, quad, bind):
    rng = np.random.default_rng(3)
    src = (rng.integers(0, 32, (16, 16, 4)) * 4).astype(np.uint8)
    tex = device.create_texture2d(16, 16, "rgba8_unorm")
    rt = device.create_texture2d(32, 32, "rgba8_unorm", render_target=True)
    smp = device.create_sampler(filter="point", address="clamp")
    cl = queue.command_list()
    cl.upload(tex, src)
    cl.set_pipeline_state(quad)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    bind(cl, tex, smp)
    cl.draw(4)
    queue.execute(cl)
    out = queue.read_texture(rt)
    expected = np.zeros((32, 32, 4), np.uint8)
    expected[8:24, 16:32] = (src * np.array([2.0, 1.0, 0.5, 2.0])).astype(np.uint8)
    return out, expected


def test_textured_quad_binds_texture_sampler_and_cbuffer_fields_by_name(device, queue, quad):
    def bind(cl, tex, smp):
        cl.bind(tex=tex, smp=smp, Scene={"transform": TRANSFORM, "unused": np.zeros((2, 4))})
        cl.bind("Params", {"tint": [1.0, 0.5, 0.25, 1.0], "uv_offset": (0, 0), "gain": 2.0})
    out, expected = _draw_quad(device, queue, quad, bind)
    np.testing.assert_array_equal(out, expected)


def test_cbuffer_from_buffer_and_from_bytes(device, queue, quad):
    scene = np.zeros(24, np.float32)
    scene[:16] = TRANSFORM.T.reshape(-1)   # column_major: the columns one after another
    buf = device.create_buffer(256)
    params = np.array([1.0, 0.5, 0.25, 1.0, 0, 0, 2.0, 0], np.float32)   # tint, uv_offset, gain, padding

    def bind(cl, tex, smp):
        cl.upload(buf, scene)
        cl.bind(tex=tex, smp=smp, Scene=buf, Params=params.tobytes())
    out, expected = _draw_quad(device, queue, quad, bind)
    np.testing.assert_array_equal(out, expected)


def test_bind_with_hand_written_root_signature(device, queue):
    src = """
    cbuffer P : register(b0) { float scale; uint count; };
    StructuredBuffer<float> inp : register(t2);
    RWStructuredBuffer<float> outp : register(u1);
    [numthreads(64, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { if (i.x < count) outp[i.x] = inp[i.x] * scale; }
    """
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0, 4), dx.UAV(1, 1, offset=5)]), dx.RootConstants(0, 2)])
    pso = device.create_compute_pipeline(dx.compile_hlsl(src), rs)
    assert pso.root_signature is rs
    x = np.arange(64, dtype=np.float32)
    inp = device.create_buffer(x.nbytes)
    outp = device.create_buffer(x.nbytes, uav=True)
    cl = queue.command_list()
    cl.upload(inp, x)
    cl.upload(outp, np.full(64, -1, np.float32))
    cl.bind(inp=inp, outp=outp, P={"scale": 3.0, "count": 10})  # before the pipeline: applied by set_pipeline_state
    cl.set_pipeline_state(pso)
    cl.dispatch(1)
    queue.execute(cl)
    out = queue.read_buffer(outp, dtype=np.float32)
    np.testing.assert_array_equal(out[:10], x[:10] * 3)
    np.testing.assert_array_equal(out[10:], -1)


def test_bind_errors_name_the_declarations(device, queue, quad):
    tex = device.create_texture2d(4, 4, "rgba8_unorm")
    smp = device.create_sampler()
    buf = device.create_buffer(256)
    cl = queue.command_list()
    cl.set_pipeline_state(quad)
    with pytest.raises(dx.BindingNameError, match=r"declares 'texx'\. Did you mean 'tex'\?.*Params \(cbuffer b1 space0, pixel: tint float4"):
        cl.bind(texx=tex)
    with pytest.raises(dx.BindingNameError, match=r"'gain' is a variable of cbuffer 'Params'"):
        cl.bind(gain=2.0)
    with pytest.raises(dx.BindingKindError, match=r"'Params' is a cbuffer .* not a Texture"):
        cl.bind(Params=tex)
    with pytest.raises(TypeError, match=r"'tex' is a Texture2D .* takes a Texture or Buffer, not a SamplerState"):
        cl.bind(tex=smp)
    with pytest.raises(dx.BindingKindError, match=r"'smp' is a SamplerState .*, not a Texture"):
        cl.bind(smp=tex)
    with pytest.raises(dx.BindingKindError, match=r"holds it as 8 root constants"):
        cl.bind(Params=buf)
    good = {"tint": [1, 1, 1, 1], "uv_offset": [0, 0], "gain": 1.0}
    with pytest.raises(dx.CbufferFieldError, match=r"missing: uv_offset float2, gain float"):
        cl.bind(Params={"tint": [1, 1, 1, 1]})
    with pytest.raises(dx.CbufferFieldError, match=r"no variable 'gian'\. Did you mean 'gain'\?"):
        cl.bind(Params={**good, "gian": 1.0})
    with pytest.raises(dx.CbufferFieldError, match=r"Params\.uv_offset is float2: give 2 values, shape \(2,\), not shape \(3,\)"):
        cl.bind(Params={**good, "uv_offset": [0, 0, 0]})
    with pytest.raises(dx.CbufferFieldError, match=r"Scene\.transform is float4x4: give a 4x4 matrix"):
        cl.bind(Scene={"transform": np.eye(3), "unused": np.zeros((2, 4))})
    with pytest.raises(dx.CbufferFieldError, match=r"holds 32 bytes; 36 bytes given"):
        cl.bind(Params=np.zeros(9, np.float32))
    with pytest.raises(TypeError, match="give a name and a value"):
        cl.bind()


def test_cbuffer_packing_follows_hlsl_rules(device, queue):
    # Each variable is read back through a UAV: packing by reflection must put it where the shader reads it.
    src = """
    struct Light { float3 dir; float power; };
    cbuffer C : register(b0) { float a; float3 b; float2 c[2]; int d; row_major float2x3 m; Light light; uint e; };
    RWStructuredBuffer<float> o : register(u0);
    [numthreads(1, 1, 1)] void main() {
        o[0] = a; o[1] = b.x; o[2] = b.z; o[3] = c[0].y; o[4] = c[1].x; o[5] = d;
        o[6] = m[0][2]; o[7] = m[1][0]; o[8] = light.dir.y; o[9] = light.power; o[10] = e;
    }
    """
    pso = device.create_compute_pipeline(dx.compile_hlsl(src))
    assert pso.root_signature.parameters[0].kind == "cbv"   # more than 16 values
    out = device.create_buffer(64, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.bind(o=out, C={"a": 1.5, "b": [2, 3, 4], "c": [[5, 6], [7, 8]], "d": -9, "m": [[10, 11, 12], [13, 14, 15]],
                      "light": {"dir": [16, 17, 18], "power": 19}, "e": 20})
    cl.dispatch(1)
    queue.execute(cl)
    got = queue.read_buffer(out, dtype=np.float32)[:11]
    np.testing.assert_array_equal(got, [1.5, 2, 4, 6, 7, -9, 12, 13, 17, 19, 20])
