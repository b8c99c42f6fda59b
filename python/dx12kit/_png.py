"""A minimal PNG writer (RGBA8), so the demo needs nothing beyond numpy."""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np


def write_png(path: "str | Path", rgba: np.ndarray) -> None:
    """Writes an (height, width, 4) uint8 array as an 8-bit RGBA PNG."""
    if rgba.dtype != np.uint8 or rgba.ndim != 3 or rgba.shape[2] != 4:
        raise ValueError("write_png expects an (height, width, 4) uint8 array")
    h, w, _ = rgba.shape
    raw = np.zeros((h, w * 4 + 1), np.uint8)  # filter byte 0 (None) per row
    raw[:, 1:] = rgba.reshape(h, w * 4)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw.tobytes(), 6)) + chunk(b"IEND", b"")
    Path(path).write_bytes(png)
