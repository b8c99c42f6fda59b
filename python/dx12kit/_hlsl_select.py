"""HLSL 2021's ``select(cond, a, b)``, which vkd3d-shader 2.1 does not know (E5005: Function "select" is not
defined), rewritten to ``((cond) ? (a) : (b))``.

The meaning is the same with this compiler: its conditional operator is shader model 5's, per component for
a vector condition (broadcasting scalars like ``select``) and evaluating both operands (``movc``; a call
with side effects in each operand runs both, as ``select``'s arguments do). The rewrite keeps every line
where it was (arguments are kept verbatim, comments and line breaks included), reaches nested calls and
macro bodies, and leaves the source alone where ``select`` is the user's own (a function or variable
declared with that name, or a method ``x.select(...)``).
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

__all__ = ["rewrite_select"]

_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[()\[\]{},.])
""", re.S | re.X)

_KEYWORDS_BEFORE_CALL = {"return", "case", "else", "in", "out", "inout"}


def _user_select(text: str) -> bool:
    """Whether `select` is declared by the user: a function or a variable (a type name before it)."""
    clean = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    for m in re.finditer(r"\b([A-Za-z_][A-Za-z0-9_]*)\s+select\s*[(;=\[:,]", clean):
        if m.group(1) not in _KEYWORDS_BEFORE_CALL:
            return True
    return False


def _call_args(text: str, toks: List[Tuple[str, str, int, int]], k: int) -> Optional[Tuple[List[Tuple[int, int]], int]]:
    """For the '(' at toks[k]: the (start, end) offsets of each top-level argument and the index of the ')'."""
    depth, args, start = 0, [], toks[k][3]
    for n in range(k, len(toks)):
        kind, t, s, e = toks[n]
        if kind != "punct":
            continue
        if t in "([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
            if depth == 0:
                if t != ")":
                    return None
                args.append((start, s))
                return args, n
        elif t == "," and depth == 1:
            args.append((start, s))
            start = e
    return None


def rewrite_select(text: str) -> Tuple[str, int]:
    """(`text` with each 3-argument ``select(...)`` call made a conditional expression, how many)."""
    if "select" not in text or _user_select(text):
        return text, 0
    return _rewrite(text)


def _rewrite(text: str) -> Tuple[str, int]:
    toks = [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    toks = [t for t in toks if t[0] not in ("comment", "string")]
    out: List[str] = []
    pos, count, n = 0, 0, 0
    while n < len(toks):
        kind, t, s, e = toks[n]
        if (kind == "ident" and t == "select" and n + 1 < len(toks) and toks[n + 1][1] == "("
                and not (n > 0 and toks[n - 1][1] == ".")):
            found = _call_args(text, toks, n + 1)
            if found and len(found[0]) == 3:
                args, close = found
                parts = []
                for a, b in args:
                    inner, c = _rewrite(text[a:b])
                    parts.append(inner)
                    count += c
                out.append(text[pos:s])
                out.append(f"(({parts[0]}) ? ({parts[1]}) : ({parts[2]}))")
                pos = toks[close][3]
                count += 1
                while n < len(toks) and toks[n][2] < pos:
                    n += 1
                continue
        n += 1
    out.append(text[pos:])
    return "".join(out), count
