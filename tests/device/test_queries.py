"""Queries (occlusion, binary occlusion, timestamps, pipeline statistics) and predication on the real
device: counts checked against the geometry computed with numpy, predicated work checked in pixels and
buffer contents. Where vkd3d 1.2 falls short (docs/guides/shader-gaps.rst), the results are still
D3D12's (built-in 0/1 pass) or the call is refused naming the gap."""
from __future__ import annotations

import time

import numpy as np
import pytest

import dx12kit as dx

W = 32
VS = """
struct VSOut { float4 pos : SV_Position; };
VSOut main(float3 p : POSITION) { VSOut o; o.pos = float4(p, 1); return o; }
"""
PS = """
cbuffer C : register(b0) { float4 colour; };
float4 main(float4 p : SV_Position) : SV_Target { return colour; }
"""
CS = """
RWStructuredBuffer<uint> b : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { b[id.x] = b[id.x] + id.x * 3 + 1; }
"""


def rect(x0: float, x1: float, y0: float, y1: float, z: float) -> np.ndarray:
    """Two triangles covering [x0, x1] x [y0, y1] (NDC) at depth z."""
    return np.array([[x0, y0, z], [x0, y1, z], [x1, y0, z], [x1, y0, z], [x0, y1, z], [x1, y1, z]], np.float32)


def covered(x0: float, x1: float, y0: float, y1: float) -> np.ndarray:
    """Which pixels of the W x W target a rectangle covers (pixel centres; no edge passes through a centre)."""
    c = (np.arange(W) + 0.5) / W * 2 - 1
    x, y = np.meshgrid(c, -c)   # row 0 is the top (NDC y = +1)
    return (x > x0) & (x < x1) & (y > y0) & (y < y1)


@pytest.fixture(scope="module")
def scene(device):
    vs = dx.compile_hlsl(VS, profile="vs_5_0")
    ps = dx.compile_hlsl(PS, profile="ps_5_0")
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    pso = device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], dsv_format="d32_float",
                                          input_layout=[("POSITION", "float3", 0, 0)], depth_test=True, cull="none")
    return pso


@pytest.fixture(scope="module")
def compute(device):
    cs = dx.compile_hlsl(CS, profile="cs_5_0")
    rs = device.create_root_signature([dx.RootUAV(0)])
    return device.create_compute_pipeline(cs, rs)


def begin_frame(device, queue, pso):
    rt = device.create_texture2d(W, W, "rgba8_unorm", render_target=True)
    ds = device.create_texture2d(W, W, "d32_float", depth_stencil=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt], depth=ds)
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.clear_depth_stencil(ds, 1.0)
    return rt, ds, cl


def draw(cl, verts: np.ndarray, colour=(1.0, 0.0, 0.0, 1.0)) -> None:
    cl.set_constants(0, np.array(colour, np.float32))
    cl.set_dynamic_vertex_buffer(0, verts)
    cl.draw(len(verts))


OCCLUDER = (-1.0, 0.25, -1.0, 0.5)   # near (z 0.3)
TARGET = (-0.6, 0.9, -0.8, 0.8)      # partly behind it (z 0.5)
HIDDEN = (-0.9, 0.1, -0.9, 0.4)      # wholly behind it (z 0.9)


def test_occlusion_counts_the_visible_samples_of_a_partly_hidden_quad(device, queue, scene):
    heap = device.create_query_heap("occlusion", 4)
    rt, ds, cl = begin_frame(device, queue, scene)
    draw(cl, rect(*OCCLUDER, 0.3))
    cl.begin_query(heap, "occlusion", 0)
    draw(cl, rect(*TARGET, 0.5), (0, 1, 0, 1))
    cl.end_query(heap, "occlusion", 0)
    cl.begin_query(heap, "occlusion", 1)
    draw(cl, rect(*HIDDEN, 0.9), (0, 0, 1, 1))
    cl.end_query(heap, "occlusion", 1)
    queue.execute(cl)
    visible = covered(*TARGET) & ~covered(*OCCLUDER)
    assert 0 < visible.sum() < covered(*TARGET).sum()
    counts = queue.read_queries(heap, "occlusion", 0, 2)
    assert counts.dtype == np.uint64 and counts.tolist() == [visible.sum(), 0]
    # The pixels agree: the target's colour exactly where the count says.
    assert ((queue.read_texture(rt)[..., 1] == 255) == visible).all()


def test_binary_occlusion_is_zero_or_one_in_buffers_and_readbacks(device, queue, scene):
    heap = device.create_query_heap("binary_occlusion", 2)
    assert heap.kind == "occlusion" and heap.count == 2
    out = device.create_buffer(64)
    rt, ds, cl = begin_frame(device, queue, scene)
    draw(cl, rect(*OCCLUDER, 0.3))
    cl.begin_query(heap, "binary_occlusion", 0)
    draw(cl, rect(*TARGET, 0.5))
    cl.end_query(heap, "binary_occlusion", 0)
    cl.begin_query(heap, "binary_occlusion", 1)
    draw(cl, rect(*HIDDEN, 0.9))
    cl.end_query(heap, "binary_occlusion", 1)
    cl.resolve_query_data(heap, "binary_occlusion", 0, 2, out, 16)
    draw(cl, rect(-1, 1, -1, 1, 0.1))   # the bound pipeline still draws after the resolve
    queue.execute(cl)
    assert queue.read_queries(heap, "binary_occlusion").tolist() == [1, 0]
    assert queue.read_buffer(out, np.uint64)[2:4].tolist() == [1, 0]
    assert (queue.read_texture(rt) == [255, 0, 0, 255]).all()


@pytest.mark.parametrize("kind", ["direct", "compute"])
def test_timestamps_bracket_a_dispatch_in_ticks_of_the_frequency(device, compute, kind):
    q = device.queue(kind)
    freq = q.timestamp_frequency
    assert freq > 0
    heap = device.create_query_heap("timestamp", 3)
    buf = device.create_buffer(64 * 64 * 4, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(compute)
    cl.set_root_uav(0, buf)
    cl.end_query(heap, "timestamp", 0)
    cl.dispatch(64)
    cl.end_query(heap, "timestamp", 1)
    cl.dispatch(64)
    cl.end_query(heap, "timestamp", 2)
    t0 = time.perf_counter()
    q.wait(q.execute(cl))
    wall = time.perf_counter() - t0
    ts = q.read_queries(heap, "timestamp")
    assert ts.dtype == np.uint64 and ts[0] <= ts[1] <= ts[2] and ts[0] < ts[2]
    assert (int(ts[2]) - int(ts[0])) / freq <= wall   # GPU time inside the CPU's wait
    assert (q.read_buffer(buf, np.uint32)[:3] == [2, 8, 14]).all()   # both dispatches ran


def test_copy_queue_timestamps_are_refused_naming_the_gap(device):
    with pytest.raises(dx.InvalidArgumentError, match="copy_queue_timestamp.*vkd3d 1.2"):
        device.create_query_heap("copy_queue_timestamp", 2)
    with pytest.raises(dx.InvalidArgumentError, match="timestamp_frequency: this device cannot time copy-queue lists"):
        device.queue("copy").timestamp_frequency
    heap = device.create_query_heap("timestamp", 1)
    with pytest.raises(dx.InvalidArgumentError, match="copy-queue list writes timestamps only into a 'copy_queue_timestamp' heap"):
        device.queue("copy").command_list().end_query(heap, "timestamp", 0)


def test_pipeline_statistics_count_the_vertices_and_primitives_of_a_draw(device, queue, scene, compute):
    heap = device.create_query_heap("pipeline_statistics", 2)
    rt, ds, cl = begin_frame(device, queue, scene)
    cl.begin_query(heap, "pipeline_statistics", 0)
    draw(cl, np.concatenate([rect(*TARGET, 0.5), rect(*OCCLUDER, 0.3)]))   # 12 vertices, 4 triangles
    cl.end_query(heap, "pipeline_statistics", 0)
    queue.execute(cl)
    cq = device.queue("compute")
    buf = device.create_buffer(256 * 4, uav=True)
    c = cq.command_list()
    c.set_pipeline_state(compute)
    c.set_root_uav(0, buf)
    c.begin_query(heap, "pipeline_statistics", 1)
    c.dispatch(4)
    c.end_query(heap, "pipeline_statistics", 1)
    cq.execute(c)
    s = queue.read_queries(heap, "pipeline_statistics", 0, 1)[0]
    assert s.dtype.names == ("IAVertices", "IAPrimitives", "VSInvocations", "GSInvocations", "GSPrimitives", "CInvocations",
                             "CPrimitives", "PSInvocations", "HSInvocations", "DSInvocations", "CSInvocations")
    assert (s["IAVertices"], s["IAPrimitives"], s["VSInvocations"], s["CInvocations"], s["CPrimitives"]) == (12, 4, 12, 4, 4)
    assert (s["GSInvocations"], s["HSInvocations"], s["DSInvocations"], s["CSInvocations"]) == (0, 0, 0, 0)
    pixels = (covered(*TARGET) | covered(*OCCLUDER)).sum() + (covered(*TARGET) & covered(*OCCLUDER)).sum()
    assert s["PSInvocations"] >= pixels   # every shaded pixel (helper lanes of 2x2 quads may add some)
    cs = cq.read_queries(heap, "pipeline_statistics", 1, 1)[0]
    assert cs["CSInvocations"] == 256 and cs["IAVertices"] == 0 and cs["PSInvocations"] == 0


def test_query_rules_are_checked(device, queue):
    occ = device.create_query_heap("occlusion", 2)
    ts = device.create_query_heap("timestamp", 2)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match=r"queries \[2, 3\) out of range of query heap 'occlusion queries' of 2"):
        cl.begin_query(occ, "occlusion", 2)
    with pytest.raises(dx.InvalidArgumentError, match="kind 'timestamp' does not belong in query heap"):
        cl.end_query(occ, "timestamp", 0)
    with pytest.raises(dx.InvalidArgumentError, match="timestamps are not begun"):
        cl.begin_query(ts, "timestamp", 0)
    with pytest.raises(dx.InvalidArgumentError, match="was not begun in this command list"):
        cl.end_query(occ, "occlusion", 0)
    cl.begin_query(occ, "occlusion", 0)
    with pytest.raises(dx.InvalidArgumentError, match="already active"):
        cl.begin_query(occ, "occlusion", 0)
    with pytest.raises(dx.InvalidArgumentError, match="begun as 'occlusion' and is ended as 'binary_occlusion'"):
        cl.end_query(occ, "binary_occlusion", 0)
    buf = device.create_buffer(64)
    with pytest.raises(dx.InvalidArgumentError, match="still active"):
        cl.resolve_query_data(occ, "occlusion", 0, 1, buf)
    with pytest.raises(dx.InvalidArgumentError, match="and not ended; call end_query"):
        queue.execute(cl)
    cl.end_query(occ, "occlusion", 0)   # the failed execute left the list open
    with pytest.raises(dx.InvalidArgumentError, match="offset 4 is not a multiple of 8"):
        cl.resolve_query_data(occ, "occlusion", 0, 1, buf, 4)
    with pytest.raises(dx.InvalidArgumentError, match="do not fit buffer"):
        cl.resolve_query_data(occ, "occlusion", 0, 2, buf, 56)
    with pytest.raises(TypeError, match="heap must be a dx12kit.QueryHeap"):
        cl.begin_query(buf, "occlusion", 0)
    cl.resolve_query_data(occ, "occlusion", 0, 1, buf)
    queue.execute(cl)
    c = device.queue("compute").command_list()
    with pytest.raises(dx.InvalidArgumentError, match="occlusion queries are recorded on direct-queue lists only"):
        c.begin_query(occ, "occlusion", 1)
    with pytest.raises(dx.InvalidArgumentError, match="direct-queue lists only"):
        device.queue("compute").read_queries(occ, "occlusion")
    with pytest.raises(dx.InvalidArgumentError, match="count must be at least 1"):
        device.create_query_heap("occlusion", 0)


def test_the_heap_lives_while_lists_using_it_are_in_flight(device, queue, scene):
    out = device.create_buffer(8)
    rt, ds, cl = begin_frame(device, queue, scene)
    heap = device.create_query_heap("occlusion", 1)
    cl.begin_query(heap, "occlusion", 0)
    draw(cl, rect(-1, 1, -1, 1, 0.5))
    cl.end_query(heap, "occlusion", 0)
    cl.resolve_query_data(heap, "occlusion", 0, 1, out)
    del heap   # the list keeps it
    queue.execute(cl)
    assert queue.read_buffer(out, np.uint64).tolist() == [W * W]


# ---- predication ---------------------------------------------------------------------------------------

def test_binary_occlusion_predication_skips_exactly_the_hidden_objects_draw(device, queue, scene):
    heap = device.create_query_heap("occlusion", 2)
    pred = device.create_buffer(16)
    # Frame 1: the occluder, then each object's bounding box tested.
    rt, ds, cl = begin_frame(device, queue, scene)
    draw(cl, rect(*OCCLUDER, 0.3))
    for i, box in enumerate((HIDDEN, TARGET)):
        cl.begin_query(heap, "binary_occlusion", i)
        draw(cl, rect(*box, 0.6 if box is HIDDEN else 0.5), (0, 0, 0, 0))
        cl.end_query(heap, "binary_occlusion", i)
    cl.resolve_query_data(heap, "binary_occlusion", 0, 2, pred)
    # Frame 2, same list: each object drawn (in front, nothing occludes it now) under its own predicate.
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.clear_depth_stencil(ds, 1.0)
    cl.set_predication(pred, 0, "equal_zero")
    draw(cl, rect(*HIDDEN, 0.1), (0, 0, 1, 1))    # hidden last frame: skipped
    cl.set_predication(pred, 8, "equal_zero")
    draw(cl, rect(*TARGET, 0.05), (0, 1, 0, 1))   # visible: drawn
    cl.set_predication(None)
    queue.execute(cl)
    px = queue.read_texture(rt)
    assert (queue.read_buffer(pred, np.uint64) == [0, 1]).all()
    assert ((px[..., 1] == 255) == covered(*TARGET)).all()
    assert not (px[..., 2] == 255).any()   # the hidden object's draw was skipped: not one pixel


def test_predicates_are_64_bit_values(device, queue, scene):
    """D3D12 compares all 64 bits with zero; vkd3d 1.2 alone compares the low 32 (1 << 32 read as zero)."""
    pred = device.create_buffer(32)
    rt, ds, cl = begin_frame(device, queue, scene)
    cl.upload(pred, np.array([0, 1, 1 << 32, 0], np.uint64))
    quarters = [(-1, 0, 0, 1), (0, 1, 0, 1), (-1, 0, -1, 0), (0, 1, -1, 0)]
    cases = [(0, "equal_zero", False), (0, "not_equal_zero", True), (16, "equal_zero", True), (8, "not_equal_zero", False)]
    for box, (offset, op, drawn) in zip(quarters, cases):
        cl.set_predication(pred, offset, op)
        draw(cl, rect(*box, 0.5), (0, 1, 0, 1) if drawn else (1, 0, 0, 1))
    cl.set_predication(None)
    queue.execute(cl)
    px = queue.read_texture(rt)
    expected = covered(*quarters[1]) | covered(*quarters[2])
    assert ((px[..., 1] == 255) == expected).all() and not (px[..., 0] == 255).any()


@pytest.mark.parametrize("kind", ["direct", "compute"])
def test_a_predicated_dispatch_is_skipped(device, compute, kind):
    q = device.queue(kind)
    pred = device.create_buffer(8)                 # zero
    buf = device.create_buffer(64 * 4, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(compute)
    cl.set_root_uav(0, buf)
    cl.set_predication(pred, 0, "equal_zero")     # skipped while zero
    cl.set_root_uav(0, buf)                       # (a compute list sets its root arguments again after it)
    cl.dispatch(1)
    cl.set_predication(pred, 0, "not_equal_zero")
    cl.set_root_uav(0, buf)
    cl.dispatch(1)                                 # runs
    cl.set_predication(None)
    q.execute(cl)
    assert (q.read_buffer(buf, np.uint32)[:3] == [1, 4, 7]).all()   # one dispatch ran, not two


def test_a_compute_list_sets_its_root_arguments_again_after_set_predication(device, compute):
    q = device.queue("compute")
    pred = device.create_buffer(8)
    buf = device.create_buffer(64 * 4, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(compute)
    cl.set_root_uav(0, buf)
    cl.set_predication(pred, 0, "not_equal_zero")
    if device.query_support["predicate64"]:
        return   # the predicate is used as it is: nothing is cleared
    with pytest.raises(dx.InvalidArgumentError, match="root parameter 0 .* not set since set_predication bound the pipeline's "
                                                      "root signature again"):
        cl.dispatch(1)


def test_root_argument_errors_name_the_call_that_cleared_them(device, queue, compute):
    # The error names resolve_query_data (its binary-occlusion pass re-binds a compute list's root
    # signature) or generate_mips (which leaves no pipeline bound), not set_pipeline_state alone.
    heap = device.create_query_heap("occlusion", 1)
    dst = device.create_buffer(8)
    buf = device.create_buffer(64 * 4, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(compute)
    cl.set_root_uav(0, buf)
    cl.resolve_query_data(heap, "binary_occlusion", 0, 1, dst, 0)
    if not device.query_support["binary_occlusion_01"]:   # else no built-in pass runs: nothing is cleared
        with pytest.raises(dx.InvalidArgumentError, match="not set since resolve_query_data bound the pipeline's root signature again"):
            cl.dispatch(1)
    tex = device.create_texture2d(4, 4, "rgba8_unorm", mip_levels=0)
    cl = queue.command_list()
    cl.set_pipeline_state(compute)
    cl.set_root_uav(0, buf)
    cl.generate_mips(tex)
    cl.set_pipeline_state(compute)
    with pytest.raises(dx.InvalidArgumentError, match="not set since set_pipeline_state bound the root signature again after generate_mips"):
        cl.dispatch(1)
    cl.set_root_uav(0, buf)
    cl.dispatch(1)                                 # set again: accepted
    plain = queue.command_list()
    plain.set_pipeline_state(compute)
    with pytest.raises(dx.InvalidArgumentError, match=r"not set since set_pipeline_state bound the root signature \(a root"):
        plain.dispatch(1)


def test_copies_and_clears_under_a_predicate_are_refused_naming_the_gap(device, queue):
    if device.query_support["predicates_copies_and_clears"]:
        pytest.skip("this device predicates copies and clears")
    pred = device.create_buffer(8)
    a, b = device.create_buffer(16), device.create_buffer(16)
    rt = device.create_texture2d(4, 4, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_predication(pred, 0, "equal_zero")
    for call in (lambda: cl.copy_buffer_region(a, 0, b, 0, 16), lambda: cl.copy_resource(a, b),
                 lambda: cl.clear_render_target(rt, [1, 0, 0, 1]), lambda: cl.upload(a, np.zeros(4, np.uint32))):
        with pytest.raises(dx.InvalidArgumentError, match="does not predicate copies, clears or resolves.*set_predication\\(None\\)"):
            call()
    cl.set_predication(None)
    cl.copy_buffer_region(a, 0, b, 0, 16)
    queue.execute(cl)


def test_set_predication_checks_its_arguments(device, queue):
    buf = device.create_buffer(16)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="offset 4 is not a multiple of 8"):
        cl.set_predication(buf, 4)
    with pytest.raises(dx.InvalidArgumentError, match="does not fit buffer"):
        cl.set_predication(buf, 16)
    with pytest.raises(dx.InvalidArgumentError, match="is a texture"):
        cl.set_predication(device.create_texture2d(4, 4), 0)
    with pytest.raises(dx.InvalidArgumentError, match="copy-queue list cannot be predicated"):
        device.queue("copy").command_list().set_predication(buf, 0)
