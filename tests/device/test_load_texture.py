"""Device.load_texture: image files (Pillow) and numpy arrays into textures, and its file cache."""
from __future__ import annotations

import gc
import os
import threading
import weakref

import numpy as np
import pytest
from PIL import Image

import dx12kit as dx


def _image(h: int, w: int, channels: int, seed: int = 0, dtype=np.uint8) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        a = rng.random((h, w, channels)).astype(dtype)
    else:
        a = rng.integers(0, np.iinfo(dtype).max + 1, (h, w, channels), dtype=np.int64).astype(dtype)
    return a[:, :, 0] if channels == 1 else a


def _smooth(h: int, w: int) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x + y) * 255 // (w + h - 2)], -1).astype(np.uint8)


def _read(queue, tex, mip=0):
    return queue.read_texture(tex, mip)


@pytest.fixture
def files(tmp_path):
    return tmp_path


# ------------------------------------------------------------------------------------ files

@pytest.mark.parametrize("ext,fmt", [("png", "PNG"), ("bmp", "BMP"), ("tga", "TGA")])
def test_lossless_files_round_trip(device, queue, files, ext, fmt):
    rgba = _image(24, 40, 4, seed=1)
    rgb = _image(24, 40, 3, seed=2)
    p4, p3 = files / f"a4.{ext}", files / f"a3.{ext}"
    Image.fromarray(rgba, "RGBA").save(p4, format=fmt)
    Image.fromarray(rgb, "RGB").save(p3, format=fmt)
    t4 = device.load_texture(p4, generate_mips=False)
    assert t4.format == dx.Format.RGBA8_UNORM and t4.mip_levels == 1 and t4.name == p4.name
    # (32-bit BMPs are BI_RGB: no alpha in the file; Pillow reads them as RGB)
    expected = rgba if fmt != "BMP" else np.asarray(Image.open(p4).convert("RGBA"))
    assert np.array_equal(_read(queue, t4), expected)
    assert np.array_equal(_read(queue, t4)[..., :3], rgba[..., :3])
    t3 = device.load_texture(str(p3), generate_mips=False)
    got = _read(queue, t3)
    assert np.array_equal(got[..., :3], rgb) and (got[..., 3] == 255).all()


def test_png_grey_grey_alpha_and_16_bit(device, queue, files):
    grey = _image(16, 8, 1, seed=3)
    Image.fromarray(grey, "L").save(files / "l.png")
    t = device.load_texture(files / "l.png", generate_mips=False)
    assert t.format == dx.Format.R8_UNORM and np.array_equal(_read(queue, t)[..., 0], grey)
    la = _image(16, 8, 2, seed=4)
    Image.fromarray(la, "LA").save(files / "la.png")
    t = device.load_texture(files / "la.png", generate_mips=False)
    assert t.format == dx.Format.RG8_UNORM and np.array_equal(_read(queue, t), la)
    g16 = _image(16, 8, 1, seed=5, dtype=np.uint16)
    Image.fromarray(g16).save(files / "g16.png")
    t = device.load_texture(files / "g16.png", generate_mips=False)
    assert t.format == dx.Format.R16_UNORM and np.array_equal(_read(queue, t)[..., 0], g16)


def test_palette_png_gets_rgba(device, queue, files):
    rgb = _smooth(8, 8)
    Image.fromarray(rgb).convert("P").save(files / "p.png")
    expected = np.asarray(Image.open(files / "p.png").convert("RGB"))
    got = _read(queue, device.load_texture(files / "p.png", generate_mips=False))
    assert np.array_equal(got[..., :3], expected) and (got[..., 3] == 255).all()


def test_jpeg_within_its_loss(device, queue, files):
    rgb = _smooth(64, 96)
    Image.fromarray(rgb).save(files / "a.jpg", quality=95)
    tex = device.load_texture(files / "a.jpg", generate_mips=False)
    got = _read(queue, tex).astype(np.int16)
    assert tex.format == dx.Format.RGBA8_UNORM and (got[..., 3] == 255).all()
    err = np.abs(got[..., :3] - rgb)
    assert err.mean() < 1.5 and err.max() <= 12


def test_srgb_format_choice(device, queue, files):
    rgb = _image(8, 8, 3, seed=6)
    Image.fromarray(rgb).save(files / "c.png")
    t = device.load_texture(files / "c.png", srgb=True, generate_mips=False)
    assert t.format == dx.Format.RGBA8_UNORM_SRGB
    assert np.array_equal(_read(queue, t)[..., :3], rgb)  # bytes unchanged; views decode
    grey = _image(8, 8, 1, seed=7)
    t = device.load_texture(grey, srgb=True, generate_mips=False)
    got = _read(queue, t)
    assert t.format == dx.Format.RGBA8_UNORM_SRGB
    assert all(np.array_equal(got[..., c], grey) for c in range(3)) and (got[..., 3] == 255).all()
    for dtype in (np.uint16, np.float16, np.float32):
        with pytest.raises(dx.InvalidArgumentError, match="8-bit"):
            device.load_texture(np.zeros((4, 4, 4), dtype), srgb=True)


def test_full_mip_chain(device, queue, files):
    rgba = _image(32, 16, 4, seed=8)
    Image.fromarray(rgba).save(files / "m.png")
    tex = device.load_texture(files / "m.png")
    assert tex.mip_levels == 6
    assert np.array_equal(_read(queue, tex), rgba)
    box = rgba.astype(np.float64).reshape(16, 2, 8, 2, 4).mean(axis=(1, 3))
    assert np.abs(_read(queue, tex, 1).astype(np.float64) - box).max() <= 1.0
    last = _read(queue, tex, 5).astype(np.float64)
    assert np.abs(last[0, 0] - rgba.reshape(-1, 4).mean(axis=0)).max() <= 3.0


# ------------------------------------------------------------------------------------ arrays

DTYPES = [np.uint8, np.uint16, np.float16, np.float32]
FORMATS = {
    (np.uint8, 1): "R8_UNORM", (np.uint8, 2): "RG8_UNORM", (np.uint8, 3): "RGBA8_UNORM", (np.uint8, 4): "RGBA8_UNORM",
    (np.uint16, 1): "R16_UNORM", (np.uint16, 2): "RG16_UNORM", (np.uint16, 3): "RGBA16_UNORM", (np.uint16, 4): "RGBA16_UNORM",
    (np.float16, 1): "R16_FLOAT", (np.float16, 2): "RG16_FLOAT", (np.float16, 3): "RGBA16_FLOAT", (np.float16, 4): "RGBA16_FLOAT",
    (np.float32, 1): "R32_FLOAT", (np.float32, 2): "RG32_FLOAT", (np.float32, 3): "RGBA32_FLOAT", (np.float32, 4): "RGBA32_FLOAT",
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(12, 20), (12, 20, 1), (12, 20, 2), (12, 20, 3), (12, 20, 4)], ids=str)
def test_numpy_round_trip(device, queue, dtype, shape):
    channels = 1 if len(shape) == 2 else shape[2]
    a = _image(12, 20, channels, seed=channels, dtype=dtype).reshape(shape)
    tex = device.load_texture(a, generate_mips=False)
    assert tex.format == dx.Format[FORMATS[(dtype, channels)]] and tex.name == "texture"
    got = _read(queue, tex)
    assert got.dtype == np.dtype(dtype)
    flat = a.reshape(12, 20, channels)
    if channels == 3:
        opaque = {np.uint8: 255, np.uint16: 65535}.get(dtype, 1.0)
        assert np.array_equal(got[..., :3], flat) and (got[..., 3] == opaque).all()
    else:
        assert np.array_equal(got, flat)


def test_numpy_non_contiguous_and_name(device, queue):
    a = _image(16, 16, 4, seed=9)[::2, ::2]
    tex = device.load_texture(a, generate_mips=False, name="strided")
    assert tex.name == "strided" and np.array_equal(_read(queue, tex), a)


@pytest.mark.parametrize("dtype", [">u2", ">f2", ">f4"])
def test_big_endian_arrays_are_converted(device, queue, dtype):
    a = (np.arange(64).reshape(4, 4, 4) * 7).astype(dtype)
    tex = device.load_texture(a, generate_mips=False)
    assert np.array_equal(_read(queue, tex), a.astype(a.dtype.newbyteorder("=")))


def test_bad_arrays(device):
    with pytest.raises(TypeError, match="int32"):
        device.load_texture(np.zeros((4, 4), np.int32))
    with pytest.raises(TypeError, match="float64"):
        device.load_texture(np.zeros((4, 4), np.float64))
    with pytest.raises(dx.InvalidArgumentError, match="shape"):
        device.load_texture(np.zeros((4, 4, 5), np.uint8))
    with pytest.raises(dx.InvalidArgumentError, match="shape"):
        device.load_texture(np.zeros(16, np.uint8))
    with pytest.raises(dx.InvalidArgumentError, match="empty"):
        device.load_texture(np.zeros((0, 4, 4), np.uint8))


def test_wrong_types(device):
    for bad in (42, None, [[1, 2], [3, 4]], b"\x89PNG"):
        with pytest.raises(TypeError):
            device.load_texture(bad)
    with pytest.raises(TypeError):
        device.load_texture(np.zeros((4, 4), np.uint8), name=3)
    for bad in (None, 1, "yes"):  # not taken as a truth value
        with pytest.raises(TypeError, match="srgb"):
            device.load_texture(np.zeros((4, 4), np.uint8), srgb=bad)
        with pytest.raises(TypeError, match="generate_mips"):
            device.load_texture(np.zeros((4, 4), np.uint8), generate_mips=bad)


# ------------------------------------------------------------------------------------ errors

def test_missing_and_bad_files(device, files):
    with pytest.raises(FileNotFoundError):
        device.load_texture(files / "nope.png")
    (files / "junk.png").write_bytes(b"this is not an image")
    with pytest.raises(dx.InvalidArgumentError, match="junk.png"):
        device.load_texture(files / "junk.png")
    Image.fromarray(_smooth(8, 8)).save(files / "ok.png")
    (files / "cut.png").write_bytes((files / "ok.png").read_bytes()[:60])  # truncated
    with pytest.raises(dx.InvalidArgumentError, match="cut.png"):
        device.load_texture(files / "cut.png")
    Image.fromarray(_smooth(8, 8)).save(files / "a.gif")
    with pytest.raises(dx.InvalidArgumentError, match="a.gif.*GIF.*PNG, JPEG, BMP, TGA"):
        device.load_texture(files / "a.gif")
    with pytest.raises(dx.InvalidArgumentError, match="not a file"):
        device.load_texture(files)
    os.symlink(files / "loop.png", files / "loop.png")
    with pytest.raises(dx.InvalidArgumentError, match="loop.png"):
        device.load_texture(files / "loop.png")


def test_oversized_images_are_refused_before_decoding(device, files):
    Image.new("L", (16385, 4)).save(files / "wide.png")
    with pytest.raises(dx.InvalidArgumentError, match="wide.png.*16385x4.*16384"):
        device.load_texture(files / "wide.png")
    # A header claiming far more than it holds: Pillow's decompression-bomb check, reported as ours.
    (files / "bomb.bmp").write_bytes(b"BM" + (0).to_bytes(4, "little") + b"\0\0\0\0" + (54).to_bytes(4, "little")
                                     + (40).to_bytes(4, "little") + (1 << 30).to_bytes(4, "little") + (1 << 30).to_bytes(4, "little")
                                     + (1).to_bytes(2, "little") + (24).to_bytes(2, "little") + bytes(24))
    with pytest.raises(dx.InvalidArgumentError, match="bomb.bmp"):
        device.load_texture(files / "bomb.bmp")


# ------------------------------------------------------------------------------------ cache

def test_cache_returns_the_same_texture(device, files, monkeypatch):
    Image.fromarray(_smooth(8, 8)).save(files / "s.png")
    a = device.load_texture(files / "s.png")
    assert device.load_texture(str(files / "s.png")) is a
    assert device.load_texture(files / "." / "s.png") is a          # resolved path
    monkeypatch.chdir(files)
    assert device.load_texture("s.png") is a
    assert device.load_texture("s.png", srgb=True) is not a          # another format
    assert device.load_texture("s.png", generate_mips=False) is not a
    other = dx.Device()
    assert other.load_texture("s.png") is not a                      # per device


def test_cache_new_texture_after_the_file_changes(device, queue, files):
    p = files / "c.png"
    first = _image(8, 8, 4, seed=10)
    Image.fromarray(first).save(p)
    os.utime(p, ns=(1_000_000_000, 1_000_000_000))
    a = device.load_texture(p, generate_mips=False)
    second = _image(8, 8, 4, seed=11)
    Image.fromarray(second).save(p)
    os.utime(p, ns=(2_000_000_000, 2_000_000_000))
    b = device.load_texture(p, generate_mips=False)
    assert b is not a
    assert np.array_equal(_read(queue, a), first) and np.array_equal(_read(queue, b), second)
    assert device.load_texture(p, generate_mips=False) is b


def test_cache_new_texture_after_the_old_one_died(device, files):
    Image.fromarray(_smooth(8, 8)).save(files / "d.png")
    a = device.load_texture(files / "d.png")
    dead = weakref.ref(a)
    del a
    gc.collect()
    assert dead() is None                       # the cache holds no strong reference
    b = device.load_texture(files / "d.png")
    assert isinstance(b, dx.Texture) and not b.closed
    b.close()
    c = device.load_texture(files / "d.png")    # a closed texture is not handed out again
    assert c is not b and not c.closed


def test_cache_is_thread_safe(device, files):
    Image.fromarray(_image(64, 64, 4, seed=12)).save(files / "t.png")
    results, errors = [], []

    def load():
        try:
            results.append(device.load_texture(files / "t.png"))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=load) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 8
    assert all(r is results[0] for r in results)
