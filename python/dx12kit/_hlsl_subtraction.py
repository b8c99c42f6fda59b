"""Float minus integer: the conversion the compiler puts in the wrong place, found and fixed.

HLSL converts both operands of ``a - b`` to their common type before subtracting: with ``a`` a float and
``b`` a ``uint`` (or ``int``), ``b`` becomes a float. vkd3d-shader 2.1 parses ``a - b`` (and ``a -= b``)
as ``a + (-b)`` with the negation in ``b``'s own type, and converts afterwards: ``x - u`` computes
``x + float(0u - u)``, so ``100.5 - 64u`` is ``4.29e9``, not ``36.5``; ``x - i`` is wrong only for
``i == INT_MIN`` (``-INT_MIN`` wraps). Scalars, vectors (``float2 - uint2``, ``float3 - uint``),
matrices, literals (``x - 7u``) and compound assignment alike; function arguments, ``int - uint`` and
``uint - int`` (modular, right), ``uint - float`` (the float is negated) are not affected. A negated
``bool`` is refused by the compiler itself (E5017).

Found in the compiler's dump of the parsed functions (``VKD3D_SHADER_DEBUG=trace``, before any
folding): an addition one of whose operands is a conversion to a float type of a negation of an
integer. The dump carries no source positions, so the minus signs that made them are found by
replacing groups of them with ``+`` (same precedence, same types: only the faulty negations go)
and counting again. Each faulty binary minus gets its right operand converted first,
``a - ((b) * 1.0)``: exact, the float conversion HLSL implies (an integer times ``1.0`` is the
integer's float). A unary minus whose negation shows the pattern (``x + -u``) is HLSL's own meaning
(the negation of a ``uint`` is a ``uint``) and stays. Lines stay where they were. One left over
(hidden in a macro) is refused with the lines of the macros holding a minus.
"""
from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

__all__ = ["minus_sites", "faulty_negations", "find_faulty", "probe_text", "wrap_operands"]

_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<directive>^[ \t]*\#(?:\\\n|[^\n])*)
  | (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[A-Za-z]*|0[xX][0-9A-Fa-f]+[uUlL]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op><<=|>>=|&&|\|\||<<|>>|<=|>=|==|!=|\+\+|--|[-+*/%&|^]=|->|::|[-+*/%<>=!~&|^?:;,.(){}\[\]])
""", re.S | re.M | re.X)

Token = Tuple[str, str, int, int]   # kind, text, start, end

# A token before which a '-' is binary: it ends an operand.
_KEYWORDS = {"return", "case", "else", "do", "in", "out", "inout", "const", "static", "uniform"}
_TYPE = re.compile(r"^(?:bool|u?int|dword|float|half|double|min(?:16|10|12)(?:float|u?int)|u?int(?:16|64)_t)(?:[1-4](?:x[1-4])?)?$")


def _tokens(text: str) -> List[Token]:
    return [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)
            if m.lastgroup not in ("comment",)]


def _ends_operand(tok: Optional[Token]) -> bool:
    if tok is None:
        return False
    kind, t, _, _ = tok
    return (kind == "number" or (kind == "ident" and t not in _KEYWORDS) or t in (")", "]", "++", "--"))


def minus_sites(text: str) -> List[Tuple[int, str]]:
    """(offset, kind) of every minus outside comments, strings and directives: kind ``binary``,
    ``unary`` or ``assign`` (``-=``)."""
    toks = [t for t in _tokens(text) if t[0] not in ("string",)]
    out: List[Tuple[int, str]] = []
    prev: Optional[Token] = None
    for tok in toks:
        if tok[0] == "directive":
            prev = None
            continue
        if tok[1] == "-":
            out.append((tok[2], "binary" if _ends_operand(prev) else "unary"))
        elif tok[1] == "-=":
            out.append((tok[2], "assign"))
        prev = tok
    return out


def directive_minus_lines(text: str) -> List[int]:
    """1-based lines of preprocessor directives (macro bodies) holding a '-'."""
    lines = []
    for kind, t, s, _ in _tokens(text):
        if kind == "directive" and "-" in re.sub(r"//[^\n]*|/\*.*?\*/", "", t, flags=re.S):
            lines.append(text.count("\n", 0, s) + 1)
    return lines


_DUMP = re.compile(r"hlsl_dump_function (0x[0-9a-f]+):\s*(.*?)\s*\| (.*)$")
_FLOAT = re.compile(r"^(?:float|half|double)")
_INTEGER = re.compile(r"^u?int")


def faulty_negations(trace: str) -> int:
    """How many conversions to a float type in the parsed functions of `trace` (a ``VKD3D_SHADER_DEBUG=trace``
    run) convert a negated integer: each is an ``a - b`` (or ``a -= b``) with a float ``a`` and an integer
    ``b``, or a written ``float(-u)``/``a + -u``. Matrix operations are split into per-component
    negations stored to a ``<split_op-N>`` variable, converted when it is loaded."""
    nodes: Dict[str, Tuple[str, str]] = {}
    negated_vars: "set[str]" = set()
    count = 0
    processed = False

    def negation(addr: str) -> bool:
        typ, rest = nodes.get(addr, ("", ""))
        return bool(_INTEGER.match(typ) and re.match(r"- \(0x[0-9a-f]+\)$", rest))

    for line in trace.splitlines():
        if "Dumping processed entry point" in line:
            processed = True
        elif "Dumping function" in line:
            processed = False
            negated_vars = set()
        if processed:
            continue
        m = _DUMP.search(line)
        if not m:
            continue
        addr, typ, rest = m.group(1), m.group(2).strip(), m.group(3).strip()
        nodes[addr] = (typ, rest)
        store = re.match(r"= \((<split_op-\d+>)\S* (0x[0-9a-f]+)\)$", rest)
        if store and negation(store.group(2)):
            negated_vars.add(store.group(1))
            continue
        cast = re.match(r"cast \((0x[0-9a-f]+)\)$", rest)
        if not (cast and _FLOAT.match(typ)):
            continue
        operand = cast.group(1)
        otyp, orest = nodes.get(operand, ("", ""))
        if negation(operand) or (_INTEGER.match(otyp) and orest.split("[")[0] in negated_vars):
            count += 1
    return count


def probe_text(text: str, sites: List[Tuple[int, str]], plus: Sequence[int] = ()) -> str:
    """`text` for counting: each unary minus made ``(0-1) *`` (the operand keeps its type, and no negation of
    an integer is left to be converted: ``float(-u)`` and ``a + -u``, HLSL's own meaning, are not counted),
    and each binary minus or '-=' at an offset in `plus` made a plus (same precedence, same types: a
    faulty negation there is gone)."""
    repl = {o: "(0-1) *" for o, k in sites if k == "unary"}
    repl.update({o: "+" for o in plus})
    out, pos = [], 0
    for o in sorted(repl):
        out.append(text[pos:o])
        out.append(repl[o])
        pos = o + 1
    out.append(text[pos:])
    return "".join(out)


def find_faulty(text: str, sites: List[Tuple[int, str]], count: Callable[[str], Optional[int]],
                total: int) -> Tuple[List[Tuple[int, str]], int]:
    """(binary minus and '-=' sites whose negation is converted to a float, how many of `total` no site
    explains), by group tests: `count(t)` is :func:`faulty_negations` of a compilation of ``t`` (None if it
    fails); `total` that of ``probe_text(text, sites)``. Each site's negation is counted or not by its
    operands' types alone, which a plus elsewhere does not change, so counts add up."""
    binary = [s for s in sites if s[1] != "unary"]
    rest = count(probe_text(text, sites, [o for o, _ in binary]))
    if rest is None:
        return [], total
    found: List[Tuple[int, str]] = []

    def split(group: List[Tuple[int, str]], k: int) -> None:
        if k <= 0 or not group:
            return
        if len(group) == 1:
            found.append(group[0])
            return
        half = group[:len(group) // 2]
        left = count(probe_text(text, sites, [o for o, _ in half]))
        k_left = min(total - left, k) if left is not None else k
        split(half, k_left)
        split(group[len(group) // 2:], k - k_left)

    split(binary, total - rest)
    return sorted(found), rest


def _skip_group(toks: List[Token], i: int) -> int:
    """Index after the bracket group opening at toks[i]."""
    depth = 0
    while i < len(toks):
        t = toks[i][1]
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _unary_end(toks: List[Token], i: int) -> int:
    while i < len(toks):
        t = toks[i][1]
        if t in ("-", "+", "!", "~", "++", "--"):
            i += 1
        elif t == "(" and i + 2 < len(toks) and toks[i + 2][1] == ")" and _TYPE.match(toks[i + 1][1]):
            i += 3   # a cast: (float)x
        else:
            break
    if i >= len(toks):
        return i
    if toks[i][1] in ("(", "["):
        i = _skip_group(toks, i)
    elif toks[i][0] in ("ident", "number"):
        i += 1
    else:
        return i
    while i < len(toks):
        t = toks[i][1]
        if t in ("(", "["):
            i = _skip_group(toks, i)
        elif t == "." and i + 1 < len(toks):
            i += 2
        elif t in ("++", "--"):
            i += 1
        else:
            break
    return i


def _operand_end(toks: List[Token], i: int, kind: str) -> int:
    """Index after the right operand of the minus at toks[i-1]: a multiplicative expression for a binary
    minus, the rest of the assignment for '-='."""
    if kind == "assign":
        depth = 0
        while i < len(toks):
            t = toks[i][1]
            if t in ("(", "[", "{"):
                depth += 1
            elif t in (")", "]", "}"):
                if depth == 0:
                    break
                depth -= 1
            elif t in (";", ",") and depth == 0:
                break
            i += 1
        return i
    i = _unary_end(toks, i)
    while i < len(toks) and toks[i][1] in ("*", "/", "%"):
        i = _unary_end(toks, i + 1)
    return i


def wrap_operands(text: str, sites: List[Tuple[int, str]]) -> str:
    """`text` with the right operand ``b`` of each binary minus or '-=' at `sites` made ``((b) * 1.0)``
    (converted to float before it is negated). Lines stay where they were."""
    toks = [t for t in _tokens(text) if t[0] not in ("directive", "string")]
    index = {t[2]: n for n, t in enumerate(toks)}
    inserts: List[Tuple[int, int, str]] = []   # (offset, order, text)
    for offset, kind in sites:
        n = index[offset]
        end = _operand_end(toks, n + 1, kind)
        if end <= n + 1:
            continue
        start_off, end_off = toks[n + 1][2], toks[end - 1][3]
        # opens: outer (larger end) first; closes: inner (larger start) first
        inserts.append((start_off, -end_off, "(("))
        inserts.append((end_off, -start_off, ") * 1.0)"))
    out, pos = [], 0
    for off, _, s in sorted(inserts):
        out.append(text[pos:off])
        out.append(s)
        pos = off
    out.append(text[pos:])
    return "".join(out)


def may_negate_before_conversion(shader_tokens: Optional[List[int]]) -> bool:
    """Cheap filter on the compiled DXBC (the SHEX/SHDR tokens): an int-to-float conversion (``itof``,
    ``utof``), or a float immediate a folded one leaves (magnitude 2\\ :sup:`31` to 2\\ :sup:`32`). Without
    either no faulty negation reached the bytecode."""
    if shader_tokens is None:
        return True
    for w in shader_tokens:
        if 0x4F000000 <= (w & 0x7FFFFFFF) <= 0x4F800000:
            return True
    p = 0
    while p < len(shader_tokens):
        t = shader_tokens[p]
        opcode = t & 0x7FF
        length = shader_tokens[p + 1] if opcode == 53 and p + 1 < len(shader_tokens) else (t >> 24) & 0x7F
        if opcode in (0x2B, 0x56):   # itof, utof
            return True
        if length == 0:
            return True
        p += length
    return False
