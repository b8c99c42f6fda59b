"""Instructions per call of two emulated paths: a dispatch of a pipeline that counts through a UAV
counter (CommandList's counter check), and ExecuteIndirect with root CBV arguments (the built-in pass
of cpp/src/gpu/CommandListIndirectCbv.cpp: its scratch and check buffers, its pipeline).

Run ``python benchmarks/callgrind_emulations.py [N]``: it re-runs itself under
``valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes`` as benchmarks/callgrind_calls.py does (same needs:
valgrind and the benchmark module built with <valgrind/callgrind.h>) and prints instructions per call:

- ``dispatch counter``: N dispatches of an Append-style pipeline with a counter bound (one list);
- ``execute_indirect cbv``: N/10 execute_indirect calls of a root-CBV draw signature, one per list,
  each list executed (the pass's buffers come back once their list's work completes).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from callgrind_calls import MARK, NO_CALLGRIND_H, NO_CLIENT_REQUESTS, NO_TOOL, PROBE, fail, run_counts  # noqa: E402

CB_VS = """
cbuffer Band : register(b0) { float4 rect; float4 colour; };
float4 main(uint id : SV_VertexID, out float4 c : COLOR) : SV_Position {
    c = colour;
    return float4(rect.x + (id & 1), (id >> 1) * 2.0 - 1.0, 0, 1);
}"""
CB_PS = "float4 main(float4 p : SV_Position, float4 c : COLOR) : SV_Target { return c; }"


def child(n: int) -> None:
    sys.path.insert(0, str(HERE.parent / "tests" / "device"))
    import numpy as np
    from test_uav_counters import APPEND, OP_IMM_ATOMIC_ALLOC, counting_bytecode

    import _native
    import dx12kit as dx

    bench = _native.require()
    if not bench.callgrind_start():
        sys.exit(fail(NO_CALLGRIND_H, NO_CLIENT_REQUESTS))
    bench.callgrind_stop(PROBE)
    dev = dx.Device()
    q = dev.queue("direct")
    rs = dev.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = dev.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), rs)
    out = dev.create_buffer(4 * 64, uav=True)
    counter = dev.create_buffer(4, uav=True)

    def dispatches():
        cl = q.command_list()
        cl.auto_uav_barriers = False
        cl.set_pipeline_state(pso)
        cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter)
        d = cl.dispatch
        bench.callgrind_start()
        for _ in range(n):
            d(1)
        bench.callgrind_stop("dispatch counter")
        q.execute(cl)
        q.flush()

    grs = dev.create_root_signature([dx.RootCBV(0)])
    gpso = dev.create_graphics_pipeline(dx.compile_hlsl(CB_VS, profile="vs_5_0"), dx.compile_hlsl(CB_PS, profile="ps_5_0"), grs,
                                        rtv_formats=["rgba8_unorm"])
    consts = dev.create_buffer(256)
    va = consts.gpu_address
    args = dev.create_buffer(24)
    q.write_buffer(args, np.array([va & 0xFFFFFFFF, va >> 32, 3, 1, 0, 0], np.uint32))
    sig = dev.create_command_signature([dx.IndirectArgument.constant_buffer_view(0), dx.IndirectArgument.draw()], byte_stride=24,
                                       root_signature=grs)
    rt = dev.create_texture2d(16, 16, "rgba8_unorm", render_target=True)

    def indirect(label, calls):
        for i in range(calls):
            cl = q.command_list()
            cl.set_pipeline_state(gpso)
            cl.set_render_targets([rt])
            if label:
                bench.callgrind_start()
            cl.execute_indirect(sig, 1, args, referenced=[consts])
            if label:
                bench.callgrind_stop(f"{label} {i}")  # one dump per call, summed by the parent
            q.wait(q.execute(cl))

    dispatches()  # warm
    dispatches()
    indirect(None, 5)  # warm: the built-in pipeline, the first buffers
    indirect("execute_indirect cbv", max(1, n // 10))


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    if os.environ.get(MARK):
        child(n)
        return 0
    import _native

    if _native.bench is None:
        return fail(_native.REASON, NO_TOOL)
    counts, code = run_counts(__file__, n)   # the calling thread only: lavapipe runs each list meanwhile
    if counts is None:
        return code
    if PROBE not in counts:
        return fail(NO_CALLGRIND_H + " (no dump was written)", NO_CLIENT_REQUESTS)
    print(f"instructions per call (callgrind, N = {n})")
    calls = max(1, n // 10)
    indirect = [counts.get(f"execute_indirect cbv {i}") for i in range(calls)]
    if "dispatch counter" not in counts or None in indirect:
        return fail(f"counts missing (the run wrote {sorted(counts)[:8]} ...)", 4)
    print(f"  {'dispatch counter':22s} {counts['dispatch counter'] / n:9.0f}")
    print(f"  {'execute_indirect cbv':22s} {sum(indirect) / calls:9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
