"""Platform probe: does recording or executing wait for GPU work that is running?

D3D12 lets ExecuteCommandLists return at once and recording never waits for the GPU. Measured with
this probe: executes return at once on Debian 12 (Mesa 22.3 lavapipe) and Debian 13 (Mesa 25.0), both
with vkd3d 1.2. Recording a root UAV/SRV on Debian 13 waits until the running dispatch is done
(rounds 1 and 3: 2.0-2.9 s; empty lists, rounds 0 and 2: 0.000 s). gdb showed where: dx12kit's
CommandList::SetRootView -> vkd3d 1.2 creating a VkBufferView for the root descriptor -> lavapipe's
vkCreateBufferView, which takes the queue lock that lavapipe's queue thread holds while it executes.
Tests that need work in flight (test_lazy_signals, test_cross_queue) record their lists first.

Run: .venv/bin/python scripts/probes/execute_blocks_behind_gpu.py [groups]
"""
from __future__ import annotations

import sys
import time

import dx12kit as dx

LONG_CS = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64,1,1)] void main(uint3 t : SV_DispatchThreadID) {
  uint a = t.x; [loop] for (uint i = 0; i < 60000u; ++i) { a = a * 1664525u + o[i & 63]; } o[t.x & 63] = a; }
"""
FILL_CS = """
cbuffer C : register(b0) { uint value; uint count; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { if (id.x < count) o[id.x] = value + id.x; }
"""


def main() -> None:
    groups = int(sys.argv[1]) if len(sys.argv) > 1 else 1600
    dev = dx.Device()
    q = dev.queue("direct")
    rs = dev.create_root_signature([dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(LONG_CS, profile="cs_5_0"), rs)
    out = dev.create_buffer(256, uav=True)
    fill = dev.create_compute_pipeline(dx.compile_hlsl(FILL_CS, profile="cs_5_0"),
                                       dev.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0)]))
    small = dev.create_buffer(1 << 16, uav=True)
    q.wait(q.execute(q.command_list()))
    for rnd in range(4):
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_root_uav(0, out)
        cl.dispatch(groups)
        t0 = time.monotonic()
        v_long = q.execute(cl)
        t1 = time.monotonic()
        for v in range(5):
            s_cl = q.command_list()
            if rnd % 2:  # odd rounds: small dispatches like test_lazy_signals' fills; even: empty lists
                s_cl.set_pipeline_state(fill)
                s_cl.set_constants(0, [v, 1 << 14])
                s_cl.set_root_uav(1, small)
                s_cl.dispatch(256)
            q.execute(s_cl)
        t2 = time.monotonic()
        running = q.completed_value < v_long
        q.wait(v_long)
        t3 = time.monotonic()
        print(f"round {rnd}: long execute returned after {t1 - t0:.3f} s, 5 small lists recorded and executed after "
              f"{t2 - t1:.3f} s more, long dispatch still running then: {running}, done after {t3 - t0:.3f} s")


if __name__ == "__main__":
    main()
