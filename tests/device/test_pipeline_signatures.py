"""create_graphics_pipeline checks the shaders' signatures against the fixed-function state: the pixel
shader's SV_Target outputs against rtv_formats / write masks / dual-source blending (values D3D12
leaves undefined), and the input layout against the vertex shader's input signature (a missing
semantic, a duplicate, a name ending in a digit, an unaligned offset: D3D12 refuses the pipeline; a
float/integer component mismatch: only a warning in D3D12, which reinterprets the bits, but undefined
on vkd3d over Vulkan, so refused here). Refusals have valid twins; most are drawn and read back (the
no-pixel-shader and semantics/offsets twins are created only). Small targets."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

FULL_VS = """float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2); return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1); }"""
CONST_PS = "cbuffer C : register(b0) { float4 c; }; float4 main() : SV_Target { return c; }"
UINT_PS = "uint4 main() : SV_Target { return uint4(1, 2, 3, 4); }"
INT_PS = "int4 main() : SV_Target { return int4(-1, 2, -3, 4); }"
TWO_PS = """struct O { float4 a : SV_Target0; float4 b : SV_Target1; };
O main() { O o; o.a = float4(0.25, 0.5, 0.75, 1); o.b = float4(0.5, 0.5, 0.5, 0.5); return o; }"""
NO_OUTPUT_PS = "void main(float4 p : SV_Position) { }"

POINT_VS = """struct V { float4 p : SV_Position; float4 c : COLOR0; };
V main(float2 p : POSITION, uint4 c : COLOR0) { V o; o.p = float4(p, 0, 1); o.c = c; return o; }"""
POINT_PS = "float4 main(float4 p : SV_Position, float4 c : COLOR0) : SV_Target { return c / 255; }"
FLOAT_COLOR_VS = """struct V { float4 p : SV_Position; float4 c : COLOR0; };
V main(float2 p : POSITION, float4 c : COLOR0, uint id : SV_VertexID) { V o; o.p = float4(p, 0, 1); o.c = c; return o; }"""

F = "rgba32_float"


@pytest.fixture(scope="module")
def sh():
    src = {"full_vs": (FULL_VS, "vs_5_0"), "const_ps": (CONST_PS, "ps_5_0"), "uint_ps": (UINT_PS, "ps_5_0"), "int_ps": (INT_PS, "ps_5_0"),
           "two_ps": (TWO_PS, "ps_5_0"), "no_output_ps": (NO_OUTPUT_PS, "ps_5_0"), "point_vs": (POINT_VS, "vs_5_0"),
           "point_ps": (POINT_PS, "ps_5_0"), "float_color_vs": (FLOAT_COLOR_VS, "vs_5_0")}
    return {k: dx.compile_hlsl(s, profile=p) for k, (s, p) in src.items()}


def _fill(device, queue, pso, formats, clears, constants=None):
    targets = [device.create_texture2d(4, 4, f, render_target=True) for f in formats]
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets(targets)
    for t, c in zip(targets, clears):
        cl.clear_render_target(t, c)
    if constants is not None:
        cl.set_constants(0, np.array(constants, np.float32))
    cl.draw(3)
    queue.execute(cl)
    return [queue.read_texture(t)[1, 1].tolist() for t in targets]


# ---- pixel shader outputs against render targets ---------------------------------------------------

def test_unwritten_render_target_refused_unless_its_write_mask_is_zero(device, queue, sh):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    with pytest.raises(dx.InvalidArgumentError, match=r"pixel shader does not write SV_Target1 .*render target 1 \(rgba32_float\).*"
                                                      r"write SV_Target1 or give that target write_mask=0"):
        device.create_graphics_pipeline(sh["full_vs"], sh["const_ps"], rs, [F, F])
    pso = device.create_graphics_pipeline(sh["full_vs"], sh["const_ps"], rs, [F, F], blend=[None, dx.BlendState(write_mask=0)])
    assert _fill(device, queue, pso, [F, F], [[0] * 4, [0.5] * 4], [1, 2, 3, 4]) == [[1, 2, 3, 4], [0.5] * 4]
    # No pixel shader: targets need write_mask=0 (depth-only pipelines have no targets at all).
    with pytest.raises(dx.InvalidArgumentError, match="there is no pixel shader.*render target 0"):
        device.create_graphics_pipeline(sh["full_vs"], None, rs, [F])
    device.create_graphics_pipeline(sh["full_vs"], None, rs, [F], blend=dx.BlendState(write_mask=0))
    device.create_graphics_pipeline(sh["full_vs"], None, rs, [], dsv_format="d32_float", depth_test=True)
    device.create_graphics_pipeline(sh["full_vs"], sh["no_output_ps"], rs, [], dsv_format="d32_float", depth_test=True)


def test_pixel_shader_may_write_more_targets_than_bound(device, queue, sh):
    rs = device.create_root_signature([])
    pso = device.create_graphics_pipeline(sh["full_vs"], sh["two_ps"], rs, [F])
    assert _fill(device, queue, pso, [F], [[0] * 4]) == [[0.25, 0.5, 0.75, 1]]


def test_output_component_type_must_match_the_target_format(device, queue, sh):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    with pytest.raises(dx.InvalidArgumentError, match=r"writes float to SV_Target0, but render target 0 \(rgba8_uint\) takes uint"):
        device.create_graphics_pipeline(sh["full_vs"], sh["const_ps"], rs, ["rgba8_uint"])
    with pytest.raises(dx.InvalidArgumentError, match=r"writes uint to SV_Target0, but render target 0 \(rgba8_unorm\) takes float"):
        device.create_graphics_pipeline(sh["full_vs"], sh["uint_ps"], rs, ["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match=r"writes int to SV_Target0, but render target 0 \(rgba8_uint\) takes uint"):
        device.create_graphics_pipeline(sh["full_vs"], sh["int_ps"], rs, ["rgba8_uint"])
    pso = device.create_graphics_pipeline(sh["full_vs"], sh["uint_ps"], rs, ["rgba8_uint"])
    assert _fill(device, queue, pso, ["rgba8_uint"], [[0] * 4]) == [[1, 2, 3, 4]]


def test_dual_source_blending_needs_sv_target1(device, queue, sh):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    src1 = dx.BlendState(src_blend="src1_color", dest_blend="zero", src_blend_alpha="one", dest_blend_alpha="zero")
    with pytest.raises(dx.InvalidArgumentError, match=r"src1_\* factors \(dual-source blending\).*SV_Target1.*writes none"):
        device.create_graphics_pipeline(sh["full_vs"], sh["const_ps"], rs, [F], blend=src1)
    pso = device.create_graphics_pipeline(sh["full_vs"], sh["two_ps"], rs, [F], blend=src1)
    assert _fill(device, queue, pso, [F], [[0] * 4]) == [[0.125, 0.25, 0.375, 1]]  # SV_Target0 * SV_Target1 (rgb), alpha * one


# ---- input layout against the vertex shader's input signature ---------------------------------------

def _point(device, queue, sh, vs, layout, vertex):
    rs = device.create_root_signature([])
    pso = device.create_graphics_pipeline(vs, sh["point_ps"], rs, ["rgba8_unorm"], input_layout=layout, topology="point")
    t = device.create_texture2d(4, 4, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([t])
    cl.clear_render_target(t, [0.5] * 4)
    cl.set_dynamic_vertex_buffer(0, vertex)
    cl.draw(1)
    queue.execute(cl)
    return queue.read_texture(t)[0, 0].tolist()


def test_input_layout_must_give_every_vertex_shader_input(device, queue, sh):
    rs = device.create_root_signature([])
    pos = dx.InputElement("POSITION", "float2")
    with pytest.raises(dx.InvalidArgumentError, match=r"vertex shader's input COLOR \(v1, uint\) has no input_layout element.*"
                                                      r"InputElement\('COLOR', <format>\)"):
        device.create_graphics_pipeline(sh["point_vs"], sh["point_ps"], rs, ["rgba8_unorm"], input_layout=[pos], topology="point")
    v = np.zeros((1, 7), np.float32)
    v[0, :2] = [-0.75, 0.75]
    v[0, 2:6].view(np.uint32)[:] = [10, 20, 30, 255]
    # Names match case-insensitively; an element the shader does not read (EXTRA) is allowed.
    layout = [pos, dx.InputElement("color", "rgba32_uint"), dx.InputElement("EXTRA", "float")]
    assert _point(device, queue, sh, sh["point_vs"], layout, v) == [10, 20, 30, 255]


def test_input_layout_component_types_must_match(device, queue, sh):
    rs = device.create_root_signature([])
    pos = dx.InputElement("POSITION", "float2")
    with pytest.raises(dx.InvalidArgumentError, match=r"input COLOR \(v1, uint\) reads uint components, but input_layout\[1\] \(COLOR\) is "
                                                      r"rgba32_float, which gives float"):
        device.create_graphics_pipeline(sh["point_vs"], sh["point_ps"], rs, ["rgba8_unorm"], input_layout=[pos, dx.InputElement("COLOR", "float4")])
    with pytest.raises(dx.InvalidArgumentError, match=r"input COLOR \(v1, float\) reads float components, but input_layout\[1\] \(COLOR\) is "
                                                      r"rgba32_uint, which gives uint"):
        device.create_graphics_pipeline(sh["float_color_vs"], sh["point_ps"], rs, ["rgba8_unorm"],
                                        input_layout=[pos, dx.InputElement("COLOR", "rgba32_uint")])
    # unorm data reaches a float input (SV_VertexID needs no element).
    v = np.zeros((1, 3), np.float32)
    v[0, :2] = [-0.75, 0.75]
    v[0, 2:].view(np.uint8)[:] = [0, 255, 0, 255]
    out = _point(device, queue, sh, sh["float_color_vs"], [pos, dx.InputElement("COLOR", "rgba8_unorm")], v)
    assert out == [0, 1, 0, 1]  # (0, 1, 0, 1) from the unorm bytes, divided by 255 in the PS: stored as bytes 0, 1, 0, 1


def test_input_layout_semantics_and_offsets_follow_d3d12(device, sh):
    rs = device.create_root_signature([])
    col = dx.InputElement("COLOR", "rgba32_uint")
    make = lambda layout: device.create_graphics_pipeline(sh["point_vs"], sh["point_ps"], rs, ["rgba8_unorm"], input_layout=layout)
    with pytest.raises(dx.InvalidArgumentError, match=r"input_layout\[1\] \(position\) repeats the semantic of input_layout\[0\] \(POSITION\)"):
        make([dx.InputElement("POSITION", "float2"), dx.InputElement("position", "float2"), col])
    with pytest.raises(dx.InvalidArgumentError, match=r"semantic 'COLOR0' ends in a digit.*InputElement\('COLOR', \.\.\., semantic_index=0\)"):
        make([dx.InputElement("POSITION", "float2"), dx.InputElement("COLOR0", "rgba32_uint")])
    with pytest.raises(dx.InvalidArgumentError, match=r"input_layout\[0\] \(POSITION\)\.offset 2 is not a multiple of 4"):
        make([dx.InputElement("POSITION", "float2", offset=2), col])
    make([dx.InputElement("POSITION", "float2"), dx.InputElement("POSITION", "float2", semantic_index=1), col])
    make([dx.InputElement("POSITION", "float2", slot=1, offset=4), col])
