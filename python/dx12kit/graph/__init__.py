"""A render graph over dx12kit's public API: passes, transient resources, barriers, queues.

A :class:`RenderGraph` is built by declaring resources and passes, then compiled and executed::

    g = dx.RenderGraph(dev)
    out = g.import_resource(target)                       # persistent: state carries over
    tmp = g.create_texture("tmp", 128, 128, "rgba8_unorm")  # transient: lives in one execution
    g.add_pass("draw", draw_fn, render_targets=[tmp], clear={tmp: (0, 0, 0, 1)})
    g.add_pass("post", post_fn, reads=[tmp], render_targets=[out])
    dev.queue("direct").wait(g.execute())

What the graph does for the passes (see README, "Render graph"):

- **Order and culling.** Passes run in declaration order, which is consistent with every dependency
  the declarations imply (read after write, write after read, write after write), or in another order
  of the same dependencies chosen for less transient memory or more queue overlap
  (``RenderGraph(..., schedule="memory" | "overlap")``). A pass whose writes reach no imported resource
  and no ``side_effects=True`` pass is culled: its ``record`` never runs.
- **Barriers.** Before each pass every declared resource is requested in the state its use needs,
  with one :meth:`CommandList.resource_barriers` call of a :class:`BarrierBatch` built at compile time
  (the state tracker batches them into one ``ResourceBarrier`` at the pass's first work); UAV barriers
  between dependent unordered-access passes; aliasing barriers when a transient takes over memory (the
  graph's own inside a command list; dx12kit's at execute for a takeover at the start of a list).
  Split barriers are not issued: vkd3d 1.2 skips ``BEGIN_ONLY`` barriers (see :meth:`RenderGraph.stats`).
- **Transient memory.** Transients are placed resources in one block from
  :meth:`Device.allocate_memory`; those whose lifetimes do not overlap share bytes, whatever their
  formats and sizes (those of one description share one real resource: no aliasing barrier). On the
  compute and copy queues a lifetime ends where every later pass is ordered after its last uses. A transient read before it is written is an error; a render target or depth
  buffer whose first use does not clear it is cleared by the graph (D3D12 wants a clear, discard or
  full copy when a texture takes over aliased memory, and dx12kit has no discard). Multisampled
  transients are placed too, and share bytes like the others.
- **Queues.** Passes on the ``"compute"`` and ``"copy"`` queues are submitted on those queues with GPU
  waits (:meth:`CommandQueue.wait_for`) only where a dependency crosses queues; transitions a queue
  type may not record are recorded at the end of the producer's direct-queue list.
- **Validation.** With ``Device(validate=True)`` the ``CommandList`` given to ``record`` checks every
  use of a graph resource against the pass's declarations and raises :class:`GraphError` naming the
  pass and the resource.

How it is built (one module per step; each stage a function from named dataclasses to named dataclasses,
testable alone; modules import only those above them in this list):

- :mod:`.model`: handles (:class:`GraphResource`), :class:`GraphError`, declared passes (``PassDecl``),
  the uses and the states they need.
- :mod:`.declare` (stage *declare*): ``Declaration``, the checked resources and passes.
- :mod:`.cull` (stage *cull*): ``cull(passes) -> CullResult`` (alive passes in order, culled ones).
- :mod:`.lifetimes` (stage *lifetimes*): ``lifetimes(alive) -> Lifetimes`` (first/last pass and flags per
  transient).
- :mod:`.placement` (stage *physical resources and aliases*): ``place(lifetimes, allocation_info, aliasing)
  -> MemoryLayout`` (offsets, block size, who takes bytes over from whom).
- :mod:`.barriers` (stage *barriers*): ``plan_barriers(alive, lifetimes, layout) -> BarrierPlan`` (per pass
  its transitions, aliasing/UAV barriers, init clears; the command lists and their GPU waits).
- :mod:`.schedule` (stage *schedule*): ``schedule(alive, mode, ...)``: the order the alive passes run in
  (``"declared"``, ``"memory"``, ``"overlap"``), each candidate order run through lifetimes, placement and
  barriers, and the ``ScheduleReport`` of what moved.
- :mod:`.compile`: ``compile_graph`` runs those stages: ``CompiledGraph``, and the stats.
- :mod:`.checked`, :mod:`.recorder`, :mod:`.realize`, :mod:`.bake` (stage *bake*): the real transients,
  and ``bake(...) -> RecordPlan`` (per command list its recorder, queue and waits); ``submit`` runs one
  execution.
- :mod:`.parallel`: recording on worker threads (``RenderGraph(..., threads=N)``): each list's parts recorded
  in parallel and submitted in order.
- :mod:`.plancache`: the device's LRU of compiled plans (and their transients) by the declaration's
  structure, so an identical rebuilt graph compiles and allocates nothing (:func:`plan_cache`).
- :mod:`.subresources`: views of one mip or array slice (``h.mip(k)``, ``h.slice(i)``): their declaration,
  per-subresource states and barriers, and what validation mode checks of them.
- :mod:`.history`: history resources (:meth:`RenderGraph.create_history`): two versions per history,
  swapped between executions; :class:`HistoryStore` carries them across rebuilt graphs.
- :mod:`.profile`: GPU time per pass (``RenderGraph(..., profile=True)``): the timestamp heaps and their reading.
- :mod:`.draw`: ``to_dot`` / ``to_png`` of a ``CompiledGraph``.
- :mod:`.render_graph`: :class:`RenderGraph`, the public face over all of them.
"""
from __future__ import annotations

from .history import HistoryStore
from .model import GraphError, GraphResource, GraphSubresource
from .plancache import PlanCache, plan_cache
from .render_graph import RenderGraph

__all__ = ["RenderGraph", "GraphResource", "GraphSubresource", "GraphError", "HistoryStore", "PlanCache", "plan_cache"]

# The public classes are documented and pickled under the package, their import path.
for _cls in (RenderGraph, GraphResource, GraphSubresource, GraphError, HistoryStore):
    _cls.__module__ = __name__
del _cls
