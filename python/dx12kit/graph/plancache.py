"""The device's cache of compiled graphs: a graph rebuilt identically (same resources, same passes with
the same queues, uses, targets and clears, in the same order; any record functions) takes the compiled
plan and the real transients of the last one instead of compiling and allocating again.

The key (:func:`structural_key`) is the declaration's structure: each resource's description (kind,
name, size or width/height/format/mips/array size/samples, transient or imported) and each pass's name,
queue, uses, targets, clears and ``side_effects``, plus the ``aliasing`` and ``schedule`` settings. Record callables and
the identity of imported resources are not in it: the new graph's own record functions and imported
resources are used at bake. The cache is a small LRU per device (:func:`plan_cache`).
"""
from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any, Dict, Hashable, List, Optional, Sequence

from .compile import CompiledGraph
from .declare import Declaration
from .model import GraphResource, Resource

DEFAULT_CAPACITY = 4


def structural_key(declaration: Declaration, aliasing: bool, schedule: str = "declared") -> Hashable:
    """What a compile and its real transients depend on (see the module's description): the keys the
    declaration made of each resource and pass as they were declared, ``aliasing`` and ``schedule`` (the
    order the passes run in: :mod:`.schedule`)."""
    return (aliasing, schedule, tuple(declaration.resource_keys), tuple(declaration.pass_keys))


class PlanEntry:
    """One cached compile and, after the first execution of a graph using it, its real transients.

    Attributes:
        compiled: the compile (its handles and passes are those of the graph that compiled it:
            ``resources[i]`` and the new graph's ``i``-th resource are the same resource).
        resources: the compiling graph's declared resources.
        real: the real transients, by the compiling graph's handles (``None``: not realised yet).
        memory: the memory block holding them.
        last_direct_value: the direct-queue fence value completing the last execution of any graph
            using these transients (the next one's first lists wait for it).
        codes: the generated recorders' compiled code, by source.
    """

    __slots__ = ("compiled", "resources", "real", "memory", "last_direct_value", "codes")

    def __init__(self, compiled: CompiledGraph, resources: Sequence[GraphResource]) -> None:
        self.compiled = compiled
        self.resources = tuple(resources)
        self.real: Optional[Dict[GraphResource, Resource]] = None
        self.memory: Any = None
        self.last_direct_value = 0
        self.codes: Dict[str, Any] = {}   # the recorders' compiled code by source


class PlanCache:
    """A device's compiled graphs, least recently used dropped first.

    Each plan keeps its transients' memory while cached; ``capacity = 0`` turns caching off.
    """

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        """An empty cache.

        Args:
            capacity: how many plans it keeps (0: none).
        """
        self._entries: "OrderedDict[Hashable, PlanEntry]" = OrderedDict()
        self._capacity = capacity
        self.hits = 0
        self.misses = 0
        self.evictions = 0

    @property
    def capacity(self) -> int:
        """How many plans it keeps; lowering it drops the least recently used at once."""
        return self._capacity

    @capacity.setter
    def capacity(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TypeError(f"PlanCache.capacity must be an int >= 0, not {value!r}")
        self._capacity = value
        self._evict()

    def _evict(self) -> None:
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)
            self.evictions += 1

    def get(self, key: Hashable) -> Optional[PlanEntry]:
        """The entry of ``key`` (counted as a hit), or ``None`` (a miss).

        Args:
            key: a graph's structural key (``structural_key``).

        Returns:
            The cached entry, or ``None``.
        """
        e = self._entries.get(key)
        if e is None:
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return e

    def put(self, key: Hashable, entry: PlanEntry) -> None:
        """Keeps ``entry`` under ``key``, dropping the least recently used beyond the capacity.

        Args:
            key: the graph's structural key.
            entry: its compiled plan and transients.
        """
        if self._capacity <= 0:
            return
        self._entries[key] = entry
        self._entries.move_to_end(key)
        self._evict()

    def clear(self) -> None:
        """Drops every plan (graphs using one keep it; the counts stay)."""
        self._entries.clear()

    def stats(self) -> Dict[str, Any]:
        """``hits``, ``misses``, ``evictions``, ``entries`` and ``capacity``."""
        return {"hits": self.hits, "misses": self.misses, "evictions": self.evictions,
                "entries": len(self._entries), "capacity": self.capacity}


_CACHES: "weakref.WeakKeyDictionary[Any, PlanCache]" = weakref.WeakKeyDictionary()


def plan_cache(device: Any) -> PlanCache:
    """The render graph plan cache of ``device`` (made at first use).

    Args:
        device: a :class:`dx12kit.Device`.

    Returns:
        Its :class:`PlanCache`.
    """
    c = _CACHES.get(device)
    if c is None:
        c = _CACHES[device] = PlanCache()
    return c


def reals_by_index(entry: PlanEntry, resources: List[GraphResource]) -> Dict[GraphResource, Resource]:
    """``entry``'s real transients keyed by the handles ``resources`` of a graph of the same structure."""
    assert entry.real is not None
    return {resources[h.index]: r for h, r in entry.real.items()}
