"""Instructions per ``execute``: the plain single-queue path, and executes handed to the queue's
submission thread (docs/guides/threads.rst), from Python.

Run ``python benchmarks/callgrind_execute.py [N]``: it re-runs itself under
``valgrind --tool=callgrind --instr-atstart=no`` and counts, around the loop only (``dx12kit_bench``'s
client requests, as ``callgrind_calls.py``), N executes of pre-recorded one-dispatch lists:

- ``plain``: on the direct queue, nothing pending on any other queue (the caller issues each
  ExecuteCommandLists itself, as before the submission thread);
- ``queued``: the same while the direct queue is behind a GPU wait on the compute queue's long
  dispatch, so every execute (and its signal) is handed to the queue's thread.

Threads are counted apart (``--separate-threads=yes``): the calling thread's count is the figure
per execute (ExecuteCommandLists included when the caller issues it); the other threads' total (the
submission thread, but also lavapipe's and vkd3d's fence thread, which polls) is printed beside it and
is not repeatable. Counts of one thread are repeatable on a loaded machine (wall time is not);
``bench_cross_queue_nbody.py`` gives the wall time.
"""
from __future__ import annotations

import glob
import os
import re
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
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes", f"--callgrind-out-file={tmp}/cg.%p",
               sys.executable, str(Path(__file__).resolve()), str(n)]
        r = subprocess.run(cmd, env={**os.environ, MARK: "1"}, capture_output=True, text=True)
        if r.returncode:
            print(r.stdout[-3000:], r.stderr[-3000:], file=sys.stderr)
            return r.returncode
        caller, others = {}, {}
        for path in glob.glob(os.path.join(tmp, "cg.*")):
            text = Path(path).read_text(errors="replace")
            m = re.search(r"^desc: Trigger: Client Request: (.+)$", text, re.M)
            t = re.search(r"^totals: (\d+)", text, re.M)
            if not (m and t):
                continue
            label, main_thread = m.group(1).strip(), path.endswith("-01")
            into = caller if main_thread else others
            into[label] = into.get(label, 0) + int(t.group(1))
    print(*[line for line in r.stderr.splitlines() if line.startswith("queued ops")][-1:])
    print(f"instructions per execute (callgrind, N = {n}): calling thread / all other threads")
    for label in ("plain", "queued"):
        if label in caller:
            print(f"  {label:8s} {caller[label] / n:9.0f} / {others.get(label, 0) / n:9.0f}")
    return 0 if {"plain", "queued"} <= set(caller) else 4


if __name__ == "__main__":
    sys.exit(main())
