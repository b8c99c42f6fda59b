"""The programs in examples/ run as a user runs them (a fresh process, the output folder as argument) and
write what they say: each output is checked against numpy or the pixels the scene must give."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(name: str, out: Path) -> str:
    r = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), str(out)], cwd=out, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, f"examples/{name}.py failed (exit {r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def load_png(path: Path) -> np.ndarray:
    from PIL import Image

    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
    return np.asarray(Image.open(path).convert("RGBA"))


def test_every_example_is_tested():
    tested = {name[len("test_"):] for name in globals() if name.startswith("test_") and name != "test_every_example_is_tested"}
    assert {p.stem for p in EXAMPLES.glob("*.py")} == tested
    assert len(tested) >= 8


def test_compute_numpy(tmp_path):
    run_example("compute_numpy", tmp_path)
    r = np.load(tmp_path / "compute_numpy.npz")
    assert np.array_equal(r["histogram"], np.bincount(r["data"] % 16, minlength=16))
    assert r["histogram"].sum() == len(r["data"]) == 10_000
    np.testing.assert_allclose(r["squares"], r["x"] * r["x"] + 1.0, rtol=1e-6)


def test_textured_quad(tmp_path):
    run_example("textured_quad", tmp_path)
    img = load_png(tmp_path / "textured_quad.png")
    sys.path.insert(0, str(EXAMPLES))
    try:
        from textured_quad import checkerboard
    finally:
        sys.path.remove(str(EXAMPLES))
    expected = np.empty((64, 64, 4), np.uint8)
    expected[:] = [26, 26, 26, 255]                      # the clear colour, 0.1 * 255 rounded
    # The quad covers pixels 16..47; with point sampling each of the 8x8 texels covers 4x4 pixels.
    expected[16:48, 16:48] = np.repeat(np.repeat(checkerboard(), 4, axis=0), 4, axis=1)
    assert np.abs(img.astype(int) - expected).max() <= 1


def test_instancing(tmp_path):
    run_example("instancing", tmp_path)
    img = load_png(tmp_path / "instancing.png")
    for row in range(4):
        for col in range(4):
            cy, cx = 16 * row + 8, 16 * col + 8          # the centre of the instance's cell
            expected = np.round(np.array([col / 3, row / 3, 0.5, 1.0]) * 255)
            assert np.abs(img[cy, cx].astype(int) - expected).max() <= 1, (row, col, img[cy, cx])
            assert (img[cy, cx - 6, :3] == 0).all()       # between squares: the clear colour
    # Each square is half a cell wide: 8x8 pixels, 16 of them.
    assert (img[..., 3] == 255).all() and (img[..., :3].any(axis=-1)).sum() == 16 * 8 * 8


def test_mipmaps(tmp_path):
    run_example("mipmaps", tmp_path)
    mips = np.load(tmp_path / "mipmaps.npz")
    panels = load_png(tmp_path / "mipmaps.png")
    assert panels.shape == (64, 7 * 64, 4)
    for k in range(7):
        mip = mips[f"mip{k}"]
        assert mip.shape == (64 >> k, 64 >> k, 4)
        if k:
            # Power-of-two sizes: each texel is the mean of the 2x2 texels above it (8-bit rounding).
            above = mips[f"mip{k - 1}"].astype(float)
            box = (above[0::2, 0::2] + above[1::2, 0::2] + above[0::2, 1::2] + above[1::2, 1::2]) / 4
            assert np.abs(mip - box).max() <= 1, k
        # Panel k samples mip k with a point sampler: each texel covers 2^k x 2^k pixels.
        upscaled = np.repeat(np.repeat(mip, 1 << k, axis=0), 1 << k, axis=1)
        assert np.array_equal(panels[:, 64 * k:64 * (k + 1)], upscaled), k


def test_msaa(tmp_path):
    run_example("msaa", tmp_path)
    img = load_png(tmp_path / "msaa.png")[..., 0].astype(int)
    x1, x4 = img[:, :32], img[:, 32:]
    assert set(np.unique(x1)) == {0, 255}                # one sample: every pixel in or out
    partial = (x4 > 0) & (x4 < 255)
    assert partial.sum() >= 20                           # the edges are anti-aliased
    # 4 samples: covered fractions 1/4, 2/4, 3/4 of 255.
    assert all(min(abs(v - c) for c in (64, 128, 191)) <= 2 for v in x4[partial])
    # Where one sample says fully inside or outside, away from the edges, both agree.
    interior = (x1 == 255) & (np.roll(x1, 1, 0) == 255) & (np.roll(x1, -1, 0) == 255) & (np.roll(x1, 1, 1) == 255) & (np.roll(x1, -1, 1) == 255)
    assert (x4[interior] == 255).all() and interior.sum() > 100


def test_deferred_graph(tmp_path):
    run_example("deferred_graph", tmp_path)
    img = load_png(tmp_path / "deferred.png").astype(float)
    assert load_png(tmp_path / "deferred_graph.png").shape[0] > 0

    def shade(albedo, normal):
        light = np.array([0.0, 0.6, 0.8])
        hdr = np.array(albedo) * (0.1 + 2.0 * max(float(np.dot(normal, light)), 0.0))
        return np.round(hdr / (1 + hdr) * 255)

    floor = shade((0.8, 0.8, 0.8), (0.0, 0.0, 1.0))
    panel = shade((1.0, 0.3, 0.1), (0.0, 0.6, 0.8))
    # The panel (nearer, drawn second) covers NDC [-0.5, 0.5]^2: pixels 16..47. Albedo is 8-bit, normals 16-bit float.
    assert np.abs(img[32, 32, :3] - panel).max() <= 3, img[32, 32]
    assert np.abs(img[16:48, 16:48, :3] - panel).max() <= 3
    assert np.abs(img[4, 4, :3] - floor).max() <= 3, img[4, 4]
    assert np.abs(img[60, 30, :3] - floor).max() <= 3


def test_gpu_culling(tmp_path):
    run_example("gpu_culling", tmp_path)
    r = np.load(tmp_path / "gpu_culling.npz")
    inst, (x0, y0, x1, y1) = r["instances"], r["view"]
    x, y, h = inst[:, 0], inst[:, 1], inst[:, 2]
    inside = (x + h > x0) & (x - h < x1) & (y + h > y0) & (y - h < y1)
    assert int(r["count"]) == inside.sum()
    assert r["commands"][:, 2:].tolist() == [[4, 1, 0, 0]] * int(inside.sum())   # one draw per command, its CBV before it
    assert r["visible"].tolist() == np.flatnonzero(inside).tolist()
    assert 0 < inside.sum() < len(inst)
    img = load_png(tmp_path / "gpu_culling.png")
    for i, (cx, cy, _, _) in enumerate(inst):
        px, py = int((cx + 1) * 32), int((1 - cy) * 32)   # the square's centre pixel
        drawn = img[py, px, :3].any()
        assert drawn == inside[i], (i, img[py, px])


def test_gpu_timestamps(tmp_path):
    run_example("gpu_timestamps", tmp_path)
    report = json.loads((tmp_path / "gpu_timestamps.json").read_text())
    ticks = report["ticks"]
    assert report["timestamp_frequency"] > 0 and len(ticks) == 6
    assert ticks == sorted(ticks) and ticks[-1] > ticks[0]
    assert set(report["passes_ms"]) == {"compute", "draw", "copy"}
    assert all(ms >= 0 for ms in report["passes_ms"].values())
    assert sum(report["passes_ms"].values()) <= report["frame_ms"] + 1e-9
    img = load_png(tmp_path / "gpu_timestamps.png")
    c = (np.arange(64) + 0.5) / 64
    assert np.abs(img[10, :, 0].astype(float) - np.round(c * 255)).max() <= 1
    assert np.abs(img[:, 10, 1].astype(float) - np.round(c * 255)).max() <= 1
