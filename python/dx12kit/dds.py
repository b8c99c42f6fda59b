"""DDS files: the header parsed with struct (Microsoft's documented fixed layout), the surfaces as raw bytes.

A DDS file is ``"DDS "``, a 124-byte DDS_HEADER (with a 32-byte DDS_PIXELFORMAT inside), then, when the pixel
format's FourCC is ``"DX10"``, a 20-byte DDS_HEADER_DXT10 naming the DXGI format, then the surfaces: for each
array element (each cube face, +X -X +Y -Y +Z -Z), each mip from the largest, tightly packed rows (rows of 4x4
blocks for block-compressed formats; every depth slice of a volume mip in turn).

What is read: 2D textures, texture arrays (DX10 arraySize), cube maps (DDSCAPS2_CUBEMAP with all six faces, or
the DX10 TEXTURECUBE flag), volume textures (DDSCAPS2_VOLUME / DX10 TEXTURE3D; with a DX10 header its
resourceDimension decides, whatever the legacy flags say), mips; the DXGI formats of the
DX10 header, the legacy FourCCs DXT1-DXT5, ATI1/ATI2/BC4U/BC4S/BC5U/BC5S and the numeric D3DFMT codes of
float/16-bit formats, and the legacy RGB/luminance/alpha bit masks that have a DXGI format. Anything else
(24-bit RGB, partial cube maps, cube arrays, cube volumes, 1D textures, palettes, YUV, depth formats, sizes beyond
D3D12's limits) is refused with InvalidArgumentError naming the file and what it has.
"""
from __future__ import annotations

import functools
import struct
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .errors import InvalidArgumentError

__all__ = ["DdsImage", "is_dds", "parse_dds"]

MAGIC = b"DDS "
_HEADER = struct.Struct("<7I44x8I4I4x")  # size, flags, height, width, pitch, depth, mips, reserved1[11], ddspf, caps1-4, reserved2
_DX10 = struct.Struct("<5I")             # dxgiFormat, resourceDimension, miscFlag, arraySize, miscFlags2

DDSD_MIPMAPCOUNT = 0x20000
DDSD_DEPTH = 0x800000
DDPF_ALPHAPIXELS, DDPF_ALPHA, DDPF_FOURCC, DDPF_RGB, DDPF_YUV, DDPF_LUMINANCE = 0x1, 0x2, 0x4, 0x40, 0x200, 0x20000
DDPF_PALETTEINDEXED8 = 0x20
DDSCAPS2_CUBEMAP = 0x200
DDSCAPS2_CUBEMAP_ALLFACES = 0xFC00
DDSCAPS2_VOLUME = 0x200000
DDS_RESOURCE_MISC_TEXTURECUBE = 0x4
DIMENSION_1D, DIMENSION_2D, DIMENSION_3D = 2, 3, 4

# Legacy FourCCs and D3DFMT codes (stored in the FourCC field) -> dx12kit format names.
_FOURCC: Dict[bytes, str] = {
    b"DXT1": "bc1_unorm", b"DXT2": "bc2_unorm", b"DXT3": "bc2_unorm", b"DXT4": "bc3_unorm", b"DXT5": "bc3_unorm",
    b"ATI1": "bc4_unorm", b"BC4U": "bc4_unorm", b"BC4S": "bc4_snorm",
    b"ATI2": "bc5_unorm", b"BC5U": "bc5_unorm", b"BC5S": "bc5_snorm",
}
_D3DFMT: Dict[int, str] = {
    36: "rgba16_unorm", 110: "rgba16_snorm", 111: "r16_float", 112: "rg16_float", 113: "rgba16_float",
    114: "r32_float", 115: "rg32_float", 116: "rgba32_float",
}
# (flags kind, bit count, R, G, B, A masks) -> format; kind "rgb", "lum" or "alpha".
_MASKS: Dict[Tuple[str, int, int, int, int, int], str] = {
    ("rgb", 32, 0xFF, 0xFF00, 0xFF0000, 0xFF000000): "rgba8_unorm",
    ("rgb", 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000): "bgra8_unorm",
    ("rgb", 32, 0xFF0000, 0xFF00, 0xFF, 0): "bgrx8_unorm",
    ("rgb", 32, 0x3FF, 0xFFC00, 0x3FF00000, 0xC0000000): "rgb10a2_unorm",
    ("rgb", 32, 0xFFFF, 0xFFFF0000, 0, 0): "rg16_unorm",
    ("rgb", 32, 0xFFFFFFFF, 0, 0, 0): "r32_float",
    ("rgb", 16, 0xF800, 0x7E0, 0x1F, 0): "b5g6r5_unorm",
    ("rgb", 16, 0x7C00, 0x3E0, 0x1F, 0x8000): "b5g5r5a1_unorm",
    ("rgb", 16, 0xF00, 0xF0, 0xF, 0xF000): "b4g4r4a4_unorm",
    ("rgb", 16, 0xFF, 0xFF00, 0, 0): "rg8_unorm",
    ("lum", 8, 0xFF, 0, 0, 0): "r8_unorm",
    ("lum", 16, 0xFFFF, 0, 0, 0): "r16_unorm",
    ("lum", 16, 0xFF, 0, 0, 0xFF00): "rg8_unorm",
    ("alpha", 8, 0, 0, 0, 0xFF): "a8_unorm",
}
# D3D12's size limits (D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION, ..._TEXTURE2D_ARRAY_AXIS_DIMENSION,
# ..._TEXTURECUBE_DIMENSION, ..._TEXTURE3D_U_V_OR_W_DIMENSION).
MAX_2D, MAX_ARRAY, MAX_CUBE, MAX_3D = 16384, 2048, 16384, 2048
# Depth formats: a texture of one is a depth-stencil target, which load_texture does not make. The
# colour format holding the same bytes, for the advice (the stencil families' typeless colour formats
# cannot be created on vkd3d 1.2: docs/guides/shader-gaps.rst, Formats).
_DEPTH_FORMATS = {"d32_float": "r32_float", "d16_unorm": "r16_unorm",
                  "d24_unorm_s8_uint": "r32_uint (depth in the low 24 bits, stencil in the high 8)",
                  "d32_float_s8x24_uint": "r32g32_uint (depth the float bits of .x, stencil the low 8 bits of .y)"}


@dataclass
class DdsImage:
    """A parsed DDS file: the format, size and every surface as raw bytes."""

    path: str
    format: str                      # dx12kit's short format name
    width: int
    height: int
    depth: int                       # > 1 for a volume (3D) texture
    mip_levels: int
    array_size: int                  # array elements (6 for a cube map: one per face)
    cube: bool
    # surfaces[element][mip] -> bytes of that subresource (every depth slice of a volume mip)
    surfaces: List[List[bytes]] = field(default_factory=list)
    volume: bool = False             # a 3D texture (DX10 TEXTURE3D, even of depth 1; legacy DDSCAPS2_VOLUME)

    @property
    def block_compressed(self) -> bool:
        return bool(_format_info(self.format)["layout"] == "block")


def is_dds(data: bytes) -> bool:
    return data[:4] == MAGIC


def _fail(path: str, what: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"load_texture: '{path}' is a DDS file with {what}")


@functools.lru_cache(maxsize=None)
def _format_info(fmt: str) -> Dict[str, Any]:
    """The core's table entry of `fmt` (dx12core.format_info): its layout and sizes."""
    from . import dx12core

    return dx12core.format_info(fmt)


def subresource_bytes(fmt: str, width: int, height: int, depth: int) -> Optional[int]:
    """Tightly packed bytes of one subresource as a DDS file stores it, or None for a format whose size is
    not one per texel or per 4x4 block (video, planar, palette and packed formats)."""
    info = _format_info(fmt)
    if info["layout"] == "block":
        return ((width + 3) // 4) * ((height + 3) // 4) * int(info["block_bytes"]) * depth
    if info["layout"] == "texel":
        return width * height * int(info["packed_texel_bytes"]) * depth
    return None


def _dxgi_format_name(path: str, value: int) -> str:
    from . import dx12core  # the Format enum: every DXGI format by value

    try:
        return dx12core.Format(value).name.lower()
    except ValueError:
        raise _fail(path, f"DXGI format {value}, which is no DXGI format") from None


def parse_dds(path: str, data: bytes) -> DdsImage:
    """Parses the DDS file `path` whose bytes are `data`.

    Raises:
        InvalidArgumentError: not a DDS file, a truncated one, or one with a feature not handled (named).
    """
    if not is_dds(data):
        raise InvalidArgumentError(f"load_texture: '{path}' is not a DDS file (no 'DDS ' magic)")
    if len(data) < 4 + _HEADER.size:
        raise _fail(path, f"a truncated header ({len(data)} bytes)")
    (size, flags, height, width, _pitch, depth, mips, pf_size, pf_flags, fourcc, bits, rmask, gmask, bmask, amask,
     _caps, caps2, _caps3, _caps4) = _HEADER.unpack_from(data, 4)
    if size != 124 or pf_size != 32:
        raise _fail(path, f"a bad header (dwSize {size}, ddspf.dwSize {pf_size}; expected 124 and 32)")
    offset = 4 + _HEADER.size
    mip_levels = max(1, mips) if flags & DDSD_MIPMAPCOUNT else 1
    array_size, cube = 1, False
    header_depth = depth
    volume = bool(caps2 & DDSCAPS2_VOLUME) and bool(flags & DDSD_DEPTH) and depth > 1
    depth = max(1, depth) if volume else 1
    fourcc_bytes = struct.pack("<I", fourcc)
    if pf_flags & DDPF_FOURCC and fourcc_bytes == b"DX10":
        if len(data) < offset + _DX10.size:
            raise _fail(path, "a truncated DX10 header")
        dxgi, dimension, misc, array_size, _misc2 = _DX10.unpack_from(data, offset)
        offset += _DX10.size
        fmt = _dxgi_format_name(path, dxgi)
        if dimension == DIMENSION_1D:
            raise _fail(path, "a 1D texture (DX10 resourceDimension TEXTURE1D); load_texture makes 2D, cube and 3D textures")
        if dimension not in (DIMENSION_2D, DIMENSION_3D):
            raise _fail(path, f"DX10 resourceDimension {dimension} (expected 3 = TEXTURE2D or 4 = TEXTURE3D)")
        # The DX10 header's resourceDimension decides (the legacy DDSD_DEPTH / DDSCAPS2_VOLUME flags
        # need not be set); a 3D texture's depth is the header's dwDepth.
        volume = dimension == DIMENSION_3D
        depth = max(1, header_depth) if volume else 1
        cube = bool(misc & DDS_RESOURCE_MISC_TEXTURECUBE)
        if volume and cube:
            raise _fail(path, "DX10 resourceDimension TEXTURE3D and the TEXTURECUBE flag together; "
                              "a texture is either a cube map (TEXTURE2D + TEXTURECUBE) or a volume, not both")
        if array_size == 0:
            raise _fail(path, "DX10 arraySize 0")
        if volume and array_size != 1:
            raise _fail(path, f"a 3D texture of arraySize {array_size} (D3D12 has no 3D texture arrays)")
        if cube:
            if array_size != 1:
                raise _fail(path, f"a cube map array of {array_size} cubes; load_texture reads one cube map")
            array_size = 6
    else:
        if pf_flags & DDPF_FOURCC:
            if fourcc_bytes in _FOURCC:
                fmt = _FOURCC[fourcc_bytes]
            elif fourcc in _D3DFMT:
                fmt = _D3DFMT[fourcc]
            else:
                shown = fourcc_bytes.decode("latin-1") if all(32 <= c < 127 for c in fourcc_bytes) else str(fourcc)
                raise _fail(path, f"legacy FourCC '{shown}', which has no DXGI format load_texture reads "
                                  "(DXT1-DXT5, ATI1, ATI2, BC4U/S, BC5U/S, D3DFMT 36 and 110-116, or a DX10 header)")
        else:
            kind = ("rgb" if pf_flags & DDPF_RGB else "lum" if pf_flags & DDPF_LUMINANCE
                    else "alpha" if pf_flags & DDPF_ALPHA else None)
            if kind is None:
                what = ("palette-indexed pixels" if pf_flags & DDPF_PALETTEINDEXED8 else "YUV pixels" if pf_flags & DDPF_YUV
                        else f"pixel format flags {pf_flags:#x}")
                raise _fail(path, f"{what}; load_texture reads DXGI formats only")
            if not pf_flags & DDPF_ALPHAPIXELS and kind != "alpha":
                amask = 0
            key = (kind, bits, rmask, gmask, bmask, amask)
            if key not in _MASKS:
                raise _fail(path, f"a {bits}-bit {kind} pixel format with masks R {rmask:#x} G {gmask:#x} B {bmask:#x} A {amask:#x}, "
                                  "which has no DXGI format" + (" (24-bit RGB: convert it to 32 bits)" if bits == 24 else ""))
            fmt = _MASKS[key]
        if caps2 & DDSCAPS2_CUBEMAP:
            if caps2 & DDSCAPS2_VOLUME:
                raise _fail(path, "both DDSCAPS2_CUBEMAP and DDSCAPS2_VOLUME set; a texture is either a cube map "
                                  "or a volume, not both")
            if caps2 & DDSCAPS2_CUBEMAP_ALLFACES != DDSCAPS2_CUBEMAP_ALLFACES:
                raise _fail(path, f"a partial cube map (DDSCAPS2 faces {caps2 & DDSCAPS2_CUBEMAP_ALLFACES:#x}); all six faces are needed")
            cube, array_size = True, 6
    if width == 0 or height == 0:
        raise _fail(path, f"a size of {width}x{height}")
    if fmt in _DEPTH_FORMATS:
        raise _fail(path, f"the depth format {fmt}; load_texture makes textures that shaders sample, and a texture of a "
                          "depth format is a depth-stencil target, which cannot be. Save the data as "
                          f"{_DEPTH_FORMATS[fmt]} (the same bytes) to load it")
    if volume:
        limit, kind = MAX_3D, "a 3D texture"
    elif cube:
        limit, kind = MAX_CUBE, "a cube map"
    else:
        limit, kind = MAX_2D, "a 2D texture"
    if max(width, height, depth) > limit:
        shape = f"{width}x{height}" + (f"x{depth}" if volume else "")
        raise _fail(path, f"a size of {shape}, beyond D3D12's limit of {limit} texels a side for {kind}")
    if not cube and array_size > MAX_ARRAY:
        raise _fail(path, f"an array of {array_size} elements, beyond D3D12's limit of {MAX_ARRAY}")
    if cube and width != height:
        raise _fail(path, f"cube faces of {width}x{height}; cube faces are square")
    largest = max(width, height, depth)
    if mip_levels > largest.bit_length():
        raise _fail(path, f"{mip_levels} mips; a {width}x{height} texture has at most {largest.bit_length()}")
    surfaces: List[List[bytes]] = []
    for element in range(array_size):
        mips_of: List[bytes] = []
        for mip in range(mip_levels):
            w, h, d = max(1, width >> mip), max(1, height >> mip), max(1, depth >> mip)
            n = subresource_bytes(fmt, w, h, d)
            if n is None:
                raise _fail(path, f"format {fmt}, whose layout load_texture does not know (video, planar or packed formats)")
            if offset + n > len(data):
                raise _fail(path, f"too little data: element {element} mip {mip} ({w}x{h}" + (f"x{d}" if volume else "") +
                                  f" {fmt}, {n} bytes) runs past the end of the {len(data)}-byte file")
            mips_of.append(data[offset:offset + n])
            offset += n
        surfaces.append(mips_of)
    return DdsImage(path=path, format=fmt, width=width, height=height, depth=depth, mip_levels=mip_levels,
                    array_size=array_size, cube=cube, surfaces=surfaces, volume=volume)
