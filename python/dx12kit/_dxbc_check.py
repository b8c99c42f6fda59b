"""Checks of compiled DXBC for instruction patterns that would compute wrong results without a word
(the table of known gaps: docs/guides/shader-gaps.rst).

Float modifiers on operands not read as floats: vkd3d-shader 2.1 folds a float negation or ``abs``
that feeds ``asuint``/``asint`` into the instruction that uses the result, as a source modifier:
``asuint(-f) ^ m`` compiles to ``xor r0, r1, -r1``, ``o[0] = asuint(-f)`` to ``store_structured ...,
-r0.x``; likewise atomics, addresses, ``switch``/``if`` conditions. On an integer instruction the ``-``
modifier means two's-complement negation (and ``|x|`` is not allowed at all); stores and atomics move
raw bits (vkd3d 1.2 ignores the modifier). This compiler never uses the modifiers for integer
negation itself (it emits ``ineg``), so any such modifier marks the fold. The fix (a float ``mov``
before the instruction) is native: ``cpp/src/shaders/DxbcModifierFix.cpp``, applied by
``compile_hlsl`` and at pipeline creation; :func:`integer_modifiers` lists what it would fix.
"""
from __future__ import annotations

import re
import struct
from typing import Iterator, List, Optional, Tuple

# D3D10/11 shader opcodes that read integer operands (names for messages; any opcode not in _FLOAT_OPS counts).
_INTEGER_OPS = {
    0x01: "and", 0x1e: "iadd", 0x20: "ieq", 0x21: "ige", 0x22: "ilt", 0x23: "imad", 0x24: "imax", 0x25: "imin",
    0x26: "imul", 0x27: "ine", 0x28: "ineg", 0x29: "ishl", 0x2a: "ishr", 0x2b: "itof", 0x3b: "not", 0x3c: "or",
    0x4e: "udiv", 0x4f: "ult", 0x50: "uge", 0x51: "umul", 0x52: "umad", 0x53: "umax", 0x54: "umin", 0x55: "ushr",
    0x56: "utof", 0x57: "xor", 0x83: "f16tof32", 0x84: "uaddc", 0x85: "usubb", 0x86: "countbits", 0x87: "firstbit_hi",
    0x88: "firstbit_lo", 0x89: "firstbit_shi", 0x8a: "ubfe", 0x8b: "ibfe", 0x8c: "bfi", 0x8d: "bfrev",
    0x1f: "if", 0x03: "breakc", 0x08: "continuec", 0x0d: "discard", 0x3f: "retc", 0x4c: "switch", 0x37: "movc",
    0x2d: "ld", 0x3d: "resinfo", 0xa3: "ld_uav_typed", 0xa4: "store_uav_typed", 0xa5: "ld_raw", 0xa6: "store_raw",
    0xa7: "ld_structured", 0xa8: "store_structured", 0xa9: "atomic_and", 0xaa: "atomic_or", 0xab: "atomic_xor",
    0xac: "atomic_cmp_store", 0xad: "atomic_iadd", 0xae: "atomic_imax", 0xaf: "atomic_imin", 0xb0: "atomic_umax",
    0xb1: "atomic_umin", 0xb4: "imm_atomic_iadd", 0xb5: "imm_atomic_and", 0xb6: "imm_atomic_or", 0xb7: "imm_atomic_xor",
    0xb8: "imm_atomic_exch", 0xb9: "imm_atomic_cmp_exch", 0xba: "imm_atomic_imax", 0xbb: "imm_atomic_imin",
    0xbc: "imm_atomic_umax", 0xbd: "imm_atomic_umin",
}
# Opcodes reading every source as a float (or double); movc/swapc/gather4_po(_c)/eval_* have one integer operand.
_FLOAT_OPS = {0x00, 0x0b, 0x0c, 0x0e, 0x0f, 0x10, 0x11, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x2f, 0x31, 0x32, 0x33, 0x34,
              0x36, 0x38, 0x39, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4d, 0x6c, 0x6d,
              0x7a, 0x7b, 0x7c, 0x7d, 0x7e, 0x81, 0x82, 0xcd, 0xd2, 0xd3, 0xd4, 0xd6, 0xd7, *range(0xbf, 0xcb)}
_ONE_INTEGER_OPERAND = {0x37: 1, 0x8e: 2, 0x7f: 2, 0x80: 2, 0xcb: 2, 0xcc: 2}   # opcode -> operand index (dsts counted)
_DECLARATIONS = {*range(0x58, 0x6b), *range(0x8f, 0xa3), 0xce, 0x35, *range(0x71, 0x75), 0x78}
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
    """(instruction name, modifier) of each float source modifier on an operand the instruction does not read as
    a float."""
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
        if opcode not in _DECLARATIONS and opcode not in _FLOAT_OPS:
            q = p + 1
            ext = bool(t >> 31)
            while ext:
                ext = bool(tokens[q] >> 31)
                q += 1
            end = p + length
            index = 0
            try:
                while q < end:
                    q, modifier = _operand(tokens, q)
                    if modifier and _ONE_INTEGER_OPERAND.get(opcode, index) == index:
                        yield _INTEGER_OPS.get(opcode, f"opcode {opcode}"), _MODIFIERS.get(modifier, "?")
                    index += 1
            except IndexError:
                return
        p += length


_FOLD_SOURCE = re.compile(r"\bas(?:u?int)\s*\(\s*(?:-|abs\s*\()")


def candidate_lines(text: str) -> List[int]:
    """1-based lines of `text` holding asuint(-...)/asint(abs(...))-like expressions."""
    return [n + 1 for n, line in enumerate(text.splitlines()) if _FOLD_SOURCE.search(line)]
