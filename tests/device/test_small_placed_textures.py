"""D3D12SmallResources, ported: many small textures placed side by side in one heap.

The sample places TextureCount 32x32 RGBA8 textures at n * GetResourceAllocationInfo(...).SizeInBytes of one
heap (4 KiB small-resource alignment where granted), uploads them on the copy queue, and draws one quad per
texture with a triangle strip, a pixel-only SRV table (DATA_STATIC) and a static sampler. Here: 16 textures of
16x16 in a 4x4 grid filling a 64x64 target, point-sampled so every pixel is one texel, expected image made by
numpy. The committed variant (the sample's other mode) must give the same pixels.
"""

import numpy as np
import pytest

import dx12kit as dx

GRID = 4
TEX = 16
TARGET = GRID * TEX
COUNT = GRID * GRID

VS_PS = """
struct PSInput { float4 position : SV_POSITION; float2 uv : TEXCOORD; };
Texture2D g_texture : register(t0);
SamplerState g_sampler : register(s0);
PSInput VSMain(float4 position : POSITION, float2 uv : TEXCOORD)
{ PSInput result; result.position = position; result.uv = uv; return result; }
float4 PSMain(PSInput input) : SV_TARGET { return g_texture.Sample(g_sampler, input.uv); }
"""


def _texels(n):
    """Texture n: a pattern no other texture shares, every texel distinct within it."""
    y, x = np.mgrid[0:TEX, 0:TEX]
    img = np.empty((TEX, TEX, 4), np.uint8)
    img[..., 0] = (x * 16 + n) % 256
    img[..., 1] = (y * 16 + 3 * n) % 256
    img[..., 2] = (x * 7 + y * 11 + 29 * n) % 256
    img[..., 3] = 255 - n
    return img


def _quads():
    """The sample's vertex layout: 4 vertices per quad (float3 position, float2 uv), v = 0 at the quad's bottom."""
    verts = []
    step = 2.0 / GRID
    for row in range(GRID):
        top = 1.0 - row * step
        for col in range(GRID):
            left = -1.0 + col * step
            verts += [[left, top - step, 0, 0, 0], [left, top, 0, 0, 1],
                      [left + step, top - step, 0, 1, 0], [left + step, top, 0, 1, 1]]
    return np.array(verts, np.float32)


def _expected():
    """Pixel row r of a quad (from its top) sees v = 1 - (r + 0.5) / TEX: texel row TEX - 1 - r."""
    out = np.zeros((TARGET, TARGET, 4), np.uint8)
    for n in range(COUNT):
        row, col = divmod(n, GRID)
        out[row * TEX:(row + 1) * TEX, col * TEX:(col + 1) * TEX] = _texels(n)[::-1]
    return out


def _pipeline(dev):
    flags = (dx.RootSignatureFlags.ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
             | dx.RootSignatureFlags.DENY_VERTEX_SHADER_ROOT_ACCESS
             | dx.RootSignatureFlags.DENY_HULL_SHADER_ROOT_ACCESS
             | dx.RootSignatureFlags.DENY_DOMAIN_SHADER_ROOT_ACCESS
             | dx.RootSignatureFlags.DENY_GEOMETRY_SHADER_ROOT_ACCESS)
    rs = dev.create_root_signature(
        [dx.DescriptorTable([dx.SRV(0, flags=dx.DescriptorRangeFlags.DATA_STATIC)], visibility="pixel")],
        static_samplers=[dx.StaticSampler(0, filter="point")], flags=flags, name="small resources")
    vs = dx.compile_hlsl(VS_PS, profile="vs_5_0", entry="VSMain")
    ps = dx.compile_hlsl(VS_PS, profile="ps_5_0", entry="PSMain")
    return dev.create_graphics_pipeline(
        vs, ps, rs, ["rgba8_unorm"], topology="triangle_strip",
        input_layout=[dx.InputElement("POSITION", "float3"), dx.InputElement("TEXCOORD", "float2", offset=12)])


def _draw(dev, textures, copy_queue):
    """Upload on the copy queue (as the sample does), draw on the direct queue, no wait written by hand."""
    copy = dev.queue("copy")
    direct = dev.queue("direct")
    cl = (copy if copy_queue else direct).command_list()
    for n, t in enumerate(textures):
        cl.upload(t, _texels(n))
    (copy if copy_queue else direct).execute(cl)

    pso = _pipeline(dev)
    target = dev.create_texture2d(TARGET, TARGET, "rgba8_unorm", render_target=True, name="target")
    vb = dev.create_buffer(data=_quads(), name="quads")
    cl = direct.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 0])
    cl.set_vertex_buffer(0, vb, stride=20)
    for n, t in enumerate(textures):
        cl.set_shader_resource_view(0, 0, t)
        cl.draw(4, start_vertex=4 * n)
    direct.execute(cl)
    return direct.read_texture(target)


def _allocation_info(dev):
    """The sample's GetResourceAllocationInfo of one texture, before any exists."""
    info = dev.texture_allocation_info(TEX, TEX, "rgba8_unorm")
    return info["size"], info["alignment"]


@pytest.mark.parametrize("copy_queue", [True, False])
def test_small_textures_placed_back_to_back_draw_their_own_texels(copy_queue):
    dev = dx.Device()
    size, alignment = _allocation_info(dev)
    assert alignment == 4096 and size == 4096       # a 16x16 RGBA8 texture fits a small-resource page
    mem = dev.allocate_memory(COUNT * size, alignment=alignment, name="texture heap")
    textures = [dev.create_texture2d(TEX, TEX, "rgba8_unorm", memory=mem, offset=n * size, name=f"tex{n}")
                for n in range(COUNT)]
    offsets = [t.allocation["offset"] for t in textures]
    assert [o - offsets[0] for o in offsets] == [n * size for n in range(COUNT)]
    assert len({t.allocation["block"] for t in textures}) == 1
    pixels = _draw(dev, textures, copy_queue)
    assert np.array_equal(pixels, _expected())


def test_small_textures_committed_draw_the_same():
    dev = dx.Device()
    textures = [dev.create_texture2d(TEX, TEX, "rgba8_unorm", committed=True, name=f"tex{n}") for n in range(COUNT)]
    assert np.array_equal(_draw(dev, textures, True), _expected())


def test_small_textures_pooled_at_small_alignment():
    """Without memory=, the default pool places them at 4 KiB too (no 64 KiB hole per texture)."""
    dev = dx.Device()
    textures = [dev.create_texture2d(TEX, TEX, "rgba8_unorm", name=f"tex{n}") for n in range(COUNT)]
    allocs = [t.allocation for t in textures]
    assert all(a["alignment"] == 4096 and a["size"] == 4096 for a in allocs)
    spans = sorted((a["block"], a["offset"]) for a in allocs)
    for (b0, o0), (b1, o1) in zip(spans, spans[1:]):
        assert b0 != b1 or o1 - o0 >= 4096
    assert np.array_equal(_draw(dev, textures, False), _expected())


def test_small_texture_placement_off_its_alignment_is_refused():
    dev = dx.Device()
    mem = dev.allocate_memory(4 * 4096, alignment=4096, name="texture heap")
    with pytest.raises(dx.InvalidArgumentError, match="offset"):
        dev.create_texture2d(TEX, TEX, "rgba8_unorm", memory=mem, offset=2048)
    with pytest.raises(dx.InvalidArgumentError):
        dev.create_texture2d(TEX, TEX, "rgba8_unorm", memory=mem, offset=4 * 4096)   # past the end
    with pytest.raises(dx.InvalidArgumentError):
        dev.create_texture2d(TEX, TEX, "rgba8_unorm", memory=mem, offset=3 * 4096 + 4096 // 2)
