"""Misuses found by hostile testing: each is refused with a named error, or (numpy
scalars) accepted with the right values read back."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

POINT_VS = ("cbuffer P : register(b0) { float x; }; "
            "float4 main(uint id : SV_VertexID) : SV_Position { return float4(x, 0, 0, 1); }")
WHITE_PS = "float4 main() : SV_Target { return 1; }"
READ_CS = """
StructuredBuffer<uint> s : register(t0);
RWStructuredBuffer<uint> dst : register(u0);
cbuffer P : register(b0) { uint scale; uint bias; };
[numthreads(1,1,1)] void main(uint3 g : SV_GroupID) { dst[g.x] = s[g.x] * scale + bias; }"""


@pytest.fixture(scope="module")
def vdev():
    dev = dx.Device(validate=True)
    yield dev
    dev.wait_idle()


@pytest.fixture(scope="module")
def points(device):
    vs = dx.compile_hlsl(POINT_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(WHITE_PS, profile="ps_5_0")
    rs = device.create_root_signature([dx.RootConstants(0, 1)])
    return device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], topology="point")


def test_indexed_draws_need_an_index_buffer(device, queue, points):
    # Without the check lavapipe dies of SIGFPE when the list executes.
    target = device.create_texture2d(4, 4, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(points)
    cl.set_render_targets([target])
    cl.set_constants(0, [0.0])
    with pytest.raises(dx.InvalidArgumentError, match="draw_indexed: no index buffer.*set_index_buffer"):
        cl.draw_indexed(1)
    with pytest.raises(dx.InvalidArgumentError, match="draw_indexed_many: no index buffer.*set_index_buffer"):
        cl.draw_indexed_many(1, np.zeros((1, 1), np.float32))
    cl.set_dynamic_index_buffer(np.zeros(1, np.uint32))
    cl.draw_indexed(1)   # now accepted
    queue.wait(queue.execute(cl))


def _reader(dev):
    rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.DescriptorTable([dx.SRV(0)]), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(READ_CS, profile="cs_5_0"), rs)
    src = dev.create_buffer(16)
    dst = dev.create_buffer(16, uav=True)
    return pso, src, dst


def test_partly_set_root_constants_refused(device, queue):
    pso, src, dst = _reader(device)
    queue.write_buffer(src, np.array([1, 2, 3, 4], np.uint32))
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(2, dst)
    cl.set_shader_resource_view(1, 0, src)
    cl.set_constants(0, [7], offset=1)
    with pytest.raises(dx.InvalidArgumentError, match=r"root parameter 0 \(root constants\) is only partly set: constant\(s\) 0 "):
        cl.dispatch(4)
    cl.set_constants(0, [10], offset=0)   # both halves set: the parameter counts as set
    cl.dispatch(4)
    queue.execute(cl)
    assert queue.read_buffer(dst, np.uint32).tolist() == [17, 27, 37, 47]


def test_unset_table_slot_refused_in_validation_mode(vdev):
    q = vdev.queue()
    pso, src, dst = _reader(vdev)
    q.write_buffer(src, np.array([1, 2, 3, 4], np.uint32))
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(2, dst)
    cl.set_constants(0, [10, 7])
    with pytest.raises(dx.InvalidArgumentError, match=r"reads t0 \('s'\) through descriptor table root parameter 1, slot 0"):
        cl.dispatch(4)
    cl.set_shader_resource_view(1, 0, src)
    cl.dispatch(4)
    q.execute(cl)
    assert q.read_buffer(dst, np.uint32).tolist() == [17, 27, 37, 47]


def test_input_layout_needs_the_ia_flag(device):
    vs = dx.compile_hlsl("float4 main(float4 p : POSITION) : SV_Position { return p; }", profile="vs_5_0")
    ps = dx.compile_hlsl(WHITE_PS, profile="ps_5_0")
    rs = device.create_root_signature([], flags=dx.RootSignatureFlags.NONE)
    with pytest.raises(dx.InvalidArgumentError, match="ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], input_layout=[dx.InputElement("POSITION", "float4")])


def test_numpy_scalar_constants_and_ragged_rows(device, queue):
    cs = dx.compile_hlsl("RWStructuredBuffer<uint> b : register(u0); cbuffer P : register(b0) { uint v; float f; };"
                         "[numthreads(1,1,1)] void main() { b[0] = v; b[1] = asuint(f); }", profile="cs_5_0")
    rs = device.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0)])
    pso = device.create_compute_pipeline(cs, rs)
    out = device.create_buffer(8, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(1, out)
    with pytest.raises(dx.InvalidArgumentError, match="dispatch_many: the rows of constants differ in length"):
        cl.dispatch_many((1, 1, 1), [[1], [2, 3]])
    cl.set_constants(0, [np.uint32(5), np.float32(1.5)])
    cl.dispatch(1)
    queue.execute(cl)
    got = queue.read_buffer(out, np.uint32)
    assert got[0] == 5 and got.view(np.float32)[1] == 1.5


def test_write_buffer_errors_say_write_buffer(device, queue):
    out = device.create_buffer(64)
    with pytest.raises(dx.InvalidArgumentError, match="^write_buffer: 80 bytes at offset 0 do not fit"):
        queue.write_buffer(out, np.zeros(20, np.uint32))


def test_graph_undeclared_handle_and_buffer_size(device):
    out = device.create_buffer(64, uav=True, name="out")
    g = dx.RenderGraph(device)
    o = g.import_resource(out)
    s = g.create_buffer("s", 64)
    g.add_pass("sneaky", lambda cl, r: r[s], writes=[o])
    with pytest.raises(dx.GraphError, match="pass 'sneaky'.*'s'"):
        g.execute()
    with pytest.raises(TypeError, match="size must be an int"):
        g.create_buffer("t", 1.5)  # type: ignore[arg-type]
    with pytest.raises(dx.GraphError, match="create_buffer 'u': size must be 1.."):
        g.create_buffer("u", 2**64)
