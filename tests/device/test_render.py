"""Render passes on the real device: pixels read back and compared exactly with numpy."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

from .shaders import FULLSCREEN_VS, TEXTURED_PS


@pytest.fixture(scope="module")
def textured(device):
    vs = dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(TEXTURED_PS, profile="ps_5_0")
    rs = device.create_root_signature(
        [dx.RootConstants(0, 4), dx.DescriptorTable([dx.SRV(0)])],
        static_samplers=[dx.StaticSampler(0, filter="point", address="clamp")],
    )
    return device.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])


def test_textured_fullscreen_triangle_with_tint(device, queue, textured):
    size = 64
    rng = np.random.default_rng(7)
    # Multiples of 4 make texel * tint an exact integer for tints 1, 0.5 and 0.25, so there is no
    # rounding tie to resolve and the comparison can be exact.
    src = (rng.integers(0, 64, (size, size, 4)) * 4).astype(np.uint8)
    tex = device.create_texture2d(size, size, "rgba8_unorm", name="source")
    rt = device.create_texture2d(size, size, "rgba8_unorm", render_target=True, name="target")
    tint = np.array([1.0, 0.5, 0.25, 1.0], dtype=np.float32)
    cl = queue.command_list()
    cl.upload(tex, src)
    cl.set_pipeline_state(textured)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.set_constants(0, tint)
    cl.set_shader_resource_view(1, 0, tex)
    cl.draw(3)
    queue.execute(cl)
    out = queue.read_texture(rt)
    assert out.shape == (size, size, 4) and out.dtype == np.uint8
    # Point sampling at texel centres returns the texel itself; each pixel is texel * tint.
    expected = (src.astype(np.float64) * tint).astype(np.uint8)
    np.testing.assert_array_equal(out, expected)


def test_clear_and_two_targets(device, queue):
    a = device.create_texture2d(16, 8, "rgba8_unorm", render_target=True)
    b = device.create_texture2d(16, 8, "rgba16_float", render_target=True)
    cl = queue.command_list()
    cl.clear_render_target(a, [1.0, 0.0, 0.5, 1.0])
    cl.clear_render_target(b, [0.25, -2.0, 3.5, 1.0])
    queue.execute(cl)
    ra = queue.read_texture(a)
    rb = queue.read_texture(b)
    assert (ra == np.array([255, 0, 128, 255], np.uint8)).all()
    assert rb.dtype == np.float16 and (rb == np.array([0.25, -2.0, 3.5, 1.0], np.float16)).all()


def test_depth_test_and_vertex_input(device, queue):
    vs = dx.compile_hlsl("""
        struct VSOut { float4 pos : SV_Position; float4 col : COLOR0; };
        VSOut main(float3 p : POSITION, float4 c : COLOR0) { VSOut o; o.pos = float4(p, 1); o.col = c; return o; }
    """, profile="vs_5_0")
    ps = dx.compile_hlsl("float4 main(float4 pos : SV_Position, float4 c : COLOR0) : SV_Target { return c; }", profile="ps_5_0")
    rs = device.create_root_signature([])
    pso = device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], dsv_format="d32_float",
                                          input_layout=[("POSITION", "float3", 0, 0), ("COLOR", "float4", 0, 12)],
                                          depth_test=True)
    rt = device.create_texture2d(32, 32, render_target=True)
    ds = device.create_texture2d(32, 32, "d32_float", depth_stencil=True)

    def tri(z, rgba):
        return [[-1, -1, z, *rgba], [-1, 3, z, *rgba], [3, -1, z, *rgba]]

    near = np.array(tri(0.2, [0, 1, 0, 1]), np.float32)
    far = np.array(tri(0.8, [1, 0, 0, 1]), np.float32)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt], depth=ds)
    cl.clear_render_target(rt, [0, 0, 0, 1])
    cl.clear_depth_stencil(ds, 1.0)
    cl.set_dynamic_vertex_buffer(0, near)       # the near green triangle first
    cl.draw(3)
    cl.set_dynamic_vertex_buffer(0, far)        # the far red one fails the depth test
    cl.draw(3)
    queue.execute(cl)
    out = queue.read_texture(rt)
    assert (out == np.array([0, 255, 0, 255], np.uint8)).all()
    depth = queue.read_texture(ds)
    assert depth.dtype == np.float32 and np.allclose(depth, 0.2)
