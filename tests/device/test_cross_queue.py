"""Cross-queue hazards handled like states (D3D12Rules.hpp rule 7, CommandQueue.hpp).

A list executed on one queue that uses a resource which unfinished work on another queue writes (or
reads, where the list writes it) gets a GPU wait on that queue's fence before it runs, without the
user's wait_for. lavapipe runs every queue's work in submission order (one Vulkan queue), so the
numbers come out right with or without the wait: the waits are checked through CommandQueue.stats().

Deterministic on a loaded machine: the producer's work is queued behind a long dispatch, and a test
asserts "exactly one wait" only when the producer was still unfinished just before the consumer's
execute (completion never goes back, so it was unfinished at that execute's check). Otherwise the
round repeats with a longer hold. (Not "after the execute": on vkd3d 1.2 over lavapipe, a GPU wait
on a value not reached yet blocks the submitting thread until it is reached, so after the execute
the producer has finished.)"""
from __future__ import annotations

import threading

import numpy as np
import pytest

import dx12kit as dx

from .shaders import FULLSCREEN_POS_VS, LONG_CS

N = 1024
HOLDS = (100, 400, 1600, 6400)   # groups of LONG_CS (~0.9 ms each here)

FILL_CS = """
cbuffer C : register(b0) { uint value; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = value + id.x; }
"""
DOUBLE_CS = """
StructuredBuffer<uint> src : register(t0);
RWStructuredBuffer<uint> dst : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = src[id.x] * 2u; }
"""
READ_PS = """
StructuredBuffer<uint> src : register(t0);
float4 main(float4 pos : SV_Position) : SV_Target {
    return float4((float)src[(uint)pos.x + 32u * (uint)pos.y], 0, 0, 1);
}
"""


@pytest.fixture(scope="module", params=[True, False], ids=["lazy", "every_execute"])
def dev(request):
    d = dx.Device(lazy_fence_signals=request.param)
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def psos(dev):
    fill_rs = dev.create_root_signature([dx.RootConstants(0, 1), dx.RootUAV(0)])
    double_rs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    long_rs = dev.create_root_signature([dx.RootUAV(0)])
    return {
        "fill": dev.create_compute_pipeline(dx.compile_hlsl(FILL_CS, profile="cs_5_0"), fill_rs),
        "double": dev.create_compute_pipeline(dx.compile_hlsl(DOUBLE_CS, profile="cs_5_0"), double_rs),
        "long": dev.create_compute_pipeline(dx.compile_hlsl(LONG_CS, profile="cs_5_0"), long_rs),
        "scratch": dev.create_buffer(256, uav=True, name="hold scratch"),
    }


def new_buffer(dev, name):
    """A UAV buffer already zero-initialised (dx12kit's own zeroing is not part of what is counted)."""
    b = dev.create_buffer(N * 4, uav=True, name=name)
    q = dev.queue("direct")
    q.wait(q.execute(q.command_list()))
    return b


def hold(dev, psos, q, groups):
    """Keeps queue `q` (direct or compute) busy for about groups x 0.9 ms; returns the fence value."""
    scratch = dev.create_buffer(256, uav=True, name="hold")
    cl = q.command_list()
    cl.set_pipeline_state(psos["long"])
    cl.set_root_uav(0, scratch)
    cl.dispatch(groups)
    return q.execute(cl)


def _append_hold(cl, psos, groups):
    """A long dispatch on a scratch buffer after the list's own work: the list's fence value, which
    the cross-queue rule waits for, then completes only after it."""
    if groups:
        cl.set_pipeline_state(psos["long"])
        cl.set_root_uav(0, psos["scratch"])
        cl.dispatch(groups)


def record_fill(q, psos, buf, value, hold=0):
    cl = q.command_list(name=f"fill {value}")
    cl.set_pipeline_state(psos["fill"])
    cl.set_constants(0, [value])
    cl.set_root_uav(1, buf)
    cl.dispatch(N // 64)
    _append_hold(cl, psos, hold)
    return cl


def fill(q, psos, buf, value, hold=0):
    return q.execute(record_fill(q, psos, buf, value, hold))


def record_double(q, psos, src, dst, hold=0):
    """Recorded before the producer runs where a test needs the producer unfinished at the execute:
    on Mesa 25 lavapipe (Debian 13) recording a root SRV/UAV waits for the running GPU work (vkd3d 1.2
    creates a Vulkan buffer view for it; lavapipe creates one under its queue lock, which its queue
    thread holds while it executes; scripts/probes/execute_blocks_behind_gpu.py). Executes do not wait."""
    cl = q.command_list(name="double")
    cl.set_pipeline_state(psos["double"])
    cl.set_root_srv(0, src)
    cl.set_root_uav(1, dst)
    cl.dispatch(N // 64)
    _append_hold(cl, psos, hold)
    return cl


def double(q, psos, src, dst, hold=0):
    return q.execute(record_double(q, psos, src, dst, hold))


def delta(after, before):
    out = {k: after[k] - before[k] for k in ("cross_queue_waits", "cross_queue_completed", "cross_queue_already_waited")}
    out.update({"on_" + k: v - before["cross_queue_waits_on"][k] for k, v in after["cross_queue_waits_on"].items()})
    return out


def expected(value):
    return value + np.arange(N, dtype=np.uint32)


def unfinished(q, value):
    """Whether `value` of queue `q` has not completed (read just before the consumer's execute: it was
    not complete at that execute's check either, which comes later)."""
    return q.completed_value < value


def require_held(held):
    """Fails when even the longest hold (about 6 s) did not keep the producer unfinished until the
    consumer's execute. Consumers are recorded before the producer runs (see record_double)."""
    assert held, "the producer was complete before the consumer's execute even behind the longest hold"


def expect_one_wait(d, on):
    """One GPU wait inserted on queue `on`, and no dependency found complete."""
    assert d["cross_queue_waits"] == 1 and d["on_" + on] == 1 and d["cross_queue_completed"] == 0, d


def held_round(run):
    """Runs `run(groups)` -> (held, result) with longer holds until the producer was still
    unfinished just before the consumer's execute; returns (result, held)."""
    result = None
    for groups in HOLDS:
        held, result = run(groups)
        if held:
            return result, True
    return result, False


def test_compute_producer_direct_dispatch_consumer_without_wait_for(dev, psos):
    direct, comp = dev.queue("direct"), dev.queue("compute")
    src, dst = new_buffer(dev, "src"), new_buffer(dev, "dst")

    def run(groups):
        consumer = record_double(direct, psos, src, dst)
        p = fill(comp, psos, src, 1000 + groups, hold=groups)
        held = unfinished(comp, p)
        before = direct.stats()
        v = direct.execute(consumer)   # no wait_for
        d = delta(direct.stats(), before)
        direct.wait(v)
        return held, (d, groups)

    (d, groups), held = held_round(run)
    assert held, "the compute queue finished a long hold before the next execute"
    expect_one_wait(d, "compute")
    assert d["on_copy"] == 0 and d["cross_queue_already_waited"] == 0
    np.testing.assert_array_equal(direct.read_buffer(dst, np.uint32), expected(1000 + groups) * 2)
    np.testing.assert_array_equal(direct.read_buffer(src, np.uint32), expected(1000 + groups))


def test_compute_producer_direct_draw_consumer(dev, psos):
    direct, comp = dev.queue("direct"), dev.queue("compute")
    rs = dev.create_root_signature([dx.RootSRV(0, visibility="pixel")])
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0"),
                                       dx.compile_hlsl(READ_PS, profile="ps_5_0"), rs, rtv_formats=["r32_float"])
    src = new_buffer(dev, "drawn")
    rt = dev.create_texture2d(32, 32, "r32_float", render_target=True, name="rt")

    def run(groups):
        cl = direct.command_list(name="draw")
        cl.set_pipeline_state(pso)
        cl.set_render_targets([rt])
        cl.set_root_srv(0, src)
        cl.draw(3)
        p = fill(comp, psos, src, groups, hold=groups)
        held = unfinished(comp, p)
        before = direct.stats()
        direct.execute(cl)
        return held, (delta(direct.stats(), before), groups)

    (d, groups), held = held_round(run)
    require_held(held)
    expect_one_wait(d, "compute")
    img = direct.read_texture(rt)[..., 0]
    np.testing.assert_array_equal(img.reshape(-1), expected(groups).astype(np.float32))


def test_use_after_completion_or_second_use_inserts_no_new_wait(dev, psos):
    direct, comp = dev.queue("direct"), dev.queue("compute")
    src, a, b = new_buffer(dev, "src2"), new_buffer(dev, "a"), new_buffer(dev, "b")
    hold(dev, psos, comp, HOLDS[0])
    p = fill(comp, psos, src, 7)
    direct.wait(double(direct, psos, src, a))   # waits on the GPU (or finds it complete)
    before = direct.stats()
    direct.wait(double(direct, psos, src, b))   # the same dependency again: already waited or complete
    d = delta(direct.stats(), before)
    assert d["cross_queue_waits"] == 0
    assert d["cross_queue_completed"] + d["cross_queue_already_waited"] == 1
    comp.wait(p)
    before = direct.stats()
    direct.wait(double(direct, psos, src, b))
    assert delta(direct.stats(), before)["cross_queue_waits"] == 0
    np.testing.assert_array_equal(direct.read_buffer(b, np.uint32), expected(7) * 2)


def test_work_complete_at_execute_is_not_waited_for(dev, psos):
    direct, comp = dev.queue("direct"), dev.queue("compute")
    src, dst = new_buffer(dev, "done"), new_buffer(dev, "dst3")
    comp.wait(fill(comp, psos, src, 3))
    before = direct.stats()
    direct.wait(double(direct, psos, src, dst))
    d = delta(direct.stats(), before)
    assert d["cross_queue_waits"] == 0 and d["cross_queue_completed"] + d["cross_queue_already_waited"] == 1
    np.testing.assert_array_equal(direct.read_buffer(dst, np.uint32), expected(3) * 2)


def test_write_after_read_waits_for_the_reading_queue(dev, psos):
    """The direct queue reads `src` (held behind a long dispatch); the compute queue then overwrites
    it: the compute queue waits for the direct queue's read."""
    direct, comp = dev.queue("direct"), dev.queue("compute")
    src, dst = new_buffer(dev, "war"), new_buffer(dev, "war_dst")

    def run(groups):
        direct.wait(fill(direct, psos, src, 5))   # each round: 5 + i, read, then overwritten
        writer = record_fill(comp, psos, src, 9)
        r = double(direct, psos, src, dst, hold=groups)        # reads src (5 + i)
        held = unfinished(direct, r)
        before = comp.stats()
        w = comp.execute(writer)             # overwrites it: must wait for the read
        d = delta(comp.stats(), before)
        comp.wait(w)
        return held, d

    d, held = held_round(run)
    require_held(held)
    expect_one_wait(d, "direct")
    assert d["on_copy"] == 0 and d["cross_queue_already_waited"] == 0
    direct.flush()
    np.testing.assert_array_equal(direct.read_buffer(dst, np.uint32), expected(5) * 2)
    np.testing.assert_array_equal(direct.read_buffer(src, np.uint32), expected(9))


def test_reads_on_two_queues_do_not_wait_for_each_other(dev, psos):
    direct, comp = dev.queue("direct"), dev.queue("compute")
    src, a, b = new_buffer(dev, "shared"), new_buffer(dev, "ra"), new_buffer(dev, "rb")
    direct.wait(fill(direct, psos, src, 11))
    hold(dev, psos, direct, HOLDS[0])
    double(direct, psos, src, a)
    before = comp.stats()
    comp.wait(double(comp, psos, src, b))   # a read after a read: no wait for the held read
    d = delta(comp.stats(), before)
    assert d["cross_queue_waits"] == 0 and d["on_direct"] == 0
    # The one dependency is on the fill, complete (or waited for by an earlier test's execute).
    assert d["cross_queue_completed"] + d["cross_queue_already_waited"] == 1
    direct.flush()
    np.testing.assert_array_equal(direct.read_buffer(a, np.uint32), expected(11) * 2)
    np.testing.assert_array_equal(direct.read_buffer(b, np.uint32), expected(11) * 2)


def test_copy_queue_producer_and_consumer(dev, psos):
    """Copy queue as producer (held through a wait_for on a held compute queue) and as consumer."""
    direct, comp, copy = dev.queue("direct"), dev.queue("compute"), dev.queue("copy")
    staging, src, dst, out = (new_buffer(dev, n) for n in ("staging", "copied", "dst4", "out4"))
    direct.wait(fill(direct, psos, staging, 21))

    def run(groups):
        consumer = record_double(direct, psos, src, dst)
        cl = copy.command_list(name="copy")
        cl.copy_buffer_region(src, 0, staging, 0, N * 4)
        hold(dev, psos, comp, groups)          # the copy runs after it here (one Vulkan queue)
        c = copy.execute(cl)
        held = unfinished(copy, c)
        before = direct.stats()
        v = direct.execute(consumer)   # reads what the copy queue writes
        d = delta(direct.stats(), before)
        direct.wait(v)
        return held, d

    d, held = held_round(run)
    require_held(held)
    expect_one_wait(d, "copy")
    assert d["on_compute"] == 0
    np.testing.assert_array_equal(direct.read_buffer(dst, np.uint32), expected(21) * 2)

    # Consumer: the copy queue reads what the compute queue writes.
    def run2(groups):
        p = fill(comp, psos, src, 31, hold=groups)
        held = unfinished(comp, p)
        before = copy.stats()
        cl = copy.command_list(name="copy back")
        cl.copy_buffer_region(out, 0, src, 0, N * 4)
        v = copy.execute(cl)
        d = delta(copy.stats(), before)
        copy.wait(v)
        return held, d

    d, held = held_round(run2)
    require_held(held)
    expect_one_wait(d, "compute")
    assert d["on_direct"] == 0
    np.testing.assert_array_equal(direct.read_buffer(out, np.uint32), expected(31))


def test_explicit_wait_for_keeps_working_and_is_not_doubled(dev, psos):
    direct, comp = dev.queue("direct"), dev.queue("compute")
    src, dst = new_buffer(dev, "explicit"), new_buffer(dev, "dst5")

    def run(groups):
        consumer = record_double(direct, psos, src, dst)
        p = fill(comp, psos, src, 41, hold=groups)
        held = unfinished(comp, p)
        before = direct.stats()
        direct.wait_for(comp, p)
        v = direct.execute(consumer)
        d = delta(direct.stats(), before)
        direct.wait(v)
        return held, d

    d, held = held_round(run)
    require_held(held)
    assert d == {"cross_queue_waits": 0, "on_compute": 0, "on_copy": 0, "cross_queue_completed": 0, "cross_queue_already_waited": 1}
    np.testing.assert_array_equal(direct.read_buffer(dst, np.uint32), expected(41) * 2)


def test_transition_on_another_queue_waits_for_the_reader(dev, psos):
    """A texture the copy queue reads (COPY_SOURCE) and the direct queue then clears as a render
    target: the transition is a write, so the direct queue waits for the copy queue's read."""
    direct, comp, copy = dev.queue("direct"), dev.queue("compute"), dev.queue("copy")
    t = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="tex")
    first = dev.create_texture2d(8, 8, "rgba8_unorm", name="first copy")

    def run(groups):
        # Each round: red, left in COPY_SOURCE on the direct queue (so the copy queue needs no
        # transition of its own), copied on the copy queue behind a hold, then cleared green.
        cl = direct.command_list()
        cl.clear_render_target(t, [1, 0, 0, 1])
        cl.copy_resource(first, t)
        direct.wait(direct.execute(cl))
        out = dev.create_texture2d(8, 8, "rgba8_unorm", name="copy of tex")
        c = copy.command_list(name="copy tex")
        c.copy_resource(out, t)
        clear = direct.command_list(name="clear")
        clear.clear_render_target(t, [0, 1, 0, 1])
        hold(dev, psos, comp, groups)
        v = copy.execute(c)
        assert copy.last_direct_queue_barriers == []
        held = unfinished(copy, v)
        before = direct.stats()
        direct.wait(direct.execute(clear))
        d = delta(direct.stats(), before)
        # The copy can still complete between that read and the execute's own check (seen under
        # AddressSanitizer): that round says nothing about the wait, so a longer hold is tried.
        return held and d["cross_queue_completed"] == 0, (d, out)

    (d, out), held = held_round(run)
    require_held(held)
    expect_one_wait(d, "copy")
    assert (direct.read_texture(out) == np.array([255, 0, 0, 255], np.uint8)).all()
    assert (direct.read_texture(t) == np.array([0, 255, 0, 255], np.uint8)).all()


def test_two_producer_threads_and_their_consumers(dev, psos):
    """Two threads, one producing on the compute queue, one on the copy queue, each consuming on the
    direct queue without wait_for: every number right, and every consumer execute found exactly one
    dependency (waited for, complete, or already waited)."""
    direct, comp, copy = dev.queue("direct"), dev.queue("compute"), dev.queue("copy")
    rounds = 12
    staging = new_buffer(dev, "staging6")
    direct.wait(fill(direct, psos, staging, 100))
    bufs = {k: [(new_buffer(dev, f"{k}src{i}"), new_buffer(dev, f"{k}dst{i}")) for i in range(rounds)] for k in ("compute", "copy")}
    before = direct.stats()
    errors = []

    def producer(kind):
        try:
            for i, (src, dst) in enumerate(bufs[kind]):
                if kind == "compute":
                    fill(comp, psos, src, 1000 * i)
                else:
                    cl = copy.command_list()
                    cl.copy_buffer_region(src, 0, staging, 0, N * 4)
                    copy.execute(cl)
                double(direct, psos, src, dst)
        except Exception as e:  # pragma: no cover (reported below)
            errors.append(e)

    threads = [threading.Thread(target=producer, args=(k,)) for k in ("compute", "copy")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    direct.flush()
    d = delta(direct.stats(), before)
    assert d["cross_queue_waits"] + d["cross_queue_completed"] + d["cross_queue_already_waited"] == 2 * rounds
    assert d["cross_queue_waits"] == d["on_compute"] + d["on_copy"]
    for i, (_, dst) in enumerate(bufs["compute"]):
        np.testing.assert_array_equal(direct.read_buffer(dst, np.uint32), expected(1000 * i) * 2)
    for _, dst in bufs["copy"]:
        np.testing.assert_array_equal(direct.read_buffer(dst, np.uint32), expected(100) * 2)

