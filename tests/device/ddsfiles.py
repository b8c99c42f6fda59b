"""Small DDS files written by the tests (the documented fixed layout, packed with struct), and Pillow as the
reference decoder of their BC1 / BC7 blocks."""
from __future__ import annotations

import io
import struct
from typing import Optional, Sequence

import numpy as np

DDSD = 0x1 | 0x2 | 0x4 | 0x1000  # CAPS, HEIGHT, WIDTH, PIXELFORMAT
DDSD_MIPMAPCOUNT = 0x20000
DDSCAPS_TEXTURE, DDSCAPS_COMPLEX, DDSCAPS_MIPMAP = 0x1000, 0x8, 0x400000
DDSCAPS2_CUBEMAP_ALL = 0x200 | 0xFC00
DXGI = {"bc1_unorm": 71, "bc1_unorm_srgb": 72, "bc7_unorm": 98, "bc7_unorm_srgb": 99, "rgba8_unorm": 28}


def dds_file(width: int, height: int, surfaces: Sequence[bytes], *, mips: int = 1, fourcc: Optional[bytes] = None,
             dxgi: Optional[int] = None, masks: Optional[tuple] = None, caps2: int = 0, misc: int = 0,
             array_size: int = 1) -> bytes:
    """A DDS file: a DX10 header when `dxgi` is given, else the legacy FourCC or (flags, bits, r, g, b, a) masks."""
    flags = DDSD | (DDSD_MIPMAPCOUNT if mips > 1 else 0)
    header = struct.pack("<7I44x", 124, flags, height, width, 0, 0, mips)
    if dxgi is not None or fourcc is not None:
        pf = struct.pack("<2I4s5I", 32, 0x4, b"DX10" if dxgi is not None else fourcc, 0, 0, 0, 0, 0)
    else:
        assert masks is not None
        flags_pf, *rest = masks
        pf = struct.pack("<8I", 32, flags_pf, 0, *rest)
    caps = DDSCAPS_TEXTURE | (DDSCAPS_COMPLEX | DDSCAPS_MIPMAP if mips > 1 else 0) | (DDSCAPS_COMPLEX if caps2 else 0)
    out = b"DDS " + header + pf + struct.pack("<4I4x", caps, caps2, 0, 0)
    if dxgi is not None:
        out += struct.pack("<5I", dxgi, 3, misc, array_size, 0)
    return out + b"".join(surfaces)


def block_chain(rng: np.random.Generator, width: int, height: int, mips: int, block_bytes: int, bc7: bool) -> list:
    """Random blocks for each mip. BC7 blocks get a valid mode (byte 0 non-zero; mode 8 is reserved)."""
    out = []
    for m in range(mips):
        w, h = max(1, width >> m), max(1, height >> m)
        n = ((w + 3) // 4) * ((h + 3) // 4)
        blocks = rng.integers(0, 256, (n, block_bytes), dtype=np.uint8)
        if bc7:
            blocks[:, 0] |= np.uint8(1) << rng.integers(0, 8, n).astype(np.uint8)
        out.append(blocks.tobytes())
    return out


def pillow_decode(fmt: str, width: int, height: int, blocks: bytes) -> np.ndarray:
    """Pillow's RGBA decoding (uint8, (height, width, 4)) of one BC1/BC7 surface of width x height texels."""
    from PIL import Image

    data = dds_file(width, height, [blocks], dxgi=DXGI[fmt.replace("_srgb", "")])
    with Image.open(io.BytesIO(data)) as im:
        assert im.size == (width, height)
        return np.asarray(im.convert("RGBA"))


def srgb_to_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
