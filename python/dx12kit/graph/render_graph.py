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
from .model import ClearValue, GraphResource, QueueName, RecordFn, Resource
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

    Raises:
        TypeError: ``device`` is not a :class:`Device`, or ``aliasing`` is not a bool.
    """

    def __init__(self, device: Device, *, aliasing: bool = True) -> None:
        if not isinstance(device, Device):
            raise TypeError(f"RenderGraph: expected a dx12kit.Device, not {type(device).__name__}")
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
                is a committed texture of its own, kept across executions and never aliased: D3D12 places
                MSAA textures only in 4 MiB-aligned heaps, and dx12kit's memory is 64 KiB aligned. It
                counts in ``transient_bytes`` (and ``transient_bytes_committed``). Resolve it in a pass
                declaring ``resolve_from`` / ``resolve_to``.

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

        Raises:
            GraphError: an unknown queue, a handle of another graph, a render target, depth buffer or resolve
                on a compute or copy queue, a clear of a resource that is not a render target or depth buffer
                of the pass, a clear depth outside [0, 1] or a colour that is not four numbers, or a resource
                declared twice in conflicting roles.
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
        key = structural_key(decl, self._aliasing)
        entry = cache.get(key)
        self._compile_cached = entry is not None
        if entry is None:
            compiled = compile_graph(decl.passes, device_allocation_info(self.device), self._aliasing)
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
        same = entry.resources == tuple(resources)
        real_compiled = self._real if same else {entry.resources[h.index]: r for h, r in self._real.items()}
        primed = prime_states(self.device, compiled.layout, compiled.barriers.start_states, real_compiled)
        entry.last_direct_value = max(entry.last_direct_value, primed)
        self._record_plan = bake(compiled.barriers, compiled.layout, real_compiled, self.device,
                                 records=None if same else [p.record for p in self._declaration.passes],
                                 handles=None if same else resources, codes=entry.codes)
        self._realized_version = self._version
        return self._record_plan

    def execute(self) -> int:
        """Compiles if needed, records every alive pass and submits them on their queues.

        Returns:
            The fence value on the device's ``"direct"`` queue after which all of this execution's work
            is complete (``device.queue("direct").wait(value)``).

        Raises:
            GraphError: from :meth:`compile`, or (validation mode) a ``record`` that uses a graph resource
                its pass did not declare, or another way than declared.
        """
        if self._dirty:
            self.compile()
        plan = self._record_plan
        if plan is None or self._realized_version != self._version:
            plan = self._realize()
        entry = self._entry
        assert entry is not None
        final = submit(plan, self._res_view, entry.last_direct_value)
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
            direct-queue pass records after its work for a later pass on a queue that may not record them)),
            ``transient_bytes`` (peak memory of the transients: the aliased block plus multisampled ones),
            ``transient_bytes_unaliased`` (each in memory of its own), ``transient_bytes_committed`` (the
            multisampled ones), ``transients``, ``queues`` (alive passes per queue), ``batches`` (queue and
            pass names of each command list), ``batch_waits`` (per command list, in the order of ``batches``:
            a dict from each other queue it waits for on the GPU to the index in ``batches`` of the list it
            waits for), ``cross_queue_waits`` (their number), ``compile_us``, ``executions``, ``compile_cached``
            (the compile took the plan of an identical graph from the device's plan cache: see
            :func:`dx12kit.graph.plan_cache`) and ``plan_cache`` (that cache's ``hits``, ``misses``,
            ``evictions``, ``entries`` and ``capacity``).

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
        return out

    def memory_map(self) -> List[Dict[str, Any]]:
        """Where each transient lies: one dict per transient (name, offset, size, first and last pass
        order, first_pass, last_pass, kind, and committed: True for a multisampled transient, which has memory
        of its own and no offset in the aliased block), in offset order.

        Returns:
            The list.

        Raises:
            GraphError: from :meth:`compile`.
        """
        compiled = self._compiled_graph()
        alive = compiled.culling.alive
        return [{"name": pl.resource.name, "offset": pl.offset, "size": pl.size, "alignment": pl.alignment,
                 "committed": pl.committed, "first": pl.first, "last": pl.last, "first_pass": alive[pl.first].name,
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
        transient memory map (which resource holds which bytes during which passes) into one PNG.

        Args:
            path: where to write the PNG.
            width: the picture's width in pixels.

        Returns:
            The path written, as a ``pathlib.Path``.

        Raises:
            GraphError: from :meth:`compile`.
        """
        return to_png(self._compiled_graph(), path, width=width)
