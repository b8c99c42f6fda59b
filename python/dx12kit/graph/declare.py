"""Stage 1, declare: the graph's resources and passes, checked as they are declared.

:class:`Declaration` holds what :class:`RenderGraph`'s ``create_texture``, ``create_buffer``,
``import_resource`` and ``add_pass`` were given: a list of :class:`GraphResource` handles and a list of
:class:`PassDecl` (each pass's uses, targets, clears and the states it needs). The later stages read
only ``Declaration.passes``.
"""
from __future__ import annotations

import numbers
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple, Union

from ..dx12core import Buffer, Format, Texture
from .._names import did_you_mean
from ..enums import QueueKind
from .model import (
    COPY_DST,
    COPY_SRC,
    DS,
    QUEUES,
    READ,
    RESOLVE_DST,
    RESOLVE_SRC,
    RT,
    WRITE,
    WRITES,
    ClearValue,
    GraphError,
    GraphResource,
    GraphSubresource,
    PassDecl,
    QueueName,
    RecordFn,
    Resource,
    need_of,
)
from .subresources import split_views, target_mip

MAX_BUFFER_BYTES = 1 << 40   # Device.create_buffer's limit

_FORMATS: Dict[str, Format] = {}   # format names seen, resolved once


def check_aliasing(value: Any) -> bool:
    """``RenderGraph``'s ``aliasing`` setting checked: a bool, nothing else (no truthy numbers or strings)."""
    if value.__class__ is not bool:
        raise TypeError(f"RenderGraph: aliasing must be a bool (True or False), not {type(value).__name__}")
    return bool(value)


def clear_value(pass_name: str, h: GraphResource, v: Any, depth: bool) -> Tuple[float, ...]:
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


def texture_format(name: str, format: Union[str, Format]) -> Format:
    """``create_texture``'s format argument as a :class:`Format` (names resolved once)."""
    if type(format) is str:
        fmt = _FORMATS.get(format)
        if fmt is not None:
            return fmt
    if isinstance(format, Format):
        return format
    if isinstance(format, str):
        try:
            fmt = _FORMATS[format] = Format[format.upper()]
        except KeyError:
            raise GraphError(f"create_texture {name!r}: unknown format {format!r}"
                             f"{did_you_mean(format.lower(), [m.name.lower() for m in Format])}") from None
        return fmt
    raise TypeError(f"create_texture {name!r}: format must be a dx12kit.Format or its name, not {type(format).__name__}")


def _writes_of(uses: Mapping[GraphResource, FrozenSet[str]]) -> Dict[GraphResource, bool]:
    """Per resource of a pass, whether its uses write it."""
    return {h: not fu.isdisjoint(WRITES) for h, fu in uses.items()}


def _base(t: Any) -> GraphResource:
    """The texture a view belongs to (a handle itself for a handle)."""
    return t.resource if isinstance(t, GraphSubresource) else t


def queue_name(pass_name: str, queue: Any) -> str:
    """``add_pass``'s queue argument as one of :data:`QUEUES`."""
    if queue.__class__ is str and queue in QUEUES:
        return str(queue)
    if isinstance(queue, QueueKind):
        queue = "direct" if queue is QueueKind.DIRECT else str(queue.value)
    if not isinstance(queue, str) or queue not in QUEUES:
        raise GraphError(f"add_pass {pass_name!r}: queue must be one of {QUEUES}, got {queue!r}"
                         f"{did_you_mean(queue, QUEUES) if isinstance(queue, str) else ''}")
    return queue


def check_queue_uses(pass_name: str, queue: str, has_targets: bool, uses: Mapping[GraphResource, Set[str]]) -> None:
    """What a compute or copy queue may not do: render, resolve; a copy queue only copies."""
    if has_targets:
        raise GraphError(f"add_pass {pass_name!r}: render targets and depth buffers need the direct queue, "
                         f"not {queue!r}")
    if any(RESOLVE_SRC in u or RESOLVE_DST in u for u in uses.values()):
        raise GraphError(f"add_pass {pass_name!r}: resolves need the direct queue, not {queue!r}")
    if queue == "copy" and any(READ in u or WRITE in u for u in uses.values()):
        raise GraphError(f"add_pass {pass_name!r}: a copy-queue pass may only copy (copy_from / copy_to)")


class _Owner:
    """The identity a declaration's handles carry (``GraphResource._graph``)."""

    __slots__ = ()


class Declaration:
    """The resources and passes of one graph, in declaration order (the declare stage's result).

    Attributes:
        resources: every handle, transient and imported; ``resources[h.index] is h``.
        passes: every declared pass; ``passes[p.index] is p``.
    """

    def __init__(self) -> None:
        """An empty declaration."""
        self.resources: List[GraphResource] = []
        self.passes: List[PassDecl] = []
        self._names: Set[str] = set()
        # what this declaration's handles name as their graph: a token, not the declaration itself, so the
        # handles (which record functions capture) and the declaration form no reference cycle
        self._owner = _Owner()
        # the structure of each resource and pass, as declared (the plan cache's key: see .plancache)
        self.resource_keys: List[Tuple[Any, ...]] = []
        self.pass_keys: List[Tuple[Any, ...]] = []

    def _new_name(self, name: str) -> str:
        if not isinstance(name, str) or not name:
            raise GraphError("RenderGraph: a resource needs a non-empty name")
        if name in self._names:
            raise GraphError(f"RenderGraph: a resource named {name!r} exists already")
        self._names.add(name)
        return name

    def _add(self, h: GraphResource) -> GraphResource:
        self.resources.append(h)
        self.resource_keys.append((h.kind, h.name, h.transient, h.width, h.height, h.format, h.mips, h.array_size,
                                   h.samples, h.size))
        return h

    def texture(self, name: str, width: int, height: int, format: Union[str, Format], mips: int = 1,
                array_size: int = 1, samples: int = 1) -> GraphResource:
        """A transient texture (:meth:`RenderGraph.create_texture`, which documents the arguments)."""
        if width < 1 or height < 1 or mips < 1 or array_size < 1:
            raise GraphError(f"create_texture {name!r}: width, height, mips and array_size must be >= 1")
        if samples < 1 or (samples > 1 and (mips != 1 or array_size != 1)):
            raise GraphError(f"create_texture {name!r}: samples must be >= 1, and a multisampled texture has one mip "
                             "and one array slice")
        fmt = texture_format(name, format)
        return self._add(GraphResource(self._owner, len(self.resources), self._new_name(name), "texture", transient=True,
                                       width=int(width), height=int(height), format=fmt, mips=int(mips),
                                       array_size=int(array_size), samples=int(samples)))

    def buffer(self, name: str, size: int) -> GraphResource:
        """A transient buffer (:meth:`RenderGraph.create_buffer`, which documents the arguments)."""
        if isinstance(size, bool) or not isinstance(size, numbers.Integral):
            raise TypeError(f"create_buffer {name!r}: size must be an int, not {type(size).__name__}")
        if size < 1 or size > MAX_BUFFER_BYTES:
            raise GraphError(f"create_buffer {name!r}: size must be 1..{MAX_BUFFER_BYTES} bytes (1 TiB), got {size}")
        return self._add(GraphResource(self._owner, len(self.resources), self._new_name(name), "buffer", transient=True,
                                       size=int(size)))

    def imported(self, resource: Resource, name: Optional[str] = None) -> GraphResource:
        """A persistent resource (:meth:`RenderGraph.import_resource`, which documents the arguments)."""
        if not isinstance(resource, (Texture, Buffer)):
            raise GraphError("import_resource: expected a dx12kit.Texture or dx12kit.Buffer")
        for r in self.resources:
            if r.resource is resource:
                raise GraphError(f"import_resource: {resource.name!r} is imported already as {r.name!r}")
        nm = self._new_name(name if name is not None else resource.name)
        if isinstance(resource, Texture):
            return self._add(GraphResource(self._owner, len(self.resources), nm, "texture", transient=False,
                                           width=resource.width, height=resource.height, format=resource.format,
                                           mips=resource.mip_levels, array_size=resource.array_size,
                                           samples=resource.sample_count, resource=resource))
        return self._add(GraphResource(self._owner, len(self.resources), nm, "buffer", transient=False, size=resource.size,
                                       resource=resource))

    def own(self, h: Any, pass_name: str, what: str) -> GraphResource:
        """``h`` checked to be a handle of this graph (``what``: the argument, for the message)."""
        if not isinstance(h, GraphResource) or h._graph is not self._owner:
            raise GraphError(f"add_pass {pass_name!r}: {what} must hold GraphResource handles of this graph, got {h!r}")
        return h

    def _collect_uses(self, pass_name: str, groups: Iterable[Tuple[Iterable[GraphResource], str]],
                      views: Optional[List[Tuple[GraphSubresource, str]]] = None) -> Dict[GraphResource, Set[str]]:
        """Each resource of the pass and its uses: one per resource, except a depth buffer also read
        (subresource views are appended to ``views`` with their use)."""
        uses: Dict[GraphResource, Set[str]] = {}
        for hs, use in groups:
            for h in hs:
                if h.__class__ is not GraphResource or h._graph is not self._owner:
                    if views is not None and isinstance(h, GraphSubresource):   # a view of one mip or slice
                        self.own(h.resource, pass_name, use)
                        views.append((h, use))
                        continue
                    self.own(h, pass_name, use)   # raises
                u = uses.get(h)
                if u is None:
                    uses[h] = {use}
                elif use == DS and u == {READ} or use == READ and u == {DS}:
                    u.add(use)   # a depth buffer tested and read in one pass (DEPTH_WRITE allows both)
                else:
                    raise GraphError(f"add_pass {pass_name!r}: resource {h.name!r} declared as {sorted(u | {use})} in "
                                     "one pass; a resource has one use per pass")
        return uses

    def _clears(self, pass_name: str, clear: Optional[Mapping[GraphResource, ClearValue]],
                rts: Tuple[GraphResource, ...], depth_stencil: Optional[GraphResource]
                ) -> Dict[GraphResource, Tuple[float, ...]]:
        clears: Dict[GraphResource, Tuple[float, ...]] = {}
        for h, v in (clear or {}).items():
            self.own(h, pass_name, "clear")
            if h not in rts and h is not depth_stencil:
                raise GraphError(f"add_pass {pass_name!r}: clear of {h.name!r}, which is not a render target or the "
                                 "depth buffer of the pass")
            clears[h] = clear_value(pass_name, h, v, h is depth_stencil)
        return clears

    def add_pass(self, name: str, record: RecordFn, *, queue: QueueName = "direct",
                 reads: Iterable[GraphResource] = (), writes: Iterable[GraphResource] = (),
                 render_targets: Iterable[GraphResource] = (), depth_stencil: Optional[GraphResource] = None,
                 copy_from: Iterable[GraphResource] = (), copy_to: Iterable[GraphResource] = (),
                 clear: Optional[Mapping[GraphResource, ClearValue]] = None, side_effects: bool = False,
                 resolve_from: Iterable[GraphResource] = (), resolve_to: Iterable[GraphResource] = ()) -> PassDecl:
        """A pass (:meth:`RenderGraph.add_pass`, which documents the arguments and errors), appended."""
        if not callable(record):
            raise TypeError(f"add_pass {name!r}: record must be callable as record(cl, res), "
                            f"not {type(record).__name__}")
        q = queue_name(name, queue)
        rts = tuple(render_targets)
        views: List[Tuple[GraphSubresource, str]] = []
        uses = self._collect_uses(name, (
            (reads, READ), (writes, WRITE), (rts, RT), ((depth_stencil,) if depth_stencil is not None else (), DS),
            (copy_from, COPY_SRC), (copy_to, COPY_DST), (resolve_from, RESOLVE_SRC), (resolve_to, RESOLVE_DST)), views)
        if views:
            return self._add_view_pass(name, record, q, uses, views, rts, depth_stencil, clear, side_effects)
        if q != "direct":
            check_queue_uses(name, q, bool(rts) or depth_stencil is not None, uses)
        clears = self._clears(name, clear, rts, depth_stencil) if clear else {}
        frozen: Dict[GraphResource, FrozenSet[str]] = {}
        needs: Dict[GraphResource, int] = {}
        for h, u in uses.items():
            fu = frozen[h] = frozenset(u)
            needs[h] = need_of(q, fu)
        return self._append(PassDecl(len(self.passes), name, record, q, frozen, rts, depth_stencil, clears,
                                     bool(side_effects), _writes_of(frozen), needs), tuple(h.index for h in rts))

    def _append(self, p: PassDecl, target_key: Tuple[Any, ...], extra_key: Tuple[Any, ...] = ()) -> PassDecl:
        """Appends pass ``p`` and its structure key (``target_key``: its targets'; ``extra_key``: what a pass
        declaring views adds)."""
        ds = p.depth_stencil
        self.passes.append(p)
        self.pass_keys.append((p.name, p.queue, tuple((h.index, u) for h, u in p.uses.items()), target_key,
                               ds.index if ds is not None else -1, tuple((h.index, v) for h, v in p.clear.items()),
                               p.side_effects) + extra_key)
        return p

    def _add_view_pass(self, name: str, record: RecordFn, q: str, uses: Dict[GraphResource, Set[str]],
                       views: List[Tuple[GraphSubresource, str]], rts: Tuple[Any, ...], depth_stencil: Any,
                       clear: Optional[Mapping[Any, ClearValue]], side_effects: bool) -> PassDecl:
        """A pass declaring subresource views (:mod:`.subresources`): per resource the union of its views'
        uses, each view's own state in ``PassDecl.subresources``, targets bound at the views' mip."""
        subs = split_views(name, q, views, uses)
        targets = rts + ((depth_stencil,) if depth_stencil is not None else ())
        mip = target_mip(name, targets)
        if q != "direct":
            check_queue_uses(name, q, bool(targets), {**uses, **{h: {u for v in vs for u in v.uses}
                                                                 for h, vs in subs.items()}})
        clears: Dict[GraphResource, Tuple[float, ...]] = {}
        view_clears: Dict[GraphSubresource, Tuple[float, ...]] = {}
        for t, v in (clear or {}).items():
            if t not in targets:
                raise GraphError(f"add_pass {name!r}: clear of {getattr(t, 'name', t)!r}, which is not a render target "
                                 "or the depth buffer of the pass")
            if isinstance(t, GraphSubresource):
                view_clears[t] = clear_value(name, t.resource, v, t is depth_stencil)
            else:
                clears[t] = clear_value(name, t, v, t is depth_stencil)
        frozen: Dict[GraphResource, FrozenSet[str]] = {h: frozenset(u) for h, u in uses.items()}
        needs: Dict[GraphResource, int] = {h: need_of(q, fu) for h, fu in frozen.items()}
        for h, vs in subs.items():
            frozen[h] = frozenset(u for v in vs for u in v.uses)
            needs[h] = vs[0].need
        ds = _base(depth_stencil) if depth_stencil is not None else None
        p = PassDecl(len(self.passes), name, record, q, frozen, tuple(_base(t) for t in rts), ds, clears,
                     bool(side_effects), _writes_of(frozen), needs, subs, mip, view_clears)
        return self._append(p, tuple((_base(t).index, getattr(t, "mip_level", None)) for t in rts), (
            tuple((h.index, tuple((v.view.mip_level, v.view.array_slice, v.uses) for v in vs)) for h, vs in subs.items()),
            tuple((v.resource.index, v.mip_level, v.array_slice, c) for v, c in view_clears.items())))
