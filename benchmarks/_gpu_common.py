"""Helpers shared by the GPU benchmarks (bench_upload.py, bench_dispatch.py).

Both files work two ways:

- under pytest-benchmark: ``pytest benchmarks/bench_upload.py benchmarks/bench_dispatch.py``;
- as scripts: ``python benchmarks/bench_upload.py`` prints dx12kit's figures and, when a peers
  venv exists (see ../shared/peers/README.md), runs the peers' scripts in the same session and
  prints them side by side with the ratios. The machine is noisy: the script measures dx12kit
  before and after the peers and reports the median of both runs.

Where the peers are looked for: ``DX12KIT_PEERS_PYTHON`` (a Python with numpy, wgpu, compushady,
moderngl) or ``<repo>/../peers-venv/bin/python``; the scripts in ``DX12KIT_PEERS_DIR`` or
``<repo>/../shared/peers``.
"""
from __future__ import annotations

import functools
import os
import re
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

# W2's shader (as the peers' wgpu_w2.py): dispatch `index` writes value + t into its own 64 floats;
# one copy, the shipped workloads'.
from workloads import W2_CS

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())  # quiets Mesa/Vulkan loader warnings

REPO = Path(__file__).resolve().parents[1]

__all__ = ["REPO", "W2_CS", "cb_pipeline", "combine", "device", "find_rate", "fmt_ratio", "interleave", "median_and_times",
           "peers_dir", "peers_python", "run_peer", "table"]


@functools.lru_cache(maxsize=None)
def device(uma_direct: bool = True):
    """A plain (non-validating) device with its direct queue; uma_direct as dx.Device's (default True:
    the default settings that ``python -m dx12kit bench`` and bench_peers.py measure)."""
    import dx12kit as dx

    dev = dx.Device(uma_direct=uma_direct)
    return dev, dev.queue("direct")




@functools.lru_cache(maxsize=None)
def cb_pipeline():
    """The W2 compute pipeline: root parameter 0 a root CBV (dynamic constants), 1 a root UAV."""
    import dx12kit as dx

    dev, _ = device()
    rs = dev.create_root_signature([dx.RootCBV(0), dx.RootUAV(0)])
    return dev.create_compute_pipeline(dx.compile_hlsl(W2_CS, profile="cs_5_0"), rs)


def median_and_times(fn: Callable[[], object], reps: int = 5, warmup: int = 1) -> Tuple[float, List[float]]:
    """Median wall time of `reps` calls of `fn` after `warmup` calls, and every time (workloads.py's loop)."""
    from workloads import timed_runs

    ts = timed_runs(fn, reps, warmup)
    return statistics.median(ts), ts


def peers_python() -> Optional[Path]:
    env = os.environ.get("DX12KIT_PEERS_PYTHON")
    p = Path(env) if env else REPO.parent / "peers-venv" / "bin" / "python"
    return p if p.exists() else None


def peers_dir() -> Optional[Path]:
    env = os.environ.get("DX12KIT_PEERS_DIR")
    p = Path(env) if env else REPO.parent / "shared" / "peers"
    return p if (p / "common.py").exists() else None


def run_peer(script: str, timeout: float = 900) -> Optional[str]:
    """Runs one peer script with the peers' Python; its output, or None when no peers are set up."""
    py, d = peers_python(), peers_dir()
    if py is None or d is None:
        return None
    r = subprocess.run([str(py), script], cwd=d, capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return r.stdout + (f"\n[{script} exited {r.returncode}]\n{r.stderr[-2000:]}" if r.returncode else "")


def find_rate(text: Optional[str], pattern: str) -> Optional[float]:
    """The first number matched by `pattern` (a regex with one group) in `text`."""
    if not text:
        return None
    m = re.search(pattern, text)
    return float(m.group(1)) if m else None


def fmt_ratio(ours: Optional[float], theirs: Optional[float], higher_is_better: bool = True) -> str:
    """'1.85x' = how many times better dx12kit is (>1: dx12kit better)."""
    if not ours or not theirs:
        return "-"
    return f"{(ours / theirs if higher_is_better else theirs / ours):.2f}x"


def table(rows: List[Tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for j, r in enumerate(rows):
        out.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def interleave(measure: Callable[[], Dict[str, float]], scripts: List[str]):
    """Measures dx12kit, then after each peer script again (the machine's load drifts: each peer is
    compared with the dx12kit runs just before and after it). Returns (all dx12kit runs, the peers'
    outputs by script, the mean of the two adjacent dx12kit runs by script)."""
    runs = [measure()]
    outputs: Dict[str, str] = {}
    adjacent: Dict[str, Dict[str, float]] = {}
    if peers_python() is None or peers_dir() is None:
        return runs, outputs, adjacent
    for s in scripts:
        print(f"  running peer {s} ...", flush=True)
        outputs[s] = run_peer(s) or ""
        runs.append(measure())
        adjacent[s] = {k: (runs[-2][k] + runs[-1][k]) / 2 for k in runs[-1]}
    return runs, outputs, adjacent


def combine(*runs: Dict[str, float]) -> Dict[str, float]:
    """Per key, the median over several runs of the same measurements."""
    return {k: statistics.median([r[k] for r in runs if k in r]) for k in runs[0]}


def print_runs_and_peers(runs: List[Dict[str, float]], outputs: Dict[str, str], width: int, fmt: str) -> None:
    """The tail both script modes print: every dx12kit run, then the peers' raw output."""
    print("\nevery dx12kit run:")
    for k in runs[0]:
        print(f"  {k:{width}s} " + " ".join(format(r[k], fmt) for r in runs))
    if outputs:
        print("\npeers' raw output:")
        for name, out in outputs.items():
            print(f"=== {name}\n{out.strip()}")
    else:
        print("\n(no peers venv at ../peers-venv: dx12kit figures only)")
