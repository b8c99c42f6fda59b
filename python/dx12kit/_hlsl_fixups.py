"""Source rewrites and refusals for HLSL that the compiler (vkd3d-shader 2.1) or the runtime (vkd3d 1.2)
would get wrong without saying so. :func:`fix_source` runs on the expanded text before
every compilation; each rewrite keeps every line where it was, so messages keep their lines.

Known gaps and how each is handled: docs/guides/shader-gaps.rst (one row per test).

1. ``static`` variables declared inside a ``cbuffer``/``tbuffer`` block. HLSL keeps them out of the
   buffer's layout: they are ordinary file-scope statics, initialiser included. vkd3d-shader 2.1
   drops the initialiser (the DXBC reads a temporary register, or an indexable temp, that nothing
   writes), so they read 0 or garbage. Rewrite: each such declaration is moved out, just before
   the ``cbuffer`` keyword (on the same line), where the compiler initialises it. A block holding
   preprocessor directives is not rewritten (a declaration under ``#if`` cannot be moved safely):
   a static with an initialiser there is refused.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator, List, Optional, Tuple

from .errors import ShaderCompileError

_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<directive>^[ \t]*\#(?:\\\n|[^\n])*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[{};=()\[\]])
""", re.S | re.M | re.X)


def _tokens(text: str) -> List[Tuple[str, str, int, int]]:
    """(kind, text, start, end) of identifiers, punctuation, comments, strings and directive lines."""
    return [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _blank(s: str) -> str:
    """`s` with every character but line breaks turned into spaces."""
    return re.sub(r"[^\n]", " ", s)


def _one_line(text: str, toks: List[Tuple[str, str, int, int]], a: int, b: int) -> str:
    """text[a:b] on one line, comments removed."""
    out, pos = [], a
    for kind, t, s, e in toks:
        if s < a or e > b or kind != "comment":
            continue
        out.append(text[pos:s])
        out.append(" ")
        pos = e
    out.append(text[pos:b])
    return re.sub(r"\s*\n\s*", " ", "".join(out))


def fix_source(text: str, locate: Callable[[int], Tuple[str, int]]) -> Tuple[str, List[str]]:
    """(rewritten text, one line per rewrite made). `locate(line)` maps a 1-based line of `text`
    to (file, line) for messages.

    Raises:
        ShaderCompileError: a construct that can be neither compiled right nor rewritten.
    """
    toks = [t for t in _tokens(text)]
    code = [t for t in toks if t[0] not in ("comment",)]
    edits: List[Tuple[int, int, str]] = []   # (start, end, replacement), non-overlapping
    notes: List[str] = []
    i = 0
    while i < len(code):
        kind, t, s, _ = code[i]
        if kind == "ident" and t in ("cbuffer", "tbuffer"):
            j = i + 1
            while j < len(code) and code[j][1] != "{" and code[j][1] != ";":
                j += 1
            if j >= len(code) or code[j][1] != "{":
                i = j
                continue
            block_start = j
            depth, k = 0, j
            while k < len(code):
                if code[k][1] == "{":
                    depth += 1
                elif code[k][1] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            block = code[block_start + 1:k]
            hoisted = _hoist(text, toks, block, f"{t} {code[i + 1][1]}", locate)
            if hoisted:
                moved, removed, names = hoisted
                edits.append((s, s, moved + " "))
                edits.extend(removed)
                file, line = locate(text.count("\n", 0, s) + 1)
                notes.append(f"{file}:{line}: moved static {', '.join(names)} out of {t} {code[i + 1][1]} "
                             "(vkd3d-shader drops initialisers of statics inside constant buffers)")
            i = k + 1
            continue
        i += 1
    if not edits:
        return text, notes
    out, pos = [], 0
    for a, b, rep in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append(text[pos:a])
        out.append(rep)
        pos = b
    out.append(text[pos:])
    return "".join(out), notes


def _is_static(decl: Any) -> bool:
    """A declaration with ``static`` among its qualifiers (``static const``, ``const static``, ``row_major static``...)."""
    for tk in decl:
        if tk[1] in ("=", "(", "{", "[", ":"):
            return False
        if tk[1] == "static":
            return True
    return False


def _blocks(code: Any) -> Iterator[Tuple[int, str, Any]]:
    """(index of the cbuffer/tbuffer keyword, where, block tokens) of each constant-buffer block."""
    i = 0
    while i < len(code):
        kind, t, s, _ = code[i]
        if kind == "ident" and t in ("cbuffer", "tbuffer"):
            j = i + 1
            while j < len(code) and code[j][1] != "{" and code[j][1] != ";":
                j += 1
            if j >= len(code) or code[j][1] != "{":
                i = j
                continue
            depth, k = 0, j
            while k < len(code):
                if code[k][1] == "{":
                    depth += 1
                elif code[k][1] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            yield i, f"{t} {code[i + 1][1] if i + 1 < len(code) else ''}", code[j + 1:k]
            i = k + 1
            continue
        i += 1


def cbuffer_statics(text: str, ignore: str = "") -> List[Tuple[int, str, str]]:
    """(offset, name, 'cbuffer X') of each static with an initialiser declared inside a constant-buffer block of
    `text` (preprocessed text: directives are not looked at). Identifiers starting with `ignore` are skipped (line
    tags)."""
    code = [t for t in _tokens(text) if t[0] not in ("comment", "directive") and not (ignore and t[1].startswith(ignore))]
    found = []
    for _, where, block in _blocks(code):
        decl: List[Tuple[str, str, int, int]] = []
        depth = 0
        for tk in block:
            decl.append(tk)
            if tk[1] in "{([":
                depth += 1
            elif tk[1] in "})]":
                depth -= 1
            elif tk[1] == ";" and depth == 0:
                if _is_static(decl) and any(t[1] == "=" for t in decl):
                    eq = next(n for n, t in enumerate(decl) if t[1] == "=")
                    idents = [t[1] for t in decl[:eq] if t[0] == "ident"]
                    found.append((decl[0][2], idents[-1] if idents else "?", where))
                decl = []
    return found


def _hoist(text: str, toks: Any, block: Any, where: str, locate: Any) -> Optional[Tuple[str, List[Tuple[int, int, str]], List[str]]]:
    """The static declarations of one cbuffer block: (their one-line text, removal edits, names)."""
    decls: List[List[Tuple[str, str, int, int]]] = []
    cur: List[Tuple[str, str, int, int]] = []
    depth = 0
    has_directive = any(tk[0] == "directive" for tk in block)
    for tk in block:
        if tk[0] == "directive":
            continue
        cur.append(tk)
        if tk[1] in "{([":
            depth += 1
        elif tk[1] in "})]":
            depth -= 1
        elif tk[1] == ";" and depth == 0:
            decls.append(cur)
            cur = []
    statics = [d for d in decls if _is_static(d)]
    if not statics:
        return None
    names = []
    for d in statics:
        eq = [n for n, tk in enumerate(d) if tk[1] == "="]
        before = d[:eq[0]] if eq else d
        idents = [tk[1] for tk in before if tk[0] == "ident"]
        names.append(idents[-1] if idents else "?")
    if has_directive:
        with_init = [(d, n) for d, n in zip(statics, names) if any(tk[1] == "=" for tk in d)]
        if with_init:
            d, name = with_init[0]
            file, line = locate(text.count("\n", 0, d[0][2]) + 1)
            raise ShaderCompileError(
                f"{file}:{line}: static '{name}' with an initialiser inside {where}, a block that "
                "holds preprocessor directives: vkd3d-shader drops initialisers of statics declared inside a constant "
                "buffer (the variable would read 0 or garbage), and dx12kit cannot move it out safely past the "
                f"directives. Workaround: declare 'static ... {name} = ...;' at file scope, outside the {where.split()[0]} block "
                "(statics are never part of a constant buffer's layout).")
        return None
    removed = [(d[0][2], d[-1][3], _blank(text[d[0][2]:d[-1][3]])) for d in statics]
    moved = " ".join(_one_line(text, toks, d[0][2], d[-1][3]) for d in statics)
    return moved, removed, names
