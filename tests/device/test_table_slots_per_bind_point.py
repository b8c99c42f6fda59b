"""Descriptor-table slots belong to the bind point they were set for (graphics or compute).

D3D12 keeps graphics and compute root arguments apart: a table set while a graphics pipeline was
bound (SetGraphicsRootDescriptorTable) is not the compute bind point's, even under the same root
signature. A slot the bound pipeline reads but that was not set for its bind point holds the null
descriptor (reads give zeros, UAV writes are lost, no error), so a draw or dispatch reading one is
refused in plain mode as in validation mode, naming the call to make after set_pipeline_state.
"""
import numpy as np
import pytest

import dx12kit as dx

VS = """float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2); return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1); }"""
PS = """Texture2D<float> t : register(t0);
float4 main(float4 p : SV_Position) : SV_Target { return t[uint2(p.xy)] * 2; }"""
PS_TWO = """Texture2D<float> t : register(t0); Texture2D<float> w : register(t1);
float4 main(float4 p : SV_Position) : SV_Target { return t[uint2(p.xy)] * 2 + w[uint2(p.xy)]; }"""
CS = """Texture2D<float> t : register(t0); RWStructuredBuffer<float> u : register(u0);
[numthreads(4,1,1)] void main(uint3 i : SV_DispatchThreadID) { u[i.x] = t[uint2(i.x, 0)] + 1; }"""

TEXELS = np.arange(16, dtype=np.float32).reshape(4, 4)
CS_EXPECTED = [1.0, 2.0, 3.0, 4.0]  # row 0 of TEXELS + 1


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "validate"])
def kit(request):
    """A device (plain or validation mode), its queue, a graphics and a compute pipeline sharing one
    root signature (table 0: t0, table 1: u0), the texture both read, the buffer the dispatch writes
    and the render target the draw writes."""
    dev = dx.Device(validate=request.param)
    q = dev.queue()
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)])])
    gfx = dev.create_graphics_pipeline(dx.compile_hlsl(VS, profile="vs_5_0"), dx.compile_hlsl(PS, profile="ps_5_0"), rs, ["r32_float"])
    cs = dev.create_compute_pipeline(dx.compile_hlsl(CS, profile="cs_5_0"), rs)
    texture = dev.create_texture2d(data=TEXELS)
    return dev, q, gfx, cs, texture


def _targets(dev):
    return dev.create_buffer(16, uav=True), dev.create_texture2d(4, 4, "r32_float", render_target=True)


def _set_again_draw_and_check(q, cl, texture, rt, u):
    """The fix the message names (t0 set again after set_pipeline_state), then the draw's and the dispatch's numbers."""
    cl.set_shader_resource_view(0, 0, texture)
    cl.draw(3)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_texture(rt).reshape(4, 4), TEXELS * 2)
    assert q.read_buffer(u, np.float32).tolist() == CS_EXPECTED


def test_dispatch_refuses_slots_set_only_for_graphics(kit):
    dev, q, gfx, cs, texture = kit
    u, rt = _targets(dev)
    cl = q.command_list()
    cl.set_pipeline_state(gfx)
    cl.set_render_targets([rt])
    cl.set_shader_resource_view(0, 0, texture)
    cl.set_unordered_access_view(1, 0, u)
    cl.draw(3)
    cl.set_pipeline_state(cs)
    with pytest.raises(dx.InvalidArgumentError, match=r"dispatch: pipeline .* reads [tu]0 .*which was set only while a graphics pipeline "
                       r"was bound: D3D12 keeps graphics and compute root arguments apart .*call set_(shader_resource|unordered_access)_view"
                       r"\([01], 0, \.\.\.\) again after set_pipeline_state"):
        cl.dispatch(1)
    # Set again for the compute bind point: the dispatch reads the texture and writes the buffer.
    cl.set_shader_resource_view(0, 0, texture)
    cl.set_unordered_access_view(1, 0, u)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(u, np.float32).tolist() == CS_EXPECTED
    np.testing.assert_array_equal(q.read_texture(rt).reshape(4, 4), TEXELS * 2)


def test_draw_refuses_slots_set_only_for_compute(kit):
    dev, q, gfx, cs, texture = kit
    u, rt = _targets(dev)
    cl = q.command_list()
    cl.set_pipeline_state(cs)
    cl.set_shader_resource_view(0, 0, texture)
    cl.set_unordered_access_view(1, 0, u)
    cl.dispatch(1)
    cl.set_pipeline_state(gfx)
    cl.set_render_targets([rt])
    with pytest.raises(dx.InvalidArgumentError, match=r"draw: pipeline .* reads t0 .*which was set only while a compute pipeline was bound: "
                       r"D3D12 keeps graphics and compute root arguments apart .*set_shader_resource_view\(0, 0, \.\.\.\) again after "
                       r"set_pipeline_state"):
        cl.draw(3)
    _set_again_draw_and_check(q, cl, texture, rt, u)


def test_back_to_graphics_after_dispatch_needs_slots_again(kit):
    """Graphics, then compute, then graphics again: moving to compute cleared the graphics tables."""
    dev, q, gfx, cs, texture = kit
    u, rt = _targets(dev)
    cl = q.command_list()
    cl.set_pipeline_state(gfx)
    cl.set_render_targets([rt])
    cl.set_shader_resource_view(0, 0, texture)
    cl.draw(3)
    cl.set_pipeline_state(cs)
    cl.set_shader_resource_view(0, 0, texture)
    cl.set_unordered_access_view(1, 0, u)
    cl.dispatch(1)
    cl.set_pipeline_state(gfx)
    with pytest.raises(dx.InvalidArgumentError, match=r"draw: .*reads t0 .*which was set while a graphics pipeline was bound, but "
                       r"set_pipeline_state with a compute pipeline since then cleared it.*set_shader_resource_view\(0, 0, \.\.\.\) "
                       r"again after set_pipeline_state"):
        cl.draw(3)
    _set_again_draw_and_check(q, cl, texture, rt, u)


def test_pipeline_reading_one_more_slot_is_checked_again(kit):
    """Once a draw passed, the check runs again when a pipeline of the same root signature and bind
    point that reads one more slot is bound (the dirty bit follows the pipeline)."""
    dev, q, _, _, texture = kit
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0, count=2)])])
    vs = dx.compile_hlsl(VS, profile="vs_5_0")
    one = dev.create_graphics_pipeline(vs, dx.compile_hlsl(PS, profile="ps_5_0"), rs, ["r32_float"])
    two = dev.create_graphics_pipeline(vs, dx.compile_hlsl(PS_TWO, profile="ps_5_0"), rs, ["r32_float"])
    rt = dev.create_texture2d(4, 4, "r32_float", render_target=True)
    cl = q.command_list()
    cl.set_pipeline_state(one)
    cl.set_render_targets([rt])
    cl.set_shader_resource_view(0, 0, texture)
    cl.draw(3)
    cl.draw(3)
    cl.set_pipeline_state(two)
    with pytest.raises(dx.InvalidArgumentError, match=r"draw: .*reads t1 .*root parameter 0, slot 1, which was never set on this list; "
                       r"call set_shader_resource_view\(0, 1, \.\.\.\) first"):
        cl.draw(3)
    cl.set_shader_resource_view(0, 1, texture)
    cl.draw(3)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_texture(rt).reshape(4, 4), TEXELS * 3)
