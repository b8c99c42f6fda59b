"""dx12kit against its peers (moderngl, wgpu-py, compushady) on the four workloads W1-W4.

The dx12kit side is ``workloads.py`` beside this file (also ``python -m dx12kit bench`` from a checkout); the peers' side is their
scripts in ../shared/peers (see its README), run with the peers' Python (``DX12KIT_PEERS_PYTHON`` or
``<repo>/../peers-venv/bin/python``) as subprocesses, so that no peer shares a process (or a Vulkan
instance) with dx12kit. The machine is noisy: dx12kit and the peers alternate
(dx12kit, peers, dx12kit, peers, ..., dx12kit), each figure is a median over its runs, and the
table gives ratios from that one session, with the load averages before and after.

- ``python benchmarks/bench_peers.py [--rounds N] [W1 W3 ...]``: the side-by-side table (a progress
  line per workload while it runs).
- ``pytest benchmarks/bench_peers.py`` (CI: ``--benchmark-disable``): each dx12kit workload once,
  small, its result checked.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Dict, List, Optional, Tuple

import pytest

import _gpu_common as g  # beside this file: on sys.path via conftest.py, or as the script's folder
import workloads as b

# --------------------------------------------------------------------------- pytest: smoke, small


@pytest.fixture(scope="module")
def dq():
    return g.device()


@pytest.mark.parametrize("name", b.WORKLOADS)
def test_workload_small(benchmark, dq, name):
    dev, q = dq
    w = b.make(dev, q, name, small=True)
    benchmark.pedantic(w.run if name != "W1" else w.verify, rounds=1, warmup_rounds=0)
    w.verify()


def test_fence_thread_cpu_is_read():
    g.device()
    v = b.fence_thread_cpu_seconds()
    if sys.platform.startswith("linux"):  # vkd3d's fence thread exists from the first device on
        assert v is not None and v >= 0.0, v
    else:
        assert v is None


# --------------------------------------------------------------------------- script: side by side

# Each peer's script for a workload ("{w}": the workload's number: wgpu_w1.py); moderngl runs all four in one.
PEER_SCRIPTS = {"wgpu-py": "wgpu_w{w}.py", "wgpu-py staging": "wgpu_w{w}.py", "compushady": "cs_w{w}.py",
                "moderngl": "mgl_all.py"}
PEER_COLUMNS = list(PEER_SCRIPTS)
# W1's upload figure of each peer, compared with both of dx12kit's (write_buffer and cl.upload).
W1_UPLOAD = {"wgpu-py": r"wgpu idiomatic\s+upload\s+(\d+)", "wgpu-py staging": r"wgpu staging\s+upload\s+(\d+)",
             "compushady": r"compushady upload\s+(\d+)", "moderngl": r"moderngl W1 upload (\d+)"}
# (workload key in dx12kit's results, label, higher is better, {peer: regex over its script's output})
ROWS: List[Tuple[str, str, bool, Dict[str, str]]] = [
    ("W1 upload MB/s", "W1 upload 64 MiB (write_buffer), MB/s", True, W1_UPLOAD),
    ("W1 upload (list) MB/s", "W1 upload 64 MiB (cl.upload), MB/s", True, W1_UPLOAD),
    ("W1 readback MB/s", "W1 readback 64 MiB (out=), MB/s", True, {
        "wgpu-py": r"wgpu idiomatic.*readback\s+(\d+)", "wgpu-py staging": r"wgpu staging.*readback\s+(\d+)",
        "compushady": r"compushady upload.*readback\s+(\d+)", "moderngl": r"moderngl W1 .*readback (\d+)"}),
    ("W2 us/dispatch", "W2 2,000 dispatches, us each", False, {
        "wgpu-py": r"dyn-offset uniforms:\s+([\d.]+) us", "wgpu-py staging": r"immediates:\s+([\d.]+) us",
        "compushady": r"compushady W2: ([\d.]+) us", "moderngl": r"moderngl W2 \(uniforms per dispatch\): ([\d.]+) us"}),
    ("W3 ms", "W3 saxpy 16M total, ms", False, {
        "wgpu-py": r"wgpu W3 total \(upload[^)]*\): ([\d.]+) ms",
        "wgpu-py staging": r"wgpu W3 total with reusable staging buffers, one submit: ([\d.]+) ms",
        "compushady": r"compushady W3 total[^:]*: ([\d.]+) ms", "moderngl": r"moderngl W3 total ([\d.]+) ms"}),
    ("W4 ms/frame", "W4 1024² textured draw, ms/frame", False, {
        "wgpu-py": r"wgpu W4: ([\d.]+) ms/frame", "moderngl": r"moderngl W4: ([\d.]+) ms/frame"}),
]
SCRIPTS_BY_WORKLOAD = {"W1": ["memcpy.py", "wgpu_w1.py", "cs_w1.py"], "W2": ["wgpu_w2.py", "cs_w2.py"],
                       "W3": ["wgpu_w3.py", "cs_w3.py"], "W4": ["wgpu_w4.py"]}


def peer_columns(key: str, peers: Dict[str, str]) -> List[Tuple[str, str, str]]:
    """A row's peers as (peer, script, regex)."""
    w = key.split()[0][1:]
    return [(name, PEER_SCRIPTS[name].format(w=w), rx) for name, rx in peers.items()]


def _load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def _med(vals: List[float]) -> Optional[float]:
    return statistics.median(vals) if vals else None


def _fmt(v: Optional[float]) -> str:
    if v is None:
        return "-"
    return f"{v:.0f}" if v >= 100 else f"{v:.2f}"


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description="dx12kit against moderngl / wgpu-py / compushady on W1-W4")
    p.add_argument("workloads", nargs="*", default=list(b.WORKLOADS))
    p.add_argument("--rounds", type=int, default=2, help="peer rounds; dx12kit runs one more time than the peers")
    a = p.parse_args(argv)
    names = tuple(a.workloads)
    scripts: List[str] = []
    for n in names:
        scripts += [s for s in SCRIPTS_BY_WORKLOAD[n] if s not in scripts]
    scripts.append("mgl_all.py")  # moderngl: all four workloads in one script
    have_peers = g.peers_python() is not None and g.peers_dir() is not None
    dev, q = g.device()  # as python -m dx12kit bench: default settings (docs/performance.rst)
    print(f"dx12kit vs peers on {dev.info.get('adapter')} ({dev.info.get('backend')}), {os.cpu_count()} CPUs; "
          f"load average at start {_load()}", flush=True)
    if not have_peers:
        print("(no peers venv: set DX12KIT_PEERS_PYTHON or create ../peers-venv; dx12kit figures only)", flush=True)
    ours: List[Dict[str, float]] = []
    outputs: Dict[str, List[str]] = {}
    t0 = time.perf_counter()
    rounds = a.rounds if have_peers else 0
    for r in range(rounds + 1):
        ours.append(b.measure_all(dev, q, names, progress=lambda s: print(f"  [dx12kit run {r + 1}] {s}", flush=True)))
        if r == rounds:
            break
        for s in scripts:
            out = g.run_peer(s) or ""
            outputs.setdefault(s, []).append(out)
            first = [ln for ln in out.splitlines() if "W" in ln or "upload" in ln or "memcpy" in ln][:1]
            print(f"  [peers run {r + 1}] {s}: {first[0].strip() if first else out.strip()[-200:]}", flush=True)
    print(f"\n{time.perf_counter() - t0:.0f} s; load average at end {_load()}; dx12kit medians of {len(ours)} runs, "
          f"peers' of {rounds} runs (each run itself a median of 5)\n")

    def peer(script: str, rx: str) -> Optional[float]:
        return _med([v for v in (g.find_rate(o, rx) for o in outputs.get(script, [])) if v is not None])

    header = ("workload", "dx12kit") + tuple(PEER_COLUMNS) + ("best peer", "dx12kit vs best")
    rows = [header]
    for key, label, higher, peers in ROWS:
        if key.split()[0] not in names:
            continue
        mine = _med([r[key] for r in ours if key in r])
        cols = {name: peer(s, rx) for name, s, rx in peer_columns(key, peers)}
        vals = [v for v in cols.values() if v is not None]
        best = (max(vals) if higher else min(vals)) if vals else None
        rows.append((label, _fmt(mine)) + tuple(_fmt(cols.get(c)) for c in PEER_COLUMNS)
                    + (_fmt(best), g.fmt_ratio(mine, best, higher)))
    print(g.table(rows))
    print("(ratio > 1: dx12kit better; 'wgpu-py staging' = reused mapped staging buffers, for W2 its immediates variant)")
    mem = _med([r["memcpy MB/s"] for r in ours if "memcpy MB/s" in r])
    if mem and "W1" in names:
        up = _med([r["W1 upload MB/s"] for r in ours])
        rb = _med([r["W1 readback MB/s"] for r in ours])
        pm = peer("memcpy.py", r"memcpy 64 MiB: .* (\d+) MB/s")
        print(f"memcpy 64 MiB (np.copyto, this process) {mem:.0f} MB/s{f', peers memcpy.py {pm:.0f}' if pm else ''}: "
              f"W1 upload {up / mem:.2f}x memcpy, readback {rb / mem:.2f}x memcpy")
    fence = {k: _med([r[k] for r in ours if k in r]) for k in ours[0] if "fence-thread" in k}
    if fence:
        print("vkd3d fence thread CPU (% of one core while the workload ran): "
              + ", ".join(f"{k.split()[0]} {v:.0f}%" for k, v in fence.items() if v is not None))
    print("\nevery dx12kit run:")
    for k in ours[0]:
        print(f"  {k:26s} " + " ".join(f"{r.get(k, float('nan')):9.2f}" for r in ours))
    return 0


if __name__ == "__main__":
    sys.exit(main())
