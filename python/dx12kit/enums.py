"""Named choices: every argument that takes one of a fixed set of strings has an enum here.

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
from typing import Any

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


class QueueKind(_StrEnum):
    """The kind of a command queue and its command lists (``Device.queue(kind)``).

    ``DIRECT`` runs everything (also accepted as ``"graphics"``), ``COMPUTE`` runs dispatches and
    copies, ``COPY`` runs copies only (D3D12_COMMAND_LIST_TYPE_*).
    """

    DIRECT = "direct"
    COMPUTE = "compute"
    COPY = "copy"


class HeapType(_StrEnum):
    """The D3D12 heap a resource, pool or memory block lives in (``heap=`` arguments).

    ``DEFAULT``: GPU memory; ``UPLOAD``: CPU-written, GPU-read; ``READBACK``: GPU-written,
    CPU-read; ``CUSTOM``: a CUSTOM heap with write-back CPU pages (D3D12_HEAP_TYPE_*).
    """

    DEFAULT = "default"
    UPLOAD = "upload"
    READBACK = "readback"
    CUSTOM = "custom"


class PoolAlgorithm(_StrEnum):
    """How a memory pool places allocations in its blocks (``Device.create_pool(algorithm=)``).

    ``TLSF``: general purpose, O(1); ``LINEAR``: offsets only grow, a block restarts at 0 when empty.
    """

    TLSF = "tlsf"
    LINEAR = "linear"


class DefragAlgorithm(_StrEnum):
    """How ``Device.defragment(algorithm=)`` plans its moves (D3D12MA's three algorithms).

    ``FAST``: empties the least-used blocks into fuller ones; ``BALANCED``: also moves small
    allocations down within blocks; ``FULL``: every allocation to the lowest free range.
    """

    FAST = "fast"
    BALANCED = "balanced"
    FULL = "full"


class DescriptorHeapType(_StrEnum):
    """A descriptor heap type (``dx12kit.descriptors``; D3D12_DESCRIPTOR_HEAP_TYPE_*)."""

    CBV_SRV_UAV = "cbv_srv_uav"
    SAMPLER = "sampler"
    RTV = "rtv"
    DSV = "dsv"


class Topology(_StrEnum):
    """Primitive topology of a graphics pipeline (``create_graphics_pipeline(topology=)``;
    D3D_PRIMITIVE_TOPOLOGY_*).

    ``TRIANGLE`` is a triangle list (also ``"triangle_list"``), ``LINE`` a line list
    (``"line_list"``), ``POINT`` a point list (``"point_list"``); ``*_ADJ`` are the lists and
    strips with adjacency (geometry shaders). ``PATCH_LIST_<n>`` is a patch of n control points
    for tessellation (hull and domain shaders; also ``"<n>_control_point_patchlist"``).
    """

    TRIANGLE = "triangle"
    TRIANGLE_STRIP = "triangle_strip"
    LINE = "line"
    POINT = "point"
    LINE_STRIP = "line_strip"
    LINE_LIST_ADJ = "line_list_adj"
    LINE_STRIP_ADJ = "line_strip_adj"
    TRIANGLE_LIST_ADJ = "triangle_list_adj"
    TRIANGLE_STRIP_ADJ = "triangle_strip_adj"
    PATCH_LIST_1 = "patch_list_1"
    PATCH_LIST_2 = "patch_list_2"
    PATCH_LIST_3 = "patch_list_3"
    PATCH_LIST_4 = "patch_list_4"
    PATCH_LIST_5 = "patch_list_5"
    PATCH_LIST_6 = "patch_list_6"
    PATCH_LIST_7 = "patch_list_7"
    PATCH_LIST_8 = "patch_list_8"
    PATCH_LIST_9 = "patch_list_9"
    PATCH_LIST_10 = "patch_list_10"
    PATCH_LIST_11 = "patch_list_11"
    PATCH_LIST_12 = "patch_list_12"
    PATCH_LIST_13 = "patch_list_13"
    PATCH_LIST_14 = "patch_list_14"
    PATCH_LIST_15 = "patch_list_15"
    PATCH_LIST_16 = "patch_list_16"
    PATCH_LIST_17 = "patch_list_17"
    PATCH_LIST_18 = "patch_list_18"
    PATCH_LIST_19 = "patch_list_19"
    PATCH_LIST_20 = "patch_list_20"
    PATCH_LIST_21 = "patch_list_21"
    PATCH_LIST_22 = "patch_list_22"
    PATCH_LIST_23 = "patch_list_23"
    PATCH_LIST_24 = "patch_list_24"
    PATCH_LIST_25 = "patch_list_25"
    PATCH_LIST_26 = "patch_list_26"
    PATCH_LIST_27 = "patch_list_27"
    PATCH_LIST_28 = "patch_list_28"
    PATCH_LIST_29 = "patch_list_29"
    PATCH_LIST_30 = "patch_list_30"
    PATCH_LIST_31 = "patch_list_31"
    PATCH_LIST_32 = "patch_list_32"


class CullMode(_StrEnum):
    """Which triangles the rasterizer discards (``create_graphics_pipeline(cull=)``)."""

    NONE = "none"
    FRONT = "front"
    BACK = "back"


class BlendMode(_StrEnum):
    """dx12kit's blend presets for render target 0 (``create_graphics_pipeline(blend=)``).

    ``ALPHA``: src*a + dst*(1-a); ``ADDITIVE``: src + dst; ``PREMULTIPLIED``: src + dst*(1-a).
    """

    NONE = "none"
    ALPHA = "alpha"
    ADDITIVE = "additive"
    PREMULTIPLIED = "premultiplied"


class Blend(_StrEnum):
    """A blend factor of :class:`~dx12kit.BlendState` (D3D12_BLEND_* lower case).

    ``SRC1_*`` factors read the pixel shader's second output (dual-source blending: one render
    target). ``BLEND_FACTOR``/``INV_BLEND_FACTOR`` read the factor set by
    ``CommandList.set_blend_factor``, which draws with such a pipeline require.
    """

    ZERO = "zero"
    ONE = "one"
    SRC_COLOR = "src_color"
    INV_SRC_COLOR = "inv_src_color"
    SRC_ALPHA = "src_alpha"
    INV_SRC_ALPHA = "inv_src_alpha"
    DEST_ALPHA = "dest_alpha"
    INV_DEST_ALPHA = "inv_dest_alpha"
    DEST_COLOR = "dest_color"
    INV_DEST_COLOR = "inv_dest_color"
    SRC_ALPHA_SAT = "src_alpha_sat"
    BLEND_FACTOR = "blend_factor"
    INV_BLEND_FACTOR = "inv_blend_factor"
    SRC1_COLOR = "src1_color"
    INV_SRC1_COLOR = "inv_src1_color"
    SRC1_ALPHA = "src1_alpha"
    INV_SRC1_ALPHA = "inv_src1_alpha"


class BlendOp(_StrEnum):
    """How :class:`~dx12kit.BlendState` combines the weighted source and destination (D3D12_BLEND_OP_*)."""

    ADD = "add"
    SUBTRACT = "subtract"
    REV_SUBTRACT = "rev_subtract"
    MIN = "min"
    MAX = "max"


class LogicOp(_StrEnum):
    """A logic operation of :class:`~dx12kit.BlendState` (D3D12_LOGIC_OP_*). vkd3d 1.2 does not
    implement logic operations: a pipeline with one raises there."""

    CLEAR = "clear"
    SET = "set"
    COPY = "copy"
    COPY_INVERTED = "copy_inverted"
    NOOP = "noop"
    INVERT = "invert"
    AND = "and"
    NAND = "nand"
    OR = "or"
    NOR = "nor"
    XOR = "xor"
    EQUIV = "equiv"
    AND_REVERSE = "and_reverse"
    AND_INVERTED = "and_inverted"
    OR_REVERSE = "or_reverse"
    OR_INVERTED = "or_inverted"


class FillMode(_StrEnum):
    """How :class:`~dx12kit.RasterizerState` fills triangles (D3D12_FILL_MODE_*)."""

    SOLID = "solid"
    WIREFRAME = "wireframe"


class ColorWriteEnable(enum.IntFlag):
    """The channels a render target writes (``BlendState(write_mask=)``; D3D12_COLOR_WRITE_ENABLE_*).
    Plain ints 0..15 are accepted too."""

    RED = 1
    GREEN = 2
    BLUE = 4
    ALPHA = 8
    ALL = 15


class Visibility(_StrEnum):
    """Shader stages that see a root parameter or static sampler (D3D12_SHADER_VISIBILITY_*).

    ``"vs"`` and ``"ps"`` are accepted as short forms of ``VERTEX`` and ``PIXEL``.
    """

    ALL = "all"
    VERTEX = "vertex"
    HULL = "hull"
    DOMAIN = "domain"
    GEOMETRY = "geometry"
    PIXEL = "pixel"


class Filter(_StrEnum):
    """Texture filtering of a sampler or static sampler (D3D12_FILTER_* without the prefix).

    The four short names are presets: ``POINT`` (min/mag/mip point), ``LINEAR`` (trilinear),
    ``BILINEAR`` (linear min/mag, point mip) and ``ANISOTROPIC``. The others name D3D12's filters;
    ``COMPARISON_*`` filters compare against a reference value (shadow maps), ``MINIMUM_*`` and
    ``MAXIMUM_*`` reduce the taps by min/max.
    """

    POINT = "point"
    LINEAR = "linear"
    BILINEAR = "bilinear"
    ANISOTROPIC = "anisotropic"
    MIN_MAG_MIP_POINT = "min_mag_mip_point"
    MIN_MAG_POINT_MIP_LINEAR = "min_mag_point_mip_linear"
    MIN_POINT_MAG_LINEAR_MIP_POINT = "min_point_mag_linear_mip_point"
    MIN_POINT_MAG_MIP_LINEAR = "min_point_mag_mip_linear"
    MIN_LINEAR_MAG_MIP_POINT = "min_linear_mag_mip_point"
    MIN_LINEAR_MAG_POINT_MIP_LINEAR = "min_linear_mag_point_mip_linear"
    MIN_MAG_LINEAR_MIP_POINT = "min_mag_linear_mip_point"
    MIN_MAG_MIP_LINEAR = "min_mag_mip_linear"
    COMPARISON_MIN_MAG_MIP_POINT = "comparison_min_mag_mip_point"
    COMPARISON_MIN_MAG_POINT_MIP_LINEAR = "comparison_min_mag_point_mip_linear"
    COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT = "comparison_min_point_mag_linear_mip_point"
    COMPARISON_MIN_POINT_MAG_MIP_LINEAR = "comparison_min_point_mag_mip_linear"
    COMPARISON_MIN_LINEAR_MAG_MIP_POINT = "comparison_min_linear_mag_mip_point"
    COMPARISON_MIN_LINEAR_MAG_POINT_MIP_LINEAR = "comparison_min_linear_mag_point_mip_linear"
    COMPARISON_MIN_MAG_LINEAR_MIP_POINT = "comparison_min_mag_linear_mip_point"
    COMPARISON_MIN_MAG_MIP_LINEAR = "comparison_min_mag_mip_linear"
    COMPARISON_ANISOTROPIC = "comparison_anisotropic"
    MINIMUM_MIN_MAG_MIP_POINT = "minimum_min_mag_mip_point"
    MINIMUM_MIN_MAG_POINT_MIP_LINEAR = "minimum_min_mag_point_mip_linear"
    MINIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT = "minimum_min_point_mag_linear_mip_point"
    MINIMUM_MIN_POINT_MAG_MIP_LINEAR = "minimum_min_point_mag_mip_linear"
    MINIMUM_MIN_LINEAR_MAG_MIP_POINT = "minimum_min_linear_mag_mip_point"
    MINIMUM_MIN_LINEAR_MAG_POINT_MIP_LINEAR = "minimum_min_linear_mag_point_mip_linear"
    MINIMUM_MIN_MAG_LINEAR_MIP_POINT = "minimum_min_mag_linear_mip_point"
    MINIMUM_MIN_MAG_MIP_LINEAR = "minimum_min_mag_mip_linear"
    MINIMUM_ANISOTROPIC = "minimum_anisotropic"
    MAXIMUM_MIN_MAG_MIP_POINT = "maximum_min_mag_mip_point"
    MAXIMUM_MIN_MAG_POINT_MIP_LINEAR = "maximum_min_mag_point_mip_linear"
    MAXIMUM_MIN_POINT_MAG_LINEAR_MIP_POINT = "maximum_min_point_mag_linear_mip_point"
    MAXIMUM_MIN_POINT_MAG_MIP_LINEAR = "maximum_min_point_mag_mip_linear"
    MAXIMUM_MIN_LINEAR_MAG_MIP_POINT = "maximum_min_linear_mag_mip_point"
    MAXIMUM_MIN_LINEAR_MAG_POINT_MIP_LINEAR = "maximum_min_linear_mag_point_mip_linear"
    MAXIMUM_MIN_MAG_LINEAR_MIP_POINT = "maximum_min_mag_linear_mip_point"
    MAXIMUM_MIN_MAG_MIP_LINEAR = "maximum_min_mag_mip_linear"
    MAXIMUM_ANISOTROPIC = "maximum_anisotropic"


class AddressMode(_StrEnum):
    """How texture coordinates outside [0, 1] are resolved (D3D12_TEXTURE_ADDRESS_MODE_*)."""

    CLAMP = "clamp"
    WRAP = "wrap"
    MIRROR = "mirror"
    BORDER = "border"
    MIRROR_ONCE = "mirror_once"


class ComparisonFunc(_StrEnum):
    """The comparison of a comparison sampler (D3D12_COMPARISON_FUNC_*)."""

    NEVER = "never"
    LESS = "less"
    EQUAL = "equal"
    LESS_EQUAL = "less_equal"
    GREATER = "greater"
    NOT_EQUAL = "not_equal"
    GREATER_EQUAL = "greater_equal"
    ALWAYS = "always"


class StencilOp(_StrEnum):
    """What a passing stencil test does to the stencil value (``create_graphics_pipeline(stencil_pass_op=)``;
    D3D12_STENCIL_OP_*). The test itself compares with a :class:`ComparisonFunc` (``stencil_func=``)."""

    KEEP = "keep"
    ZERO = "zero"
    REPLACE = "replace"
    INCR_SAT = "incr_sat"
    DECR_SAT = "decr_sat"
    INVERT = "invert"
    INCR = "incr"
    DECR = "decr"


class BorderColor(_StrEnum):
    """Border colour of a static sampler with ``AddressMode.BORDER`` (D3D12_STATIC_BORDER_COLOR_*)."""

    TRANSPARENT_BLACK = "transparent_black"
    OPAQUE_BLACK = "opaque_black"
    OPAQUE_WHITE = "opaque_white"


class IndexFormat(_StrEnum):
    """Index size of ``CommandList.set_index_buffer(format=)`` (R16_UINT / R32_UINT)."""

    UINT16 = "uint16"
    UINT32 = "uint32"


class VertexFormat(_StrEnum):
    """Format of a vertex attribute in ``create_graphics_pipeline(input_layout=)`` entries."""

    FLOAT = "float"
    FLOAT2 = "float2"
    FLOAT3 = "float3"
    FLOAT4 = "float4"
    UINT = "uint"
    RGBA8_UNORM = "rgba8_unorm"


# Other names the bindings accept for some members (the C++ tables, cpp/bindings/ChoiceTables.hpp);
# the type stubs accept them too (scripts/gen-stubs.sh builds each Literal from the enum and these).
class QueryKind(_StrEnum):
    """The kind of a query (D3D12_QUERY_TYPE_*): CommandList.begin_query / end_query / resolve_query_data,
    CommandQueue.read_queries."""

    OCCLUSION = "occlusion"
    BINARY_OCCLUSION = "binary_occlusion"
    TIMESTAMP = "timestamp"
    PIPELINE_STATISTICS = "pipeline_statistics"


class QueryHeapKind(_StrEnum):
    """The kind of a query heap (D3D12_QUERY_HEAP_TYPE_*): Device.create_query_heap. An occlusion heap
    holds 'occlusion' and 'binary_occlusion' queries ('binary_occlusion' names the same heap kind)."""

    OCCLUSION = "occlusion"
    TIMESTAMP = "timestamp"
    PIPELINE_STATISTICS = "pipeline_statistics"
    COPY_QUEUE_TIMESTAMP = "copy_queue_timestamp"


class PredicationOp(_StrEnum):
    """When predicated work is skipped (D3D12_PREDICATION_OP_*): 'equal_zero' skips it while the
    64-bit predicate is zero, 'not_equal_zero' while it is not."""

    EQUAL_ZERO = "equal_zero"
    NOT_EQUAL_ZERO = "not_equal_zero"


_ALIASES: dict[type[_StrEnum], tuple[str, ...]] = {
    QueueKind: ("graphics",),
    Topology: ("triangle_list", "line_list", "point_list") + tuple(f"{n}_control_point_patchlist" for n in range(1, 33)),
    Visibility: ("vs", "ps"),
    IndexFormat: ("r16_uint", "r32_uint"),
    QueryHeapKind: ("binary_occlusion",),
}
