"""The package ships type stubs (py.typed, dx12core/*.pyi): the README example and the typed uses of the
public API in tests/typing/public_api.py type-check strictly."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest


def test_readme_example_passes_mypy_strict(tmp_path):
    pytest.importorskip("mypy")
    readme = Path(__file__).resolve().parents[1] / "README.md"
    example = tmp_path / "readme_example.py"
    example.write_text(re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)[0])
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(example)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_public_api_uses_pass_mypy_strict(tmp_path):
    """tests/typing/public_api.py: buffers (``create_buffer(n).size``), textures, queues, pipelines,
    samplers, the enums, pools, allocators and errors, as typed code uses them."""
    pytest.importorskip("mypy")
    path = Path(__file__).resolve().parent / "typing" / "public_api.py"
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                        str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_misuses_are_rejected_and_their_twins_accepted(tmp_path):
    """tests/typing/misuses.py: each deliberate misuse (a misspelt choice, a member of the wrong enum,
    a string or float for a size, a wrong use of a result) carries a ``# type: ignore[code]`` that
    mypy --strict reports as unused if it stops rejecting the misuse; the correct twins must pass."""
    pytest.importorskip("mypy")
    path = Path(__file__).resolve().parent / "typing" / "misuses.py"
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                        str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert path.read_text().count("# type: ignore[") >= 12
