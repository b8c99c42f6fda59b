"""The compile pipeline: the declared passes through the stages, in order.

    declare (Declaration.passes) -> cull (CullResult) -> lifetimes (Lifetimes)
        -> place (MemoryLayout) -> plan_barriers (BarrierPlan)

and the numbers :meth:`RenderGraph.stats` reports. The last stage, bake (:mod:`.bake`), needs the
real resources and runs at the first execution after a compile.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Dict, Sequence

from .barriers import BarrierPlan, plan_barriers
from .cull import CullResult, cull
from .lifetimes import Lifetimes, lifetimes
from .model import QUEUES, PassDecl
from .placement import AllocationInfoFn, MemoryLayout, place


@dataclass(frozen=True)
class CompiledGraph:
    """Every stage's result for one compile.

    Attributes:
        passes: the declared passes (alive and culled), in declaration order.
        culling: the cull stage's result.
        lifetimes: the lifetimes stage's result.
        layout: the physical-resources stage's result.
        barriers: the barriers stage's result.
        seconds: how long the compile took.
    """

    passes: Sequence[PassDecl]
    culling: CullResult
    lifetimes: Lifetimes
    layout: MemoryLayout
    barriers: BarrierPlan
    seconds: float

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
            "transient_bytes": layout.block_bytes + layout.committed_bytes,
            "transient_bytes_unaliased": layout.unaliased_bytes,
            "transient_bytes_committed": layout.committed_bytes,
            "transients": len(layout.placements),
            "queues": queues,
            "batches": [(lst.queue, [pb.pass_.name for pb in lst.passes]) for lst in lists],
            "cross_queue_waits": sum(len(lst.waits) for lst in lists),
            "batch_waits": [dict(lst.waits) for lst in lists],
        }


def compile_graph(passes: Sequence[PassDecl], allocation_info: AllocationInfoFn,
                  aliasing: bool = True) -> CompiledGraph:
    """Runs the stages from cull to barriers.

    Args:
        passes: the declared passes (``Declaration.passes``).
        allocation_info: the size and alignment of a placed transient (see :mod:`.placement`).
        aliasing: let transients whose lifetimes do not overlap share memory.

    Returns:
        Every stage's result.

    Raises:
        GraphError: a transient read before any pass writes it, or a multisampled transient misused.
    """
    t0 = time.perf_counter()
    culling = cull(passes)
    lives = lifetimes(culling.alive)
    layout = place(lives, allocation_info, aliasing)
    barriers = plan_barriers(culling.alive, lives, layout)
    return CompiledGraph(passes=tuple(passes), culling=culling, lifetimes=lives, layout=layout, barriers=barriers,
                         seconds=time.perf_counter() - t0)
