"""How arguments are read: 32-bit root constants from Python and numpy floats, resource states by
name, and flag enums of one kind refused where another kind is expected."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

WRITE_CS = """
cbuffer C : register(b0) { float4 v; };
RWStructuredBuffer<float4> o : register(u0);
[numthreads(1, 1, 1)] void main() { o[0] = v; }
"""


@pytest.fixture(scope="module")
def writer(device):
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(WRITE_CS, profile="cs_5_0"), rs)


@pytest.mark.parametrize("values", [
    [1e300, 0.0, 0.0, 0.0],                     # a Python float (the fast path)
    [np.float64(-1e39), 0.0, 0.0, 0.0],        # a numpy float64 scalar
    np.array([0, 0, 0, 4e38]),                  # a float64 array, converted by value
], ids=["float", "float64_scalar", "float64_array"])
def test_a_finite_value_beyond_float32_is_refused_not_stored_as_inf(device, queue, writer, values):
    cl = queue.command_list()
    cl.set_pipeline_state(writer)
    with pytest.raises(dx.InvalidArgumentError, match="float32 range"):
        cl.set_constants(0, values)


def test_dispatch_many_refuses_float64_rows_beyond_float32(device, queue, writer):
    out = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(writer)
    cl.set_root_uav(1, out)
    with pytest.raises(dx.InvalidArgumentError, match="float32 range"):
        cl.dispatch_many((1, 1, 1), np.array([[1.0, 2.0, 3.0, 1e300]]))


def test_inf_nan_and_the_largest_float32_pass_through(device, queue, writer):
    out = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(writer)
    cl.set_constants(0, [float("inf"), float(np.finfo(np.float32).max), -1.5, 3.4028235e38])
    cl.set_root_uav(1, out)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    got = queue.read_buffer(out, np.float32)
    assert np.isinf(got[0]) and got[1] == np.finfo(np.float32).max and got[2] == -1.5 and got[3] == np.float32(3.4028235e38)


def test_states_by_name(device, queue):
    t = device.create_texture2d(8, 8, "rgba8_unorm")
    cl = queue.command_list()
    cl.transition_barrier(t, "pixel_shader_resource")
    queue.wait(queue.execute(cl))
    assert t.global_state() == dx.ResourceState.PIXEL_SHADER_RESOURCE
    cl = queue.command_list()
    cl.transition_barrier(t, "COPY_SOURCE | D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE")
    queue.wait(queue.execute(cl))
    assert t.global_state() == dx.ResourceState.COPY_SOURCE | dx.ResourceState.NON_PIXEL_SHADER_RESOURCE
    with pytest.raises(dx.InvalidArgumentError, match="'pixel_shader' is not a resource state"):
        queue.command_list().transition_barrier(t, "pixel_shader")
    with pytest.raises(TypeError, match="RootSignatureFlags"):
        queue.command_list().transition_barrier(t, dx.RootSignatureFlags.DENY_HULL_SHADER_ROOT_ACCESS)


def test_a_flag_of_another_enum_class_is_refused(device):
    with pytest.raises(TypeError, match="DescriptorRangeFlags"):
        device.create_root_signature([], flags=dx.DescriptorRangeFlags.DATA_STATIC)
    with pytest.raises(TypeError, match="RootSignatureFlags"):
        dx.SRV(0, flags=dx.RootSignatureFlags.ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)
    with pytest.raises(TypeError, match="DescriptorRangeFlags"):
        dx.RootCBV(0, flags=dx.DescriptorRangeFlags.DATA_STATIC)
    # Plain ints and the right class stay accepted.
    assert dx.SRV(0, flags=int(dx.DescriptorRangeFlags.DATA_STATIC)).flags == dx.DescriptorRangeFlags.DATA_STATIC
    device.create_root_signature([], flags=dx.RootSignatureFlags.ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)


def test_a_row_mixing_ints_and_floats_means_the_same_bits_in_every_call(device, queue, writer):
    # set_constants takes an int as its integer bits and a float as float32: the batched call must too.
    out_single, out_many = device.create_buffer(16, uav=True), device.create_buffer(16, uav=True)
    row = [1, 2.5, -3, 0.25]
    cl = queue.command_list()
    cl.set_pipeline_state(writer)
    cl.set_constants(0, row)
    cl.set_root_uav(1, out_single)
    cl.dispatch(1)
    cl.set_root_uav(1, out_many)
    cl.dispatch_many((1, 1, 1), [row])
    queue.wait(queue.execute(cl))
    single, many = queue.read_buffer(out_single, np.uint32), queue.read_buffer(out_many, np.uint32)
    assert single.tolist() == many.tolist()
    assert single[0] == 1 and single[2] == np.uint32(np.int32(-3)) and single[1] == np.float32(2.5).view(np.uint32)


def test_state_names_include_d3d12s_aliases_and_name_an_empty_part(device, queue):
    b = device.create_buffer(256)
    cl = queue.command_list()
    cl.transition_barrier(b, "predication")
    queue.wait(queue.execute(cl))
    with pytest.raises(dx.InvalidArgumentError, match="empty state name"):
        queue.command_list().transition_barrier(b, "copy_source|")
    with pytest.raises(dx.InvalidArgumentError, match=r"value 1e\+300 is out of float32 range"):
        queue.command_list().set_constants(0, [1e300])
