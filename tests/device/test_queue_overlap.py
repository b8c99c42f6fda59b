"""Compute/direct ping-pong (each queue's execute depends on the other's previous work, as in
Microsoft's nBodyGravity sample): the cross-queue waits dx12kit inserts keep the order, so the values
come out right; and a blocked execute (vkd3d 1.2 blocks the thread in a GPU Wait on a value not reached
yet, docs/guides/threads.rst) does not hold the GIL."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import dx12kit as dx

from .shaders import LONG_CS

# dst = src * 3 + k: the order of the rounds shows in the result (no two orders give the same value).
STEP_CS = """
cbuffer C : register(b0) { uint k; };
RWStructuredBuffer<uint> src : register(u0);
RWStructuredBuffer<uint> dst : register(u1);
[numthreads(64, 1, 1)] void main(uint3 t : SV_DispatchThreadID) { dst[t.x] = src[t.x] * 3u + k + t.x; }
"""
ROUNDS = 4


@pytest.fixture(scope="module")
def psos(device):
    step_rs = device.create_root_signature([dx.RootConstants(0, 1), dx.RootUAV(0), dx.RootUAV(1)])
    return {
        "step": device.create_compute_pipeline(dx.compile_hlsl(STEP_CS, profile="cs_5_0"), step_rs),
        "long": device.create_compute_pipeline(dx.compile_hlsl(LONG_CS, profile="cs_5_0"), device.create_root_signature([dx.RootUAV(0)])),
    }


def step(cl, psos, k, src, dst):
    cl.set_pipeline_state(psos["step"])
    cl.set_constants(0, [k])
    cl.set_root_uav(1, src)
    cl.set_root_uav(2, dst)
    cl.dispatch(1)


def expected(rounds):
    a = np.zeros(64, np.uint64)
    t = np.arange(64, dtype=np.uint64)
    for r in range(rounds):
        b = (a * 3 + (2 * r + 1) + t) % (1 << 32)
        a = (b * 3 + (2 * r + 2) + t) % (1 << 32)
    return a.astype(np.uint32), b.astype(np.uint32)


def test_compute_direct_ping_pong_keeps_order_and_values(device, psos):
    cq, dq = device.queue("compute"), device.queue("direct")
    a, b, scratch = (device.create_buffer(256, uav=True, name=n) for n in ("a", "b", "scratch"))
    dq.wait(dq.write_buffer(a, np.zeros(64, np.uint32)))
    keys = ("cross_queue_waits", "cross_queue_completed", "cross_queue_already_waited")
    deps_before = sum(q.stats()[k] for q in (cq, dq) for k in keys)
    for r in range(ROUNDS):
        cl = cq.command_list()
        cl.set_pipeline_state(psos["long"])   # keeps compute busy: direct's execute depends on unfinished work
        cl.set_root_uav(0, scratch)
        cl.dispatch(2)
        step(cl, psos, 2 * r + 1, a, b)
        cq.execute(cl)
        dl = dq.command_list()
        step(dl, psos, 2 * r + 2, b, a)
        last = dq.execute(dl)
    dq.wait(last)
    want_a, want_b = expected(ROUNDS)
    np.testing.assert_array_equal(dq.read_buffer(a, dtype=np.uint32), want_a)
    np.testing.assert_array_equal(dq.read_buffer(b, dtype=np.uint32), want_b)
    # Each execute after the first depends on the other queue's previous write (a wait, or none needed).
    assert sum(q.stats()[k] for q in (cq, dq) for k in keys) >= deps_before + 2 * ROUNDS - 1

def test_ping_pong_from_two_threads_one_queue_each(device, psos):
    # Each thread drives one queue; events hand the turn over, so the submission order is the
    # single-thread one, and the values must be too.
    cq, dq = device.queue("compute"), device.queue("direct")
    a, b, scratch = (device.create_buffer(256, uav=True, name=n) for n in ("a", "b", "scratch"))
    dq.wait(dq.write_buffer(a, np.zeros(64, np.uint32)))
    turns = [threading.Event() for _ in range(2 * ROUNDS + 1)]
    errors = []
    values = {}

    def compute():
        try:
            for r in range(ROUNDS):
                turns[2 * r].wait(30)
                cl = cq.command_list()
                cl.set_pipeline_state(psos["long"])
                cl.set_root_uav(0, scratch)
                cl.dispatch(2)
                step(cl, psos, 2 * r + 1, a, b)
                cq.execute(cl)
                turns[2 * r + 1].set()
        except BaseException as e:  # noqa: BLE001 - handed to the test
            errors.append(e)
            for t in turns:
                t.set()

    def direct():
        try:
            for r in range(ROUNDS):
                turns[2 * r + 1].wait(30)
                dl = dq.command_list()
                step(dl, psos, 2 * r + 2, b, a)
                values["last"] = dq.execute(dl)
                turns[2 * r + 2].set()
        except BaseException as e:  # noqa: BLE001
            errors.append(e)
            for t in turns:
                t.set()

    ts = [threading.Thread(target=compute), threading.Thread(target=direct)]
    for t in ts:
        t.start()
    turns[0].set()
    for t in ts:
        t.join(60)
    assert not errors, errors
    dq.wait(values["last"])
    want_a, want_b = expected(ROUNDS)
    np.testing.assert_array_equal(dq.read_buffer(a, dtype=np.uint32), want_a)
    np.testing.assert_array_equal(dq.read_buffer(b, dtype=np.uint32), want_b)
