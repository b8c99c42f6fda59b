"""Block-compressed (BC1-BC7) textures on the real device: created, uploaded as raw 4x4 blocks (rows of blocks,
8 bytes a block for BC1/BC4, 16 for the rest), read back, copied and sampled, against Pillow's decoding of the
same blocks; and D3D12's refusals (no render targets or UAVs of BC formats, mip 0 a multiple of 4)."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

from .ddsfiles import block_chain, pillow_decode, srgb_to_linear

LOAD_CS = """
Texture2D<float4> t : register(t0);
RWStructuredBuffer<float4> o : register(u0);
cbuffer C : register(b0) { uint w; uint h; uint mip; uint pad; };
[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= w || id.y >= h) return;
    o[id.y * w + id.x] = t.Load(int3(id.xy, mip));
}
"""
SAMPLE_CS = """
Texture2D<float4> t : register(t0);
SamplerState s : register(s0);
RWStructuredBuffer<float4> o : register(u0);
cbuffer C : register(b0) { uint w; uint h; float ox; float oy; };
[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= w || id.y >= h) return;
    o[id.y * w + id.x] = t.SampleLevel(s, (float2(id.xy) + float2(ox, oy)) / float2(w, h), 0);
}
"""

_PSO: dict = {}


def _pipeline(device, src, linear):
    key = (device, src, linear)
    if key not in _PSO:
        rs = device.create_root_signature(
            [dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)]), dx.RootConstants(0, 4)],
            static_samplers=[dx.StaticSampler(0, filter="linear" if linear else "point", address="clamp")] if linear is not None else [])
        _PSO[key] = device.create_compute_pipeline(dx.compile_hlsl(src, profile="cs_5_0"), rs)
    return _PSO[key]


def gpu_load(device, queue, tex, mip=0, fmt=None):
    """Every texel of `mip` read with Texture2D.Load, as float32 (h, w, 4)."""
    w, h = max(1, tex.width >> mip), max(1, tex.height >> mip)
    out = device.create_buffer(w * h * 16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(_pipeline(device, LOAD_CS, None))
    cl.set_shader_resource_view(0, 0, tex, format=fmt)
    cl.set_unordered_access_view(1, 0, out)
    cl.set_constants(2, np.array([w, h, mip, 0], np.uint32))
    cl.dispatch((w + 7) // 8, (h + 7) // 8)
    queue.wait(queue.execute(cl))
    return queue.read_buffer(out, np.float32).reshape(h, w, 4)


def gpu_sample(device, queue, tex, offset, linear=True):
    w, h = tex.width, tex.height
    out = device.create_buffer(w * h * 16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(_pipeline(device, SAMPLE_CS, linear))
    cl.set_shader_resource_view(0, 0, tex)
    cl.set_unordered_access_view(1, 0, out)
    cl.set_constants(2, np.concatenate([np.array([w, h], np.uint32), np.array(offset, np.float32).view(np.uint32)]))
    cl.dispatch((w + 7) // 8, (h + 7) // 8)
    queue.wait(queue.execute(cl))
    return queue.read_buffer(out, np.float32).reshape(h, w, 4)


def _make(device, queue, fmt, width, height, mips, seed=3):
    rng = np.random.default_rng(seed)
    bc7 = fmt.startswith("bc7")
    chain = block_chain(rng, width, height, mips, 16 if bc7 else 8, bc7)
    tex = device.create_texture2d(width, height, fmt, mip_levels=mips)
    cl = queue.command_list()
    for m, blocks in enumerate(chain):
        cl.upload(tex, blocks, mip=m)
    queue.wait(queue.execute(cl))
    return tex, chain


# Pillow and the D3D12 decoders agree to a step or two of 8 bits: BC1's thirds are rounded differently
# ((2a + b) / 3 of 5/6-bit endpoints expanded to 8 bits), BC7 is bit-exact by its specification.
TOLERANCE = {"bc1_unorm": 3.5 / 255, "bc7_unorm": 1.01 / 255}


@pytest.mark.parametrize("fmt", ["bc1_unorm", "bc7_unorm"])
def test_every_mip_loads_as_pillow_decodes_it(device, queue, fmt):
    tex, chain = _make(device, queue, fmt, 16, 12, 4)  # mips 16x12, 8x6, 4x3, 2x1: partial blocks below mip 0
    for m, blocks in enumerate(chain):
        w, h = max(1, 16 >> m), max(1, 12 >> m)
        want = pillow_decode(fmt, w, h, blocks) / 255.0
        got = gpu_load(device, queue, tex, m)
        assert np.abs(got - want).max() <= TOLERANCE[fmt], (m, np.abs(got - want).max())


@pytest.mark.parametrize("fmt", ["bc1_unorm", "bc7_unorm"])
def test_linear_filtering_matches_a_bilinear_of_the_decoded_texels(device, queue, fmt):
    tex, chain = _make(device, queue, fmt, 8, 8, 1, seed=11)
    texels = pillow_decode(fmt, 8, 8, chain[0]) / 255.0
    got = gpu_sample(device, queue, tex, (1.0, 1.0))  # corners of texels: the average of 4 (clamped at the edge)
    ys, xs = np.mgrid[0:8, 0:8]
    x1, y1 = np.minimum(xs + 1, 7), np.minimum(ys + 1, 7)
    want = (texels[ys, xs] + texels[ys, x1] + texels[y1, xs] + texels[y1, x1]) / 4
    assert np.abs(got - want).max() <= TOLERANCE[fmt] + 2 / 255, np.abs(got - want).max()


def test_srgb_view_of_bc1_decodes_to_linear(device, queue):
    tex, chain = _make(device, queue, "bc1_unorm_srgb", 8, 8, 1, seed=5)
    decoded = pillow_decode("bc1_unorm", 8, 8, chain[0]) / 255.0
    want = decoded.copy()
    want[..., :3] = srgb_to_linear(decoded[..., :3])
    assert np.abs(gpu_load(device, queue, tex) - want).max() <= 4 / 255
    # the same blocks through a bc1_unorm view of the same texture (one cast family, created BC1_TYPELESS)
    assert np.abs(gpu_load(device, queue, tex, fmt="bc1_unorm") - decoded).max() <= TOLERANCE["bc1_unorm"]


@pytest.mark.parametrize("fmt, block", [("bc1_unorm", 8), ("bc4_unorm", 8), ("bc2_unorm", 16), ("bc3_unorm", 16),
                                        ("bc5_unorm", 16), ("bc6h_uf16", 16), ("bc7_unorm", 16), ("bc7_unorm_srgb", 16)])
def test_blocks_read_back_as_uploaded_and_copy(device, queue, fmt, block):
    rng = np.random.default_rng(block)
    tex = device.create_texture2d(12, 8, fmt, mip_levels=0)  # 12x8, 6x4, 3x2, 1x1
    assert tex.mip_levels == 4 and tex.shape == (2, 3, block)
    chain = [rng.integers(0, 256, ((max(1, 8 >> m) + 3) // 4, (max(1, 12 >> m) + 3) // 4, block), dtype=np.uint8)
             for m in range(4)]
    cl = queue.command_list()
    for m, blocks in enumerate(chain):
        cl.upload(tex, blocks if m % 2 else blocks.tobytes(), mip=m)  # an array of blocks or plain bytes
    copy = device.create_texture2d(12, 8, fmt, mip_levels=0)
    cl.copy_resource(copy, tex)
    queue.wait(queue.execute(cl))
    for m, blocks in enumerate(chain):
        got = queue.read_texture(tex, m)
        assert got.dtype == np.uint8 and got.shape == blocks.shape
        assert np.array_equal(got, blocks) and np.array_equal(queue.read_texture(copy, m), blocks), m


def test_new_bc_texture_reads_as_zero_blocks(device, queue):
    tex = device.create_texture2d(8, 8, "bc7_unorm", mip_levels=0)
    cl = queue.command_list()
    queue.wait(queue.execute(cl))
    for m in range(tex.mip_levels):
        assert not queue.read_texture(tex, m).any()


def test_upload_size_is_checked_in_blocks(device, queue):
    tex = device.create_texture2d(8, 4, "bc1_unorm", mip_levels=0)  # 8x4, 4x2, 2x1, 1x1
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match=r"8x4 bc1_unorm = 16 bytes \(1 rows of 2 4x4 blocks of 8 bytes\), got 64"):
        cl.upload(tex, np.zeros((4, 8, 2), np.uint8))
    with pytest.raises(dx.InvalidArgumentError, match=r"2x1 bc1_unorm = 8 bytes"):
        cl.upload(tex, bytes(16), mip=2)
    cl.upload(tex, bytes(8), mip=3)


def test_d3d12_refusals(device):
    for kw in ({"render_target": True}, {"uav": True}):
        with pytest.raises(dx.InvalidArgumentError, match="bc7_unorm is block-compressed: D3D12 makes no render targets, "
                                                          "depth-stencil targets or unordered access views"):
            device.create_texture2d(8, 8, "bc7_unorm", **kw)
    with pytest.raises(dx.InvalidArgumentError, match="depth_stencil=True needs a depth format, not bc7_unorm"):
        device.create_texture2d(8, 8, "bc7_unorm", depth_stencil=True)
    with pytest.raises(dx.InvalidArgumentError, match="bc1_unorm is block-compressed"):
        device.create_texture_cube(8, "bc1_unorm", render_target=True)
    with pytest.raises(dx.InvalidArgumentError, match=r"bc1_unorm texture of 6x8: .*multiple of 4 .*pad the image to 8x8"):
        device.create_texture2d(6, 8, "bc1_unorm")
    with pytest.raises(dx.InvalidArgumentError, match=r"multiple of 4"):
        device.create_texture_cube(2, "bc1_unorm")
    with pytest.raises(dx.InvalidArgumentError, match=r"multiple of 4"):
        device.create_texture3d(4, 5, 4, "bc1_unorm")
    assert device.create_texture3d(4, 4, 3, "bc1_unorm").shape == (3, 1, 1, 8)  # the depth may be any size
    assert device.create_texture_cube(4, "bc7_unorm").dimension == "cube"
    assert not device.format_support("bc1_unorm").mip_autogen
    with pytest.raises(dx.InvalidArgumentError, match="block-compressed"):
        device.queue().command_list().generate_mips(device.create_texture2d(8, 8, "bc1_unorm", mip_levels=0))
