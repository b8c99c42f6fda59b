"""Texture loading benchmarks (Speed): ``Device.load_texture`` of a 1024x1024 RGB PNG,
with and without a mip chain, beside what the CPU alone takes to decode the file and make the RGBA
array (Pillow + numpy), and beside a cache hit (the same file loaded while its texture lives).

Each load's result is checked against Pillow's decode (mip 0 read back), so a fast wrong answer
cannot pass. The mip chain's contents are generate_mips' (benchmarked on its own); here only its
cost inside load_texture is measured.

Run ``pytest benchmarks/bench_load_texture.py`` (pytest-benchmark), or smoke-run it with
``--benchmark-disable``.
"""
from __future__ import annotations

import numpy as np
import pytest

import _gpu_common as g  # beside this file: on sys.path via conftest.py

SIZE = 1024


@pytest.fixture(scope="module")
def png(tmp_path_factory):
    from PIL import Image

    y, x = np.mgrid[0:SIZE, 0:SIZE]
    rng = np.random.default_rng(0)
    rgb = np.stack([x * 255 // (SIZE - 1), y * 255 // (SIZE - 1), rng.integers(0, 256, (SIZE, SIZE))], -1).astype(np.uint8)
    path = tmp_path_factory.mktemp("textures") / "bench.png"
    Image.fromarray(rgb).save(path)
    return path


def _pillow_rgba(path) -> np.ndarray:
    """What the CPU does alone: decode the PNG and add the alpha channel (load_texture's CPU part)."""
    from PIL import Image

    with Image.open(path) as img:
        rgb = np.asarray(img.convert("RGB"))
    out = np.empty(rgb.shape[:2] + (4,), np.uint8)
    out[..., :3] = rgb
    out[..., 3] = 255
    return out


def _check(queue, tex, path, mips: bool) -> None:
    assert tex.width == tex.height == SIZE
    assert tex.mip_levels == (11 if mips else 1)
    assert np.array_equal(queue.read_texture(tex), _pillow_rgba(path))


@pytest.mark.benchmark(group="load_texture 1024x1024 PNG")
def test_pillow_decode_numpy(benchmark, png):
    out = benchmark.pedantic(_pillow_rgba, args=(png,), rounds=5, warmup_rounds=1)
    assert out.shape == (SIZE, SIZE, 4) and (out[..., 3] == 255).all()


@pytest.mark.benchmark(group="load_texture 1024x1024 PNG")
@pytest.mark.parametrize("mips", [False, True], ids=["no_mips", "mips"])
def test_load_texture(benchmark, png, mips):
    dev, q = g.device()

    def load() -> None:
        dev.load_texture(png, generate_mips=mips)  # dropped at once: the next round loads again

    benchmark.pedantic(load, rounds=5, warmup_rounds=1)
    _check(q, dev.load_texture(png, generate_mips=mips), png, mips)


@pytest.mark.benchmark(group="load_texture 1024x1024 PNG")
def test_load_texture_cache_hit(benchmark, png):
    dev, q = g.device()
    held = dev.load_texture(png, generate_mips=False)
    got = benchmark.pedantic(dev.load_texture, args=(png,), kwargs={"generate_mips": False}, rounds=20, warmup_rounds=1)
    assert got is held
    _check(q, got, png, False)
