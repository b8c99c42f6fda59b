"""The Python surface: string enums for every choice, consistent names, name= and repr.

The enums are made from the C++ core's choice tables (dx12core.choice_tables()), the tables its parsers
read, so they cannot drift from the bindings.
"""
from __future__ import annotations

import enum


import numpy as np
import pytest

import dx12kit as dx
from dx12kit import enums

from .shaders import FULLSCREEN_VS

PS = "float4 main(float4 p : SV_Position) : SV_Target { return float4(1, 0, 0, 1); }"
CS = "RWStructuredBuffer<uint> b : register(u0); [numthreads(1, 1, 1)] void main() { b[0] = 7; }"


@pytest.fixture(scope="module")
def shaders():
    return dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0"), dx.compile_hlsl(PS, profile="ps_5_0")


def test_enums_are_made_from_the_core_tables():
    """Each enum's members are its core table's names, in order; <Enum>Name adds the aliases (the stubs' Literal)."""
    import typing
    tables = dx.dx12core.choice_tables()
    assert set(tables) == set(enums.__all__) - set(dx.dx12core.flag_tables())
    for name, (values, aliases) in tables.items():
        cls = getattr(enums, name)
        assert [m.value for m in cls] == list(values) and [m.name for m in cls] == [v.upper() for v in values]
        assert typing.get_args(getattr(enums, name + "Name")) == tuple(values) + tuple(aliases)
    assert enums._ALIASES[dx.QueueKind] == ("graphics",)
    assert "rgba8_unorm" in typing.get_args(enums.FormatName) and "unknown" not in typing.get_args(enums.FormatName)


def test_int_flags_are_made_from_the_core_flag_tables():
    """ColorWriteEnable's members and docstring are the core's table (D3D12_COLOR_WRITE_ENABLE_*), not a Python copy."""
    flags = dx.dx12core.flag_tables()
    assert set(flags) == {"ColorWriteEnable"}
    for name, (members, doc) in flags.items():
        cls = getattr(enums, name)
        assert issubclass(cls, enum.IntFlag) and cls.__module__ == "dx12kit.enums" and cls.__doc__ == doc
        assert [(k, int(v)) for k, v in cls.__members__.items()] == [tuple(m) for m in members]
    assert dict(flags["ColorWriteEnable"][0]) == {"RED": 1, "GREEN": 2, "BLUE": 4, "ALPHA": 8, "ALL": 15}
    assert dx.ColorWriteEnable.RED | dx.ColorWriteEnable.GREEN | dx.ColorWriteEnable.BLUE | dx.ColorWriteEnable.ALPHA == dx.ColorWriteEnable.ALL


def test_the_parsers_accept_every_name_of_an_enum(device):
    """An alias is the member it names: dx12core's tables are what the parsers read."""
    assert device.queue("graphics") is device.queue(dx.QueueKind.DIRECT)
    assert dx.RootConstants(0, 1, visibility="vs") == dx.RootConstants(0, 1, visibility=dx.Visibility.VERTEX)
    with pytest.raises(dx.InvalidArgumentError, match="is not one of direct, compute, copy, graphics"):
        device.queue("no_such_choice")


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
