"""The README's complete examples run as written, on the real device."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, Optional

README = Path(__file__).resolve().parents[2] / "README.md"


def run_readme_block(after: Optional[str] = None) -> Dict[str, Any]:
    """Runs the first python block of README.md after the heading `after` (the first of all when
    None); returns the names it defined."""
    text = README.read_text()
    if after is not None:
        text = text.split(after, 1)[1]
    block = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    scope: Dict[str, Any] = {"__name__": "readme_example"}
    exec(compile(block, str(README), "exec"), scope)
    return scope


def test_readme_example_runs():
    run_readme_block()


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
    monkeypatch.chdir(tmp_path)
    run_readme_block("## Memory")
    assert (tmp_path / "heap-map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_readme_aliasing_and_defragmentation_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for title in ("### Aliasing", "### Defragmentation"):
        run_readme_block(title)
    assert (tmp_path / "before.png").exists() and (tmp_path / "after.png").exists()


def test_readme_msaa_example_runs():
    run_readme_block("### Anti-aliasing (MSAA) and resolve")


def test_readme_mips_example_runs():
    run_readme_block("### Mips")


def test_readme_textures_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scope = run_readme_block("### Images, cube maps and 3D textures")
    assert (scope["up"][64, 64] == [90, 150, 255, 255]).all()
    assert (scope["down"][64, 64] == [40, 120, 30, 255]).all()


def test_readme_matrices_example_runs():
    scope = run_readme_block("## Cameras and models: `dx12kit.matrices`")
    assert scope["constants"].shape == (4, 4) and scope["constants"].dtype.name == "float32"


def test_readme_pipeline_state_example_adds_up_two_sprites():
    scope = run_readme_block("## Every shader stage and the whole pipeline state")
    assert scope["pixels"][16, 16].tolist() == [1.0, 0.5, 0.0, 0.0]
    assert scope["pixels"][0, 0].tolist() == [0.0, 0.0, 0.0, 1.0]
