"""Parallel recording: threads that record separate command lists with the batched calls
(draw_many, dispatch_many, resource_barriers) run them without the GIL, so they overlap; each list
must come out exactly as if recorded alone. Real numbers read back, not timings
(benchmarks/bench_parallel_recording.py measures the overlap)."""
from __future__ import annotations

import sys
import threading
import time

import numpy as np
import pytest

import dx12kit as dx

ROWS = 512     # past the batched calls' GIL-free threshold (64 rows)
ROUNDS = 3

WRITE_CS = """
cbuffer C : register(b0) { uint4 v; };
RWStructuredBuffer<uint> outbuf : register(u0);
[numthreads(1, 1, 1)] void main() { outbuf[v.x] = v.y; }
"""
# Draw i fills column v.x of the target with colour (v.y, v.z, 0, 255) / 255.
COLUMN_VS = """
cbuffer C : register(b0) { uint4 v; };
float4 main(uint id : SV_VertexID) : SV_Position {
    float u = (id == 1 || id == 3 || id == 4) ? 1.0 : 0.0;
    float w = (id == 2 || id == 4 || id == 5) ? 1.0 : 0.0;
    float x0 = -1.0 + 2.0 * v.x / 64.0;
    return float4(x0 + u * (2.0 / 64.0), w * 2.0 - 1.0, 0, 1);
}
"""
COLUMN_PS = """
cbuffer C : register(b0) { uint4 v; };
float4 main() : SV_Target { return float4(v.y / 255.0, v.z / 255.0, 0, 1); }
"""
W, H = 64, 4


def run_threads(n, body):
    """Runs body(t) on n threads started together; re-raises the first error."""
    errors = []
    start = threading.Barrier(n)

    def wrap(t):
        try:
            start.wait()
            body(t)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            errors.append(e)

    ts = [threading.Thread(target=wrap, args=(t,)) for t in range(n)]
    for th in ts:
        th.start()
    for th in ts:
        th.join(60)
    assert not any(th.is_alive() for th in ts), "a recording thread did not finish"
    if errors:
        raise errors[0]


@pytest.fixture(scope="module")
def writer(device):
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(WRITE_CS, profile="cs_5_0"), rs)


@pytest.fixture(scope="module")
def columns(device):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    return device.create_graphics_pipeline(dx.compile_hlsl(COLUMN_VS, profile="vs_5_0"), dx.compile_hlsl(COLUMN_PS, profile="ps_5_0"), rs,
                                           rtv_formats=["rgba8_unorm"])


@pytest.mark.parametrize("kind", ["direct", "compute"])
def test_two_threads_record_and_execute_batched_dispatches(device, writer, kind):
    q = device.queue(kind)
    outs = [device.create_buffer(4 * ROWS, uav=True, name=f"out {t}") for t in range(2)]
    want = {}

    def body(t):
        for r in range(ROUNDS):
            consts = np.zeros((ROWS, 4), np.uint32)
            consts[:, 0] = np.arange(ROWS)
            consts[:, 1] = 1_000_000 * (t + 1) + 1000 * r + np.arange(ROWS) * 3
            cl = q.command_list(name=f"thread {t} round {r}")
            cl.auto_uav_barriers = False  # each row its own slot
            cl.set_pipeline_state(writer)
            cl.set_root_uav(1, outs[t])
            cl.dispatch_many((1, 1, 1), consts)
            consts[:] = 0  # the call took its own copy: changing the array afterwards changes nothing
            q.wait(q.execute(cl))
            want[(t, r)] = 1_000_000 * (t + 1) + 1000 * r + np.arange(ROWS) * 3
            np.testing.assert_array_equal(q.read_buffer(outs[t], dtype=np.uint32), want[(t, r)])

    run_threads(2, body)
    assert len(want) == 2 * ROUNDS


def test_two_threads_draw_many_into_their_own_targets(device, queue, columns):
    rts = [device.create_texture2d(W, H, "rgba8_unorm", render_target=True, name=f"target {t}") for t in range(2)]
    results = {}

    def constants(t, r):
        c = np.zeros((ROWS, 4), np.uint32)
        c[:, 0] = np.arange(ROWS) % W          # rows 64.. draw the columns again: the last one wins
        c[:, 1] = (np.arange(ROWS) * 3 + 40 * t + r) % 256
        c[:, 2] = 100 * t + r
        return c

    def body(t):
        for r in range(ROUNDS):
            cl = queue.command_list()
            cl.set_pipeline_state(columns)
            cl.set_render_targets([rts[t]])
            cl.clear_render_target(rts[t], [0, 0, 0, 0])
            cl.draw_many(6, constants(t, r))
            queue.execute(cl)
            results[(t, r)] = queue.read_texture(rts[t])

    run_threads(2, body)
    for (t, r), img in results.items():
        c = constants(t, r)[ROWS - W:]      # the last draw of each column
        want = np.zeros((H, W, 4), np.uint8)
        want[:, c[:, 0], 0] = c[:, 1]
        want[:, c[:, 0], 1] = c[:, 2]
        want[:, :, 3] = 255
        np.testing.assert_array_equal(img, want, err_msg=f"thread {t} round {r}")


def test_threads_recording_one_list_take_turns(device, queue, writer):
    # Two threads batch-record into the same list: the recording lock lets one call in at a time, so
    # each call's rows land whole; the buffer holds whichever call came last for every slot.
    out = device.create_buffer(4 * ROWS, uav=True)
    cl = queue.command_list()
    cl.auto_uav_barriers = False
    cl.set_pipeline_state(writer)
    cl.set_root_uav(1, out)

    def body(t):
        for r in range(ROUNDS):
            consts = np.zeros((ROWS, 4), np.uint32)
            consts[:, 0] = np.arange(ROWS)
            consts[:, 1] = 10_000 * (t + 1) + r
            cl.dispatch_many((1, 1, 1), consts)

    run_threads(2, body)
    queue.execute(cl)
    got = queue.read_buffer(out, dtype=np.uint32)
    assert len(set(got.tolist())) == 1, "a batch was interleaved with another"
    assert got[0] in {10_000 * (t + 1) + ROUNDS - 1 for t in range(2)}


def test_resource_barriers_batch_from_two_threads(device):
    # 64+ transitions recorded without the GIL on two threads, each on its own buffers; then the copies
    # that follow must see the states the batch left (the tracker's view of each list is its own).
    q = device.queue("direct")
    n = 80
    bufs = [[device.create_buffer(256, name=f"b{t}.{i}") for i in range(n)] for t in range(2)]
    dsts = [device.create_buffer(256 * n, name=f"dst {t}") for t in range(2)]
    for t in range(2):
        for i, b in enumerate(bufs[t]):
            q.write_buffer(b, np.full(64, 1000 * t + i, np.uint32))

    def body(t):
        batch = dx.BarrierBatch([("transition", b, "copy_source") for b in bufs[t]])
        cl = q.command_list()
        cl.resource_barriers(batch)
        for i, b in enumerate(bufs[t]):
            cl.copy_buffer_region(dsts[t], 256 * i, b, 0, 256)
        q.wait(q.execute(cl))

    run_threads(2, body)
    for t in range(2):
        got = q.read_buffer(dsts[t], dtype=np.uint32).reshape(n, 64)
        np.testing.assert_array_equal(got, np.repeat((1000 * t + np.arange(n))[:, None], 64, axis=1).astype(np.uint32))


@pytest.mark.parametrize("call", ["draw_many", "draw_indexed_many", "dispatch_many", "resource_barriers", "upload"])
def test_long_recording_calls_let_other_threads_run(device, queue, writer, columns, call):
    # While a long batched call records, another Python thread runs (the call does not hold the GIL).
    # With the GIL held the other thread cannot take one step meanwhile: the switch interval is set
    # far beyond the call, so the interpreter never forces the GIL away, and the helper gives it up
    # only in sleep(0). Tried again (up to 5 s) while the helper made no step: on a loaded machine it may not
    # be scheduled within one call.
    bufs = [device.create_buffer(256, name=f"b{i}") for i in range(64)]
    big = device.create_buffer(8 << 20, uav=True, name="big")
    rows = np.zeros((100_000, 4), np.uint32)
    batch = dx.BarrierBatch([("transition", bufs[i % 64], "copy_source" if (i // 64) % 2 else "copy_dest") for i in range(8192)])
    indices = device.create_buffer(24, name="indices")
    queue.wait(queue.write_buffer(indices, np.arange(6, dtype=np.uint32)))
    data = np.ones(240 << 10, np.uint32)  # 960 KiB: below the old 1 MiB threshold, above 64 KiB

    def record():
        cl = queue.command_list()
        if call in ("draw_many", "draw_indexed_many"):
            rt = device.create_texture2d(W, H, "rgba8_unorm", render_target=True)
            cl.set_pipeline_state(columns)
            cl.set_render_targets([rt])
            if call == "draw_many":
                return lambda: cl.draw_many(6, rows)
            cl.set_index_buffer(indices)
            return lambda: cl.draw_indexed_many(6, rows)
        if call == "dispatch_many":
            cl.auto_uav_barriers = False
            cl.set_pipeline_state(writer)
            cl.set_root_uav(1, big)
            return lambda: cl.dispatch_many((1, 1, 1), rows)
        if call == "resource_barriers":
            return lambda: cl.resource_barriers(batch)
        return lambda: cl.upload(big, data)

    steps = [0]
    running = [True]

    def helper():
        while running[0]:
            steps[0] += 1
            time.sleep(0)

    old = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    th = threading.Thread(target=helper)
    try:
        th.start()
        moved = 0
        give_up = time.monotonic() + 5.0
        while time.monotonic() < give_up:
            fn = record()
            while steps[0] == 0:
                time.sleep(0)
            before = steps[0]
            fn()
            moved = steps[0] - before
            if moved:
                break
    finally:
        running[0] = False
        sys.setswitchinterval(old)
        th.join(10)
    assert moved > 0, f"{call} kept the GIL: no other thread ran while it recorded"
