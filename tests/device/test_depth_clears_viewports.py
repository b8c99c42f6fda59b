"""clear_depth_stencil with flags, mips and array slices; set_viewports / set_scissors with lists.
Depth is read back with read_texture, stencil through a stencil-tested draw."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

from .shaders import WHITE_PS, fullscreen_pos_vs

FULLSCREEN_VS = fullscreen_pos_vs(0.5)


@pytest.fixture(scope="module")
def stages():
    return dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0"), dx.compile_hlsl(WHITE_PS, profile="ps_5_0")


def _stencil_equals(device, queue, stages, ds, ref):
    """Whether every pixel's stencil equals `ref`: a fullscreen draw with stencil test EQUAL."""
    vs, ps = stages
    pso = device.create_graphics_pipeline(vs, ps, device.create_root_signature([]), ["rgba8_unorm"], dsv_format="d32_float_s8x24_uint",
                                          stencil_func="equal")
    rt = device.create_texture2d(ds.width, ds.height, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt], ds)
    cl.set_stencil_ref(ref)
    cl.draw(3)
    queue.execute(cl)
    px = queue.read_texture(rt)[:, :, 0]
    assert set(np.unique(px)) <= {0, 255}
    return bool((px == 255).all()), bool((px == 0).all())


def test_stencil_only_and_depth_only_clears(device, queue, stages):
    ds = device.create_texture2d(16, 16, "d32_float_s8x24_uint", depth_stencil=True)
    cl = queue.command_list()
    cl.clear_depth_stencil(ds, 0.25, 7)
    queue.execute(cl)
    assert (queue.read_texture(ds) == np.float32(0.25)).all()
    assert _stencil_equals(device, queue, stages, ds, 7) == (True, False)

    cl = queue.command_list()
    cl.clear_depth_stencil(ds, 1.0, 3, clear_depth=False)  # stencil only: depth stays 0.25
    queue.execute(cl)
    assert (queue.read_texture(ds) == np.float32(0.25)).all()
    assert _stencil_equals(device, queue, stages, ds, 3) == (True, False)
    assert _stencil_equals(device, queue, stages, ds, 7) == (False, True)

    cl = queue.command_list()
    cl.clear_depth_stencil(ds, 0.75, 9, clear_stencil=False)  # depth only: stencil stays 3
    queue.execute(cl)
    assert (queue.read_texture(ds) == np.float32(0.75)).all()
    assert _stencil_equals(device, queue, stages, ds, 3) == (True, False)


def test_clear_depth_stencil_mips(device, queue):
    d = device.create_texture2d(16, 16, "d32_float", depth_stencil=True, mip_levels=3)
    cl = queue.command_list()
    for mip, value in enumerate([0.1, 0.5, 0.9]):
        cl.clear_depth_stencil(d, value, mip=mip)
    queue.execute(cl)
    for mip, value in enumerate([0.1, 0.5, 0.9]):
        out = queue.read_texture(d, mip)
        assert out.shape == (16 >> mip, 16 >> mip, 1)
        assert (out == np.float32(value)).all(), (mip, np.unique(out))


def test_clear_depth_stencil_array_slices(device, queue):
    d = device.create_texture2d(8, 8, "d32_float", depth_stencil=True, array_size=3)
    cl = queue.command_list()
    cl.clear_depth_stencil(d, 0.3, array_slice=1)
    queue.execute(cl)
    # Only slice 1 was cleared; the others keep the zero-initialised depth.
    assert (queue.read_texture(d, 0, 0) == 0).all()
    assert (queue.read_texture(d, 0, 1) == np.float32(0.3)).all()
    assert (queue.read_texture(d, 0, 2) == 0).all()
    cl = queue.command_list()
    cl.clear_depth_stencil(d, 0.6, array_slice=2)
    queue.execute(cl)
    assert (queue.read_texture(d, 0, 1) == np.float32(0.3)).all()
    assert (queue.read_texture(d, 0, 2) == np.float32(0.6)).all()
    # array_slice=None: every slice of the mip at once (e.g. a cascaded shadow map).
    cl = queue.command_list()
    cl.clear_depth_stencil(d, 0.9, array_slice=None)
    queue.execute(cl)
    for s in range(3):
        assert (queue.read_texture(d, 0, s) == np.float32(0.9)).all(), s
    # The default is slice 0 (the documented signature): the others keep 0.9.
    cl = queue.command_list()
    cl.clear_depth_stencil(d, 0.1)
    queue.execute(cl)
    assert (queue.read_texture(d, 0, 0) == np.float32(0.1)).all()
    assert (queue.read_texture(d, 0, 1) == np.float32(0.9)).all()


def test_clear_depth_stencil_rejects_bad_arguments(device, queue):
    d32 = device.create_texture2d(8, 8, "d32_float", depth_stencil=True, name="d32")
    rt = device.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="colour")
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="has no stencil"):
        cl.clear_depth_stencil(d32, clear_depth=False)
    with pytest.raises(dx.InvalidArgumentError, match="nothing to clear"):
        cl.clear_depth_stencil(d32, clear_depth=False, clear_stencil=False)
    with pytest.raises(dx.InvalidArgumentError, match="mip 1 out of range"):
        cl.clear_depth_stencil(d32, mip=1)
    with pytest.raises(dx.InvalidArgumentError, match="array slice 1 out of range"):
        cl.clear_depth_stencil(d32, array_slice=1)
    with pytest.raises(dx.InvalidArgumentError, match="not a depth-stencil texture"):
        cl.clear_depth_stencil(rt)
    with pytest.raises(dx.InvalidArgumentError, match=r"\[0, 1\]"):
        cl.clear_depth_stencil(d32, 1.5)
    cl.clear_depth_stencil(d32, 0.5)  # depth-only format: clear_stencil=True (the default) is ignored
    queue.execute(cl)
    assert (queue.read_texture(d32) == np.float32(0.5)).all()


def _white_pipeline(device, stages):
    vs, ps = stages
    return device.create_graphics_pipeline(vs, ps, device.create_root_signature([]), ["rgba8_unorm"])


def test_viewport_and_scissor_lists_are_applied(device, queue, stages):
    """Lists of many: entry 0 is the one a shader without SV_ViewportArrayIndex uses (this backend
    does not route SV_ViewportArrayIndex from a vertex shader, so that is all a draw can show)."""
    rt = device.create_texture2d(32, 32, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(_white_pipeline(device, stages))
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.set_viewports([(16, 16, 16, 16), (0, 0, 16, 16, 0.0, 1.0)])
    cl.set_scissors([(16, 16, 24, 24), (0, 0, 32, 32)])
    cl.draw(3)
    # A second draw into another rectangle, with lists of one.
    cl.set_viewports([(0, 0, 32, 32)])
    cl.set_scissors([(0, 0, 4, 8)])
    cl.draw(3)
    queue.execute(cl)
    px = queue.read_texture(rt)[:, :, 0]
    expected = np.zeros((32, 32), np.uint8)
    expected[16:24, 16:24] = 255
    expected[0:8, 0:4] = 255
    np.testing.assert_array_equal(px, expected)


def test_viewport_and_scissor_lists_are_checked(device, queue):
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="1 to 16"):
        cl.set_viewports([])
    with pytest.raises(dx.InvalidArgumentError, match="1 to 16"):
        cl.set_scissors([(0, 0, 1, 1)] * 17)
    with pytest.raises(dx.InvalidArgumentError, match="viewport 1: width and height must be >= 0"):
        cl.set_viewports([(0, 0, 4, 4), (0, 0, -1, 4)])
    with pytest.raises(dx.InvalidArgumentError, match="viewport 0: depths"):
        cl.set_viewports([(0, 0, 4, 4, 0.8, 0.2)])
    with pytest.raises(dx.InvalidArgumentError, match="rectangle 1: left <= right"):
        cl.set_scissors([(0, 0, 4, 4), (5, 0, 4, 4)])
    with pytest.raises(dx.InvalidArgumentError, match="got 3 values"):
        cl.set_scissors([(0, 0, 4)])
    with pytest.raises(TypeError):
        cl.set_viewports((0, 0, 4, 4))
    with pytest.raises(TypeError):
        cl.set_scissors([(0, 0, 4.5, 4)])
    with pytest.raises(dx.InvalidArgumentError, match="direct queue"):
        device.queue("compute").command_list().set_viewports([(0, 0, 4, 4)])
    # The single forms are unchanged.
    cl.set_viewport(0, 0, 4, 4)
    cl.set_scissor(0, 0, 4, 4)
