"""Validation of D3D12's initialization rule per subresource and plane (D3D12Rules.hpp
rule 6d), on the real device.

A render target or depth buffer placed in memory other resources share has undefined contents after
each activation; every subresource (mip, slice, plane) must be initialized by a clear of it or a copy
of the whole subresource before any other use. Device(validate=True) raises ResourceStateError
naming the resource, the subresource and the operation; the legitimate orders must run and give the
right pixels.
"""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

KiB = 1024

VS = ("float4 main(uint id : SV_VertexID) : SV_Position {"
      " float2 p[3] = {float2(-1, 1), float2(3, 1), float2(-1, -3)}; return float4(p[id], 0.5, 1); }")
PS = "float4 main() : SV_Target { return float4(0, 1, 0, 1); }"


@pytest.fixture(scope="module")
def dev():
    d = dx.Device(validate=True)
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def q(dev):
    return dev.queue()


@pytest.fixture(scope="module")
def pipelines(dev):
    vs, ps = dx.compile_hlsl(VS, profile="vs_5_0"), dx.compile_hlsl(PS, profile="ps_5_0")
    rs = dev.create_root_signature([])

    def make(**kw):
        return dev.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], dsv_format="d24_unorm_s8_uint", **kw)
    return {"depth": make(depth_test=True), "stencil": make(stencil_func="equal"),
            "both": make(depth_test=True, stencil_func="equal"), "neither": make(),
            "colour": dev.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"])}   # for draws without a depth buffer


def placed_rt(dev, name, mips=2):
    """A 64x64 RGBA8 render target with `mips` mips and a buffer, both at offset 0 of one memory."""
    mem = dev.allocate_memory(256 * KiB, name=f"{name} memory")
    buf = dev.create_buffer(64 * KiB, memory=mem, offset=0, name=f"{name} buffer")
    rt = dev.create_texture2d(64, 64, render_target=True, mip_levels=mips, memory=mem, offset=0, name=name)
    return buf, rt


def placed_ds(dev, name):
    mem = dev.allocate_memory(256 * KiB, name=f"{name} memory")
    buf = dev.create_buffer(64 * KiB, memory=mem, offset=0, name=f"{name} buffer")
    ds = dev.create_texture2d(64, 64, "d24_unorm_s8_uint", depth_stencil=True, memory=mem, offset=0, name=name)
    return buf, ds


def touch(q, buf):
    """Uses the buffer sharing the memory: the next use of the texture activates it again."""
    cl = q.command_list()
    cl.upload(buf, np.ones(16 * KiB, np.uint32))
    q.wait(q.execute(cl))


# ------------------------------------------------------------------------------------------ mips

def test_copy_of_a_render_target_with_an_uninitialized_mip_raises(dev, q):
    buf, rt = placed_rt(dev, "rt_mip1")
    out = dev.create_texture2d(64, 64, render_target=True, mip_levels=2, name="out")
    touch(q, buf)
    cl = q.command_list()
    cl.clear_render_target(rt, [1, 0, 0, 1], mip=0)      # mip 1 never initialized
    cl.copy_resource(out, rt)
    with pytest.raises(dx.ResourceStateError) as e:
        q.execute(cl)
    msg = str(e.value)
    assert msg.startswith("copy_resource (source): resource 'rt_mip1'") and "subresource 1 (mip 1)" in msg
    assert "after another resource used its memory" in msg and "clear_render_target" in msg


def test_every_mip_cleared_then_copied_is_accepted(dev, q):
    buf, rt = placed_rt(dev, "rt_both")
    out = dev.create_texture2d(64, 64, render_target=True, mip_levels=2, name="out")
    touch(q, buf)
    cl = q.command_list()
    cl.clear_render_target(rt, [1, 0, 0, 1], mip=0)
    cl.clear_render_target(rt, [0, 0, 1, 1], mip=1)
    cl.copy_resource(out, rt)
    q.wait(q.execute(cl))
    assert (q.read_texture(out, mip=0) == [255, 0, 0, 255]).all()
    assert (q.read_texture(out, mip=1) == [0, 0, 255, 255]).all()


def test_full_uploads_of_each_mip_initialize_them(dev, q):
    buf, rt = placed_rt(dev, "rt_upload")
    touch(q, buf)
    a = np.random.default_rng(1).integers(0, 256, (64, 64, 4), dtype=np.uint8)
    b = np.random.default_rng(2).integers(0, 256, (32, 32, 4), dtype=np.uint8)
    cl = q.command_list()
    cl.upload(rt, a, mip=0)
    cl.upload(rt, b, mip=1)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_texture(rt, mip=0), a)
    np.testing.assert_array_equal(q.read_texture(rt, mip=1), b)


def test_a_mip_left_undefined_by_an_earlier_list_is_found_at_its_read(dev, q):
    buf, rt = placed_rt(dev, "rt_later")
    touch(q, buf)
    cl = q.command_list()
    cl.clear_render_target(rt, [0, 1, 0, 1], mip=0)
    q.wait(q.execute(cl))
    assert (q.read_texture(rt, mip=0) == [0, 255, 0, 255]).all()   # mip 0 is fine
    with pytest.raises(dx.ResourceStateError, match=r"read_texture: resource 'rt_later' .*earlier command list.*subresource 1 \(mip 1\)"):
        q.read_texture(rt, mip=1)
    cl = q.command_list()
    cl.clear_render_target(rt, [0, 0, 1, 1], mip=1)                 # now it is
    q.wait(q.execute(cl))
    assert (q.read_texture(rt, mip=1) == [0, 0, 255, 255]).all()
    # Another activation makes every mip undefined again.
    touch(q, buf)
    with pytest.raises(dx.ResourceStateError, match=r"subresource 0 \(mip 0\)"):
        q.read_texture(rt, mip=0)


def test_in_list_activation_is_found_where_it_is_recorded(dev, q):
    buf, rt = placed_rt(dev, "rt_inlist")
    out = dev.create_texture2d(64, 64, render_target=True, mip_levels=2, name="out")
    cl = q.command_list()
    cl.clear_render_target(rt, [1, 1, 1, 1], mip=0)
    cl.clear_render_target(rt, [1, 1, 1, 1], mip=1)
    cl.upload(buf, np.ones(16 * KiB, np.uint32))        # the buffer takes the memory over
    cl.clear_render_target(rt, [1, 0, 0, 1], mip=0)     # activated again: only mip 0 initialized
    with pytest.raises(dx.ResourceStateError, match=r"copy_resource \(source\).*same command list.*subresource 1 \(mip 1\)"):
        cl.copy_resource(out, rt)
    cl.clear_render_target(rt, [0, 1, 0, 1], mip=1)
    cl.copy_resource(out, rt)
    q.wait(q.execute(cl))
    assert (q.read_texture(out, mip=0) == [255, 0, 0, 255]).all()
    assert (q.read_texture(out, mip=1) == [0, 255, 0, 255]).all()


def test_drawing_into_an_uninitialized_mip_raises(dev, q, pipelines):
    buf, rt = placed_rt(dev, "rt_draw")
    touch(q, buf)
    cl = q.command_list()
    cl.clear_render_target(rt, [0, 0, 0, 1], mip=0)
    cl.set_pipeline_state(pipelines["colour"])
    cl.set_render_targets([rt], None, mip=1)
    cl.draw(3)
    with pytest.raises(dx.ResourceStateError, match=r"draw \(render target\): resource 'rt_draw' .*subresource 1 \(mip 1\)"):
        q.execute(cl)


# -------------------------------------------------------------------------------- stencil plane

def depth_stencil_draw(dev, q, ds, pipeline, *, clear_depth, clear_stencil, stencil=0, ref=0):
    color = dev.create_texture2d(64, 64, render_target=True, name="color")
    cl = q.command_list()
    cl.clear_render_target(color, [0, 0, 0, 1])
    cl.clear_depth_stencil(ds, 1.0, stencil, clear_depth=clear_depth, clear_stencil=clear_stencil)
    cl.set_pipeline_state(pipeline)
    cl.set_stencil_ref(ref)
    cl.set_render_targets([color], ds)
    cl.draw(3)
    q.wait(q.execute(cl))
    return q.read_texture(color)


def test_stencil_test_on_a_stencil_plane_never_cleared_raises(dev, q, pipelines):
    buf, ds = placed_ds(dev, "ds_stencil")
    touch(q, buf)
    with pytest.raises(dx.ResourceStateError) as e:
        depth_stencil_draw(dev, q, ds, pipelines["both"], clear_depth=True, clear_stencil=False)
    msg = str(e.value)
    assert msg.startswith("draw (stencil test): resource 'ds_stencil' is a depth buffer")
    assert "subresource 1 (mip 0, stencil plane)" in msg and "clear_stencil" in msg


def test_depth_only_clear_and_depth_only_test_is_accepted(dev, q, pipelines):
    buf, ds = placed_ds(dev, "ds_depth")
    touch(q, buf)
    px = depth_stencil_draw(dev, q, ds, pipelines["depth"], clear_depth=True, clear_stencil=False)
    assert (px == [0, 255, 0, 255]).all()        # z 0.5 < 1.0: drawn everywhere
    # A pipeline that tests neither plane uses neither.
    touch(q, buf)
    color = dev.create_texture2d(64, 64, render_target=True, name="color")
    cl = q.command_list()
    cl.clear_render_target(color, [0, 0, 0, 1])
    cl.clear_depth_stencil(ds, 1.0, clear_depth=False, clear_stencil=True)   # only the stencil: depth undefined
    cl.set_pipeline_state(pipelines["stencil"])
    cl.set_render_targets([color], ds)
    cl.draw(3)
    q.wait(q.execute(cl))
    assert (q.read_texture(color) == [0, 255, 0, 255]).all()   # stencil 0 == ref 0
    cl = q.command_list()
    cl.clear_render_target(color, [0, 0, 0, 1])
    cl.set_pipeline_state(pipelines["depth"])
    cl.set_render_targets([color], ds)
    cl.draw(3)
    with pytest.raises(dx.ResourceStateError, match=r"draw \(depth test\).*subresource 0 \(mip 0, depth plane\)"):
        q.execute(cl)


def test_both_planes_cleared_then_stencil_tested(dev, q, pipelines):
    buf, ds = placed_ds(dev, "ds_both")
    touch(q, buf)
    px = depth_stencil_draw(dev, q, ds, pipelines["both"], clear_depth=True, clear_stencil=True, stencil=7, ref=7)
    assert (px == [0, 255, 0, 255]).all()
    touch(q, buf)
    px = depth_stencil_draw(dev, q, ds, pipelines["both"], clear_depth=True, clear_stencil=True, stencil=7, ref=3)
    assert (px == [0, 0, 0, 255]).all()          # 3 != 7: nothing drawn


def test_planes_cleared_in_different_lists_stay_defined(dev, q, pipelines):
    buf, ds = placed_ds(dev, "ds_lists")
    touch(q, buf)
    cl = q.command_list()
    cl.clear_depth_stencil(ds, 1.0, clear_stencil=False)
    q.wait(q.execute(cl))
    cl = q.command_list()
    cl.clear_depth_stencil(ds, stencil=5, clear_depth=False)
    q.wait(q.execute(cl))
    color = dev.create_texture2d(64, 64, render_target=True, name="color")
    cl = q.command_list()
    cl.clear_render_target(color, [0, 0, 0, 1])
    cl.set_pipeline_state(pipelines["both"])
    cl.set_stencil_ref(5)
    cl.set_render_targets([color], ds)
    cl.draw(3)
    q.wait(q.execute(cl))
    assert (q.read_texture(color) == [0, 255, 0, 255]).all()


def test_copying_a_depth_buffer_reads_its_stencil_plane(dev, q):
    buf, ds = placed_ds(dev, "ds_copy")
    other = dev.create_texture2d(64, 64, "d24_unorm_s8_uint", depth_stencil=True, name="ds_other")
    touch(q, buf)
    cl = q.command_list()
    cl.clear_depth_stencil(ds, 0.25, clear_stencil=False)
    cl.copy_resource(other, ds)
    with pytest.raises(dx.ResourceStateError, match=r"copy_resource \(source\): resource 'ds_copy' .*subresource 1 \(mip 0, stencil plane\)"):
        q.execute(cl)
    cl = q.command_list()
    cl.clear_depth_stencil(ds, 0.25, 9)
    cl.copy_resource(other, ds)
    q.wait(q.execute(cl))


def test_committed_resources_are_not_concerned(dev, q, pipelines):
    """Committed (and pool-placed) resources are not activated by other resources: no rule 6d."""
    ds = dev.create_texture2d(64, 64, "d24_unorm_s8_uint", depth_stencil=True, name="ds_committed")
    px = depth_stencil_draw(dev, q, ds, pipelines["both"], clear_depth=True, clear_stencil=False)
    assert px.shape == (64, 64, 4)


def aliased_uav_rt(dev, q, name):
    """A 32x32 RGBA8 render target with 3 mips and uav=True (generate_mips works in place), at offset 0
    of memory a buffer has just been written through: its contents are undefined at its next use."""
    mem = dev.allocate_memory(1 << 20, name=f"{name} memory")
    rt = dev.create_texture2d(32, 32, render_target=True, uav=True, mip_levels=3, memory=mem, offset=0, name=name)
    buf = dev.create_buffer(256 * KiB, memory=mem, offset=0, name=f"{name} buffer")
    cl = q.command_list(); cl.upload(buf, np.full(64 * KiB, 0xAB, np.uint32)); q.wait(q.execute(cl))
    return rt, buf


def test_generate_mips_in_place_initializes_the_mips_it_writes(dev, q):
    """generate_mips writes every mip below the source in full: it discards them first
    (DiscardResource, an initialization in D3D12's terms), so a cleared mip 0 is all the user defines.
    It was refused, naming a 'dispatch' the user never recorded."""
    rt, _ = aliased_uav_rt(dev, q, "gm in place")
    cl = q.command_list()
    cl.clear_render_target(rt, [1, 0.5, 0, 1], mip=0)
    cl.generate_mips(rt)
    q.wait(q.execute(cl))
    for mip in (1, 2):
        assert (q.read_texture(rt, mip=mip) == [255, 128, 0, 255]).all(), mip


def test_generate_mips_in_place_on_a_compute_list(dev, q):
    """On a compute list the discard is recorded in UNORDERED_ACCESS (D3D12: RENDER_TARGET only on direct lists)."""
    rt, _ = aliased_uav_rt(dev, q, "gm compute")
    cl = q.command_list(); cl.clear_render_target(rt, [0, 1, 0, 1], mip=0); q.wait(q.execute(cl))
    cq = dev.queue("compute")
    ccl = cq.command_list(); ccl.generate_mips(rt); cq.wait(cq.execute(ccl))
    assert (q.read_texture(rt, mip=2) == [0, 255, 0, 255]).all()


def test_generate_mips_from_an_undefined_source_mip_stays_an_error(dev, q):
    rt, _ = aliased_uav_rt(dev, q, "gm undefined source")
    cl = q.command_list()
    with pytest.raises(dx.ResourceStateError, match=r"generate_mips.*'gm undefined source'.*subresource 0 \(mip 0\)"):
        cl.generate_mips(rt)
        q.execute(cl)
