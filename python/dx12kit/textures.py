"""Textures from image files and numpy arrays: the Python half of :meth:`Device.load_texture`.

Reading and converting pixels is done here (Pillow, numpy); the texture is created and filled
through the public API (``create_texture2d``, ``CommandList.upload``, ``generate_mips``).

Formats chosen per dtype and channel count, from the core's table (``dx12kit/devicecontext/FormatForData.hpp``, which
create_texture2d(data=) uses too; RGB data gets an opaque alpha channel, since DXGI has
no three-channel formats of these sizes)::

    dtype     1 channel    2 channels    3 or 4 channels
    uint8     r8_unorm     rg8_unorm     rgba8_unorm   (srgb=True: rgba8_unorm_srgb, any channel count)
    uint16    r16_unorm    rg16_unorm    rgba16_unorm
    float16   r16_float    rg16_float    rgba16_float
    float32   r32_float    rg32_float    rgba32_float

DDS files (``"DDS "`` magic, whatever the extension) are read by ``dx12kit.dds``: their format (the DX10
header's DXGI format, or the legacy FourCC / bit masks), mips, array slices and cube faces are kept as the file has
them, block-compressed (BC1-BC7) data included, and uploaded as raw bytes. ``srgb=True`` picks the sRGB member of
the file's format (bc1_unorm -> bc1_unorm_srgb); ``generate_mips`` applies to a single-mip uncompressed 2D file
only (a file's own mips are kept; block-compressed textures cannot have mips generated on the GPU).

Files are cached per device, resolved path and content (a SHA-256 of the file's bytes, plus
``srgb`` and ``generate_mips``): a second call returns the same :class:`Texture` while it is alive,
and a file rewritten in place is loaded again whatever its modification time says. (Hashing reads
the file: about 1 ms per MiB here, against tens of ms to decode and upload it.) The cache
holds weak references only, so it never keeps a texture (or a device) alive.
"""
from __future__ import annotations

import hashlib
import io
import os
import threading
import weakref
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import dds
from . import dx12core
from ._progress import Progress, ProgressArg, reporter
from .errors import InvalidArgumentError

__all__ = ["load_texture", "texture_format_for"]

#: Image file formats load_texture reads (Pillow's format names).
FILE_FORMATS = ("PNG", "JPEG", "BMP", "TGA")

# The dtypes load_texture takes: those it knows an opaque alpha for (RGB and sRGB data get one).
_OPAQUE = {"uint8": 255, "uint16": 65535, "float16": 1.0, "float32": 1.0}

MAX_TEXTURE2D_SIZE = 16384  # D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION

_lock = threading.Lock()
# device -> {key: weakref to Texture}; keys: (path, size, sha256 of the content, srgb, generate_mips)
_cache: "weakref.WeakKeyDictionary[Any, Dict[Tuple[Any, ...], weakref.ref[Any]]]" = weakref.WeakKeyDictionary()
# (id(device), key) -> lock held while that file is being loaded, so concurrent calls load it once
_loading: Dict[Tuple[int, Tuple[Any, ...]], threading.Lock] = {}


def _after_fork_in_child() -> None:
    """A forked child has only the thread that forked: a lock another thread of the parent held
    (a file being loaded, the cache being read) would stay held forever. The child starts with new
    locks and an empty cache (the parent's textures belong to a device the child cannot use)."""
    global _lock, _cache, _loading
    _lock = threading.Lock()
    _cache = weakref.WeakKeyDictionary()
    _loading = {}


if hasattr(os, "register_at_fork"):  # not on Windows
    os.register_at_fork(after_in_child=_after_fork_in_child)


def texture_format_for(dtype: Any, channels: int, srgb: bool = False) -> str:
    """The format name load_texture uses for pixels of `dtype` with `channels` channels (1..4).

    Raises:
        TypeError: a dtype other than uint8, uint16, float16, float32.
        InvalidArgumentError: channels outside 1..4, or srgb=True for data that is not 8-bit.
    """
    name = np.dtype(dtype).name
    if name not in _OPAQUE:
        raise TypeError(f"load_texture: unsupported dtype {name}; use uint8, uint16, float16 or float32")
    if not 1 <= channels <= 4:
        raise InvalidArgumentError(f"load_texture: {channels} channels; textures have 1 to 4")
    if srgb:
        if name != "uint8":
            raise InvalidArgumentError(
                f"load_texture: srgb=True needs 8-bit data (sRGB formats are 8-bit: rgba8_unorm_srgb), got {name}; "
                "sRGB-encoded 16-bit or float data should be linearised first, or loaded with srgb=False")
    # The format from the core's table (create_texture2d(data=) uses the same): 3 channels are padded to 4, and sRGB
    # data of any channel count is expanded to RGBA (_pixels).
    fmt = dx12core._texture_format_for_data(np.dtype(dtype), 4 if channels == 3 or srgb else channels, srgb)
    assert fmt is not None, (name, channels, srgb)  # every dtype of _OPAQUE has a row in the table
    return fmt


def _pixels(array: np.ndarray, srgb: bool, what: str) -> Tuple[np.ndarray, str]:
    """(H, W, C) contiguous pixels ready to upload, and their format name."""
    if array.ndim == 2:
        array = array[:, :, None]
    if array.ndim != 3 or not 1 <= array.shape[2] <= 4:
        raise InvalidArgumentError(f"load_texture: {what} has shape {array.shape}; expected (H, W) or (H, W, 1..4)")
    h, w, c = array.shape
    if h == 0 or w == 0:
        raise InvalidArgumentError(f"load_texture: {what} is empty (shape {array.shape})")
    fmt = texture_format_for(array.dtype, c, srgb)
    if not array.dtype.isnative:  # big-endian data: GPU formats are little-endian
        array = array.astype(array.dtype.newbyteorder("="))
    if fmt.startswith("rgba") and c != 4:
        out = np.empty((h, w, 4), dtype=array.dtype)
        if c >= 3:
            out[:, :, :3] = array[:, :, :3]
        else:  # sRGB from 1 or 2 channels: grey (and alpha) expanded to RGBA
            out[:, :, :3] = array[:, :, :1]
        out[:, :, 3] = array[:, :, 1] if c == 2 else _OPAQUE[array.dtype.name]
        array = out
    return np.ascontiguousarray(array), fmt


def _read_image(path: Path, data: Optional[bytes]) -> Optional[np.ndarray]:
    """Decodes the image file `path`, whose bytes are `data`, into (H, W) or (H, W, C) pixels of uint8
    (uint16 / float32 for 16-bit / float images; 16-bit colour PNGs keep their 16 bits). With `data`
    None, only checks the header of the file (format, size) and returns None."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path if data is None else io.BytesIO(data)) as opened:
            img: Any = opened  # convert() gives an Image, not the ImageFile open() returns
            if img.format not in FILE_FORMATS:
                raise InvalidArgumentError(
                    f"load_texture: '{path}' is a {img.format} image; supported: {', '.join(FILE_FORMATS)}")
            if max(img.size) > MAX_TEXTURE2D_SIZE:  # before decoding: the header may claim anything
                raise InvalidArgumentError(
                    f"load_texture: '{path}' is {img.size[0]}x{img.size[1]}; a D3D12 2D texture is at most "
                    f"{MAX_TEXTURE2D_SIZE} texels on a side (D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION)")
            if data is None:
                return None
            mode = img.mode
            wide = _read_16bit_colour(img, data, path)
            if wide is not None:
                return wide
            if mode in ("L", "LA", "RGB", "RGBA"):
                pass
            elif mode in ("I;16", "I;16B", "I;16L"):
                return np.asarray(img, dtype=np.uint16)
            elif mode == "I":
                return np.asarray(img).astype(np.uint16)  # 16-bit greyscale PNGs open as 32-bit 'I'
            elif mode == "F":
                return np.asarray(img, dtype=np.float32)
            elif mode == "1":
                img = img.convert("L")
            elif mode == "P":
                img = img.convert("RGBA" if "transparency" in img.info else "RGB")
            elif mode == "PA":
                img = img.convert("RGBA")
            else:  # CMYK, YCbCr, LAB, HSV...
                img = img.convert("RGB")
            return np.asarray(img, dtype=np.uint8)
    except InvalidArgumentError:
        raise  # ours, already naming the file (it is a ValueError too)
    except Image.DecompressionBombError as e:  # Pillow's own limit (PIL.Image.MAX_IMAGE_PIXELS) refuses it first
        raise InvalidArgumentError(f"load_texture: '{path}' is refused by Pillow's decompression-bomb check ({e}); "
                                   "raise PIL.Image.MAX_IMAGE_PIXELS to load it") from None
    except UnidentifiedImageError as e:
        raise InvalidArgumentError(f"load_texture: '{path}' is not an image Pillow can read ({e})") from None
    except (OSError, SyntaxError, ValueError) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise InvalidArgumentError(f"load_texture: cannot read '{path}': {e}") from None


# 16-bit PNG colour images: Pillow has no 16-bit RGB(A) or LA modes and decodes them to 8 bits
# (mode RGB/RGBA from raw modes "RGB;16B", "RGBA;16B", "LA;16B"). Its PNG decoder is run again with
# another raw mode of the same bits per pixel: "RGB;16L"/"RGBA;16L" take the other (low) byte of each
# big-endian sample, "RGBA" (8 bits x 4) the 4 bytes of an LA;16B pixel as they are.
_WIDE_PNG = {"RGB;16B": 3, "RGBA;16B": 4, "LA;16B": 2}


def _decode_tile(data: bytes, rawmode: str) -> np.ndarray:
    """The PNG file `data` decoded with its tile's raw mode replaced by `rawmode`."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as again:
        tiles: Any = [t._replace(args=rawmode) if hasattr(t, "_replace") else (t[0], t[1], t[2], rawmode)
                      for t in again.tile]
        again.tile = tiles
        again.load()
        return np.asarray(again)


def _read_16bit_colour(img: Any, data: bytes, path: Path) -> Optional[np.ndarray]:
    """(H, W, C) uint16 pixels of a 16-bit RGB, RGBA or grey+alpha PNG (C = 3, 4, 2), or None for
    any other image."""
    if img.format != "PNG" or len(img.tile) != 1:
        return None
    tile = img.tile[0]
    rawmode = tile[3] if isinstance(tile[3], str) else (tile[3][0] if tile[3] else None)
    channels = _WIDE_PNG.get(rawmode) if isinstance(rawmode, str) else None
    if channels is None or not isinstance(rawmode, str):
        return None
    try:
        if rawmode == "LA;16B":
            raw = _decode_tile(data, "RGBA")  # bytes L_hi L_lo A_hi A_lo
            return raw.reshape(raw.shape[0], raw.shape[1], 4).view(">u2").astype(np.uint16)
        high = _decode_tile(data, rawmode).astype(np.uint16)
        low = _decode_tile(data, rawmode.replace(";16B", ";16L")).astype(np.uint16)
    except (ValueError, OSError, TypeError) as e:
        raise InvalidArgumentError(f"load_texture: '{path}' is a 16-bit {rawmode[:-4]} PNG that this Pillow "
                                   f"cannot decode at 16 bits ({e}); load it as a uint16 numpy array yourself") from None
    return (high << 8) | low


def _upload(device: Any, pixels: np.ndarray, fmt: str, generate_mips: bool, name: str, rep: Optional[Progress] = None) -> Any:
    h, w = pixels.shape[:2]
    tex = device.create_texture2d(w, h, fmt, mip_levels=0 if generate_mips else 1, name=name)
    q = device.queue("direct")
    cl = q.command_list()
    cl.upload(tex, pixels)
    mips = generate_mips and tex.mip_levels > 1
    if rep is not None:  # the upload and the mips as separate steps (one more wait)
        q.wait(q.execute(cl))
        rep.update(2, 3 if mips else 2)
        if not mips:
            return tex
        cl = q.command_list()
    if mips:
        cl.generate_mips(tex)
    q.wait(q.execute(cl))
    if rep is not None:
        rep.update(3, 3)
    return tex


#: Auto progress (progress=None) shows a bar for images of at least this many texels.
PROGRESS_TEXELS = 1 << 20


def _reporter(progress: ProgressArg, texels: int, mips: bool) -> Optional[Progress]:
    if progress is None and texels < PROGRESS_TEXELS:
        return None
    rep = reporter(progress, "load_texture", "step", 3 if mips else 2)
    return rep


_SRGB_OF = {"rgba8_unorm": "rgba8_unorm_srgb", "bgra8_unorm": "bgra8_unorm_srgb", "bgrx8_unorm": "bgrx8_unorm_srgb",
            "bc1_unorm": "bc1_unorm_srgb", "bc2_unorm": "bc2_unorm_srgb", "bc3_unorm": "bc3_unorm_srgb",
            "bc7_unorm": "bc7_unorm_srgb", "rgba8_typeless": "rgba8_unorm_srgb", "bgra8_typeless": "bgra8_unorm_srgb",
            "bc1_typeless": "bc1_unorm_srgb", "bc2_typeless": "bc2_unorm_srgb", "bc3_typeless": "bc3_unorm_srgb",
            "bc7_typeless": "bc7_unorm_srgb"}


def _upload_dds(device: Any, image: "dds.DdsImage", srgb: bool, generate_mips: bool, name: str) -> Any:
    """A texture of the DDS file's format, size, mips and slices (a cube for a cube map, 3D for a volume)."""
    fmt = image.format
    if srgb and not fmt.endswith("_srgb"):
        if fmt not in _SRGB_OF:
            raise InvalidArgumentError(f"load_texture: '{image.path}' holds {fmt}, which has no sRGB form; "
                                       "srgb=True needs rgba8, bgra8, bgrx8, BC1, BC2, BC3 or BC7 data")
        fmt = _SRGB_OF[fmt]
    plain_2d = not image.cube and not image.volume and image.depth == 1 and image.array_size == 1
    generate = generate_mips and image.mip_levels == 1 and plain_2d and not image.block_compressed
    if generate and not device.format_support(fmt).mip_autogen:
        raise InvalidArgumentError(f"load_texture: '{image.path}' holds {fmt}, whose mips generate_mips cannot make on this "
                                   f"device (format_support('{fmt}').mip_autogen is False); pass generate_mips=False, "
                                   "or store the mips in the file")
    try:
        return _create_dds_texture(device, image, fmt, generate, name)
    except InvalidArgumentError as e:   # the device's refusal (size, format), named with the file
        raise InvalidArgumentError(f"load_texture: '{image.path}' ({image.width}x{image.height} {fmt}): {e}") from None


def _create_dds_texture(device: Any, image: "dds.DdsImage", fmt: str, generate: bool, name: str) -> Any:
    if image.cube:
        tex = device.create_texture_cube(image.width, fmt, mip_levels=image.mip_levels, name=name)
    elif image.volume or image.depth > 1:
        tex = device.create_texture3d(image.width, image.height, image.depth, fmt, mip_levels=image.mip_levels, name=name)
    else:
        tex = device.create_texture2d(image.width, image.height, fmt, mip_levels=0 if generate else image.mip_levels,
                                      array_size=image.array_size, name=name)
    q = device.queue("direct")
    cl = q.command_list()
    for element, mips in enumerate(image.surfaces):
        for mip, data in enumerate(mips):
            cl.upload(tex, np.frombuffer(data, dtype=np.uint8), mip=mip, array_slice=element)
    if generate and tex.mip_levels > 1:
        cl.generate_mips(tex)
    q.wait(q.execute(cl))
    return tex


def load_texture(device: Any, path_or_array: Any, *, srgb: bool = False, generate_mips: bool = True,
                 name: Optional[str] = None, progress: ProgressArg = None) -> Any:
    """See :meth:`Device.load_texture`."""
    if not isinstance(srgb, bool) or not isinstance(generate_mips, bool):
        raise TypeError("load_texture: srgb and generate_mips must be bool")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"load_texture: name must be a str or None, not {type(name).__name__}")
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        reporter(progress, "load_texture")  # raises TypeError naming the argument
    if isinstance(path_or_array, np.ndarray):
        pixels, fmt = _pixels(path_or_array, srgb, f"the array of dtype {path_or_array.dtype}")
        rep = _reporter(progress, pixels.shape[0] * pixels.shape[1], generate_mips)
        try:
            if rep is not None:
                rep.update(1, 3 if generate_mips else 2)
            return _upload(device, pixels, fmt, generate_mips, name or "texture", rep)
        finally:
            if rep is not None:
                rep.close()
    if not isinstance(path_or_array, (str, os.PathLike)):
        raise TypeError(f"load_texture: expected a path (str, os.PathLike) or a numpy array, not {type(path_or_array).__name__}")
    raw = os.fspath(path_or_array)
    if isinstance(raw, bytes):
        raw = os.fsdecode(raw)
    try:
        path = Path(raw).resolve()
    except RuntimeError as e:  # a symlink loop (Python < 3.13 raises RuntimeError)
        raise InvalidArgumentError(f"load_texture: cannot resolve '{raw}': {e}") from None
    try:
        path.stat()  # FileNotFoundError for a missing file
    except FileNotFoundError:
        raise
    except OSError as e:  # ELOOP and friends
        raise InvalidArgumentError(f"load_texture: cannot read '{path}': {e}") from None
    if not path.is_file():
        raise InvalidArgumentError(f"load_texture: '{path}' is not a file")
    try:
        with open(path, "rb") as f:
            is_dds = dds.is_dds(f.read(4))
    except FileNotFoundError:
        raise
    except OSError as e:
        raise InvalidArgumentError(f"load_texture: cannot read '{path}': {e}") from None
    if not is_dds:
        _read_image(path, None)  # the header first: a file that is no image is refused before being read whole
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as e:
        raise InvalidArgumentError(f"load_texture: cannot read '{path}': {e}") from None
    key = (str(path), len(data), hashlib.sha256(data).digest(), srgb, generate_mips)
    with _lock:
        hit = _cached(device, key)
        if hit is not None:
            return hit
        file_lock = _loading.setdefault((id(device), key), threading.Lock())
    try:
        with file_lock:  # one load per file at a time; a thread that waited finds the texture cached
            with _lock:
                hit = _cached(device, key)
            if hit is not None:
                return hit
            if is_dds:
                tex = _upload_dds(device, dds.parse_dds(str(path), data), srgb, generate_mips, name or path.name)
            else:
                # Decoding is a step of its own: the header says how large the image is.
                # (the size decides only when progress is left to None; read from the bytes already in memory)
                rep = _reporter(progress, _image_texels(io.BytesIO(data)) if progress is None else 0, generate_mips)
                try:
                    image = _read_image(path, data)
                    assert image is not None
                    pixels, fmt = _pixels(image, srgb, f"'{path}'")
                    if rep is not None:
                        rep.update(1, 3 if generate_mips else 2)
                    tex = _upload(device, pixels, fmt, generate_mips, name or path.name, rep)
                finally:
                    if rep is not None:
                        rep.close()
            with _lock:
                _cache.setdefault(device, {})[key] = weakref.ref(tex)
            return tex
    finally:
        with _lock:
            if _loading.get((id(device), key)) is file_lock:
                del _loading[(id(device), key)]


def _image_texels(source: Any) -> int:
    """Width x height from an image file's header (a path or a binary file object; 0 when it cannot be read)."""
    from PIL import Image

    try:
        with Image.open(source) as img:
            return int(img.size[0]) * int(img.size[1])
    except Exception:  # the decode that follows reports what is wrong with the file
        return 0


def _cached(device: Any, key: Tuple[Any, ...]) -> Any:
    """The live cached texture of `key` (caller holds _lock); prunes dead entries of the device."""
    entries = _cache.get(device)
    if not entries:
        return None
    ref = entries.get(key)
    tex = ref() if ref is not None else None
    if tex is None or tex.closed:
        for k in [k for k, r in entries.items() if r() is None]:
            del entries[k]
        entries.pop(key, None)
        return None
    return tex
