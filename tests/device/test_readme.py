"""The README's complete example runs as written, on the real device."""
from __future__ import annotations

import re
from pathlib import Path


def test_readme_example_runs():
    readme = Path(__file__).resolve().parents[2] / "README.md"
    block = re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)[0]
    exec(compile(block, str(readme), "exec"), {"__name__": "readme_example"})


def test_demo_writes_png(tmp_path):
    from dx12kit.__main__ import main

    out = tmp_path / "demo.png"
    assert main(["demo", "--out", str(out), "--size", "64"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import numpy as np
    from PIL import Image

    img = np.asarray(Image.open(out).convert("RGBA"))
    s = 64
    assert img.shape == (2 * s, 2 * s, 4)
    flat, mipped = img[:s, :s, :3].astype(float), img[:s, s:, :3].astype(float)
    # Minified 8x: without mips the samples alias (a noisy panel), with mips they average (smoother).
    assert mipped.std() < flat.std(), (mipped.std(), flat.std())
    # The edge at x4 has partly covered pixels: more distinct colours than at x1.
    x1, x4 = img[s:, :s].reshape(-1, 4), img[s:, s:].reshape(-1, 4)
    assert len(np.unique(x4, axis=0)) > len(np.unique(x1, axis=0))


def test_readme_memory_example_runs(tmp_path, monkeypatch):
    readme = Path(__file__).resolve().parents[2] / "README.md"
    section = readme.read_text().split("## Memory", 1)[1]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(block, str(readme), "exec"), {"__name__": "readme_memory_example"})
    assert (tmp_path / "heap-map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_readme_aliasing_and_defragmentation_examples_run(tmp_path, monkeypatch):
    readme = Path(__file__).resolve().parents[2] / "README.md"
    text = readme.read_text()
    monkeypatch.chdir(tmp_path)
    for title in ("### Aliasing", "### Defragmentation"):
        block = re.findall(r"```python\n(.*?)```", text.split(title, 1)[1], re.S)[0]
        exec(compile(block, str(readme), "exec"), {"__name__": "readme_example"})
    assert (tmp_path / "before.png").exists() and (tmp_path / "after.png").exists()


def test_readme_msaa_example_runs():
    readme = Path(__file__).resolve().parents[2] / "README.md"
    section = readme.read_text().split("### Anti-aliasing (MSAA) and resolve", 1)[1]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    exec(compile(block, str(readme), "exec"), {"__name__": "readme_msaa_example"})


def test_readme_textures_example_runs(tmp_path, monkeypatch):
    readme = Path(__file__).resolve().parents[2] / "README.md"
    section = readme.read_text().split("### Images, cube maps and 3D textures", 1)[1]
    block = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    monkeypatch.chdir(tmp_path)
    scope = {"__name__": "readme_textures_example"}
    exec(compile(block, str(readme), "exec"), scope)
    assert (scope["up"][64, 64] == [90, 150, 255, 255]).all()
    assert (scope["down"][64, 64] == [40, 120, 30, 255]).all()
