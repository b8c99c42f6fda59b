"""Stage 6, bake: the barrier plan turned into the record plan of the real resources of an execution
(prebuilt :class:`BarrierBatch` objects, targets, clears, one ``run(cl, res)`` per command list), and
the submission of one execution (:func:`submit`).

Runs at the first execution after a compile, once the real transients exist (:mod:`.realize`).
"""
from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from ..dx12core import BarrierBatch, CommandQueue, Device
from ..enums import QueueKind
from .barriers import BarrierPlan, CommandListPlan, PassBarriers, Transition
from .checked import _RealResources
from .model import QUEUES, GraphResource, Resource
from .placement import MemoryLayout
from .subresources import ALL, declared_subresources, new_list_requests
from .recorder import InitClear, PassCheck, PassRecording, Recorder, TargetClear, generate


@dataclass(frozen=True)
class QueueWait:
    """A GPU wait for the list ``list_index`` (of this execution) of ``queue``."""

    queue: CommandQueue
    list_index: int


@dataclass(frozen=True)
class ListRecording:
    """One command list to record and submit.

    Attributes:
        queue: the queue it is submitted on.
        passes: its passes.
        run: ``run(cl, res)`` records them.
        source: ``run``'s Python source (generated: :mod:`.recorder`).
        waits: GPU waits before it is submitted.
        waits_previous_execution: also waits for the previous execution's direct-queue work.
        parts: parallel recording (``bake(..., parts=n)``): the list's passes split into up to ``n``
            consecutive parts, each recorded into a command list of its own by ``run`` (its source second);
            the parts are submitted together, in order, in one ``execute``. Empty: not split.
    """

    queue: CommandQueue
    passes: Tuple[PassRecording, ...]
    run: Recorder
    source: str
    waits: Tuple[QueueWait, ...]
    waits_previous_execution: bool
    parts: Tuple[Tuple[Recorder, str], ...] = ()


@dataclass(frozen=True)
class RecordPlan:
    """The bake stage's result.

    Attributes:
        lists: the command lists in submission order.
        end_waits: what the direct queue still waits for at the end: the other queues' last lists that
            no direct-queue list waited for.
        final_direct: the index of the last direct-queue list (-1: none; then an empty list ends it).
        direct_queue: the device's direct queue.
    """

    lists: Tuple[ListRecording, ...]
    end_waits: Tuple[QueueWait, ...]
    final_direct: int
    direct_queue: CommandQueue


@dataclass(frozen=True)
class _Context:
    """What baking a pass needs besides its plan."""

    real: Mapping[GraphResource, Resource]
    layout: MemoryLayout
    graph_ids: Optional[Dict[int, GraphResource]]   # validation mode: id of each real resource -> its handle
    records: Optional[Sequence[Any]]                 # each pass's record by index (None: the compiled passes')
    handles: Optional[Sequence[GraphResource]]      # the executing graph's handles by index (None: the compiled ones)
    timers: Optional[Sequence[Any]] = None           # profiling: per pass order, its heap and index (or None)


def _transitions(real: Mapping[GraphResource, Resource], ts: Sequence[Transition]) -> List[Tuple[Any, ...]]:
    return [("transition", real[t.resource], t.state) if t.subresource == ALL else
            ("transition", real[t.resource], t.state, t.subresource) for t in ts]


def _batch(entries: List[Tuple[Any, ...]]) -> Optional[BarrierBatch]:
    return BarrierBatch(entries) if entries else None


def _check(pb: PassBarriers, ctx: _Context) -> Optional[PassCheck]:
    if ctx.graph_ids is None:
        return None
    real, uses, hs = ctx.real, pb.pass_.uses, ctx.handles
    subs = {id(real[h]): d for h, d in declared_subresources(pb.pass_).items()} if pb.pass_.subresources else None
    return PassCheck(allowed={id(real[h]): u for h, u in uses.items()}, graph_ids=ctx.graph_ids,
                     resources=types.MappingProxyType(_RealResources({(hs[h.index] if hs is not None else h): real[h]
                                                                      for h in uses})), subresources=subs)


def _clears(pb: PassBarriers, ctx: _Context) -> Tuple[TargetClear, ...]:
    """The clears after binding: the pass's own, and the graph's first-use clears of its targets."""
    p, out = pb.pass_, []
    for h in p.targets():
        depth = h is p.depth_stencil
        if h in p.clear:
            out.append(TargetClear(ctx.real[h], depth, p.clear[h]))
        elif h in pb.init_clears and h not in p.subresources:
            out.append(TargetClear(ctx.real[h], depth, (1.0,) if depth else (0.0, 0.0, 0.0, 0.0)))
    for v, value in p.view_clears.items():   # clears of mip views (bound at p.target_mip)
        out.append(TargetClear(ctx.real[v.resource], v.resource is p.depth_stencil, value, p.target_mip))
    return tuple(out)


def bake_pass(pb: PassBarriers, carried: List[Tuple[Any, ...]], after: List[Tuple[Any, ...]],
              ctx: _Context) -> PassRecording:
    """One pass's recording (``carried``: the previous pass's closing transitions, recorded first)."""
    p, real = pb.pass_, ctx.real
    before = carried + [("aliasing", real[a.before] if a.before is not None else None, real[a.after])
                        + ((a.state,) if a.state else ()) for a in pb.aliasing]
    before += [("uav", real[h]) for h in pb.uav]
    targets = p.targets()
    inits = tuple(InitClear(real[h], ctx.layout.placements[h].flags.depth_stencil, discard=p.queue != "direct",
                            mips=h.mips if h in p.subresources else 1)
                  for h in pb.init_clears if h not in targets or h in p.subresources)   # bound targets: after binding
    transitions = _transitions(real, pb.transitions)
    if not inits:
        before, transitions = before + transitions, []
    rts = [real[h] for h in p.render_targets]
    return PassRecording(name=p.name, record=ctx.records[p.index] if ctx.records is not None else p.record, barriers_before=_batch(before), init_clears=inits,
                         transitions=_batch(transitions), render_targets=rts if targets else None,
                         depth_stencil=real[p.depth_stencil] if p.depth_stencil is not None else None,
                         clears=_clears(pb, ctx), check=_check(pb, ctx), barriers_after=_batch(after),
                         timestamps=_timestamps(pb, ctx), target_mip=p.target_mip)


def _timestamps(pb: PassBarriers, ctx: _Context) -> Optional[Tuple[Any, int]]:
    """Profiling: the pass's timestamp heap and first index (None: not timed)."""
    t = ctx.timers[pb.order] if ctx.timers is not None else None
    return None if t is None else (t.heap, t.index)


def bake_list(lst: CommandListPlan, ctx: _Context) -> Tuple[PassRecording, ...]:
    """The recordings of one list's passes: each pass's closing transitions open the next pass's barriers."""
    out: List[PassRecording] = []
    carried: List[Tuple[Any, ...]] = []
    for k, pb in enumerate(lst.passes):
        after = _transitions(ctx.real, pb.after)
        last = k + 1 == len(lst.passes)
        out.append(bake_pass(pb, carried, after if last else [], ctx))
        carried = [] if last else after
    return tuple(out)


def _requested(keys: Set[Tuple[GraphResource, int]], t: Transition) -> bool:
    """Whether ``keys`` (resource, subresource) hold a request covering ``t``'s subresource (or its whole
    resource)."""
    return (t.resource, ALL) in keys or (t.resource, t.subresource) in keys


def split_list(lst: CommandListPlan, n: int) -> List[CommandListPlan]:
    """``lst``'s passes in ``min(n, len)`` consecutive parts of nearly equal pass counts, each a list plan of
    its own. In every part after the first, the first use there of each resource (each subresource, for one
    declared through views) is requested (a transition to the state it needs), as the barriers stage requests
    everything new to a command list: the part's list then knows every state it uses, and the request costs
    no barrier (the state is already the one asked for)."""
    passes = lst.passes
    k = max(1, min(n, len(passes)))
    bounds = [len(passes) * i // k for i in range(k + 1)]
    out: List[CommandListPlan] = []
    for i in range(k):
        part = list(passes[bounds[i]:bounds[i + 1]])
        if i:
            # (resource, subresource) requested in the part so far (ALL: the whole resource)
            requested: Set[Tuple[GraphResource, int]] = set()
            for j, pb in enumerate(part):
                have = {(t.resource, t.subresource) for t in pb.transitions}
                uses = [t for h in pb.pass_.uses for t in new_list_requests(pb.pass_, h, Transition, h in pb.pass_.subresources)]
                extra = [t for t in uses if not _requested(requested, t) and not _requested(have, t)]
                requested.update((t.resource, t.subresource) for t in uses)
                if extra:
                    part[j] = PassBarriers(pb.pass_, pb.order, pb.list_index, pb.aliasing, pb.uav,
                                           extra + list(pb.transitions), pb.init_clears, pb.after)
        out.append(CommandListPlan(lst.queue, part, dict(lst.waits), lst.waits_previous_execution))
    return out


def bake(barriers: BarrierPlan, layout: MemoryLayout, real: Mapping[GraphResource, Resource],
         device: Device, *, records: Optional[Sequence[Any]] = None, handles: Optional[Sequence[GraphResource]] = None,
         codes: Optional[Dict[str, Any]] = None, timers: Optional[Sequence[Any]] = None, parts: int = 1) -> RecordPlan:
    """The bake stage.

    Args:
        barriers: the barriers stage's result.
        layout: the physical-resources stage's result.
        real: every handle's real resource in this execution (transients and imported ones).
        device: the device (its queues; validation mode).
        records: the record function of each pass by declaration index, when the graph executing the plan
            is not the one compiled (a graph of the same structure taking a cached plan: its own records).
        handles: that graph's handles by index (the keys of ``res`` in validation mode).
        codes: compiled recorder code by source, shared by the graphs using one plan.
        timers: profiling: per alive pass (by order) its timestamps' heap and first index (``.heap``,
            ``.index``), or ``None`` for a pass not timed; ``None``: no profiling.
        parts: split each command list into up to ``parts`` consecutive parts recorded into lists of their
            own (:attr:`ListRecording.parts`; parallel recording, :mod:`.parallel`); 1: not split.

    Returns:
        The record plan: per command list its recorder, queue and waits.
    """
    graph_ids = None
    if device.validate:
        graph_ids = {id(r): (handles[h.index] if handles is not None else h) for h, r in real.items()}
    ctx = _Context(real, layout, graph_ids, records, handles, timers)
    qs = {q: device.queue(QueueKind(q)) for q in QUEUES}
    lists: List[ListRecording] = []
    last_list: Dict[str, int] = {}            # queue -> its last list
    waited_by_direct: Dict[str, int] = {}     # queue -> the latest of its lists a direct list waits for
    for i, lst in enumerate(barriers.lists):
        passes = bake_list(lst, ctx)
        recorder = generate(passes)
        if lst.queue == "direct":
            for other, j in lst.waits.items():
                waited_by_direct[other] = max(waited_by_direct.get(other, -1), j)
        last_list[lst.queue] = i
        split: List[Tuple[Recorder, str]] = []
        if parts > 1:
            for k, part in enumerate(split_list(lst, parts)):
                rec = generate(bake_list(part, ctx))
                split.append((rec.function(f"render graph list {i} part {k} ({lst.queue})", codes), rec.source))
        lists.append(ListRecording(queue=qs[lst.queue], passes=passes,
                                   run=recorder.function(f"render graph list {i} ({lst.queue})", codes),
                                   source=recorder.source,
                                   waits=tuple(QueueWait(qs[o], j) for o, j in sorted(lst.waits.items())),
                                   waits_previous_execution=lst.waits_previous_execution, parts=tuple(split)))
    end_waits = tuple(QueueWait(qs[q], i) for q, i in sorted(last_list.items())
                      if q != "direct" and waited_by_direct.get(q, -1) < i)
    return RecordPlan(lists=tuple(lists), end_waits=end_waits, final_direct=last_list.get("direct", -1),
                      direct_queue=qs["direct"])


def submit(plan: RecordPlan, res: Mapping[GraphResource, Any], previous_direct_value: int) -> int:
    """Records and submits one execution.

    Args:
        plan: the record plan.
        res: the mapping given to the passes' ``record``.
        previous_direct_value: the fence value that completed the previous execution (0: none).

    Returns:
        The fence value on the direct queue after which this execution's work is complete.
    """
    values: List[int] = []
    for lst in plan.lists:
        cl = lst.queue.command_list()
        lst.run(cl, res)
        values.append(execute_list(plan, lst, cl, values, previous_direct_value))
    return finish(plan, values)


def execute_list(plan: RecordPlan, lst: ListRecording, cls: Any, values: Sequence[int], previous_direct_value: int) -> int:
    """Submits list ``lst`` of ``plan`` (recorded into ``cls``: one command list or its parts) after its GPU
    waits: on the previous execution where the list asks for it, and on the lists before it it follows (by
    their fence ``values``). A wait whose value is already complete is skipped (each costs CPU in vkd3d 1.2).

    Returns:
        The fence value of its queue after the list.
    """
    q, direct = lst.queue, plan.direct_queue
    if lst.waits_previous_execution and previous_direct_value and direct.completed_value < previous_direct_value:
        q.wait_for(direct, previous_direct_value)
    for w in lst.waits:
        v = values[w.list_index]
        if w.queue.completed_value < v:
            q.wait_for(w.queue, v)
    return int(q.execute(cls))


def finish(plan: RecordPlan, values: Sequence[int]) -> int:
    """The end of an execution whose lists were submitted with fence ``values``: the direct queue waits for the
    other queues' last lists no direct list waited for (an empty direct list carries those waits).

    Returns:
        The fence value on the direct queue after which the execution's work is complete.
    """
    direct = plan.direct_queue
    if plan.end_waits or plan.final_direct < 0:
        for w in plan.end_waits:
            direct.wait_for(w.queue, values[w.list_index])
        return int(direct.execute(direct.command_list(name="render graph end")))
    return values[plan.final_direct]
