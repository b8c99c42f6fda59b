"""The HLSL root-signature language, parsed into dx12kit's root parameters.

``Device.create_root_signature(text)`` and ``Shader.root_signature`` use this module. The grammar
is the one of ``[RootSignature(...)]`` attributes ("Specifying Root Signatures in HLSL"), a
comma-separated list of::

    RootFlags(0 | FLAG | FLAG ...)            ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT, DENY_*_SHADER_ROOT_ACCESS,
                                              ALLOW_STREAM_OUTPUT
    RootConstants(num32BitConstants=N, bReg [, space=N] [, visibility=SHADER_VISIBILITY_*])
    CBV(bReg [, space=N] [, visibility=...] [, flags=DATA_VOLATILE | DATA_STATIC_WHILE_SET_AT_EXECUTE | DATA_STATIC])
    SRV(tReg ...), UAV(uReg ...)              as CBV
    DescriptorTable(clause, ... [, visibility=...])
        clause: CBV(bReg | SRV(tReg | UAV(uReg | Sampler(sReg
                [, numDescriptors=N | unbounded] [, space=N] [, offset=N | DESCRIPTOR_RANGE_OFFSET_APPEND]
                [, flags=DESCRIPTORS_VOLATILE | DATA_VOLATILE | DATA_STATIC_WHILE_SET_AT_EXECUTE | DATA_STATIC])
    StaticSampler(sReg [, filter=FILTER_*] [, addressU=TEXTURE_ADDRESS_*] [, addressV=...] [, addressW=...]
                  [, mipLODBias=F] [, maxAnisotropy=N] [, comparisonFunc=COMPARISON_*]
                  [, borderColor=STATIC_BORDER_COLOR_*] [, minLOD=F] [, maxLOD=F] [, space=N] [, visibility=...])

Keywords are matched without regard to case; arguments may come in any order. Defaults follow
the language: root flags 0, visibility ALL, static samplers anisotropic, wrap, LESS_EQUAL,
opaque white border. Errors raise :class:`InvalidArgumentError` showing the text and a caret at
the column.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from . import dx12core as _core
from ._names import did_you_mean
from .enums import AddressMode, BorderColor, ComparisonFunc, Filter, Visibility
from .errors import InvalidArgumentError

__all__ = ["parse_root_signature", "ROOT_FLAGS"]

# The flag names and values come from the core's tables (RootSignatureCheck.cpp), which the RootSignature
# constructor applies: the enums hold the supported flags, refused_flags() the ones vkd3d 1.2 cannot
# honour with the reason, which the parser shows at the flag's column.
ROOT_FLAGS = {name: int(flag) for name, flag in _core.RootSignatureFlags.__members__.items() if flag}
_RANGE_FLAGS = {name: int(flag) for name, flag in _core.DescriptorRangeFlags.__members__.items() if flag}
_ROOT_DESCRIPTOR_FLAGS = {name: int(flag) for name, flag in _core.RootDescriptorFlags.__members__.items() if flag}
_REFUSED = _core.refused_flags()   # {enum name: {flag name: why}}
# The choices of the language's enum tokens (SHADER_VISIBILITY_*, COMPARISON_*, TEXTURE_ADDRESS_*,
# STATIC_BORDER_COLOR_*, FILTER_*): the members of the enums, which the core's choice tables make
# (dx12kit.enums); a filter is one of D3D12's names, not dx12kit's presets (point, linear, bilinear).
_VISIBILITY = {m.name: m.value for m in Visibility}
_COMPARISONS = {m.name for m in ComparisonFunc}
_ADDRESSES = {m.name for m in AddressMode}
_BORDERS = {m.name for m in BorderColor}
_FILTERS = {m.name for m in Filter} - {"POINT", "LINEAR", "BILINEAR"}
_FLT_MAX = 3.402823466e38

_TOKEN = re.compile(
    r"\s*(?:(?P<num>[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?[fF]?)|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>[(),=|]))"
)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: List[Tuple[str, str, int]] = []  # (kind, value, column 0-based)
        pos = 0
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text):
                break
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                self.fail(pos, f"unexpected character {text[pos]!r}")
            assert m is not None
            kind = m.lastgroup or "punct"
            self.tokens.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0

    # ---- errors -------------------------------------------------------------------------------
    def fail(self, column: int, message: str) -> None:
        line = self.text.replace("\n", " ")
        raise InvalidArgumentError(
            f"root signature, column {column + 1}: {message}\n  {line}\n  {' ' * column}^"
        )

    def column(self) -> int:
        return self.tokens[self.i][2] if self.i < len(self.tokens) else len(self.text)

    # ---- tokens -------------------------------------------------------------------------------
    def peek(self) -> Optional[Tuple[str, str, int]]:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> Tuple[str, str, int]:
        tok = self.peek()
        if tok is None:
            self.fail(len(self.text), "unexpected end of the root signature")
        assert tok is not None
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        tok = self.peek()
        if tok is None or tok[1] != value:
            self.fail(self.column(), f"expected '{value}'" + (f", found '{tok[1]}'" if tok else " at the end"))
        self.i += 1

    def accept(self, value: str) -> bool:
        tok = self.peek()
        if tok is not None and tok[1] == value:
            self.i += 1
            return True
        return False

    def ident(self, what: str) -> Tuple[str, int]:
        tok = self.take()
        if tok[0] != "id":
            self.fail(tok[2], f"expected {what}, found '{tok[1]}'")
        return tok[1], tok[2]

    def uint(self, what: str) -> int:
        tok = self.take()
        if tok[0] != "num" or not re.fullmatch(r"\+?\d+", tok[1]):
            self.fail(tok[2], f"{what} must be a non-negative integer, not '{tok[1]}'")
        value = int(tok[1])
        if value > 0xFFFFFFFF:
            self.fail(tok[2], f"{what} {value} does not fit in 32 bits")
        return value

    def float_(self, what: str) -> float:
        tok = self.take()
        if tok[0] != "num":
            self.fail(tok[2], f"{what} must be a number, not '{tok[1]}'")
        return float(tok[1].rstrip("fF"))

    def enum(self, prefix: str, names: Any, what: str) -> str:
        name, col = self.ident(what)
        up = name.upper()
        if up.startswith(prefix):
            up = up[len(prefix):]
        if up not in names:
            options = ", ".join(prefix + n for n in sorted(names))
            self.fail(col, f"unknown {what} '{name}' (one of: {options}){did_you_mean(up, names)}")
        return up

    def flags(self, table: Dict[str, int], refused: Dict[str, str], what: str) -> int:
        value = 0
        while True:
            tok = self.take()
            if tok[0] == "num" and tok[1] == "0":
                pass
            elif tok[0] == "id" and tok[1].upper() in table:
                value |= table[tok[1].upper()]
            elif tok[0] == "id" and tok[1].upper() == "NONE":
                pass
            elif tok[0] == "id" and tok[1].upper() in refused:
                self.fail(tok[2], f"{what} '{tok[1]}' is not supported: {refused[tok[1].upper()]}")
            else:
                self.fail(tok[2], f"unknown {what} '{tok[1]}' (one of: 0, {', '.join(sorted(table))}){did_you_mean(tok[1].upper(), table)}")
            if not self.accept("|"):
                return value

    def register(self, cls: str, what: str) -> int:
        name, col = self.ident(f"a register {cls}N")
        m = re.fullmatch(r"([btusBTUS])(\d+)", name)
        if not m or m.group(1).lower() != cls:
            self.fail(col, f"{what} needs a {cls} register such as {cls}0, not '{name}'")
        assert m is not None
        return int(m.group(2))

    # ---- clauses -------------------------------------------------------------------------------
    def arguments(self, what: str, positional: Any, named: Dict[str, Any]) -> Dict[str, Any]:
        """Parses '(' args ')' where `positional(self)` handles a register token and named[key](self) a key=value."""
        out: Dict[str, Any] = {}
        self.expect("(")
        if self.accept(")"):
            return out
        while True:
            tok = self.peek()
            nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
            if tok is not None and tok[0] == "id" and nxt is not None and nxt[1] == "=":
                key = tok[1].lower()
                if key not in named:
                    self.fail(tok[2], f"{what} has no argument '{tok[1]}' (arguments: {', '.join(sorted(named))})")
                if key in out:
                    self.fail(tok[2], f"{what}: '{tok[1]}' given twice")
                self.i += 2
                out[key] = named[key](self)
            elif positional is not None:
                col = self.column()
                key, value = positional(self)
                if key in out:
                    self.fail(col, f"{what}: {key} given twice")
                out[key] = value
            else:
                self.fail(self.column(), f"{what}: expected name=value")
            if self.accept(")"):
                return out
            self.expect(",")

    def visibility(self) -> Any:  # a Visibility name, checked by the binding
        return _VISIBILITY[self.enum("SHADER_VISIBILITY_", _VISIBILITY, "shader visibility")]

    def parse(self) -> Tuple[List[Any], List[Any], int]:
        from . import dx12core as core

        params: List[Any] = []
        samplers: List[Any] = []
        flags = 0
        seen_flags = False
        while self.peek() is not None:
            name, col = self.ident("a root signature clause")
            key = name.lower()
            if key == "rootflags":
                if seen_flags:
                    self.fail(col, "RootFlags given twice")
                seen_flags = True
                self.expect("(")
                flags = self.flags(ROOT_FLAGS, _REFUSED["RootSignatureFlags"], "root flag")
                self.expect(")")
            elif key == "rootconstants":
                a = self.arguments("RootConstants", lambda p: ("register", p.register("b", "RootConstants")), {
                    "num32bitconstants": lambda p: p.uint("num32BitConstants"),
                    "space": lambda p: p.uint("space"),
                    "visibility": lambda p: p.visibility(),
                })
                for need in ("register", "num32bitconstants"):
                    if need not in a:
                        self.fail(col, f"RootConstants needs {'a b register' if need == 'register' else 'num32BitConstants='}")
                if a["num32bitconstants"] == 0:
                    self.fail(col, "RootConstants: num32BitConstants must be positive")
                params.append(core.RootConstants(a["register"], a["num32bitconstants"], a.get("space", 0), a.get("visibility", "all")))
            elif key in ("cbv", "srv", "uav"):
                cls = {"cbv": "b", "srv": "t", "uav": "u"}[key]
                a = self.arguments(name, lambda p, cls=cls, name=name: ("register", p.register(cls, name)), {
                    "space": lambda p: p.uint("space"),
                    "visibility": lambda p: p.visibility(),
                    "flags": lambda p: p.flags(_ROOT_DESCRIPTOR_FLAGS, _REFUSED["RootDescriptorFlags"], "root descriptor flag"),
                })
                if "register" not in a:
                    self.fail(col, f"{name} needs a {cls} register")
                make = {"cbv": core.RootCBV, "srv": core.RootSRV, "uav": core.RootUAV}[key]
                params.append(make(a["register"], a.get("space", 0), a.get("visibility", "all"), flags=a.get("flags", 0)))
            elif key == "descriptortable":
                params.append(self.table(col))
            elif key == "staticsampler":
                samplers.append(self.static_sampler(col))
            else:
                clauses = ("RootFlags", "RootConstants", "CBV", "SRV", "UAV", "DescriptorTable", "StaticSampler")
                self.fail(col, f"unknown root signature clause '{name}' ({', '.join(clauses)}){did_you_mean(name, clauses)}")
            if self.peek() is not None:
                self.expect(",")
                if self.peek() is None:
                    break  # a trailing comma
        return params, samplers, flags

    def table(self, col: int) -> Any:
        from . import dx12core as core

        ranges: List[Any] = []
        visibility: Any = "all"
        self.expect("(")
        while True:
            name, ccol = self.ident("a descriptor range (CBV, SRV, UAV, Sampler) or visibility=")
            key = name.lower()
            if key == "visibility":
                self.expect("=")
                visibility = self.visibility()
            elif key in ("cbv", "srv", "uav", "sampler"):
                cls = {"cbv": "b", "srv": "t", "uav": "u", "sampler": "s"}[key]

                def count(p: _Parser) -> int:
                    tok = p.peek()
                    if tok is not None and tok[0] == "id" and tok[1].lower() == "unbounded":
                        p.i += 1
                        return int(core.UNBOUNDED)
                    n = p.uint("numDescriptors")
                    if n == 0:
                        p.fail(tok[2] if tok else p.column(), "numDescriptors must be positive (or unbounded)")
                    return n

                def offset(p: _Parser) -> Optional[int]:
                    tok = p.peek()
                    if tok is not None and tok[0] == "id" and tok[1].upper() == "DESCRIPTOR_RANGE_OFFSET_APPEND":
                        p.i += 1
                        return None
                    return p.uint("offset")

                a = self.arguments(name, lambda p, cls=cls, name=name: ("register", p.register(cls, name)), {
                    "numdescriptors": count,
                    "space": lambda p: p.uint("space"),
                    "offset": offset,
                    "flags": lambda p: p.flags(_RANGE_FLAGS, _REFUSED["DescriptorRangeFlags"], "descriptor range flag"),
                })
                if "register" not in a:
                    self.fail(ccol, f"{name} needs a {cls} register")
                make = {"cbv": core.CBV, "srv": core.SRV, "uav": core.UAV, "sampler": core.Sampler}[key]
                ranges.append(make(a["register"], a.get("numdescriptors", 1), a.get("space", 0), offset=a.get("offset"),
                                   flags=a.get("flags", 0)))
            else:
                self.fail(ccol, f"DescriptorTable holds CBV, SRV, UAV or Sampler ranges and visibility=, not '{name}'")
            if self.accept(")"):
                break
            self.expect(",")
        if not ranges:
            self.fail(col, "DescriptorTable without ranges")
        kinds = {r.kind == "sampler" for r in ranges}
        if len(kinds) > 1:
            self.fail(col, "a DescriptorTable cannot mix Sampler ranges with CBV/SRV/UAV ranges")
        return core.DescriptorTable(ranges, visibility)

    def static_sampler(self, col: int) -> Any:
        from . import dx12core as core

        a = self.arguments("StaticSampler", lambda p: ("register", p.register("s", "StaticSampler")), {
            "filter": lambda p: p.enum("FILTER_", _FILTERS, "filter").lower(),
            "addressu": lambda p: p.enum("TEXTURE_ADDRESS_", _ADDRESSES, "address mode").lower(),
            "addressv": lambda p: p.enum("TEXTURE_ADDRESS_", _ADDRESSES, "address mode").lower(),
            "addressw": lambda p: p.enum("TEXTURE_ADDRESS_", _ADDRESSES, "address mode").lower(),
            "miplodbias": lambda p: p.float_("mipLODBias"),
            "maxanisotropy": lambda p: p.uint("maxAnisotropy"),
            "comparisonfunc": lambda p: p.enum("COMPARISON_", _COMPARISONS, "comparison function").lower(),
            "bordercolor": lambda p: p.enum("STATIC_BORDER_COLOR_", _BORDERS, "border color").lower(),
            "minlod": lambda p: p.float_("minLOD"),
            "maxlod": lambda p: p.float_("maxLOD"),
            "space": lambda p: p.uint("space"),
            "visibility": lambda p: p.visibility(),
        })
        if "register" not in a:
            self.fail(col, "StaticSampler needs an s register")
        if a.get("maxanisotropy", 16) > 16:
            self.fail(col, "StaticSampler: maxAnisotropy is at most 16")
        if a.get("maxanisotropy", 16) < 1:
            self.fail(col, "StaticSampler: maxAnisotropy is at least 1 (D3D12: 1 to 16)")
        return core.StaticSampler(
            a["register"], a.get("filter", "anisotropic"), a.get("addressu", "wrap"), a.get("space", 0), a.get("visibility", "all"),
            address_v=a.get("addressv", "wrap"), address_w=a.get("addressw", "wrap"), mip_lod_bias=a.get("miplodbias", 0.0),
            max_anisotropy=a.get("maxanisotropy", 16), comparison=a.get("comparisonfunc", "less_equal"),
            border_color=a.get("bordercolor", "opaque_white"), min_lod=a.get("minlod", 0.0), max_lod=a.get("maxlod", _FLT_MAX))


def parse_root_signature(text: str) -> Tuple[List[Any], List[Any], int]:
    """Parses root-signature text into ``(parameters, static_samplers, flags)``.

    Args:
        text: the root-signature language, as in ``[RootSignature("...")]`` (the string's contents).

    Returns:
        The root parameters (``RootConstants``/``RootCBV``/``RootSRV``/``RootUAV``/``DescriptorTable``
        objects), the ``StaticSampler`` objects and the ``D3D12_ROOT_SIGNATURE_FLAGS`` value.

    Raises:
        InvalidArgumentError: the text does not parse; the message shows the column.
        TypeError: `text` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_root_signature: expected a str, got {type(text).__name__}")
    return _Parser(text).parse()
