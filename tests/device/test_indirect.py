"""ExecuteIndirect (Device.create_command_signature, CommandList.execute_indirect) and table CBVs of part
of a buffer (set_constant_buffer_view offset= / size=): pixels and buffer contents read back from the device."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

IA = dx.IndirectArgument
W, H, BANDS = 16, 4, 8

# Instance data picks the band (start_instance selects it from a per-instance vertex buffer of 0..7).
BAND_VS = """
float4 main(uint id : SV_VertexID, uint band : BAND, out float4 colour : COLOR) : SV_Position {
    float u = (id == 1 || id == 3 || id == 4) ? 1.0 : 0.0;
    float v = (id == 2 || id == 4 || id == 5) ? 1.0 : 0.0;
    colour = float4(band * 17 / 255.0, 1.0, 0, 1);
    float x0 = -1.0 + 2.0 * band / 8.0;
    return float4(x0 + u * 0.25, v * 2.0 - 1.0, 0, 1);
}
"""
BAND_PS = "float4 main(float4 p : SV_Position, float4 colour : COLOR) : SV_Target { return colour; }"

# Writes five draw commands of `stride` uint32 words, command i drawing band 2 * i (start_instance), and
# the count `count`: commands from `count` on must not run.
WRITE_DRAWS_CS = """
cbuffer C : register(b0) { uint stride; uint count; uint2 pad; };
RWStructuredBuffer<uint> args : register(u0);
RWStructuredBuffer<uint> counter : register(u1);
[numthreads(5, 1, 1)]
void main(uint3 t : SV_GroupThreadID) {
    uint i = t.x, b = i * stride;
    args[b + 0] = 6;
    args[b + 1] = 1;
    args[b + 2] = 0;
    args[b + 3] = 2 * i;
    if (i == 0) counter[0] = count;
}
"""

# Dispatch commands: command i is (i + 2) groups in x.
WRITE_DISPATCHES_CS = """
RWStructuredBuffer<uint> args : register(u0);
[numthreads(2, 1, 1)]
void main(uint3 t : SV_GroupThreadID) { args[3 * t.x] = t.x + 2; args[3 * t.x + 1] = 1; args[3 * t.x + 2] = 1; }
"""
# Each group counts itself at out[1 + group] and in out[0].
COUNT_GROUPS_CS = """
RWStructuredBuffer<uint> outbuf : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 g : SV_GroupID) { InterlockedAdd(outbuf[0], 1); InterlockedAdd(outbuf[1 + g.x], 1); }
"""


@pytest.fixture(scope="module")
def bands(device):
    rs = device.create_root_signature([])
    return device.create_graphics_pipeline(dx.compile_hlsl(BAND_VS, profile="vs_5_0"), dx.compile_hlsl(BAND_PS, profile="ps_5_0"), rs,
                                           rtv_formats=["rgba8_unorm"],
                                           input_layout=[dx.InputElement("BAND", "r32_uint", slot=0, per_instance=True)])


@pytest.fixture(scope="module")
def draw_writer(device):
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0), dx.RootUAV(1)])
    return device.create_compute_pipeline(dx.compile_hlsl(WRITE_DRAWS_CS, profile="cs_5_0"), rs)


@pytest.fixture(scope="module")
def dispatch_writer(device):
    rs = device.create_root_signature([dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(WRITE_DISPATCHES_CS, profile="cs_5_0"), rs)


@pytest.fixture(scope="module")
def group_counter(device):
    rs = device.create_root_signature([dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(COUNT_GROUPS_CS, profile="cs_5_0"), rs)


def begin_bands(device, queue, bands):
    rt = device.create_texture2d(W, H, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(bands)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.set_dynamic_vertex_buffer(0, np.arange(BANDS, dtype=np.uint32), 4)
    cl.set_dynamic_index_buffer(np.arange(6, dtype=np.uint16))
    return rt, cl


def expected_bands(drawn) -> np.ndarray:
    e = np.zeros((H, W, 4), np.uint8)
    for b in drawn:
        e[:, 2 * b:2 * b + 2] = [17 * b, 255, 0, 255]
    return e


def test_gpu_written_draws_and_count_match_the_draws_recorded_one_by_one(device, queue, bands, draw_writer):
    words = 8  # a 32-byte stride
    args = device.create_buffer(4 * words * 5, uav=True)
    count = device.create_buffer(4, uav=True)
    rt, cl = begin_bands(device, queue, bands)
    # The compute pass writes the commands and the count; execute_indirect reads them in the same list.
    cl.set_pipeline_state(draw_writer)
    cl.set_constants(0, np.array([words, 3, 0, 0], np.uint32))
    cl.set_root_uav(1, args)
    cl.set_root_uav(2, count)
    cl.dispatch(1, 1, 1)
    cl.set_pipeline_state(bands)
    sig = device.create_command_signature([IA.draw()], byte_stride=4 * words)
    cl.execute_indirect(sig, 5, args, count_buffer=count)
    queue.execute(cl)
    got = queue.read_texture(rt)

    rt2, cl2 = begin_bands(device, queue, bands)
    for i in range(3):
        cl2.draw(6, 1, 0, 2 * i)
    queue.execute(cl2)
    want = queue.read_texture(rt2)
    np.testing.assert_array_equal(want, expected_bands([0, 2, 4]))
    np.testing.assert_array_equal(got, want)
    assert queue.read_buffer(args, dtype=np.uint32).reshape(5, words)[4, 3] == 8   # command 4 was there, not run


def test_draw_without_count_buffer_runs_max_count_commands(device, queue, bands):
    cmds = np.array([[6, 1, 0, b] for b in (1, 3, 7)], np.uint32)
    args = device.create_buffer(cmds.nbytes)
    rt, cl = begin_bands(device, queue, bands)
    cl.upload(args, cmds)
    cl.execute_indirect(device.create_command_signature([IA.draw()], byte_stride=16), 3, args)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_texture(rt), expected_bands([1, 3, 7]))


def test_gpu_written_dispatches_run_each_command(device, queue, dispatch_writer, group_counter):
    args = device.create_buffer(24, uav=True)
    out = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.upload(out, np.zeros(4, np.uint32))
    cl.set_pipeline_state(dispatch_writer)
    cl.set_root_uav(0, args)
    cl.dispatch(1, 1, 1)
    cl.set_pipeline_state(group_counter)
    cl.set_root_uav(0, out)
    cl.execute_indirect(device.create_command_signature([IA.dispatch()], byte_stride=12), 2, args)
    queue.execute(cl)
    # (2, 1, 1) then (3, 1, 1): 5 groups; groups 0 and 1 twice, group 2 once.
    np.testing.assert_array_equal(queue.read_buffer(out, dtype=np.uint32), [5, 2, 2, 1])


def test_indirect_arguments_describe_themselves():
    assert [a.kind for a in (IA.draw(), IA.draw_indexed(), IA.dispatch(), IA.vertex_buffer_view(1), IA.index_buffer_view(),
                             IA.constant(0, 0, 3), IA.constant_buffer_view(1), IA.shader_resource_view(2), IA.unordered_access_view(3))] == [
        "draw", "draw_indexed", "dispatch", "vertex_buffer_view", "index_buffer_view", "constant", "constant_buffer_view",
        "shader_resource_view", "unordered_access_view"]
    assert [a.byte_size for a in (IA.draw(), IA.draw_indexed(), IA.dispatch(), IA.vertex_buffer_view(0), IA.constant(0, 0, 3),
                                  IA.constant_buffer_view(0))] == [16, 20, 12, 16, 12, 8]
    assert IA.constant(1, 2, 3) == IA.constant(1, 2, 3) and IA.constant(1, 2, 3) != IA.constant(1, 2, 4)


@pytest.mark.parametrize("arguments, stride, match", [
    ([], 16, "arguments is empty"),
    ([IA.draw(), IA.draw()], 32, "hold 2 draw"),
    ([IA.draw(), IA.vertex_buffer_view(0)], 32, "do not end with"),
    ([IA.vertex_buffer_view(0)], 16, "hold no draw"),
    ([IA.draw()], 12, "smaller than the 16 bytes"),
    ([IA.draw()], 18, "not a multiple of 4"),
    ([IA.vertex_buffer_view(0), IA.dispatch()], 32, "in a dispatch signature"),
    ([IA.vertex_buffer_view(32), IA.draw()], 32, "slot must be below 32"),
    ([IA.constant(0, 0, 1), IA.draw()], 20, "pass root_signature="),
])
def test_signature_rules_are_refused(device, arguments, stride, match):
    with pytest.raises(dx.InvalidArgumentError, match=match):
        device.create_command_signature(arguments, byte_stride=stride)


def test_root_signature_given_exactly_when_root_arguments_change(device):
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootCBV(1)])
    with pytest.raises(dx.InvalidArgumentError, match="pass root_signature=None"):
        device.create_command_signature([IA.draw()], byte_stride=16, root_signature=rs)
    with pytest.raises(dx.InvalidArgumentError, match="root parameter 1 is a root CBV, not root constants"):
        device.create_command_signature([IA.constant(1, 0, 1), IA.draw()], byte_stride=20, root_signature=rs)
    with pytest.raises(dx.InvalidArgumentError, match="do not fit root parameter 0's 4 constants"):
        device.create_command_signature([IA.constant(0, 2, 3), IA.draw()], byte_stride=28, root_signature=rs)


@pytest.mark.parametrize("arguments, stride", [
    ([IA.constant(0, 0, 4), IA.draw()], 32),
    ([IA.constant(0, 0, 4), IA.constant_buffer_view(1), IA.draw()], 40),
    ([IA.vertex_buffer_view(0), IA.draw()], 32),
    ([IA.index_buffer_view(), IA.draw_indexed()], 36),
])
def test_signatures_vkd3d_would_ignore_are_refused_naming_the_gap(device, arguments, stride):
    needs_root = any(a.kind in ("constant", "constant_buffer_view") for a in arguments)
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootCBV(1)]) if needs_root else None
    with pytest.raises(dx.InvalidArgumentError, match="Ignoring unhandled argument type"):
        device.create_command_signature(arguments, byte_stride=stride, root_signature=rs)


def test_draw_indexed_signatures_are_refused_naming_the_gap(device):
    with pytest.raises(dx.InvalidArgumentError, match="draw_indexed signatures are not supported on vkd3d: .* draws nothing"):
        device.create_command_signature([IA.draw_indexed()], byte_stride=20)


def test_execute_indirect_rules_are_refused(device, queue, bands, group_counter):
    draw = device.create_command_signature([IA.draw()], byte_stride=16)
    dispatch = device.create_command_signature([IA.dispatch()], byte_stride=12)
    args = device.create_buffer(64)
    count = device.create_buffer(8)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="no pipeline is set"):
        cl.execute_indirect(draw, 1, args)
    cl.set_pipeline_state(group_counter)
    cl.set_root_uav(0, device.create_buffer(16, uav=True))
    with pytest.raises(dx.InvalidArgumentError, match="is a draw \\(graphics\\) signature but the bound pipeline"):
        cl.execute_indirect(draw, 1, args)
    with pytest.raises(dx.InvalidArgumentError, match="count buffer with dispatch signature"):
        cl.execute_indirect(dispatch, 1, args, count_buffer=count)
    with pytest.raises(dx.InvalidArgumentError, match="argument_offset=2 is not a multiple of 4"):
        cl.execute_indirect(dispatch, 1, args, 2)
    cl.set_pipeline_state(bands)
    with pytest.raises(dx.InvalidArgumentError, match="is a dispatch \\(compute\\) signature"):
        cl.execute_indirect(dispatch, 1, args)
    with pytest.raises(dx.InvalidArgumentError, match="need 68 bytes, but buffer '.*' holds 64"):
        cl.execute_indirect(draw, 4, args, 4)
    with pytest.raises(dx.InvalidArgumentError, match="count_offset=2 is not a multiple of 4"):
        cl.execute_indirect(draw, 1, args, count_buffer=count, count_offset=2)
    with pytest.raises(dx.InvalidArgumentError, match="does not fit"):
        cl.execute_indirect(draw, 1, args, count_buffer=count, count_offset=8)
    cl.set_dynamic_vertex_buffer(0, np.arange(BANDS, dtype=np.uint32), 4)
    cl.set_render_targets([device.create_texture2d(W, H, "rgba8_unorm", render_target=True)])
    cl.execute_indirect(draw, 4, args)   # 64 bytes hold 4 commands exactly


def test_argument_buffer_bound_for_another_use_is_refused(device, queue, group_counter):
    dispatch = device.create_command_signature([IA.dispatch()], byte_stride=12)
    args = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(group_counter)
    cl.set_root_uav(0, args)
    with pytest.raises(dx.InvalidArgumentError, match="is read as indirect arguments .* and is bound by set_root_uav"):
        cl.execute_indirect(dispatch, 1, args)


# ---- table CBVs of part of a buffer ------------------------------------------------------------------

CB_VS = """
cbuffer Band : register(b0) { float4 rect; float4 colour; };
float4 main(uint id : SV_VertexID, out float4 c : COLOR) : SV_Position {
    float u = (id == 1 || id == 3 || id == 4) ? 1.0 : 0.0;
    float v = (id == 2 || id == 4 || id == 5) ? 1.0 : 0.0;
    c = colour;
    return float4(lerp(rect.x, rect.y, u), v * 2.0 - 1.0, 0, 1);
}
"""
CB_PS = "float4 main(float4 p : SV_Position, float4 c : COLOR) : SV_Target { return c; }"


def test_each_draw_reads_its_own_256_byte_block_of_one_buffer_through_the_table(device, queue):
    rs = device.create_root_signature([dx.DescriptorTable([dx.CBV(0)])])
    pso = device.create_graphics_pipeline(dx.compile_hlsl(CB_VS, profile="vs_5_0"), dx.compile_hlsl(CB_PS, profile="ps_5_0"), rs,
                                          rtv_formats=["rgba8_unorm"])
    blocks = np.zeros((BANDS, 64), np.float32)   # 256 bytes each
    for b in range(BANDS):
        blocks[b, 0:2] = [-1 + 2 * b / BANDS, -1 + 2 * (b + 1) / BANDS]
        blocks[b, 4:8] = [b * 17 / 255.0, 1.0 - b * 5 / 255.0, 0, 1]
    buf = device.create_buffer(blocks.nbytes)
    rt = device.create_texture2d(W, H, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.upload(buf, blocks)
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    for b in range(BANDS):
        cl.set_constant_buffer_view(0, 0, buf, offset=256 * b, size=256)
        cl.draw(6, 1, 0, 0)
    queue.execute(cl)
    want = np.zeros((H, W, 4), np.uint8)
    for b in range(BANDS):
        want[:, 2 * b:2 * b + 2] = [17 * b, 255 - 5 * b, 0, 255]
    np.testing.assert_array_equal(queue.read_texture(rt), want)


def test_constant_buffer_view_range_rules_are_refused(device, queue):
    rs = device.create_root_signature([dx.DescriptorTable([dx.CBV(0)])])
    buf = device.create_buffer(1000)   # 1024 with its 256-byte rounding
    big = device.create_buffer(65536 + 512)
    cl = queue.command_list()
    pso = device.create_compute_pipeline(dx.compile_hlsl("cbuffer C : register(b0) { uint4 v; }; RWStructuredBuffer<uint> o : register(u0);"
                                                         "[numthreads(1,1,1)] void main() { }", profile="cs_5_0"), rs)
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match="offset=100 is not a multiple of 256"):
        cl.set_constant_buffer_view(0, 0, buf, offset=100)
    with pytest.raises(dx.InvalidArgumentError, match="size=300 is not a multiple of 256"):
        cl.set_constant_buffer_view(0, 0, buf, size=300)
    with pytest.raises(dx.InvalidArgumentError, match="size=65792 is not a multiple of 256 between 256 and 65536"):
        cl.set_constant_buffer_view(0, 0, big, size=65536 + 256)
    with pytest.raises(dx.InvalidArgumentError, match=r"bytes \[768, 1280\) do not fit"):
        cl.set_constant_buffer_view(0, 0, buf, offset=768, size=512)
    with pytest.raises(dx.InvalidArgumentError, match="more than a constant buffer view covers"):
        cl.set_constant_buffer_view(0, 0, big, offset=256)
    with pytest.raises(dx.InvalidArgumentError, match="size=0"):
        cl.set_constant_buffer_view(0, 0, buf, size=0)
    cl.set_constant_buffer_view(0, 0, buf, offset=768)          # the last 256 bytes
    cl.set_constant_buffer_view(0, 0, big, offset=512, size=65536)


LONG_CB_CS = """
cbuffer C : register(b0) { uint4 a[20]; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)] void main() { o[0] = a[0].x; o[1] = a[19].w; }
"""


def test_validation_mode_measures_a_table_cbv_by_its_view_not_its_buffer():
    dev = dx.Device(validate=True)
    q = dev.queue("direct")
    rs = dev.create_root_signature([dx.DescriptorTable([dx.CBV(0)]), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(LONG_CB_CS, profile="cs_5_0"), rs)
    buf = dev.create_buffer(1024, name="blocks")
    out = dev.create_buffer(8, uav=True)
    cl = q.command_list()
    cl.upload(buf, np.arange(256, dtype=np.uint32))
    cl.set_pipeline_state(pso)
    cl.set_root_uav(1, out)
    cl.set_constant_buffer_view(0, 0, buf, offset=256, size=256)   # the cbuffer spans 320 bytes
    with pytest.raises(dx.InvalidArgumentError, match=r"with resource 'blocks' \(a view of 256 bytes\) holds 256 bytes"):
        cl.dispatch(1)
    cl.set_constant_buffer_view(0, 0, buf, offset=256, size=512)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    assert q.read_buffer(out, np.uint32).tolist() == [64, 64 + 79]
    dev.wait_idle()


# ---- root CBV per command (ExecuteIndirect's GPU-culling sample): emulated on vkd3d 1.2 -----------------

# Appends a command [root CBV address, draw of 6 vertices] for every band whose bit is set in `mask`, its
# address the band's 256-byte block of the constant buffer (base + 256 * band + `skew`), and counts them.
CULL_CBV_CS = """
cbuffer C : register(b0) { uint base_lo; uint base_hi; uint mask; uint skew; };
RWStructuredBuffer<uint> args : register(u0);
RWStructuredBuffer<uint> counter : register(u1);
[numthreads(8, 1, 1)]
void main(uint3 t : SV_GroupThreadID) {
    uint band = t.x;
    if (((mask >> band) & 1) == 0) return;
    uint slot;
    InterlockedAdd(counter[0], 1, slot);
    uint w = slot * 6;
    args[w] = base_lo + 256 * band + skew;
    args[w + 1] = base_hi;
    args[w + 2] = 6;
    args[w + 3] = 1;
    args[w + 4] = 0;
    args[w + 5] = 0;
}
"""
# Two root CBVs: the rectangle from b0, the colour from b1.
CB2_VS = """
cbuffer Rect : register(b0) { float4 rect; };
cbuffer Colour : register(b1) { float4 unused; float4 colour; };
float4 main(uint id : SV_VertexID, out float4 c : COLOR) : SV_Position {
    float u = (id == 1 || id == 3 || id == 4) ? 1.0 : 0.0;
    float v = (id == 2 || id == 4 || id == 5) ? 1.0 : 0.0;
    c = colour;
    return float4(lerp(rect.x, rect.y, u), v * 2.0 - 1.0, 0, 1);
}
"""


def band_blocks() -> np.ndarray:
    """Band b's 256-byte block: its rectangle (x0, x1) at float 0, its colour at float 4."""
    blocks = np.zeros((BANDS, 64), np.float32)
    for b in range(BANDS):
        blocks[b, 0:2] = [-1 + 2 * b / BANDS, -1 + 2 * (b + 1) / BANDS]
        blocks[b, 4:8] = [b * 17 / 255.0, 1.0 - b * 5 / 255.0, 0, 1]
    return blocks


@pytest.fixture(scope="module")
def cbv_culler(device):
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0), dx.RootUAV(1)])
    return device.create_compute_pipeline(dx.compile_hlsl(CULL_CBV_CS, profile="cs_5_0"), rs)


@pytest.fixture(scope="module")
def cbv_bands(device):
    rs = device.create_root_signature([dx.RootCBV(0)])
    return device.create_graphics_pipeline(dx.compile_hlsl(CB_VS, profile="vs_5_0"), dx.compile_hlsl(CB_PS, profile="ps_5_0"), rs,
                                           rtv_formats=["rgba8_unorm"])


def cull_frame(device, queue, pso, culler, blocks_buf, mask, *, skew=0, prefill=None, signature=None, referenced=None):
    """One list: the cull pass writes up to 8 commands and their count; execute_indirect draws them."""
    args = device.create_buffer(8 * 24, uav=True, name="commands")
    count = device.create_buffer(4, uav=True, name="count")
    rt = device.create_texture2d(W, H, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.upload(args, prefill if prefill is not None else np.zeros(8 * 6, np.uint32))
    cl.upload(count, np.zeros(1, np.uint32))
    cl.set_pipeline_state(culler)
    va = blocks_buf.gpu_address
    cl.set_constants(0, np.array([va & 0xFFFFFFFF, va >> 32, mask, skew], np.uint32))
    cl.set_root_uav(1, args)
    cl.set_root_uav(2, count)
    cl.dispatch(1)
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    sig = signature or device.create_command_signature([IA.constant_buffer_view(0), IA.draw()], byte_stride=24,
                                                       root_signature=pso.root_signature)
    cl.execute_indirect(sig, 8, args, count_buffer=count, referenced=referenced if referenced is not None else [blocks_buf])
    queue.execute(cl)
    return rt


def bands_one_by_one(device, queue, pso, blocks_buf, drawn):
    rt = device.create_texture2d(W, H, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    for b in drawn:
        cl.set_root_cbv(0, blocks_buf, 256 * b)
        cl.draw(6, 1, 0, 0)
    queue.execute(cl)
    return queue.read_texture(rt)


def cbv_bands_expected(drawn) -> np.ndarray:
    e = np.zeros((H, W, 4), np.uint8)
    for b in drawn:
        e[:, 2 * b:2 * b + 2] = [17 * b, 255 - 5 * b, 0, 255]
    return e


def test_gpu_culled_draws_with_a_root_cbv_each_match_the_draws_recorded_one_by_one(device, queue, cbv_bands, cbv_culler):
    blocks = band_blocks()
    buf = device.create_buffer(blocks.nbytes, name="band constants")
    queue.write_buffer(buf, blocks)
    # Commands 0..7 in the argument buffer already name bands 7..0: from the count on they must not draw.
    prefill = np.array([[buf.gpu_address & 0xFFFFFFFF, buf.gpu_address >> 32, 6, 1, 0, 0] for _ in range(8)], np.uint32)
    prefill[:, 0] += 256 * (7 - np.arange(8, dtype=np.uint32))
    visible = [1, 2, 4, 6]
    mask = sum(1 << b for b in visible)
    got = queue.read_texture(cull_frame(device, queue, cbv_bands, cbv_culler, buf, mask, prefill=prefill.ravel()))
    want = bands_one_by_one(device, queue, cbv_bands, buf, visible)
    np.testing.assert_array_equal(want, cbv_bands_expected(visible))
    np.testing.assert_array_equal(got, want)


def test_two_root_cbvs_per_command_and_commands_past_the_count_with_garbage_addresses(device, queue):
    rs = device.create_root_signature([dx.RootCBV(0), dx.RootCBV(1)])
    pso = device.create_graphics_pipeline(dx.compile_hlsl(CB2_VS, profile="vs_5_0"), dx.compile_hlsl(CB_PS, profile="ps_5_0"), rs,
                                          rtv_formats=["rgba8_unorm"])
    blocks = band_blocks()
    buf = device.create_buffer(blocks.nbytes, name="band constants")
    queue.write_buffer(buf, blocks)
    words = 8
    # [rect CBV, colour CBV, draw]: both addresses point at the band's block (b1 reads its second float4).
    va = buf.gpu_address
    visible = [0, 3, 5]
    cmds = np.zeros((8, words), np.uint32)
    cmds[:] = 0xDEADBEE0   # past the count: addresses in no buffer, never looked at
    for i, b in enumerate(visible):
        cmds[i] = [(va + 256 * b) & 0xFFFFFFFF, va >> 32, (va + 256 * b) & 0xFFFFFFFF, va >> 32, 6, 1, 0, 0]
    args = device.create_buffer(cmds.nbytes, name="commands")
    count = device.create_buffer(4, name="count")
    rt = device.create_texture2d(W, H, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.upload(args, cmds)
    cl.upload(count, np.array([len(visible)], np.uint32))
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    sig = device.create_command_signature([IA.constant_buffer_view(0), IA.constant_buffer_view(1), IA.draw()], byte_stride=4 * words,
                                          root_signature=rs)
    cl.execute_indirect(sig, 8, args, count_buffer=count, referenced=[buf])
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_texture(rt), cbv_bands_expected(visible))


@pytest.mark.parametrize("skew, why", [(8 * 256, "lies in no buffer of referenced="), (16, "is not a multiple of 256 bytes")])
def test_a_root_cbv_address_outside_the_referenced_buffers_raises_at_the_next_read(device, queue, cbv_bands, cbv_culler, skew, why):
    blocks = band_blocks()
    buf = device.create_buffer(blocks.nbytes, name="band constants")
    queue.write_buffer(buf, blocks)
    # Band 0's address + skew: past the buffer's end (band 0 + 8 blocks) or inside it but misaligned.
    rt = cull_frame(device, queue, cbv_bands, cbv_culler, buf, 0b1, skew=skew)
    with pytest.raises(dx.InvalidArgumentError, match=f"command 0 .* has a root CBV address that {why}"):
        queue.read_texture(rt)
    # Reported once; the command was not drawn.
    np.testing.assert_array_equal(queue.read_texture(rt), np.zeros((H, W, 4), np.uint8))


def test_referenced_buffers_are_required_for_root_cbv_signatures_and_refused_where_no_argument_has_an_address(device, queue, cbv_bands):
    sig = device.create_command_signature([IA.constant_buffer_view(0), IA.draw()], byte_stride=24, root_signature=cbv_bands.root_signature)
    args = device.create_buffer(48)
    cl = queue.command_list()
    cl.set_pipeline_state(cbv_bands)
    with pytest.raises(dx.InvalidArgumentError, match="changes root CBVs per command; pass referenced="):
        cl.execute_indirect(sig, 2, args)
    with pytest.raises(dx.InvalidArgumentError, match="vertex/index buffer views and root CBV/SRV/UAV addresses point into, but command "
                       "signature .* sets none of them; leave it empty"):
        cl.execute_indirect(device.create_command_signature([IA.draw()], byte_stride=16), 2, args, referenced=[args])
    with pytest.raises(TypeError, match="referenced"):
        cl.execute_indirect(sig, 2, args, referenced=args)


def test_a_referenced_buffer_bound_for_writing_is_refused_naming_the_state_the_commands_read_it_in(device, queue, cbv_bands):
    rs = device.create_root_signature([dx.RootCBV(0), dx.RootUAV(0)])
    sig = device.create_command_signature([IA.constant_buffer_view(0), IA.draw()], byte_stride=24, root_signature=rs)
    pso = device.create_graphics_pipeline(dx.compile_hlsl(CB_VS, profile="vs_5_0"), dx.compile_hlsl(CB_PS, profile="ps_5_0"), rs,
                                          rtv_formats=["rgba8_unorm"])
    buf = device.create_buffer(256, uav=True, name="constants and writes")
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([device.create_texture2d(W, H, "rgba8_unorm", render_target=True)])
    cl.set_root_uav(1, buf)
    with pytest.raises(dx.InvalidArgumentError, match=r"buffer 'constants and writes' is in referenced= \(read by the commands: "
                       r"VERTEX_AND_CONSTANT_BUFFER\) and is bound by .* for writing"):
        cl.execute_indirect(sig, 1, device.create_buffer(24), referenced=[buf])


def test_root_cbv_arguments_before_a_dispatch_are_refused_naming_the_gap(device):
    rs = device.create_root_signature([dx.RootCBV(0)])
    with pytest.raises(dx.InvalidArgumentError, match="emulates them only before a draw argument"):
        device.create_command_signature([IA.constant_buffer_view(0), IA.dispatch()], byte_stride=20, root_signature=rs)


def test_root_cbvs_the_signature_sets_are_null_after_execute_indirect(device, queue, cbv_bands):
    buf = device.create_buffer(256)
    sig = device.create_command_signature([IA.constant_buffer_view(0), IA.draw()], byte_stride=24, root_signature=cbv_bands.root_signature)
    args = device.create_buffer(24)
    cl = queue.command_list()
    cl.set_pipeline_state(cbv_bands)
    cl.set_render_targets([device.create_texture2d(W, H, "rgba8_unorm", render_target=True)])
    cl.set_root_cbv(0, buf)
    cl.execute_indirect(sig, 1, args, referenced=[buf])
    with pytest.raises(dx.InvalidArgumentError, match="left it a null view"):
        cl.draw(6)
    cl.set_root_cbv(0, buf)
    cl.draw(6)


def test_a_bad_root_cbv_address_raises_once_from_wait_idle(device, queue, cbv_bands, cbv_culler):
    blocks = band_blocks()
    buf = device.create_buffer(blocks.nbytes, name="band constants")
    queue.write_buffer(buf, blocks)
    cull_frame(device, queue, cbv_bands, cbv_culler, buf, 0b1, skew=16)
    with pytest.raises(dx.InvalidArgumentError, match="command 0 .* has a root CBV address that is not a multiple of 256 bytes"):
        device.wait_idle()
    device.wait_idle()  # reported once


@pytest.mark.parametrize("heap", ["readback", "upload"])
def test_a_bad_root_cbv_address_raises_once_from_reading_a_mapped_buffer(device, queue, cbv_bands, cbv_culler, heap):
    blocks = band_blocks()
    buf = device.create_buffer(blocks.nbytes, name="band constants")
    queue.write_buffer(buf, blocks)
    mapped = device.create_buffer(256, heap=heap, name="mapped")
    cull_frame(device, queue, cbv_bands, cbv_culler, buf, 0b1, skew=8 * 256)
    with pytest.raises(dx.InvalidArgumentError, match="command 0 .* has a root CBV address that lies in no buffer of referenced="):
        queue.read_buffer(mapped, dtype=np.uint32)
    queue.read_buffer(mapped, dtype=np.uint32)  # reported once


def test_a_bad_root_cbv_address_raises_once_from_a_read_on_another_queue(device, queue, cbv_bands, cbv_culler):
    blocks = band_blocks()
    buf = device.create_buffer(blocks.nbytes, name="band constants")
    queue.write_buffer(buf, blocks)
    cull_frame(device, queue, cbv_bands, cbv_culler, buf, 0b1, skew=16)
    compute = device.queue("compute")
    # One store per device: whichever of the compute queue's calls finds the direct list complete raises
    # (its own flush, when the GPU is that quick, or the read, which waits for the direct list).
    with pytest.raises(dx.InvalidArgumentError, match="command 0 .* has a root CBV address that is not a multiple of 256 bytes"):
        compute.flush()
        compute.read_buffer(buf)
    queue.flush()  # reported once
    compute.read_buffer(buf)


def test_a_signature_of_another_root_signature_is_refused_telling_the_two_apart(device, queue, cbv_bands):
    # Two root signatures of the same layout and the same (default) name: the message tells them apart.
    other = device.create_root_signature([dx.RootCBV(0)])
    sig = device.create_command_signature([IA.constant_buffer_view(0), IA.draw()], byte_stride=24, root_signature=other)
    cl = queue.command_list()
    cl.set_pipeline_state(cbv_bands)
    with pytest.raises(dx.InvalidArgumentError) as e:
        cl.execute_indirect(sig, 1, device.create_buffer(24), referenced=[device.create_buffer(256)])
    msg = str(e.value)
    assert "changes root arguments of its root signature ('root_signature' at 0x" in msg
    assert "but the list's bound root signature (of pipeline" in msg
    assert msg.count(" at 0x") == 2 and "same object" in msg


def test_execute_indirect_in_a_bundle_draws_what_the_list_would(device, queue, cbv_bands):
    blocks = band_blocks()
    buf = device.create_buffer(blocks.nbytes, name="band constants")
    queue.write_buffer(buf, blocks)
    va = buf.gpu_address
    cmds = np.array([[(va + 256 * b) & 0xFFFFFFFF, va >> 32, 6, 1, 0, 0] for b in (1, 4, 6)], np.uint32)
    args = device.create_buffer(cmds.nbytes, name="commands")
    queue.write_buffer(args, cmds)
    cbv_sig = device.create_command_signature([IA.constant_buffer_view(0), IA.draw()], byte_stride=24, root_signature=cbv_bands.root_signature)
    draw_sig = device.create_command_signature([IA.draw()], byte_stride=16)
    plain = device.create_buffer(16, name="one draw")
    queue.write_buffer(plain, np.array([6, 1, 0, 0], np.uint32))
    b = device.create_bundle(pipeline=cbv_bands)
    b.execute_indirect(cbv_sig, 3, args, referenced=[buf])  # root CBVs per command (emulated on vkd3d)
    b.set_root_cbv(0, buf, 256 * 2)
    b.execute_indirect(draw_sig, 1, plain)  # a plain draw with the root CBV the bundle set
    b.close()
    rt = device.create_texture2d(W, H, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.execute_bundle(b)
    cl.execute_bundle(b)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_texture(rt), cbv_bands_expected([1, 2, 4, 6]))


def test_execute_indirect_in_a_bundle_keeps_the_rules(device, queue, cbv_bands):
    sig = device.create_command_signature([IA.constant_buffer_view(0), IA.draw()], byte_stride=24, root_signature=cbv_bands.root_signature)
    args = device.create_buffer(48)
    with pytest.raises(dx.InvalidArgumentError, match="no pipeline set in the bundle"):
        device.create_bundle().execute_indirect(sig, 2, args, referenced=[args])
    other = device.create_graphics_pipeline(dx.compile_hlsl(CB_VS, profile="vs_5_0"), dx.compile_hlsl(CB_PS, profile="ps_5_0"),
                                            device.create_root_signature([dx.RootCBV(0)]), rtv_formats=["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match="changes root arguments of its root signature .* the bundle set"):
        device.create_bundle(pipeline=other).execute_indirect(sig, 2, args, referenced=[args])
    b = device.create_bundle(pipeline=cbv_bands)
    b.execute_indirect(sig, 3, args, referenced=[device.create_buffer(256)])  # 3 commands do not fit 48 bytes: found at execute
    b.close()
    with pytest.raises(dx.UseAfterFreeError, match="closed"):
        b.execute_indirect(sig, 1, args, referenced=[args])
    cl = queue.command_list()
    cl.set_render_targets([device.create_texture2d(W, H, "rgba8_unorm", render_target=True)])
    with pytest.raises(dx.InvalidArgumentError, match=r"bundle 'bundle', call 1 \(execute_indirect\): execute_indirect: max_count=3"):
        cl.execute_bundle(b)
    with pytest.raises(TypeError, match="signature must be a dx12kit.CommandSignature"):
        device.create_bundle(pipeline=cbv_bands).execute_indirect(args, 1, args)


def test_a_bad_root_cbv_address_in_a_bundle_names_the_bundle_and_its_call(device, queue, cbv_bands):
    blocks = band_blocks()
    buf = device.create_buffer(blocks.nbytes, name="band constants")
    queue.write_buffer(buf, blocks)
    va = buf.gpu_address + 16  # not a multiple of 256 from the buffer's start
    cmds = np.array([[va & 0xFFFFFFFF, va >> 32, 6, 1, 0, 0]], np.uint32)
    args = device.create_buffer(cmds.nbytes, name="commands")
    queue.write_buffer(args, cmds)
    sig = device.create_command_signature([IA.constant_buffer_view(0), IA.draw()], byte_stride=24, root_signature=cbv_bands.root_signature)
    b = device.create_bundle(pipeline=cbv_bands, name="culled bands")
    b.set_root_cbv(0, buf)
    b.execute_indirect(sig, 1, args, referenced=[buf])
    b.close()
    cl = queue.command_list(name="frame")
    cl.set_render_targets([device.create_texture2d(W, H, "rgba8_unorm", render_target=True)])
    cl.execute_bundle(b)
    queue.execute(cl)
    with pytest.raises(dx.InvalidArgumentError, match=r"in command list 'frame' \(bundle 'culled bands', call 2\): command 0 .* not a multiple of 256"):
        queue.flush()


def test_a_bad_root_cbv_address_found_at_close_is_raised_after_the_device_closed():
    dev = dx.Device()
    q = dev.queue()
    bands = dev.create_graphics_pipeline(dx.compile_hlsl(CB_VS, profile="vs_5_0"), dx.compile_hlsl(CB_PS, profile="ps_5_0"),
                                         dev.create_root_signature([dx.RootCBV(0)]), rtv_formats=["rgba8_unorm"])
    culler = dev.create_compute_pipeline(dx.compile_hlsl(CULL_CBV_CS, profile="cs_5_0"),
                                         dev.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0), dx.RootUAV(1)]))
    blocks = band_blocks()
    buf = dev.create_buffer(blocks.nbytes, name="band constants")
    q.write_buffer(buf, blocks)
    cull_frame(dev, q, bands, culler, buf, 0b1, skew=16)
    with pytest.raises(dx.InvalidArgumentError, match="close: .*command 0 .* not a multiple of 256 bytes"):
        dev.close()
    with pytest.raises(dx.DeviceClosedError):
        dev.create_buffer(16)  # closed all the same
    dev.close()  # once: nothing left to raise
