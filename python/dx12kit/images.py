"""Images in and out of numpy arrays, through Pillow."""
from __future__ import annotations

from pathlib import Path
from typing import Union

import numpy as np

__all__ = ["save_image"]


def save_image(path: Union[str, Path], array: np.ndarray) -> Path:
    """Writes an image array as a PNG (through Pillow) and returns the path.

    Args:
        path: the file to write.
        array: uint8 pixels of shape (height, width), (height, width, 1), (height, width, 3) or
            (height, width, 4) (what ``CommandQueue.read_texture`` returns for rgba8 textures).
    """
    from PIL import Image

    a = np.asarray(array)
    if a.dtype != np.uint8:
        raise TypeError(f"save_image: expected uint8 pixels, got {a.dtype}")
    if a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    if a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] not in (3, 4)) or a.size == 0:
        raise ValueError(f"save_image: expected an array of shape (H, W), (H, W, 1), (H, W, 3) or (H, W, 4), got {a.shape}")
    out = Path(path)
    Image.fromarray(np.ascontiguousarray(a)).save(out, format="PNG")
    return out
