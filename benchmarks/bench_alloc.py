"""Allocator benchmarks: FreeList, Tlsf and Linear against the std::map baseline.

Every measurement is one :func:`dx12kit.alloc.replay` of a standard trace (benchmarks/traces.py,
seed 42) on a fresh allocator: the whole trace runs in C++ with the GIL released, and ``ns`` is
the C++ loop's own clock, so no Python runs per operation.

Cases:

- ``S`` and ``U``: capacity 1,000,000, 2,000,000 operations, on BaselineBimap (the textbook
  std::map + size-ordered set, benchmarks/baseline/), FreeList and Tlsf;
- ``linear``: 10,000,000 allocations of 16..1024 units aligned to 256, a reset every 100,000, on
  Linear (the bump allocator) and Tlsf (the alignment-collapse test); the baseline is too slow
  there (it walks the padding blocks) and only runs on ``linear-short``, its first 20,000
  allocations, to show why;
- ``fail``: a FreeList/Tlsf/baseline of 1,000,000 units filled with 1-unit allocations, every
  other one freed, then 1,000,000 allocations of 2 units that all fail: the cost of a failure.

Figures per case: ns per operation (median of the repeats; for ``linear`` and ``fail`` ns per
allocation), failed allocations, largest free block / free and fragmentation
(1 - largest / free) at the end, and the ratio to the baseline on the same trace, measured in the
same run.

Run ``pytest benchmarks/bench_alloc.py`` (pytest-benchmark; figures in extra_info) or
``python benchmarks/bench_alloc.py [--repeat N] [--markdown]`` for the table (see
benchmarks/ALLOC_RESULTS.md). The machine is shared and noisy: take medians, and compare
allocators measured in the same run.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import traces  # noqa: E402

import _native  # noqa: E402
from dx12kit import alloc  # noqa: E402

_bench = _native.require()

ALLOCATORS = {
    "BaselineBimap": _bench.BaselineBimap,
    "FreeList": alloc.FreeList,
    "Tlsf": alloc.Tlsf,
    "Linear": alloc.Linear,
}

# (trace, allocator) pairs, in table order.
CASES: List[Tuple[str, str]] = [
    ("S", "BaselineBimap"), ("S", "FreeList"), ("S", "Tlsf"),
    ("U", "BaselineBimap"), ("U", "FreeList"), ("U", "Tlsf"),
    ("linear", "Linear"), ("linear", "Tlsf"), ("linear-short", "BaselineBimap"),
    ("linear-short", "Tlsf"),
    ("fail", "BaselineBimap"), ("fail", "FreeList"), ("fail", "Tlsf"),
]


# ---- traces -------------------------------------------------------------------------------------

_EXTRA: Dict[str, traces.Trace] = {}
SHORT_LINEAR = 20_000  # allocations of linear-short: the baseline's cost grows with each one


def get_trace(name: str) -> traces.Trace:
    if name in traces.STANDARD:
        return traces.standard_trace(name)
    if name not in _EXTRA:
        if name == "linear-short":
            full = traces.standard_trace("linear")
            _EXTRA[name] = traces.Trace(name, full.ops[:SHORT_LINEAR], full.capacity, full.alignment)
        elif name == "fail":
            _EXTRA[name] = failure_trace()
        else:
            raise KeyError(name)
    return _EXTRA[name]


def failure_trace(capacity: int = 1_000_000) -> traces.Trace:
    """Fill with 1-unit allocations, free every other one, then `capacity` 2-unit allocations.

    The timed part is the last block of rows (see ``fail_setup_rows``): every allocation fails,
    since the largest free block has 1 unit.
    """
    slots = np.arange(capacity, dtype=np.int64)
    fill = np.stack([np.zeros(capacity, np.int64), slots, np.ones(capacity, np.int64)], axis=1)
    holes = np.stack([np.ones(capacity // 2, np.int64), slots[::2], np.zeros(capacity // 2, np.int64)], axis=1)
    fails = np.stack([np.zeros(capacity, np.int64), np.full(capacity, -1, np.int64),
                      np.full(capacity, 2, np.int64)], axis=1)
    return traces.Trace("fail", np.concatenate([fill, holes, fails]), capacity)


def fail_setup_rows(trace: traces.Trace) -> int:
    return trace.capacity + trace.capacity // 2


# ---- one measurement ----------------------------------------------------------------------------


def measure(trace_name: str, allocator_name: str) -> Dict[str, float]:
    """Replays the trace once on a fresh allocator; returns ns per op and the end state."""
    trace = get_trace(trace_name)
    a = ALLOCATORS[allocator_name](trace.capacity)
    ops = trace.ops
    if trace_name == "fail":  # untimed set-up, then the failing allocations
        alloc.replay(a, ops[: fail_setup_rows(trace)])
        ops = ops[fail_setup_rows(trace):]
    result = alloc.replay(a, ops, alignment=trace.alignment)
    per = len(ops)
    if trace_name.startswith("linear") or trace_name == "fail":
        per = int(np.count_nonzero(ops[:, 0] == 0))  # per allocation
    stats = result["stats"]
    largest = stats["largest_free_block"] / stats["free"] if stats["free"] else 1.0
    return {
        "ns_per_op": result["ns"] / per,
        "failed": result["failed"],
        "largest_over_free": largest,
        "fragmentation": 1.0 - largest,
    }


def summarize(runs: List[Dict[str, float]]) -> Dict[str, float]:
    out = dict(runs[-1])
    ns = [r["ns_per_op"] for r in runs]
    out["ns_per_op"] = statistics.median(ns)
    out["ns_min"] = min(ns)
    out["ns_all"] = ns
    return out


# ---- pytest-benchmark ---------------------------------------------------------------------------


@pytest.mark.parametrize("trace_name,allocator_name", CASES, ids=[f"{t}-{a}" for t, a in CASES])
def test_replay(benchmark, trace_name, allocator_name):
    trace = get_trace(trace_name)
    ops = trace.ops
    setup_ops = None
    if trace_name == "fail":
        setup_ops, ops = ops[: fail_setup_rows(trace)], ops[fail_setup_rows(trace):]

    def setup():
        a = ALLOCATORS[allocator_name](trace.capacity)
        if setup_ops is not None:
            alloc.replay(a, setup_ops)
        return (a,), {}

    def run(a):
        return alloc.replay(a, ops, alignment=trace.alignment)

    result = benchmark.pedantic(run, setup=setup, rounds=3, iterations=1)
    per = len(ops) if trace_name in ("S", "U") else int(np.count_nonzero(ops[:, 0] == 0))
    stats = result["stats"]
    benchmark.extra_info.update(
        ns_per_op=result["ns"] / per,
        failed=result["failed"],
        largest_over_free=(stats["largest_free_block"] / stats["free"]) if stats["free"] else 1.0,
    )
    if allocator_name != "BaselineBimap" and trace_name in ("S", "U"):
        # FreeList places exactly like the baseline; TLSF never loses more than 1% of allocations
        if allocator_name == "FreeList":
            assert result["failed"] == measure_failed_baseline(trace_name)


_BASELINE_FAILED: Dict[str, int] = {}


def measure_failed_baseline(trace_name: str) -> int:
    if trace_name not in _BASELINE_FAILED:
        trace = get_trace(trace_name)
        _BASELINE_FAILED[trace_name] = alloc.replay(_bench.BaselineBimap(trace.capacity), trace.ops)["failed"]
    return _BASELINE_FAILED[trace_name]


# ---- script mode ---------------------------------------------------------------------------------


def run_table(repeat: int, cases: List[Tuple[str, str]]) -> List[Dict[str, object]]:
    """Rounds of every case in turn (not one case `repeat` times in a row), so that a burst of
    load on the shared machine hits all allocators alike; then the median of each case."""
    runs: Dict[Tuple[str, str], List[Dict[str, float]]] = {c: [] for c in cases}
    for round_ in range(repeat):
        for case in cases:
            runs[case].append(measure(*case))
        print(f"  round {round_ + 1}/{repeat}: load average {load_average()}", file=sys.stderr, flush=True)
    rows: List[Dict[str, object]] = []
    baseline: Dict[str, float] = {}
    for trace_name, allocator_name in cases:
        r = summarize(runs[(trace_name, allocator_name)])
        if allocator_name == "BaselineBimap":
            baseline[trace_name] = r["ns_per_op"]
        rows.append({"trace": trace_name, "allocator": allocator_name, **r})
        print(f"  {trace_name:>12} {allocator_name:<14} "
              f"{', '.join(f'{x:.1f}' for x in r['ns_all'])}", file=sys.stderr)
    for row in rows:
        base = baseline.get(str(row["trace"]))
        row["ratio"] = (row["ns_per_op"] / base) if base else None
    return rows


def load_average() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "n/a"


def format_table(rows: List[Dict[str, object]], markdown: bool) -> str:
    head = ["trace", "allocator", "ns/op", "min", "failed", "largest/free", "fragmentation", "vs baseline"]
    lines = []
    for r in rows:
        ratio: Optional[float] = r["ratio"]  # type: ignore[assignment]
        lines.append([
            str(r["trace"]), str(r["allocator"]), f"{r['ns_per_op']:.1f}", f"{r['ns_min']:.1f}", f"{r['failed']:,}",
            f"{r['largest_over_free']:.3f}", f"{r['fragmentation']:.3f}",
            "1.00 (baseline)" if r["allocator"] == "BaselineBimap" else
            (f"{ratio:.3f} ({1 / ratio:.1f}x faster)" if ratio else "n/a"),
        ])
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(head)]
    fmt = "  ".join("{:>%d}" % w for w in widths)
    return "\n".join([fmt.format(*head)] + [fmt.format(*line) for line in lines])


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="replays per case (median)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("--only", default="", help="comma-separated trace names to run")
    args = parser.parse_args(argv)
    cases = CASES
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in CASES if c[0] in wanted]
    t0 = time.perf_counter()
    for name in sorted({t for t, _ in cases}):
        get_trace(name)
    print(f"traces built in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    rows = run_table(args.repeat, cases)
    print(format_table(rows, args.markdown))
    print("\nns/op: median of %d replays, min: fastest (linear, linear-short, fail: ns per "
          "allocation); fragmentation = 1 - largest free block / free; load average at the end: %s."
          % (args.repeat, load_average()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
