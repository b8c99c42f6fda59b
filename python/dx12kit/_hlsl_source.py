"""HLSL source preparation: include expansion with a line map, and the [RootSignature] attribute.

vkd3d-compiler has no ``-I``, resolves ``#include`` against the process's working directory,
ignores ``#pragma once`` and ``#line``, and does not parse ``[RootSignature(...)]`` written as
concatenated strings. So dx12kit hands it one self-contained text and keeps, for every line of
that text, the file and line it came from (:class:`Expanded.origin`); compiler messages are mapped
back through it.

Rules (documented in ``compile_hlsl``):

- ``#include "x"``: the including file's folder first, then ``include_dirs`` in order;
  ``#include <x>``: ``include_dirs`` only. When no exact match exists, a case-insensitive match is
  used (shaders written on Windows) with a :class:`ShaderIncludeWarning`. So is an ``include_dirs``
  folder that exists only in another letter case; one that does not exist at all is skipped with
  that warning.
- ``#pragma once`` is honoured (by file identity), include guards work as the preprocessor runs
  them, and a file that includes itself again without either is a cycle error.
- A missing include is an error. Inside ``#if``/``#ifdef`` blocks the ``#include`` becomes an
  ``#error`` line, so it fails only if that block is compiled.
- Backslash-newline continuations are joined (with blank lines after, so line numbers stay), as
  the compiler counts a continued line as one.
- Files are UTF-8; a leading byte-order mark is dropped. A byte that is not UTF-8 is an error
  naming the file, line, column and byte (:func:`decode_source`), in included files and main
  files alike.
"""
from __future__ import annotations

import codecs
import os
import re
import warnings
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from .errors import ShaderCompileError

__all__ = ["ShaderIncludeWarning", "CompileMessage", "Expanded", "decode_source", "expand_source", "extract_root_signature"]


class ShaderIncludeWarning(UserWarning):
    """An ``#include`` or an ``include_dirs`` folder was resolved by a case-insensitive match (the
    name differs in case), or an ``include_dirs`` folder does not exist (it is skipped)."""


@dataclass(frozen=True)
class CompileMessage:
    """One compiler message, mapped to the user's file and line.

    Attributes:
        file: the file the message is about (``source_name`` or ``"shader.hlsl"`` for the main
            source, the resolved path for included files, ``"<defines>"`` for ``defines=``).
        line: 1-based line in that file (0 when the compiler gave none).
        column: 1-based column (0 when unknown).
        severity: ``"error"`` or ``"warning"``.
        code: the compiler's code, e.g. ``"E5005"`` (may be empty).
        text: the message itself.
    """

    file: str
    line: int
    column: int
    severity: str
    code: str
    text: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        return f"{where}: {self.severity}{' ' + self.code if self.code else ''}: {self.text}"


@dataclass
class Expanded:
    """The text for the compiler and where each of its lines came from."""

    text: str
    origin: List[Tuple[str, int]]               # origin[i] = (file, line) of output line i + 1
    files: List[str] = field(default_factory=list)  # every file read, in order (resolved paths)
    defines: Dict[str, str] = field(default_factory=dict)  # object-like #defines seen (last wins)

    def locate(self, line: int) -> Tuple[str, int]:
        if 1 <= line <= len(self.origin):
            return self.origin[line - 1]
        return ("<unknown>", line)


def _fail(file: str, line: int, column: int, text: str) -> ShaderCompileError:
    msg = CompileMessage(file, line, column, "error", "", text)
    return ShaderCompileError(f"HLSL preprocessing failed:\n{msg}", [msg])


_NEWLINES = re.compile(rb"\r\n|\r|\n")


def decode_source(data: bytes, file: str) -> str:
    """The text of an HLSL file's bytes: UTF-8, with a leading UTF-8 byte-order mark dropped.

    Raises:
        ShaderCompileError: a byte sequence that is not UTF-8, naming `file`, the line, the column
            (in characters) and the byte.
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start]
        lines = _NEWLINES.split(before)
        column = len(lines[-1].decode("utf-8", errors="replace")) + 1
        raise _fail(file, len(lines), column, f"byte 0x{data[e.start]:02X} is not UTF-8 ({e.reason}): HLSL files must be "
                                              "UTF-8 (save the file as UTF-8)") from None


_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$")


_CODE_PIECE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//|/\*|[^"/]+|/')


def _strip_comments(line: str, in_comment: bool) -> Tuple[str, bool]:
    """The code of `line` without comments (string literals kept), and the block-comment state after it."""
    if in_comment:
        end = line.find("*/")
        if end < 0:
            return "", True
        line = " " + line[end + 2:]
    if "/" not in line:
        return line, False
    out: List[str] = []
    pos = 0
    while pos < len(line):
        m = _CODE_PIECE.match(line, pos)
        assert m is not None  # the pattern matches any character
        piece = m.group(0)
        if piece == "//":
            break
        if piece == "/*":
            end = line.find("*/", m.end())
            if end < 0:
                return "".join(out), True
            out.append(" ")
            pos = end + 2
            continue
        out.append(piece)
        pos = m.end()
    return "".join(out), False


def _logical_lines(text: str) -> List[Tuple[str, int, int]]:
    """(logical line, first physical line, physical line count), continuations joined."""
    physical = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if physical and physical[-1] == "":
        physical.pop()
    out = []
    i = 0
    while i < len(physical):
        start = i
        parts = [physical[i]]
        while parts[-1].endswith("\\") and i + 1 < len(physical):
            parts[-1] = parts[-1][:-1]
            i += 1
            parts.append(physical[i])
        out.append(("".join(parts), start + 1, i - start + 1))
        i += 1
    return out


def _is_guarded(lines: List[Tuple[str, int, int]]) -> bool:
    """True when the file is wrapped in '#ifndef X / #define X ... #endif' (or '#if !defined(X)')."""
    code = []
    in_comment = False
    for text, _, _ in lines:
        stripped, in_comment = _strip_comments(text, in_comment)
        if stripped.strip():
            code.append(stripped.strip())
        if len(code) >= 2:
            break
    if len(code) < 2:
        return False
    m = re.match(r"#\s*(?:ifndef\s+(\w+)|if\s+!\s*defined\s*\(?\s*(\w+)\s*\)?)\s*$", code[0])
    d = re.match(r"#\s*define\s+(\w+)", code[1])
    return bool(m and d and (m.group(1) or m.group(2)) == d.group(1))


def _find_case_insensitive(base: str, rel: str) -> Optional[str]:
    """The path under `base` matching `rel` component by component without regard to case."""
    current = base
    for part in re.split(r"[\\/]+", rel):
        if part in ("", "."):
            continue
        if part == "..":
            current = os.path.dirname(current)
            continue
        try:
            names = os.listdir(current)
        except OSError:
            return None
        match = next((n for n in names if n.lower() == part.lower()), None)
        if match is None:
            return None
        current = os.path.join(current, match)
    return current if os.path.isfile(current) else None


def _find_dir_case_insensitive(path: str) -> Optional[str]:
    """The existing folder matching the absolute `path` component by component without regard to case."""
    drive, rest = os.path.splitdrive(path)
    current = drive + os.sep
    for part in rest.split(os.sep):
        if part in ("", "."):
            continue
        if part == "..":
            current = os.path.dirname(current)
            continue
        exact = os.path.join(current, part)
        if os.path.isdir(exact):
            current = exact
            continue
        try:
            names = os.listdir(current)
        except OSError:
            return None
        match = next((n for n in names if n.lower() == part.lower() and os.path.isdir(os.path.join(current, n))), None)
        if match is None:
            return None
        current = os.path.join(current, match)
    return current


def _include_dirs(dirs: Sequence[str]) -> List[str]:
    """The absolute `dirs` that exist: one existing only in another letter case is used with a
    ShaderIncludeWarning, one missing altogether is skipped with that warning."""
    out = []
    for d in dirs:
        path = os.path.abspath(os.fspath(d))
        if os.path.isdir(path):
            out.append(path)
            continue
        found = _find_dir_case_insensitive(path)
        if found is not None:
            warnings.warn(f"include_dirs: {path} matched {found} only without regard to case; fix the path",
                          ShaderIncludeWarning, stacklevel=4)
            out.append(found)
        else:
            warnings.warn(f"include_dirs: {path} is not a folder (skipped)", ShaderIncludeWarning, stacklevel=4)
    return out


class _Expander:
    def __init__(self, include_dirs: Sequence[str]) -> None:
        self.include_dirs = _include_dirs(include_dirs)
        self.out: List[str] = []
        self.origin: List[Tuple[str, int]] = []
        self.files: List[str] = []
        self.once: Set[str] = set()
        self.guarded: Set[str] = set()
        self.stack: List[str] = []
        self.defines: Dict[str, str] = {}

    def emit(self, text: str, file: str, line: int) -> None:
        self.out.append(text)
        self.origin.append((file, line))

    def resolve(self, name: str, angled: bool, includer_dir: Optional[str], file: str, line: int) -> Optional[str]:
        dirs = ([] if angled or includer_dir is None else [includer_dir]) + self.include_dirs
        for d in dirs:
            path = os.path.join(d, name)
            if os.path.isfile(path):
                return os.path.realpath(path)
        for d in dirs:
            found = _find_case_insensitive(d, name)
            if found is not None:
                spelled = f"<{name}>" if angled else f'"{name}"'
                warnings.warn(f"{file}:{line}: #include {spelled} matched {found} only without regard to case; "
                              "rename the file or fix the include", ShaderIncludeWarning, stacklevel=4)
                return os.path.realpath(found)
        return None

    def expand(self, text: str, file: str, includer_dir: Optional[str], key: str, outer_depth: int = 0) -> None:
        lines = _logical_lines(text)
        if key in self.stack:
            chain = " -> ".join(self.stack[self.stack.index(key):] + [key])
            raise _fail(file, 1, 1, f"#include cycle: {chain} (add #pragma once or an include guard)")
        self.stack.append(key)
        if _is_guarded(lines):
            self.guarded.add(key)
        depth = outer_depth  # conditional nesting, counting the blocks around the #include of this file
        in_comment = False
        for logical, first, count in lines:
            code, next_comment = _strip_comments(logical, in_comment)
            directive = None if in_comment else _DIRECTIVE.match(code)
            in_comment = next_comment
            replaced: Optional[str] = None
            if directive:
                word, rest = directive.group(1), directive.group(2).strip()
                if word in ("if", "ifdef", "ifndef"):
                    depth += 1
                elif word == "endif":
                    depth = max(depth - 1, outer_depth)
                elif word == "define":
                    m = re.match(r"(\w+)(.*)$", rest)
                    if m and not m.group(2).startswith("("):  # object-like macros only
                        self.defines[m.group(1)] = m.group(2).strip()
                elif word == "pragma" and rest.split()[:1] == ["once"]:
                    self.once.add(key)
                    replaced = ""
                elif word == "include":
                    self.include(rest, file, first, includer_dir, depth)
                    for k in range(1, count):
                        self.emit("", file, first + k)
                    continue
            self.emit(logical if replaced is None else replaced, file, first)
            for k in range(1, count):
                self.emit("", file, first + k)
        self.stack.pop()

    def include(self, rest: str, file: str, line: int, includer_dir: Optional[str], depth: int) -> None:
        m = re.match(r'"([^"]+)"|<([^>]+)>', rest)
        if not m:
            raise _fail(file, line, 1, f"#include {rest}: dx12kit expands includes itself and needs \"file\" or <file> "
                                        "(computed includes are not supported)")
        name = m.group(1) or m.group(2)
        angled = m.group(2) is not None
        path = self.resolve(name, angled, includer_dir, file, line)
        if path is None:
            searched = ([] if angled or includer_dir is None else [includer_dir]) + self.include_dirs
            text = f"cannot open include file '{name}' (searched: {', '.join(searched) or 'nothing: give include_dirs= or source_name='})"
            if depth == 0:
                raise _fail(file, line, 1, text)
            # Inside a conditional block: fail only if the block is compiled.
            self.emit(f'#error {text.replace(chr(34), chr(39))}', file, line)
            return
        if path in self.once or (path in self.guarded and path in self.stack):
            self.emit("", file, line)
            return
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise _fail(file, line, 1, f"cannot read include file '{path}': {e.strerror}") from None
        content = decode_source(data, path)
        self.files.append(path)
        self.expand(content, path, os.path.dirname(path), path, depth)


def expand_source(source: str, source_name: "Optional[Union[str, os.PathLike[str]]]", include_dirs: Sequence[str],
                  defines: Mapping[str, str]) -> Expanded:
    """Expands the includes of `source` and prepends `defines`, keeping a line map.

    Args:
        source: the HLSL text.
        source_name: the file it came from (names it in messages; its folder is searched first
            for quoted includes), or None (messages say ``shader.hlsl``; quoted includes are looked
            up in `include_dirs` only).
        include_dirs: folders searched in order.
        defines: macro name -> value text (one line each).
    """
    ex = _Expander(include_dirs)
    for name, value in defines.items():
        ex.emit(f"#define {name} {value}".rstrip(), "<defines>", len(ex.out) + 1)
        ex.defines[name] = value
    display = os.fspath(source_name) if source_name is not None else "shader.hlsl"
    includer_dir = os.path.dirname(os.path.abspath(display)) if source_name is not None else None
    key = os.path.realpath(display) if source_name is not None else "<source>"
    ex.expand(source, display, includer_dir, key)
    return Expanded("\n".join(ex.out) + "\n", ex.origin, ex.files, ex.defines)


# ---- [RootSignature(...)] ---------------------------------------------------------------------

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_IDENT = re.compile(r"[A-Za-z_]\w*")


def _expand_macros(text: str, defines: Mapping[str, str], depth: int = 0) -> str:
    if depth > 32:
        raise ValueError("macro expansion too deep")
    out = []
    pos = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[A-Za-z_]\w*', text):
        out.append(text[pos:m.start()])
        tok = m.group(0)
        out.append(_expand_macros(defines[tok], defines, depth + 1) if tok in defines and not tok.startswith('"') else tok)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def extract_root_signature(ex: Expanded, entry: str) -> Optional[str]:
    """Finds ``[RootSignature(...)]`` attributes, returns the one on `entry` as text (macros
    expanded, adjacent strings joined) or None, and blanks every such attribute in ``ex.text``
    (the compiler does not parse them).

    Macros are expanded from the object-like ``#define`` lines of the expanded text and from
    ``defines=``; the last definition of a name wins and ``#if`` blocks around definitions are not
    evaluated (one root signature per macro name, as engines write them)."""
    text = ex.text
    result: Optional[str] = None
    spans: List[Tuple[int, int]] = []
    for m in re.finditer(r"\[\s*RootSignature\s*\(", text):
        # Matching ')' then ']'.
        i, level, in_str = m.end(), 1, False
        while i < len(text) and level:
            c = text[i]
            if in_str:
                if c == "\\":
                    i += 1
                elif c == '"':
                    in_str = False
            elif c == '"':
                in_str = True
            elif c == "(":
                level += 1
            elif c == ")":
                level -= 1
            i += 1
        close = re.compile(r"\s*\]").match(text, i)
        if level or not close:
            continue
        arg = text[m.end():i - 1]
        end = close.end()
        spans.append((m.start(), end))
        # The function the attribute belongs to: skip other attributes and the return type up to 'name('.
        # (No whitespace inside the type pattern: each word ends at its whitespace, so matching
        # stays linear on text that never reaches a '('.)
        follow = re.compile(r"(?:\s*\[[^\]]*\])*\s*(?:[A-Za-z_][\w<>,:]*\s+)+([A-Za-z_]\w*)\s*\(").match(text, end)
        if follow is None or follow.group(1) != entry:
            continue
        line = text.count("\n", 0, m.start()) + 1
        file, fline = ex.locate(line)
        try:
            expanded = _expand_macros(arg, ex.defines)
        except ValueError:
            raise _fail(file, fline, 1, "[RootSignature]: macro expansion does not end (recursive macro?)") from None
        strings = _STRING.findall(expanded)
        rest = _STRING.sub("", expanded).strip()
        if not strings or rest:
            raise _fail(file, fline, 1, f"[RootSignature({arg.strip()})]: expected string literals (or macros naming them), "
                                        f"got {expanded.strip()!r}")
        result = "".join(bytes(s, "utf-8").decode("unicode_escape") if "\\" in s else s for s in strings)
    if spans:
        chars = list(text)
        for a, b in spans:
            for k in range(a, b):
                if chars[k] != "\n":
                    chars[k] = " "
        ex.text = "".join(chars)
    return result
