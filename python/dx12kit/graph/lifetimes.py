"""Stage 3, lifetimes: for each transient the alive passes between its first and last use, and what
it is created for (render target, depth stencil, unordered access).

On one queue a transient's bytes are free after its last use. With several queues, a pass later in
declaration order may run at the same time as an earlier pass of another queue, so the bytes of a
transient used on several queues are free only from the first pass from which on *every* pass is
ordered after all of its uses: by its own queue's order, or by the GPU waits the graph makes for its
dependencies (a read waits for the last writer, a write for the last writer and the readers since;
the same rule :mod:`.barriers` follows). D3D12 lets memory change hands between queues only when a
fence orders the last use on one before the first use on the other; taking over bytes from there on
needs no wait beyond those the dependencies already make, and costs no overlap. So ``last`` (the last
pass the bytes are held for) may lie past ``last_use``, but never past a point where the work is
already ordered.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Sequence, Tuple

from .model import DS, QUEUES, RT, WRITE, GraphResource, PassDecl, ResourceFlags


@dataclass
class Lifetime:
    """One transient's lifetime, in pass orders (positions among the alive passes).

    Attributes:
        resource: the transient.
        first: the first alive pass using it.
        last_use: the last alive pass using it.
        last: the last pass its bytes are held for (``last_use``, or the latest pass of another queue
            not ordered after every use).
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
        known: per alive pass, per queue (in the order of ``QUEUES``), the order of the latest pass of
            that queue ordered before it (itself on its own queue; -1: none); empty when every pass is
            on the direct queue.
    """

    of: Mapping[GraphResource, Lifetime]
    known: Tuple[Tuple[int, ...], ...]


def known_before(alive: Sequence[PassDecl]) -> List[Tuple[int, ...]]:
    """For each alive pass, per queue, the order of the latest pass of that queue it is ordered after
    (its own order on its own queue): passes of one queue run in order, and a pass waits for the passes
    it depends on through a resource (a read for the last writer, a write for the last writer and every
    reader since), and so for everything those were ordered after."""
    qi = {q: i for i, q in enumerate(QUEUES)}
    none = (-1,) * len(QUEUES)
    known: List[Tuple[int, ...]] = []
    latest_on: Dict[str, int] = {}                  # queue -> its latest pass so far
    access: Dict[GraphResource, List[int]] = {}     # the last writer (or first reader), then the readers since
    for order, p in enumerate(alive):
        k = list(known[latest_on[p.queue]]) if p.queue in latest_on else list(none)
        for h, w in p.writes_of.items():
            prev = access.get(h)
            if prev:
                deps = prev if w else (prev[:1] if alive[prev[0]].writes_of[h] else [])
                for d in deps:
                    kd = known[d]
                    for i in range(len(k)):
                        if kd[i] > k[i]:
                            k[i] = kd[i]
            if w or not prev:
                access[h] = [order]
            else:
                prev.append(order)
        k[qi[p.queue]] = order
        latest_on[p.queue] = order
        known.append(tuple(k))
    return known


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
    if not any(p.queue != "direct" for p in alive):
        return Lifetimes(of={h: Lifetime(h, first[h], last_use[h], last_use[h], _FLAGS[b]) for h, b in bits.items()},
                         known=())
    known = known_before(alive)
    held_until = _held_until(alive, known, last_use)
    return Lifetimes(of={h: Lifetime(h, first[h], last_use[h], held_until[h], _FLAGS[b]) for h, b in bits.items()},
                     known=tuple(known))


def _held_until(alive: Sequence[PassDecl], known: Sequence[Tuple[int, ...]],
                last_use: Mapping[GraphResource, int]) -> Dict[GraphResource, int]:
    """Per transient, the last pass its bytes are held for: the latest pass not ordered after all of its
    uses (at least its last use). ``unordered[q][v]``: the latest pass that is ordered after no pass of
    queue ``q`` from order ``v`` on; a transient whose last use on ``q`` is ``v`` holds its bytes at least
    until then. O(passes x queues) to build, O(uses) per transient."""
    n, nq = len(alive), len(QUEUES)
    qi = {q: i for i, q in enumerate(QUEUES)}
    unordered: List[List[int]] = []
    for i in range(nq):
        latest_knowing = [-1] * (n + 1)   # by known value + 1: the latest pass knowing exactly that much
        for order, k in enumerate(known):
            latest_knowing[k[i] + 1] = order
        run, out = -1, [-1] * (n + 1)     # out[v + 1]: the latest pass knowing less than v
        for v in range(n + 1):
            out[v] = run
            if latest_knowing[v] > run:
                run = latest_knowing[v]
        unordered.append(out)
    last_on: Dict[GraphResource, List[int]] = {}
    for order, p in enumerate(alive):
        for h in p.uses:
            if h.transient:
                lq = last_on.get(h)
                if lq is None:
                    lq = last_on[h] = [-1] * nq
                lq[qi[p.queue]] = order
    held: Dict[GraphResource, int] = {}
    for h, lq in last_on.items():
        last = last_use[h]
        for i, v in enumerate(lq):
            if v >= 0 and unordered[i][v + 1] > last:
                last = unordered[i][v + 1]
        held[h] = last
    return held
