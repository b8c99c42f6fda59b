"""D3D12Multithreading's shadow and scene passes, ported at test size.

The sample renders a depth-only shadow pass (no pixel shader, no render target, d32_float) from the light,
split over worker threads that each record their own command list, then a scene pass, again per thread, whose
pixel shader projects each pixel into light space and reads the shadow map (a point/clamp ``Sample`` of four
texels and a manual ``>=`` test: 2x2 PCF) as an SRV of the same texture. Here: a 32x32 shadow map, a 64x64
scene, a floor (light depth 0.75) and an occluder (0.25) under an oblique orthographic light, so the shadow
falls beside the occluder; two threads per pass. A second scene shader reads the map through a comparison
sampler (``SampleCmpLevelZero``), as shadow code usually does. Expected pixels come from numpy.
"""

import threading

import numpy as np
import pytest

import dx12kit as dx

SHADOW = 32
TARGET = 64
BIAS = 0.00005
SHEAR = 0.5           # light space: x' = x + SHEAR * z (an oblique orthographic light), y' = y, z' = z

VS = """
cbuffer Object : register(b0) { float4x4 viewProj; float4x4 light; float4 colour; };
struct PSInput { float4 position : SV_POSITION; float4 worldpos : POSITION; };
PSInput main(float3 position : POSITION)
{
    PSInput o;
    o.worldpos = float4(position, 1.0f);
    o.position = mul(o.worldpos, viewProj);
    return o;
}
"""

PS_MANUAL = """
cbuffer Object : register(b0) { float4x4 viewProj; float4x4 light; float4 colour; };
Texture2D shadowMap : register(t0);
SamplerState sampleClamp : register(s0);
struct PSInput { float4 position : SV_POSITION; float4 worldpos : POSITION; };
float4 main(PSInput input) : SV_TARGET
{
    float4 l = mul(input.worldpos, light);
    l.xyz /= l.w;
    float2 uv = 0.5f * l.xy + 0.5f;
    uv.y = 1.0f - uv.y;
    float depth = l.z - %(bias)r;
    float lit = shadowMap.Sample(sampleClamp, uv).x >= depth ? 1.0f : 0.0f;
    return float4(colour.rgb * (0.25f + 0.75f * lit), 1.0f);
}
""" % {"bias": BIAS}

PS_COMPARISON = """
cbuffer Object : register(b0) { float4x4 viewProj; float4x4 light; float4 colour; };
Texture2D<float> shadowMap : register(t0);
SamplerComparisonState shadowCmp : register(s0);
struct PSInput { float4 position : SV_POSITION; float4 worldpos : POSITION; };
float4 main(PSInput input) : SV_TARGET
{
    float4 l = mul(input.worldpos, light);
    float2 uv = float2(0.5f * l.x + 0.5f, 0.5f - 0.5f * l.y);
    float lit = shadowMap.SampleCmpLevelZero(shadowCmp, uv, l.z - %(bias)r);
    return float4(colour.rgb * (0.25f + 0.75f * lit), 1.0f);
}
""" % {"bias": BIAS}

# (x0, x1, y0, y1, z, colour): world = camera clip space (the camera's view-projection is the identity).
FLOOR = (-1.0, 1.0, -1.0, 1.0, 0.75, (0.0, 1.0, 0.0))
OCCLUDER = (-0.5, 0.0, 0.0, 0.5, 0.25, (1.0, 0.0, 0.0))


def _light():
    m = np.eye(4, dtype=np.float32)
    m[2, 0] = SHEAR
    return m


def _quad(obj):
    x0, x1, y0, y1, z, _ = obj
    return np.array([[x0, y1, z], [x1, y1, z], [x0, y0, z], [x1, y0, z]], np.float32)


def _constants(view_proj, obj):
    c = np.zeros(36, np.float32)
    c[:16] = dx.matrices.to_hlsl(view_proj).ravel()
    c[16:32] = dx.matrices.to_hlsl(_light()).ravel()
    c[32:35] = obj[5]
    return c


def _expected():
    # The shadow map: texel centres in light space, each object's light-space rectangle, the nearest depth.
    t = (np.arange(SHADOW) + 0.5) / SHADOW
    lx = t * 2 - 1
    ly = 1 - t * 2
    shadow = np.ones((SHADOW, SHADOW), np.float32)
    for x0, x1, y0, y1, z, _ in (FLOOR, OCCLUDER):
        cover = ((ly[:, None] > y0) & (ly[:, None] < y1)) & ((lx[None, :] > x0 + SHEAR * z) & (lx[None, :] < x1 + SHEAR * z))
        shadow = np.where(cover, np.minimum(shadow, z), shadow)
    # The scene: the nearest object per pixel centre, its light-space position, the texel it reads.
    p = (np.arange(TARGET) + 0.5) / TARGET
    wx = p * 2 - 1
    wy = 1 - p * 2
    out = np.zeros((TARGET, TARGET, 4), np.float32)
    out[..., 3] = 1
    depth = np.full((TARGET, TARGET), 1.0)
    for x0, x1, y0, y1, z, colour in (FLOOR, OCCLUDER):
        cover = ((wy[:, None] > y0) & (wy[:, None] < y1)) & ((wx[None, :] > x0) & (wx[None, :] < x1)) & (z < depth)
        u = (0.5 * (wx + SHEAR * z) + 0.5) * SHADOW
        v = (0.5 - 0.5 * wy) * SHADOW
        col = np.clip(np.floor(u).astype(int), 0, SHADOW - 1)
        row = np.clip(np.floor(v).astype(int), 0, SHADOW - 1)
        lit = (shadow[row][:, col] >= z - BIAS).astype(np.float32)
        shade = 0.25 + 0.75 * lit
        for ch in range(3):
            out[..., ch] = np.where(cover, colour[ch] * shade, out[..., ch])
        depth = np.where(cover, z, depth)
    return np.rint(out * 255).astype(np.uint8), shadow


def _record_on_threads(q, objects, record_one):
    """One command list per worker thread, each recording its share of the objects (the sample's contexts)."""
    lists = [None] * len(objects)

    def work(i):
        cl = q.command_list()
        record_one(cl, objects[i])
        lists[i] = cl

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(objects))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return lists


def _render(dev, comparison):
    q = dev.queue()
    layout = [dx.InputElement("POSITION", "float3")]
    vs = dx.compile_hlsl(VS, profile="vs_5_0")
    ps = dx.compile_hlsl(PS_COMPARISON if comparison else PS_MANUAL, profile="ps_5_0")
    shadow_pso = dev.create_graphics_pipeline(vs, None, rtv_formats=[], dsv_format="d32_float", input_layout=layout,
                                              topology="triangle_strip", depth_test=True, name="shadow pass")
    scene_pso = dev.create_graphics_pipeline(vs, ps, rtv_formats=["rgba8_unorm"], dsv_format="d32_float",
                                             input_layout=layout, topology="triangle_strip", depth_test=True,
                                             name="scene pass")
    if comparison:
        sampler = dev.create_sampler(filter="comparison_min_mag_mip_point", comparison="less_equal",
                                     name="shadow compare")
    else:
        sampler = dev.create_sampler(filter="point", address="clamp", name="clamp")
    shadow_map = dev.create_texture2d(SHADOW, SHADOW, "d32_float", depth_stencil=True, name="shadow map")
    depth = dev.create_texture2d(TARGET, TARGET, "d32_float", depth_stencil=True, name="scene depth")
    target = dev.create_texture2d(TARGET, TARGET, "rgba8_unorm", render_target=True, name="target")
    vbs = {id(o): dev.create_buffer(data=_quad(o), name="quad") for o in (FLOOR, OCCLUDER)}

    # The sample's begin-frame list: clears, then the workers' lists, then an end list.
    begin = q.command_list()
    begin.clear_depth_stencil(shadow_map, 1.0)
    begin.clear_depth_stencil(depth, 1.0)
    begin.clear_render_target(target, [0, 0, 0, 1])

    def shadow_one(cl, obj):
        cl.set_pipeline_state(shadow_pso)
        cl.set_render_targets([], shadow_map)
        cl.set_vertex_buffer(0, vbs[id(obj)], stride=12)
        cl.bind(Object=_constants(_light(), obj))
        cl.draw(4)

    def scene_one(cl, obj):
        cl.set_pipeline_state(scene_pso)
        cl.set_render_targets([target], depth)
        cl.set_vertex_buffer(0, vbs[id(obj)], stride=12)
        cl.bind(Object=_constants(np.eye(4, dtype=np.float32), obj), shadowMap=shadow_map)
        cl.bind(**({"shadowCmp": sampler} if comparison else {"sampleClamp": sampler}))
        cl.draw(4)

    objects = [FLOOR, OCCLUDER]
    shadow_lists = _record_on_threads(q, objects, shadow_one)
    scene_lists = _record_on_threads(q, objects, scene_one)
    q.execute([begin] + shadow_lists + scene_lists)
    return q.read_texture(target), q.read_texture(shadow_map)


@pytest.mark.parametrize("comparison", [False, True], ids=["manual_test", "comparison_sampler"])
def test_shadow_pass_then_scene_pass_on_worker_threads(comparison):
    dev = dx.Device()
    pixels, shadow = _render(dev, comparison)
    want_pixels, want_shadow = _expected()
    assert np.array_equal(shadow.reshape(SHADOW, SHADOW), want_shadow)
    shadowed = (want_pixels[..., :3].max(axis=2) == 64).sum()
    assert shadowed > 100          # the shadow falls beside the occluder, visible
    assert np.array_equal(pixels, want_pixels), np.argwhere((pixels != want_pixels).any(axis=2))[:8]
