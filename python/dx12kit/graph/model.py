"""The render graph's vocabulary: resource handles, declared passes, the uses a pass makes of a
resource and the resource states those uses need (the lowest module of the package: it imports none
of the others)."""
from __future__ import annotations

from dataclasses import dataclass
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
        need_of: per resource, the state the pass needs it in.
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
