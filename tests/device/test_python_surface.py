"""The Python surface: string enums for every choice, consistent names, name= and repr.

The enums' values are checked against what the C++ parsers accept: an unknown value makes a parser
list its choices, and that list must be exactly the enum's values (plus documented aliases), so
the enums cannot drift from the bindings.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import enums

from .shaders import FULLSCREEN_VS

PS = "float4 main(float4 p : SV_Position) : SV_Target { return float4(1, 0, 0, 1); }"
CS = "RWStructuredBuffer<uint> b : register(u0); [numthreads(1, 1, 1)] void main() { b[0] = 7; }"


def choices_named_by(call) -> set[str]:
    """The choices a parser lists when given a value that is not one of them."""
    with pytest.raises(dx.InvalidArgumentError) as e:
        call("no_such_choice")
    m = re.search(r"is not one of (.*)$", str(e.value))
    assert m, str(e.value)
    return {c.strip() for c in m.group(1).split(",")}


@pytest.fixture(scope="module")
def shaders():
    return dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0"), dx.compile_hlsl(PS, profile="ps_5_0")


def test_enum_values_are_the_choices_the_parsers_accept(device, shaders):
    vs, ps = shaders
    rs = device.create_root_signature([])
    aliases = {"triangle_list", "line_list", "point_list", "vs", "ps", "r16_uint", "r32_uint"} | set(enums._ALIASES[dx.Topology])

    def same(enum_cls, accepted):
        assert {m.value for m in enum_cls} == accepted - aliases, enum_cls

    same(dx.Filter, choices_named_by(lambda v: device.create_sampler(filter=v)))
    same(dx.AddressMode, choices_named_by(lambda v: device.create_sampler(address=v)))
    same(dx.QueryHeapKind, choices_named_by(lambda v: device.create_query_heap(v, 1)) - set(enums._ALIASES[dx.QueryHeapKind]))
    heap = device.create_query_heap("occlusion", 1)
    same(dx.QueryKind, choices_named_by(lambda v: device.queue().command_list().begin_query(heap, v, 0)))
    same(dx.PredicationOp, choices_named_by(lambda v: device.queue().command_list().set_predication(None, 0, v)))
    same(dx.Visibility, choices_named_by(lambda v: dx.RootConstants(0, 1, visibility=v)))
    same(dx.ComparisonFunc, choices_named_by(lambda v: dx.StaticSampler(0, comparison=v)))
    same(dx.BorderColor, choices_named_by(lambda v: dx.StaticSampler(0, border_color=v)))
    same(dx.Topology, choices_named_by(
        lambda v: device.create_graphics_pipeline(vs, ps, rs, rtv_formats="rgba8_unorm", topology=v)))
    same(dx.CullMode, choices_named_by(
        lambda v: device.create_graphics_pipeline(vs, ps, rs, rtv_formats="rgba8_unorm", cull=v)))
    same(dx.Blend, choices_named_by(lambda v: dx.BlendState(src_blend=v)))
    same(dx.BlendOp, choices_named_by(lambda v: dx.BlendState(blend_op_alpha=v)))
    same(dx.LogicOp, choices_named_by(lambda v: dx.BlendState(logic_op=v)))
    same(dx.FillMode, choices_named_by(lambda v: dx.RasterizerState(fill=v)))
    same(dx.CullMode, choices_named_by(lambda v: dx.RasterizerState(cull=v)))
    same(dx.StencilOp, choices_named_by(lambda v: dx.StencilFace(depth_fail_op=v)))
    same(dx.ComparisonFunc, choices_named_by(lambda v: dx.DepthStencilState(depth_func=v)))
    same(dx.BlendMode, choices_named_by(
        lambda v: device.create_graphics_pipeline(vs, ps, rs, rtv_formats="rgba8_unorm", blend=v)))
    same(dx.VertexFormat, choices_named_by(
        lambda v: device.create_graphics_pipeline(vs, ps, rs, rtv_formats="rgba8_unorm", input_layout=[("POSITION", v)])))
    same(dx.ComparisonFunc, choices_named_by(
        lambda v: device.create_graphics_pipeline(vs, ps, rs, rtv_formats="rgba8_unorm", dsv_format="d24_unorm_s8_uint",
                                                  stencil_func=v)))
    same(dx.StencilOp, choices_named_by(
        lambda v: device.create_graphics_pipeline(vs, ps, rs, rtv_formats="rgba8_unorm", dsv_format="d24_unorm_s8_uint",
                                                  stencil_func="always", stencil_pass_op=v)))
    same(dx.PoolAlgorithm, choices_named_by(lambda v: device.create_pool(algorithm=v)))
    same(dx.DefragAlgorithm, choices_named_by(lambda v: device.defragment(algorithm=v)))
    same(dx.HeapType, choices_named_by(lambda v: device.create_buffer(256, heap=v)))
    buf = device.create_buffer(256)
    same(dx.IndexFormat, choices_named_by(lambda v: device.queue().command_list().set_index_buffer(buf, v)))


def test_queue_kind_and_descriptor_heap_type_members(device):
    for kind in dx.QueueKind:
        q = device.queue(kind)
        assert q.kind == kind and q.kind == kind.value
        assert q is device.queue(kind.value)  # one queue object per kind
    for t in dx.DescriptorHeapType:
        a = dx.descriptors.CpuDescriptorAllocator(device, t, page_size=8)
        assert a.heap_type == t.value


def test_members_work_where_strings_do(device, shaders):
    """A draw with enum members gives the same pixels as with strings."""
    vs, ps = shaders
    rs = device.create_root_signature([], static_samplers=[
        dx.StaticSampler(0, filter=dx.Filter.POINT, address=dx.AddressMode.BORDER, visibility=dx.Visibility.PIXEL,
                         comparison=dx.ComparisonFunc.LESS, border_color=dx.BorderColor.TRANSPARENT_BLACK),
        dx.StaticSampler(1, address=dx.AddressMode.CLAMP, border_color=dx.BorderColor.OPAQUE_WHITE)])
    q = device.queue(dx.QueueKind.DIRECT)
    images = []
    for topology, cull, blend in ((dx.Topology.TRIANGLE, dx.CullMode.NONE, dx.BlendMode.NONE),
                                  ("triangle", "none", "none")):
        pso = device.create_graphics_pipeline(vs, ps, rs, rtv_formats=[dx.Format.RGBA8_UNORM],
                                              topology=topology, cull=cull, blend=blend)
        rt = device.create_texture2d(8, 8, "rgba8_unorm", render_target=True)
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_render_targets([rt])
        cl.draw(3)
        q.wait(q.execute(cl))
        images.append(q.read_texture(rt))
    np.testing.assert_array_equal(images[0], images[1])
    assert (images[0] == [255, 0, 0, 255]).all()
    sampler = device.create_sampler(filter=dx.Filter.ANISOTROPIC, address=dx.AddressMode.MIRROR, comparison=dx.ComparisonFunc.NEVER,
                                    border_color=dx.BorderColor.OPAQUE_BLACK)
    assert isinstance(sampler, dx.SamplerState)
    pool = device.create_pool(heap=dx.HeapType.UPLOAD, algorithm=dx.PoolAlgorithm.LINEAR)
    assert pool.algorithm == dx.PoolAlgorithm.LINEAR


def test_enums_are_their_strings():
    assert dx.Filter.LINEAR == "linear" and str(dx.Filter.LINEAR) == "linear" and f"{dx.CullMode.BACK}" == "back"
    assert set(enums.__all__) <= set(dx.__all__)


def test_sampler_range_and_sampler_state_names():
    """dx.SamplerRange is the descriptor range, dx.SamplerState the object; dx.Sampler stays an alias."""
    assert dx.Sampler is dx.SamplerRange
    r = dx.SamplerRange(2, count=3)
    assert r == dx.Sampler(2, count=3) and r.kind == "sampler"
    assert repr(r) == "SamplerRange(2, count=3)"


def test_name_and_repr_on_gpu_objects(device):
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])], name="rs-compute")
    pso = device.create_compute_pipeline(dx.compile_hlsl(CS, profile="cs_5_0"), rs, name="write7")
    sampler = device.create_sampler(name="linear-clamp")
    assert (rs.name, pso.name, sampler.name) == ("rs-compute", "write7", "linear-clamp")
    assert "'rs-compute'" in repr(rs) and "parameters=1" in repr(rs)
    assert "'write7'" in repr(pso) and "compute" in repr(pso) and "rs-compute" in repr(pso)
    assert "'linear-clamp'" in repr(sampler)
    pso.name = "renamed"
    assert "'renamed'" in repr(pso)
    with pytest.raises(TypeError, match="name"):
        device.create_sampler(name=3)
    q = device.queue("compute")
    cl = q.command_list()
    assert "compute" in repr(q) and "recording" in repr(cl)
    up = cl.allocate_upload(64)
    assert "UploadAllocation size=256" in repr(up) or "UploadAllocation size=64" in repr(up)
    q.wait(q.execute(cl))
    assert "executed" in repr(cl)
    assert "Device" in repr(device)
    assert "CpuDescriptorAllocator" in repr(dx.descriptors.CpuDescriptorAllocator(device, "rtv", page_size=4))
    for obj in (rs, pso, sampler, q, cl):
        assert not repr(obj).startswith("<dx12kit.dx12core."), repr(obj)


def test_queues_and_command_lists_have_names():
    dev = dx.Device()
    q = dev.queue("compute")
    assert q.name == "compute" and "'" not in repr(q)
    q.name = "async compute"
    assert q.name == "async compute" and "'async compute'" in repr(q)
    cl = q.command_list(name="blur pass")
    assert cl.name == "blur pass" and "'blur pass'" in repr(cl)
    assert dev.queue().command_list().name == "command list"
    with pytest.raises(TypeError, match="name"):
        q.command_list(name=3)
    with pytest.raises(TypeError, match="name"):
        q.name = None


def test_enum_aliases_are_accepted_and_listed(device):
    """dx12kit.enums._ALIASES (which the stubs' Literals include) names exactly the aliases the parsers accept."""
    accepted = {dx.QueueKind: choices_named_by(lambda v: device.queue(v)),
                dx.Topology: None, dx.Visibility: choices_named_by(lambda v: dx.RootConstants(0, 1, visibility=v)),
                dx.IndexFormat: choices_named_by(lambda v: device.queue().command_list().set_index_buffer(device.create_buffer(16), v)),
                dx.QueryHeapKind: choices_named_by(lambda v: device.create_query_heap(v, 1))}
    for enum_cls, aliases in enums._ALIASES.items():
        if accepted[enum_cls] is not None:
            assert accepted[enum_cls] == {m.value for m in enum_cls} | set(aliases), enum_cls
    assert device.queue("graphics") is device.queue(dx.QueueKind.DIRECT)
