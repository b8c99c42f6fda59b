#!/usr/bin/env python3
"""The whole differential shader test: every construct of tests/device/diffcases.py in
every stage it declares, over several rounds of seeded random inputs, on the real device.

    .venv/bin/python scripts/shader-difftest.py [--rounds N] [--seed S] [-k SUBSTRING] [--list]

Prints one line per construct and stage, then the count of constructs covered; exits 1 on any
mismatch (each printed with its shader, inputs and both results). Cases marked as known gaps
(tests/device/diffcases.py KNOWN_GAPS) are run and reported, expected to fail.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dx12kit as dx  # noqa: E402

from tests.device import diffcases  # noqa: E402
from tests.device.difftest import DifferentialMismatch, Harness  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=4, help="sets of random inputs per construct and stage")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-k", default="", help="only constructs whose name contains this")
    ap.add_argument("--list", action="store_true", help="list the constructs and stop")
    args = ap.parse_args()
    cases = [c for c in diffcases.CASES if args.k in c.name]
    if args.list:
        for c in cases:
            print(f"{c.group:14} {c.name:34} {','.join(c.stages)}")
        print(f"{len(cases)} constructs")
        return 0
    dev = dx.Device()
    harness = Harness(dev, dev.queue("direct"))
    failures, unexpected, runs = [], [], 0
    t0 = time.perf_counter()
    for c in cases:
        for stage in c.stages:
            gap = diffcases.KNOWN_GAPS.get((c.name, stage))
            try:
                harness.check(c, stage, seed=args.seed, rounds=args.rounds)
                status = "ok" if gap is None else "FIXED? (listed as a known gap: " + gap + ")"
                if gap is not None:
                    unexpected.append(f"{c.name} {stage}")
            except DifferentialMismatch as e:
                status = "known gap: " + gap if gap else "MISMATCH"
                if gap is None:
                    failures.append(str(e))
            except dx.ShaderCompileError as e:
                status = "refused: " + str(e).splitlines()[0]
                if gap is None:
                    failures.append(f"{c.name} {stage}: {e}")
            runs += 1
            print(f"{c.group:14} {c.name:34} {stage:12} {status}", flush=True)
    for f in failures:
        print("\n" + f)
    print(f"\n{len(cases)} constructs in {len(diffcases.GROUPS)} groups, {runs} construct-stage runs x {args.rounds} rounds, "
          f"{len(failures)} mismatches, {len(unexpected)} known gaps now passing ({time.perf_counter() - t0:.1f} s)")
    return 1 if failures or unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
