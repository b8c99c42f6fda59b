"""Queues as D3D12 has them: execute never waits for the GPU (docs/guides/threads.rst, QueueSubmitter.hpp).

vkd3d 1.2 blocks the thread that issues a GPU wait on a fence value not reached yet. dx12kit hands such a
wait, and every later op of that queue until it has caught up, to the queue's submission thread. Checked
here with real work and real numbers: a compute/direct ping-pong whose executes return while the GPU work
they depend on is still running (the other queue's completed value is read right after the execute), the
order of fence values and of the work they mark, a failure of a queued op reaching the caller typed and
named, and real threads submitting to one queue while it is behind."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import dx12kit as dx

from .shaders import LONG_CS

# dst = dst * 3 + k (+ t): the order of the steps shows in the result (no two orders give the same value).
STEP_CS = """
cbuffer C : register(b0) { uint k; };
RWStructuredBuffer<uint> src : register(u0);
RWStructuredBuffer<uint> dst : register(u1);
[numthreads(64, 1, 1)] void main(uint3 t : SV_DispatchThreadID) { dst[t.x] = src[t.x] * 3u + k + t.x; }
"""
ACC_CS = """
cbuffer C : register(b0) { uint k; };
RWStructuredBuffer<uint> acc : register(u0);
[numthreads(64, 1, 1)] void main(uint3 t : SV_DispatchThreadID) { acc[t.x] = acc[t.x] * 3u + k; }
"""
E_FAIL = -2147467259  # 0x80004005

# The lists are recorded before the executes they are timed against. On Debian 13 (Mesa 25's lavapipe), vkd3d
# 1.2 creates and destroys Vulkan buffer views while recording (root UAVs) and resetting allocators, and
# lavapipe takes its queue lock for those, the lock it holds while it runs submitted work: recording then
# waits until the GPU work being run is done (docs/guides/threads.rst). Execute itself does not.


@pytest.fixture(scope="module")
def dev():
    d = dx.Device()
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def psos(dev):
    return {
        "step": dev.create_compute_pipeline(dx.compile_hlsl(STEP_CS, profile="cs_5_0"),
                                            dev.create_root_signature([dx.RootConstants(0, 1), dx.RootUAV(0), dx.RootUAV(1)])),
        "acc": dev.create_compute_pipeline(dx.compile_hlsl(ACC_CS, profile="cs_5_0"),
                                           dev.create_root_signature([dx.RootConstants(0, 1), dx.RootUAV(0)])),
        "long": dev.create_compute_pipeline(dx.compile_hlsl(LONG_CS, profile="cs_5_0"), dev.create_root_signature([dx.RootUAV(0)])),
        "scratch": dev.create_buffer(256, uav=True, name="hold scratch"),
    }


def hold(cl, psos, groups):
    cl.set_pipeline_state(psos["long"])
    cl.set_root_uav(0, psos["scratch"])
    cl.dispatch(groups)


def step(cl, psos, k, src, dst):
    cl.set_pipeline_state(psos["step"])
    cl.set_constants(0, [k])
    cl.set_root_uav(1, src)
    cl.set_root_uav(2, dst)
    cl.dispatch(1)


def zeros(dev, name):
    b = dev.create_buffer(256, uav=True, name=name)
    q = dev.queue("direct")
    q.wait(q.write_buffer(b, np.zeros(64, np.uint32)))
    return b


def groups_for(dev, psos, seconds):
    """Groups of LONG_CS that keep the compute queue busy for about `seconds` (measured now)."""
    cq = dev.queue("compute")
    cl = cq.command_list()
    hold(cl, psos, 4)
    t = time.perf_counter()
    cq.wait(cq.execute(cl))
    return max(4, round(seconds / ((time.perf_counter() - t) / 4)))


def ping_pong_expected(rounds):
    a = np.zeros(64, np.uint64)
    t = np.arange(64, dtype=np.uint64)
    for r in range(rounds):
        b = (a * 3 + (2 * r + 1) + t) % (1 << 32)
        a = (b * 3 + (2 * r + 2) + t) % (1 << 32)
    return a.astype(np.uint32), b.astype(np.uint32)


def test_ping_pong_executes_return_while_the_gpu_work_they_wait_for_runs(dev, psos):
    cq, dq = dev.queue("compute"), dev.queue("direct")
    a, b = zeros(dev, "a"), zeros(dev, "b")
    groups = groups_for(dev, psos, 0.4)   # long enough that no scheduling hiccup outlasts it (Debian 13's lavapipe)
    rounds = 3
    returned_early = 0
    execute_s, t0 = 0.0, time.perf_counter()
    for r in range(rounds):
        cl = cq.command_list()
        hold(cl, psos, groups)              # compute is busy for ~400 ms per round
        step(cl, psos, 2 * r + 1, a, b)     # then writes b from a (after direct's previous round)
        dl = dq.command_list()
        step(dl, psos, 2 * r + 2, b, a)     # direct reads b: waits on the GPU for cv
        t = time.perf_counter()
        cv = cq.execute(cl)
        dv = dq.execute(dl)
        execute_s += time.perf_counter() - t
        # Read right after the execute returned: the compute work it must follow had not finished.
        returned_early += cq.completed_value < cv
    total_wait = time.perf_counter()
    dq.wait(dv)
    gpu_s = time.perf_counter() - t0
    want_a, want_b = ping_pong_expected(rounds)
    np.testing.assert_array_equal(dq.read_buffer(a, dtype=np.uint32), want_a)
    np.testing.assert_array_equal(dq.read_buffer(b, dtype=np.uint32), want_b)
    assert returned_early == rounds, f"{rounds - returned_early} direct execute(s) returned only after the compute work they follow"
    assert execute_s < 0.5 * gpu_s, f"executes took {execute_s * 1e3:.0f} ms of the run's {gpu_s * 1e3:.0f} ms"
    assert time.perf_counter() - total_wait > 0  # the GPU time was spent in the wait, not in execute
    assert dq.submission_stats()["thread_waits"] >= 1


def test_an_execute_that_inserts_transitions_returns_while_earlier_gpu_work_runs(dev, psos):
    # The transitions resolved at execute go into small lists that execute records itself. Their command
    # allocators come from a pool of their own: vkd3d 1.2 makes a Vulkan buffer view for every root UAV a
    # list sets and destroys it when that list's allocator is reset, and Mesa 25's lavapipe (Debian 13)
    # waits for its queue lock there, which it holds while it runs submitted work. An allocator of the
    # user's lists, reset inside execute, made execute wait until the compute work had run.
    cq, dq = dev.queue("compute"), dev.queue("direct")
    x, y = zeros(dev, "x"), zeros(dev, "y")
    tex = dev.create_texture2d(8, 8, "rgba8_unorm", name="transitioned")
    for k in range(6):                      # direct's pool: allocators that held root UAV views
        dl = dq.command_list()
        step(dl, psos, k, x, y)
        dq.execute(dl)
    dq.flush()
    dq.command_list()                       # (publishes the finished allocators to the pool)
    groups = groups_for(dev, psos, 0.6)
    scratch = zeros(dev, "own scratch")     # compute's hold writes a buffer direct does not use
    cl = cq.command_list()
    cl.set_pipeline_state(psos["long"])
    cl.set_root_uav(0, scratch)
    cl.dispatch(groups)
    dl = dq.command_list()
    dl.transition_barrier(tex, "copy_source")   # resolved against the global state at execute
    dl.transition_barrier(tex, "common")
    cv = cq.execute(cl)
    time.sleep(0.1)                         # lavapipe is running the compute work now
    t = time.perf_counter()
    dq.execute(dl)
    took = time.perf_counter() - t
    running = cq.completed_value < cv
    assert dq.last_inserted_barriers, "execute inserted no transition (the test needs one)"
    assert running and took < 0.25, f"execute took {took * 1e3:.0f} ms; the compute work it does not follow was {'still running' if running else 'done'}"
    cq.wait(cv)


def test_fence_values_and_the_work_they_mark_keep_the_submission_order(dev, psos):
    # Direct falls behind a wait on compute's long work; meanwhile execute, write_buffer, wait_for and
    # flush on it are queued behind that wait. Values are assigned at the call, one by one, and the
    # buffer shows the steps ran in exactly that order.
    cq, dq = dev.queue("compute"), dev.queue("direct")
    src, acc = zeros(dev, "src"), zeros(dev, "acc")
    groups = groups_for(dev, psos, 0.1)
    cl = cq.command_list()
    hold(cl, psos, groups)
    step(cl, psos, 5, src, src)                   # compute writes src ...
    cv = cq.execute(cl)
    values = []
    dl = dq.command_list()
    step(dl, psos, 1, src, acc)                   # ... direct reads it: a wait on compute, then queued ops
    values.append(dq.execute(dl))
    assert dq.submission_stats()["busy"] or cq.completed_value >= cv
    want = (np.arange(64) + 5) * 3 + 1 + np.arange(64)
    for k in range(2, 6):
        dl = dq.command_list()
        dl.set_pipeline_state(psos["acc"])
        dl.set_constants(0, [k])
        dl.set_root_uav(1, acc)
        dl.dispatch(1)
        values.append(dq.execute(dl))
        want = want * 3 + k
    dq.wait_for(cq, cv)                            # a wait already made: nothing new, order kept
    values.append(dq.write_buffer(src, np.full(64, 7, np.uint32)))
    flushed = dq.flush()
    # write_buffer goes behind the queued lists unless nothing pending uses the buffer and it lives in
    # CPU-visible memory (uma_direct): then the CPU writes it at once and returns a value already reached.
    written = values.pop()
    assert values == list(range(values[0], values[0] + len(values))), values
    assert written == values[-1] + 1 or (written <= values[-1] and dq.completed_value >= written), (values, written)
    assert flushed > values[-1]
    assert dq.completed_value >= flushed
    np.testing.assert_array_equal(dq.read_buffer(acc, dtype=np.uint32), (want % (1 << 32)).astype(np.uint32))
    np.testing.assert_array_equal(dq.read_buffer(src, dtype=np.uint32), np.full(64, 7, np.uint32))


def test_a_failed_queued_op_is_raised_typed_and_named_by_the_next_call_and_waits(dev, psos):
    cq, dq = dev.queue("compute"), dev.queue("direct")
    src, dst = zeros(dev, "src"), zeros(dev, "dst")
    # The direct list's GPU wait must find the compute work still running, so that it is queued (where the
    # failure is injected): a longer hold when the GPU was quicker (Debian 13's lavapipe once was: the
    # earlier skip test read the device's total of queued ops, which other tests had raised, and let the
    # armed failure through unqueued). The injection is disarmed between tries; src is rewritten by each.
    for seconds in (0.05, 0.3, 1.0, 3.0):
        src = zeros(dev, "src")
        groups = groups_for(dev, psos, seconds)
        cl = cq.command_list()
        hold(cl, psos, groups)
        step(cl, psos, 1, src, src)
        dl = dq.command_list()
        step(dl, psos, 2, src, dst)        # waits for compute on the GPU: that wait is queued, and fails
        cv = cq.execute(cl)
        queued = dq.submission_stats()["queued_ops"]
        dq._fail_next_queued_op(E_FAIL)   # the next op handed to direct's submission thread fails
        dv = dq.execute(dl)
        went_to_thread = dq.submission_stats()["queued_ops"] > queued
        if went_to_thread:
            break
        dq._fail_next_queued_op(0)   # disarmed: nothing was queued
        dq.wait(dv)
    assert went_to_thread, "the compute work finished before the direct list's wait, even held for 3 s"
    with pytest.raises(dx.DeviceError) as e:
        dq.wait(dv, timeout=30)        # the wait that observes it raises it, typed and named
    assert "submission thread" in str(e.value) and "'compute'" in str(e.value), str(e.value)
    assert e.value.hresult == E_FAIL
    # Raised once: the queue goes on (the next call and waits work again).
    cq.wait(cv)
    dl = dq.command_list()
    step(dl, psos, 3, src, dst)
    dq.wait(dq.execute(dl), timeout=30)
    np.testing.assert_array_equal(dq.read_buffer(dst, dtype=np.uint32), np.arange(64) * 4 + 6)  # src = 1 + t, dst = src * 3 + 3 + t


def test_a_failed_queued_op_is_raised_by_the_next_call_on_the_queue(dev, psos):
    cq, dq = dev.queue("compute"), dev.queue("direct")
    src, dst = zeros(dev, "src"), zeros(dev, "dst")
    # The direct list's GPU wait must find the compute work still running, so that it goes to the
    # submission thread (where the failure is injected): a longer hold when the GPU was quicker than
    # measured (the injection is disarmed between tries).
    for seconds in (0.05, 0.3, 1.0, 3.0):
        groups = groups_for(dev, psos, seconds)
        cl = cq.command_list()
        hold(cl, psos, groups)
        step(cl, psos, 1, src, src)
        dl = dq.command_list()
        step(dl, psos, 2, src, dst)
        cv = cq.execute(cl)
        queued = dq.submission_stats()["queued_ops"]
        dq._fail_next_queued_op(E_FAIL)
        dq.execute(dl)
        went_to_thread = dq.submission_stats()["queued_ops"] > queued
        if not went_to_thread:
            dq._fail_next_queued_op(0)   # disarmed: nothing was queued
        cq.wait(cv)
        if went_to_thread:
            break
    assert went_to_thread, "the compute work finished before the direct list's wait, even held for 3 s"
    deadline = time.perf_counter() + 30
    while dq.submission_stats()["busy"] and time.perf_counter() < deadline:
        time.sleep(0.01)
    with pytest.raises(dx.DeviceError, match="command_list: an earlier submission on queue 'direct' failed on its submission "
                                              "thread: GPU wait for queue 'compute' to reach fence value"):
        dq.command_list()
    dq.wait(dq.execute(dq.command_list()), timeout=30)   # raised once: the queue goes on


def test_threads_submitting_to_one_queue_behind_a_wait_get_ordered_values(dev, psos):
    cq, dq = dev.queue("compute"), dev.queue("direct")
    src, acc = zeros(dev, "src"), zeros(dev, "acc")
    groups = groups_for(dev, psos, 0.1)
    cl = cq.command_list()
    hold(cl, psos, groups)
    step(cl, psos, 0, src, src)
    cq.execute(cl)
    dl = dq.command_list()
    step(dl, psos, 0, src, acc)                   # direct now waits on compute: later executes are queued
    first = dq.execute(dl)
    done, errors = [], []
    lock = threading.Lock()

    def submit(tid):
        try:
            for i in range(6):
                k = 1 + tid * 100 + i
                l = dq.command_list()
                l.set_pipeline_state(psos["acc"])
                l.set_constants(0, [k])
                l.set_root_uav(1, acc)
                l.dispatch(1)
                v = dq.execute(l)
                with lock:
                    done.append((v, k))
                if i == 3:
                    dq.wait(v, timeout=60)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            errors.append(e)

    ts = [threading.Thread(target=submit, args=(t,)) for t in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not errors, errors
    values = sorted(v for v, _ in done)
    assert values == list(range(first + 1, first + 1 + len(done))), values
    dq.wait(values[-1], timeout=60)
    t = np.arange(64, dtype=np.uint64)
    want = t * 4                                 # src = 0 * 3 + t on compute, then acc = src * 3 + t on direct
    for _, k in sorted(done):
        want = (want * 3 + k) % (1 << 32)
    np.testing.assert_array_equal(dq.read_buffer(acc, dtype=np.uint32), want.astype(np.uint32))
