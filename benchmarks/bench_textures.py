"""Texture benchmarks ("Speed"): generate_mips of a 1024x1024 RGBA8 texture on the GPU
beside numpy and Pillow making the same 2x2 box-filter mip chain on the CPU.

- gpu_in_place: ``CommandList.generate_mips`` of a uav=True rgba8_unorm texture (10 mips, 3
  dispatches), execute, wait. Only the mips are timed (mip 0 is uploaded once).
- gpu_aliased: the same for bgra8_unorm (copy into a placed rgba8_unorm alias and back).
- numpy: each level as the rounded mean of 2x2 blocks (uint16 sums).
- pillow: ``Image.reduce(2)`` level by level (Pillow's 2x2 box reduction) of the four channels as
  plain 8-bit bands (mode CMYK: its RGBA mode would premultiply by alpha).

Each variant checks what it computed against the numpy chain (+-1 per level) before it is timed.
Run ``pytest benchmarks/bench_textures.py`` or ``python benchmarks/bench_textures.py`` (prints ms).
"""
from __future__ import annotations


import numpy as np
import pytest

import _gpu_common as g  # beside this file: on sys.path via conftest.py, or as the script's folder
from workloads import timed_runs

SIZE = 1024
LEVELS = 11   # 1024 .. 1


def numpy_mips(img: np.ndarray) -> list:
    out = [img]
    a = img
    while a.shape[0] > 1:
        s = a.astype(np.uint16)
        a = ((s[0::2, 0::2] + s[1::2, 0::2] + s[0::2, 1::2] + s[1::2, 1::2] + 2) >> 2).astype(np.uint8)
        out.append(a)
    return out


def pillow_mips(img: np.ndarray) -> list:
    from PIL import Image

    # As four plain 8-bit channels: Pillow's RGBA reduction would weight colours by alpha.
    im = Image.frombytes("CMYK", (img.shape[1], img.shape[0]), img.tobytes())
    out = [img]
    while im.size[0] > 1:
        im = im.reduce(2)
        out.append(np.frombuffer(im.tobytes(), np.uint8).reshape(im.size[1], im.size[0], 4))
    return out


def check(levels: list, ref: list, what: str) -> None:
    assert len(levels) == len(ref) == LEVELS, what
    for m, (a, b) in enumerate(zip(levels, ref)):
        assert a.shape == b.shape, f"{what} mip {m}"
        # the reference rounds at each level; a one-level rounding difference per level is allowed
        assert np.abs(a.astype(np.int16) - b.astype(np.int16)).max() <= 1 + m // 4, f"{what} mip {m}"


class GpuMips:
    def __init__(self, fmt: str, uav: bool):
        self.dev, self.q = g.device()
        self.img = np.random.default_rng(0).integers(0, 256, (SIZE, SIZE, 4), dtype=np.uint8)
        self.tex = self.dev.create_texture2d(SIZE, SIZE, fmt, mip_levels=0, uav=uav, name=f"bench_mips_{fmt}")
        cl = self.q.command_list()
        cl.upload(self.tex, self.img)
        self.q.wait(self.q.execute(cl))

    def run(self) -> None:
        cl = self.q.command_list()
        cl.generate_mips(self.tex)
        self.q.wait(self.q.execute(cl))

    def verify(self) -> None:
        self.run()
        check([self.q.read_texture(self.tex, mip=m) for m in range(LEVELS)], numpy_mips(self.img), "gpu")


@pytest.fixture(scope="module")
def img():
    return np.random.default_rng(0).integers(0, 256, (SIZE, SIZE, 4), dtype=np.uint8)


@pytest.mark.benchmark(group="generate_mips_1024")
def test_gpu_in_place(benchmark):
    w = GpuMips("rgba8_unorm", True)
    w.verify()
    benchmark(w.run)


@pytest.mark.benchmark(group="generate_mips_1024")
def test_gpu_aliased_bgra(benchmark):
    w = GpuMips("bgra8_unorm", False)
    w.verify()
    benchmark(w.run)


@pytest.mark.benchmark(group="generate_mips_1024")
def test_numpy(benchmark, img):
    ref = numpy_mips(img)
    assert ref[-1].shape == (1, 1, 4)
    assert abs(float(ref[-1][0, 0, 0]) - img[..., 0].mean()) <= 2
    benchmark(numpy_mips, img)


@pytest.mark.benchmark(group="generate_mips_1024")
def test_pillow(benchmark, img):
    check(pillow_mips(img), numpy_mips(img), "pillow")
    benchmark(pillow_mips, img)


def _ms(fn, n: int = 10) -> float:
    return 1e3 * float(np.median(timed_runs(fn, reps=n, warmup=1)))


if __name__ == "__main__":
    image = np.random.default_rng(0).integers(0, 256, (SIZE, SIZE, 4), dtype=np.uint8)
    check(pillow_mips(image), numpy_mips(image), "pillow")
    rows = []
    for name, fmt, uav in (("gpu in place (rgba8_unorm, uav)", "rgba8_unorm", True), ("gpu aliased (bgra8_unorm)", "bgra8_unorm", False),
                           ("gpu staged (rgba8_unorm)", "rgba8_unorm", False)):
        w = GpuMips(fmt, uav)
        w.verify()
        rows.append((name, _ms(w.run)))
    rows.append(("numpy 2x2 box chain", _ms(lambda: numpy_mips(image))))
    rows.append(("Pillow reduce(2) chain", _ms(lambda: pillow_mips(image))))
    for name, ms in rows:
        print(f"{name:36s} {ms:8.2f} ms")
