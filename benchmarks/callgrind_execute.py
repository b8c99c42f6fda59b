"""Instructions per ``execute``: the plain single-queue path, and executes handed to the queue's
submission thread (docs/guides/threads.rst), from Python.

Run ``python benchmarks/callgrind_execute.py [N]``: it re-runs itself under
``valgrind --tool=callgrind --instr-atstart=no`` and counts, around the loop only (``dx12kit_bench``'s
client requests, as ``callgrind_calls.py``), N executes of pre-recorded one-dispatch lists:

- ``plain``: on the direct queue, nothing pending on any other queue (the caller issues each
  ExecuteCommandLists itself, as before the submission thread);
- ``queued``: the same while the direct queue is behind a GPU wait on the compute queue's long
  dispatch, so every execute (and its signal) is handed to the queue's thread: the count includes that
  thread's instructions (callgrind counts every thread), so it is the whole cost of the hop.

Counts are repeatable on a loaded machine (wall time is not); ``bench_cross_queue_nbody.py`` gives
the wall time.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARK = "DX12KIT_CALLGRIND_CHILD"
CS = """
cbuffer C : register(b0) { uint4 v; };
RWStructuredBuffer<uint> outbuf : register(u0);
[numthreads(1, 1, 1)]
void main() { outbuf[v.x] = v.y; }
"""
LONG_CS = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64,1,1)] void main(uint3 t : SV_DispatchThreadID) {
  uint a = t.x; [loop] for (uint i = 0; i < 60000u; ++i) { a = a * 1664525u + o[i & 63]; } o[t.x & 63] = a; }
"""


def child(n: int) -> None:
    sys.path.insert(0, str(HERE))
    import dx12kit as dx
    import _native

    bench = _native.require()
    dev = dx.Device()
    dq, cq = dev.queue("direct"), dev.queue("compute")
    crs = dev.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    cpso = dev.create_compute_pipeline(dx.compile_hlsl(CS, profile="cs_5_0"), crs)
    lpso = dev.create_compute_pipeline(dx.compile_hlsl(LONG_CS, profile="cs_5_0"), dev.create_root_signature([dx.RootUAV(0)]))
    buf = dev.create_buffer(4 * n, uav=True)
    shared = dev.create_buffer(256, uav=True)

    def lists():
        out = []
        for i in range(n):
            cl = dq.command_list()
            cl.set_pipeline_state(cpso)
            cl.set_root_uav(1, buf)
            cl.set_constants(0, [i, i, 0, 0])
            cl.dispatch(1)
            out.append(cl)
        return out

    def run(label, ls):
        ex = dq.execute
        bench.callgrind_start()
        for cl in ls:
            ex(cl)
        bench.callgrind_stop(label)
        dev.wait_idle()

    run("warm", lists())
    run("plain", lists())
    ls = lists()
    hold = cq.command_list()
    hold.set_pipeline_state(lpso)
    hold.set_root_uav(0, shared)
    hold.dispatch(400)                     # compute busy for a while, and writes `shared` ...
    cq.execute(hold)
    dl = dq.command_list()
    dl.set_pipeline_state(lpso)
    dl.set_root_uav(0, shared)
    dl.dispatch(1)                         # ... which direct then uses: a GPU wait, queued
    dq.execute(dl)
    stats = getattr(dq, "submission_stats", lambda: {"queued_ops": 0})   # absent before the submission thread
    before = stats()["queued_ops"]
    run("queued", ls)
    print(f"queued ops during the 'queued' loop: {stats()['queued_ops'] - before}", file=sys.stderr)


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    if os.environ.get(MARK):
        child(n)
        return 0
    sys.path.insert(0, str(HERE))
    from callgrind_calls import parse
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/cg.%p",
               sys.executable, str(Path(__file__).resolve()), str(n)]
        r = subprocess.run(cmd, env={**os.environ, MARK: "1"}, capture_output=True, text=True)
        if r.returncode:
            print(r.stdout[-3000:], r.stderr[-3000:], file=sys.stderr)
            return r.returncode
        counts = parse(tmp)
    print([line for line in r.stderr.splitlines() if line.startswith("queued ops")][-1:])
    print(f"instructions per execute (callgrind, N = {n}, every thread counted)")
    for label in ("plain", "queued"):
        if label in counts:
            print(f"  {label:8s} {counts[label] / n:9.0f}")
    return 0 if {"plain", "queued"} <= set(counts) else 4


if __name__ == "__main__":
    sys.exit(main())
