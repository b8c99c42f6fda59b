"""Bindings D3D12 refuses at a draw or dispatch, checked by the C++ core in both modes (plain and
validate=True) unless a test says otherwise: render-target formats against the pipeline's, a texture
at a slot whose shader declares a buffer (or another texture dimension), one subresource bound for
reading and for writing in the same draw or dispatch, and (validation mode) constant buffers shorter
than the shader's cbuffer. Each refusal beside the legal case, whose pixels or bytes are read back.
"""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

FULL_VS = ("float4 main(uint id : SV_VertexID) : SV_Position { float2 uv = float2((id << 1) & 2, id & 2);"
           " return float4(uv * float2(2, -2) + float2(-1, 1), 0.5, 1); }")
CONST_PS = "float4 main() : SV_Target { return float4(0.5, 0.25, 1, 1); }"
TWO_TARGET_PS = ("struct O { float4 a : SV_Target0; float4 b : SV_Target1; };"
                 " O main() { O o; o.a = float4(1, 0, 0, 1); o.b = float4(0, 1, 0, 1); return o; }")


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "validate"])
def dq(request):
    """A device in each mode (explicit validate=, so `pytest --validate` runs both too) and its direct queue."""
    dev = dx.Device(validate=request.param)
    yield dev, dev.queue("direct")
    dev.wait_idle()


def _vs():
    return dx.compile_hlsl(FULL_VS, profile="vs_5_0")


def _pso(dev, rtv, ps=CONST_PS, **kw):
    return dev.create_graphics_pipeline(_vs(), dx.compile_hlsl(ps, profile="ps_5_0"), dev.create_root_signature([dx.RootConstants(0, 1)]),
                                        rtv, **kw)


# ---- 1. render-target and depth formats against the pipeline's --------------------------------------


def test_a_draw_into_a_target_of_another_format_than_the_pipeline_is_refused(dq):
    dev, q = dq
    pso = _pso(dev, "rgba16_float")
    rt8 = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True, name="rt8")
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets(rt8)
    cl.clear_render_target(rt8, [0, 0, 0, 0])
    cl.set_constants(0, [0])
    cl.set_dynamic_index_buffer(np.array([0, 1, 2], np.uint32))
    rows = np.zeros((2, 1), np.uint32)
    for what, call in [("draw", lambda: cl.draw(3)), ("draw_indexed", lambda: cl.draw_indexed(3)),
                       ("draw_many", lambda: cl.draw_many(3, rows)), ("draw_indexed_many", lambda: cl.draw_indexed_many(3, rows))]:
        with pytest.raises(dx.InvalidArgumentError, match=what + r": pipeline .*rtv_formats=\['rgba16_float'\].* render target 0 "
                                                            r"\(resource 'rt8'\) is rgba8_unorm .*rtv_formats\[0\] = rgba16_float.*"
                                                            r"create the pipeline with rtv_formats=\['rgba8_unorm'\]"):
            call()
    # The right target: the refusal was at the draw, so the list records on and draws right.
    rt16 = dev.create_texture2d(4, 4, "rgba16_float", render_target=True)
    cl.set_render_targets(rt16)
    cl.clear_render_target(rt16, [0, 0, 0, 0])
    cl.draw(3)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_texture(rt16).astype(np.float32)[1, 2], [0.5, 0.25, 1, 1])
    assert q.read_texture(rt8)[0, 0].tolist() == [0, 0, 0, 0]   # nothing drawn into the wrong target


def test_a_pipeline_change_checks_the_bound_targets_again(dq):
    dev, q = dq
    rt = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True)
    good, bad = _pso(dev, "rgba8_unorm"), _pso(dev, "rgba16_float")
    cl = q.command_list()
    cl.set_render_targets(rt)
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.set_pipeline_state(good)
    cl.set_constants(0, [0])
    cl.draw(3)
    cl.set_pipeline_state(bad)
    cl.set_constants(0, [0])
    with pytest.raises(dx.InvalidArgumentError, match=r"draw: .* is rgba8_unorm where the pipeline has rtv_formats\[0\] = rgba16_float"):
        cl.draw(3)
    q.wait(q.execute(cl))
    assert q.read_texture(rt)[1, 2].tolist() == [128, 64, 255, 255]


def test_an_srgb_view_counts_as_its_srgb_format(dq):
    dev, q = dq
    rt = dev.create_texture2d(4, 4, "rgba8_unorm_srgb", render_target=True)
    cl = q.command_list()
    cl.set_pipeline_state(_pso(dev, "rgba8_unorm"))
    cl.set_render_targets(rt)
    cl.set_constants(0, [0])
    with pytest.raises(dx.InvalidArgumentError, match=r"is rgba8_unorm_srgb where the pipeline has rtv_formats\[0\] = rgba8_unorm"):
        cl.draw(3)
    cl.set_pipeline_state(_pso(dev, "rgba8_unorm_srgb"))
    cl.set_constants(0, [0])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.draw(3)
    q.wait(q.execute(cl))
    # Linear 0.5 / 0.25 / 1 encoded by the sRGB view: 188, 137, 255.
    np.testing.assert_allclose(q.read_texture(rt)[1, 2].astype(int), [188, 137, 255, 255], atol=1)


def test_render_target_count_must_match_the_pipeline(dq):
    dev, q = dq
    a = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True, name="a")
    b = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True, name="b")
    one, two = _pso(dev, "rgba8_unorm"), _pso(dev, ["rgba8_unorm", "rgba8_unorm"], ps=TWO_TARGET_PS)
    cl = q.command_list()
    cl.set_pipeline_state(one)
    cl.set_render_targets([a, b])
    cl.set_constants(0, [0])
    with pytest.raises(dx.InvalidArgumentError, match=r"render target 1 \(resource 'b', rgba8_unorm\) is bound where the pipeline has no "
                                                      r"rtv_formats\[1\].*rtv_formats=\['rgba8_unorm', 'rgba8_unorm'\]"):
        cl.draw(3)
    cl.set_pipeline_state(two)
    cl.set_render_targets([a])
    cl.set_constants(0, [0])
    with pytest.raises(dx.InvalidArgumentError, match=r"no render target is bound at slot 1, where the pipeline writes rtv_formats\[1\] = rgba8_unorm"):
        cl.draw(3)
    cl.set_render_targets([a, b])
    for t in (a, b):
        cl.clear_render_target(t, [0, 0, 0, 0])
    cl.draw(3)
    q.wait(q.execute(cl))
    assert q.read_texture(a)[1, 1].tolist() == [255, 0, 0, 255]
    assert q.read_texture(b)[1, 1].tolist() == [0, 255, 0, 255]


def test_depth_format_must_match_the_pipeline(dq):
    dev, q = dq
    rt = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True)
    d32 = dev.create_texture2d(4, 4, "d32_float", depth_stencil=True, name="d32")
    d16 = dev.create_texture2d(4, 4, "d16_unorm", depth_stencil=True, name="d16")
    no_depth = _pso(dev, "rgba8_unorm")
    tested = _pso(dev, "rgba8_unorm", dsv_format="d32_float", depth_test=True)
    cl = q.command_list()
    cl.set_pipeline_state(no_depth)
    cl.set_render_targets(rt, d32)
    cl.set_constants(0, [0])
    with pytest.raises(dx.InvalidArgumentError, match=r"dsv_format none, but the depth buffer resource 'd32' is d32_float.*"
                                                      r"call set_render_targets without depth, or create the pipeline with dsv_format='d32_float'"):
        cl.draw(3)
    cl.set_pipeline_state(tested)
    cl.set_constants(0, [0])
    cl.set_render_targets(rt)
    with pytest.raises(dx.InvalidArgumentError, match=r"dsv_format d32_float, but no depth buffer is bound.*bind a d32_float depth buffer"):
        cl.draw(3)
    cl.set_render_targets(rt, d16)
    with pytest.raises(dx.InvalidArgumentError, match=r"the depth buffer resource 'd16' is d16_unorm"):
        cl.draw(3)
    cl.set_render_targets(rt, d32)
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.clear_depth_stencil(d32, 1.0)
    cl.draw(3)   # depth 0.5 < 1: passes
    q.wait(q.execute(cl))
    assert q.read_texture(rt)[2, 1].tolist() == [128, 64, 255, 255]
    assert q.read_texture(d32)[2, 1] == pytest.approx(0.5)


# ---- 2. a texture where the shader declares a buffer (or another dimension) -------------------------

COPY_TEX_CS = """
Texture2D<uint4> t : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = t.Load(int3(i.x, 0, 0)).x; }
"""
COPY_SB_CS = """
StructuredBuffer<uint> s : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = s[i.x]; }
"""
COPY_ARRAY_CS = """
Texture2DArray<uint4> t : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = t.Load(int4(i.x, 0, 0, 0)).x; }
"""
WRITE_SB_CS = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = i.x + 7; }
"""


def _table_rs(dev):
    """t0 and u0 in two tables, and root constants b0 (read by no shader here) for dispatch_many."""
    return dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)]), dx.RootConstants(0, 1)])


def _cs(dev, rs, src):
    return dev.create_compute_pipeline(dx.compile_hlsl(src, profile="cs_5_0"), rs)


def test_a_texture_at_a_buffer_slot_is_refused(dq):
    dev, q = dq
    rs = _table_rs(dev)
    tex = dev.create_texture2d(4, 1, "rgba8_uint", name="tex", uav=True)
    out = dev.create_buffer(16, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(_cs(dev, rs, COPY_SB_CS))
    with pytest.raises(dx.InvalidArgumentError, match=r"set_shader_resource_view \(root parameter 0, slot 0\): the bound pipeline's shader declares "
                                                      r"StructuredBuffer 's' at t0 space0 there, which is a buffer, but resource 'tex' is a texture "
                                                      r"\(its view is a Texture2D\).*bind a buffer there"):
        cl.set_shader_resource_view(0, 0, tex)
    with pytest.raises(dx.InvalidArgumentError, match=r"set_unordered_access_view \(root parameter 1, slot 0\): .*RWStructuredBuffer 'o' at u0 "
                                                      r"space0 there, which is a buffer, but resource 'tex' is a texture \(its view is a RWTexture2D\)"):
        cl.set_unordered_access_view(1, 0, tex)
    # Root descriptors take buffers only (a texture there was refused before; the rule is the same).
    rrs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    cl.set_pipeline_state(_cs(dev, rrs, COPY_SB_CS))
    with pytest.raises(dx.InvalidArgumentError, match=r"set_root_srv: resource 'tex' is a texture; root views take buffers"):
        cl.set_root_srv(0, tex)
    with pytest.raises(dx.InvalidArgumentError, match=r"set_root_uav: resource 'tex' is a texture; root views take buffers"):
        cl.set_root_uav(1, tex)
    # The legal case: a buffer there.
    src = dev.create_buffer(16)
    cl.upload(src, np.array([5, 6, 7, 8], np.uint32))
    cl.set_pipeline_state(_cs(dev, rs, COPY_SB_CS))
    cl.set_shader_resource_view(0, 0, src)
    cl.set_unordered_access_view(1, 0, out)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(out, np.uint32).tolist() == [5, 6, 7, 8]


def test_a_texture_bound_before_a_pipeline_declaring_a_buffer_there_is_refused_at_the_dispatch(dq):
    """Same root signature, so the binding survives set_pipeline_state: the next dispatch refuses it."""
    dev, q = dq
    rs = _table_rs(dev)
    tex = dev.create_texture2d(4, 1, "rgba8_uint", name="tex")
    out = dev.create_buffer(16, uav=True)
    cl = q.command_list()
    cl.upload(tex, np.array([[[1, 0, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0], [4, 0, 0, 0]]], np.uint8))
    cl.set_pipeline_state(_cs(dev, rs, COPY_TEX_CS))
    cl.set_shader_resource_view(0, 0, tex)
    cl.set_unordered_access_view(1, 0, out)
    cl.dispatch(1)   # Texture2D at a Texture2D declaration: reads the texels
    cl.set_pipeline_state(_cs(dev, rs, COPY_SB_CS))
    with pytest.raises(dx.InvalidArgumentError, match=r"dispatch \(root parameter 0, slot 0, set with set_shader_resource_view before pipeline .* "
                                                      r"was bound\): .*StructuredBuffer 's' at t0 space0 there, which is a buffer, but resource 'tex' "
                                                      r"is a texture"):
        cl.dispatch(1)
    with pytest.raises(dx.InvalidArgumentError, match=r"dispatch_many \(root parameter 0, slot 0, .*StructuredBuffer 's'"):
        cl.dispatch_many((1, 1, 1), np.zeros((1, 1), np.uint32), root_index=2)
    q.wait(q.execute(cl))
    assert q.read_buffer(out, np.uint32).tolist() == [1, 2, 3, 4]


def test_a_texture_view_of_another_dimension_than_declared_is_refused(dq):
    dev, q = dq
    rs = _table_rs(dev)
    flat = dev.create_texture2d(4, 1, "rgba8_uint", name="flat")
    layered = dev.create_texture2d(4, 1, "rgba8_uint", array_size=2, name="layered")
    out = dev.create_buffer(16, uav=True)
    cl = q.command_list()
    cl.upload(layered, np.array([[[9, 0, 0, 0], [8, 0, 0, 0], [7, 0, 0, 0], [6, 0, 0, 0]]], np.uint8), array_slice=0)
    cl.upload(layered, np.zeros((1, 4, 4), np.uint8), array_slice=1)
    cl.set_pipeline_state(_cs(dev, rs, COPY_ARRAY_CS))
    with pytest.raises(dx.InvalidArgumentError, match=r"declares Texture2DArray 't' at t0 space0 there, but resource 'flat' gives a Texture2D view.*"
                                                      r"bind a 2D texture with array_size > 1 \(not a cube\), or declare Texture2D in the shader"):
        cl.set_shader_resource_view(0, 0, flat)
    cl.set_shader_resource_view(0, 0, layered)
    cl.set_unordered_access_view(1, 0, out)
    cl.dispatch(1)
    cl.set_pipeline_state(_cs(dev, rs, COPY_TEX_CS))   # now a Texture2D declaration: the array view no longer fits
    with pytest.raises(dx.InvalidArgumentError, match=r"declares Texture2D 't' at t0 space0 there, but resource 'layered' gives a Texture2DArray view"):
        cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(out, np.uint32).tolist() == [9, 8, 7, 6]


# ---- 3. one subresource read and written by the same draw or dispatch --------------------------------

COPY_N_CS = """
StructuredBuffer<uint> s : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(16, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = s[i.x]; }
"""


def test_one_buffer_as_srv_and_uav_in_one_dispatch_is_refused(dq):
    dev, q = dq
    rs = _table_rs(dev)
    pso = _cs(dev, rs, COPY_N_CS)
    b = dev.create_buffer(32 * 4, uav=True, name="shared")
    data = np.arange(32, dtype=np.uint32) + 50
    cl = q.command_list()
    cl.upload(b, data)
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, b, first_element=0, num_elements=16)
    cl.set_unordered_access_view(1, 0, b, first_element=16, num_elements=16)
    with pytest.raises(dx.InvalidArgumentError, match=r"dispatch: buffer 'shared' is bound twice: by set_unordered_access_view\(1, 0\) \(state "
                                                      r"UNORDERED_ACCESS\) and by set_shader_resource_view\(0, 0\) \(state NON_PIXEL_SHADER_RESOURCE\)"
                                                      r".*disjoint windows of it do not help"):
        cl.dispatch(1)
    with pytest.raises(dx.InvalidArgumentError, match=r"dispatch_many: buffer 'shared' is bound twice"):
        cl.dispatch_many((1, 1, 1), np.zeros((2, 1), np.uint32), root_index=2)
    # Legal: copy the window first, then read the copy.
    other = dev.create_buffer(16 * 4, name="copy")
    cl.copy_buffer_region(other, 0, b, 0, 16 * 4)
    cl.set_shader_resource_view(0, 0, other)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    got = q.read_buffer(b, np.uint32)
    np.testing.assert_array_equal(got[16:], data[:16])
    np.testing.assert_array_equal(got[:16], data[:16])


def test_a_root_view_and_a_table_view_of_one_buffer_are_refused(dq):
    dev, q = dq
    rs = dev.create_root_signature([dx.RootSRV(0), dx.DescriptorTable([dx.UAV(0)])])
    pso = _cs(dev, rs, COPY_N_CS)
    b = dev.create_buffer(64, uav=True, name="both")
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_srv(0, b)
    cl.set_unordered_access_view(1, 0, b)
    with pytest.raises(dx.InvalidArgumentError, match=r"buffer 'both' is bound twice: by set_unordered_access_view\(1, 0\) .* and by "
                                                      r"set_root_srv\(0\)"):
        cl.dispatch(1)


def test_a_texture_read_at_one_mip_and_written_at_another_is_legal(dq):
    """Per subresource: an SRV of mip 0 and a UAV of mip 1 of one texture in one dispatch."""
    dev, q = dq
    src = """
    Texture2D<float4> s : register(t0);
    RWTexture2D<float4> d : register(u0);
    [numthreads(2, 2, 1)] void main(uint3 i : SV_DispatchThreadID) { d[i.xy] = s.Load(int3(i.xy * 2, 0)) * 0.5; }
    """
    rs = _table_rs(dev)
    pso = _cs(dev, rs, src)
    t = dev.create_texture2d(4, 4, "rgba8_unorm", mip_levels=2, uav=True, name="mipped")
    base = np.full((4, 4, 4), 200, np.uint8)
    cl = q.command_list()
    cl.upload(t, base, mip=0)
    cl.upload(t, np.zeros((2, 2, 4), np.uint8), mip=1)
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, t, mip=0)
    cl.set_unordered_access_view(1, 0, t, mip=1)
    cl.dispatch(1)
    # Both views on mip 0 (all mips for the SRV) is not.
    cl.set_shader_resource_view(0, 0, t)
    with pytest.raises(dx.InvalidArgumentError, match=r"texture 'mipped' mip 1 is bound twice"):
        cl.dispatch(1)
    q.wait(q.execute(cl))
    np.testing.assert_allclose(q.read_texture(t, mip=1).astype(int), 100, atol=1)
    np.testing.assert_array_equal(q.read_texture(t, mip=0), base)


def test_sampling_the_render_target_being_drawn_is_refused(dq):
    dev, q = dq
    ps = "Texture2D<float4> t : register(t0); float4 main(float4 p : SV_Position) : SV_Target { return t.Load(int3(p.xy, 0)); }"
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)], visibility="pixel")])
    pso = dev.create_graphics_pipeline(_vs(), dx.compile_hlsl(ps, profile="ps_5_0"), rs, "rgba8_unorm")
    rt = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True, name="target")
    other = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True, name="other")
    cl = q.command_list()
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.clear_render_target(other, [0.2, 0.4, 0.6, 1.0])
    cl.set_pipeline_state(pso)
    cl.set_render_targets(rt)
    cl.set_shader_resource_view(0, 0, rt)
    with pytest.raises(dx.InvalidArgumentError, match=r"draw: texture 'target' mip 0 is bound twice: by set_render_targets \(render target 0, "
                                                      r"state RENDER_TARGET\) and by set_shader_resource_view\(0, 0\)"):
        cl.draw(3)
    cl.set_shader_resource_view(0, 0, other)
    cl.draw(3)
    q.wait(q.execute(cl))
    assert q.read_texture(rt)[1, 1].tolist() == [51, 102, 153, 255]


def test_a_vertex_buffer_written_by_a_dispatch_is_legal(dq):
    """A dispatch uses no vertex buffer: one bound on the list does not clash with its UAV there."""
    dev, q = dq
    rs = dev.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = _cs(dev, rs, WRITE_SB_CS)
    vb = dev.create_buffer(16, uav=True, name="vb")
    cl = q.command_list()
    cl.set_vertex_buffer(0, vb, 4)
    cl.set_pipeline_state(pso)
    cl.set_unordered_access_view(0, 0, vb)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(vb, np.uint32).tolist() == [7, 8, 9, 10]


# ---- 4. (validation mode) constant buffers shorter than the cbuffer ---------------------------------

CB_CS = """
cbuffer C : register(b0) { uint4 a; uint4 b; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)] void main() { o[0] = a.x; o[1] = b.w; }
"""


def test_a_short_dynamic_constant_buffer_is_refused_in_validation_mode(dq):
    dev, q = dq
    rs = dev.create_root_signature([dx.RootCBV(0), dx.RootUAV(0)])
    pso = _cs(dev, rs, CB_CS)
    out = dev.create_buffer(8, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(1, out)
    cl.set_dynamic_constant_buffer(0, np.arange(4, dtype=np.uint32) + 1)   # 16 of the cbuffer's 32 bytes
    if dev.validate:
        with pytest.raises(dx.InvalidArgumentError, match=r"dispatch: pipeline .* reads cbuffer 'C' at b0 space0, whose variables span 32 bytes, "
                                                          r"but the constant buffer bound there by set_dynamic_constant_buffer\(0, \.\.\.\) holds "
                                                          r"16 bytes: the shader would read 16 bytes past"):
            cl.dispatch(1)
    else:
        cl.dispatch(1)   # plain mode: not checked (the cost is a lookup per cbuffer per dispatch)
    cl.set_dynamic_constant_buffer(0, np.arange(8, dtype=np.uint32) + 1)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(out, np.uint32).tolist() == [1, 8]


def test_a_short_root_or_table_cbv_is_refused_in_validation_mode(dq):
    dev, q = dq
    out = dev.create_buffer(8, uav=True)
    small = dev.create_buffer(16, name="small")
    big = dev.create_buffer(512, name="big")
    cl = q.command_list()
    cl.upload(small, np.array([3, 0, 0, 0], np.uint32))
    cl.upload(big, np.arange(128, dtype=np.uint32))
    root = _cs(dev, dev.create_root_signature([dx.RootCBV(0), dx.RootUAV(0)]), CB_CS)
    cl.set_pipeline_state(root)
    cl.set_root_uav(1, out)
    cl.set_root_cbv(0, big, offset=256)   # 256 bytes left: enough
    cl.dispatch(1)
    cl.set_root_cbv(0, small)
    if dev.validate:
        with pytest.raises(dx.InvalidArgumentError, match=r"set_root_cbv\(0, \.\.\.\) with resource 'small' from its offset holds 16 bytes"):
            cl.dispatch(1)
    table = _cs(dev, dev.create_root_signature([dx.DescriptorTable([dx.CBV(0)]), dx.RootUAV(0)]), CB_CS)
    cl.set_pipeline_state(table)
    cl.set_root_uav(1, out)
    cl.set_constant_buffer_view(0, 0, small)
    if dev.validate:
        with pytest.raises(dx.InvalidArgumentError, match=r"set_constant_buffer_view\(0, 0, \.\.\.\) with resource 'small' holds 16 bytes"):
            cl.dispatch(1)
    cl.set_constant_buffer_view(0, 0, big)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(out, np.uint32).tolist() == [0, 7]
