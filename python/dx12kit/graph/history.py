"""History resources: a texture or buffer that keeps its contents from one execution of a graph to the
next (:meth:`RenderGraph.create_history`).

A history is declared as two handles: the *current* version (written this execution) and the *previous*
version (``h.previous()``: what the current version held at the end of the previous execution). To the
compile stages both are persistent resources, like imported ones: never culled away when written, never
aliased, their states carried by dx12kit's state tracker across executions. The graph owns two real
resources per history (ping-pong) and swaps them between executions: in execution ``n`` the current
handle names version ``n % 2`` and the previous handle version ``(n + 1) % 2``. The record plan is baked
once per parity, so executing costs two dictionary stores per history.

Before the first execution has written it, the previous version reads as zeros (every byte 0): the two
versions are created as dx12kit creates every resource, reading as zeros. They are created at the first
execution, with the flags (render target, depth stencil, unordered access) that every declared use of
either handle needs; a later declaration needing another flag makes new versions (reading as zeros again).

A graph rebuilt every frame continues its histories through a :class:`HistoryStore`
(``RenderGraph(dev, histories=store)``): the store keeps each history's two versions by name, and the
newest graph that executes with the store takes them over, contents and states included. A graph whose
histories a newer one took raises :class:`GraphError` if it executes again, rather than reading the other
graph's contents.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Dict, List, MutableMapping, Optional, Sequence, Tuple, Union

from ..dx12core import Device, Format
from .declare import Declaration, texture_format
from .model import DS, RT, WRITE, GraphError, GraphResource, PassDecl, Resource, ResourceFlags

PREVIOUS_SUFFIX = " (previous)"


@dataclass(frozen=True)
class HistoryPair:
    """The two handles of one history resource."""

    current: GraphResource
    previous: GraphResource


def declare_history(decl: Declaration, name: str, width: Optional[int], height: Optional[int],
                    format: Union[str, Format, None], size: Optional[int], mips: int, array_size: int) -> GraphResource:
    """Adds a history's two handles to ``decl`` (:meth:`RenderGraph.create_history` documents the arguments);
    returns the current version's handle."""
    if size is not None:
        if width is not None or height is not None or format is not None:
            raise GraphError(f"create_history {name!r}: give size= (a buffer) or width, height and format (a texture), "
                             "not both")
        proto = decl.buffer(name, size)
    else:
        if width is None or height is None or format is None:
            raise GraphError(f"create_history {name!r}: a texture history needs width, height and format "
                             "(or size= for a buffer)")
        proto = decl.texture(name, width, height, texture_format(name, format), mips, array_size)
    decl.resources.pop()
    decl.resource_keys.pop()
    prev_name = decl._new_name(name + PREVIOUS_SUFFIX)
    handles: List[GraphResource] = []
    for nm, role in ((name, "current"), (prev_name, "previous")):
        h = GraphResource(decl._owner, len(decl.resources), nm, proto.kind, transient=False, width=proto.width,
                          height=proto.height, format=proto.format, mips=proto.mips, array_size=proto.array_size,
                          size=proto.size)
        decl._add(h)
        decl.resource_keys[-1] += ("history", role)
        handles.append(h)
    pair = HistoryPair(handles[0], handles[1])
    for h in handles:
        h.history = pair
    return pair.current


def history_flags(passes: Sequence[PassDecl], pair: HistoryPair) -> ResourceFlags:
    """What a history's versions are created for: every declared use of either handle."""
    rt = ds = uav = False
    for p in passes:
        for h in (pair.current, pair.previous):
            u = p.uses.get(h)
            if u is not None:
                rt, ds, uav = rt or RT in u, ds or DS in u, uav or WRITE in u
    return ResourceFlags(rt, ds, uav)


def _create(device: Device, h: GraphResource, flags: ResourceFlags, k: int) -> Resource:
    name = f"{h.name} (version {k})"
    if h.kind == "buffer":
        return device.create_buffer(h.size, uav=flags.uav, name=name)
    return device.create_texture2d(h.width, h.height, h._texture_format(), mip_levels=h.mips, array_size=h.array_size,
                                   render_target=flags.render_target, depth_stencil=flags.depth_stencil, uav=flags.uav,
                                   name=name)


_serials = itertools.count(1)


@dataclass
class _Stored:
    """One history in a :class:`HistoryStore`: its versions as the next execution names them."""

    key: Tuple[Any, ...]        # the description and flags the versions were made for
    device: Device
    current: Resource           # the next execution's current version (it writes it)
    previous: Resource          # the next execution's previous version (what the last execution wrote)
    owner: int                  # the serial of the graph (its Histories) that took them last


class HistoryStore:
    """Keeps history resources (:meth:`RenderGraph.create_history`) across graphs rebuilt every frame.

    Give the same store to each rebuilt graph (``RenderGraph(dev, histories=store)``): a history of the
    same name and description then continues where the last graph left it (``h.previous()`` holds what
    the last execution wrote), instead of starting from zeros in each new graph. One store per chain of
    frames: two views that each keep a history need a store each. The newest graph that executes with
    the store owns its histories; an older graph sharing them raises :class:`GraphError` if it executes
    again. A history declared with another size, format, mip count, array size or use flags than the
    stored one gets new versions (reading as zeros). The store holds the real resources until
    :meth:`clear` or until it is dropped (dx12kit frees them once the GPU is done with them).
    """

    def __init__(self) -> None:
        self._entries: Dict[str, _Stored] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def names(self) -> List[str]:
        """The names of the histories held, in the order they were first stored."""
        return list(self._entries)

    def clear(self) -> None:
        """Drops every history held: the next execution of any graph built with the store starts them from
        zeros (a reset, e.g. at a camera cut)."""
        self._entries.clear()

    def __repr__(self) -> str:
        return f"HistoryStore({len(self._entries)} histories: {', '.join(map(repr, self._entries))})"

    def _lend(self, device: Device, h: GraphResource, flags: ResourceFlags, parity: int,
              owner: int) -> Tuple[Resource, Resource]:
        """The versions of history ``h`` for a graph whose next execution has ``parity`` (index ``parity`` is
        the current version); made when the store has none of this description and flags."""
        key = (h.kind, h.width, h.height, h.format, h.mips, h.array_size, h.size, flags)
        e = self._entries.get(h.name)
        if e is not None and e.device is not device:
            raise GraphError(f"history {h.name!r}: the HistoryStore holds it for another Device; a store carries the "
                             "histories of one device's graphs (give each device's graphs a HistoryStore of their own, "
                             "or clear() the store first)")
        if e is None or e.key != key:
            e = _Stored(key, device, _create(device, h, flags, 0), _create(device, h, flags, 1), owner)
            self._entries[h.name] = e
        e.owner = owner
        return (e.current, e.previous) if parity == 0 else (e.previous, e.current)

    def _advance(self, name: str, current: Resource, previous: Resource) -> None:
        e = self._entries[name]
        e.current, e.previous = current, previous

    def _check_owner(self, name: str, owner: int) -> None:
        e = self._entries.get(name)
        if e is None or e.owner != owner:
            raise GraphError(f"history {name!r}: a newer RenderGraph built with the same HistoryStore has taken it "
                             "over; execute the newest graph (or give each graph that must keep its own history a "
                             "HistoryStore of its own)")


class Histories:
    """A graph's history resources: their two real versions each, and which one is current.

    Attributes:
        parity: the execution's parity: the current handle names version ``parity``, the previous one
            version ``1 - parity``.
    """

    def __init__(self, store: Optional[HistoryStore] = None) -> None:
        self.pairs: List[HistoryPair] = []
        self._versions: Dict[int, Tuple[ResourceFlags, Tuple[Resource, Resource]]] = {}   # by current's index
        self.parity = 0
        self.executed = False
        self.store = store
        self._serial = next(_serials)

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def add(self, current: GraphResource) -> None:
        """Notes a declared history (its current handle)."""
        self.pairs.append(current.history)

    def realize(self, device: Device, passes: Sequence[PassDecl]) -> None:
        """Creates the versions of each history (at its first execution, or when its flags changed); kept
        otherwise, contents and states included."""
        for pair in self.pairs:
            flags = history_flags(passes, pair)
            if self.store is not None:
                self._versions[pair.current.index] = (flags, self.store._lend(device, pair.current, flags, self.parity,
                                                                              self._serial))
                continue
            have = self._versions.get(pair.current.index)
            if have is None or have[0] != flags:
                self._versions[pair.current.index] = (flags, (_create(device, pair.current, flags, 0),
                                                              _create(device, pair.current, flags, 1)))

    def parities(self) -> Tuple[int, ...]:
        """The parities a record plan is baked for: both when there are histories."""
        return (0, 1) if self.pairs else (0,)

    def assign(self, real: MutableMapping[GraphResource, Any], parity: int) -> None:
        """Puts each history's versions into ``real`` for an execution of ``parity``."""
        for pair in self.pairs:
            versions = self._versions[pair.current.index][1]
            real[pair.current] = versions[parity]
            real[pair.previous] = versions[1 - parity]

    def resource_of(self, h: GraphResource) -> Resource:
        """The real resource handle ``h`` (either version of a history) named in the last execution (before the
        first one: in the first one)."""
        pair = h.history
        have = self._versions.get(pair.current.index) if pair is not None else None
        if have is None:
            raise GraphError(f"history {h.name!r} has no versions yet: they are made at the first execute")
        parity = self.parity ^ 1 if self.executed else self.parity
        return have[1][parity if h is pair.current else 1 - parity]

    def dropped(self) -> bool:
        """Whether the store no longer holds one of the graph's histories (HistoryStore.clear): the graph then
        takes new versions, reading as zeros, before its next execution."""
        return self.store is not None and any(pair.current.name not in self.store for pair in self.pairs)

    def check_owned(self) -> None:
        """Before an execution: raises GraphError if a newer graph took a history of the store over."""
        if self.store is not None:
            for pair in self.pairs:
                self.store._check_owner(pair.current.name, self._serial)

    def flip(self) -> None:
        """After an execution: the current version becomes the previous one (in the store too)."""
        if self.pairs:
            self.parity ^= 1
            self.executed = True
            if self.store is not None:
                for pair in self.pairs:
                    versions = self._versions[pair.current.index][1]
                    self.store._advance(pair.current.name, versions[self.parity], versions[1 - self.parity])
