"""A SamplerComparisonState needs a comparison filter and a SamplerState a non-comparison one (D3D12: the result
is undefined otherwise). vkd3d answers a mismatch with numbers: a point sampler at a SamplerComparisonState
returned the raw depths, not comparisons. dx12kit refuses the mismatch: static samplers when the pipeline is
made, samplers bound by name at ``bind``, samplers set by slot (``set_sampler``, in a list or a bundle) at the
next draw or dispatch."""

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


def _table_root_signature(dev):
    return dev.create_root_signature([dx.DescriptorTable([dx.SRV(0), dx.UAV(0)]), dx.DescriptorTable([dx.Sampler(0)])])


def _table_pipelines(dev):
    rs = _table_root_signature(dev)
    return (dev.create_compute_pipeline(dx.compile_hlsl(CS), rs, name="shadow test"),
            dev.create_compute_pipeline(dx.compile_hlsl(CS_PLAIN), rs, name="depth copy"))


def _samplers(dev):
    return dev.create_sampler(filter="point"), dev.create_sampler(filter="comparison_min_mag_mip_point", comparison="less_equal")


def _table_list(dev, q, pso, sampler, lit):
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, dev.create_texture2d(data=DEPTHS))
    cl.set_unordered_access_view(0, 1, lit)
    cl.set_sampler(1, 0, sampler)
    return cl


def test_a_sampler_of_the_wrong_mode_set_by_slot_is_refused_at_dispatch():
    dev = dx.Device()
    q = dev.queue("compute")
    cmp_pso, plain_pso = _table_pipelines(dev)
    point, compare = _samplers(dev)
    lit = dev.create_buffer(16, uav=True)
    with pytest.raises(dx.InvalidArgumentError,
                       match=r"dispatch: pipeline 'shadow test' declares SamplerComparisonState 'shadow' at s0, read through "
                             r"sampler table root parameter 1, slot 0, but sampler '.*' set there has filter min_mag_mip_point, "
                             r"not a comparison filter.*call set_sampler\(1, 0, \.\.\.\) with a sampler made with a comparison filter"):
        _table_list(dev, q, cmp_pso, point, lit).dispatch(1)
    with pytest.raises(dx.InvalidArgumentError,
                       match=r"SamplerState 'smp' at s0.*filter comparison_min_mag_mip_point, a comparison filter.*"
                             r"requires a non-comparison filter"):
        _table_list(dev, q, plain_pso, compare, lit).dispatch(1)


def test_samplers_of_the_declared_mode_set_by_slot_give_comparisons_and_texels():
    dev = dx.Device()
    q = dev.queue("compute")
    cmp_pso, plain_pso = _table_pipelines(dev)
    point, compare = _samplers(dev)
    for pso, sampler, want in ((cmp_pso, compare, [0.0, 1.0, 1.0, 1.0]), (plain_pso, point, DEPTHS.ravel().tolist())):
        lit = dev.create_buffer(16, uav=True)
        cl = _table_list(dev, q, pso, sampler, lit)
        cl.dispatch(1)
        q.wait(q.execute(cl))
        assert q.read_buffer(lit, np.float32).tolist() == want


def test_a_new_pipeline_or_a_new_sampler_in_the_slot_is_checked_again():
    dev = dx.Device()
    q = dev.queue("compute")
    cmp_pso, plain_pso = _table_pipelines(dev)
    point, compare = _samplers(dev)
    lit = dev.create_buffer(16, uav=True)
    cl = _table_list(dev, q, cmp_pso, compare, lit)
    cl.dispatch(1)
    cl.set_pipeline_state(plain_pso)  # same root signature: the comparison sampler stays in the slot
    with pytest.raises(dx.InvalidArgumentError, match="SamplerState 'smp'.*comparison_min_mag_mip_point"):
        cl.dispatch(1)
    cl.set_sampler(1, 0, point)
    cl.dispatch(1)
    cl.set_sampler(1, 0, compare)
    with pytest.raises(dx.InvalidArgumentError, match="SamplerState 'smp'.*comparison_min_mag_mip_point"):
        cl.dispatch(1)
    cl.set_sampler(1, 0, point)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(lit, np.float32).tolist() == DEPTHS.ravel().tolist()


VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""
PS = """
Texture2D<float> depth : register(t0);
SamplerComparisonState shadow : register(s0);
float4 main(float4 pos : SV_Position) : SV_Target {
    return depth.SampleCmpLevelZero(shadow, float2(pos.x / 4, 0.5), 0.5).xxxx;
}
"""


def _shadow_draw(dev, sampler, bundle=False):
    q = dev.queue("direct")
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)], "pixel"), dx.DescriptorTable([dx.Sampler(0)], "pixel")])
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(VS, profile="vs_5_0"), dx.compile_hlsl(PS, profile="ps_5_0"), rs,
                                       rtv_formats=["rgba8_unorm"], name="shadow draw")
    rt = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.set_shader_resource_view(0, 0, dev.create_texture2d(data=DEPTHS))
    if bundle:
        b = dev.create_bundle(pipeline=pso, name="shadow bundle")
        b.set_sampler(1, 0, sampler)
        b.draw(3)
        b.close()
        cl.execute_bundle(b)
    else:
        cl.set_sampler(1, 0, sampler)
        cl.draw(3)
    q.wait(q.execute(cl))
    return q.read_texture(rt)[..., 0]


def test_a_sampler_of_the_wrong_mode_set_by_slot_is_refused_at_draw_and_the_right_one_compares():
    dev = dx.Device()
    point, compare = _samplers(dev)
    with pytest.raises(dx.InvalidArgumentError,
                       match="draw: pipeline 'shadow draw' declares SamplerComparisonState 'shadow' at s0.*min_mag_mip_point"):
        _shadow_draw(dev, point)
    assert (_shadow_draw(dev, compare) == [0, 255, 255, 255]).all()


def test_a_bundle_setting_a_sampler_of_the_wrong_mode_by_slot_is_refused():
    dev = dx.Device()
    point, compare = _samplers(dev)
    with pytest.raises(dx.InvalidArgumentError, match=r"bundle 'shadow bundle', call \d+ \(draw\): draw: .*SamplerComparisonState 'shadow'"):
        _shadow_draw(dev, point, bundle=True)
    assert (_shadow_draw(dev, compare, bundle=True) == [0, 255, 255, 255]).all()


VS_SAMPLING = """
Texture2D<float> height : register(t0);
SamplerState vs_smp : register(s0);
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    float h = height.SampleLevel(vs_smp, float2(0.5, 0.5), 0);
    return float4(uv * float2(2, -2) + float2(-1, 1), h * 0.5, 1);
}
"""


def _two_stage_pipeline(dev, params, static_samplers=()):
    rs = dev.create_root_signature(params, static_samplers=list(static_samplers))
    return dev.create_graphics_pipeline(dx.compile_hlsl(VS_SAMPLING, profile="vs_5_0"), dx.compile_hlsl(PS, profile="ps_5_0"), rs,
                                        rtv_formats=["rgba8_unorm"], name="two kinds")


def test_two_stages_declaring_different_sampler_kinds_at_one_table_slot_are_refused_at_pipeline_creation():
    dev = dx.Device()
    with pytest.raises(dx.InvalidArgumentError,
                       match=r"create_graphics_pipeline: the vertex shader's SamplerState 'vs_smp' at s0 space0 and the pixel "
                             r"shader's SamplerComparisonState 'shadow' at s0 space0 both read sampler table root parameter 1, "
                             r"slot 0.*no sampler satisfies both"):
        _two_stage_pipeline(dev, [dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.Sampler(0)])])


def test_two_stages_declaring_different_sampler_kinds_at_one_static_sampler_are_refused_at_pipeline_creation():
    dev = dx.Device()
    for sampler in (dx.StaticSampler(0, filter="point"), dx.StaticSampler(0, filter="comparison_min_mag_mip_point", comparison="less_equal")):
        with pytest.raises(dx.InvalidArgumentError,
                           match=r"the vertex shader's SamplerState 'vs_smp' at s0 space0 and the pixel shader's "
                                 r"SamplerComparisonState 'shadow' at s0 space0 both read static sampler 0.*no sampler satisfies both"):
            _two_stage_pipeline(dev, [dx.DescriptorTable([dx.SRV(0)])], [sampler])


def test_two_stages_with_their_own_sampler_tables_may_declare_different_kinds_at_one_register():
    dev = dx.Device()
    point, compare = _samplers(dev)
    pso = _two_stage_pipeline(dev, [dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.Sampler(0)], "vertex"),
                                    dx.DescriptorTable([dx.Sampler(0)], "pixel")])
    q = dev.queue("direct")
    rt = dev.create_texture2d(4, 4, "rgba8_unorm", render_target=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.set_shader_resource_view(0, 0, dev.create_texture2d(data=DEPTHS))
    cl.set_sampler(1, 0, point)
    cl.set_sampler(2, 0, compare)
    cl.draw(3)
    q.wait(q.execute(cl))
    assert (q.read_texture(rt)[..., 0] == [0, 255, 255, 255]).all()


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validated"])
def test_a_sampler_table_slot_never_set_is_refused(validate: bool) -> None:
    # Refused in plain mode too: the slot holds whatever the heap held, and vkd3d on lavapipe crashed the
    # process executing a sampler descriptor never written.
    dev = dx.Device(validate=validate)
    q = dev.queue("compute")
    _, plain_pso = _table_pipelines(dev)
    lit = dev.create_buffer(16, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(plain_pso)
    cl.set_shader_resource_view(0, 0, dev.create_texture2d(data=DEPTHS))
    cl.set_unordered_access_view(0, 1, lit)
    with pytest.raises(dx.InvalidArgumentError,
                       match=r"dispatch: pipeline 'depth copy' reads s0 \('smp', a SamplerState\) through sampler table root parameter 1, "
                             r"slot 0, which was never set on this list.*call set_sampler\(1, 0, \.\.\.\) first"):
        cl.dispatch(1)
    cl.set_sampler(1, 0, dev.create_sampler(filter="point"))
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(lit, np.float32).tolist() == DEPTHS.ravel().tolist()


def test_a_static_sampler_needs_no_set_sampler_in_validation_mode():
    dev = dx.Device(validate=True)
    pso = _static_pipeline(dev, CS_PLAIN, dx.StaticSampler(0, filter="point"))
    q = dev.queue("compute")
    lit = dev.create_buffer(16, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, dev.create_texture2d(data=DEPTHS))
    cl.set_unordered_access_view(0, 1, lit)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(lit, np.float32).tolist() == DEPTHS.ravel().tolist()
