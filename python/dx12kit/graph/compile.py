"""The compile pipeline: the declared passes through the stages, in order.

    declare (Declaration.passes) -> cull (CullResult) -> schedule (the order; runs the three below
        for each candidate order) -> lifetimes (Lifetimes) -> place (MemoryLayout) -> plan_barriers (BarrierPlan)

and the numbers :meth:`RenderGraph.stats` reports. The last stage, bake (:mod:`.bake`), needs the
real resources and runs at the first execution after a compile.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence

from .barriers import BarrierPlan
from .cull import CullResult, cull
from .lifetimes import Lifetimes
from .model import QUEUES, PassDecl
from .placement import AllocationInfoFn, MemoryLayout
from .schedule import ScheduleReport, schedule


@dataclass(frozen=True)
class CompiledGraph:
    """Every stage's result for one compile.

    Attributes:
        passes: the declared passes (alive and culled), in declaration order.
        culling: the cull stage's result, its ``alive`` in the order the schedule stage chose (the order the
            passes run in; a pass's *order* is its position there).
        lifetimes: the lifetimes stage's result.
        layout: the physical-resources stage's result.
        barriers: the barriers stage's result.
        seconds: how long the compile took.
        schedule: what the schedule stage did (``None``: a compile made without it).
    """

    passes: Sequence[PassDecl]
    culling: CullResult
    lifetimes: Lifetimes
    layout: MemoryLayout
    barriers: BarrierPlan
    seconds: float
    schedule: Optional[ScheduleReport] = None

    def stats(self) -> Dict[str, Any]:
        """The numbers of :meth:`RenderGraph.stats` that the compile decides (all but ``compile_us`` and
        ``executions``)."""
        alive, layout, lists = self.culling.alive, self.layout, self.barriers.lists
        queues: Dict[str, int] = {q: 0 for q in QUEUES}
        for p in alive:
            queues[p.queue] += 1
        return {
            "passes": len(alive),
            "culled": len(self.culling.culled),
            "culled_passes": [p.name for p in self.culling.culled],
            "barriers": self.barriers.counts.as_dict(),
            "transient_bytes": layout.block_bytes,
            "transient_bytes_unaliased": layout.unaliased_bytes,
            "transient_bytes_committed": 0,   # every transient is placed in the block
            "transients": len(layout.placements),
            "queues": queues,
            "batches": [(lst.queue, [pb.pass_.name for pb in lst.passes]) for lst in lists],
            "cross_queue_waits": sum(len(lst.waits) for lst in lists),
            "batch_waits": [dict(lst.waits) for lst in lists],
            **({"schedule": self.schedule.as_dict()} if self.schedule is not None else {}),
        }


def compile_graph(passes: Sequence[PassDecl], allocation_info: AllocationInfoFn,
                  aliasing: bool = True, schedule_mode: str = "declared") -> CompiledGraph:
    """Runs the stages from cull to barriers.

    Args:
        passes: the declared passes (``Declaration.passes``).
        allocation_info: the size and alignment of a placed transient (see :mod:`.placement`).
        aliasing: let transients whose lifetimes do not overlap share memory.
        schedule_mode: the order the alive passes run in: ``"declared"``, ``"memory"`` or ``"overlap"``
            (see :mod:`.schedule`).

    Returns:
        Every stage's result.

    Raises:
        GraphError: a transient read before any pass writes it, or a multisampled transient misused.
    """
    t0 = time.perf_counter()
    culling = cull(passes)
    chosen, report = schedule(culling.alive, schedule_mode, allocation_info, aliasing)
    if chosen.order != culling.alive:
        culling = CullResult(alive=chosen.order, culled=culling.culled,
                             order_of={p: i for i, p in enumerate(chosen.order)})
    return CompiledGraph(passes=tuple(passes), culling=culling, lifetimes=chosen.lifetimes, layout=chosen.layout,
                         barriers=chosen.barriers, seconds=time.perf_counter() - t0, schedule=report)
