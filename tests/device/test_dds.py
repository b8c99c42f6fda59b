"""Device.load_texture reads DDS files (dx12kit.dds): written here with known blocks and texels, loaded, read on
the GPU and compared with Pillow's decoding of the same file (BC1, BC7) or with the texels written."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

from .ddsfiles import DDSCAPS2_CUBEMAP_ALL, DXGI, block_chain, dds_file, pillow_decode, srgb_to_linear
from .test_block_compressed import TOLERANCE, gpu_load

RGBA_MASKS = (0x41, 32, 0xFF, 0xFF00, 0xFF0000, 0xFF000000)   # DDPF_RGB | DDPF_ALPHAPIXELS, R8G8B8A8
BGRA_MASKS = (0x41, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000)


@pytest.mark.parametrize("fmt, header", [("bc1_unorm", "legacy"), ("bc7_unorm", "dx10"), ("bc1_unorm", "dx10")])
def test_bc_file_with_mips_loads_every_mip_as_pillow_decodes_it(device, queue, tmp_path, fmt, header):
    from PIL import Image

    bc7 = fmt.startswith("bc7")
    chain = block_chain(np.random.default_rng(21), 16, 8, 5, 16 if bc7 else 8, bc7)   # 16x8 .. 1x1
    path = tmp_path / f"{fmt}.dds"
    path.write_bytes(dds_file(16, 8, chain, mips=5, fourcc=b"DXT1") if header == "legacy"
                     else dds_file(16, 8, chain, mips=5, dxgi=DXGI[fmt]))
    with Image.open(path) as im:  # Pillow reads the file we wrote: mip 0 is the reference of mip 0
        mip0 = np.asarray(im.convert("RGBA"))
    tex = device.load_texture(path)
    assert tex.format == dx.Format[fmt.upper()] and tex.mip_levels == 5 and (tex.width, tex.height) == (16, 8)
    assert np.array_equal(mip0, pillow_decode(fmt, 16, 8, chain[0]))
    for m, blocks in enumerate(chain):
        w, h = max(1, 16 >> m), max(1, 8 >> m)
        assert np.array_equal(queue.read_texture(tex, m).reshape(-1), np.frombuffer(blocks, np.uint8)), m
        want = pillow_decode(fmt, w, h, blocks) / 255.0
        assert np.abs(gpu_load(device, queue, tex, m) - want).max() <= TOLERANCE[fmt], m
    assert device.load_texture(path) is tex  # cached like image files


def test_bc7_srgb_true_picks_the_srgb_format(device, queue, tmp_path):
    chain = block_chain(np.random.default_rng(2), 8, 8, 1, 16, True)
    path = tmp_path / "srgb.dds"
    path.write_bytes(dds_file(8, 8, chain, dxgi=DXGI["bc7_unorm"]))
    tex = device.load_texture(path, srgb=True)
    assert tex.format == dx.Format.BC7_UNORM_SRGB
    decoded = pillow_decode("bc7_unorm", 8, 8, chain[0]) / 255.0
    decoded[..., :3] = srgb_to_linear(decoded[..., :3])
    assert np.abs(gpu_load(device, queue, tex) - decoded).max() <= 2 / 255


def test_dx10_rgba8_file_loads_its_texels(device, queue, tmp_path):
    rng = np.random.default_rng(4)
    mips = [rng.integers(0, 256, (max(1, 8 >> m), max(1, 16 >> m), 4), dtype=np.uint8) for m in range(3)]
    path = tmp_path / "rgba8.dds"
    path.write_bytes(dds_file(16, 8, [m.tobytes() for m in mips], mips=3, dxgi=DXGI["rgba8_unorm"]))
    tex = device.load_texture(path)
    assert tex.format == dx.Format.RGBA8_UNORM and tex.mip_levels == 3  # the file's mips, none generated
    for m, texels in enumerate(mips):
        assert np.array_equal(queue.read_texture(tex, m), texels)
        assert np.allclose(gpu_load(device, queue, tex, m), texels / 255.0, atol=1e-6)


def test_legacy_bgra8_file_with_one_mip_gets_generated_mips(device, queue, tmp_path):
    bgra = np.zeros((8, 8, 4), np.uint8)
    bgra[...] = (10, 20, 200, 255)  # B, G, R, A in memory
    path = tmp_path / "bgra.dds"
    path.write_bytes(dds_file(8, 8, [bgra.tobytes()], masks=BGRA_MASKS))
    tex = device.load_texture(path)
    assert tex.format == dx.Format.BGRA8_UNORM and tex.mip_levels == 4
    assert np.allclose(gpu_load(device, queue, tex, 3)[0, 0], np.array([200, 20, 10, 255]) / 255.0, atol=1e-6)


def test_array_file_loads_every_slice(device, queue, tmp_path):
    slices = [np.full((4, 4, 4), 40 * (i + 1), np.uint8) for i in range(3)]
    path = tmp_path / "array.dds"
    path.write_bytes(dds_file(4, 4, [s.tobytes() for s in slices], dxgi=DXGI["rgba8_unorm"], array_size=3))
    tex = device.load_texture(path)
    assert tex.array_size == 3 and tex.mip_levels == 1
    for i, s in enumerate(slices):
        assert np.array_equal(queue.read_texture(tex, 0, array_slice=i), s)


CUBE_CS = """
TextureCube<float4> t : register(t0);
SamplerState s : register(s0);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(6, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
    float3 d = float3(id.x == 0 ? 1 : id.x == 1 ? -1 : 0, id.x == 2 ? 1 : id.x == 3 ? -1 : 0, id.x == 4 ? 1 : id.x == 5 ? -1 : 0);
    o[id.x] = t.SampleLevel(s, d, 0);
}
"""


@pytest.mark.parametrize("header", ["legacy", "dx10"])
def test_cube_map_file_makes_a_cube_texture(device, queue, tmp_path, header):
    # BC1 faces with mips: each face one colour (c0 = c1 = the colour, indices 0), mips of the same colour.
    colours565 = [0xF800, 0x07E0, 0x001F, 0xFFE0, 0x07FF, 0xF81F]
    expected = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1]], np.float32)
    faces = []
    for c in colours565:
        block = np.array([c, c, 0, 0], "<u2").tobytes()
        faces.append(block * 4 + block + block + block)  # 8x8 mip 0 (4 blocks), 4x4, 2x2, 1x1
    path = tmp_path / f"cube_{header}.dds"
    if header == "legacy":
        path.write_bytes(dds_file(8, 8, faces, mips=4, fourcc=b"DXT1", caps2=DDSCAPS2_CUBEMAP_ALL))
    else:
        path.write_bytes(dds_file(8, 8, faces, mips=4, dxgi=DXGI["bc1_unorm"], misc=0x4))
    tex = device.load_texture(path)
    assert tex.dimension == "cube" and tex.array_size == 6 and tex.mip_levels == 4 and tex.format == dx.Format.BC1_UNORM
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)])],
                                      static_samplers=[dx.StaticSampler(0, filter="point")])
    pso = device.create_compute_pipeline(dx.compile_hlsl(CUBE_CS, profile="cs_5_0"), rs)
    out = device.create_buffer(6 * 16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, tex)
    cl.set_unordered_access_view(1, 0, out)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    got = queue.read_buffer(out, np.float32).reshape(6, 4)
    assert np.allclose(got[:, :3], expected, atol=1e-3) and np.allclose(got[:, 3], 1.0), got
    for f in range(6):
        assert queue.read_texture(tex, 3, array_slice=f).tobytes() == faces[f][-8:]


def test_refusals_name_the_file_and_the_feature(device, tmp_path):
    def refused(data, match, name="bad.dds"):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(dx.InvalidArgumentError, match=match) as e:
            device.load_texture(path)
        assert str(path) in str(e.value)

    one = [bytes(32)]
    refused(dds_file(4, 4, one, masks=(0x40, 24, 0xFF0000, 0xFF00, 0xFF, 0)), r"24-bit rgb pixel format .*no DXGI format")
    refused(dds_file(4, 4, one, fourcc=b"DXT1", caps2=0x200 | 0x400), r"partial cube map")
    refused(dds_file(4, 4, one, dxgi=DXGI["bc1_unorm"], misc=0x4, array_size=2), r"cube map array of 2 cubes")
    refused(dds_file(4, 4, one, fourcc=b"ETC2"), r"legacy FourCC 'ETC2'")
    refused(dds_file(8, 8, [bytes(8)], fourcc=b"DXT1"), r"too little data: element 0 mip 0 \(8x8 bc1_unorm, 32 bytes\)")
    refused(dds_file(4, 4, one, dxgi=103), r"format nv12, whose layout load_texture does not know")
    refused(dds_file(4, 4, one, dxgi=4000), r"DXGI format 4000, which is no DXGI format")
    refused(b"DDS " + bytes(20), r"truncated header")
    refused(dds_file(4, 4, [bytes(8)], dxgi=DXGI["bc1_unorm"])[:-4], r"too little data")
    refused(dds_file(4, 4, [], dxgi=DXGI["bc1_unorm"])[:-8], r"truncated DX10 header")
    path = tmp_path / "ok.dds"
    path.write_bytes(dds_file(4, 4, [bytes(8)], dxgi=DXGI["bc1_unorm"]))
    with pytest.raises(dx.InvalidArgumentError, match=r"holds bc4_unorm, which has no sRGB form"):
        path.write_bytes(dds_file(4, 4, [bytes(8)], fourcc=b"ATI1"))
        device.load_texture(path, srgb=True)


def _volume_file(width, height, depth, data, dxgi, legacy_flags, misc=0, surfaces=None):
    """A DX10 TEXTURE3D file of `depth` slices; the legacy DDSD_DEPTH / DDSCAPS2_VOLUME flags only if asked."""
    import struct

    d = bytearray(dds_file(width, height, surfaces or [data], dxgi=dxgi, misc=misc))
    struct.pack_into("<I", d, 4 + 20, depth)             # dwDepth
    struct.pack_into("<I", d, 4 + 124 + 4, 4)            # DX10 resourceDimension TEXTURE3D
    if legacy_flags:
        struct.pack_into("<I", d, 8, struct.unpack_from("<I", d, 8)[0] | 0x800000)          # DDSD_DEPTH
        struct.pack_into("<I", d, 4 + 108, struct.unpack_from("<I", d, 4 + 108)[0] | 0x200000)  # DDSCAPS2_VOLUME
    return bytes(d)


@pytest.mark.parametrize("legacy_flags", [True, False])
def test_dx10_volume_file_loads_every_slice_whatever_the_legacy_flags(device, queue, tmp_path, legacy_flags):
    # The DX10 header's resourceDimension decides: a TEXTURE3D file without the legacy volume flags
    # once loaded as a 2D texture of its first slice.
    w, h, depth = 4, 3, 5
    data = (np.arange(w * h * depth) * 3 % 251).astype(np.uint8).tobytes()
    path = tmp_path / "volume.dds"
    path.write_bytes(_volume_file(w, h, depth, data, 61, legacy_flags))     # r8_unorm
    tex = device.load_texture(path, generate_mips=False)
    assert (tex.dimension, tex.width, tex.height, tex.depth) == ("3d", w, h, depth)
    assert queue.read_texture(tex).tobytes() == data
    one = tmp_path / "volume1.dds"
    one.write_bytes(_volume_file(w, h, 1, data[:w * h], 61, False))
    tex1 = device.load_texture(one, generate_mips=False)
    assert (tex1.dimension, tex1.depth) == ("3d", 1)
    assert queue.read_texture(tex1).tobytes() == data[:w * h]


def test_rgb32_float_file_loads_its_texels(device, queue, tmp_path):
    w, h = 5, 3
    texels = (np.arange(w * h * 3, dtype=np.float32) + 1).reshape(h, w, 3)
    path = tmp_path / "rgb32.dds"
    path.write_bytes(dds_file(w, h, [texels.tobytes()], dxgi=6))
    tex = device.load_texture(path, generate_mips=False)
    np.testing.assert_array_equal(queue.read_texture(tex).reshape(h, w, 3), texels)
    np.testing.assert_array_equal(gpu_load(device, queue, tex)[..., :3], texels)


def test_more_refusals_name_the_file_and_the_feature(device, tmp_path):
    def refused(data, match, name="bad.dds"):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(dx.InvalidArgumentError, match=match) as e:
            device.load_texture(path)
        assert str(path) in str(e.value)

    import struct

    refused(_volume_file(4, 4, 4, None, 28, True, misc=0x4, surfaces=[bytes(64 * 4)] * 6),
            r"TEXTURE3D and the TEXTURECUBE flag together")
    legacy = bytearray(dds_file(4, 4, [bytes(64 * 4)] * 6, masks=RGBA_MASKS, caps2=DDSCAPS2_CUBEMAP_ALL | 0x200000))
    struct.pack_into("<I", legacy, 8, struct.unpack_from("<I", legacy, 8)[0] | 0x800000)
    struct.pack_into("<I", legacy, 4 + 20, 4)
    refused(bytes(legacy), r"both DDSCAPS2_CUBEMAP and DDSCAPS2_VOLUME")
    refused(dds_file(20000, 1, [bytes(20000)], dxgi=61), r"20000x1, beyond D3D12's limit of 16384 .* 2D texture")
    refused(_volume_file(1, 1, 3000, bytes(3000), 61, False), r"1x1x3000, beyond D3D12's limit of 2048 .* 3D texture")
    refused(dds_file(1, 1, [bytes(1)] * 2049, dxgi=61, array_size=2049), r"array of 2049 elements, beyond D3D12's limit of 2048")
    refused(dds_file(4, 4, [bytes(64)], dxgi=40), r"depth format d32_float; .* r32_float")
    refused(dds_file(4, 4, [bytes(128)], dxgi=20), r"depth format d32_float_s8x24_uint; .* r32g32_uint")
    # The device's own refusals, prefixed with the file; a format generate_mips cannot make mips of.
    refused(dds_file(6, 6, [bytes(32)], dxgi=DXGI["bc1_unorm"]), r"\(6x6 bc1_unorm\): create_texture2d: .* multiple of 4")
    refused(dds_file(4, 4, [bytes(192)], dxgi=6), r"holds rgb32_float, whose mips generate_mips cannot make .* generate_mips=False")


def test_subresource_bytes_of_8_byte_depth_stencil_texels():
    from dx12kit import dds

    assert dds.subresource_bytes("d32_float_s8x24_uint", 4, 4, 1) == 128
    assert dds.subresource_bytes("r32g8x24_typeless", 4, 4, 1) == 128
    assert dds.subresource_bytes("d32_float", 4, 4, 1) == 64


def test_subresource_bytes_come_from_the_core_format_table():
    """dds.py keeps no size table of its own: every format's size is the core's (dx12core.format_info)."""
    from dx12kit import dds

    for name in dx.dx12core.Format.__members__:
        if name == "UNKNOWN":
            continue
        info = dx.dx12core.format_info(name)
        n = dds.subresource_bytes(info["name"], 5, 3, 2)
        if info["layout"] == "block":
            assert n == 2 * 1 * info["block_bytes"] * 2, name
        elif info["layout"] == "texel":
            assert n == 5 * 3 * info["packed_texel_bytes"] * 2 and info["packed_texel_bytes"] >= info["bytes_per_texel"] > 0, name
        else:
            assert n is None, name
    assert dx.dx12core.format_info("BC4_SNORM")["block_bytes"] == 8 and dx.dx12core.format_info("bc7_unorm")["block_bytes"] == 16
    assert dx.dx12core.format_info("DXGI_FORMAT_R32G32B32_FLOAT")["packed_texel_bytes"] == 12
    d32s8 = dx.dx12core.format_info("d32_float_s8x24_uint")
    assert (d32s8["bytes_per_texel"], d32s8["packed_texel_bytes"], d32s8["depth"]) == (4, 8, True)
    assert dx.dx12core.format_info("nv12")["layout"] == "other"
    with pytest.raises(dx.InvalidArgumentError, match=r"format_info: unknown format 'rgba9_unorm'; did you mean"):
        dx.dx12core.format_info("rgba9_unorm")
