"""Mapping vkd3d-compiler's line and column numbers back to the expanded text's lines.

vkd3d-compiler numbers lines in its *preprocessed* text, and its preprocessor drops lines: the
lines of inactive ``#if``/``#else`` branches, the newlines inside a multi-line ``/* */`` comment or
inside a macro call spread over several lines, and the lexer counts no line for a ``#pragma`` (its
text counts in the columns of the next line).
Its columns are columns of that preprocessed text too (tokens re-spaced: ``main ( ) {``). Linemarkers
(``# 50 "x.hlsl"``) cannot fix the numbering: the compiler accepts them only between top-level
declarations (inside a function or a declaration they are a syntax error).

So when the compiler reports messages, dx12kit runs its preprocessor (``-E``) once more on the same
text with a tag token (``__dx12kit_line_N``) at the start of every non-directive line (after the
``*/`` for a line that starts inside a comment). In that output, line N (not counting ``#pragma``
lines) is the compiler's line N, and the last tag before a column names the expanded line the token
at that column came from. The column is then found in that source line by the token's text
(the k-th occurrence of it after the tag); when the token does not appear there (it came from a
macro's body), the column of the start of the line's code is given.
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from ._hlsl_source import _strip_comments

TAG = "__dx12kit_line_"
_TAG = re.compile(TAG + r"(\d+) ?")
_PRAGMA = re.compile(r"^\s*#\s*pragma\b")
_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//.*|/\*.*?(?:\*/|$)')
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|\S")


def tag_text(text: str) -> str:
    """`text` with a ``__dx12kit_line_N`` tag on every line the preprocessor may keep (see module doc)."""
    out: List[str] = []
    in_comment = False
    for n, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1):
        tag = f"{TAG}{n} "
        started_in_comment = in_comment
        _, in_comment = _strip_comments(line, in_comment)
        if started_in_comment:
            end = line.find("*/")
            out.append(line if end < 0 else line[:end + 2] + " " + tag + line[end + 2:])
        elif line.lstrip().startswith("#"):
            out.append(line)
        else:
            out.append(tag + line)
    return "\n".join(out) + "\n"


class LineMap:
    """Compiler (line, column) -> (expanded line, column in that line), from the tagged ``-E`` output."""

    def __init__(self, preprocessed: str, expanded_text: str) -> None:
        # The compiler's lexer takes a #pragma line with its newline as part of the next line: no
        # line counted, and the columns of that next line start after the pragma's text.
        self.lines: List[str] = []
        pending = ""
        for ln in preprocessed.split("\n"):
            if _PRAGMA.match(ln):
                pending += ln + " "
            else:
                self.lines.append(pending + ln)
                pending = ""
        self.source = expanded_text.split("\n")

    def _segments(self, line: int) -> Tuple[str, List[Tuple[int, int]]]:
        """(the untagged preprocessed line, [(column where a tag's text starts, expanded line)])."""
        raw = self.lines[line - 1]
        plain: List[str] = []
        marks: List[Tuple[int, int]] = []
        pos = 0
        for m in _TAG.finditer(raw):
            plain.append(raw[pos:m.start()])
            marks.append((sum(len(p) for p in plain) + 1, int(m.group(1))))
            pos = m.end()
        plain.append(raw[pos:])
        return "".join(plain), marks

    def locate(self, line: int, column: int) -> Optional[Tuple[int, int]]:
        """(expanded line, column) for the compiler's `line`/`column`, or None when unknown."""
        if not 1 <= line <= len(self.lines):
            return None
        text, marks = self._segments(line)
        if not marks:  # a line of no code of its own (a directive's blank line): the last tag above it
            for back in range(line - 1, 0, -1):
                _, above = self._segments(back)
                if above:
                    return above[-1][1] + (line - back), 0
            return None
        start, src = marks[0]
        for col, n in marks:
            if col <= max(column, 1):
                start, src = col, n
        return src, self._column(text, start, column, src)

    def _column(self, text: str, start: int, column: int, src: int) -> int:
        if not 1 <= src <= len(self.source):
            return 0
        source = self.source[src - 1]
        code_start = len(source) - len(source.lstrip()) + 1
        if column < start:
            return code_start
        tok = _TOKEN.match(text, column - 1)
        if tok is None:
            return code_start
        word = tok.group(0)
        # Which occurrence of the token, counted from the tag, the compiler pointed at.
        nth = sum(1 for t in _TOKEN.finditer(text[start - 1:column - 1]) if t.group(0) == word)
        code = _COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " " * len(m.group(0)), source)
        found = [t.start() + 1 for t in _TOKEN.finditer(code) if t.group(0) == word]
        return found[nth] if nth < len(found) else code_start

