"""Stage 2, cull: which passes run, in which order.

Passes run in declaration order. Walking back from the end, a pass is kept (alive) when it has side
effects or writes an imported resource or a transient that a kept pass after it reads (a full write,
a copy/resolve into it or a clear of a target, ends the need for what was there before). Also here:
a transient read before any pass writes it is a declaration error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence, Set, Tuple

from .model import FULL_WRITES, READS_PREVIOUS, WRITES, GraphError, GraphResource, PassDecl


@dataclass(frozen=True)
class CullResult:
    """The cull stage's result.

    Attributes:
        alive: the kept passes in execution order; a pass's *order* is its position here.
        culled: the passes that do not run, in declaration order.
        order_of: each alive pass's order.
    """

    alive: Tuple[PassDecl, ...]
    culled: Tuple[PassDecl, ...]
    order_of: Mapping[PassDecl, int]

    def is_alive(self, p: PassDecl) -> bool:
        """Whether ``p`` runs."""
        return p in self.order_of


def _keeps(p: PassDecl, needed: Set[GraphResource]) -> bool:
    """Whether ``p`` is kept, given the transients whose contents kept passes after it read."""
    if p.side_effects:
        return True
    for h, w in p.writes_of.items():
        if w and (not h.transient or h in needed):
            return True
    return False


def _update_needed(p: PassDecl, needed: Set[GraphResource]) -> None:
    """The transients whose earlier contents are needed before kept pass ``p``."""
    for h, u in p.uses.items():
        if not h.transient:
            continue
        full = not u.isdisjoint(FULL_WRITES) or h in p.clear
        if full:
            needed.discard(h)
        if not u.isdisjoint(READS_PREVIOUS) or (not full and not u.isdisjoint(WRITES)):
            needed.add(h)   # reads it, or writes only part of it


def check_written_before_read(passes: Sequence[PassDecl]) -> None:
    """Raises GraphError for a transient that a pass reads before any pass (alive or not) writes it."""
    written: Set[GraphResource] = set()
    for p in passes:
        for h, w in p.writes_of.items():
            if not w and h.transient and h not in written:
                raise GraphError(f"pass {p.name!r} reads transient {h.name!r} before any pass writes it "
                                 "(a transient has undefined contents until its first write)")
        for h, w in p.writes_of.items():
            if w:
                written.add(h)


def cull(passes: Sequence[PassDecl]) -> CullResult:
    """The cull stage.

    Args:
        passes: every declared pass, in declaration order.

    Returns:
        The alive passes in order and the culled ones.

    Raises:
        GraphError: a transient read before any pass writes it.
    """
    needed: Set[GraphResource] = set()   # transients whose contents a kept pass reads
    kept = [False] * len(passes)
    for i in range(len(passes) - 1, -1, -1):
        p = passes[i]
        if _keeps(p, needed):
            kept[i] = True
            _update_needed(p, needed)
    check_written_before_read(passes)
    alive = tuple(p for p, k in zip(passes, kept) if k)
    return CullResult(alive=alive, culled=tuple(p for p, k in zip(passes, kept) if not k),
                      order_of={p: i for i, p in enumerate(alive)})
