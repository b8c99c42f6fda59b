"""Draws and dispatches re-request only the bindings that changed since the last one, yet every resource a shader
reads is in the right state at each draw: anything between two draws that moves a bound resource (an upload, a UAV
clear, a transition) makes the next draw request its state again. Re-staging the descriptor a table slot holds already
is free, and a slot re-set between draws still gives each draw its own descriptor.
"""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

from .shaders import fullscreen_pos_vs

S = dx.ResourceState

LOAD_PS = """
Texture2D<float4> tex : register(t0);
float4 main(float4 pos : SV_Position) : SV_Target { return tex.Load(int3(0, 0, 0)); }
"""

SAMPLE_CS = """
Texture2D<float4> tex : register(t0);
SamplerState smp : register(s0);
RWStructuredBuffer<float4> outp : register(u0);
cbuffer C : register(b0) { uint index; };
[numthreads(1, 1, 1)]
void main() { outp[index] = tex.SampleLevel(smp, float2(0.5, 0.5), 0); }
"""

W = 8  # four draws side by side, each 2 pixels wide


def solid(device, queue, rgba, uav=False):
    tex = device.create_texture2d(1, 1, "rgba8_unorm", uav=uav)
    cl = queue.command_list()
    cl.upload(tex, np.array([[rgba]], np.uint8))
    queue.wait(queue.execute(cl))
    return tex


@pytest.fixture
def load_pipeline(device):
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)], visibility="pixel")])
    return device.create_graphics_pipeline(dx.compile_hlsl(fullscreen_pos_vs(), profile="vs_5_0"),
                                           dx.compile_hlsl(LOAD_PS, profile="ps_5_0"), rs, rtv_formats=["rgba8_unorm"])


def begin(queue, pso, rt):
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.set_scissor(0, 0, W, 1)
    return cl


def draw_at(cl, i):
    cl.set_viewport(2 * i, 0, 2, 1)
    cl.draw(3)


def columns(queue, rt):
    px = queue.read_texture(rt)[0]
    return [tuple(int(v) for v in px[2 * i]) for i in range(W // 2)]


def test_upload_between_draws_reaches_the_next_draw_in_shader_state(device, queue, load_pipeline):
    """The texture bound once is uploaded to between two draws (COPY_DEST): the second draw moves it back to
    PIXEL_SHADER_RESOURCE although no binding changed, and reads the new texel."""
    tex = solid(device, queue, [255, 0, 0, 255])
    rt = device.create_texture2d(W, 1, "rgba8_unorm", render_target=True)
    cl = begin(queue, load_pipeline, rt)
    cl.set_shader_resource_view(0, 0, tex)
    draw_at(cl, 0)
    draw_at(cl, 1)
    cl.upload(tex, np.array([[[0, 255, 0, 255]]], np.uint8))
    draw_at(cl, 2)
    queue.wait(queue.execute(cl))
    assert tex.global_state() == S.PIXEL_SHADER_RESOURCE
    assert columns(queue, rt) == [(255, 0, 0, 255), (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 0, 0)]


def test_uav_clear_between_draws_reaches_the_next_draw_in_shader_state(device, queue, load_pipeline):
    """A UAV clear of the bound texture between draws (UNORDERED_ACCESS) is followed by its transition back."""
    tex = solid(device, queue, [255, 0, 0, 255], uav=True)
    rt = device.create_texture2d(W, 1, "rgba8_unorm", render_target=True)
    cl = begin(queue, load_pipeline, rt)
    cl.set_shader_resource_view(0, 0, tex)
    draw_at(cl, 0)
    cl.clear_unordered_access_view(tex, [0.0, 0.0, 1.0, 1.0])
    draw_at(cl, 1)
    queue.wait(queue.execute(cl))
    assert tex.global_state() == S.PIXEL_SHADER_RESOURCE
    assert columns(queue, rt)[:2] == [(255, 0, 0, 255), (0, 0, 255, 255)]


def test_transition_between_draws_is_undone_by_the_next_draw(device, queue, load_pipeline):
    """transition_barrier of the bound texture between draws: the next draw requests its shader state again."""
    tex = solid(device, queue, [0, 0, 255, 255])
    rt = device.create_texture2d(W, 1, "rgba8_unorm", render_target=True)
    cl = begin(queue, load_pipeline, rt)
    cl.set_shader_resource_view(0, 0, tex)
    draw_at(cl, 0)
    cl.transition_barrier(tex, "copy_source")
    draw_at(cl, 1)
    queue.wait(queue.execute(cl))
    assert tex.global_state() == S.PIXEL_SHADER_RESOURCE
    assert columns(queue, rt)[:2] == [(0, 0, 255, 255), (0, 0, 255, 255)]


def test_render_target_read_after_rendering_into_it_on_the_same_list(device, queue, load_pipeline):
    """A texture drawn into (RENDER_TARGET) and then bound: its SRV binding is requested at the next draw."""
    a = device.create_texture2d(1, 1, "rgba8_unorm", render_target=True)
    rt = device.create_texture2d(W, 1, "rgba8_unorm", render_target=True)
    src = solid(device, queue, [10, 20, 30, 255])
    cl = begin(queue, load_pipeline, rt)
    cl.set_shader_resource_view(0, 0, src)
    draw_at(cl, 0)
    cl.clear_render_target(a, [1.0, 1.0, 0.0, 1.0])
    cl.set_shader_resource_view(0, 0, a)
    draw_at(cl, 1)
    queue.wait(queue.execute(cl))
    assert a.global_state() == S.PIXEL_SHADER_RESOURCE
    assert columns(queue, rt)[:2] == [(10, 20, 30, 255), (255, 255, 0, 255)]


def test_slot_reset_between_draws_gives_each_draw_its_descriptor(device, queue, load_pipeline):
    """A table slot re-set before each draw (the same texture again, or another): each draw reads its own."""
    red, green = solid(device, queue, [255, 0, 0, 255]), solid(device, queue, [0, 255, 0, 255])
    rt = device.create_texture2d(W, 1, "rgba8_unorm", render_target=True)
    cl = begin(queue, load_pipeline, rt)
    for i, tex in enumerate([red, red, green, red]):
        cl.set_shader_resource_view(0, 0, tex)
        draw_at(cl, i)
    queue.wait(queue.execute(cl))
    assert columns(queue, rt) == [(255, 0, 0, 255), (255, 0, 0, 255), (0, 255, 0, 255), (255, 0, 0, 255)]


def test_unchanged_slot_restaged_after_another_slot_changed(device, queue):
    """Table of two: slot 1 changes, slot 0 is re-staged with what it holds: the draw reads both current views."""
    ps = """
Texture2D<float4> a : register(t0);
Texture2D<float4> b : register(t1);
float4 main(float4 pos : SV_Position) : SV_Target { return a.Load(int3(0, 0, 0)) + b.Load(int3(0, 0, 0)); }
"""
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0, 2)], visibility="pixel")])
    pso = device.create_graphics_pipeline(dx.compile_hlsl(fullscreen_pos_vs(), profile="vs_5_0"), dx.compile_hlsl(ps, profile="ps_5_0"), rs,
                                          rtv_formats=["rgba8_unorm"])
    red, green, blue = (solid(device, queue, c) for c in ([255, 0, 0, 255], [0, 255, 0, 0], [0, 0, 255, 0]))
    rt = device.create_texture2d(W, 1, "rgba8_unorm", render_target=True)
    cl = begin(queue, pso, rt)
    cl.set_shader_resource_view(0, 0, red)
    cl.set_shader_resource_view(0, 1, green)
    draw_at(cl, 0)
    cl.set_shader_resource_view(0, 1, blue)
    cl.set_shader_resource_view(0, 0, red)
    draw_at(cl, 1)
    cl.set_shader_resource_view(0, 0, red)
    draw_at(cl, 2)
    queue.wait(queue.execute(cl))
    assert columns(queue, rt)[:3] == [(255, 255, 0, 255), (255, 0, 255, 255), (255, 0, 255, 255)]


def test_set_sampler_before_every_dispatch_5000_times(device, queue):
    """set_sampler with the sampler the table holds already, before each of 5,000 dispatches of one list: it costs
    no dynamic sampler descriptors (the sampler heap holds 2,048), and every dispatch samples through it."""
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)]),
                                       dx.DescriptorTable([dx.Sampler(0)]), dx.RootConstants(0, 1)])
    pso = device.create_compute_pipeline(dx.compile_hlsl(SAMPLE_CS, profile="cs_5_0"), rs)
    tex = solid(device, queue, [0, 255, 0, 255])
    smp = device.create_sampler(filter="point")
    n = 5000
    out = device.create_buffer(16 * n, uav=True)
    cl = queue.command_list()
    cl.auto_uav_barriers = False  # each dispatch writes its own element
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, tex)
    cl.set_unordered_access_view(1, 0, out)
    for i in range(n):
        cl.set_sampler(2, 0, smp)
        cl.set_constants(3, [i])
        cl.dispatch(1)
    queue.wait(queue.execute(cl))
    got = queue.read_buffer(out, np.float32).reshape(n, 4)
    assert np.array_equal(got, np.tile([0.0, 1.0, 0.0, 1.0], (n, 1)).astype(np.float32))


def test_uav_written_by_dispatch_is_read_by_the_next_in_order(device, queue):
    """A UAV bound once and written by each dispatch: every dispatch after the first gets its UAV barrier (the
    increments chain), although no binding changed between them."""
    cs = """
RWStructuredBuffer<uint> buf : register(u0);
[numthreads(1, 1, 1)]
void main() { buf[0] = buf[0] + 1; }
"""
    rs = device.create_root_signature([dx.RootUAV(0)])
    pso = device.create_compute_pipeline(dx.compile_hlsl(cs, profile="cs_5_0"), rs)
    buf = device.create_buffer(256, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(0, buf)
    for _ in range(50):
        cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert int(queue.read_buffer(buf, np.uint32)[0]) == 50
