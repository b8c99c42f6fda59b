"""Deterministic allocation traces for the allocator benchmarks and tests.

A trace is an int64 array of shape (N, 3), rows ``[kind, slot, size]`` as consumed by
:func:`dx12kit.alloc.replay` (kind 0 allocate, 1 free, 2 deferred free, 3 release stale,
4 reset).

Standard traces, all seeded with 42:

- ``S``: capacity 1,000,000, 2,000,000 operations; allocate with probability 0.55 while fewer
  than 50,000 allocations are live, else free a uniformly random live one. Sizes: 70% 1,
  20% uniform 2..16, 10% uniform 17..256.
- ``U``: the same with sizes uniform 1..64.
- ``linear``: 10,000,000 allocations of sizes uniform 16..1024 (aligned to 256 by the replay),
  with a reset after every 100,000.

Every random number is drawn up front with numpy's PCG64 (``np.random.default_rng(seed)``),
vectorized; only the bookkeeping of the live set, which is inherently sequential, runs in C++
(``dx12kit_bench.build_random_trace``, the benchmark module: benchmarks/_native.py). Building S
takes ~0.1 s.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict

import numpy as np


__all__ = [
    "Trace",
    "random_trace",
    "sizes_s",
    "sizes_u",
    "linear_trace",
    "standard_trace",
    "STANDARD",
    "SEED",
]

SEED = 42


@dataclass(frozen=True)
class Trace:
    """A named trace with the capacity and alignment it is meant to be replayed with."""

    name: str
    ops: np.ndarray
    capacity: int
    alignment: int = 1

    @property
    def allocations(self) -> int:
        return int(np.count_nonzero(self.ops[:, 0] == 0))

    def __len__(self) -> int:
        return len(self.ops)


def sizes_s(rng: np.random.Generator, n: int) -> np.ndarray:
    """Trace S sizes: 70% 1, 20% uniform 2..16, 10% uniform 17..256."""
    u = rng.random(n)
    small = rng.integers(2, 17, n)
    large = rng.integers(17, 257, n)
    return np.where(u < 0.7, 1, np.where(u < 0.9, small, large)).astype(np.int64)


def sizes_u(rng: np.random.Generator, n: int) -> np.ndarray:
    """Trace U sizes: uniform 1..64."""
    return rng.integers(1, 65, n).astype(np.int64)


def random_trace(
    n: int,
    sizes: Callable[[np.random.Generator, int], np.ndarray],
    *,
    seed: int = SEED,
    max_live: int = 50_000,
    p_alloc: float = 0.55,
) -> np.ndarray:
    """Random allocate/free trace of ``n`` rows.

    Row i allocates ``sizes[i]`` into a fresh slot when nothing is live or when fewer than
    ``max_live`` are live and a uniform draw is below ``p_alloc``; otherwise it frees a uniformly
    random live slot.
    """
    rng = np.random.default_rng(seed)
    u_alloc = rng.random(n)
    u_pick = rng.random(n)
    size = sizes(rng, n)
    import dx12kit_bench  # the benchmark module, put on sys.path by benchmarks/_native.py

    return dx12kit_bench.build_random_trace(u_alloc, u_pick, size, max_live, p_alloc)


def linear_trace(
    allocations: int = 10_000_000,
    *,
    reset_every: int = 100_000,
    low: int = 16,
    high: int = 1024,
    seed: int = SEED,
) -> np.ndarray:
    """``allocations`` bump allocations (slot -1: offsets discarded), reset every ``reset_every``."""
    if allocations % reset_every:
        raise ValueError("allocations must be a multiple of reset_every")
    rng = np.random.default_rng(seed)
    sizes = rng.integers(low, high + 1, allocations, dtype=np.int64)
    periods = allocations // reset_every
    # One period = reset_every allocation rows [0, -1, size] and one reset row [4, 0, 0].
    ops = np.zeros((periods, reset_every + 1, 3), dtype=np.int64)
    ops[:, :-1, 1] = -1
    ops[:, :-1, 2] = sizes.reshape(periods, reset_every)
    ops[:, -1, 0] = 4
    return ops.reshape(-1, 3)


# Capacity of the linear trace: one reset period of 256-aligned allocations (~64.6M units on
# average) always fits.
LINEAR_CAPACITY = 1 << 27

_CACHE: Dict[str, Trace] = {}


def standard_trace(name: str) -> Trace:
    """The standard trace ``"S"``, ``"U"`` or ``"linear"`` (built once per process)."""
    if name not in _CACHE:
        if name == "S":
            _CACHE[name] = Trace("S", random_trace(2_000_000, sizes_s), 1_000_000)
        elif name == "U":
            _CACHE[name] = Trace("U", random_trace(2_000_000, sizes_u), 1_000_000)
        elif name == "linear":
            _CACHE[name] = Trace("linear", linear_trace(), LINEAR_CAPACITY, 256)
        else:
            raise KeyError(f"unknown trace {name!r}; standard traces: {STANDARD}")
    return _CACHE[name]


STANDARD = ("S", "U", "linear")
