"""Named choices: every argument that takes one of a fixed set of strings has an enum here.

The enums are made from the C++ core's choice tables (``dx12core.choice_tables()``: the names its
parsers accept), so they cannot differ from what the bindings accept; ``<Enum>Name`` is the ``Literal``
of the names an argument of that enum takes (the members' values and the other names the parsers
accept, such as ``"graphics"`` for ``QueueKind.DIRECT``), which the type stubs name beside the enum.
``FormatName`` is the same for :class:`~dx12kit.Format` (its members' lower-case names).
The ``IntFlag`` :class:`ColorWriteEnable` is made from the core's flag table the same way
(``dx12core.flag_tables()``).

Each enum is a ``str`` enum (``class X(str, enum.Enum)``, which Python 3.9 supports): a member *is*
the string it stands for, so the bindings accept members and plain strings alike, and the two can
be mixed freely::

    dev.queue(dx.QueueKind.COMPUTE)        # same as dev.queue("compute")
    dev.create_sampler(filter=dx.Filter.POINT, address=dx.AddressMode.WRAP)
    dx.StaticSampler(0, filter="linear", address=dx.AddressMode.CLAMP)

Strings are matched case-insensitively; a value that is not one of the choices raises
:class:`~dx12kit.InvalidArgumentError` naming the argument and listing the choices, and a value of
another type raises ``TypeError``. Members compare equal to their strings
(``dx.CullMode.BACK == "back"``) and print as them.

D3D12's numeric enums and flags (:class:`~dx12kit.Format`, :class:`~dx12kit.ResourceState`,
:class:`~dx12kit.RootSignatureFlags`, :class:`~dx12kit.DescriptorRangeFlags`,
:class:`~dx12kit.RootDescriptorFlags`) are
``IntEnum``/``IntFlag`` types defined by the extension; formats also accept their names as strings.
They print as their names on every Python version (``str(dx.Format.RGBA8_UNORM) == "RGBA8_UNORM"``,
``"COPY_SOURCE|PIXEL_SHADER_RESOURCE"`` for a combination of flags), where Python 3.11 made
``IntEnum``/``IntFlag`` print as bare numbers; ``int()`` and format specs such as ``{:d}`` still
give the number.
"""
from __future__ import annotations

import enum
import sys
from typing import Any, Literal

from . import dx12core

__all__ = [
    "AddressMode", "Blend", "BlendMode", "BlendOp", "BorderColor", "ColorWriteEnable", "ComparisonFunc", "CullMode",
    "DefragAlgorithm", "DescriptorHeapType", "FillMode", "Filter", "HeapType", "IndexFormat", "LogicOp", "PoolAlgorithm",
    "PredicationOp", "QueryHeapKind", "QueryKind", "QueueKind", "StencilOp", "Topology", "VertexFormat", "Visibility",
]


def _member_name(member: Any) -> str:
    """The name of an IntEnum/IntFlag member: ``A|B`` for a combination of flags, the number for a
    value that names no member."""
    name = member.name
    if name:
        return str(name)
    if isinstance(member, enum.Flag) and sys.version_info < (3, 11):
        return enum.Flag.__str__(member).split(".", 1)[1]  # "Cls.A|B" (a combination's name is None before 3.11)
    return str(int(member.value))


class _PrintsName:
    """The methods :func:`_print_names` gives the extension's IntEnum/IntFlag types."""

    def __str__(self) -> str:
        return _member_name(self)

    def __format__(self, format_spec: str) -> str:
        # An empty spec ("{x}", str.format) gives the name like str(); a spec ("{x:d}", "{x:#x}") formats the number.
        return _member_name(self) if not format_spec else format(int(self.value), format_spec)  # type: ignore[attr-defined]


def _print_names(cls: "type[enum.Enum]") -> None:
    """Makes the extension's IntEnum/IntFlag `cls` print as member names (str(), format() without a spec)."""
    cls.__str__ = _PrintsName.__str__  # type: ignore[assignment, method-assign]
    cls.__format__ = _PrintsName.__format__  # type: ignore[assignment, method-assign]


class _StrEnum(str, enum.Enum):
    """A str-valued enum whose members are their strings (str() and format() give the value)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


# What each enum is for; the members come from the core's tables (dx12core.choice_tables()).
_DOCS: dict[str, str] = {
    "QueueKind": """The kind of a command queue and its command lists (``Device.queue(kind)``).

    ``DIRECT`` runs everything (also accepted as ``"graphics"``), ``COMPUTE`` runs dispatches and
    copies, ``COPY`` runs copies only (D3D12_COMMAND_LIST_TYPE_*).""",
    "HeapType": """The D3D12 heap a resource, pool or memory block lives in (``heap=`` arguments).

    ``DEFAULT``: GPU memory; ``UPLOAD``: CPU-written, GPU-read; ``READBACK``: GPU-written,
    CPU-read; ``CUSTOM``: a CUSTOM heap with write-back CPU pages (D3D12_HEAP_TYPE_*).""",
    "PoolAlgorithm": """How a memory pool places allocations in its blocks (``Device.create_pool(algorithm=)``).

    ``TLSF``: general purpose, O(1); ``LINEAR``: offsets only grow, a block restarts at 0 when empty.""",
    "DefragAlgorithm": """How ``Device.defragment(algorithm=)`` plans its moves (D3D12MA's three algorithms).

    ``FAST``: empties the least-used blocks into fuller ones; ``BALANCED``: also moves small
    allocations down within blocks; ``FULL``: every allocation to the lowest free range.""",
    "DescriptorHeapType": """A descriptor heap type (``dx12kit.descriptors``; D3D12_DESCRIPTOR_HEAP_TYPE_*).""",
    "Topology": """Primitive topology of a graphics pipeline (``create_graphics_pipeline(topology=)``;
    D3D_PRIMITIVE_TOPOLOGY_*).

    ``TRIANGLE`` is a triangle list (also ``"triangle_list"``), ``LINE`` a line list
    (``"line_list"``), ``POINT`` a point list (``"point_list"``); ``*_ADJ`` are the lists and
    strips with adjacency (geometry shaders). ``PATCH_LIST_<n>`` is a patch of n control points
    for tessellation (hull and domain shaders; also ``"<n>_control_point_patchlist"``).""",
    "CullMode": """Which triangles the rasterizer discards (``create_graphics_pipeline(cull=)``).""",
    "BlendMode": """dx12kit's blend presets for render target 0 (``create_graphics_pipeline(blend=)``).

    ``ALPHA``: src*a + dst*(1-a); ``ADDITIVE``: src + dst; ``PREMULTIPLIED``: src + dst*(1-a).""",
    "Blend": """A blend factor of :class:`~dx12kit.BlendState` (D3D12_BLEND_* lower case).

    ``SRC1_*`` factors read the pixel shader's second output (dual-source blending: one render
    target). ``BLEND_FACTOR``/``INV_BLEND_FACTOR`` read the factor set by
    ``CommandList.set_blend_factor``, which draws with such a pipeline require.""",
    "BlendOp": """How :class:`~dx12kit.BlendState` combines the weighted source and destination (D3D12_BLEND_OP_*).""",
    "LogicOp": """A logic operation of :class:`~dx12kit.BlendState` (D3D12_LOGIC_OP_*). vkd3d 1.2 does not
    implement logic operations: a pipeline with one raises there.""",
    "FillMode": """How :class:`~dx12kit.RasterizerState` fills triangles (D3D12_FILL_MODE_*).""",
    "Visibility": """Shader stages that see a root parameter or static sampler (D3D12_SHADER_VISIBILITY_*).

    ``"vs"`` and ``"ps"`` are accepted as short forms of ``VERTEX`` and ``PIXEL``.""",
    "Filter": """Texture filtering of a sampler or static sampler (D3D12_FILTER_* without the prefix).

    The four short names are presets: ``POINT`` (min/mag/mip point), ``LINEAR`` (trilinear),
    ``BILINEAR`` (linear min/mag, point mip) and ``ANISOTROPIC``. The others name D3D12's filters;
    ``COMPARISON_*`` filters compare against a reference value (shadow maps), ``MINIMUM_*`` and
    ``MAXIMUM_*`` reduce the taps by min/max.""",
    "AddressMode": """How texture coordinates outside [0, 1] are resolved (D3D12_TEXTURE_ADDRESS_MODE_*).""",
    "ComparisonFunc": """The comparison of a comparison sampler (D3D12_COMPARISON_FUNC_*).""",
    "StencilOp": """What a passing stencil test does to the stencil value (``create_graphics_pipeline(stencil_pass_op=)``;
    D3D12_STENCIL_OP_*). The test itself compares with a :class:`ComparisonFunc` (``stencil_func=``).""",
    "BorderColor": """Border colour of a static sampler with ``AddressMode.BORDER`` (D3D12_STATIC_BORDER_COLOR_*).""",
    "IndexFormat": """Index size of ``CommandList.set_index_buffer(format=)`` (R16_UINT / R32_UINT).""",
    "VertexFormat": """Format of a vertex attribute in ``create_graphics_pipeline(input_layout=)`` entries.""",
    "QueryKind": """The kind of a query (D3D12_QUERY_TYPE_*): CommandList.begin_query / end_query / resolve_query_data,
    CommandQueue.read_queries.""",
    "QueryHeapKind": """The kind of a query heap (D3D12_QUERY_HEAP_TYPE_*): Device.create_query_heap. An occlusion heap
    holds 'occlusion' and 'binary_occlusion' queries ('binary_occlusion' names the same heap kind).""",
    "PredicationOp": """When predicated work is skipped (D3D12_PREDICATION_OP_*): 'equal_zero' skips it while the
    64-bit predicate is zero, 'not_equal_zero' while it is not.""",
}

_TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = dx12core.choice_tables()
assert list(_TABLES) == list(_DOCS), f"dx12core.choice_tables() and enums._DOCS name different enums: {list(_TABLES)}"


def _make(name: str) -> Any:
    """The str enum `name`: one member per value of the core's table, NAME = "name"."""
    values, _ = _TABLES[name]
    cls = _StrEnum(name, [(v.upper(), v) for v in values], module=__name__, qualname=name)  # type: ignore[call-overload]
    cls.__doc__ = _DOCS[name]
    return cls


def _names(name: str) -> Any:
    """Literal[<values>, <aliases>]: what an argument of the enum `name` accepts as a str."""
    values, aliases = _TABLES[name]
    return Literal[values + aliases]  # type: ignore[valid-type]


QueueKind = _make("QueueKind")
HeapType = _make("HeapType")
PoolAlgorithm = _make("PoolAlgorithm")
DefragAlgorithm = _make("DefragAlgorithm")
DescriptorHeapType = _make("DescriptorHeapType")
Topology = _make("Topology")
CullMode = _make("CullMode")
BlendMode = _make("BlendMode")
Blend = _make("Blend")
BlendOp = _make("BlendOp")
LogicOp = _make("LogicOp")
FillMode = _make("FillMode")
Visibility = _make("Visibility")
Filter = _make("Filter")
AddressMode = _make("AddressMode")
ComparisonFunc = _make("ComparisonFunc")
StencilOp = _make("StencilOp")
BorderColor = _make("BorderColor")
IndexFormat = _make("IndexFormat")
VertexFormat = _make("VertexFormat")
QueryKind = _make("QueryKind")
QueryHeapKind = _make("QueryHeapKind")
PredicationOp = _make("PredicationOp")

QueueKindName = _names("QueueKind")
HeapTypeName = _names("HeapType")
PoolAlgorithmName = _names("PoolAlgorithm")
DefragAlgorithmName = _names("DefragAlgorithm")
DescriptorHeapTypeName = _names("DescriptorHeapType")
TopologyName = _names("Topology")
CullModeName = _names("CullMode")
BlendModeName = _names("BlendMode")
BlendName = _names("Blend")
BlendOpName = _names("BlendOp")
LogicOpName = _names("LogicOp")
FillModeName = _names("FillMode")
VisibilityName = _names("Visibility")
FilterName = _names("Filter")
AddressModeName = _names("AddressMode")
ComparisonFuncName = _names("ComparisonFunc")
StencilOpName = _names("StencilOp")
BorderColorName = _names("BorderColor")
IndexFormatName = _names("IndexFormat")
VertexFormatName = _names("VertexFormat")
QueryKindName = _names("QueryKind")
QueryHeapKindName = _names("QueryHeapKind")
PredicationOpName = _names("PredicationOp")
# A format argument's names: the Format enum's members in lower case (ParseFormat accepts them).
FormatName = Literal[tuple(n.lower() for n in dx12core.Format.__members__ if n != "UNKNOWN")]  # type: ignore[valid-type]

# Other names the parsers accept for some members (the tail of the core's tables).
_ALIASES: dict[Any, tuple[str, ...]] = {globals()[name]: aliases for name, (_, aliases) in _TABLES.items() if aliases}


# The IntFlags, from the core's flag tables (dx12core.flag_tables(), cpp/bindings/FlagTables.hpp).
_FLAG_TABLES: dict[str, tuple[tuple[tuple[str, int], ...], str]] = dx12core.flag_tables()


def _make_flag(name: str) -> Any:
    """The IntFlag `name`: one member per entry of the core's flag table, with the table's docstring."""
    members, doc = _FLAG_TABLES[name]
    cls = enum.IntFlag(name, list(members), module=__name__, qualname=name)  # type: ignore[misc]
    cls.__doc__ = doc
    return cls


ColorWriteEnable = _make_flag("ColorWriteEnable")
