"""Stage 3, lifetimes: for each transient the alive passes between its first and last use, and what
it is created for (render target, depth stencil, unordered access).

A transient used on the compute or copy queue holds its bytes until a pass of another queue has
waited for that work (the *join point*): sharing them earlier would make unrelated passes of the
other queue wait for it, and lose the overlap. So ``last`` may lie past ``last_use``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Sequence, Tuple

from .model import DS, RT, WRITE, GraphResource, PassDecl, ResourceFlags


@dataclass
class Lifetime:
    """One transient's lifetime, in pass orders (positions among the alive passes).

    Attributes:
        resource: the transient.
        first: the first alive pass using it.
        last_use: the last alive pass using it.
        last: the last pass its bytes are held for (``last_use``, or the pass before the join point
            of its compute/copy work).
        flags: what the real resource is created for.
    """

    __slots__ = ("resource", "first", "last_use", "last", "flags")
    resource: GraphResource
    first: int
    last_use: int
    last: int
    flags: ResourceFlags


@dataclass(frozen=True)
class Lifetimes:
    """The lifetimes stage's result.

    Attributes:
        of: each transient used by an alive pass, in order of first use.
        join_points: per alive pass, the order of the first pass on another queue that depends on it
            (the last pass's order when none does); empty when every pass is on the direct queue.
    """

    of: Mapping[GraphResource, Lifetime]
    join_points: Tuple[int, ...]


def join_points(alive: Sequence[PassDecl]) -> List[int]:
    """For each alive pass, the order of the first pass on another queue that depends on it directly
    (through a resource), or the last pass's order when none does."""
    n = len(alive)
    join = [n - 1] * n
    last_writer: Dict[GraphResource, int] = {}
    readers: Dict[GraphResource, List[int]] = {}
    for order, p in enumerate(alive):
        for h, w in p.writes_of.items():
            earlier = [last_writer[h]] if h in last_writer else []
            if w:
                earlier += readers.get(h, [])
            for d in earlier:
                if alive[d].queue != p.queue and order < join[d]:
                    join[d] = order
            if w:
                last_writer[h] = order
                readers[h] = []
            else:
                readers.setdefault(h, []).append(order)
    return join


_FLAG_BITS: Dict[str, int] = {RT: 1, DS: 2, WRITE: 4}   # the uses that decide a transient's flags
_FLAGS = [ResourceFlags(bool(b & 1), bool(b & 2), bool(b & 4)) for b in range(8)]   # by those bits


def lifetimes(alive: Sequence[PassDecl]) -> Lifetimes:
    """The lifetimes stage.

    Args:
        alive: the alive passes in execution order (:attr:`CullResult.alive`).

    Returns:
        The lifetime of each transient they use.
    """
    first: Dict[GraphResource, int] = {}
    last_use: Dict[GraphResource, int] = {}
    bits: Dict[GraphResource, int] = {}   # RT | DS | UAV, over every use
    for order, p in enumerate(alive):
        for h, u in p.uses.items():
            if h.transient:
                if h not in first:
                    first[h] = order
                    bits[h] = 0
                last_use[h] = order
                for use in u:
                    bits[h] |= _FLAG_BITS.get(use, 0)
    join = join_points(alive) if any(p.queue != "direct" for p in alive) else []
    held_until = dict(last_use)
    for order, p in enumerate(alive):
        if p.queue == "direct":
            continue
        for h in p.uses:
            # the join pass waits before it starts: from it on, the bytes are free
            if h.transient and join[order] - 1 > held_until[h]:
                held_until[h] = join[order] - 1
    return Lifetimes(of={h: Lifetime(h, first[h], last_use[h], held_until[h], _FLAGS[b]) for h, b in bits.items()},
                     join_points=tuple(join))
