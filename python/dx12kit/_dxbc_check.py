"""Checks of compiled DXBC for instruction patterns that would compute wrong results without a word
(issue 22; the table of known gaps: docs/guides/shader-gaps.rst).

Float modifiers on integer instructions: vkd3d-shader 2.1 folds a float negation or ``abs`` that
feeds ``asuint``/``asint`` into the integer instruction that uses the result, as a source modifier:
``asuint(-f) ^ m`` compiles to ``xor r0, r1, -r1``. On an integer instruction the ``-`` modifier
means two's-complement negation (and ``|x|`` is not allowed at all), so the HLSL meaning (flip or
clear the sign bit) is lost; the runtime returned ``x ^ x`` here. This compiler never uses the
modifiers for integer negation itself (it emits ``ineg``), so any modifier on an integer
instruction marks the fold.
"""
from __future__ import annotations

import re
import struct
from typing import Iterator, List, Optional, Tuple

# D3D10/11 shader opcodes that read integer operands.
_INTEGER_OPS = {
    0x01: "and", 0x1e: "iadd", 0x20: "ieq", 0x21: "ige", 0x22: "ilt", 0x23: "imad", 0x24: "imax", 0x25: "imin",
    0x26: "imul", 0x27: "ine", 0x28: "ineg", 0x29: "ishl", 0x2a: "ishr", 0x2b: "itof", 0x3b: "not", 0x3c: "or",
    0x4e: "udiv", 0x4f: "ult", 0x50: "uge", 0x51: "umul", 0x52: "umad", 0x53: "umax", 0x54: "umin", 0x55: "ushr",
    0x56: "utof", 0x57: "xor", 0x83: "f16tof32", 0x84: "uaddc", 0x85: "usubb", 0x86: "countbits", 0x87: "firstbit_hi",
    0x88: "firstbit_lo", 0x89: "firstbit_shi", 0x8a: "ubfe", 0x8b: "ibfe", 0x8c: "bfi", 0x8d: "bfrev",
}
_CUSTOMDATA = 53
_MODIFIERS = {1: "-", 2: "|x|", 3: "-|x|"}


def _shader_tokens(dxbc: bytes) -> Optional[List[int]]:
    """The SHEX/SHDR chunk's tokens (after version and length), or None."""
    if len(dxbc) < 32 or dxbc[:4] != b"DXBC":
        return None
    count = struct.unpack_from("<I", dxbc, 28)[0]
    for k in range(count):
        off = struct.unpack_from("<I", dxbc, 32 + 4 * k)[0]
        tag = dxbc[off:off + 4]
        if tag in (b"SHEX", b"SHDR"):
            size = struct.unpack_from("<I", dxbc, off + 4)[0]
            words = struct.unpack_from(f"<{size // 4}I", dxbc, off + 8)
            return list(words[2:words[1]])
    return None


def _operand(tokens: List[int], p: int) -> Tuple[int, int]:
    """(end position, modifier code) of the operand starting at `p`."""
    t = tokens[p]
    p += 1
    modifier = 0
    extended = bool(t >> 31)
    while extended:
        ext = tokens[p]
        p += 1
        if ext & 0x3F == 1:
            modifier = (ext >> 6) & 0xFF
        extended = bool(ext >> 31)
    num_components = t & 3
    otype = (t >> 12) & 0xFF
    if otype == 4:      # 32-bit immediate
        p += 1 if num_components == 1 else 4
    elif otype == 5:    # 64-bit immediate
        p += 2 if num_components == 1 else 8
    dims = (t >> 20) & 3
    for d in range(dims):
        rep = (t >> (22 + 3 * d)) & 7
        if rep in (0, 3):
            p += 1
        elif rep in (1, 4):
            p += 2
        if rep in (2, 3, 4):
            p, _ = _operand(tokens, p)
    return p, modifier


def integer_modifiers(dxbc: bytes) -> Iterator[Tuple[str, str]]:
    """(instruction name, modifier) of each integer instruction with a float source modifier."""
    tokens = _shader_tokens(dxbc)
    if tokens is None:
        return
    p = 0
    while p < len(tokens):
        t = tokens[p]
        opcode = t & 0x7FF
        if opcode == _CUSTOMDATA:
            length = tokens[p + 1]
        else:
            length = (t >> 24) & 0x7F
        if length == 0:
            return
        if opcode in _INTEGER_OPS:
            q = p + 1
            ext = bool(t >> 31)
            while ext:
                ext = bool(tokens[q] >> 31)
                q += 1
            end = p + length
            try:
                while q < end:
                    q, modifier = _operand(tokens, q)
                    if modifier:
                        yield _INTEGER_OPS[opcode], _MODIFIERS.get(modifier, "?")
            except IndexError:
                return
        p += length


_FOLD_SOURCE = re.compile(r"\bas(?:u?int)\s*\(\s*(?:-|abs\s*\()")


def candidate_lines(text: str) -> List[int]:
    """1-based lines of `text` holding asuint(-...)/asint(abs(...))-like expressions."""
    return [n + 1 for n, line in enumerate(text.splitlines()) if _FOLD_SOURCE.search(line)]
