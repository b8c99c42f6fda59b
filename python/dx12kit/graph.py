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
  the declarations imply (read after write, write after read, write after write). A pass whose writes
  reach no imported resource and no ``side_effects=True`` pass is culled: its ``record`` never runs.
- **Barriers.** Before each pass every declared resource is requested in the state its use needs,
  with one :meth:`CommandList.resource_barriers` call of a :class:`BarrierBatch` built at compile time
  (the state tracker batches them into one ``ResourceBarrier`` at the pass's first work); UAV barriers
  between dependent unordered-access passes; aliasing barriers when a transient takes over memory (the
  graph's own inside a command list; dx12kit's at execute for a takeover at the start of a list).
  Split barriers are not issued: vkd3d 1.2 skips ``BEGIN_ONLY`` barriers (see :meth:`RenderGraph.stats`).
- **Transient memory.** Transients are placed resources in one block from
  :meth:`Device.allocate_memory`; those whose lifetimes do not overlap share bytes, whatever their
  formats and sizes. A transient read before it is written is an error; a render target or depth
  buffer whose first use does not clear it is cleared by the graph (D3D12 wants a clear, discard or
  full copy when a texture takes over aliased memory, and dx12kit has no discard). Multisampled
  transients are committed textures of their own (not aliased).
- **Queues.** Passes on the ``"compute"`` and ``"copy"`` queues are submitted on those queues with GPU
  waits (:meth:`CommandQueue.wait_for`) only where a dependency crosses queues; transitions a queue
  type may not record are recorded at the end of the producer's direct-queue list.
- **Validation.** With ``Device(validate=True)`` the ``CommandList`` given to ``record`` checks every
  use of a graph resource against the pass's declarations and raises :class:`GraphError` naming the
  pass and the resource.
"""
from __future__ import annotations

import numbers
import time
import types
from dataclasses import dataclass, field
from typing import (
    Literal,
    Any,
    Callable,
    Dict,
    FrozenSet,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    Union,
)

from . import dx12core as _core
from .dx12core import BarrierBatch, Buffer, CommandList, CommandQueue, Device, Format, ResourceState, Texture
from .enums import QueueKind
from .errors import InvalidArgumentError

__all__ = ["RenderGraph", "GraphResource", "GraphError"]

Resource = Union[Texture, Buffer]
RecordFn = Callable[[Any, Mapping["GraphResource", Any]], None]
ClearValue = Union[float, Tuple[float, ...], Sequence[float]]

QUEUES: Tuple[str, ...] = ("direct", "compute", "copy")
QueueName = Union[QueueKind, Literal["direct", "compute", "copy"]]

# Uses of a resource by a pass, and whether each one writes / reads the previous contents.
_READ, _WRITE, _RT, _DS, _COPY_SRC, _COPY_DST = "read", "write", "render_target", "depth_stencil", "copy_from", "copy_to"
_RESOLVE_SRC, _RESOLVE_DST = "resolve_from", "resolve_to"
_WRITES = frozenset({_WRITE, _RT, _DS, _COPY_DST, _RESOLVE_DST})
_FULL_WRITES = frozenset({_COPY_DST, _RESOLVE_DST})   # a first use that defines every texel (with a clear: RT, DS)

_S = ResourceState
_SRV_DIRECT = int(_S.PIXEL_SHADER_RESOURCE | _S.NON_PIXEL_SHADER_RESOURCE)
_SRV_COMPUTE = int(_S.NON_PIXEL_SHADER_RESOURCE)
_STATE_OF_USE: Dict[str, int] = {
    _WRITE: int(_S.UNORDERED_ACCESS),
    _RT: int(_S.RENDER_TARGET),
    _DS: int(_S.DEPTH_WRITE),
    _COPY_SRC: int(_S.COPY_SOURCE),
    _COPY_DST: int(_S.COPY_DEST),
    _RESOLVE_SRC: int(_S.RESOLVE_SOURCE),
    _RESOLVE_DST: int(_S.RESOLVE_DEST),
}
# The states a list of each queue type may hold (D3D12's queue-type rules, from the core's table).
_QUEUE_STATES: Dict[str, int] = {str(k): int(v) for k, v in _core.queue_states().items()}


_FORMATS: Dict[str, Format] = {}   # format names seen, resolved once


def _legal_on(queue: str, state: int) -> bool:
    return state & ~_QUEUE_STATES[queue] == 0


class GraphError(InvalidArgumentError):
    """A render graph was declared or used wrongly (names the pass and the resource)."""


class GraphResource:
    """A handle to a resource of one :class:`RenderGraph`: transient (declared with
    :meth:`RenderGraph.create_texture` / :meth:`RenderGraph.create_buffer`) or imported
    (:meth:`RenderGraph.import_resource`). The real resource of an execution is ``res[handle]`` in a
    pass's ``record(cl, res)``.
    """

    __slots__ = ("_graph", "index", "name", "kind", "transient", "width", "height", "format", "mips",
                 "array_size", "samples", "size", "resource", "__weakref__")

    def __init__(self, graph: "RenderGraph", index: int, name: str, kind: str, *, transient: bool,
                 width: int = 0, height: int = 0, format: Optional[Format] = None, mips: int = 1,
                 array_size: int = 1, samples: int = 1, size: int = 0, resource: Optional[Resource] = None) -> None:
        """Made by :class:`RenderGraph`; not meant to be constructed directly.

        Args:
            graph: the RenderGraph it belongs to.
            index: its position in the graph's resource list.
            name, kind, transient, width, height, format, mips, array_size, samples, size, resource:
                the attributes of the same names (``kind``: ``"texture"`` or ``"buffer"``).
        """
        self._graph = graph
        self.index = index
        self.name = name
        self.kind = kind            # "texture" or "buffer"
        self.transient = transient
        self.width = width
        self.height = height
        self.format = format
        self.mips = mips
        self.array_size = array_size
        self.samples = samples
        self.size = size
        self.resource = resource    # the imported resource (None for transients)

    def _texture_format(self) -> Format:
        """The format of a texture handle (textures are always made with one)."""
        if self.format is None:
            raise InvalidArgumentError(f"render graph: {self.name!r} is a {self.kind}, not a texture with a format")
        return self.format

    def __repr__(self) -> str:
        what = "transient" if self.transient else "imported"
        if self.kind == "texture":
            return f"<GraphResource {self.name!r} {what} texture {self.width}x{self.height} {self.format}>"
        return f"<GraphResource {self.name!r} {what} buffer {self.size} bytes>"


@dataclass
class _Pass:
    index: int
    name: str
    record: RecordFn
    queue: str
    uses: Dict[GraphResource, FrozenSet[str]]
    render_targets: Tuple[GraphResource, ...]
    depth_stencil: Optional[GraphResource]
    clear: Dict[GraphResource, ClearValue]
    side_effects: bool
    writes_of: Dict[GraphResource, bool]    # per use: whether it writes
    need_of: Dict[GraphResource, int]       # per use: the resource state it needs
    # compile results
    alive: bool = False
    order: int = -1
    batch: int = -1


@dataclass
class _Placement:
    handle: GraphResource
    offset: int
    size: int
    alignment: int
    first: int        # order of the first alive pass using it
    last: int         # order of the last one
    flags: Tuple[bool, bool, bool]   # render_target, depth_stencil, uav
    committed: bool = False          # multisampled: a committed resource of its own, not aliased


class _PassPlan:
    """What the graph records around one pass (compile result)."""

    __slots__ = ("pass_", "aliasing", "uav_barriers", "transitions", "init_clears", "post")

    def __init__(self, pass_: _Pass) -> None:
        """An empty plan for ``pass_``."""
        self.pass_ = pass_
        self.aliasing: List[Tuple[Optional[GraphResource], GraphResource]] = []
        self.uav_barriers: List[GraphResource] = []
        self.transitions: List[Tuple[GraphResource, int]] = []
        self.init_clears: List[GraphResource] = []
        self.post: List[Tuple[GraphResource, int]] = []   # transitions after record


@dataclass
class _Batch:
    queue: str
    passes: List[_PassPlan]
    waits: Dict[str, int] = field(default_factory=dict)       # other queue -> batch index it waits for
    waits_previous_execution: bool = False


def _clear_value(pass_name: str, h: "GraphResource", v: Any, depth: bool) -> Tuple[float, ...]:
    """A pass's clear value checked: a depth in [0, 1] for the depth buffer, four numbers for a colour."""
    if depth:
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"add_pass {pass_name!r}: the clear of depth buffer {h.name!r} is a number in [0, 1], "
                            f"not {type(v).__name__}")
        if not 0.0 <= float(v) <= 1.0:
            raise GraphError(f"add_pass {pass_name!r}: the clear depth of {h.name!r} must be in [0, 1], got {v!r}")
        return (float(v),)
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise TypeError(f"add_pass {pass_name!r}: the clear of render target {h.name!r} is four numbers (r, g, b, a), "
                        f"not {type(v).__name__}")
    vals = tuple(v)
    if len(vals) != 4 or not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in vals):
        raise GraphError(f"add_pass {pass_name!r}: the clear of render target {h.name!r} must be four numbers "
                         f"(r, g, b, a), got {v!r}")
    return tuple(float(x) for x in vals)


def _check_aliasing(value: Any) -> bool:
    """``RenderGraph``'s ``aliasing`` setting checked: a bool, nothing else (no truthy numbers or strings)."""
    if value.__class__ is not bool:
        raise TypeError(f"RenderGraph: aliasing must be a bool (True or False), not {type(value).__name__}")
    return bool(value)


def _key_of_clear(value: ClearValue) -> Tuple[float, ...]:
    if isinstance(value, (int, float)):
        return (float(value),)
    return tuple(float(v) for v in value)


class RenderGraph:
    """A frame graph over a :class:`Device`: declare resources and passes, then :meth:`execute`.

    Args:
        device: the device whose queues run the passes and whose memory holds the transients.
        aliasing: let transients whose lifetimes do not overlap share memory (the default). ``False``
            gives each transient bytes of its own (still placed in one block): no aliasing barriers and
            no returns to ``COMMON``; for comparing memory and costs, or ruling aliasing out. Also the
            :attr:`aliasing` property, which may be changed later.

    Raises:
        TypeError: ``device`` is not a :class:`Device`, or ``aliasing`` is not a bool.
    """

    def __init__(self, device: Device, *, aliasing: bool = True) -> None:
        if not isinstance(device, Device):
            raise TypeError(f"RenderGraph: expected a dx12kit.Device, not {type(device).__name__}")
        self.device = device
        self._aliasing = _check_aliasing(aliasing)
        self._resources: List[GraphResource] = []
        self._passes: List[_Pass] = []
        self._names: Set[str] = set()
        self._dirty = True
        self._version = 0
        # compile results
        self._order: List[_Pass] = []
        self._batches: List[_Batch] = []
        self._placements: Dict[GraphResource, _Placement] = {}
        self._memory_size = 0
        self._committed_bytes = 0
        self._stats: Dict[str, Any] = {}
        # realisation (real resources), kept across executions while the layout is unchanged
        self._layout_key: Optional[Tuple[Any, ...]] = None
        self._memory: Any = None
        self._real: Dict[GraphResource, Resource] = _RealResources()
        self._res_view: Mapping[GraphResource, Any] = types.MappingProxyType(self._real)
        self._last_direct_value = 0
        self._executions = 0
        self._realized_version = -1
        self._baked: List[Tuple[Any, ...]] = []
        self._end_waits: Tuple[Tuple[Any, int], ...] = ()
        self._final_direct = -1
        self._direct_queue: CommandQueue = device.queue(QueueKind.DIRECT)
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
        value = _check_aliasing(value)
        if value != self._aliasing:
            self._aliasing = value
            self._changed()

    # ------------------------------------------------------------------ declaration
    def _new_name(self, name: str) -> str:
        if not isinstance(name, str) or not name:
            raise GraphError("RenderGraph: a resource needs a non-empty name")
        if name in self._names:
            raise GraphError(f"RenderGraph: a resource named {name!r} exists already")
        self._names.add(name)
        return name

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
        if width < 1 or height < 1 or mips < 1 or array_size < 1:
            raise GraphError(f"create_texture {name!r}: width, height, mips and array_size must be >= 1")
        if samples < 1 or (samples > 1 and (mips != 1 or array_size != 1)):
            raise GraphError(f"create_texture {name!r}: samples must be >= 1, and a multisampled texture has one mip "
                             "and one array slice")
        fmt = _FORMATS.get(format) if format.__class__ is str else None
        if fmt is not None:
            pass
        elif isinstance(format, Format):
            fmt = format
        elif isinstance(format, str):
            try:
                fmt = _FORMATS[format] = Format[format.upper()]
            except KeyError:
                raise GraphError(f"create_texture {name!r}: unknown format {format!r}") from None
        else:
            raise TypeError(f"create_texture {name!r}: format must be a dx12kit.Format or its name, not "
                            f"{type(format).__name__}")
        h = GraphResource(self, len(self._resources), self._new_name(name), "texture", transient=True, width=int(width),
                          height=int(height), format=fmt, mips=int(mips), array_size=int(array_size), samples=int(samples))
        self._resources.append(h)
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
        if isinstance(size, bool) or not isinstance(size, numbers.Integral):
            raise TypeError(f"create_buffer {name!r}: size must be an int, not {type(size).__name__}")
        if size < 1 or size > _MAX_BUFFER_BYTES:
            raise GraphError(f"create_buffer {name!r}: size must be 1..{_MAX_BUFFER_BYTES} bytes (1 TiB), got {size}")
        h = GraphResource(self, len(self._resources), self._new_name(name), "buffer", transient=True, size=int(size))
        self._resources.append(h)
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
        if not isinstance(resource, (Texture, Buffer)):
            raise GraphError("import_resource: expected a dx12kit.Texture or dx12kit.Buffer")
        for r in self._resources:
            if r.resource is resource:
                raise GraphError(f"import_resource: {resource.name!r} is imported already as {r.name!r}")
        nm = self._new_name(name if name is not None else resource.name)
        if isinstance(resource, Texture):
            h = GraphResource(self, len(self._resources), nm, "texture", transient=False, width=resource.width,
                              height=resource.height, format=resource.format, mips=resource.mip_levels,
                              array_size=resource.array_size, samples=resource.sample_count, resource=resource)
        else:
            h = GraphResource(self, len(self._resources), nm, "buffer", transient=False, size=resource.size, resource=resource)
        self._resources.append(h)
        self._changed()
        return h

    def _own(self, h: Any, pass_name: str, what: str) -> GraphResource:
        if not isinstance(h, GraphResource) or h._graph is not self:
            raise GraphError(f"add_pass {pass_name!r}: {what} must hold GraphResource handles of this graph, got {h!r}")
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
        if not callable(record):
            raise TypeError(f"add_pass {name!r}: record must be callable as record(cl, res), not {type(record).__name__}")
        if isinstance(queue, QueueKind):
            queue = "direct" if queue is QueueKind.DIRECT else str(queue.value)   # type: ignore[assignment]
        if not isinstance(queue, str) or queue not in QUEUES:
            raise GraphError(f"add_pass {name!r}: queue must be one of {QUEUES}, got {queue!r}")
        rts = tuple(render_targets)
        uses: Dict[GraphResource, Set[str]] = {}
        for hs, use in ((reads, _READ), (writes, _WRITE), (rts, _RT),
                        ((depth_stencil,) if depth_stencil is not None else (), _DS), (copy_from, _COPY_SRC),
                        (copy_to, _COPY_DST), (resolve_from, _RESOLVE_SRC), (resolve_to, _RESOLVE_DST)):
            for h in hs:
                if h.__class__ is not GraphResource or h._graph is not self:
                    self._own(h, name, use)   # raises
                u = uses.get(h)
                if u is None:
                    uses[h] = {use}
                elif use == _DS and u == {_READ} or use == _READ and u == {_DS}:
                    u.add(use)   # a depth buffer tested and read in one pass (DEPTH_WRITE allows both)
                else:
                    raise GraphError(f"add_pass {name!r}: resource {h.name!r} declared as {sorted(u | {use})} in one "
                                     "pass; a resource has one use per pass")
        if queue != "direct":
            if rts or depth_stencil is not None:
                raise GraphError(f"add_pass {name!r}: render targets and depth buffers need the direct queue, not "
                                 f"{queue!r}")
            if any(_RESOLVE_SRC in u or _RESOLVE_DST in u for u in uses.values()):
                raise GraphError(f"add_pass {name!r}: resolves need the direct queue, not {queue!r}")
            if queue == "copy" and any(_READ in u or _WRITE in u for u in uses.values()):
                raise GraphError(f"add_pass {name!r}: a copy-queue pass may only copy (copy_from / copy_to)")
        clears: Dict[GraphResource, ClearValue] = {}
        for h, v in (clear or {}).items():
            self._own(h, name, "clear")
            if h not in rts and h is not depth_stencil:
                raise GraphError(f"add_pass {name!r}: clear of {h.name!r}, which is not a render target or the depth "
                                 "buffer of the pass")
            clears[h] = _clear_value(name, h, v, h is depth_stencil)
        fuses: Dict[GraphResource, FrozenSet[str]] = {}
        writes_of: Dict[GraphResource, bool] = {}
        need_of: Dict[GraphResource, int] = {}
        for h, u in uses.items():
            fu = fuses[h] = frozenset(u)
            writes_of[h] = not fu.isdisjoint(_WRITES)
            need_of[h] = _need_of(queue, fu)
        self._passes.append(_Pass(len(self._passes), name, record, queue, fuses, rts, depth_stencil, clears,
                                  bool(side_effects), writes_of, need_of))
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
        passes = self._passes
        # 1. culling: walk back from imported resources and side-effect passes.
        needed: Set[GraphResource] = set()
        for p in reversed(passes):
            alive = p.side_effects
            if not alive:
                for h, w in p.writes_of.items():
                    if w and (not h.transient or h in needed):
                        alive = True
                        break
            p.alive = alive
            if alive:
                for h, u in p.uses.items():
                    if h.transient:
                        full = not u.isdisjoint(_FULL_WRITES) or (h in p.clear)
                        if full:
                            needed.discard(h)
                        if _READ in u or _COPY_SRC in u or _RESOLVE_SRC in u or (not full and not u.isdisjoint(_WRITES)):
                            needed.add(h)
        # 2. read-before-write of transients (over every declared pass: a declaration error).
        written: Set[GraphResource] = set()
        for p in passes:
            for h, w in p.writes_of.items():
                if not w and h.transient and h not in written:
                    raise GraphError(f"pass {p.name!r} reads transient {h.name!r} before any pass writes it "
                                     "(a transient has undefined contents until its first write)")
            for h, w in p.writes_of.items():
                if w:
                    written.add(h)
        order = [p for p in passes if p.alive]
        for i, p in enumerate(order):
            p.order = i
        for p in passes:
            if not p.alive:
                p.order = -1
        # 3. lifetimes, flags and memory placement of the transients used by alive passes.
        first: Dict[GraphResource, int] = {}
        last: Dict[GraphResource, int] = {}
        flags: Dict[GraphResource, List[bool]] = {}
        for p in order:
            for h, u in p.uses.items():
                if not h.transient:
                    continue
                if h not in first:
                    first[h] = p.order
                last[h] = p.order
                f = flags.setdefault(h, [False, False, False])
                f[0] |= _RT in u
                f[1] |= _DS in u
                f[2] |= _WRITE in u
        # A transient used on the compute or copy queue keeps its bytes until a pass of another queue
        # has waited for that work (its join point): sharing them earlier would make unrelated passes
        # of the other queue wait for it, and lose the overlap.
        join = _join_points(order) if any(p.queue != "direct" for p in order) else []
        for p in order:
            if p.queue != "direct":
                for h in p.uses:
                    # the join pass waits before it starts: from it on, the bytes are free
                    if h.transient and join[p.order] - 1 > last[h]:
                        last[h] = join[p.order] - 1
        placements: Dict[GraphResource, _Placement] = {}
        for h in first:
            fl = (flags[h][0], flags[h][1], flags[h][2])
            if h.samples > 1 and (fl[2] or not (fl[0] or fl[1])):
                raise GraphError(f"transient {h.name!r} is multisampled: passes may use it as a render target, depth "
                                 "buffer, shader resource or resolve source, and one must render to it (no UAV)")
            size, align = _allocation_info(self.device, h, fl)
            placements[h] = _Placement(h, 0, size, align, first[h], last[h], fl, h.samples > 1)
        self._memory_size = _pack([x for x in placements.values() if not x.committed], self._aliasing)
        self._committed_bytes = sum(x.size for x in placements.values() if x.committed)
        self._placements = placements
        # 4. per-pass plans: aliasing barriers, UAV barriers, transitions; batches and cross-queue waits.
        self._plan(order)
        self._order = order
        self._dirty = False
        self.compile_seconds = time.perf_counter() - t0

    def _plan(self, order: List[_Pass]) -> None:
        placements = self._placements
        # previous occupant of each transient's bytes (cyclic: the first users of an execution take
        # the memory back from the last users of the previous one).
        pl = list(placements.values())
        prev_occupant, preds = _byte_successions([x for x in pl if not x.committed])
        # The state each transient starts an execution in: the state its last use left (kept from the
        # previous execution; COMMON for buffers and after a copy queue). A transient that takes over
        # bytes used earlier in the same command list gets the graph's aliasing barrier inside the list,
        # where dx12kit's tracker parks it in COMMON (rule 6c: its state must be known while recording),
        # so it goes back to COMMON after its last use and that park costs nothing. One that takes over
        # bytes at the start of its command list (their last user ran in an earlier list, or in the
        # previous execution) is activated by dx12kit at execute, in the list run just before, with
        # its transition from the state it was left in: no barrier inside the list, no round trip.
        state: Dict[GraphResource, Optional[int]] = {}
        final_pass: Dict[GraphResource, _Pass] = {}
        for p in order:
            for h in p.uses:
                if h.transient:
                    final_pass[h] = p
        for h, fp in final_pass.items():
            if h.kind == "buffer" or fp.queue == "copy":
                state[h] = 0
            else:
                state[h] = fp.need_of[h]
        last_uav_writer: Dict[GraphResource, _Pass] = {}
        last_access: Dict[GraphResource, List[_Pass]] = {}   # passes since the last write (readers) or the writer
        last_direct_user: Dict[GraphResource, _Pass] = {}
        batches: List[_Batch] = []
        plans: List[_PassPlan] = []
        wrap: List[Tuple[_Pass, GraphResource, int]] = []
        seen_in_batch: Set[GraphResource] = set()    # resources the current command list has requested
        ended: Dict[GraphResource, Tuple[Tuple[str, int], ...]] = {}
        split_cands: List[Tuple[_Pass, _Pass]] = []
        n_trans = n_uav = n_alias = n_init = n_handoff = n_alias_exec = 0
        parked: Set[GraphResource] = set()   # activated by the graph's aliasing barrier inside a list
        used_in: Dict[GraphResource, Set[int]] = {}   # the command lists (batches) using each transient
        b: Optional[_Batch] = None
        for p in order:
            pq = p.queue
            if b is None or b.queue != pq:
                b = _Batch(pq, [])
                batches.append(b)
                seen_in_batch = set()
            p.batch = len(batches) - 1
            plan = _PassPlan(p)
            b.passes.append(plan)
            plans.append(plan)
            far_waits: Dict[str, int] = {}   # other queue -> latest batch of it this pass depends on
            writes_of = p.writes_of
            need_of = p.need_of
            ending: List[GraphResource] = []
            for h, u in p.uses.items():
                transient = h.transient
                if transient:
                    pl_h = placements[h]
                    if pl_h.first == p.order:
                        mid_list = False
                        for op in preds.get(h, ()):   # whoever used these bytes just before must be done
                            for dq, bi in ended.get(op, ()):
                                if dq != pq and bi > far_waits.get(dq, -1):
                                    far_waits[dq] = bi
                            if p.batch in used_in[op]:
                                mid_list = True   # used earlier in this command list
                        if mid_list:
                            plan.aliasing.append((prev_occupant.get(h), h))
                            parked.add(h)
                            n_alias += 1
                        elif h in prev_occupant:
                            n_alias_exec += 1
                        # D3D12 (CreatePlacedResource): a render-target or depth texture taking over
                        # aliased memory is first cleared, discarded or fully copied into; a resolve
                        # into it is none of those, so it gets the clear too.
                        if (pl_h.flags[0] or pl_h.flags[1]) and h.kind == "texture" and not (
                                h in p.clear or _COPY_DST in u):
                            plan.init_clears.append(h)
                            n_init += 1
                    if final_pass[h] is p:
                        ending.append(h)
                writes = writes_of[h]
                prev = last_access.get(h)
                if prev:
                    if writes:   # after the last writer and every reader since
                        for x in prev:
                            if x.queue != pq and x.batch > far_waits.get(x.queue, -1):
                                far_waits[x.queue] = x.batch
                    else:
                        x = prev[0]
                        if x.queue != pq and x.writes_of[h] and x.batch > far_waits.get(x.queue, -1):
                            far_waits[x.queue] = x.batch   # after the last writer
                need = need_of[h]
                before_state = 0 if h in parked and prev is None else state.get(h)
                if before_state is not None:
                    if h.kind == "buffer" and prev and prev[-1].batch != p.batch:
                        before_state = 0   # buffers decay to COMMON at the end of every execute
                    if before_state != need and not _legal_on(pq, before_state):
                        # the queue may not leave that state: the last direct-queue user does it after its pass.
                        src = last_direct_user.get(h)
                        if src is not None:
                            plans[src.order].post.append((h, need))
                            n_handoff += 1
                            if src.batch > far_waits.get("direct", -1):
                                far_waits["direct"] = src.batch
                            before_state = need
                        elif transient and pq != "direct":
                            # first use of the execution: the previous execution's last direct user does it
                            fp = final_pass[h]
                            if fp.queue == "direct":
                                wrap.append((fp, h, need))
                                before_state = need
                if before_state != need:
                    n_trans += 1
                    if prev:
                        split_cands.append((prev[-1], p))
                    plan.transitions.append((h, need))
                elif h not in seen_in_batch:
                    # a resource new to a command list is always requested (its state is resolved at
                    # execute, in the list dx12kit runs just before); otherwise only real changes.
                    plan.transitions.append((h, need))
                seen_in_batch.add(h)
                if _WRITE in u:
                    if before_state == need and h in last_uav_writer:
                        plan.uav_barriers.append(h)
                        n_uav += 1
                    last_uav_writer[h] = p
                elif last_uav_writer:
                    last_uav_writer.pop(h, None)
                state[h] = 0 if pq == "copy" else need
                if writes or prev is None:
                    last_access[h] = [p]
                else:
                    prev.append(p)
                if pq == "direct":
                    last_direct_user[h] = p
            for h in ending:   # end of life of a transient the graph activates inside a list: back to COMMON
                if h in parked and state.get(h) != 0:
                    plan.post.append((h, 0))
                    n_trans += 1
                    state[h] = 0
            new_waits: Dict[str, int] = {}
            for dq, bi in far_waits.items():
                if dq != pq and bi > b.waits.get(dq, -1):
                    new_waits[dq] = bi
            if new_waits and len(b.passes) > 1:
                # wait only where needed: the passes before this one run without the wait (on another
                # queue's work that they do not depend on, concurrently).
                b.passes.pop()
                b = _Batch(pq, [plan])
                batches.append(b)
                plan.transitions = [(h, need_of[h]) for h in p.uses]   # every resource is new to the new list
                seen_in_batch = set(p.uses)
                p.batch = len(batches) - 1
            b.waits.update(new_waits)
            for h in p.uses:
                if h.transient:
                    used_in.setdefault(h, set()).add(p.batch)
            for h in ending:   # a transient's life ends: the batches of its last accesses, per queue
                last_b: Dict[str, int] = {}
                for x in last_access[h]:
                    if x.batch > last_b.get(x.queue, -1):
                        last_b[x.queue] = x.batch
                ended[h] = tuple(last_b.items())
        counts = {"transitions": n_trans, "uav": n_uav, "aliasing": n_alias, "aliasing_at_execute": n_alias_exec,
                  "split": 0, "batches": 0,
                  "init_clears": n_init, "queue_handoff": n_handoff}
        for fp, h, need in wrap:
            if state.get(h) != need:
                plans[fp.order].post.append((h, need))
                counts["queue_handoff"] += 1
        # cross-execution: the first batch of each non-direct queue waits for the previous execution.
        seen: Set[str] = set()
        for bt in batches:
            if bt.queue not in seen:
                seen.add(bt.queue)
                bt.waits_previous_execution = bt.queue != "direct"
        counts["batches"] = len(batches)
        # A transition whose resource was last used two or more passes earlier in the same command list
        # could be split (BEGIN_ONLY after that use, END_ONLY before this pass). Not emitted: vkd3d 1.2
        # skips BEGIN_ONLY barriers and runs END_ONLY ones as whole transitions, so there is nothing to
        # gain on it (and dx12kit's CommandList has no split-barrier call); counted to show the room.
        counts["split_candidates"] = sum(1 for q, p in split_cands if q.batch == p.batch and q.order < p.order - 1)
        self._batches = batches
        queues: Dict[str, int] = {q: 0 for q in QUEUES}
        for p in order:
            queues[p.queue] += 1
        unaliased = sum(_align(x.size, x.alignment) for x in pl)
        self._stats = {
            "passes": len(order),
            "culled": len(self._passes) - len(order),
            "culled_passes": [p.name for p in self._passes if not p.alive],
            "barriers": counts,
            "transient_bytes": self._memory_size + self._committed_bytes,
            "transient_bytes_unaliased": unaliased,
            "transient_bytes_committed": self._committed_bytes,
            "transients": len(pl),
            "queues": queues,
            "batches": [(bt.queue, [pp.pass_.name for pp in bt.passes]) for bt in batches],
            "cross_queue_waits": sum(len(bt.waits) for bt in batches),
            "batch_waits": [dict(bt.waits) for bt in batches],
        }


    # ------------------------------------------------------------------ execute
    def _realize(self) -> None:
        """Creates the real transients (placed in one block) when the layout changed, and bakes the plan."""
        key = (self._memory_size,) + tuple(
            (h.index, pl.offset, pl.flags, pl.committed) for h, pl in sorted(self._placements.items(), key=lambda kv: kv[0].index))
        if key != self._layout_key:
            dev = self.device
            self._real.clear()
            self._memory = None
            if self._memory_size:
                self._memory = dev.allocate_memory(self._memory_size, name="render graph transients")
            for h, pl in self._placements.items():
                if pl.committed:
                    self._real[h] = dev.create_texture2d(h.width, h.height, h._texture_format(), sample_count=h.samples,
                                                         render_target=pl.flags[0], depth_stencil=pl.flags[1],
                                                         name=h.name)
                elif h.kind == "texture":
                    self._real[h] = dev.create_texture2d(h.width, h.height, h._texture_format(), mip_levels=h.mips,
                                                         array_size=h.array_size, render_target=pl.flags[0],
                                                         depth_stencil=pl.flags[1], uav=pl.flags[2], name=h.name,
                                                         memory=self._memory, offset=pl.offset)
                else:
                    self._real[h] = dev.create_buffer(h.size, uav=pl.flags[2], name=h.name, memory=self._memory,
                                                      offset=pl.offset)
            self._layout_key = key
        for h in self._resources:
            if not h.transient and h.resource is not None:
                self._real[h] = h.resource
        self._bake()
        self._realized_version = self._version

    def _bake(self) -> None:
        """Turns the plan into flat tuples of real objects for the execute loop: per pass one prebuilt
        :class:`BarrierBatch` before it (and one after it, when it hands states over), the targets, the
        clears; per command list its queue and the waits, as indexes of earlier lists."""
        real = self._real
        validate = bool(self.device.validate)
        graph_ids: Dict[int, GraphResource] = {id(r): h for h, r in real.items()}
        dev = self.device
        qs = {q: dev.queue(QueueKind(q)) for q in QUEUES}
        self._direct_queue = qs["direct"]
        baked: List[Tuple[Any, ...]] = []
        last_batch: Dict[str, int] = {}
        waited_by_direct: Dict[str, int] = {}
        for bi, bt in enumerate(self._batches):
            passes = []
            carry: List[Tuple[Any, ...]] = []   # the previous pass's closing transitions, recorded with this pass's
            for k, plan in enumerate(bt.passes):
                p = plan.pass_
                first: List[Tuple[Any, ...]] = carry + [("aliasing", real[b] if b is not None else None, real[a])
                                                        for b, a in plan.aliasing]
                first += [("uav", real[h]) for h in plan.uav_barriers]
                inits: List[Tuple[Any, bool]] = []
                for h in plan.init_clears:
                    if h in p.render_targets or h is p.depth_stencil:
                        continue   # cleared below, after binding
                    inits.append((real[h], self._placements[h].flags[1]))
                then = [("transition", real[h], st) for h, st in plan.transitions]
                if not inits:
                    first, then = first + then, []
                rts = [real[h] for h in p.render_targets]
                ds = real[p.depth_stencil] if p.depth_stencil is not None else None
                clears: List[Tuple[bool, Any, Tuple[float, ...]]] = []
                for h in list(p.render_targets) + ([p.depth_stencil] if p.depth_stencil is not None else []):
                    if h in p.clear:
                        clears.append((h is p.depth_stencil, real[h], _key_of_clear(p.clear[h])))
                    elif h in plan.init_clears:
                        clears.append((h is p.depth_stencil, real[h], (1.0,) if h is p.depth_stencil else (0.0, 0.0, 0.0, 0.0)))
                checker = None
                own_res: Optional[_RealResources] = None
                if validate:   # res[] holds only what the pass declared
                    own_res = _RealResources({h: real[h] for h in p.uses})
                    allowed = {id(real[h]): u for h, u in p.uses.items()}
                    checker = (p.name, allowed, graph_ids)
                post = [("transition", real[h], st) for h, st in plan.post]
                carry = []
                if post and k + 1 < len(bt.passes):
                    carry, post = post, []
                passes.append((p.record, BarrierBatch(first) if first else None, tuple(inits),
                               BarrierBatch(then) if then else None, rts if (rts or ds is not None) else None, ds,
                               tuple(clears), checker, BarrierBatch(post) if post else None, (p.name, own_res)))
            run = _straight_line(passes, f"render graph list {bi} ({bt.queue})")
            waits = tuple((qs[other], i) for other, i in sorted(bt.waits.items()))
            if bt.queue == "direct":
                for other, i in bt.waits.items():
                    waited_by_direct[other] = max(waited_by_direct.get(other, -1), i)
            last_batch[bt.queue] = bi
            baked.append((qs[bt.queue], run, waits, bt.waits_previous_execution))
        self._baked = baked
        # what the direct queue still has to wait for at the end: the other queues' last lists that no
        # direct-queue list waited for (then, or when no list is on the direct queue, an empty list ends it).
        self._end_waits = tuple((qs[k], i) for k, i in sorted(last_batch.items())
                                if k != "direct" and waited_by_direct.get(k, -1) < i)
        self._final_direct = last_batch.get("direct", -1)

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
        if self._realized_version != self._version:
            self._realize()
        direct = self._direct_queue
        res = self._res_view
        values: List[int] = []
        prev_direct = self._last_direct_value
        for q, run, waits, wait_prev in self._baked:
            cl = q.command_list()
            run(cl, res)
            if wait_prev and prev_direct and direct.completed_value < prev_direct:
                q.wait_for(direct, prev_direct)
            for oq, bi in waits:   # GPU waits; skipped when the work is complete (each costs CPU in vkd3d 1.2)
                v = values[bi]
                if oq.completed_value < v:
                    q.wait_for(oq, v)
            values.append(q.execute(cl))
        if self._end_waits or self._final_direct < 0:
            for oq, bi in self._end_waits:
                direct.wait_for(oq, values[bi])
            final = direct.execute(direct.command_list(name="render graph end"))
        else:
            final = values[self._final_direct]
        self._last_direct_value = final
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
            waits for), ``cross_queue_waits`` (their number), ``compile_us`` and ``executions``.

        Raises:
            GraphError: from :meth:`compile`.
        """
        if self._dirty:
            self.compile()
        out = dict(self._stats)
        out["compile_us"] = self.compile_seconds * 1e6
        out["executions"] = self._executions
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
        if self._dirty:
            self.compile()
        out = []
        for pl in sorted(self._placements.values(), key=lambda x: (x.offset, x.first)):
            out.append({"name": pl.handle.name, "offset": pl.offset, "size": pl.size, "alignment": pl.alignment,
                        "committed": pl.committed,
                        "first": pl.first, "last": pl.last, "first_pass": self._order[pl.first].name,
                        "last_pass": self._order[pl.last].name, "kind": pl.handle.kind})
        return out

    def to_dot(self) -> str:
        """The graph in Graphviz DOT: passes (boxes, one cluster per queue, culled ones grey and dashed),
        resources (ellipses; transients with their bytes, imported ones bold), edges pass -> resource for
        writes and resource -> pass for reads, labelled with the use.

        Returns:
            The DOT text.

        Raises:
            GraphError: from :meth:`compile`.
        """
        if self._dirty:
            self.compile()
        from .graph_draw import to_dot
        return to_dot(self)

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
        if self._dirty:
            self.compile()
        from .graph_draw import to_png
        return to_png(self, path, width=width)


# ---------------------------------------------------------------------- helpers
def _straight_line(passes: List[Tuple[Any, ...]], label: str) -> Callable[[CommandList, Mapping[GraphResource, Any]],
                                                                            None]:
    """The recording of one command list's passes as one generated function of straight-line calls
    (what a person recording the passes by hand would write), so that executing a compiled graph
    costs no per-pass interpretation. Its constants (barrier batches, targets, clear values, record
    functions) are bound as the function's globals ``k0``, ``k1``, ...

    Args:
        passes: per pass ``(record, first, inits, then, rts, ds, clears, checker, post, (name, res))`` from
            :meth:`RenderGraph._bake`.
        label: the generated code's file name (tracebacks).

    Returns:
        ``run(cl, res)``.
    """
    ns: Dict[str, Any] = {"_CheckedCommandList": _CheckedCommandList, "_UnrealizedResource": _UnrealizedResource}
    lines = ["def run(cl, res):"]

    def k(value: Any) -> str:
        name = f"k{len(ns)}"
        ns[name] = value
        return name

    for record, first, inits, then, rts, ds, clears, checker, post, (name, own_res) in passes:
        if first is not None:
            lines.append(f"    cl.resource_barriers({k(first)})")
        for t, is_depth in inits:   # a render target or depth buffer first used otherwise: initialised
            if is_depth:
                lines.append(f"    cl.transition_barrier({k(t)}, {int(_S.DEPTH_WRITE)})")
                lines.append(f"    cl.clear_depth_stencil({k(t)}, 1.0, 0)")
            else:
                lines.append(f"    cl.transition_barrier({k(t)}, {int(_S.RENDER_TARGET)})")
                lines.append(f"    cl.clear_render_target({k(t)}, (0.0, 0.0, 0.0, 0.0))")
        if then is not None:
            lines.append(f"    cl.resource_barriers({k(then)})")
        if rts is not None:
            lines.append(f"    cl.set_render_targets({k(rts)}, {k(ds)})")
            for is_depth, t, v in clears:
                if is_depth:
                    lines.append(f"    cl.clear_depth_stencil({k(t)}, {k(float(v[0]))}, 0)")
                else:
                    lines.append(f"    cl.clear_render_target({k(t)}, {k(v)})")
        lines.append("    try:")
        if checker is None:
            lines.append(f"        {k(record)}(cl, res)")
        else:
            own = k(types.MappingProxyType(own_res)) if own_res is not None else "res"
            lines.append(f"        {k(record)}(_CheckedCommandList(cl, *{k(checker)}), {own})")
        lines.append("    except _UnrealizedResource as e:")
        lines.append(f"        raise e.in_pass({k(name)}) from None")
        if post is not None:
            lines.append(f"    cl.resource_barriers({k(post)})")
    if len(lines) == 1:
        lines.append("    pass")
    exec(compile("\n".join(lines) + "\n", f"<{label}>", "exec"), ns)
    fn: Callable[[CommandList, Mapping[GraphResource, Any]], None] = ns["run"]
    return fn


def _need_of(queue: str, u: FrozenSet[str]) -> int:
    """The resource state a use ``u`` on ``queue`` needs."""
    if _DS in u:
        return _STATE_OF_USE[_DS]
    if _READ in u:
        return _SRV_DIRECT if queue == "direct" else _SRV_COMPUTE
    return _STATE_OF_USE[next(iter(u))]


def _align(x: int, a: int) -> int:
    return (x + a - 1) // a * a


_INFO_CACHE: Dict[Tuple[Any, ...], Tuple[int, int]] = {}


def _allocation_info(device: Device, h: GraphResource, flags: Tuple[bool, bool, bool]) -> Tuple[int, int]:
    """Size and alignment of a placed resource, measured once per description with a probe resource
    (dx12kit's memory layer answers from GetResourceAllocationInfo in ``Resource.allocation``)."""
    if h.kind == "buffer":
        desc: Tuple[Any, ...] = (id(device), "b", h.size, flags[2])
    else:
        desc = (id(device), "t", h.width, h.height, int(h.format or 0), h.mips, h.array_size, h.samples, flags)
    hit = _INFO_CACHE.get(desc)
    if hit is not None:
        return hit
    if h.kind == "buffer":
        probe: Resource = device.create_buffer(h.size, uav=flags[2], name="render graph probe")
    else:
        probe = device.create_texture2d(h.width, h.height, h._texture_format(), mip_levels=h.mips, array_size=h.array_size,
                                        render_target=flags[0], depth_stencil=flags[1], uav=flags[2],
                                        sample_count=h.samples, name="render graph probe")
    a = probe.allocation
    size, align = int(a["size"]), int(a["alignment"])
    if a.get("committed"):
        align = max(align, 65536)
    probe.close()
    _INFO_CACHE[desc] = (size, align)
    return size, align


def _byte_successions(pl: List[_Placement]) -> Tuple[Dict[GraphResource, Optional[GraphResource]],
                                                     Dict[GraphResource, List[GraphResource]]]:
    """Who takes bytes over from whom, by a sweep over the transients in order of first use, keeping the
    memory as segments (between the transients' start and end offsets) each holding its latest occupant.

    Returns:
        ``(prev_occupant, preds)``: for each transient that takes over bytes, the resource for its
        aliasing barrier (``None``: several, a barrier on any); for each transient, the occupants of its
        bytes just before it in this execution (those it must wait for: earlier ones are ordered before
        them). A transient that is the first user of
        its bytes takes them over from their last user of the previous execution.
    """
    bounds = sorted({x.offset for x in pl} | {x.offset + x.size for x in pl})
    at = {v: i for i, v in enumerate(bounds)}
    occ: List[Optional[_Placement]] = [None] * max(0, len(bounds) - 1)   # latest occupant of each segment
    preds: Dict[GraphResource, List[GraphResource]] = {}
    got_of: Dict[GraphResource, List[_Placement]] = {}
    for a in sorted(pl, key=lambda x: (x.first, x.offset)):
        got: List[_Placement] = []
        for i in range(at[a.offset], at[a.offset + a.size]):
            o = occ[i]
            if o is not None and o not in got:
                got.append(o)
            occ[i] = a
        preds[a.handle] = [o.handle for o in got]
        got_of[a.handle] = got
    prev_occupant: Dict[GraphResource, Optional[GraphResource]] = {}
    for a in pl:
        got = got_of[a.handle]
        if not got:   # wrap around: the final occupants of its bytes, from the previous execution
            for i in range(at[a.offset], at[a.offset + a.size]):
                o = occ[i]
                if o is not None and o is not a and o not in got:
                    got.append(o)
        if not got:
            continue
        latest = max(o.last for o in got)
        top = [o for o in got if o.last == latest]
        prev_occupant[a.handle] = top[0].handle if len(top) == 1 else None
    return prev_occupant, preds


def _join_points(order: List[_Pass]) -> List[int]:
    """For each alive pass, the order of the first pass on another queue that depends on it directly
    (through a resource), or the last pass's order when none does."""
    n = len(order)
    join = [n - 1] * n
    last_writer: Dict[GraphResource, _Pass] = {}
    readers: Dict[GraphResource, List[_Pass]] = {}
    for p in order:
        pq, po = p.queue, p.order
        for h, w in p.writes_of.items():
            d = last_writer.get(h)
            if d is not None and d.queue != pq and po < join[d.order]:
                join[d.order] = po
            if w:
                for d in readers.get(h, ()):
                    if d.queue != pq and po < join[d.order]:
                        join[d.order] = po
                last_writer[h] = p
                readers[h] = []
            else:
                readers.setdefault(h, []).append(p)
    return join


def _pack(items: List[_Placement], aliasing: bool = True) -> int:
    """Places each transient at the lowest aligned offset free for its whole lifetime (largest first);
    without ``aliasing``, each after the other.

    Returns:
        The bytes of memory needed (peak).
    """
    placed: List[_Placement] = []
    top = 0
    if not aliasing:
        for it in sorted(items, key=lambda x: x.handle.index):
            it.offset = _align(top, it.alignment)
            top = it.offset + it.size
        return _align(top, 4096) if top else 0
    for it in sorted(items, key=lambda x: (-x.size, x.first, x.handle.index)):
        busy = sorted((o.offset, o.offset + o.size) for o in placed if not (o.last < it.first or it.last < o.first))
        off = 0
        for b0, b1 in busy:
            if off + it.size <= b0:
                break
            if b1 > off:
                off = _align(b1, it.alignment)
        it.offset = off
        placed.append(it)
        top = max(top, off + it.size)
    return _align(top, 4096) if top else 0


_MAX_BUFFER_BYTES = 1 << 40   # Device.create_buffer's limit


class _UnrealizedResource(GraphError):
    """``res[h]`` in a ``record`` for a handle this execution has no resource for (no kept pass declared it)."""

    def __init__(self, handle: Any, pass_name: Optional[str] = None) -> None:
        """The message names the handle and, once known, the pass."""
        self.handle = handle
        name = getattr(handle, "name", None)
        what = f"graph resource {name!r}" if name is not None else f"{handle!r} (not a graph resource of this graph)"
        where = f"pass {pass_name!r}: " if pass_name is not None else ""
        super().__init__(f"{where}res[] of {what}, which the pass did not declare (declare it in add_pass's reads/writes/"
                         "render_targets/...; only declared resources of kept passes exist during execute)")

    def in_pass(self, pass_name: str) -> GraphError:
        """The same error, as a plain GraphError naming the pass whose ``record`` raised it."""
        return GraphError(str(_UnrealizedResource(self.handle, pass_name)))


class _RealResources(Dict[GraphResource, Resource]):
    """The real resources of an execution; a missing handle raises GraphError, not KeyError."""

    def __missing__(self, handle: GraphResource) -> Resource:
        raise _UnrealizedResource(handle)


class _CheckedCommandList:
    """The CommandList a pass's ``record`` gets in validation mode: every use of a graph resource is
    checked against the pass's declarations before it reaches the real list."""

    __slots__ = ("_cl", "_pass", "_allowed", "_graph_ids")

    def __init__(self, cl: CommandList, pass_name: str, allowed: Dict[int, FrozenSet[str]],
                 graph_ids: Dict[int, GraphResource]) -> None:
        """Wraps ``cl`` for the pass ``pass_name``."""
        self._cl = cl
        self._pass = pass_name
        self._allowed = allowed
        self._graph_ids = graph_ids

    def _check(self, r: Any, uses: Tuple[str, ...], op: str) -> None:
        if r is None:
            return
        h = self._graph_ids.get(id(r))
        if h is None:
            return
        got = self._allowed.get(id(r))
        if got is None:
            raise GraphError(f"pass {self._pass!r}: {op} uses graph resource {h.name!r}, which the pass did not declare")
        if got.isdisjoint(uses):
            raise GraphError(f"pass {self._pass!r}: {op} uses graph resource {h.name!r} as {'/'.join(uses)}, but the "
                             f"pass declared it as {'/'.join(sorted(got))}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cl, name)

    def _check_states(self, r: Any, op: str) -> None:
        h = self._graph_ids.get(id(r)) if r is not None else None
        if h is not None:
            raise GraphError(f"pass {self._pass!r}: {op} on graph resource {h.name!r}: the graph owns its states and memory "
                             "(declare the use instead; the graph records the barriers it needs)")

    def _check_role(self, value: Any, role: str, many: bool, op: str) -> None:
        if role == "layout":
            return
        items = value if many and isinstance(value, list) else (value,)
        for r in items:
            if role == "states":
                self._check_states(r, op)
            elif role == "barriers":
                for entry in r.entries:
                    if entry[0] == "uav":
                        self._check(entry[1], (_WRITE,), f"{op} (uav barrier)")
                    else:
                        for x in entry[1:3 if entry[0] == "aliasing" else 2]:
                            self._check_states(x, f"{op} ({entry[0]} barrier)")
            else:
                self._check(r, (role,), op)


def _checked_method(name: str, roles: Sequence[Tuple[str, int, str, bool]]) -> Callable[..., Any]:
    """A _CheckedCommandList method: checks each resource argument by its role in the core's table
    (dx12core.resource_arguments()), then calls the real CommandList method."""

    def method(self: _CheckedCommandList, *args: Any, **kw: Any) -> Any:
        for argument, position, role, many in roles:
            if argument in kw:
                value = kw[argument]
            elif position < len(args):
                value = args[position]
            else:
                continue
            if many and value is not None and not isinstance(value, (Texture, Buffer, str, bytes)):
                try:   # an iterable of resources: taken once (a generator), checked and passed on as a list
                    value = list(value)
                except TypeError:
                    pass   # not iterable: the real method names the type
                else:
                    if argument in kw:
                        kw[argument] = value
                    else:
                        args = args[:position] + (value,) + args[position + 1:]
            what = name if len(roles) == 1 or role == "states" else f"{name} ({argument})"
            self._check_role(value, role, many, what)
        return getattr(self._cl, name)(*args, **kw)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Checked :meth:`CommandList.{name}`: " + ", ".join(f"{a} as {r}" for a, _, r, _ in roles) + "."
    return method


def _install_checked_methods() -> None:
    for name, roles in _core.resource_arguments().items():
        setattr(_CheckedCommandList, name, _checked_method(name, [(str(a), int(p), str(r), bool(m)) for a, p, r, m in roles]))


_install_checked_methods()
