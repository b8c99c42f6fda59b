"""D3D12DynamicIndexing, ported: a material index set per draw picks one of many material textures.

The sample's pixel shader indexes an unbounded ``Texture2D g_txMats[]`` (shader model 5.1) with a root constant.
The stack's HLSL compiler refuses unbounded and run-time-indexed resource arrays (docs/guides/shader-gaps.rst):
that must be a loud compile error, never a shader that compiles and reads the wrong material. The port then
uses the documented workaround, a ``Texture2DArray`` indexed by slice, under the sample's root-signature layout:
an SRV table (diffuse + materials, DATA_STATIC) and a sampler table for the pixel shader, a CBV table for the
vertex shader's ``cb0 : b0`` and one pixel-only root constant at the same register ``b0``. Four objects, eight
materials, a 64x64 target; expected pixels from numpy (``diffuse * material`` in unorm8, within one level).
"""

import numpy as np
import pytest

import dx12kit as dx

N_MAT = 8
OBJ_GRID = 2
TARGET = 64
TEX = 4

SAMPLE_PS = """
struct PSInput { float4 position : SV_POSITION; float2 uv : TEXCOORD0; };
struct MaterialConstants { uint matIndex; };
ConstantBuffer<MaterialConstants> materialConstants : register(b0, space0);
Texture2D g_txDiffuse : register(t0);
Texture2D g_txMats[] : register(t1);
SamplerState g_sampler : register(s0);
float4 PSMain(PSInput input) : SV_TARGET
{
    float3 diffuse = g_txDiffuse.Sample(g_sampler, input.uv).rgb;
    float3 mat = g_txMats[materialConstants.matIndex].Sample(g_sampler, input.uv).rgb;
    return float4(diffuse * mat, 1.0f);
}
"""

VS = """
struct VSInput { float3 position : POSITION; float3 normal : NORMAL; float2 uv : TEXCOORD0; float3 tangent : TANGENT; };
struct PSInput { float4 position : SV_POSITION; float2 uv : TEXCOORD0; };
cbuffer cb0 : register(b0) { float4x4 g_mWorldViewProj; };
PSInput VSMain(VSInput input)
{
    PSInput result;
    result.position = mul(float4(input.position, 1.0f), g_mWorldViewProj);
    result.uv = input.uv;
    return result;
}
"""

PS = """
struct PSInput { float4 position : SV_POSITION; float2 uv : TEXCOORD0; };
cbuffer MaterialConstants : register(b0) { uint matIndex; };
Texture2D g_txDiffuse : register(t0);
Texture2DArray g_txMats : register(t1);
SamplerState g_sampler : register(s0);
float4 PSMain(PSInput input) : SV_TARGET
{
    float3 diffuse = g_txDiffuse.Sample(g_sampler, input.uv).rgb;
    float3 mat = g_txMats.Sample(g_sampler, float3(input.uv, matIndex)).rgb;
    return float4(diffuse * mat, 1.0f);
}
"""


def _diffuse():
    y, x = np.mgrid[0:TEX, 0:TEX]
    img = np.empty((TEX, TEX, 4), np.uint8)
    img[..., 0] = 255 - 40 * x
    img[..., 1] = 100 + 50 * y
    img[..., 2] = 60 * ((x + y) % 4) + 20
    img[..., 3] = 255
    return img


def _materials():
    """Material i: a vertical gradient of its own hue, as the sample's generated materials are."""
    mats = np.empty((N_MAT, TEX, TEX, 4), np.uint8)
    for i in range(N_MAT):
        rows = np.arange(TEX)[:, None]
        mats[i, ..., 0] = (30 * i + 10 * rows) % 256
        mats[i, ..., 1] = 255 - 25 * i - 5 * rows
        mats[i, ..., 2] = (90 + 40 * i + 20 * rows) % 256
        mats[i, ..., 3] = 255
    return mats


def _mesh():
    """One quad, 44-byte vertices (POSITION, NORMAL, TEXCOORD0, TANGENT), indexed, in -1..1; uv 0..1 top-down."""
    p = [(-1, 1), (1, 1), (-1, -1), (1, -1)]
    uv = [(0, 0), (1, 0), (0, 1), (1, 1)]
    verts = np.array([[x, y, 0, 0, 0, -1, u, v, 1, 0, 0] for (x, y), (u, v) in zip(p, uv)], np.float32)
    return verts, np.array([0, 1, 2, 2, 1, 3], np.uint16)


def _world_view_proj(obj):
    """Scale the quad to a quarter of the screen and move it to its cell: row-vector form, then to_hlsl."""
    row, col = divmod(obj, OBJ_GRID)
    m = np.eye(4, dtype=np.float32)
    m[0, 0] = m[1, 1] = 1.0 / OBJ_GRID
    m[3, 0] = -0.5 + col
    m[3, 1] = 0.5 - row
    return m


def _mat_index(obj):
    return (3 * obj + 5) % N_MAT


def _expected():
    cell = TARGET // OBJ_GRID
    texel = (np.arange(cell) * TEX) // cell                  # point sampling of a 4-texel texture over 32 pixels
    d = _diffuse().astype(np.float32) / 255
    m = _materials().astype(np.float32) / 255
    out = np.zeros((TARGET, TARGET, 4), np.float32)
    for obj in range(OBJ_GRID * OBJ_GRID):
        row, col = divmod(obj, OBJ_GRID)
        prod = d[texel][:, texel, :3] * m[_mat_index(obj)][texel][:, texel, :3]
        out[row * cell:(row + 1) * cell, col * cell:(col + 1) * cell, :3] = prod
        out[row * cell:(row + 1) * cell, col * cell:(col + 1) * cell, 3] = 1.0
    return np.rint(out * 255)


def test_the_samples_unbounded_material_array_is_a_compile_error_not_a_wrong_picture():
    with pytest.raises(dx.ShaderCompileError, match="Unbounded resource arrays"):
        dx.compile_hlsl(SAMPLE_PS, entry="PSMain", profile="ps_5_1")


def _draw(dev, use_bind):
    q = dev.queue()
    diffuse = dev.create_texture2d(data=_diffuse(), name="city diffuse")
    mats = dev.create_texture2d(TEX, TEX, "rgba8_unorm", array_size=N_MAT, data=_materials(), name="materials")
    sampler = dev.create_sampler(filter="point", address="wrap", name="wrap")
    verts, indices = _mesh()
    vb = dev.create_buffer(data=verts, name="mesh")
    ib = dev.create_buffer(data=indices, name="indices")
    n_obj = OBJ_GRID * OBJ_GRID
    cbs = np.zeros((n_obj, 64), np.float32)                   # 256-byte CBV slots, as the sample's frame resource
    for obj in range(n_obj):
        cbs[obj, :16] = dx.matrices.to_hlsl(_world_view_proj(obj)).ravel()
    cb = dev.create_buffer(data=cbs, name="per-object constants")

    vs = dx.compile_hlsl(VS, entry="VSMain", profile="vs_5_0")
    ps = dx.compile_hlsl(PS, entry="PSMain", profile="ps_5_0")
    layout = [dx.InputElement("POSITION", "float3"), dx.InputElement("NORMAL", "float3", offset=12),
              dx.InputElement("TEXCOORD", "float2", offset=24), dx.InputElement("TANGENT", "float3", offset=32)]
    if use_bind:
        pso = dev.create_graphics_pipeline(vs, ps, rtv_formats=["rgba8_unorm"], input_layout=layout)
    else:
        static = dx.DescriptorRangeFlags.DATA_STATIC
        rs = dev.create_root_signature([
            dx.DescriptorTable([dx.SRV(0, count=2, flags=static)], visibility="pixel"),
            dx.DescriptorTable([dx.SamplerRange(0)], visibility="pixel"),
            dx.DescriptorTable([dx.CBV(0, flags=static)], visibility="vertex"),
            dx.RootConstants(0, 1, visibility="pixel"),
        ], flags=dx.RootSignatureFlags.ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT, name="dynamic indexing")
        pso = dev.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], input_layout=layout)

    target = dev.create_texture2d(TARGET, TARGET, "rgba8_unorm", render_target=True, name="target")
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 0])
    cl.set_vertex_buffer(0, vb, stride=44)
    cl.set_index_buffer(ib, "uint16")
    if use_bind:
        cl.bind(g_txDiffuse=diffuse, g_txMats=mats, g_sampler=sampler)
    else:
        cl.set_shader_resource_view(0, 0, diffuse)
        cl.set_shader_resource_view(0, 1, mats)
        cl.set_sampler(1, 0, sampler)
    for obj in range(n_obj):
        if use_bind:
            cl.bind(cb0=cbs[obj, :16],                   # 16 values: the automatic signature makes root constants
                    MaterialConstants={"matIndex": _mat_index(obj)})
        else:
            cl.set_constant_buffer_view(2, 0, cb, offset=256 * obj, size=256)
            cl.set_constants(3, [_mat_index(obj)])
        cl.draw_indexed(6)
    q.execute(cl)
    return q.read_texture(target)


@pytest.mark.parametrize("use_bind", [False, True], ids=["sample_root_signature", "automatic_root_signature"])
def test_each_object_reads_the_material_its_root_constant_names(use_bind):
    dev = dx.Device()
    pixels = _draw(dev, use_bind).astype(np.int32)
    diff = np.abs(pixels - _expected())
    assert diff.max() <= 1, np.argwhere(diff > 1)[:8]
