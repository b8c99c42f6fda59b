"""Multisampled textures as placed resources: in the device's pools, in custom pools and in allocated
memory, where two MSAA textures of different descriptions alias. D3D12 places MSAA textures only in
heaps created with 4 MiB alignment (D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT) that allow render
targets, at offsets that are multiples of GetResourceAllocationInfo's alignment; vkd3d checks neither,
dx12kit does. Every test checks the resolved pixels against a committed texture drawn the same way."""
from __future__ import annotations

import json

import numpy as np
import pytest

import dx12kit as dx

from .test_msaa import TRIANGLE_VS, _regions

SIZE = 32
MSAA_HEAP_ALIGNMENT = 4 << 20

COLOUR_PS = """
cbuffer c : register(b0) { float4 colour; };
float4 main(float4 p : SV_Position) : SV_Target { return colour; }
"""


@pytest.fixture(scope="module")
def kit(device):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    vs = dx.compile_hlsl(TRIANGLE_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(COLOUR_PS, profile="ps_5_0")
    return {fmt: device.create_graphics_pipeline(vs, ps, rs, [fmt], sample_count=4, name=f"triangle {fmt}")
            for fmt in ("rgba8_unorm", "rgba16_float")}


def _draw(cl, pso, target, clear, colour):
    """Clears `target` (its initialisation after an aliasing barrier) and draws the triangle in `colour`."""
    cl.clear_render_target(target, clear)
    cl.set_pipeline_state(pso)
    cl.set_render_targets([target])
    cl.set_constants(0, np.array(colour, np.float32))
    cl.draw(3)


def _heap_alignment(device, allocation):
    """The heap alignment of the block holding `allocation` (block ids are numbered per pool)."""
    j = json.loads(device.memory_json(detailed=True))
    if allocation["pool"] is None:
        pool = j["DefaultPools"][allocation["heap_type"]]
    else:
        pool = next(p for p in j["CustomPools"] if p["Name"] == allocation["pool"])
    return {b["Id"]: b["HeapAlignment"] for b in pool.get("Blocks", [])}[allocation["block"]]


def _reference(device, queue, kit, fmt, size, clear, colour):
    """The resolved pixels of a committed MSAA texture drawn the same way."""
    ms = device.create_texture2d(size, size, fmt, render_target=True, sample_count=4, committed=True, name="reference")
    out = device.create_texture2d(size, size, fmt, name="reference resolved")
    cl = queue.command_list()
    _draw(cl, kit[fmt], ms, clear, colour)
    cl.resolve(out, ms)
    queue.execute(cl)
    return queue.read_texture(out)


def test_msaa_render_target_is_placed_in_a_4mib_aligned_heap_and_draws_right(device, queue, kit):
    pool = device.create_pool(heap="default", block_size=8 << 20, name="msaa pool")
    for where in ({}, {"pool": pool}):
        ms = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4, name="placed ms", **where)
        a = ms.allocation
        assert not a["committed"]
        assert a["offset"] % a["alignment"] == 0 and a["alignment"] in (65536, MSAA_HEAP_ALIGNMENT)
        assert _heap_alignment(device, a) == MSAA_HEAP_ALIGNMENT
        out = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", name="resolved")
        cl = queue.command_list()
        _draw(cl, kit["rgba8_unorm"], ms, [0, 0, 0, 1], [1, 1, 1, 1])
        cl.resolve(out, ms)
        queue.execute(cl)
        px = queue.read_texture(out)
        assert np.array_equal(px, _reference(device, queue, kit, "rgba8_unorm", SIZE, [0, 0, 0, 1], [1, 1, 1, 1]))
        inside, edge, outside = _regions()
        red = px[:, :, 0].astype(int)
        assert (red[inside] == 255).all() and (red[outside] == 0).all()
        assert ((red[edge] > 0) & (red[edge] < 255)).all()   # 4 samples: the edge is partly covered


def test_msaa_offsets_in_allocated_memory_follow_the_textures_alignment(device):
    probe = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4)
    align = probe.allocation["alignment"]
    mem = device.allocate_memory(4 * align, alignment=align)
    t = device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4, memory=mem, offset=align)
    assert t.allocation["offset"] % align == 0
    with pytest.raises(dx.InvalidArgumentError, match="not a multiple of the resource's alignment"):
        device.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4, memory=mem, offset=4096)


def test_two_msaa_textures_of_different_descriptions_alias_with_barriers(device, queue, kit):
    """4x rgba8 64x64 and 4x rgba16_float 32x32 at offset 0 of one piece of memory, each taking it over
    in turn (aliasing barrier, then a clear as D3D12 wants of an activated render target): each
    resolve equals a committed texture drawn the same way, after the other has overwritten the bytes."""
    big = dict(fmt="rgba8_unorm", size=64, clear=[0, 0, 0.5, 1], colour=[1, 0.5, 0, 1])
    small = dict(fmt="rgba16_float", size=32, clear=[0.25, 0, 0, 1], colour=[0, 0.75, 1, 1])
    probes = [device.create_texture2d(d["size"], d["size"], d["fmt"], render_target=True, sample_count=4) for d in (big, small)]
    size = max(p.allocation["size"] for p in probes)
    align = max(p.allocation["alignment"] for p in probes)
    mem = device.allocate_memory(size, alignment=align, name="aliased msaa")
    a = device.create_texture2d(64, 64, "rgba8_unorm", render_target=True, sample_count=4, memory=mem, name="a")
    b = device.create_texture2d(32, 32, "rgba16_float", render_target=True, sample_count=4, memory=mem, name="b")
    outs = [device.create_texture2d(d["size"], d["size"], d["fmt"], name=f"out{i}") for i, d in enumerate((big, small, big))]
    cl = queue.command_list()
    for i, (tex, d, before) in enumerate(((a, big, None), (b, small, a), (a, big, b))):
        cl.aliasing_barrier(before, tex)
        _draw(cl, kit[d["fmt"]], tex, d["clear"], d["colour"])
        cl.resolve(outs[i], tex)
    queue.wait(queue.execute(cl))
    for out, d in zip(outs, (big, small, big)):
        want = _reference(device, queue, kit, d["fmt"], d["size"], d["clear"], d["colour"])
        assert np.array_equal(queue.read_texture(out), want), d["fmt"]
    got = queue.read_texture(outs[1]).astype(np.float32)
    assert np.allclose(got[0, SIZE - 1], small["clear"]) and np.allclose(got[SIZE - 1, 0], small["colour"])


def test_tier1_places_msaa_targets_in_rt_ds_heaps_and_refuses_buffer_memory():
    dev = dx.Device(resource_heap_tier=1, uma_direct=False)
    ms = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4)
    assert not ms.allocation["committed"]
    j = json.loads(dev.memory_json(detailed=True))
    block = {b["Id"]: b for b in j["DefaultPools"]["default"]["Blocks"]}[ms.allocation["block"]]
    assert block["ResourceClass"] == "rt_ds_textures" and block["HeapAlignment"] == MSAA_HEAP_ALIGNMENT
    buffers = {b["HeapAlignment"] for b in j["DefaultPools"]["upload"]["Blocks"]}
    assert buffers <= {65536}
    mem = dev.allocate_memory(8 << 20, alignment=MSAA_HEAP_ALIGNMENT)
    with pytest.raises(dx.InvalidArgumentError, match="tier 1"):
        dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=4, memory=mem)
