"""Stage 2b, schedule: the order the alive passes run in (``RenderGraph(..., schedule=...)``).

``"declared"`` (the default) keeps declaration order. The other two reorder the alive passes along a
topological order of their dependency DAG (:func:`dependencies`), so every order they give computes what
declaration order computes:

- per resource (transient, imported or history version), a write after the last writer and after every
  read since it (write after write, write after read), a read after the last writer (read after write);
  two reads since a write keep their order unless they need the same state (a read that changes the state
  another queue is reading in is not moved past it);
- passes declared ``side_effects=True`` keep their relative order.

``"memory"`` lowers the peak of the transients' memory: greedy list schedulers over the ready passes
(prefer the pass whose transients end their lives and free the most bytes; delay passes that start big
transients). ``"overlap"`` lets compute- and copy-queue work overlap direct-queue work: async passes are
issued as soon as they are ready and direct passes that need no GPU wait run before those that do (and a
variant that keeps each queue's run going as long as it can, for fewer queue switches). Each candidate
order, declaration order included, goes through the later stages (lifetimes, placement, barriers) and is
scored by what those really give: for ``"memory"`` peak transient bytes, then queue switches; for
``"overlap"`` the length of the frame with every pass costing one unit and every command list one more (the
queues' lists running in submission order, each after the lists it waits for: :func:`frame_span`), then queue
switches and GPU waits. An order replaces declaration order only when it scores strictly better, so a
schedule is never worse than declaration order by its own measure, and a graph with nothing to gain keeps
declaration order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Sequence, Set, Tuple

from .barriers import BarrierPlan, plan_barriers
from .lifetimes import Lifetimes, lifetimes
from .model import QUEUES, GraphError, GraphResource, PassDecl
from .subresources import tracked_resources
from .placement import AllocationInfoFn, MemoryLayout, place

SCHEDULES: Tuple[str, ...] = ("declared", "memory", "overlap")
LIST_COST = 1.0   # what a command list (its submission, and the queue switch or GPU wait that made it) costs, in passes


def check_schedule(value: Any) -> str:
    """``RenderGraph``'s ``schedule`` argument checked: one of :data:`SCHEDULES`."""
    if not isinstance(value, str):
        raise TypeError(f"RenderGraph: schedule must be a str, one of {SCHEDULES}, not {type(value).__name__}")
    if value not in SCHEDULES:
        raise GraphError(f"RenderGraph: schedule must be one of {SCHEDULES}, got {value!r}")
    return value


def dependencies(alive: Sequence[PassDecl]) -> List[Set[int]]:
    """For each alive pass (by position in ``alive``, declaration order), the positions it must follow."""
    preds: List[Set[int]] = [set() for _ in alive]
    last_writer: Dict[GraphResource, int] = {}
    readers: Dict[GraphResource, List[int]] = {}   # since the last write
    last_side_effect = -1
    for i, p in enumerate(alive):
        mine = preds[i]
        for h, w in p.writes_of.items():
            lw = last_writer.get(h)
            if lw is not None:
                mine.add(lw)
            since = readers.get(h)
            if w:
                if since:
                    mine.update(since)
                last_writer[h] = i
                readers[h] = []
            else:
                need = p.need_of[h]
                if since:
                    mine.update(r for r in since if alive[r].need_of[h] != need)
                    since.append(i)
                else:
                    readers[h] = [i]
        if p.side_effects:
            if last_side_effect >= 0:
                mine.add(last_side_effect)
            last_side_effect = i
        mine.discard(i)
    return preds


@dataclass(frozen=True)
class Evaluation:
    """One order of the alive passes through the later stages, and what it gives."""

    order: Tuple[PassDecl, ...]
    lifetimes: Lifetimes
    layout: MemoryLayout
    barriers: BarrierPlan
    transient_bytes: int
    queue_switches: int
    cross_queue_waits: int
    span: float   # the frame's length estimate (passes of one unit, LIST_COST per list)


def frame_span(barriers: BarrierPlan) -> float:
    """The frame's length with every pass one unit and every command list :data:`LIST_COST` more: each queue
    runs its lists in submission order, a list starting after the lists it waits for end."""
    end: List[float] = []
    queue_free: Dict[str, float] = {}
    for lst in barriers.lists:
        start = queue_free.get(lst.queue, 0.0)
        for j in lst.waits.values():
            start = max(start, end[j])
        end.append(start + len(lst.passes) + LIST_COST)
        queue_free[lst.queue] = end[-1]
    return max(end, default=0.0)


def evaluate(order: Sequence[PassDecl], allocation_info: AllocationInfoFn, aliasing: bool,
             spare_barriers: bool = True) -> Evaluation:
    """``order`` through lifetimes, placement and barriers, and its numbers (``spare_barriers``: see
    :func:`.placement.place`)."""
    lives = lifetimes(order)
    layout = place(lives, allocation_info, aliasing, alone=tracked_resources(order), spare_barriers=spare_barriers)
    barriers = plan_barriers(order, lives, layout)
    lists = barriers.lists
    return Evaluation(order=tuple(order), lifetimes=lives, layout=layout, barriers=barriers,
                      transient_bytes=layout.block_bytes,
                      queue_switches=sum(1 for a, b in zip(lists, lists[1:]) if a.queue != b.queue),
                      cross_queue_waits=sum(len(lst.waits) for lst in lists), span=frame_span(barriers))


# ---------------------------------------------------------------------------------------------- list schedulers
PickFn = Callable[[List[int], "_State"], int]


class _State:
    """What a list scheduler knows while it places passes one by one."""

    def __init__(self, alive: Sequence[PassDecl], preds: List[Set[int]], sizes: Dict[GraphResource, int]) -> None:
        self.alive = alive
        self.preds = preds
        self.sizes = sizes
        self.users_left: Dict[GraphResource, int] = {}
        for p in alive:
            for h in p.uses:
                if h in sizes:
                    self.users_left[h] = self.users_left.get(h, 0) + 1
        self.started: Set[GraphResource] = set()
        self.queue = alive[0].queue if alive else "direct"
        self.position: Dict[int, int] = {}   # pass -> its place in the schedule
        # per queue, per other queue: the latest place of that queue's work it has waited for (directly or not)
        self.known: Dict[str, Dict[str, int]] = {q: {} for q in QUEUES}
        self.known_at: List[Dict[str, int]] = []   # per place: what its queue knew once it ran

    def alloc_free(self, i: int) -> Tuple[int, int]:
        """Bytes pass ``i`` starts (transients first used by it) and ends (transients last used by it)."""
        alloc = free = 0
        for h in self.alive[i].uses:
            s = self.sizes.get(h)
            if s is None:
                continue
            if h not in self.started:
                alloc += s
            if self.users_left[h] == 1:
                free += s
        return alloc, free

    def new_wait(self, i: int) -> bool:
        """Whether pass ``i`` would make its queue wait for work of another queue it has not waited for."""
        p = self.alive[i]
        known = self.known[p.queue]
        for d in self.preds[i]:
            q = self.alive[d].queue
            if q != p.queue and self.position[d] > known.get(q, -1):
                return True
        return False

    def place(self, i: int) -> None:
        p = self.alive[i]
        known = self.known[p.queue]
        for d in self.preds[i]:
            q = self.alive[d].queue
            if q != p.queue and self.position[d] > known.get(q, -1):
                for q2, v in self.known_at[self.position[d]].items():
                    if q2 != p.queue and v > known.get(q2, -1):
                        known[q2] = v
                known[q] = self.position[d]
        self.position[i] = len(self.position)
        self.known_at.append(dict(known, **{p.queue: self.position[i]}))
        for h in p.uses:
            if h in self.sizes:
                self.started.add(h)
                self.users_left[h] -= 1
        self.queue = p.queue


def list_schedule(alive: Sequence[PassDecl], preds: List[Set[int]], sizes: Dict[GraphResource, int],
                  pick: PickFn) -> List[int]:
    """A topological order of ``alive`` (positions), ``pick`` choosing among the ready passes at each step."""
    n = len(alive)
    succs: List[List[int]] = [[] for _ in range(n)]
    waiting = [len(ps) for ps in preds]
    for i, ps in enumerate(preds):
        for d in ps:
            succs[d].append(i)
    ready = [i for i in range(n) if not waiting[i]]
    st = _State(alive, preds, sizes)
    out: List[int] = []
    while ready:
        i = pick(ready, st)
        ready.remove(i)
        st.place(i)
        out.append(i)
        for s in succs[i]:
            waiting[s] -= 1
            if not waiting[s]:
                ready.append(s)
    if len(out) != n:   # cannot happen: the dependencies point backwards in declaration order
        raise GraphError("render graph schedule: the pass dependencies form a cycle")
    return out


def _pick_least_growth(ready: List[int], st: _State) -> int:
    """Memory: the pass that grows the live transient bytes least (frees most), then the one starting least,
    then one on the current queue, then declaration order."""
    def key(i: int) -> Tuple[int, int, int, int]:
        alloc, free = st.alloc_free(i)
        return (alloc - free, alloc, st.alive[i].queue != st.queue, i)
    return min(ready, key=key)


def _pick_smallest_start(ready: List[int], st: _State) -> int:
    """Memory: the pass starting the fewest bytes (delays big transients), then the one freeing most."""
    def key(i: int) -> Tuple[int, int, int, int]:
        alloc, free = st.alloc_free(i)
        return (alloc, -free, st.alive[i].queue != st.queue, i)
    return min(ready, key=key)


def _pick_async_first(ready: List[int], st: _State) -> int:
    """Overlap: compute/copy passes as soon as they are ready; then passes needing no new GPU wait (the
    consumers of async work as late as possible), staying on the current queue, in declaration order."""
    def key(i: int) -> Tuple[bool, bool, bool, int]:
        p = st.alive[i]
        return (p.queue == "direct", st.new_wait(i), p.queue != st.queue, i)
    return min(ready, key=key)


def _pick_long_runs(ready: List[int], st: _State) -> int:
    """Overlap: keep the current queue's run going (fewer switches), passes needing no new wait first."""
    def key(i: int) -> Tuple[bool, bool, int]:
        return (st.alive[i].queue != st.queue, st.new_wait(i), i)
    return min(ready, key=key)


_PICKS: Dict[str, Tuple[PickFn, ...]] = {"memory": (_pick_least_growth, _pick_smallest_start),
                                         "overlap": (_pick_async_first, _pick_long_runs)}


def _score(mode: str, e: Evaluation) -> Tuple[float, ...]:
    if mode == "memory":
        return (e.transient_bytes, e.queue_switches, e.span)
    return (e.span, e.queue_switches, e.cross_queue_waits, e.transient_bytes)


@dataclass(frozen=True)
class ScheduleReport:
    """What the schedule stage did (``stats()["schedule"]``).

    Attributes:
        mode: ``"declared"``, ``"memory"`` or ``"overlap"``.
        declared: the alive passes' names in declaration order.
        scheduled: in the order they run.
        declared_numbers: the numbers of declaration order (``transient_bytes``, ``queue_switches``,
            ``cross_queue_waits``, ``span``).
        scheduled_numbers: the same of the order chosen.
        candidates: how many orders were tried (declaration order included).
    """

    mode: str
    declared: Tuple[str, ...]
    scheduled: Tuple[str, ...]
    declared_numbers: Dict[str, float]
    scheduled_numbers: Dict[str, float]
    candidates: int

    def as_dict(self) -> Dict[str, Any]:
        """``stats()["schedule"]``."""
        moved = [n for k, n in enumerate(self.scheduled) if k >= len(self.declared) or self.declared[k] != n]
        out: Dict[str, Any] = {"mode": self.mode, "declared_order": list(self.declared),
                               "scheduled_order": list(self.scheduled), "moved": moved,
                               "candidates": self.candidates}
        for k in ("transient_bytes", "queue_switches", "cross_queue_waits", "span"):
            out[k] = {"declared": self.declared_numbers[k], "scheduled": self.scheduled_numbers[k]}
        return out


def _numbers(e: Evaluation) -> Dict[str, float]:
    return {"transient_bytes": e.transient_bytes, "queue_switches": e.queue_switches,
            "cross_queue_waits": e.cross_queue_waits, "span": e.span}


def _sizes(alive: Sequence[PassDecl], lives: Lifetimes, allocation_info: AllocationInfoFn) -> Dict[GraphResource, int]:
    """The bytes of each placed transient (multisampled ones included: they are placed too)."""
    return {h: allocation_info(h, life.flags).size for h, life in lives.of.items()}


def schedule(alive: Sequence[PassDecl], mode: str, allocation_info: AllocationInfoFn,
             aliasing: bool = True) -> Tuple[Evaluation, ScheduleReport]:
    """The schedule stage.

    Args:
        alive: the alive passes in declaration order (:attr:`CullResult.alive`).
        mode: one of :data:`SCHEDULES`.
        allocation_info: the size and alignment of a placed transient.
        aliasing: let transients whose lifetimes do not overlap share memory.

    Returns:
        The chosen order with its lifetimes, layout and barriers, and the report of what moved.
    """
    spare = mode != "memory"   # the memory schedule wants the lowest peak, whatever the barriers
    declared = evaluate(alive, allocation_info, aliasing, spare)
    best, tried = declared, 1
    if mode != "declared" and len(alive) > 1:
        preds = dependencies(alive)
        sizes = _sizes(alive, declared.lifetimes, allocation_info)
        seen = {tuple(range(len(alive)))}
        for pick in _PICKS[mode]:
            order = tuple(list_schedule(alive, preds, sizes, pick))
            if order in seen:
                continue
            seen.add(order)
            tried += 1
            e = evaluate([alive[i] for i in order], allocation_info, aliasing, spare)
            if _score(mode, e) < _score(mode, best):
                best = e
    names = tuple(p.name for p in alive)
    report = ScheduleReport(mode=mode, declared=names, scheduled=tuple(p.name for p in best.order),
                            declared_numbers=_numbers(declared), scheduled_numbers=_numbers(best), candidates=tried)
    return best, report

