"""Instructions per draw / dispatch recorded from Python, from draw_many, and from raw D3D12.

Run ``python benchmarks/callgrind_calls.py [N]``: it re-runs itself under
``valgrind --tool=callgrind --instr-atstart=no`` (instrumentation off until the loop, so start-up
costs nothing but time), and each variant records N draws (N dispatches), each with its own 4 root
constants, on a fresh command list. Around the loop only, ``dx12kit_bench.callgrind_start`` /
``callgrind_stop`` switch the counting on and dump it; the instructions of each dump over N are the
figure per draw. Instruction counts are repeatable on a loaded machine (wall time is not).

Variants (each beside ``raw``: the native SetGraphics/ComputeRoot32BitConstants + DrawInstanced /
Dispatch in a C++ loop, the same calls dx12kit ends in):

- ``python``: ``for row in rows: cl.set_constants(0, row); cl.draw(3)``, rows the numpy rows of an
  (N, 4) float32 array (methods bound to locals, as a hot loop would);
- ``python_ints``: the same with rows as tuples of Python ints;
- ``draw_many``: ``cl.draw_many(3, constants)`` (one call for all N);
- ``core``: dx12kit's C++ CommandList::SetConstants + Draw per row (no Python);

and the same for dispatches. Needs valgrind, and the benchmark module (scripts/bootstrap.sh) built
with valgrind's client-request header ``<valgrind/callgrind.h>`` (Debian package ``valgrind``): without
it ``callgrind_start``/``callgrind_stop`` do nothing and no count could be taken. When any of these is
missing, or a variant's count is absent, the script names what is missing on stderr and exits non-zero
(never an empty table).
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARK = "DX12KIT_CALLGRIND_CHILD"
# exit codes: 2 valgrind or the benchmark module missing, 3 no client requests (callgrind.h), 4 counts missing
NO_TOOL, NO_CLIENT_REQUESTS, NO_COUNTS = 2, 3, 4
PROBE = "probe"
NO_CALLGRIND_H = ("callgrind client requests do not work: the benchmark module dx12kit_bench was built without "
                  "valgrind's header <valgrind/callgrind.h> (install the Debian package valgrind, then rebuild with "
                  "scripts/bootstrap.sh), or this process does not run under valgrind")


def fail(message: str, code: int) -> int:
    """Prints ``message`` on stderr, prefixed with the script's name; returns ``code``."""
    print(f"callgrind_calls.py: {message}", file=sys.stderr)
    return code


def labels(has_draw_many: bool = True, has_dispatch_many: bool = True) -> list:
    """The dump labels the child writes, in order (the ``_many`` variants when the module has them)."""
    out = []
    for op, has_many in (("draw", has_draw_many), ("dispatch", has_dispatch_many)):
        for variant in ("raw", "python", "python_ints", f"{op}_many", "core"):
            if variant.endswith("_many") and not has_many:
                continue
            out.append(f"{op} {variant}")
    return out

VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""
PS = """
cbuffer C : register(b0) { float4 colour; };
float4 main() : SV_Target { return colour; }
"""
CS = """
cbuffer C : register(b0) { uint4 v; };
RWStructuredBuffer<uint> outbuf : register(u0);
[numthreads(1, 1, 1)]
void main() { outbuf[v.x] = v.y; }
"""


def child(n: int) -> None:
    sys.path.insert(0, str(HERE))
    import numpy as np

    import dx12kit as dx
    import _native

    bench = _native.require()
    # The client requests must work, or every dump below would silently be missing.
    if not bench.callgrind_start():
        sys.exit(fail(NO_CALLGRIND_H, NO_CLIENT_REQUESTS))
    bench.callgrind_stop(PROBE)
    dev = dx.Device()
    q = dev.queue("direct")
    rs = dev.create_root_signature([dx.RootConstants(0, 4)])
    gpso = dev.create_graphics_pipeline(dx.compile_hlsl(VS, profile="vs_5_0"), dx.compile_hlsl(PS, profile="ps_5_0"), rs,
                                        rtv_formats=["rgba8_unorm"])
    crs = dev.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    cpso = dev.create_compute_pipeline(dx.compile_hlsl(CS, profile="cs_5_0"), crs)
    rt = dev.create_texture2d(16, 16, "rgba8_unorm", render_target=True)
    buf = dev.create_buffer(4 * n, uav=True)
    consts = np.zeros((n, 4), np.float32)
    consts[:, 0] = np.linspace(0, 1, n)
    consts[:, 3] = 1
    uconsts = np.zeros((n, 4), np.uint32)
    uconsts[:, 0] = np.arange(n)
    uconsts[:, 1] = np.arange(n) * 3
    rows = list(consts)
    urows = list(uconsts)
    int_rows = [tuple(int(v) for v in r) for r in uconsts]

    def graphics():
        cl = q.command_list()
        cl.set_pipeline_state(gpso)
        cl.set_render_targets([rt])
        cl.set_constants(0, rows[0])
        cl.draw(3)
        return cl

    def compute():
        cl = q.command_list()
        cl.auto_uav_barriers = False  # the raw loop records no UAV barriers either
        cl.set_pipeline_state(cpso)
        cl.set_root_uav(1, buf)
        cl.set_constants(0, urows[0])
        cl.dispatch(1)
        return cl

    def measure(label, make, body):
        cl = make()
        body(cl)  # warm: the same loop once, untimed (lavapipe's command memory, pages)
        cl = make()
        bench.callgrind_start()
        body(cl)
        bench.callgrind_stop(label)

    def py_draws(cl, rs_=rows):
        sc, dr = cl.set_constants, cl.draw
        for r in rs_:
            sc(0, r)
            dr(3)

    def py_dispatches(cl, rs_=urows):
        sc, d = cl.set_constants, cl.dispatch
        for r in rs_:
            sc(0, r)
            d(1)

    measure("draw raw", graphics, lambda cl: bench.record_raw(cl, "draw", consts))
    measure("draw python", graphics, py_draws)
    measure("draw python_ints", graphics, lambda cl: py_draws(cl, int_rows))
    if hasattr(dx.CommandList, "draw_many"):
        measure("draw draw_many", graphics, lambda cl: cl.draw_many(3, consts))
    measure("draw core", graphics, lambda cl: bench.record_core(cl, "draw", consts))
    measure("dispatch raw", compute, lambda cl: bench.record_raw(cl, "dispatch", uconsts))
    measure("dispatch python", compute, py_dispatches)
    measure("dispatch python_ints", compute, lambda cl: py_dispatches(cl, int_rows))
    if hasattr(dx.CommandList, "dispatch_many"):
        measure("dispatch dispatch_many", compute, lambda cl: cl.dispatch_many((1, 1, 1), uconsts))
    measure("dispatch core", compute, lambda cl: bench.record_core(cl, "dispatch", uconsts))


def parse(out_dir: str) -> dict:
    found = {}
    for path in glob.glob(os.path.join(out_dir, "cg.*")):
        if re.search(r"-\d+$", path) and not path.endswith("-01"):
            continue  # --separate-threads: thread 1 (Python's main thread) is the one measured
        text = Path(path).read_text(errors="replace")
        m = re.search(r"^desc: Trigger: Client Request: (.+)$", text, re.M)
        t = re.search(r"^totals: (\d+)", text, re.M)
        if m and t:
            found[m.group(1).strip()] = int(t.group(1))
    return found


def run_counts(script: str, n: int, mark: str = MARK) -> "tuple[dict | None, int]":
    """Re-runs ``script`` (a benchmark's own file) with argument ``n`` and ``mark`` set in its environment
    (what makes it run as the measured child) under callgrind, instrumentation off
    until its client requests turn it on, and returns the calling thread's count per label (``parse``), or
    ``(None, exit code)`` after printing the run's output when valgrind failed.

    --separate-threads: a dump holds one thread, and only the calling thread's is read. Without it a count
    took in whatever lavapipe's queue thread ran meanwhile (the GPU work: ~220 k instructions to run a
    texture's layout transition and a list's command buffer, ~110 k for an empty one), more or less of it as
    the threads happened to be scheduled.
    """
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", "--separate-threads=yes", "--instr-atstart=no", f"--callgrind-out-file={tmp}/cg.%p",
               sys.executable, str(Path(script).resolve()), str(n)]
        r = subprocess.run(cmd, env={**os.environ, mark: "1"}, capture_output=True, text=True)
        if r.returncode:
            print(r.stdout[-3000:], r.stderr[-3000:], file=sys.stderr)
            fail(f"the run under valgrind failed (exit code {r.returncode}; its output is above)", r.returncode)
            return None, r.returncode
        return parse(tmp), 0


def main(argv: "list | None" = None) -> int:
    """Runs the measurement (the parent: checks, re-runs itself under callgrind, prints the table).

    Args:
        argv: ``[N]`` (default ``sys.argv[1:]``); N draws / dispatches per variant, default 2000.

    Returns:
        0, or a non-zero exit code after naming on stderr what is missing (valgrind, the benchmark
        module, its client requests, or a variant's count).
    """
    args = sys.argv[1:] if argv is None else argv
    n = int(args[0]) if args else 2000
    if n < 1:
        return fail(f"N must be >= 1, got {n}", 1)
    if os.environ.get(MARK):
        child(n)
        return 0
    if shutil.which("valgrind") is None:
        return fail("valgrind is not installed or not on PATH (apt-get install valgrind)", NO_TOOL)
    sys.path.insert(0, str(HERE))
    import _native

    if _native.bench is None:
        return fail(_native.REASON, NO_TOOL)
    import dx12kit as dx

    expected = labels(hasattr(dx.CommandList, "draw_many"), hasattr(dx.CommandList, "dispatch_many"))
    counts, code = run_counts(__file__, n)
    if counts is None:
        return code
    if PROBE not in counts:
        return fail(NO_CALLGRIND_H + " (no dump was written)", NO_CLIENT_REQUESTS)
    missing = [label for label in expected if label not in counts]
    if missing:
        return fail(f"no callgrind count for {', '.join(missing)} (the run wrote {sorted(counts)})", NO_COUNTS)
    print(f"instructions per draw / dispatch (callgrind, N = {n}, each with its own 4 root constants)")
    for op in ("draw", "dispatch"):
        raw = counts.get(f"{op} raw")
        for variant in ("raw", "python", "python_ints", f"{op}_many", "core"):
            c = counts.get(f"{op} {variant}")
            if c is None:
                continue
            ratio = f"{c / raw:5.2f}x raw" if raw else ""
            print(f"  {op:8s} {variant:12s} {c / n:9.0f}  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
