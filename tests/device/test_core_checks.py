"""Checks that live in the C++ core (so C++ callers get them too), seen from Python on the real device:
vertex buffers an input layout needs, recording on a closed list, buffer-view arguments on textures,
root-signature flags."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

# Position from slot 0, colour from slot 1 (per instance): a draw needs a buffer in both slots.
TWO_SLOT_VS = """
struct V { float4 pos : SV_Position; float4 col : COLOR; };
V main(float2 p : POSITION, float4 c : COLOR) { V v; v.pos = float4(p, 0, 1); v.col = c; return v; }
"""
COLOUR_PS = "float4 main(float4 pos : SV_Position, float4 c : COLOR) : SV_Target { return c; }"


@pytest.fixture(scope="module")
def two_slot(device):
    rs = device.create_root_signature([dx.RootConstants(0, 1)])
    layout = [dx.InputElement("POSITION", "rg32_float", slot=0),
              dx.InputElement("COLOR", "rgba32_float", slot=1, per_instance=True)]
    return device.create_graphics_pipeline(dx.compile_hlsl(TWO_SLOT_VS, profile="vs_5_0"), dx.compile_hlsl(COLOUR_PS, profile="ps_5_0"),
                                           rs, ["rgba8_unorm"], input_layout=layout, topology="point")


def test_draws_need_every_vertex_buffer_slot_of_the_input_layout(device, queue, two_slot):
    target = device.create_texture2d(2, 2, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(two_slot)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 0])
    cl.set_constants(0, [0])
    cl.set_dynamic_index_buffer(np.zeros(1, np.uint32))
    with pytest.raises(dx.InvalidArgumentError, match=r"draw: pipeline '.*' reads vertex-buffer slot 0 \(input_layout 'POSITION'\).*"
                                                      r"set_vertex_buffer\(0, "):
        cl.draw(1)
    # Slot 0 set, slot 1 (COLOR) still missing: every draw kind names it.
    cl.set_dynamic_vertex_buffer(0, np.array([[-0.5, 0.5]], np.float32))   # texel (0, 0) of the 2x2 target
    rows = np.zeros((1, 1), np.uint32)
    for what, call in [("draw", lambda: cl.draw(1)), ("draw_indexed", lambda: cl.draw_indexed(1)),
                       ("draw_many", lambda: cl.draw_many(1, rows)), ("draw_indexed_many", lambda: cl.draw_indexed_many(1, rows))]:
        with pytest.raises(dx.InvalidArgumentError, match=what + r": pipeline .* slot 1 \(input_layout 'COLOR'\) but no vertex buffer"):
            call()
    colours = device.create_buffer(16)
    queue.write_buffer(colours, np.array([0.0, 1.0, 0.0, 1.0], np.float32))
    cl.set_vertex_buffer(1, colours, 16)
    cl.draw(1)   # now accepted, and the colour comes from slot 1
    queue.wait(queue.execute(cl))
    assert queue.read_texture(target)[0, 0].tolist() == [0, 255, 0, 255]


def test_a_slot_only_unread_elements_use_needs_no_vertex_buffer(device, queue):
    """A depth pre-pass sharing the full layout binds only the position stream: COLOR (slot 1) is not
    read by its vertex shader, so vkd3d leaves it out of the pipeline and D3D12 fetches nothing there."""
    rs = device.create_root_signature([dx.RootConstants(0, 1)])
    layout = [dx.InputElement("POSITION", "rg32_float", slot=0),
              dx.InputElement("COLOR", "rgba32_float", slot=1, per_instance=True)]
    vs = "float4 main(float2 p : POSITION) : SV_Position { return float4(p, 0, 1); }"
    ps = "float4 main() : SV_Target { return float4(0, 0, 1, 1); }"
    pso = device.create_graphics_pipeline(dx.compile_hlsl(vs, profile="vs_5_0"), dx.compile_hlsl(ps, profile="ps_5_0"),
                                          rs, ["rgba8_unorm"], input_layout=layout, topology="point")
    target = device.create_texture2d(2, 2, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 0])
    with pytest.raises(dx.InvalidArgumentError, match=r"slot 0 \(input_layout 'POSITION'\)"):
        cl.draw(1)   # the slot it reads is still required
    cl.set_dynamic_vertex_buffer(0, np.array([[-0.5, 0.5]], np.float32))
    cl.draw(1)
    queue.wait(queue.execute(cl))
    assert queue.read_texture(target)[0, 0].tolist() == [0, 0, 255, 255]


def test_record_raw_refuses_an_executed_list(device, queue):
    """dx12kit_bench.record_raw records through CommandList::RecordNative: the open-list check of every
    recording call (an executed list has no native list left: this used to crash)."""
    bench = pytest.importorskip("dx12kit_bench", reason="needs the benchmark module dx12kit_bench (not in a product-only install)")
    rs = device.create_root_signature([dx.RootConstants(0, 1)])
    pso = device.create_compute_pipeline(dx.compile_hlsl("cbuffer C : register(b0) { uint x; }; [numthreads(1,1,1)] void main() {}",
                                                         profile="cs_5_0"), rs)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_constants(0, [1])
    bench.record_raw(cl, "dispatch", np.zeros((2, 1), np.uint32))   # open: recorded
    queue.wait(queue.execute(cl))
    rows = np.zeros((1, 1), np.uint32)
    with pytest.raises(dx.UseAfterFreeError) as raw:
        bench.record_raw(cl, "dispatch", rows)
    with pytest.raises(dx.UseAfterFreeError) as core:
        cl.dispatch(1)
    # The same error as the other recording calls, named after the call.
    assert str(raw.value).replace("record_raw", "dispatch") == str(core.value)
    assert str(raw.value).startswith("record_raw: this command list was already executed")


def test_buffer_view_arguments_on_a_texture_refused(device, queue):
    """CommandList::SetShaderResourceView / SetUnorderedAccessView refuse them (the binding only converts)."""
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0), dx.UAV(0)])])
    pso = device.create_compute_pipeline(dx.compile_hlsl(
        "Texture2D<float4> t : register(t0); RWTexture2D<float4> u : register(u0);"
        "[numthreads(1,1,1)] void main() { u[uint2(0, 0)] = t[uint2(0, 0)]; }", profile="cs_5_0"), rs)
    tex = device.create_texture2d(4, 4, "rgba8_unorm", uav=True, name="tex")
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    msg = r"resource 'tex' is a texture; stride=, raw=, first_element= and num_elements= apply to buffers"
    for kw in ({"stride": 4}, {"raw": False}, {"first_element": 1}, {"num_elements": 4}):
        with pytest.raises(dx.InvalidArgumentError, match="set_shader_resource_view: " + msg):
            cl.set_shader_resource_view(0, 0, tex, **kw)
        with pytest.raises(dx.InvalidArgumentError, match="set_unordered_access_view: " + msg):
            cl.set_unordered_access_view(0, 1, tex, **kw)
    for fmt in ("r32_float", "d32_float"):   # a typed-buffer format or not: format= is for buffers either way
        with pytest.raises(dx.InvalidArgumentError, match=r"set_unordered_access_view: format= applies to buffers \(typed views\)"):
            cl.set_unordered_access_view(0, 1, tex, format=fmt)
    cl.set_shader_resource_view(0, 0, tex)   # without them: accepted
    cl.set_unordered_access_view(0, 1, tex)


def test_root_signature_flags_checked_by_the_core_table(device):
    """The RootSignature constructor refuses flags (one table, RootSignatureCheck.cpp); the text parser
    names the same refused flags with the same reasons, read from dx12core.refused_flags()."""
    refused = dx.dx12core.refused_flags()
    assert set(refused) == {"RootSignatureFlags", "DescriptorRangeFlags", "RootDescriptorFlags"}
    why = refused["RootSignatureFlags"]["LOCAL_ROOT_SIGNATURE"]
    assert "raytracing" in why
    assert "LOCAL_ROOT_SIGNATURE" not in dx.RootSignatureFlags.__members__   # supported and refused never overlap
    with pytest.raises(dx.InvalidArgumentError, match=r"^create_root_signature: root signature flag LOCAL_ROOT_SIGNATURE is not supported: "
                                                      + why):
        device.create_root_signature([], flags=0x80)
    with pytest.raises(dx.InvalidArgumentError, match=r"column 11.*root flag 'LOCAL_ROOT_SIGNATURE' is not supported: " + why):
        device.create_root_signature("RootFlags(LOCAL_ROOT_SIGNATURE)")
    assert dx.rootsig.ROOT_FLAGS["DENY_HULL_SHADER_ROOT_ACCESS"] == dx.RootSignatureFlags.DENY_HULL_SHADER_ROOT_ACCESS == 0x4
    assert device.create_root_signature("RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | DENY_HULL_SHADER_ROOT_ACCESS), CBV(b0)").num_parameters == 1


@pytest.mark.parametrize("kind", ["SRV", "UAV", "CBV"])
def test_volatile_descriptors_with_static_data_refused(device, kind):
    """D3D12's root-signature validation refuses DESCRIPTORS_VOLATILE | DATA_STATIC on a range (a
    descriptor that may change cannot promise static data), from the parameter list and from text."""
    R = dx.DescriptorRangeFlags
    make = getattr(dx, kind)
    with pytest.raises(dx.InvalidArgumentError, match="DESCRIPTORS_VOLATILE and DATA_STATIC exclude each other"):
        device.create_root_signature([dx.DescriptorTable([make(0, flags=R.DESCRIPTORS_VOLATILE | R.DATA_STATIC)])])
    reg = {"SRV": "t0", "UAV": "u0", "CBV": "b0"}[kind]
    with pytest.raises(dx.InvalidArgumentError, match="DESCRIPTORS_VOLATILE and DATA_STATIC exclude each other"):
        device.create_root_signature(f"DescriptorTable({kind}({reg}, flags=DESCRIPTORS_VOLATILE | DATA_STATIC))")
    # Each alone, and volatile descriptors with volatile data, stay valid.
    for flags in (R.DESCRIPTORS_VOLATILE, R.DATA_STATIC, R.DESCRIPTORS_VOLATILE | R.DATA_VOLATILE,
                  R.DESCRIPTORS_VOLATILE | R.DATA_STATIC_WHILE_SET_AT_EXECUTE):
        assert device.create_root_signature([dx.DescriptorTable([make(0, flags=flags)])]).num_parameters == 1


def test_a_readback_buffer_is_only_a_copy_destination(device, queue):
    """D3D12 keeps a READBACK-heap resource in COPY_DEST for life: binding one as a shader resource or
    vertex buffer is refused (vkd3d ran it, reading whatever was there); an UPLOAD buffer (GENERIC_READ)
    still serves as both."""
    rb = device.create_buffer(256, heap="readback", name="rb")
    up = device.create_buffer(256, heap="upload", name="up")
    up.map(np.uint32)[:] = np.arange(64, dtype=np.uint32) + 5
    cs = dx.compile_hlsl("StructuredBuffer<uint> s : register(t0); RWStructuredBuffer<uint> o : register(u0);"
                         "[numthreads(1,1,1)] void main() { o[0] = s[3]; }", profile="cs_5_0")
    pso = device.create_compute_pipeline(cs, device.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)]))
    out = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(1, out)
    cl.set_root_srv(0, rb)   # bound; the state is asked for by the work that reads it
    with pytest.raises(dx.ResourceStateError, match=r"resource 'rb' is in a READBACK heap, which D3D12 keeps in COPY_DEST"):
        cl.dispatch(1)
    cl2 = queue.command_list()
    cl2.set_pipeline_state(pso)
    cl2.set_root_uav(1, out)
    cl2.set_root_srv(0, up)
    cl2.dispatch(1)
    cl2.copy_buffer_region(rb, 0, out, 0, 16)   # a copy destination: fine
    queue.wait(queue.execute(cl2))
    assert rb.map(np.uint32)[0] == 8

