"""Batched recording (draw_many, draw_indexed_many, dispatch_many) and the per-call fast entries
(set_constants, draw, draw_indexed, dispatch): results read back from the device."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

WRITE_CS = """
cbuffer C : register(b0) { uint4 v; };
RWStructuredBuffer<uint> outbuf : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 g : SV_GroupID) { outbuf[v.x + g.x + 4 * g.y + 16 * g.z] = v.y + g.x + 4 * g.y + 16 * g.z; }
"""

# Writes its 4 root constants as they are (the fast entries' offsets read back).
ECHO_CS = """
cbuffer C : register(b0) { uint4 v; };
RWStructuredBuffer<uint> outbuf : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 t : SV_GroupThreadID) { outbuf[t.x] = v[t.x]; }
"""

# Draw i covers columns [x0, x1) of the target (NDC x from constants), coloured by its constants.
BAND_VS = """
cbuffer C : register(b0) { float4 band; float4 colour; };
float4 main(uint id : SV_VertexID) : SV_Position {
    float u = (id == 1 || id == 3 || id == 4) ? 1.0 : 0.0;
    float v = (id == 2 || id == 4 || id == 5) ? 1.0 : 0.0;
    return float4(lerp(band.x, band.y, u), v * 2.0 - 1.0, 0, 1);
}
"""
BAND_PS = """
cbuffer C : register(b0) { float4 band; float4 colour; };
float4 main() : SV_Target { return colour; }
"""
W, H, BANDS = 16, 4, 8


@pytest.fixture(scope="module")
def writer(device):
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(WRITE_CS, profile="cs_5_0"), rs)


@pytest.fixture(scope="module")
def bands(device):
    rs = device.create_root_signature([dx.RootConstants(0, 8)])
    return device.create_graphics_pipeline(dx.compile_hlsl(BAND_VS, profile="vs_5_0"), dx.compile_hlsl(BAND_PS, profile="ps_5_0"), rs,
                                           rtv_formats=["rgba8_unorm"])


def band_constants() -> np.ndarray:
    c = np.zeros((BANDS, 8), np.float32)
    c[:, 0] = -1 + 2 * np.arange(BANDS) / BANDS
    c[:, 1] = -1 + 2 * (np.arange(BANDS) + 1) / BANDS
    c[:, 4] = np.arange(BANDS) / 255.0 * 17  # red 0, 17, 34, ...
    c[:, 5] = 1.0 - np.arange(BANDS) / 255.0 * 5
    c[:, 7] = 1.0
    return c


def expected_bands() -> np.ndarray:
    px = W // BANDS
    e = np.zeros((H, W, 4), np.uint8)
    for i in range(BANDS):
        e[:, i * px:(i + 1) * px] = [17 * i, 255 - 5 * i, 0, 255]
    return e


def render(device, queue, pso, record):
    rt = device.create_texture2d(W, H, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    record(cl)
    queue.execute(cl)
    return queue.read_texture(rt)


def test_dispatch_many_writes_each_rows_constants(device, queue, writer):
    n = 1000
    out = device.create_buffer(4 * n, uav=True)
    consts = np.zeros((n, 4), np.uint32)
    consts[:, 0] = np.arange(n)
    consts[:, 1] = np.arange(n) * 7 + 3
    cl = queue.command_list()  # automatic UAV barriers on: one between each two dispatches, as single calls
    cl.set_pipeline_state(writer)
    cl.set_root_uav(1, out)
    cl.dispatch_many((1, 1, 1), consts)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(out, dtype=np.uint32), consts[:, 1])


def test_dispatch_many_per_row_groups(device, queue, writer):
    # Row i writes 2 slots from 4 * i (x = 1 or 2 groups); odd rows only 1: slot 4i+1 keeps its 0.
    n = 10
    out = device.create_buffer(4 * 4 * n, uav=True)
    consts = np.zeros((n, 4), np.int32)
    consts[:, 0] = 4 * np.arange(n)
    consts[:, 1] = 100 * np.arange(n)
    groups = np.ones((n, 3), np.int64)
    groups[::2, 0] = 2
    cl = queue.command_list()
    cl.auto_uav_barriers = False  # disjoint slots
    cl.set_pipeline_state(writer)
    cl.set_root_uav(1, out)
    cl.upload(out, np.zeros(4 * n, np.uint32))
    cl.dispatch_many(groups, consts)
    queue.execute(cl)
    got = queue.read_buffer(out, dtype=np.uint32).reshape(n, 4)
    want = np.zeros((n, 4), np.uint32)
    want[:, 0] = 100 * np.arange(n)
    want[::2, 1] = 100 * np.arange(n)[::2] + 1
    np.testing.assert_array_equal(got, want)


def test_draw_many_colours_each_draw_by_its_row(device, queue, bands):
    c = band_constants()
    many = render(device, queue, bands, lambda cl: cl.draw_many(6, c))
    np.testing.assert_array_equal(many, expected_bands())

    def singles(cl):
        for row in c:
            cl.set_constants(0, row)
            cl.draw(6)

    np.testing.assert_array_equal(render(device, queue, bands, singles), many)

    def halves(cl):   # the colour set at offset 4 (a list of Python floats), the band at 0
        for row in c:
            cl.set_constants(0, [float(x) for x in row[4:]], offset=4)
            cl.set_constants(0, row[:4])
            cl.draw(6)

    np.testing.assert_array_equal(render(device, queue, bands, halves), many)


def test_draw_indexed_many_and_list_rows(device, queue, bands):
    c = band_constants()

    def record(cl):
        cl.set_dynamic_index_buffer(np.arange(6, dtype=np.uint16))
        cl.draw_indexed_many(6, c.tolist(), root_index=0, instance_count=1)  # a list of rows (float64: converted)

    np.testing.assert_array_equal(render(device, queue, bands, record), expected_bands())


def test_fast_entries_keep_their_checks(device, queue):
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    echo = device.create_compute_pipeline(dx.compile_hlsl(ECHO_CS, profile="cs_5_0"), rs)
    out = device.create_buffer(16, uav=True)
    out2 = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(echo)
    cl.set_root_uav(1, out)
    cl.set_constants(root_index=0, values=[1, 2], offset=2)  # keywords: constants 2 and 3
    cl.set_constants(0, np.array([[0, 5]], np.uint32))  # a 2-D array: its 2 values, at 0 and 1
    with pytest.raises(dx.InvalidArgumentError, match="not C-contiguous"):  # the general path, as before
        cl.set_constants(0, np.arange(8, dtype=np.uint32)[::2])
    cl.dispatch(x=1, z=np.int64(1))        # out: (0, 5, 1, 2)
    cl.set_root_uav(1, out2)
    cl.set_constants(0, [7], 3)            # positional offset: only constant 3 changes
    cl.set_constants(0, [1.5], offset=1)   # a float: its bits
    cl.dispatch(1)                         # out2: (0, bits of 1.5, 1, 7)
    with pytest.raises(TypeError, match="unexpected keyword argument 'w'"):
        cl.dispatch(1, w=2)
    with pytest.raises(TypeError, match="missing required argument 'x'"):
        cl.dispatch()
    with pytest.raises(TypeError, match="dispatch: x must be an int"):
        cl.dispatch("1")
    with pytest.raises(TypeError, match="at most 3 arguments"):
        cl.dispatch(1, 1, 1, 1)
    with pytest.raises(dx.InvalidArgumentError, match="dispatch: x -1 is out of range"):
        cl.dispatch(-1)
    with pytest.raises(dx.InvalidArgumentError, match="65535"):
        cl.dispatch(70000)
    with pytest.raises(dx.InvalidArgumentError, match="exceed the 4 constants"):
        cl.set_constants(0, [1.0, 2.0, 3.0, 4.0, 5.0])
    with pytest.raises(dx.InvalidArgumentError, match="out of range"):
        cl.set_constants(0, [2 ** 32])
    with pytest.raises(TypeError, match="ints or floats"):
        cl.set_constants(0, [1, "2"])
    with pytest.raises(dx.InvalidArgumentError, match="compute pipeline"):
        cl.draw(3)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(out, dtype=np.uint32), [0, 5, 1, 2])
    np.testing.assert_array_equal(queue.read_buffer(out2, dtype=np.uint32),
                                  [0, np.float32(1.5).view(np.uint32), 1, 7])
    with pytest.raises(dx.UseAfterFreeError):
        cl.dispatch(1)
    with pytest.raises(dx.UseAfterFreeError):
        cl.dispatch_many((1, 1, 1), np.zeros((2, 4), np.uint32))


def test_batched_calls_refuse_bad_input(device, queue, writer, bands):
    out = device.create_buffer(64, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(writer)
    cl.set_root_uav(1, out)
    ok = np.zeros((2, 4), np.uint32)
    with pytest.raises(TypeError, match="constants must be a numpy array"):
        cl.dispatch_many((1, 1, 1), "abc")
    with pytest.raises(dx.InvalidArgumentError, match=r"shape \(n, k\)"):
        cl.dispatch_many((1, 1, 1), np.zeros(4, np.uint32))
    with pytest.raises(dx.InvalidArgumentError, match="complex"):
        cl.dispatch_many((1, 1, 1), np.zeros((2, 4), np.complex64))
    with pytest.raises(dx.InvalidArgumentError, match="exceed the 4 constants"):
        cl.dispatch_many((1, 1, 1), np.zeros((2, 5), np.float32))
    with pytest.raises(dx.InvalidArgumentError, match="1..65535, got 0 in row 1"):
        cl.dispatch_many(np.array([[1, 1, 1], [0, 1, 1]]), ok)
    with pytest.raises(dx.InvalidArgumentError, match="1..65535, got -5 in row 1"):
        cl.dispatch_many(np.array([[1, 1, 1], [1, -5, 1]]), ok)
    with pytest.raises(dx.InvalidArgumentError, match="1..65535, got 65536 in row 0"):
        cl.dispatch_many(np.array([[1, 1, 65536], [1, 1, 1]], np.uint64), ok)
    with pytest.raises(dx.InvalidArgumentError, match="3 rows but constants has 2"):
        cl.dispatch_many(np.ones((3, 3), np.int32), ok)
    with pytest.raises(dx.InvalidArgumentError, match=r"one \(x, y, z\)"):
        cl.dispatch_many((1, 1), ok)
    with pytest.raises(TypeError, match="integers"):
        cl.dispatch_many(np.ones((2, 3), np.float32), ok)
    with pytest.raises(TypeError):
        cl.dispatch_many(3, ok)
    with pytest.raises(dx.InvalidArgumentError, match="graphics|direct|compute pipeline"):
        cl.draw_many(3, ok)
    cl.dispatch_many((1, 1, 1), np.zeros((0, 4), np.uint32))  # no rows: nothing recorded
    cl2 = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="no pipeline"):
        cl2.draw_many(3, ok)
    cl2.set_pipeline_state(bands)
    with pytest.raises(dx.InvalidArgumentError, match="root index 1 out of range"):
        cl2.draw_many(3, np.zeros((2, 4), np.float32), root_index=1)


def test_raw_baseline_draws_what_draw_many_draws(device, queue, bands):
    """The raw-D3D12 loop the benchmarks compare with (dx12kit_bench.record_raw) and dx12kit's C++
    loop (record_core) record the same work as draw_many: the same pixels."""
    bench = pytest.importorskip("dx12kit_bench", reason="needs the benchmark module dx12kit_bench (not in a product-only install)")
    c = band_constants()

    def first_then(fn):
        def record(cl):
            cl.set_constants(0, c[0])
            cl.draw(6)  # dx12kit settles states and bindings; the raw calls follow on the same list
            fn(cl)
        return record

    want = expected_bands()
    np.testing.assert_array_equal(render(device, queue, bands, first_then(lambda cl: bench.record_raw(cl, "draw", c, 0, 6))), want)
    np.testing.assert_array_equal(render(device, queue, bands, first_then(lambda cl: bench.record_core(cl, "draw", c, 0, 6))), want)
