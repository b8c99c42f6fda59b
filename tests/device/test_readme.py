"""The README's first program runs as written in this process (tests/test_doc_blocks.py runs every block
in a process of its own), and the demo of scripts/demo.sh writes its PNG."""
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


def test_readme_first_program_runs():
    scope = run_readme_block("## A first program")
    assert scope["result"].shape == (1 << 16,)


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
