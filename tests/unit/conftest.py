"""Fixtures and plain-Python reference models for the allocator tests (tests/unit/test_alloc*.py)."""
from __future__ import annotations

import importlib.util
import pathlib
import sys
import types
from typing import Dict, List, Optional, Tuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def traces():
    """benchmarks/traces.py, loaded by path (the benchmarks folder is not a package)."""
    spec = importlib.util.spec_from_file_location("dx12kit_bench_traces", ROOT / "benchmarks" / "traces.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def align_up(offset: int, alignment: int) -> int:
    return -(-offset // alignment) * alignment


def coalesced_free_runs(capacity: int, taken: Dict[int, int]) -> List[Tuple[int, int]]:
    """Maximal free ranges (offset, size) of [0, capacity) minus the `taken` ranges."""
    runs = []
    cursor = 0
    for offset, size in sorted(taken.items()):
        if offset > cursor:
            runs.append((cursor, offset - cursor))
        cursor = max(cursor, offset + size)
    if cursor < capacity:
        runs.append((cursor, capacity - cursor))
    return runs


class BestFitModel:
    """Address-ordered best fit, the obvious way: O(n) per operation.

    The reference for FreeList and BaselineBimap: among free blocks that hold the aligned request,
    the smallest; among equally small ones, the lowest offset; the allocation starts at the first
    aligned offset of that block.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.live: Dict[int, int] = {}
        self.pending: Dict[int, Tuple[int, int]] = {}  # offset -> (size, fence)

    def taken(self) -> Dict[int, int]:
        t = dict(self.live)
        t.update({o: s for o, (s, _) in self.pending.items()})
        return t

    def free_blocks(self) -> List[Tuple[int, int]]:
        return coalesced_free_runs(self.capacity, self.taken())

    def allocate(self, size: int, alignment: int) -> Optional[int]:
        best = None
        for offset, block in self.free_blocks():
            start = align_up(offset, alignment)
            if start + size <= offset + block and (best is None or (block, offset) < best[:2]):
                best = (block, offset, start)
        if best is None:
            return None
        self.live[best[2]] = size
        return best[2]

    def free(self, offset: int) -> None:
        del self.live[offset]

    def free_deferred(self, offset: int, fence: int) -> None:
        self.pending[offset] = (self.live.pop(offset), fence)

    def release_stale(self, completed: int) -> None:
        for offset in [o for o, (_, f) in self.pending.items() if f <= completed]:
            del self.pending[offset]

    def reset(self) -> None:
        self.live.clear()
        self.pending.clear()

    def stats(self) -> Dict[str, int]:
        free = self.free_blocks()
        used = sum(self.taken().values())
        return {
            "capacity": self.capacity,
            "used": used,
            "free": self.capacity - used,
            "free_blocks": len(free),
            "largest_free_block": max((s for _, s in free), default=0),
            "allocations": len(self.live) + len(self.pending),
        }


@pytest.fixture(scope="session")
def models():
    """The reference models and helpers of this file (test modules cannot import conftest under
    --import-mode=importlib)."""
    return types.SimpleNamespace(
        BestFitModel=BestFitModel, align_up=align_up, coalesced_free_runs=coalesced_free_runs
    )
