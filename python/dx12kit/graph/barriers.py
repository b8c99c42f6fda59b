"""Stage 5, barriers: what the graph records around each pass, and how the passes split into command
lists and wait for each other's queues.

For each alive pass in order, and each resource it declares:

- *First use of a transient*: it takes over bytes, unless an earlier transient of its description
  used the same physical resource (then a plain transition follows). When another physical resource
  used them earlier in the same command list, the graph records the aliasing barrier itself, naming
  the state the resource was left in (dx12kit's tracker takes it to be there, D3D12 rule 6c, and
  puts it there before the list only when it is not: no detour through ``COMMON``); otherwise dx12kit
  activates it at execute, in the list run just before. A transient planned per subresource names
  one state for the whole texture there: the one it ends every execution in (its subresources left in
  other states are moved there after its last passes, :meth:`SubresourcePlanner.moves_to_end_state`),
  so each subresource really is in the state named. A render
  target or depth texture whose first use does not clear or fully copy it gets a clear (D3D12's rule
  for memory taken over). Work of other queues that used the bytes must be waited for.
- *Dependencies*: a write waits for the last writer and every reader since, a read for the last
  writer; across queues these become GPU waits.
- *Transitions*: into the state the use needs. A resource new to a command list is always requested
  (its state is resolved at execute); otherwise only real changes. A state the pass's queue may not
  leave (``RENDER_TARGET`` on the compute queue) is left by the last direct-queue user after its pass;
  so is, at the end of an execution, such a state of a transient, an imported resource or a history's
  version that the next execution first uses on another queue. An imported texture or history version last
  used on a compute queue is moved by that pass to the state its next first use needs, when compute queues
  support that state (no transition for it at execute: on the direct queue, for a copy-queue first use).
- *UAV barriers* between two passes writing the same resource as UAV in the same state.

A pass needing a GPU wait that the passes before it in its list do not need starts a new list, so they
run without the wait. The counts (``stats()["barriers"]``) are gathered on the way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

from .lifetimes import Lifetimes
from .model import QUEUE_STATES, WRITE, GraphResource, PassDecl
from .placement import MemoryLayout
from .subresources import ALL, SubresourcePlanner, first_use_init, tracked_resources


@dataclass(slots=True)
class Transition:
    """A request that ``resource`` (or one subresource of it) be in ``state`` (dx12kit's tracker adds the
    barrier when it is not)."""

    resource: GraphResource
    state: int
    subresource: int = ALL   # one subresource index (resources declared through views, .subresources)


@dataclass
class AliasingBarrier:
    """``after`` takes over bytes ``before`` used (``before`` None: several resources did); ``state``: the
    state ``after`` was left in (dx12kit takes it to be there, instead of parking it in COMMON)."""

    before: Optional[GraphResource]
    after: GraphResource
    state: int = 0


@dataclass(eq=False)
class PassBarriers:
    """What the graph records around one alive pass.

    Attributes:
        pass_: the pass.
        order: its position among the alive passes.
        list_index: the command list it is recorded in (index into :attr:`BarrierPlan.lists`).
        aliasing: aliasing barriers before it.
        uav: resources needing a UAV barrier before it.
        transitions: the states it needs, requested before it.
        init_clears: render targets and depth buffers the graph clears before their first use.
        after: transitions recorded after its work (states handed over to later passes).
    """

    __slots__ = ("pass_", "order", "list_index", "aliasing", "uav", "transitions", "init_clears", "after")
    pass_: PassDecl
    order: int
    list_index: int
    aliasing: List[AliasingBarrier]
    uav: List[GraphResource]
    transitions: List[Transition]
    init_clears: List[GraphResource]
    after: List[Transition]


@dataclass(eq=False)
class CommandListPlan:
    """One command list: consecutive passes of one queue.

    Attributes:
        queue: ``"direct"``, ``"compute"`` or ``"copy"``.
        passes: its passes in order.
        waits: each other queue it waits for on the GPU -> the index of that queue's list it waits for.
        waits_previous_execution: waits for the previous execution's direct-queue work (the first list
            of a compute or copy queue: its transients' bytes were used there).
    """

    queue: str
    passes: List[PassBarriers] = field(default_factory=list)
    waits: Dict[str, int] = field(default_factory=dict)
    waits_previous_execution: bool = False


@dataclass
class BarrierCounts:
    """Barriers planned per execution (the meanings: :meth:`RenderGraph.stats`, key ``barriers``)."""

    transitions: int = 0
    uav: int = 0
    aliasing: int = 0
    aliasing_at_execute: int = 0
    split: int = 0
    batches: int = 0
    init_clears: int = 0
    queue_handoff: int = 0
    split_candidates: int = 0

    def as_dict(self) -> Dict[str, int]:
        """The counts as ``stats()["barriers"]``."""
        return dict(vars(self))


@dataclass(frozen=True)
class BarrierPlan:
    """The barriers stage's result.

    Attributes:
        lists: the command lists in submission order.
        passes: the plan of each alive pass, by order.
        counts: the barrier counts.
        start_states: the state each physical transient (placed in shared memory) is in when an execution
            starts (the one its last use left): the graph's aliasing barriers name it, so the transients
            are put there once when they are made (:func:`.realize.prime_states`).
    """

    lists: Tuple[CommandListPlan, ...]
    passes: Tuple[PassBarriers, ...]
    counts: BarrierCounts
    start_states: Mapping[GraphResource, int] = field(default_factory=dict)


@dataclass
class _Handoff:
    """A transition the previous execution's last direct-queue user of ``resource`` records after its
    pass, for a first use on a queue that may not leave the state ``resource`` is left in."""

    by: int   # the order of that pass
    resource: GraphResource
    state: int


def _wait_for(far_waits: Dict[str, int], queue: str, list_index: int, own_queue: str) -> None:
    """Notes that a pass on ``own_queue`` must wait for list ``list_index`` of ``queue``."""
    if queue != own_queue and list_index > far_waits.get(queue, -1):
        far_waits[queue] = list_index


class BarrierPlanner:
    """Plans the alive passes one by one (:meth:`plan_pass` in order, then :meth:`finish`); its fields
    are the state carried from pass to pass.

    Args:
        alive: the alive passes in order.
        lifetimes: the lifetimes stage's result.
        layout: the physical-resources stage's result (who takes bytes over from whom).
    """

    def __init__(self, alive: Sequence[PassDecl], lifetimes: Lifetimes, layout: MemoryLayout) -> None:
        self.alive = alive
        self.lifetimes = lifetimes.of
        self.succession = layout.succession
        # Transients sharing a physical resource (placement.share_physical) share its state: states,
        # requests, parking, UAV writers and handoffs are kept per physical resource (``phys``), data
        # dependencies per transient.
        self.phys: Dict[GraphResource, GraphResource] = {h: pl.physical for h, pl in layout.placements.items()}
        # per physical resource, the last pass using it (its last member's last use)
        self.final_use: Dict[GraphResource, int] = {}
        for h, life in self.lifetimes.items():
            ph = self.phys.get(h, h)
            if life.last_use > self.final_use.get(ph, -1):
                self.final_use[ph] = life.last_use
        # The state each resource is in before the pass being planned (absent: not known, an imported
        # resource before its first use). A transient starts an execution in the state its last use left
        # (kept from the previous execution; COMMON for buffers and after a copy queue).
        self.state: Dict[GraphResource, Optional[int]] = {}
        self.start_states: Dict[GraphResource, int] = {}
        for ph, last in self.final_use.items():
            final = alive[last]
            self.state[ph] = 0 if ph.kind == "buffer" or final.queue == "copy" else final.need_of[ph if ph in final.need_of else next(
                h for h in final.uses if self.phys.get(h) is ph)]
            self.start_states[ph] = self.state[ph] or 0
        self.last_access: Dict[GraphResource, List[PassBarriers]] = {}   # the last writer, or the readers since it
        # while UAV writes follow each other: per physical resource (or (resource, subresource)) its writer
        self.last_uav_writer: Dict[object, PassBarriers] = {}
        self.last_direct_user: Dict[GraphResource, PassBarriers] = {}
        self.lists: List[CommandListPlan] = []
        # per list, per other queue: the latest list of that queue it is ordered after (by its waits, its
        # queue's earlier lists' waits, and theirs): a wait already implied is not made again
        self.ordered_after: List[Dict[str, int]] = []
        self.passes: List[PassBarriers] = []
        self.requested_in_list: Set[object] = set()   # resources the current command list has requested
        self.activated: Dict[GraphResource, AliasingBarrier] = {}   # the graph's barriers awaiting their state
        self.lists_using: Dict[GraphResource, Set[int]] = {}   # the command lists using each transient
        # per transient whose life ended, per queue: the list of its last accesses there (a later user of
        # its bytes waits for them)
        self.freed_after: Dict[GraphResource, Dict[str, int]] = {}
        self.handoffs: List[_Handoff] = []
        # the last users of the resources the pass being planned transitions (split candidates: counted
        # once the pass's command list is final, at the end of plan_pass)
        self.last_users_transitioned: List[PassBarriers] = []
        self.counts = BarrierCounts()
        tracked = tracked_resources(alive)   # declared through views by some pass: states per subresource
        self.sub = None
        if tracked:
            self.sub = SubresourcePlanner(alive, tracked, Transition, _wait_for,
                                          {h: life.flags for h, life in self.lifetimes.items()})
            for h, end in self.sub.end_state.items():
                if end is not None:   # the state its activation names: primed there (realize.prime_states)
                    self.start_states[h] = end

    def plan_pass(self, p: PassDecl, order: int) -> PassBarriers:
        """Plans alive pass ``p`` (the passes before it are planned)."""
        plan = self._open(p, order)
        far_waits: Dict[str, int] = {}   # other queue -> latest list of it this pass depends on
        lifetimes = self.lifetimes
        for h, u in p.uses.items():
            life = lifetimes.get(h) if h.transient else None
            if life is not None:
                if life.first == order:
                    self._first_use(plan, h, far_waits)
            self._request(plan, h, far_waits)
        if far_waits:
            self._wait_or_split(plan, far_waits)
        for h in p.uses:
            if h.transient:
                lists = self.lists_using.get(h)
                if lists is None:
                    lists = self.lists_using[h] = set()
                lists.add(plan.list_index)
        for h in p.uses:
            if h.transient and lifetimes[h].last_use == order:
                self.freed_after[h] = self._last_lists(h)
        if self.last_users_transitioned:
            self._count_split_candidates(plan)
        return plan

    def _count_split_candidates(self, plan: PassBarriers) -> None:
        """A transition whose resource was last used two or more passes earlier in the same command list
        could be split (BEGIN_ONLY after that use, END_ONLY before this pass). Not emitted: vkd3d 1.2
        skips BEGIN_ONLY barriers and runs END_ONLY ones as whole transitions, so there is nothing to
        gain on it (and dx12kit's CommandList has no split-barrier call); counted to show the room."""
        for earlier in self.last_users_transitioned:
            if earlier.list_index == plan.list_index and earlier.order < plan.order - 1:
                self.counts.split_candidates += 1
        self.last_users_transitioned = []

    def _open(self, p: PassDecl, order: int) -> PassBarriers:
        """The pass's plan, appended to the current command list (a new one when the queue changes)."""
        if not self.lists or self.lists[-1].queue != p.queue:
            self._new_list(CommandListPlan(p.queue))
            self.requested_in_list = set()
        plan = PassBarriers(p, order, len(self.lists) - 1, [], [], [], [], [])
        self.lists[-1].passes.append(plan)
        self.passes.append(plan)
        return plan

    def _new_list(self, lst: CommandListPlan) -> None:
        """Appends a list; it is ordered after what its queue's previous list was ordered after."""
        before = next((self.ordered_after[i] for i in range(len(self.lists) - 1, -1, -1)
                       if self.lists[i].queue == lst.queue), {})
        self.lists.append(lst)
        self.ordered_after.append(dict(before))

    def _first_use(self, plan: PassBarriers, h: GraphResource, far_waits: Dict[str, int]) -> None:
        """A transient's first use: it takes over bytes (aliasing barrier, waits) and may need a clear."""
        p = plan.pass_
        mid_list = False
        ph = self.phys.get(h, h)
        for before in self.succession.previous_users.get(h, ()):   # whoever used these bytes just before must be done
            freed = self.freed_after.get(before)
            if freed:
                for queue, list_index in freed.items():
                    _wait_for(far_waits, queue, list_index, p.queue)
            if self.phys.get(before, before) is not ph and plan.list_index in self.lists_using[before]:
                mid_list = True   # another physical resource used these bytes earlier in this command list
        if mid_list:
            barrier = AliasingBarrier(self.succession.barrier_before.get(h), h)
            plan.aliasing.append(barrier)
            self.activated[h] = barrier   # its state: the one _request finds it in
            self.counts.aliasing += 1
        elif h in self.succession.barrier_before:
            self.counts.aliasing_at_execute += 1
        if first_use_init(h, p, self.lifetimes[h].flags):   # D3D12's initialisation of memory taken over
            plan.init_clears.append(h)
            self.counts.init_clears += 1

    def _dependency_waits(self, plan: PassBarriers, h: GraphResource, prev: List[PassBarriers],
                          far_waits: Dict[str, int]) -> None:
        """A write waits for the last writer and every reader since; a read for the last writer."""
        queue = plan.pass_.queue
        if plan.pass_.writes_of[h]:
            for x in prev:
                _wait_for(far_waits, x.pass_.queue, x.list_index, queue)
        elif prev[0].pass_.writes_of[h]:
            _wait_for(far_waits, prev[0].pass_.queue, prev[0].list_index, queue)

    def _request(self, plan: PassBarriers, h: GraphResource, far_waits: Dict[str, int]) -> None:
        """The transition (or request) of ``h`` before the pass, its UAV barrier, and the state it leaves: of
        the whole resource (states kept per physical resource), or per subresource for a resource some pass
        declares through views (states kept by :class:`SubresourcePlanner`, its transitions merged there)."""
        p = plan.pass_
        prev = self.last_access.get(h)
        if prev:
            self._dependency_waits(plan, h, prev, far_waits)
        barrier = self.activated.pop(h, None) if self.activated else None
        sub = self.sub if self.sub is not None and h in self.sub.tracked else None
        units: Sequence[Tuple[object, int, Optional[int], int, FrozenSet[str]]]
        if sub is None:
            ph = self.phys.get(h, h)
            need = p.need_of[h]
            before = self._state_before(plan, h, ph, prev, need, far_waits)
            if barrier is not None:
                barrier.state = before or 0   # the state the graph's aliasing barrier names: the one it is in
            units = [(ph, ALL, before, need, p.uses[h])]
        else:
            ph = h   # planned per subresource: a physical resource of its own
            units = sub.units(self, plan, h, barrier, far_waits)
        requested = self.requested_in_list
        uav_writer = self.last_uav_writer
        changes: List[Tuple[int, Optional[int], int]] = []   # (subresource, before, need)
        asks: List[Tuple[int, int]] = []   # (subresource, need): unchanged, new to the command list
        uav = False
        for key, s, before, need, uses in units:
            if before != need:
                changes.append((s, before, need))
            elif key not in requested:
                # a resource new to a command list is always requested (its state is resolved at execute,
                # in the list dx12kit runs just before); otherwise only real changes.
                asks.append((s, need))
            requested.add(key)
            if WRITE in uses:
                if before == need and key in uav_writer:
                    uav = True
                uav_writer[key] = plan
            elif uav_writer:
                uav_writer.pop(key, None)
        if changes and prev:
            self.last_users_transitioned.append(prev[-1])
        if sub is None:
            if changes:
                self.counts.transitions += 1
            if changes or asks:
                plan.transitions.append(Transition(h, need))
            self.state[ph] = 0 if p.queue == "copy" else need
        else:
            plan.transitions.extend(sub.merge(h, changes, asks, self))
            sub.leave(h, units, p.queue)
        if uav:
            plan.uav.append(h)
            self.counts.uav += 1
        self.note_access(plan, h, ph, prev)

    def note_access(self, plan: PassBarriers, h: GraphResource, key: GraphResource, prev: Optional[List[PassBarriers]]) -> None:
        """``plan``'s pass is now the latest access of ``h``: the only one after a write (or a first use), one
        more reader otherwise; and the latest direct-queue user of ``key`` (the physical resource, or the
        handle planned per subresource)."""
        if plan.pass_.writes_of[h] or prev is None:
            self.last_access[h] = [plan]
        else:
            prev.append(plan)
        if plan.pass_.queue == "direct":
            self.last_direct_user[key] = plan

    def _state_before(self, plan: PassBarriers, h: GraphResource, ph: GraphResource, prev: Optional[List[PassBarriers]],
                      need: int, far_waits: Dict[str, int]) -> Optional[int]:
        """The state ``h`` (of physical resource ``ph``) is in when the pass starts (None: unknown), after any
        handoff planned for it."""
        queue = plan.pass_.queue
        before = self.state.get(ph)
        if before is None:
            return None
        if h.kind == "buffer" and prev and prev[-1].list_index != plan.list_index:
            before = 0   # buffers decay to COMMON at the end of every execute
        if before == need or before & ~QUEUE_STATES[queue] == 0:
            return before   # the queue may leave that state
        # The queue may not leave that state: the last direct-queue user does it after its pass.
        src = self.last_direct_user.get(ph)
        if src is not None:
            src.after.append(Transition(h, need))
            self.counts.queue_handoff += 1
            _wait_for(far_waits, "direct", src.list_index, queue)
            return need
        final = self.final_use.get(ph) if h.transient else None
        if final is not None and queue != "direct" and self.alive[final].queue == "direct":
            # first use of the execution: the previous execution's last direct user does it (see finish)
            self.handoffs.append(_Handoff(final, h, need))
            return need
        return before

    def _wait_or_split(self, plan: PassBarriers, far_waits: Dict[str, int]) -> None:
        """Adds the pass's new GPU waits to its list; or, when passes before it in the list would wait for
        nothing, starts a new list with it (they run concurrently with the other queue's work)."""
        current = self.lists[-1]
        queue = plan.pass_.queue
        known = self.ordered_after[-1]
        new_waits = {q: i for q, i in far_waits.items() if q != queue and i > known.get(q, -1)}
        if new_waits and len(current.passes) > 1:
            current.passes.pop()
            current = CommandListPlan(queue, [plan])
            self._new_list(current)
            known = self.ordered_after[-1]
            # every resource is new to the new list
            plan.transitions = [Transition(h, plan.pass_.need_of[h]) for h in plan.pass_.uses]
            self.requested_in_list = {self.phys.get(h, h) for h in plan.pass_.uses}
            if self.sub is not None:
                plan.transitions = self.sub.requests_in_new_list(plan, self)
            plan.list_index = len(self.lists) - 1
        current.waits.update(new_waits)
        for q, i in new_waits.items():
            for q2, j in list(self.ordered_after[i].items()) + [(q, i)]:
                if q2 != queue and j > known.get(q2, -1):
                    known[q2] = j

    def _last_lists(self, h: GraphResource) -> Dict[str, int]:
        """Per queue, the list of the last accesses to ``h``."""
        last: Dict[str, int] = {}
        for x in self.last_access[h]:
            if x.list_index > last.get(x.pass_.queue, -1):
                last[x.pass_.queue] = x.list_index
        return last

    def _persistent_handoffs(self) -> None:
        """Imported resources and histories keep their states from one execution to the next. One whose last
        use is on the direct queue, in a state the queue of its first use in the next execution may not
        leave, is moved by that direct-queue pass (after its work) to the state that first use needs:
        dx12kit would otherwise record the transition on the direct queue at execute, in a list and a
        cross-queue wait of its own. One whose last use is on a compute queue, in another state than its
        next first use needs, is moved there by that compute pass when compute queues support the state
        (a copy-queue read after a compute write: no direct-queue fix-up at execute; a compute or direct use:
        no transition list before its list); a pixel read's state they do not support, so dx12kit's
        direct queue moves it at execute, in a list run before the graph's own in the same submission. A history's real resource is named by the other handle in the next
        execution (the version written now is read as ``previous()``), or by the same handle when the
        graph does not use the other one. Buffers decay to COMMON at the end of every execute (no
        handoff); resources declared per subresource are left to execute."""
        first: Dict[GraphResource, PassBarriers] = {}
        last: Dict[GraphResource, PassBarriers] = {}
        for pb in self.passes:
            for h in pb.pass_.uses:
                if not h.transient:
                    first.setdefault(h, pb)
                    last[h] = pb
        tracked = self.sub.tracked if self.sub is not None else ()
        for h, end in last.items():
            nxt = h   # the handle naming h's real resource in the next execution
            pair = h.history
            if pair is not None:
                other = pair.previous if h is pair.current else pair.current
                if other in first:
                    nxt = other
            state = self.state.get(h)
            queue = end.pass_.queue
            if queue == "copy" or h.kind == "buffer" or h in tracked or nxt in tracked or not state:
                continue   # (a copy queue leaves it in COMMON, which every queue may leave)
            user = first[nxt].pass_
            need = user.need_of[nxt]
            if state == need:
                continue
            if queue == "direct":
                move = bool(state & ~QUEUE_STATES[user.queue])
            else:
                # a compute list may move it only between states compute queues support; it does so when the next
                # first use needs such a state, whether or not that use's queue could leave this one: otherwise
                # dx12kit moves it at every execute (on the direct queue when that queue may not leave it)
                move = not need & ~QUEUE_STATES[queue]
            if move:
                end.after.append(Transition(h, need))
                self.counts.queue_handoff += 1
                self.state[h] = need

    def finish(self) -> BarrierPlan:
        """The plan, once every alive pass is planned: handoffs into the next execution, the waits on
        the previous execution and the counts."""
        for ho in self.handoffs:
            ph = self.phys.get(ho.resource, ho.resource)
            if self.state.get(ph) != ho.state:
                self.passes[ho.by].after.append(Transition(ho.resource, ho.state))
                self.counts.queue_handoff += 1
            # an execution ends with the handoff's state, so the next one starts there: the state the
            # transients are primed in and the graph's aliasing barriers name
            self.start_states[ph] = ho.state
        self._persistent_handoffs()
        if self.sub is not None:
            for order, t in self.sub.moves_to_end_state():
                self.passes[order].after.append(t)
                self.counts.transitions += 1
        seen: Set[str] = set()
        for lst in self.lists:   # the first list of each non-direct queue waits for the previous execution
            if lst.queue not in seen:
                seen.add(lst.queue)
                lst.waits_previous_execution = lst.queue != "direct"
        self.counts.batches = len(self.lists)
        return BarrierPlan(lists=tuple(self.lists), passes=tuple(self.passes), counts=self.counts,
                           start_states=self.start_states)


def plan_barriers(alive: Sequence[PassDecl], lifetimes: Lifetimes, layout: MemoryLayout) -> BarrierPlan:
    """The barriers stage.

    Args:
        alive: the alive passes in order (:attr:`CullResult.alive`).
        lifetimes: the lifetimes stage's result.
        layout: the physical-resources stage's result.

    Returns:
        Per pass its barriers, the command lists with their GPU waits, and the counts.
    """
    planner = BarrierPlanner(alive, lifetimes, layout)
    for order, p in enumerate(alive):
        planner.plan_pass(p, order)
    return planner.finish()
