"""Every code block of README.md and docs/**/*.rst is either a program that runs, or a marked fragment.

A Python block (```python in Markdown, ``.. code-block:: python`` in reStructuredText) runs as a script of
its own in a fresh process, in an empty temporary folder, and must exit 0 (the blocks check their own
results with ``assert``). A block that cannot run alone starts with a line ``# fragment`` saying what
it assumes, and is kept short. Other blocks name their language (sh, bat, text, hlsl, ...) and are not
run; reStructuredText's bare ``::`` literal blocks are not allowed, so nothing escapes this test by
having no language.
"""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parents[1]
FRAGMENT_MARK = "# fragment"
FRAGMENT_MAX_LINES = 15
LANGUAGES = {"python", "sh", "bat", "text", "hlsl", "console", "cpp", "json"}


@dataclass
class Block:
    path: Path
    line: int          # 1-based line of the block's first code line
    language: str
    code: str

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def is_fragment(self) -> bool:
        first = next((ln for ln in self.code.splitlines() if ln.strip()), "")
        return first.strip().startswith(FRAGMENT_MARK)


def markdown_blocks(path: Path) -> List[Block]:
    blocks: List[Block] = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            blocks.append(Block(path, i + 2, m.group(1), "\n".join(lines[i + 1:j]) + "\n"))
            i = j + 1
        else:
            i += 1
    return blocks


def rst_blocks(path: Path) -> List[Block]:
    blocks: List[Block] = []
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)\.\. (?:code-block|code|sourcecode)::\s*(\S*)\s*$", line)
        if not m:
            continue
        indent = len(m.group(1))
        j = i + 1
        while j < len(lines) and re.match(r"^\s+:[\w-]+:", lines[j]):   # options
            j += 1
        body: List[str] = []
        start = None
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
            if lines[j].strip() and start is None:
                start = j
            body.append(lines[j])
            j += 1
        if start is None:
            continue
        text = "\n".join(body)
        # dedent by the first code line's indent
        first = lines[start]
        pad = len(first) - len(first.lstrip())
        code = "\n".join(ln[pad:] if ln.strip() else "" for ln in text.splitlines()).strip("\n") + "\n"
        blocks.append(Block(path, start + 1, m.group(2), code))
    return blocks


def bare_literal_blocks(path: Path) -> List[int]:
    """Lines of reStructuredText paragraphs ending in ``::`` (a literal block without a language)."""
    found = []
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^\s*\.\. ", line):
            continue
        if line.rstrip().endswith("::") and not line.strip().startswith(".."):
            nxt = next((ln for ln in lines[i + 1:] if ln.strip()), "")
            if len(nxt) - len(nxt.lstrip()) > len(line) - len(line.lstrip()):
                found.append(i + 1)
    return found


def documents() -> List[Path]:
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.rst"))


def all_blocks() -> List[Block]:
    out: List[Block] = []
    for p in documents():
        out += markdown_blocks(p) if p.suffix == ".md" else rst_blocks(p)
    return out


BLOCKS = all_blocks()
PROGRAMS = [b for b in BLOCKS if b.language == "python" and not b.is_fragment]


def test_blocks_are_found():
    assert any(b.path.name == "README.md" for b in PROGRAMS)
    assert len(PROGRAMS) >= 15, [b.id for b in PROGRAMS]


@pytest.mark.parametrize("block", [b for b in BLOCKS], ids=lambda b: b.id)
def test_every_block_names_a_known_language(block: Block):
    assert block.language in LANGUAGES, f"{block.id}: code block language {block.language!r} (one of {sorted(LANGUAGES)})"


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_bare_literal_blocks(path: Path):
    if path.suffix != ".rst":
        return
    assert not bare_literal_blocks(path), (
        f"{path.relative_to(ROOT)} lines {bare_literal_blocks(path)}: write '.. code-block:: python' "
        "(or text, sh, ...) instead of '::', so the block is run or marked")


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.language == "python" and b.is_fragment], ids=lambda b: b.id)
def test_fragments_are_short(block: Block):
    n = len(block.code.strip().splitlines())
    assert n <= FRAGMENT_MAX_LINES, f"{block.id}: a fragment of {n} lines; make it a complete program that runs"


@pytest.mark.parametrize("block", PROGRAMS, ids=lambda b: b.id)
def test_python_block_runs(block: Block, tmp_path: Path):
    script = tmp_path / "block.py"
    script.write_text(block.code)
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{block.id} failed (exit {r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
