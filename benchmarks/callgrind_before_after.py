"""Instructions per iteration of dx12kit's C++ recording loops beside raw D3D12, for one or more builds.

``bench_calls.py`` times ``dx12kit_bench.compare_calls`` (one loop through dx12kit's C++ CommandList,
one making the same native calls by hand); wall time on the shared machine moves 2x between runs.
This script counts the same loops' instructions with callgrind instead (repeatable on a loaded
machine), so that two builds (say the start of a round and main) can be compared in one session:

    python benchmarks/callgrind_before_after.py [--n 5000] [--kinds draw,dispatch] \\
        [--tree old=/tmp/old-pkg:/tmp/old-build/bench] [--tree new=:]

Each ``--tree LABEL=PACKAGE_DIR:BENCH_DIR`` names a folder holding a ``dx12kit`` package (put first on
``PYTHONPATH``; empty: the one this Python imports) and the folder of the ``dx12kit_bench`` module built
beside it (``DX12KIT_BENCH_DIR``; empty: this checkout's build, benchmarks/_native.py). Without
``--tree`` the current build alone is measured. ``benchmarks/before_after.sh COMMIT`` builds COMMIT's
package and benchmark module in a separate tree and runs this script on it and on the current build.

For every tree and kind a child runs under ``valgrind --tool=callgrind --instr-atstart=no`` and calls
``compare_calls(kind, n)`` between ``callgrind_start`` / ``callgrind_stop``; each loop body (a
``std::function`` over ``CommandList&``: set-up, dx12kit's loop, the raw loop, in that order in the
source) runs 6 times (one warm-up, 5 rounds), so a body's inclusive count over ``6 * n`` is its
figure per iteration. The raw loop is the same native calls in every tree (a check on the method:
its count should agree across trees).
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
MARK = "DX12KIT_CALLGRIND_BEFORE_AFTER_CHILD"
KINDS = ["draw", "root_constants", "descriptor_table", "dispatch", "dynamic_cb", "transitions"]
RUNS_PER_BODY = 6  # compare_calls: one warm-up and 5 rounds of each loop
LAMBDA = re.compile(r"_Function_handler<void \(dx12kit::CommandList&\), dx12kit::bindings::BindBenchCalls.*"
                    r"\{lambda\(dx12kit::CommandList&\)#(\d+)\}>::_M_invoke")
LINE = re.compile(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)$")


def child(kind: str, n: int) -> None:
    sys.path.insert(0, str(HERE))
    import _native
    import bench_calls

    bench = _native.require()
    dev, _ = bench_calls.g.device()
    pso, res = bench_calls.setups()[kind]
    if not bench.callgrind_start():
        sys.exit("callgrind_before_after.py: callgrind client requests do not work (dx12kit_bench built without <valgrind/callgrind.h>)")
    bench.compare_calls(dev, kind, pso, res, n)
    bench.callgrind_stop(kind)


def bodies(dump: str) -> List[Tuple[int, int]]:
    """(lambda number, inclusive instructions) of each CommandList& body in a callgrind dump, by number."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", dump], capture_output=True, text=True, check=True).stdout
    found: Dict[int, int] = {}
    for line in out.splitlines():
        m = LINE.match(line)
        lam = LAMBDA.search(line) if m else None
        if m and lam:
            k = int(lam.group(1))
            found[k] = max(found.get(k, 0), int(m.group(1).replace(",", "")))
    return sorted(found.items())


def measure(kind: str, n: int, package: str, bench_dir: str) -> Tuple[float, float]:
    """(dx12kit, raw) instructions per iteration of `kind` with the given package and benchmark module."""
    env = {**os.environ, MARK: "1"}
    if package:
        env["PYTHONPATH"] = package + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if bench_dir:
        env["DX12KIT_BENCH_DIR"] = bench_dir
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        p = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}", sys.executable,
                            str(Path(__file__).resolve()), "--child", kind, str(n)], env=env, capture_output=True, text=True)
        dumps = [d for d in glob.glob(out + "*") if f"Client Request: {kind}" in Path(d).read_text(errors="replace")[:4000]]
        if p.returncode or not dumps:
            raise RuntimeError(f"{kind} ({package or 'this build'}): child failed ({p.returncode}): {p.stderr[-1500:]}")
        found = [c for _, c in bodies(dumps[0]) if c > 0]
        if len(found) != 3:  # set-up, dx12kit's loop, the raw loop
            raise RuntimeError(f"{kind}: expected 3 loop bodies in the dump, found {len(found)}: {found}")
        return found[1] / (RUNS_PER_BODY * n), found[2] / (RUNS_PER_BODY * n)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--tree", action="append", default=[], help="LABEL=PACKAGE_DIR:BENCH_DIR (either may be empty)")
    ap.add_argument("--jobs", type=int, default=4, help="children at once (callgrind serialises a child's threads; counts do not depend on it)")
    a = ap.parse_args(argv)
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        print("callgrind_before_after.py: valgrind (callgrind_annotate) not found", file=sys.stderr)
        return 2
    trees = []
    for t in a.tree or ["this build=:"]:
        label, _, dirs = t.partition("=")
        package, _, bench_dir = dirs.partition(":")
        trees.append((label, package, bench_dir))
    kinds = a.kinds.split(",")
    res: Dict[str, Dict[str, Tuple[float, float]]] = {k: {} for k in kinds}

    def one(job: Tuple[str, Tuple[str, str, str]]) -> None:
        kind, (label, package, bench_dir) = job
        res[kind][label] = ours, raw = measure(kind, a.n, package, bench_dir)
        print(f"  {kind} [{label}]: dx12kit {ours:,.0f}, raw {raw:,.0f} instructions per iteration", flush=True)

    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        list(pool.map(one, [(k, t) for k in kinds for t in trees]))
    labels = [t[0] for t in trees]
    head = ["kind", "raw"] + [f"dx12kit {lb}" for lb in labels] + [f"{lb} / raw" for lb in labels]
    if len(labels) == 2:
        head.append(f"{labels[1]} / {labels[0]}")
    rows = [head]
    for kind in kinds:
        r = res[kind]
        raws = [r[lb][1] for lb in labels]
        row = [kind, " / ".join(f"{v:,.0f}" for v in raws)] + [f"{r[lb][0]:,.0f}" for lb in labels]
        row += [f"{r[lb][0] / r[lb][1]:.2f}x" for lb in labels]
        if len(labels) == 2:
            row.append(f"{r[labels[1]][0] / r[labels[0]][0]:.3f}")
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    print(f"\ninstructions per iteration, N = {a.n}, callgrind (raw: one figure per tree)\n")
    for j, row in enumerate(rows):
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
        if j == 0:
            print("  ".join("-" * w for w in widths))
    return 0


if __name__ == "__main__":
    if os.environ.get(MARK) and len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
