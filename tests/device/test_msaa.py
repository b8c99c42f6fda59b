"""MSAA on the real device: multisampled render targets, resolve, Texture2DMS reads, sample-count
rules. vkd3d over lavapipe supports x1 and x4 only, so x2 and x8 are the refused
counts here; the messages list what the device supports."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

from .shaders import FULLSCREEN_POS_VS, WHITE_PS

SIZE = 32

# A triangle with corners at pixels (0, 0), (0, SIZE), (SIZE, SIZE): the lower-left half, whose
# edge is the diagonal y = x. Pixel (row r, column c) lies inside when r > c, outside when r < c,
# and the edge passes through the centres of the diagonal pixels r == c: with several samples
# per pixel, some fall on each side, so the resolved diagonal is partly covered.
TRIANGLE_VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 p[3] = { float2(-1, 1), float2(-1, -1), float2(1, -1) };
    return float4(p[id], 0, 1);
}
"""
# The average of the 4 samples of each pixel, read through a Texture2DMS SRV.
AVERAGE_MS_PS = """
Texture2DMS<float4, 4> ms : register(t0);
float4 main(float4 pos : SV_Position) : SV_Target {
    int2 p = int2(pos.xy);
    return (ms.Load(p, 0) + ms.Load(p, 1) + ms.Load(p, 2) + ms.Load(p, 3)) * 0.25;
}
"""


@pytest.fixture(scope="module")
def shaders():
    return {
        "tri_vs": dx.compile_hlsl(TRIANGLE_VS, profile="vs_5_0"),
        "white_ps": dx.compile_hlsl(WHITE_PS, profile="ps_5_0"),
        "full_vs": dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0"),
        "avg_ps": dx.compile_hlsl(AVERAGE_MS_PS, profile="ps_5_0"),
    }


def _triangle_pipeline(device, shaders, samples):
    rs = device.create_root_signature([])
    return device.create_graphics_pipeline(shaders["tri_vs"], shaders["white_ps"], rs, ["rgba8_unorm"], sample_count=samples,
                                           name=f"triangle x{samples}")


def _draw_triangle(queue, pso, target):
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 1])
    cl.draw(3)
    return cl


def _regions():
    r, c = np.indices((SIZE, SIZE))
    return r > c, r == c, r < c


def test_format_support_lists_x1_and_x4(device):
    # D3D12 requires 4x MSAA for every render-target format from feature level 11_0; 1 is always there.
    counts = device.format_support("rgba8_unorm").msaa
    assert counts == device.format_support("rgba8_unorm")["msaa"] == sorted(set(counts))
    assert 1 in counts and 4 in counts


def test_resolve_gives_partial_coverage_on_the_edge(device, queue, shaders):
    ms = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4, name="ms")
    out = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", name="resolved")
    assert ms.sample_count == 4 and out.sample_count == 1
    cl = _draw_triangle(queue, _triangle_pipeline(device, shaders, 4), ms)
    cl.resolve(out, ms)
    queue.execute(cl)
    px = queue.read_texture(out)[:, :, 0].astype(int)
    inside, edge, outside = _regions()
    assert (px[inside] == 255).all()
    assert (px[outside] == 0).all()
    assert ((px[edge] > 0) & (px[edge] < 255)).all(), px[edge]
    assert (queue.read_texture(out)[:, :, 3] == 255).all()


def test_single_sample_edge_has_no_partial_pixels(device, queue, shaders):
    rt = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=1)
    queue.execute(_draw_triangle(queue, _triangle_pipeline(device, shaders, 1), rt))
    px = queue.read_texture(rt)[:, :, 0]
    inside, _edge, outside = _regions()
    assert set(np.unique(px)) <= {0, 255}
    assert (px[inside] == 255).all() and (px[outside] == 0).all()


def test_texture2dms_srv_reads_the_samples(device, queue, shaders):
    """An SRV of a multisampled texture (TEXTURE2DMS): the shader's average of the 4 samples equals
    the resolve within rounding."""
    ms = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4)
    resolved = device.create_texture2d(SIZE, SIZE, "rgba8_unorm")
    averaged = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True)
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)])])
    avg = device.create_graphics_pipeline(shaders["full_vs"], shaders["avg_ps"], rs, ["rgba8_unorm"])
    cl = _draw_triangle(queue, _triangle_pipeline(device, shaders, 4), ms)
    cl.resolve(resolved, ms)
    cl.set_pipeline_state(avg)
    cl.set_render_targets([averaged])
    cl.set_shader_resource_view(0, 0, ms)
    cl.draw(3)
    queue.execute(cl)
    a = queue.read_texture(averaged).astype(int)
    b = queue.read_texture(resolved).astype(int)
    assert np.abs(a - b).max() <= 1
    _inside, edge, _outside = _regions()
    assert ((a[:, :, 0][edge] > 0) & (a[:, :, 0][edge] < 255)).all()


@pytest.mark.parametrize("count", [2, 8, 3, 0, 64])
def test_unsupported_sample_counts_are_refused_with_the_list(device, shaders, count):
    supported = device.format_support("rgba8_unorm").msaa
    if count in supported:
        pytest.skip(f"this adapter supports {count}x MSAA for rgba8_unorm")  # 2x and 8x are optional in D3D12
    listed = "supported: " + ", ".join(map(str, supported))
    with pytest.raises(dx.InvalidArgumentError, match=r"sample_count=%d .*%s" % (count, listed)):
        device.create_texture2d(16, 16, "rgba8_unorm", render_target=True, sample_count=count)
    with pytest.raises(dx.InvalidArgumentError, match=r"sample_count=%d .*%s" % (count, listed)):
        _triangle_pipeline(device, shaders, count)


def test_msaa_texture_rules(device):
    with pytest.raises(dx.InvalidArgumentError, match="render target or depth buffer"):
        device.create_texture2d(16, 16, "rgba8_unorm", sample_count=4)
    with pytest.raises(dx.InvalidArgumentError, match="one mip"):
        device.create_texture2d(16, 16, "rgba8_unorm", render_target=True, sample_count=4, mip_levels=2)
    with pytest.raises(dx.InvalidArgumentError, match="uav"):
        device.create_texture2d(16, 16, "rgba8_unorm", render_target=True, uav=True, sample_count=4)
    with pytest.raises(TypeError, match="sample_count"):
        device.create_texture2d(16, 16, "rgba8_unorm", render_target=True, sample_count=4.0)


def test_msaa_depth_buffer_and_array(device, queue):
    d = device.create_texture2d(16, 16, "d32_float", depth_stencil=True, sample_count=4)
    rt = device.create_texture2d(16, 16, "rgba8_unorm", render_target=True, sample_count=4, array_size=2)
    assert d.sample_count == 4 and rt.array_size == 2
    cl = queue.command_list()
    cl.clear_depth_stencil(d, 0.5)
    cl.clear_render_target(rt, [1, 0, 0, 1])
    cl.set_render_targets([rt], d)
    # Each slice resolves on its own (subresource = slice for a one-mip texture) to the clear colour.
    outs = [device.create_texture2d(16, 16, "rgba8_unorm", name=f"slice{i}") for i in range(2)]
    for i, out in enumerate(outs):
        cl.resolve(out, rt, src_subresource=i)
    queue.wait(queue.execute(cl))
    for out in outs:
        assert (queue.read_texture(out).reshape(16, 16, 4) == [255, 0, 0, 255]).all()


def test_new_msaa_targets_read_as_zeros(device, queue):
    """Zero-initialisation clears new multisampled targets too (through their TEXTURE2DMS view)."""
    ms = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4)
    out = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.clear_render_target(out, [1, 1, 1, 1])
    cl.resolve(out, ms)
    queue.execute(cl)
    assert (queue.read_texture(out) == 0).all()


def test_pipeline_and_target_sample_counts_must_match(device, queue, shaders):
    ms = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4, name="ms4")
    single = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, name="single")
    cl = queue.command_list()
    cl.set_pipeline_state(_triangle_pipeline(device, shaders, 1))
    cl.set_render_targets([ms])
    with pytest.raises(dx.InvalidArgumentError, match=r"sample_count=1 but resource 'ms4' has 4 sample"):
        cl.draw(3)
    cl.set_pipeline_state(_triangle_pipeline(device, shaders, 4))
    cl.set_render_targets([single])
    with pytest.raises(dx.InvalidArgumentError, match=r"sample_count=4 but resource 'single' has 1 sample"):
        cl.draw(3)
    with pytest.raises(dx.InvalidArgumentError, match="share one sample count"):
        cl.set_render_targets([ms, single])
    d1 = device.create_texture2d(SIZE, SIZE, "d32_float", depth_stencil=True)
    with pytest.raises(dx.InvalidArgumentError, match="share one sample count"):
        cl.set_render_targets([ms], d1)
    cl.set_render_targets([ms])
    cl.draw(3)  # matching again: records
    queue.execute(cl)


def test_resolve_checks_its_arguments(device, queue):
    ms = device.create_texture2d(16, 16, "rgba8_unorm", render_target=True, sample_count=4, name="ms")
    ms2 = device.create_texture2d(16, 16, "rgba8_unorm", render_target=True, sample_count=4, name="ms2")
    small = device.create_texture2d(8, 8, "rgba8_unorm", name="small")
    single = device.create_texture2d(16, 16, "rgba8_unorm", name="single")
    other = device.create_texture2d(16, 16, "rgba16_float", name="half")
    mips = device.create_texture2d(32, 32, "rgba8_unorm", mip_levels=2, name="mips")
    dms = device.create_texture2d(16, 16, "d32_float", depth_stencil=True, sample_count=4, name="dms")
    dsingle = device.create_texture2d(16, 16, "d32_float", depth_stencil=True, name="dsingle")
    buf = device.create_buffer(1024)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="not multisampled"):
        cl.resolve(single, small)
    with pytest.raises(dx.InvalidArgumentError, match="must have sample_count=1"):
        cl.resolve(ms2, ms)
    with pytest.raises(dx.InvalidArgumentError, match="sizes differ"):
        cl.resolve(small, ms)
    with pytest.raises(dx.InvalidArgumentError, match="compatible with both"):
        cl.resolve(other, ms)
    with pytest.raises(dx.InvalidArgumentError, match="compatible with both"):
        cl.resolve(single, ms, format="rgba16_float")
    with pytest.raises(dx.InvalidArgumentError, match="out of range"):
        cl.resolve(single, ms, dst_subresource=1)
    with pytest.raises(dx.InvalidArgumentError, match="cannot be resolved"):
        cl.resolve(dsingle, dms)
    with pytest.raises(dx.InvalidArgumentError, match="textures"):
        cl.resolve(buf, ms)
    with pytest.raises(TypeError):
        cl.resolve(single, "ms")
    cl.resolve(mips, ms, dst_subresource=1)  # mip 1 of a 32x32 texture is 16x16
    cl.resolve(single, ms, format="rgba8_unorm_srgb")  # a member of both families
    queue.execute(cl)
    ccl = device.queue("compute").command_list()
    with pytest.raises(dx.InvalidArgumentError, match="direct queue"):
        ccl.resolve(single, ms)


def test_resolve_states_are_tracked(device, queue, shaders):
    """resolve puts src in RESOLVE_SOURCE and dst in RESOLVE_DEST through the tracker; the next use
    (sampling the result, drawing into the source again) transitions them back, and the global
    states after execute are what the tracker recorded (run with --validate too)."""
    ms = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4)
    out = device.create_texture2d(SIZE, SIZE, "rgba8_unorm")
    pso = _triangle_pipeline(device, shaders, 4)
    cl = _draw_triangle(queue, pso, ms)
    cl.resolve(out, ms)
    queue.execute(cl)
    assert ms.global_state() == dx.ResourceState.RESOLVE_SOURCE
    assert out.global_state() == dx.ResourceState.RESOLVE_DEST
    # Draw again (RESOLVE_SOURCE -> RENDER_TARGET at execute), resolve again, read back.
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([ms])
    cl.draw(3)
    cl.resolve(out, ms)
    queue.execute(cl)
    px = queue.read_texture(out)[:, :, 0]
    inside, edge, outside = _regions()
    assert (px[inside] == 255).all() and (px[outside] == 0).all() and ((px[edge] > 0) & (px[edge] < 255)).all()


def test_read_texture_of_msaa_refuses_and_names_resolve(device, queue):
    ms = device.create_texture2d(16, 16, "rgba8_unorm", render_target=True, sample_count=4, name="msaa")
    with pytest.raises(dx.InvalidArgumentError, match=r"'msaa' is multisampled \(4 samples\).*resolve"):
        queue.read_texture(ms)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="multisampled"):
        cl.upload(ms, np.zeros((16, 16, 4), np.uint8))
