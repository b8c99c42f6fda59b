"""The core's built-in shaders (cpp/src/builtin/*.hlsl) are embedded as DXBC in generated headers;
each header must come from the current source (scripts/gen-builtin-shaders.sh regenerates them)."""
from __future__ import annotations

import hashlib
import pathlib
import re

import pytest

BUILTIN = pathlib.Path(__file__).resolve().parents[1] / "cpp" / "src" / "builtin"
SOURCES = sorted(BUILTIN.glob("*.hlsl"))


@pytest.mark.parametrize("src", SOURCES, ids=[s.name for s in SOURCES])
def test_generated_header_matches_its_source(src: pathlib.Path) -> None:
    header = src.with_suffix(".generated.hpp")
    assert header.exists(), f"{header.name} missing: run scripts/gen-builtin-shaders.sh"
    text = header.read_text()
    m = re.search(rf"^// {re.escape(src.name)} sha256 ([0-9a-f]{{64}})$", text, re.M)
    assert m, f"{header.name} does not record the hash of {src.name}"
    assert m.group(1) == hashlib.sha256(src.read_bytes()).hexdigest(), (
        f"{src.name} changed since {header.name} was generated: run scripts/gen-builtin-shaders.sh")


def test_every_header_has_its_source() -> None:
    for header in BUILTIN.glob("*.generated.hpp"):
        assert header.name.replace(".generated.hpp", ".hlsl") in {s.name for s in SOURCES}, header.name
