"""Device.texture_allocation_info / buffer_allocation_info: a resource's size and alignment before it exists
(D3D12's GetResourceAllocationInfo, answered as dx12kit places the resource). The answer must be what
``.allocation`` reports for the resource created with the same arguments, and what placement needs: resources
placed back to back at offsets computed from it alone keep their own contents."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

TEXTURES = [
    pytest.param(dict(width=16, height=16, format="rgba8_unorm"), id="16x16-rgba8"),
    pytest.param(dict(width=256, height=256, format="rgba8_unorm"), id="256x256-rgba8"),
    pytest.param(dict(width=64, height=64, format="rgba8_unorm", mip_levels=0), id="64x64-full-mips"),
    pytest.param(dict(width=32, height=32, format="rgba8_unorm", array_size=6), id="32x32-array6"),
    pytest.param(dict(width=64, height=64, format="bc1_unorm"), id="64x64-bc1"),
    pytest.param(dict(width=32, height=32, format="d32_float", depth_stencil=True), id="32x32-depth"),
    pytest.param(dict(width=32, height=32, format="rgba8_unorm", render_target=True), id="32x32-render-target"),
    pytest.param(dict(width=32, height=32, format="rgba8_unorm", render_target=True, sample_count=4), id="32x32-msaa4"),
    pytest.param(dict(width=16, height=16, format="rgba16_float", uav=True), id="16x16-uav"),
]
BUFFERS = [pytest.param(1, False, id="1B"), pytest.param(65537, False, id="64KiB+1"), pytest.param(300, True, id="300B-uav")]


def _texture_info(device, desc):
    d = dict(desc)
    return device.texture_allocation_info(d.pop("width"), d.pop("height"), d.pop("format"), **d)


def _align_up(x, a):
    return (x + a - 1) // a * a


@pytest.mark.parametrize("desc", TEXTURES)
def test_texture_info_equals_the_allocation_of_the_created_texture(device, desc):
    info = _texture_info(device, desc)
    assert set(info) == {"size", "alignment"}
    t = device.create_texture2d(name="pooled", **desc)
    a = t.allocation
    assert (info["size"], info["alignment"]) == (a["size"], a["alignment"])
    # Placed in allocated memory at a nonzero offset that is a multiple of the alignment: the same numbers.
    mem = device.allocate_memory(2 * info["alignment"] + info["size"], alignment=max(info["alignment"], 65536))
    p = device.create_texture2d(name="placed", memory=mem, offset=info["alignment"], **desc)
    assert (p.allocation["size"], p.allocation["alignment"]) == (info["size"], info["alignment"])


@pytest.mark.parametrize("size,uav", BUFFERS)
def test_buffer_info_equals_the_allocation_of_the_created_buffer(device, size, uav):
    info = device.buffer_allocation_info(size, uav=uav)
    a = device.create_buffer(size, uav=uav).allocation
    assert (info["size"], info["alignment"]) == (a["size"], a["alignment"])
    assert info["alignment"] == 65536 and info["size"] == _align_up(size, 65536)


def test_the_numbers_are_d3d12s_placement_rules(device):
    # A 16x16 RGBA8 texture fits one 4 KiB small-resource page (granted on this stack); a 256x256 one
    # needs 64 KiB alignment; render targets never take the small alignment.
    assert device.texture_allocation_info(16, 16, "rgba8_unorm") == {"size": 4096, "alignment": 4096}
    assert device.texture_allocation_info(256, 256, "rgba8_unorm") == {"size": 262144, "alignment": 65536}
    assert device.texture_allocation_info(16, 16, "rgba8_unorm", render_target=True)["alignment"] == 65536
    msaa = device.texture_allocation_info(32, 32, "rgba8_unorm", render_target=True, sample_count=4)["alignment"]
    assert msaa in (65536, 4 << 20)    # 64 KiB where OPTIONS4 grants small MSAA alignment, else 4 MiB


def _message(fn, *args, **kwargs):
    with pytest.raises(Exception) as e:
        fn(*args, **kwargs)
    return type(e.value), str(e.value)


@pytest.mark.parametrize("args,kwargs", [
    pytest.param((0, 16, "rgba8_unorm"), {}, id="zero-width"),
    pytest.param((32768, 16, "rgba8_unorm"), {}, id="too-wide"),
    pytest.param((16, 16, "rgba8_unrom"), {}, id="unknown-format-name"),
    pytest.param((16, 16, 0), {}, id="format-unknown"),
    pytest.param((16, 16, 1.5), {}, id="format-of-wrong-type"),
    pytest.param((16, 16, "rgba8_unorm"), {"mip_levels": 9}, id="too-many-mips"),
    pytest.param((16, 16, "rgba8_unorm"), {"array_size": 0}, id="no-slices"),
    pytest.param((16, 16, "d32_float"), {"render_target": True}, id="depth-render-target"),
    pytest.param((16, 16, "rgba8_unorm"), {"depth_stencil": True}, id="colour-depth-buffer"),
    pytest.param((16, 16, "rgba8_unorm_srgb"), {"uav": True}, id="srgb-uav"),
    pytest.param((6, 6, "bc1_unorm"), {}, id="bc1-not-multiple-of-4"),
    pytest.param((16, 16, "rgba8_unorm"), {"sample_count": 4}, id="msaa-not-render-target"),
    pytest.param((16, 16, "rgba8_unorm"), {"sample_count": 3, "render_target": True}, id="msaa-count-unsupported"),
    pytest.param((16, 16, "rgba8_unorm"), {"sample_count": 4, "render_target": True, "mip_levels": 2}, id="msaa-mips"),
    pytest.param((-1, 16, "rgba8_unorm"), {}, id="negative-width"),
    pytest.param(("16", 16, "rgba8_unorm"), {}, id="width-of-wrong-type"),
])
def test_texture_info_refuses_what_create_texture2d_refuses_with_the_same_error(device, args, kwargs):
    kind, text = _message(device.texture_allocation_info, *args, **kwargs)
    created_kind, created_text = _message(device.create_texture2d, *args, **kwargs)
    assert kind is created_kind and issubclass(kind, (dx.InvalidArgumentError, TypeError))
    assert text == created_text.replace("create_texture2d", "texture_allocation_info")


@pytest.mark.parametrize("size", [0, (1 << 40) + 1, -5, 2.0])
def test_buffer_info_refuses_what_create_buffer_refuses_with_the_same_error(device, size):
    kind, text = _message(device.buffer_allocation_info, size)
    created_kind, created_text = _message(device.create_buffer, size)
    assert kind is created_kind and issubclass(kind, (dx.InvalidArgumentError, TypeError))
    assert text == created_text.replace("create_buffer", "buffer_allocation_info")


COPY_VS_PS = """
float4 VSMain(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv.x * 2 - 1, 1 - uv.y * 2, 0, 1);
}
Texture2D<float4> src : register(t0);
float4 PSMain(float4 p : SV_Position) : SV_Target { return src.Load(int3(p.xy, 0)); }
"""


def _texels(n, w, h):
    y, x = np.mgrid[0:h, 0:w]
    img = np.empty((h, w, 4), np.uint8)
    img[..., 0] = (x * 13 + n * 41) % 256
    img[..., 1] = (y * 17 + n * 7) % 256
    img[..., 2] = (x * 5 + y * 3 + n * 97) % 256
    img[..., 3] = 255 - n
    return img


def test_textures_placed_back_to_back_from_the_info_alone_keep_their_texels(device, queue):
    # Small textures (4 KiB alignment) and render targets (64 KiB) interleaved, so that the offsets must be
    # rounded up to each texture's own alignment; nothing but the info decides them.
    descs = [(16, 16, False), (8, 8, False), (16, 16, True), (16, 16, False), (4, 4, False), (16, 16, True), (32, 32, False)]
    infos = [device.texture_allocation_info(w, h, "rgba8_unorm", render_target=rt) for w, h, rt in descs]
    offsets, end = [], 0
    for info in infos:
        offsets.append(_align_up(end, info["alignment"]))
        end = offsets[-1] + info["size"]
    assert any(o % 65536 for o in offsets)          # small textures really sit between 64 KiB boundaries
    mem = device.allocate_memory(end, alignment=max(i["alignment"] for i in infos), name="back to back")
    textures = [device.create_texture2d(w, h, "rgba8_unorm", render_target=rt, memory=mem, offset=o, name=f"t{n}")
                for n, ((w, h, rt), o) in enumerate(zip(descs, offsets))]
    assert [t.allocation["offset"] - mem.allocation["offset"] for t in textures] == offsets

    sources = [n for n, (_, _, rt) in enumerate(descs) if not rt]
    targets = [n for n, (_, _, rt) in enumerate(descs) if rt]
    cl = queue.command_list()
    for n in sources:
        w, h, _ = descs[n]
        cl.upload(textures[n], _texels(n, w, h))
    queue.execute(cl)

    # Each render target gets the texels of a 16x16 source, drawn (a texel-exact copy by Load).
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)], visibility="pixel")])
    pso = device.create_graphics_pipeline(dx.compile_hlsl(COPY_VS_PS, profile="vs_5_0", entry="VSMain"),
                                          dx.compile_hlsl(COPY_VS_PS, profile="ps_5_0", entry="PSMain"), rs, ["rgba8_unorm"])
    drawn = {targets[0]: 0, targets[1]: 3}
    cl = queue.command_list()
    for rt, src in drawn.items():
        cl.discard_resource(textures[rt])          # a placed render target's initialisation
        cl.set_pipeline_state(pso)
        cl.set_render_targets([textures[rt]])
        cl.set_shader_resource_view(0, 0, textures[src])
        cl.draw(3)
    queue.execute(cl)

    for n in sources:
        w, h, _ = descs[n]
        assert np.array_equal(queue.read_texture(textures[n]), _texels(n, w, h)), f"texture {n}"
    for rt, src in drawn.items():
        assert np.array_equal(queue.read_texture(textures[rt]), _texels(src, 16, 16)), f"render target {rt}"
