"""Bundles (Device.create_bundle, CommandList.execute_bundle): recorded once, executed from many direct
lists; D3D12's bundle rules refused with the rule named; inheritance both ways. Pixels and buffers read back."""
from __future__ import annotations

import gc

import numpy as np
import pytest

import dx12kit as dx

W, H = 16, 8

# A band of the target (NDC x from b0.band.xy) in colour b0.colour.
BAND_VS = """
cbuffer C : register(b0) { float4 band; float4 colour; };
float4 main(uint id : SV_VertexID) : SV_Position {
    float u = (id == 1 || id == 3 || id == 4) ? 1.0 : 0.0;
    float v = (id == 2 || id == 4 || id == 5) ? 1.0 : 0.0;
    return float4(lerp(band.x, band.y, u), v * 2.0 - 1.0, 0, 1);
}
"""
BAND_PS = """
cbuffer C : register(b0) { float4 band; float4 colour; };
float4 main() : SV_Target { return colour; }
"""
FULL_VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""
# The colour from a root CBV (another root signature than the band pipeline's).
CBV_PS = """
cbuffer C : register(b0) { float4 colour; };
float4 main() : SV_Target { return colour; }
"""
# Each pixel copies texel (x, y) of t0.
LOAD_PS = """
Texture2D tex : register(t0);
float4 main(float4 pos : SV_Position) : SV_Target { return tex.Load(int3(pos.xy, 0)); }
"""
ADD_CS = """
cbuffer C : register(b0) { uint add; };
RWStructuredBuffer<uint> data : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 t : SV_DispatchThreadID) { data[t.x] += add + t.x; }
"""


@pytest.fixture(scope="module")
def band(device):
    rs = device.create_root_signature([dx.RootConstants(0, 8)])
    return device.create_graphics_pipeline(dx.compile_hlsl(BAND_VS, profile="vs_5_0"), dx.compile_hlsl(BAND_PS, profile="ps_5_0"), rs,
                                           rtv_formats=["rgba8_unorm"])


@pytest.fixture(scope="module")
def cbv_fill(device):
    rs = device.create_root_signature([dx.RootCBV(0)])
    return device.create_graphics_pipeline(dx.compile_hlsl(FULL_VS, profile="vs_5_0"), dx.compile_hlsl(CBV_PS, profile="ps_5_0"), rs,
                                           rtv_formats=["rgba8_unorm"])


@pytest.fixture(scope="module")
def copier(device):
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)])])
    return device.create_graphics_pipeline(dx.compile_hlsl(FULL_VS, profile="vs_5_0"), dx.compile_hlsl(LOAD_PS, profile="ps_5_0"), rs,
                                           rtv_formats=["rgba8_unorm"])


@pytest.fixture(scope="module")
def adder(device):
    rs = device.create_root_signature([dx.RootConstants(0, 1), dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(ADD_CS, profile="cs_5_0"), rs)


def band_constants(x0: float, x1: float, rgba) -> np.ndarray:
    c = np.zeros(8, np.float32)
    c[0], c[1] = x0, x1
    c[4:8] = rgba
    return c


def target(device):
    return device.create_texture2d(W, H, "rgba8_unorm", render_target=True)


def start(queue, rt):
    cl = queue.command_list()
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    return cl


RED = [1.0, 0.0, 0.0, 1.0]
GREEN = [0.0, 1.0, 0.0, 1.0]


def test_a_bundle_recorded_once_draws_the_same_pixels_from_two_lists_and_twice_in_one(device, queue, band):
    b = device.create_bundle(name="left band")
    b.set_pipeline_state(band)
    b.set_constants(0, band_constants(-1.0, 0.0, RED))
    b.draw(6)
    b.close()
    assert b.closed and b.command_count == 3

    rt1 = target(device)
    cl = start(queue, rt1)
    cl.execute_bundle(b)
    queue.execute(cl)
    first = queue.read_texture(rt1)
    want = np.zeros((H, W, 4), np.uint8)
    want[:, : W // 2] = [255, 0, 0, 255]
    np.testing.assert_array_equal(first, want)

    # Another list (a later frame), the bundle executed twice: the viewport is inherited, so the second
    # execution draws its band into the right half.
    rt2 = target(device)
    cl = start(queue, rt2)
    cl.execute_bundle(b)
    cl.set_viewport(W // 2, 0, W, H)
    cl.execute_bundle(b)
    queue.execute(cl)
    second = queue.read_texture(rt2)
    want2 = want.copy()
    want2[:, W // 2:] = [255, 0, 0, 255]  # the band: the left half of a viewport starting at x = W/2
    np.testing.assert_array_equal(second, want2)


def test_root_constants_set_by_the_calling_list_are_inherited_and_may_change_between_executions(device, queue, band):
    b = device.create_bundle(pipeline=band)  # the calling list's root signature: constants inherited
    b.draw(6)
    b.close()
    rt = target(device)
    cl = start(queue, rt)
    cl.set_pipeline_state(band)
    cl.set_constants(0, band_constants(-1.0, 0.0, RED))
    cl.execute_bundle(b)
    cl.set_constants(0, band_constants(0.0, 1.0, GREEN))
    cl.execute_bundle(b)
    queue.execute(cl)
    got = queue.read_texture(rt)
    assert (got[:, : W // 2] == [255, 0, 0, 255]).all()
    assert (got[:, W // 2:] == [0, 255, 0, 255]).all()


def test_what_a_bundle_sets_stays_set_in_the_calling_list(device, queue, band):
    b = device.create_bundle()
    b.set_pipeline_state(band)
    b.set_constants(0, band_constants(-1.0, 1.0, GREEN))
    b.close()
    rt = target(device)
    cl = start(queue, rt)
    cl.execute_bundle(b)  # no draw: it only sets the pipeline and its constants
    cl.draw(6)  # the calling list draws with what the bundle set
    queue.execute(cl)
    assert (queue.read_texture(rt) == [0, 255, 0, 255]).all()


def test_a_bundle_does_not_inherit_the_pipeline(device, band):
    b = device.create_bundle()
    with pytest.raises(dx.InvalidArgumentError, match="does not inherit the calling list's pipeline"):
        b.draw(3)
    with pytest.raises(dx.InvalidArgumentError, match="set_pipeline_state in the bundle first"):
        b.set_constants(0, [0.0] * 8)


def test_a_bundle_of_another_root_signature_must_set_its_root_arguments(device, queue, band, cbv_fill):
    # The bundle binds another root signature: the calling list's constants are cleared, and the
    # bundle's draw without its own root CBV is refused at execute, naming the bundle and the call.
    b = device.create_bundle(pipeline=cbv_fill, name="no cbv")
    b.draw(3)
    b.close()
    cl = start(queue, target(device))
    cl.set_pipeline_state(band)
    cl.set_constants(0, band_constants(-1.0, 1.0, RED))
    with pytest.raises(dx.InvalidArgumentError, match=r"bundle 'no cbv', call 1 \(draw\)"):
        cl.execute_bundle(b)


def test_the_bundle_keeps_what_it_names_alive(device, queue, cbv_fill):
    colour = device.create_buffer(256, name="colour")
    up = queue.command_list()
    up.upload(colour, np.array(GREEN, np.float32))
    queue.execute(up)
    b = device.create_bundle(pipeline=cbv_fill)
    b.set_root_cbv(0, colour)
    b.draw(3)
    b.close()
    del colour
    gc.collect()
    rt = target(device)
    cl = start(queue, rt)
    cl.execute_bundle(b)
    del b  # the list keeps the bundle until its work completes
    gc.collect()
    queue.execute(cl)
    assert (queue.read_texture(rt) == [0, 255, 0, 255]).all()


def test_resources_a_bundle_reads_are_put_in_their_state_by_the_calling_list(device, queue, copier):
    # The bundle samples a texture the calling list has just rendered into: D3D12 bundles cannot
    # transition, so the calling list's state tracker moves it to a shader-resource state at execute.
    src = target(device)
    b = device.create_bundle(pipeline=copier)
    b.set_shader_resource_view(0, 0, src)
    b.draw(3)
    b.close()
    dst = target(device)
    cl = queue.command_list()
    cl.clear_render_target(src, [0.0, 0.0, 1.0, 1.0])  # src: RENDER_TARGET
    cl.set_render_targets([dst])
    cl.execute_bundle(b)
    queue.execute(cl)
    assert (queue.read_texture(dst) == [0, 0, 255, 255]).all()


def test_a_compute_bundle_runs_from_a_direct_list(device, queue, adder):
    data = device.create_buffer(16, uav=True)
    b = device.create_bundle(pipeline=adder)
    b.set_constants(0, [10])
    b.set_root_uav(1, data)
    b.dispatch(1)
    b.close()
    cl = queue.command_list()
    cl.upload(data, np.zeros(4, np.uint32))
    cl.execute_bundle(b)
    cl.execute_bundle(b)  # the automatic UAV barrier comes between the two
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(data, dtype=np.uint32), [20, 22, 24, 26])


def test_every_refused_call_raises_naming_its_rule(device):
    b = device.create_bundle(name="rules")
    refused = dx.Bundle.refused_calls()
    assert {"transition_barrier", "clear_render_target", "copy_resource", "resolve", "set_render_targets", "set_viewport",
            "set_scissor", "set_predication", "begin_query", "end_query", "resolve_query_data", "execute_bundle"} <= set(refused)
    for call, rule in refused.items():
        assert hasattr(dx.CommandList, call), f"{call} is no CommandList call"
        with pytest.raises(dx.InvalidArgumentError) as e:
            getattr(b, call)()
        assert str(e.value) == f"{call} in bundle 'rules': {rule}"
        assert "D3D12" in rule
    # the arguments are not looked at
    with pytest.raises(dx.InvalidArgumentError, match="ClearRenderTargetView"):
        b.clear_render_target(None, [0, 0, 0, 0], mip=0)


def test_execute_bundle_refuses_an_open_bundle_a_compute_list_and_nesting(device, queue, adder):
    b = device.create_bundle(pipeline=adder)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="is not closed"):
        cl.execute_bundle(b)
    b.close()
    for kind in ("compute", "copy"):
        other = device.queue(kind).command_list()
        with pytest.raises(dx.InvalidArgumentError, match="direct command lists only"):
            other.execute_bundle(b)
    outer = device.create_bundle()
    with pytest.raises(dx.InvalidArgumentError, match="bundles nest one level only"):
        outer.execute_bundle(b)
    with pytest.raises(TypeError):
        cl.execute_bundle(cl)
    with pytest.raises(dx.UseAfterFreeError, match="is closed"):
        b.dispatch(1)


def test_the_bundles_guide_program_runs():
    import re
    import textwrap
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "guides" / "bundles.rst").read_text()
    block = re.search(r"\.\. code-block:: python\n\n((?:    .*\n|\n)+)", text).group(1)
    exec(compile(textwrap.dedent(block), "bundles.rst", "exec"), {"__name__": "bundles_guide"})
