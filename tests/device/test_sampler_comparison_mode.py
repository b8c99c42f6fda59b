"""A SamplerComparisonState needs a comparison filter and a SamplerState a non-comparison one (D3D12: the result
is undefined otherwise). vkd3d answers a mismatch with numbers: a point sampler at a SamplerComparisonState
returned the raw depths, not comparisons. dx12kit refuses the mismatch: static samplers when the pipeline is
made, samplers bound by name at ``bind``."""

import numpy as np
import pytest

import dx12kit as dx

CS = """
Texture2D<float> depth : register(t0);
SamplerComparisonState shadow : register(s0);
RWStructuredBuffer<float> lit : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) {
    lit[i.x] = depth.SampleCmpLevelZero(shadow, float2((i.x + 0.5) / 4, 0.5), 0.5);
}
"""
CS_PLAIN = """
Texture2D<float> depth : register(t0);
SamplerState smp : register(s0);
RWStructuredBuffer<float> lit : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) {
    lit[i.x] = depth.SampleLevel(smp, float2((i.x + 0.5) / 4, 0.5), 0);
}
"""
DEPTHS = np.array([[0.25, 0.5, 0.75, 1.0]], np.float32)


def _run(dev, pso, **names):
    q = dev.queue("compute")
    lit = dev.create_buffer(16, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.bind(lit=lit, **names)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    return q.read_buffer(lit, np.float32).tolist()


def test_reflection_names_a_comparison_sampler():
    types = {b.name: b.type for b in dx.compile_hlsl(CS).bindings}
    assert types["shadow"] == "SamplerComparisonState"
    assert {b.name: b.type for b in dx.compile_hlsl(CS_PLAIN).bindings}["smp"] == "SamplerState"


def _static_pipeline(dev, source, sampler):
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0), dx.UAV(0)])], static_samplers=[sampler])
    return dev.create_compute_pipeline(dx.compile_hlsl(source), rs)


def test_a_static_sampler_of_the_wrong_mode_is_refused_at_pipeline_creation():
    dev = dx.Device()
    with pytest.raises(dx.InvalidArgumentError, match="SamplerComparisonState 'shadow'.*requires a comparison filter"):
        _static_pipeline(dev, CS, dx.StaticSampler(0, filter="point"))
    with pytest.raises(dx.InvalidArgumentError, match="SamplerState 'smp'.*non-comparison filter"):
        _static_pipeline(dev, CS_PLAIN, dx.StaticSampler(0, filter="comparison_min_mag_mip_point", comparison="less_equal"))


def test_a_static_comparison_sampler_compares():
    dev = dx.Device()
    pso = _static_pipeline(dev, CS, dx.StaticSampler(0, filter="comparison_min_mag_mip_point", comparison="less_equal"))
    q = dev.queue("compute")
    depth = dev.create_texture2d(data=DEPTHS)
    lit = dev.create_buffer(16, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, depth)
    cl.set_unordered_access_view(0, 1, lit)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(lit, np.float32).tolist() == [0.0, 1.0, 1.0, 1.0]


def test_binding_a_sampler_of_the_wrong_mode_by_name_is_refused():
    dev = dx.Device()
    depth = dev.create_texture2d(data=DEPTHS)
    cmp_pso = dev.create_compute_pipeline(dx.compile_hlsl(CS))
    plain_pso = dev.create_compute_pipeline(dx.compile_hlsl(CS_PLAIN))
    point = dev.create_sampler(filter="point")
    compare = dev.create_sampler(filter="comparison_min_mag_mip_point", comparison="less_equal")
    with pytest.raises(dx.BindingKindError, match="SamplerComparisonState.*'point'"):
        _run(dev, cmp_pso, depth=depth, shadow=point)
    with pytest.raises(dx.BindingKindError, match="SamplerState.*comparison_min_mag_mip_point"):
        _run(dev, plain_pso, depth=depth, smp=compare)
    assert _run(dev, cmp_pso, depth=depth, shadow=compare) == [0.0, 1.0, 1.0, 1.0]
    assert _run(dev, plain_pso, depth=depth, smp=point) == DEPTHS.ravel().tolist()
