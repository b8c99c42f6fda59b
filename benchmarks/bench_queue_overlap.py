"""Queues that overlap: where a compute/direct ping-pong spends its time.

Each round, the compute queue runs a long dispatch (about 20 ms here) and then writes buffer ``b``
from ``a``; the direct queue then writes ``a`` from ``b``. dx12kit inserts the cross-queue GPU waits
itself (D3D12Rules rule 7): direct waits for compute's write of ``b``, compute waits for direct's
write of ``a``. On D3D12 both executes return at once and the CPU runs ahead; vkd3d 1.2 runs a GPU
``Wait`` on a fence value not reached yet by blocking the submitting thread, inside
``ExecuteCommandLists``/``Wait`` and under dx12kit's submission mutex (docs/guides/threads.rst).

Printed: the run's wall time, the time spent inside ``execute``, and how long ``command_list`` +
``execute`` on a third queue (copy) from another thread take while a direct execute is blocked that way. The final values
are checked (real numbers), so the figures are for a correct run.

Run ``python benchmarks/bench_queue_overlap.py``.
"""
from __future__ import annotations

import os
import threading
import time

import numpy as np

import dx12kit as dx

LONG_CS = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64,1,1)] void main(uint3 t : SV_DispatchThreadID) {
  uint a = t.x; [loop] for (uint i = 0; i < 60000u; ++i) { a = a * 1664525u + o[i & 63]; } o[t.x & 63] = a; }
"""
INC_CS = """
RWStructuredBuffer<uint> src : register(u0);
RWStructuredBuffer<uint> dst : register(u1);
[numthreads(64,1,1)] void main(uint3 t : SV_DispatchThreadID) { dst[t.x] = src[t.x] + 1u; }
"""
ROUNDS = 10
TARGET_S = 0.020


def main() -> None:
    dev = dx.Device()
    cq, dq, xq = dev.queue("compute"), dev.queue("direct"), dev.queue("copy")
    long_pso = dev.create_compute_pipeline(dx.compile_hlsl(LONG_CS, profile="cs_5_0"), dev.create_root_signature([dx.RootUAV(0)]))
    inc = dev.create_compute_pipeline(dx.compile_hlsl(INC_CS, profile="cs_5_0"), dev.create_root_signature([dx.RootUAV(0), dx.RootUAV(1)]))
    a, b, scratch = (dev.create_buffer(256, uav=True, name=n) for n in ("a", "b", "scratch"))
    side_src, side_dst = dev.create_buffer(256, name="side src"), dev.create_buffer(256, name="side dst")
    dq.wait(dq.write_buffer(a, np.zeros(64, np.uint32)))
    dq.wait(dq.write_buffer(b, np.zeros(64, np.uint32)))

    def hold(cl, groups):
        cl.set_pipeline_state(long_pso)
        cl.set_root_uav(0, scratch)
        cl.dispatch(groups)

    cl = cq.command_list()
    hold(cl, 8)
    t = time.perf_counter()
    cq.wait(cq.execute(cl))
    groups = max(1, round(TARGET_S / ((time.perf_counter() - t) / 8)))

    in_execute = 0.0
    t0 = time.perf_counter()
    for _ in range(ROUNDS):
        cl = cq.command_list()
        hold(cl, groups)
        cl.set_pipeline_state(inc)
        cl.set_root_uav(0, a)
        cl.set_root_uav(1, b)
        cl.dispatch(1)
        t = time.perf_counter()
        cq.execute(cl)
        in_execute += time.perf_counter() - t
        dl = dq.command_list()
        dl.set_pipeline_state(inc)
        dl.set_root_uav(0, b)
        dl.set_root_uav(1, a)
        dl.dispatch(1)
        t = time.perf_counter()
        last = dq.execute(dl)
        in_execute += time.perf_counter() - t
    t = time.perf_counter()
    dq.wait(last)
    final_wait = time.perf_counter() - t
    total = time.perf_counter() - t0
    got = dq.read_buffer(a, dtype=np.uint32)
    assert (got == 2 * ROUNDS).all(), got[:4]

    # A direct execute blocked in the backend's GPU wait holds the submission mutex: command_list() and
    # execute on the copy queue from another thread, started 5 ms later, wait for it.
    cl = cq.command_list()
    hold(cl, groups * 3)
    cl.set_pipeline_state(inc)
    cl.set_root_uav(0, a)
    cl.set_root_uav(1, b)
    cl.dispatch(1)
    cq.execute(cl)
    dl = dq.command_list()
    dl.set_pipeline_state(inc)
    dl.set_root_uav(0, b)
    dl.set_root_uav(1, a)
    dl.dispatch(1)
    side = {}

    def copy_thread():
        time.sleep(0.005)
        t = time.perf_counter()
        xl = xq.command_list()  # takes the submission mutex too
        xl.copy_resource(side_dst, side_src)
        xq.execute(xl)
        side["s"] = time.perf_counter() - t

    th = threading.Thread(target=copy_thread)
    th.start()
    t = time.perf_counter()
    dq.wait(dq.execute(dl))
    blocked = time.perf_counter() - t
    th.join()
    dev.wait_idle()

    print(f"compute/direct ping-pong, {ROUNDS} rounds, compute hold {groups} groups (~{TARGET_S * 1e3:.0f} ms):")
    print(f"  total {total * 1e3:.0f} ms; inside execute {in_execute * 1e3:.0f} ms ({100 * in_execute / total:.0f}%); "
          f"final wait {final_wait * 1e3:.0f} ms")
    print(f"  cross-queue GPU waits inserted: direct {dq.stats()['cross_queue_waits']}, compute {cq.stats()['cross_queue_waits']}")
    print(f"  copy queue's command_list + copy + execute from another thread, 5 ms into a blocked direct execute: "
          f"{side['s'] * 1e3:.1f} ms (the direct execute + wait took {blocked * 1e3:.0f} ms)")
    print(f"  load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
