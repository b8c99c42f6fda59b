"""The render graph's vocabulary: resource handles, declared passes, the uses a pass makes of a
resource and the resource states those uses need (the lowest module of the package: it imports none
of the others)."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Dict, FrozenSet, Literal, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from .. import dx12core as _core
from ..dx12core import Buffer, Format, ResourceState, Texture
from ..enums import QueueKind
from ..errors import InvalidArgumentError

Resource = Union[Texture, Buffer]
RecordFn = Callable[[Any, Mapping["GraphResource", Any]], None]
ClearValue = Union[float, Tuple[float, ...], Sequence[float]]

QUEUES: Tuple[str, ...] = ("direct", "compute", "copy")
QueueName = Union[QueueKind, Literal["direct", "compute", "copy"]]

# The uses a pass declares of a resource (add_pass's keyword names).
READ, WRITE, RT, DS = "read", "write", "render_target", "depth_stencil"
COPY_SRC, COPY_DST, RESOLVE_SRC, RESOLVE_DST = "copy_from", "copy_to", "resolve_from", "resolve_to"
WRITES = frozenset({WRITE, RT, DS, COPY_DST, RESOLVE_DST})   # uses that write
FULL_WRITES = frozenset({COPY_DST, RESOLVE_DST})   # a first use that defines every texel (with a clear: RT, DS)
READS_PREVIOUS = frozenset({READ, COPY_SRC, RESOLVE_SRC})   # uses that read what was there before

_S = ResourceState
SRV_DIRECT = int(_S.PIXEL_SHADER_RESOURCE | _S.NON_PIXEL_SHADER_RESOURCE)
SRV_COMPUTE = int(_S.NON_PIXEL_SHADER_RESOURCE)
RENDER_TARGET_STATE = int(_S.RENDER_TARGET)
DEPTH_WRITE_STATE = int(_S.DEPTH_WRITE)
STATE_OF_USE: Dict[str, int] = {
    WRITE: int(_S.UNORDERED_ACCESS),
    RT: RENDER_TARGET_STATE,
    DS: DEPTH_WRITE_STATE,
    COPY_SRC: int(_S.COPY_SOURCE),
    COPY_DST: int(_S.COPY_DEST),
    RESOLVE_SRC: int(_S.RESOLVE_SOURCE),
    RESOLVE_DST: int(_S.RESOLVE_DEST),
}
# The states a list of each queue type may hold (D3D12's queue-type rules, from the core's table).
_QUEUE_STATES: Dict[str, int] = {str(k): int(v) for k, v in _core.queue_states().items()}
# A list of queue type q may hold (and so leave) state s when s & ~QUEUE_STATES[q] == 0.
QUEUE_STATES: Mapping[str, int] = _QUEUE_STATES


def need_of(queue: str, uses: FrozenSet[str]) -> int:
    """The resource state the uses ``uses`` of one pass on ``queue`` need."""
    if DS in uses:
        return STATE_OF_USE[DS]   # also when the depth buffer is read: DEPTH_WRITE allows both
    if READ in uses:
        return SRV_DIRECT if queue == "direct" else SRV_COMPUTE
    return STATE_OF_USE[next(iter(uses))]


class GraphError(InvalidArgumentError):
    """A render graph was declared or used wrongly (names the pass and the resource)."""


class GraphResource:
    """A handle to a resource of one :class:`RenderGraph`: transient (declared with
    :meth:`RenderGraph.create_texture` / :meth:`RenderGraph.create_buffer`) or imported
    (:meth:`RenderGraph.import_resource`). The real resource of an execution is ``res[handle]`` in a
    pass's ``record(cl, res)``.
    """

    __slots__ = ("_graph", "index", "name", "kind", "transient", "width", "height", "format", "mips",
                 "array_size", "samples", "size", "resource", "history", "__weakref__")

    def __init__(self, graph: Any, index: int, name: str, kind: str, *, transient: bool,
                 width: int = 0, height: int = 0, format: Optional[Format] = None, mips: int = 1,
                 array_size: int = 1, samples: int = 1, size: int = 0, resource: Optional[Resource] = None) -> None:
        """Made by :class:`RenderGraph`; not meant to be constructed directly.

        Args:
            graph: the owner token of the declarations of the RenderGraph it belongs to (compared by identity).
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
        self.history: Any = None    # a history resource's two handles (.history.HistoryPair), else None

    def previous(self) -> "GraphResource":
        """The previous execution's version of a history resource (:meth:`RenderGraph.create_history`):
        declare it in ``reads``/``copy_from``/... and take ``res[h.previous()]`` in ``record``.

        Raises:
            GraphError: the handle is not a history resource's current version.
        """
        pair = self.history
        if pair is None or pair.current is not self:
            raise GraphError(f"{self.name!r} is not a history resource (RenderGraph.create_history): it has no "
                             "previous version")
        prev: GraphResource = pair.previous
        return prev

    def mip(self, level: int) -> "GraphSubresource":
        """A view of mip ``level`` (every array slice) to declare in ``add_pass``: passes may then use
        different mips of one texture (read mip k-1, render mip k); the graph plans lifetimes per resource
        and states, barriers and validation per subresource.

        Args:
            level: the mip level, 0..mips-1.

        Raises:
            GraphError: not a texture, or ``level`` outside 0..mips-1.
        """
        return GraphSubresource(self, None, None).mip(level)

    def slice(self, index: int) -> "GraphSubresource":
        """A view of array slice ``index`` (every mip) to declare in ``add_pass`` (see :meth:`mip`).

        Args:
            index: the array slice, 0..array_size-1.

        Raises:
            GraphError: not a texture, or ``index`` outside 0..array_size-1.
        """
        return GraphSubresource(self, None, None).slice(index)

    def _texture_format(self) -> Format:
        """The format of a texture handle (textures are always made with one)."""
        if self.format is None:
            raise InvalidArgumentError(f"render graph: {self.name!r} is a {self.kind}, not a texture with a format")
        return self.format

    def __repr__(self) -> str:
        what = "transient" if self.transient else "imported" if self.history is None else "history"
        if self.kind == "texture":
            return f"<GraphResource {self.name!r} {what} texture {self.width}x{self.height} {self.format}>"
        return f"<GraphResource {self.name!r} {what} buffer {self.size} bytes>"


class GraphSubresource:
    """A view of some subresources of a graph texture: one mip (every slice), one array slice (every
    mip), or one mip of one slice (``h.mip(k)``, ``h.slice(i)``, ``h.mip(k).slice(i)``). Declared in
    ``add_pass`` like a handle; ``res[view]`` is the whole real texture (bind the mip with ``mip=k``).
    Equal views compare equal (``clear={h.mip(0): ...}``).

    Attributes:
        resource: the texture's handle.
        mip_level: the mip viewed, or None for every mip.
        array_slice: the array slice viewed, or None for every slice.
    """

    __slots__ = ("resource", "mip_level", "array_slice")

    def __init__(self, resource: GraphResource, mip_level: Optional[int], array_slice: Optional[int]) -> None:
        """Made by :meth:`GraphResource.mip` / :meth:`GraphResource.slice`.

        Args:
            resource: the texture's handle.
            mip_level: the mip viewed (None: every mip).
            array_slice: the array slice viewed (None: every slice).

        Raises:
            GraphError: ``resource`` is a buffer.
        """
        if resource.kind != "texture":
            raise GraphError(f"{resource.name!r} is a {resource.kind}: only textures have mips and array slices")
        self.resource = resource
        self.mip_level = mip_level
        self.array_slice = array_slice

    def mip(self, level: int) -> "GraphSubresource":
        """This view narrowed to mip ``level``.

        Args:
            level: the mip level, 0..mips-1 (the view has no mip yet).

        Raises:
            GraphError: ``level`` out of range, or the view has a mip already.
            TypeError: ``level`` is not an int.
        """
        self._check_narrowing("mip", "level", level, self.resource.mips, "mips", self.mip_level)
        return GraphSubresource(self.resource, level, self.array_slice)

    def slice(self, index: int) -> "GraphSubresource":
        """This view narrowed to array slice ``index``.

        Args:
            index: the array slice, 0..array_size-1 (the view has no slice yet).

        Raises:
            GraphError: ``index`` out of range, or the view has a slice already.
            TypeError: ``index`` is not an int.
        """
        self._check_narrowing("slice", "index", index, self.resource.array_size, "array slices", self.array_slice)
        return GraphSubresource(self.resource, self.mip_level, index)

    def _check_narrowing(self, call: str, arg: str, value: Any, count: int, plural: str, already: Optional[int]) -> None:
        """mip()'s and slice()'s checks: ``value`` an int in 0..count-1, and the view not narrowed so yet."""
        h = self.resource
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{h.name!r}.{call}(): {arg} must be an int, not {type(value).__name__}")
        if not 0 <= value < count or already is not None:
            raise GraphError(f"{self.name!r}.{call}({value}): {h.name!r} has {plural} 0..{count - 1}"
                             + (f" and the view has a {call} already" if already is not None else ""))

    @property
    def name(self) -> str:
        """``"tex mip 3"``, ``"tex slice 1"``, ``"tex mip 3 slice 1"`` (messages and the graph picture)."""
        out = self.resource.name
        if self.mip_level is not None:
            out += f" mip {self.mip_level}"
        if self.array_slice is not None:
            out += f" slice {self.array_slice}"
        return out

    def subresources(self) -> FrozenSet[int]:
        """The subresource indices viewed (D3D12's ``mip + slice * mips``)."""
        h = self.resource
        ms = range(h.mips) if self.mip_level is None else (self.mip_level,)
        ss = range(h.array_size) if self.array_slice is None else (self.array_slice,)
        return frozenset(m + s * h.mips for s in ss for m in ms)

    def _key(self) -> Tuple[Any, ...]:
        return (self.resource, self.mip_level, self.array_slice)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GraphSubresource) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<GraphSubresource {self.name!r}>"


def subresource_name(h: GraphResource, sub: int) -> str:
    """``"tex mip 3"`` (one slice) or ``"tex mip 3 slice 1"`` for subresource index ``sub`` of ``h``."""
    m, s = sub % h.mips, sub // h.mips
    return f"{h.name} mip {m}" + (f" slice {s}" if h.array_size > 1 else "")


class SubresourceUse(NamedTuple):
    """One subresource view a pass declares: the view, its use(s) and the state it needs."""

    view: GraphSubresource
    uses: FrozenSet[str]
    need: int


NO_SUBRESOURCES: Mapping[GraphResource, Tuple[SubresourceUse, ...]] = MappingProxyType({})
NO_CLEARS: Mapping[GraphSubresource, Tuple[float, ...]] = MappingProxyType({})


@dataclass(eq=False)
class PassDecl:
    """One declared pass, as :meth:`RenderGraph.add_pass` checked it (compared and hashed by identity;
    not changed after it is declared).

    Attributes:
        index: its position in declaration order.
        name: the pass's name.
        record: ``record(cl, res)``.
        queue: ``"direct"``, ``"compute"`` or ``"copy"``.
        uses: each resource the pass declares and its uses (one use, or depth + read).
        render_targets: the colour targets the graph binds, in order.
        depth_stencil: the depth buffer the graph binds.
        clear: the clear value of each target the graph clears (four floats, or one for depth).
        side_effects: never culled.
        writes_of: per resource, whether the pass writes it.
        need_of: per resource, the state the pass needs it in (for a resource declared through
            subresource views: the state of its first view; ``subresources`` has each view's).
        subresources: per resource declared through views (:class:`GraphSubresource`), those views, their
            uses and states (empty when the pass declares whole resources only).
        target_mip: the mip its render targets and depth buffer are bound at.
        view_clears: the clear value of each render-target view the pass clears.
    """

    index: int
    name: str
    record: RecordFn
    queue: str
    uses: Mapping[GraphResource, FrozenSet[str]]
    render_targets: Tuple[GraphResource, ...]
    depth_stencil: Optional[GraphResource]
    clear: Mapping[GraphResource, Tuple[float, ...]]
    side_effects: bool
    writes_of: Mapping[GraphResource, bool]
    need_of: Mapping[GraphResource, int]
    subresources: Mapping[GraphResource, Tuple[SubresourceUse, ...]] = field(default_factory=lambda: NO_SUBRESOURCES)
    target_mip: int = 0
    view_clears: Mapping[GraphSubresource, Tuple[float, ...]] = field(default_factory=lambda: NO_CLEARS)

    def targets(self) -> Tuple[GraphResource, ...]:
        """The render targets, then the depth buffer (when there is one)."""
        if self.depth_stencil is None:
            return self.render_targets
        return self.render_targets + (self.depth_stencil,)


class ResourceFlags(NamedTuple):
    """What a transient is created for, from every use of the alive passes."""

    render_target: bool = False
    depth_stencil: bool = False
    uav: bool = False
