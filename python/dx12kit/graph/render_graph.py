"""The :class:`RenderGraph` class: declarations (kept in a :class:`.declare.Declaration`), compile (the
stages of :mod:`.compile`), execute (:mod:`.realize` and :mod:`.bake`) and reports (stats, memory map,
pictures from :mod:`.draw`)."""
from __future__ import annotations

import time
import types
from typing import Any, Dict, Hashable, Iterable, List, Mapping, Optional, Union

from ..dx12core import Device, Format
from .bake import RecordPlan, bake, submit
from .checked import _RealResources
from .compile import CompiledGraph, compile_graph
from .declare import Declaration, check_aliasing
from .draw import to_dot, to_png
from .parallel import ParallelSubmitter, check_threads
from .schedule import check_schedule
from .history import Histories, HistoryStore, declare_history
from .profile import Profiler
from .model import ClearValue, GraphError, GraphResource, QueueName, RecordFn, Resource
from .plancache import PlanEntry, plan_cache, reals_by_index, structural_key
from .realize import create_transients, device_allocation_info, layout_key, prime_states


class RenderGraph:
    """A frame graph over a :class:`Device`: declare resources and passes, then :meth:`execute`.

    Args:
        device: the device whose queues run the passes and whose memory holds the transients.
        aliasing: let transients whose lifetimes do not overlap share memory (the default). ``False``
            gives each transient bytes of its own (still placed in one block): no aliasing barriers and
            no physical resources shared; for comparing memory and costs, or ruling aliasing out. Also the
            :attr:`aliasing` property, which may be changed later.
        profile: time each pass on the GPU: a timestamp before its first barrier and one after its last
            work (two ``end_query`` per pass; nothing is added without it). :meth:`stats` then reports
            ``gpu_ms`` (pass name -> milliseconds of the last execution), ``gpu_frame_ms`` and more, and
            :meth:`to_png` draws the queues to scale of GPU time. Copy-queue passes are timed only on a
            device with copy-queue timestamps (``Device.query_support``); otherwise ``gpu_unmeasured``
            says so.
        schedule: the order the alive passes run in. ``"declared"`` (the default): declaration order.
            ``"memory"``: a topological order of the passes' dependencies (read after write, write after read
            and write after write on every resource; ``side_effects`` passes in their declared order) that
            lowers the peak of the transients' memory. ``"overlap"``: one that lets compute- and copy-queue
            passes overlap direct-queue work with fewer queue switches and GPU waits. Either is kept only when
            it beats declaration order by its measure; :meth:`stats` ``["schedule"]`` says what moved and
            what it bought. Each ``record`` still sees only its own pass's resources, so the pixels are those
            of declaration order. Part of the plan cache's key.
        histories: a :class:`HistoryStore` that keeps the graph's history resources (:meth:`create_history`)
            for the next graph built with it, so a graph rebuilt every frame continues its histories
            (``None``, the default: the histories belong to this graph and start from zeros).
        threads: record the passes on this many worker threads (1, the default: on the calling thread, in
            one command list per planned list). With ``N > 1`` each planned command list is split into up to N
            consecutive parts, each recorded into a command list of its own on a worker, and the parts are
            submitted in order (one ``execute`` per planned list): the same barriers and pixels as one thread.
            ``record`` functions then run on the workers, several at once: they must not share mutable state
            without a lock. Python holds the GIL while recording except in dx12core's long calls (see
            :mod:`dx12kit.graph.parallel`), so it pays off only when those dominate. :meth:`stats` gives
            ``threads`` and, after an execution, ``recording`` (``wall_ms``, ``cpu_ms`` per part, ``parts``).

    Raises:
        TypeError: ``device`` is not a :class:`Device`, ``histories`` not a :class:`HistoryStore`, ``aliasing``
            or ``profile`` is not a bool,
            ``schedule`` is not a str, or ``threads`` is not an int.
        GraphError: ``schedule`` is not one of ``"declared"``, ``"memory"``, ``"overlap"``, or ``threads`` is
            not 1..64.
    """

    def __init__(self, device: Device, *, aliasing: bool = True, profile: bool = False,
                 schedule: str = "declared", threads: int = 1, histories: Optional[HistoryStore] = None) -> None:
        if not isinstance(device, Device):
            raise TypeError(f"RenderGraph: expected a dx12kit.Device, not {type(device).__name__}")
        if histories is not None and not isinstance(histories, HistoryStore):
            raise TypeError(f"RenderGraph: histories must be a dx12kit.graph.HistoryStore or None, not "
                            f"{type(histories).__name__}")
        if profile.__class__ is not bool:
            raise TypeError(f"RenderGraph: profile must be a bool (True or False), not {type(profile).__name__}")
        self._profile = profile
        self._schedule = check_schedule(schedule)
        self._threads = check_threads(threads)
        self._parallel: Optional[ParallelSubmitter] = None   # the worker threads (threads > 1), made at first execute
        self._profiler: Optional[Profiler] = None   # the timestamp heaps of the current record plan
        self._profiled_executions = 0               # executions of that plan
        self.device = device
        self._aliasing = check_aliasing(aliasing)
        self._declaration = Declaration()
        self._dirty = True      # declared or changed since the last compile
        self._version = 0       # counts changes; the record plan is baked for one version
        self._compiled: Optional[CompiledGraph] = None
        self._entry: Optional[PlanEntry] = None        # the device plan cache's entry of the current compile
        self._compile_cached = False                    # the current compile came from the plan cache
        self._stats: Optional[Dict[str, Any]] = None   # of the current compile, made by the first stats()
        # realisation (real resources), kept across executions while the layout is unchanged
        self._layout_key: Optional[Hashable] = None
        self._memory: Any = None
        self._real: Dict[GraphResource, Resource] = _RealResources()
        self._res_view: Mapping[GraphResource, Any] = types.MappingProxyType(self._real)
        self._record_plan: Optional[RecordPlan] = None
        self._record_plans: List[RecordPlan] = []   # by history parity (one plan without histories)
        self._histories = Histories(histories)
        self._realized_version = -1
        self._last_direct_value = 0
        self._executions = 0
        self.compile_seconds = 0.0

    @property
    def aliasing(self) -> bool:
        """Whether transients whose lifetimes do not overlap share memory (``True``, the default).

        Setting it to a different value marks the graph changed, like declaring a pass: the next
        :meth:`compile`, :meth:`execute`, :meth:`stats`, :meth:`memory_map` or picture compiles the graph
        again with the new setting, and the next :meth:`execute` places the transients in new memory.
        Work already submitted keeps the memory it was given.

        Raises:
            TypeError: (on setting) the value is not a bool.
        """
        return self._aliasing

    @aliasing.setter
    def aliasing(self, value: bool) -> None:
        value = check_aliasing(value)
        if value != self._aliasing:
            self._aliasing = value
            self._changed()

    @property
    def schedule(self) -> str:
        """The order the passes run in: ``"declared"``, ``"memory"`` or ``"overlap"`` (see :class:`RenderGraph`)."""
        return self._schedule

    # ------------------------------------------------------------------ declaration
    def _changed(self) -> None:
        self._dirty = True
        self._version += 1

    def create_texture(self, name: str, width: int, height: int, format: Union[str, Format], *, mips: int = 1,
                       array_size: int = 1, samples: int = 1) -> GraphResource:
        """Declares a transient 2D texture, living only inside one execution of the graph.

        Its flags (render target, depth stencil, unordered access) follow from how passes use it.

        Args:
            name: unique within the graph; also the real texture's name.
            width: in texels (> 0).
            height: in texels (> 0).
            format: a :class:`Format` or its name (``"rgba8_unorm"``).
            mips: mip levels (>= 1).
            array_size: array slices (>= 1).
            samples: samples per pixel. A multisampled transient (render target or depth buffer, one mip)
                is placed in the graph's memory like the others (a heap of 4 MiB alignment, as D3D12
                requires of heaps holding MSAA textures), so with aliasing it shares bytes with transients of
                any description whose lifetimes do not overlap (an aliasing barrier and a clear when it
                takes them over). Resolve it in a pass declaring ``resolve_from`` / ``resolve_to``.

        Returns:
            The handle to use in :meth:`add_pass` declarations and as a key of ``res`` in ``record``.

        Raises:
            GraphError: a duplicate or empty name, a size < 1, or a multisampled texture with mips or
                array_size > 1.
            TypeError: ``format`` is neither a Format nor a string.
        """
        h = self._declaration.texture(name, width, height, format, mips, array_size, samples)
        self._changed()
        return h

    def create_buffer(self, name: str, size: int) -> GraphResource:
        """Declares a transient buffer of ``size`` bytes, living only inside one execution of the graph.

        Args:
            name: unique within the graph.
            size: bytes (> 0).

        Returns:
            The handle.

        Raises:
            TypeError: ``size`` is not an integer.
            GraphError: a duplicate or empty name, or a size < 1 or above 1 TiB (Device.create_buffer's limit).
        """
        h = self._declaration.buffer(name, size)
        self._changed()
        return h

    def create_history(self, name: str, width: Optional[int] = None, height: Optional[int] = None,
                       format: Union[str, Format, None] = None, *, size: Optional[int] = None, mips: int = 1,
                       array_size: int = 1) -> GraphResource:
        """Declares a history resource: a texture (``width``, ``height``, ``format``) or buffer (``size=``)
        that keeps its contents from one execution of the graph to the next (temporal effects: TAA,
        accumulation).

        The handle returned is this execution's version; ``h.previous()`` is the previous execution's
        version (a second handle, named ``name + " (previous)"``). Declare each like any resource: a pass
        reads ``h.previous()`` and writes ``h``; after the execution the written version becomes the next
        execution's previous one. The graph owns two real resources (ping-pong, never aliased, not
        transient); their states carry across executions like an imported resource's. A pass writing ``h``
        is never culled.

        A graph built with a :class:`HistoryStore` (``RenderGraph(dev, histories=store)``) takes a stored
        history of the same name and description over, contents included: rebuild the graph every frame
        with one store and the history carries on. Otherwise, before any execution has written it,
        ``h.previous()`` reads as zeros (every byte 0; both versions are
        created reading as zeros at the first execution, with the flags every declared use of either handle
        needs; a later declaration needing another flag makes new versions, reading as zeros again).
        :meth:`history_resource` gives the real resource of either handle.

        Args:
            name: unique within the graph (and ``name + " (previous)"`` must be free).
            width, height, format: a texture history (as :meth:`create_texture`).
            size: a buffer history of ``size`` bytes (instead of width, height and format).
            mips, array_size: a texture history's mip levels and array slices.

        Returns:
            The handle of the current version.

        Raises:
            GraphError: a duplicate or empty name, a size < 1, or both (or neither of) a texture's and a
                buffer's arguments.
            TypeError: ``format`` is neither a Format nor a string, or ``size`` is not an int.
        """
        h = declare_history(self._declaration, name, width, height, format, size, mips, array_size)
        self._histories.add(h)
        self._changed()
        return h

    def history_resource(self, handle: GraphResource) -> Resource:
        """The real resource a history handle named in the last execution: ``history_resource(h)`` holds
        what that execution wrote, ``history_resource(h.previous())`` what it read.

        Args:
            handle: a history's handle (:meth:`create_history`) or its ``previous()``.

        Returns:
            The Texture or Buffer.

        Raises:
            GraphError: not a history handle of this graph, or the graph has not executed yet.
        """
        if handle.history is None or handle._graph is not self._declaration._owner:
            raise GraphError(f"history_resource: {handle!r} is not a history handle of this graph")
        return self._histories.resource_of(handle)

    def import_resource(self, resource: Resource, *, name: Optional[str] = None) -> GraphResource:
        """Brings a persistent :class:`Texture` or :class:`Buffer` into the graph.

        Its state carries across executions and across work outside the graph (dx12kit's state tracker
        keeps it); writes to it keep the passes that make them alive.

        Args:
            resource: the texture or buffer.
            name: the handle's name (default: the resource's own name).

        Returns:
            The handle.

        Raises:
            GraphError: not a Texture or Buffer, imported twice, or a duplicate name.
        """
        h = self._declaration.imported(resource, name)
        self._changed()
        return h

    def add_pass(self, name: str, record: RecordFn, *, queue: QueueName = "direct", reads: Iterable[GraphResource] = (),
                 writes: Iterable[GraphResource] = (), render_targets: Iterable[GraphResource] = (),
                 depth_stencil: Optional[GraphResource] = None, copy_from: Iterable[GraphResource] = (),
                 copy_to: Iterable[GraphResource] = (), clear: Optional[Mapping[GraphResource, ClearValue]] = None,
                 side_effects: bool = False, resolve_from: Iterable[GraphResource] = (),
                 resolve_to: Iterable[GraphResource] = ()) -> None:
        """Declares a pass. Passes run in the order they are added (which respects every dependency).

        Args:
            name: the pass's name (messages, stats, pictures).
            record: ``record(cl, res)``: records the pass into ``cl`` (a :class:`CommandList` of the pass's
                queue); ``res`` maps each handle to this execution's real Texture/Buffer.
            queue: ``"direct"``, ``"compute"`` or ``"copy"`` (or a :class:`QueueKind` member).
            reads: resources read as shader resources.
            writes: resources written (or read and written) as unordered-access views.
            render_targets: colour targets the graph binds before ``record`` (viewport and scissor set to
                the first target's size).
            depth_stencil: the depth buffer the graph binds.
            copy_from: copy sources.
            copy_to: copy destinations (a transient's first copy is taken to write it completely).
            clear: handle -> colour (4 floats) for a render target, or depth (a float) for the depth
                buffer; cleared by the graph after binding, before ``record``.
            side_effects: never cull this pass (its effects are outside the graph).
            resolve_from: multisampled textures the pass resolves (:meth:`CommandList.resolve` source,
                ``RESOLVE_SOURCE``); direct queue only.
            resolve_to: single-sample textures the pass resolves into (``RESOLVE_DEST``; a transient's first
                resolve is taken to write it completely); direct queue only.

        Every resource argument (and ``clear``'s keys) also takes a view of one mip or array slice of a
        texture, ``h.mip(k)`` / ``h.slice(i)`` (:class:`GraphSubresource`): states, barriers and validation
        are then per subresource; target views are bound at their mip (``set_render_targets(mip=k)``).

        Raises:
            GraphError: an unknown queue, a handle of another graph, a render target, depth buffer or resolve
                on a compute or copy queue, a clear of a resource that is not a render target or depth buffer
                of the pass, a clear depth outside [0, 1] or a colour that is not four numbers, a resource
                declared twice in conflicting roles, overlapping views of one texture (naming the subresource),
                target views of different mips or of one array slice.
            TypeError: a record that is not callable, or a clear value that is not a number (depth) or a
                sequence of numbers (colour).
        """
        self._declaration.add_pass(name, record, queue=queue, reads=reads, writes=writes, render_targets=render_targets,
                                   depth_stencil=depth_stencil, copy_from=copy_from, copy_to=copy_to, clear=clear,
                                   side_effects=side_effects, resolve_from=resolve_from, resolve_to=resolve_to)
        self._changed()

    # ------------------------------------------------------------------ compile
    def compile(self) -> None:
        """Orders, culls and plans the graph: lifetimes, memory placement, barriers, batches and waits.

        Called by :meth:`execute` when the graph is new or changed; may be called by itself. Real
        resources are created at the first execution after it (and kept while the layout is unchanged).

        Raises:
            GraphError: a transient read before any pass writes it, or a transient a queue cannot use.
        """
        t0 = time.perf_counter()
        self._compiled = None   # the previous results are freed before the new ones are made
        self._entry = None
        decl = self._declaration
        cache = plan_cache(self.device)
        key = structural_key(decl, self._aliasing, self._schedule)
        entry = cache.get(key)
        self._compile_cached = entry is not None
        if entry is None:
            compiled = compile_graph(decl.passes, device_allocation_info(self.device), self._aliasing,
                                     self._schedule)
            entry = PlanEntry(compiled, decl.resources)
            cache.put(key, entry)
        self._entry = entry
        self._compiled = entry.compiled
        self._stats = None
        self._dirty = False
        self.compile_seconds = time.perf_counter() - t0

    def _compiled_graph(self) -> CompiledGraph:
        """The current compile's results (compiles first when the graph changed)."""
        if self._dirty or self._compiled is None:
            self.compile()
        assert self._compiled is not None
        return self._compiled

    # ------------------------------------------------------------------ execute
    def _realize(self) -> RecordPlan:
        """Takes the real transients of the compile's plan-cache entry (creating them, placed in one block,
        at its first execution, or keeping this graph's when the layout is unchanged), and bakes the plan
        with this graph's record functions."""
        compiled = self._compiled_graph()
        entry = self._entry
        assert entry is not None
        resources = self._declaration.resources
        key = layout_key(compiled.layout)
        if entry.real is None:
            if key == self._layout_key and self._memory is not None:   # keep this graph's transients
                entry.real = {entry.resources[h.index]: r for h, r in self._real.items() if h.transient}
                entry.memory = self._memory
                entry.last_direct_value = max(entry.last_direct_value, self._last_direct_value)
            else:
                real: Dict[GraphResource, Resource] = {}
                entry.memory = create_transients(self.device, compiled.layout, real)
                entry.real = real
        self._real.clear()
        self._memory = None
        self._real.update(reals_by_index(entry, resources))
        self._memory = entry.memory
        self._layout_key = key
        for h in resources:
            if not h.transient and h.resource is not None:
                self._real[h] = h.resource
        histories = self._histories
        histories.realize(self.device, self._declaration.passes)
        same = entry.resources == tuple(resources)
        self._record_plans = []
        timers = None
        if self._profile:
            self._profiler = Profiler(self.device, compiled.barriers)
            self._profiled_executions = 0
            timers = self._profiler.timers
        for parity in histories.parities():   # one plan per parity of the histories' versions
            histories.assign(self._real, parity)
            real_compiled = dict(self._real) if same else {entry.resources[h.index]: r for h, r in self._real.items()}
            if parity == 0:   # transients into their starting states, once (the same in every parity)
                primed = prime_states(self.device, compiled.layout, compiled.barriers.start_states, real_compiled)
                entry.last_direct_value = max(entry.last_direct_value, primed)
            self._record_plans.append(bake(compiled.barriers, compiled.layout, real_compiled, self.device,
                                           records=None if same else [p.record for p in self._declaration.passes],
                                           handles=None if same else resources, codes=entry.codes,
                                           timers=timers, parts=self._threads))
        self._record_plan = self._record_plans[0]
        self._realized_version = self._version
        return self._record_plan

    def execute(self) -> int:
        """Compiles if needed, records every alive pass and submits them on their queues.

        Returns:
            The fence value on the device's ``"direct"`` queue after which all of this execution's work
            is complete (``device.queue("direct").wait(value)``).

        Raises:
            GraphError: from :meth:`compile`, (validation mode) a ``record`` that uses a graph resource
                its pass did not declare, or another way than declared, or a newer graph built with this
                graph's :class:`HistoryStore` has taken its histories over.
        """
        if self._dirty:
            self.compile()
        plan = self._record_plan
        if plan is None or self._realized_version != self._version:
            plan = self._realize()
        entry = self._entry
        assert entry is not None
        histories = self._histories
        if histories:
            if histories.dropped():   # the store was cleared: new versions, from zeros (the plans baked again)
                self._realize()
            histories.check_owned()
            plan = self._record_plans[histories.parity]
            histories.assign(self._real, histories.parity)
        if self._threads > 1:
            if self._parallel is None:
                self._parallel = ParallelSubmitter(self._threads)
            final = self._parallel.submit(plan, self._res_view, entry.last_direct_value)
        else:
            final = submit(plan, self._res_view, entry.last_direct_value)
        histories.flip()
        self._profiled_executions += 1
        self._last_direct_value = entry.last_direct_value = final
        self._executions += 1
        return final

    # ------------------------------------------------------------------ reports
    def stats(self) -> Dict[str, Any]:
        """Numbers of the compiled graph (compiles first when needed).

        Returns:
            A dict: ``passes`` (alive), ``culled`` (and ``culled_passes``, their names), ``barriers`` (planned
            per execution: ``transitions`` (state changes), ``uav``, ``aliasing`` (the graph's own aliasing
            barriers, for transients taking over bytes used earlier in the same command list),
            ``aliasing_at_execute`` (takeovers at the start of a command list, which dx12kit records at execute
            in the list it runs just before), ``split`` (0: not emitted, vkd3d 1.2 skips ``BEGIN_ONLY``
            barriers), ``split_candidates`` (transitions whose resource was last used two or more passes
            earlier in the same list), ``batches`` (command lists), ``init_clears`` (clears the graph adds
            because a render target's first use does not clear it), ``queue_handoff`` (transitions a
            direct-queue pass records after its work for a later pass, of this execution or the next one, on a
            queue that may not record them; and those the last compute-queue pass using an imported or history
            texture records for its first use in the next execution)),
            ``transient_bytes`` (peak memory of the transients: the aliased block, multisampled ones included),
            ``transient_bytes_unaliased`` (each in memory of its own), ``transient_bytes_committed`` (0: every
            transient, multisampled ones too, is placed in the aliased block), ``transients``, ``queues`` (alive passes per queue), ``batches`` (queue and
            pass names of each command list), ``batch_waits`` (per command list, in the order of ``batches``:
            a dict from each other queue it waits for on the GPU to the index in ``batches`` of the list it
            waits for), ``cross_queue_waits`` (their number), ``compile_us``, ``executions``, ``compile_cached``
            (the compile took the plan of an identical graph from the device's plan cache: see
            :func:`dx12kit.graph.plan_cache`), ``plan_cache`` (that cache's ``hits``, ``misses``,
            ``evictions``, ``entries`` and ``capacity``) and ``schedule``: ``mode``, ``declared_order`` and
            ``scheduled_order`` (alive pass names), ``moved`` (the names whose position changed), ``candidates``
            (orders tried, declaration order included) and, each as ``{"declared": ..., "scheduled": ...}``,
            ``transient_bytes`` (peak transient memory), ``queue_switches`` (adjacent command lists on different
            queues), ``cross_queue_waits`` and ``span`` (the frame's length with each pass one unit and each
            command list one more: what ``"overlap"`` lowers). ``batches`` and the ``memory_map`` orders are
            those of the scheduled order. Also ``threads`` and, with ``threads > 1`` after an execution,
            ``recording``: the last execution's ``wall_ms`` (parts handed out to last submitted), ``cpu_ms`` (each
            part's worker CPU time) and ``parts`` (command lists recorded).

            With ``profile=True`` also, from the last execution (``stats()`` waits for it to finish):
            ``gpu_ms`` (each alive pass's name -> its GPU milliseconds, from the timestamp before its first
            barrier to the one after its last work; ``None`` for a pass not timed; a repeated name gets
            ``" #2"``, ...), ``gpu_frame_ms`` (first timestamp to last, over every queue), ``gpu_queue_ms``
            (the same per queue), ``gpu_timeline`` (name -> start and end ms from the frame's first
            timestamp) and ``gpu_unmeasured`` (name -> why it has no time: a copy-queue pass on a device
            without copy-queue timestamps, or no execution since the graph changed).

        Raises:
            GraphError: from :meth:`compile`.
        """
        compiled = self._compiled_graph()
        if self._stats is None:
            self._stats = compiled.stats()
        out = dict(self._stats)
        out["compile_us"] = self.compile_seconds * 1e6
        out["executions"] = self._executions
        out["compile_cached"] = self._compile_cached
        out["plan_cache"] = plan_cache(self.device).stats()
        out["threads"] = self._threads
        if self._parallel is not None and self._parallel.last_timing:
            out["recording"] = dict(self._parallel.last_timing)
        if self._profile:
            out.update(self._gpu_stats())
        return out

    def _gpu_stats(self) -> Dict[str, Any]:
        """The ``gpu_*`` entries of :meth:`stats` (profiling): the last execution's, once there is one."""
        prof = self._profiler
        if prof is not None and self._profiled_executions and not self._dirty and \
                self._realized_version == self._version:
            return prof.read()
        names = [p.name for p in self._compiled_graph().culling.alive]
        return {"gpu_ms": {n: None for n in names}, "gpu_frame_ms": None, "gpu_queue_ms": {}, "gpu_timeline": {},
                "gpu_unmeasured": {n: "not executed since the graph last changed" for n in names}}

    def memory_map(self) -> List[Dict[str, Any]]:
        """Where each transient lies: one dict per transient (name, offset, size, first and last pass
        order, first_pass, last_pass, kind, and committed: True for a transient with memory of its own and
        no offset in the aliased block; every transient is placed today), in offset order.

        Returns:
            The list.

        Raises:
            GraphError: from :meth:`compile`.
        """
        compiled = self._compiled_graph()
        alive = compiled.culling.alive
        return [{"name": pl.resource.name, "offset": pl.offset, "size": pl.size, "alignment": pl.alignment,
                 "committed": False, "first": pl.first, "last": pl.last, "first_pass": alive[pl.first].name,
                 "last_pass": alive[pl.last].name, "kind": pl.resource.kind}
                for pl in sorted(compiled.layout.placements.values(), key=lambda x: (x.offset, x.first))]

    def to_dot(self) -> str:
        """The graph in Graphviz DOT: passes (boxes, one cluster per queue, culled ones grey and dashed),
        resources (ellipses; transients with their bytes, imported ones bold), edges pass -> resource for
        writes and resource -> pass for reads, labelled with the use.

        Returns:
            The DOT text.

        Raises:
            GraphError: from :meth:`compile`.
        """
        compiled = self._compiled_graph()
        assert self._entry is not None
        return to_dot(self._entry.resources, compiled)

    def to_png(self, path: Any, *, width: int = 1100) -> Any:
        """Draws the queue timeline (passes on their queues in order, cross-queue waits as arrows) and the
        transient memory map (which resource holds which bytes during which passes) into one PNG. With
        ``profile=True`` and an execution done, a third part draws the queues to scale of GPU time (each
        pass from its first to its last timestamp of the last execution; see :meth:`stats`).

        Args:
            path: where to write the PNG.
            width: the picture's width in pixels.

        Returns:
            The path written, as a ``pathlib.Path``.

        Raises:
            GraphError: from :meth:`compile`.
        """
        compiled = self._compiled_graph()
        gpu = self._gpu_stats() if self._profile else None
        return to_png(compiled, path, width=width, gpu=gpu if gpu and gpu["gpu_frame_ms"] is not None else None)
