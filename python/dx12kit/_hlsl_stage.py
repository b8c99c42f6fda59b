"""The shader stage of an HLSL entry point, read from its source (compile_hlsl without a profile).

Rules, first match wins (each names what it saw, for messages):

1. ``[outputcontrolpoints(...)]`` or ``[patchconstantfunc(...)]`` on the entry: hull (``hs``);
2. ``[maxvertexcount(...)]``: geometry (``gs``);
3. ``[domain(...)]`` (without the hull attributes): domain (``ds``);
4. ``[numthreads(...)]``: compute (``cs``);
5. an output with semantic ``SV_Target`` / ``SV_TargetN`` / ``SV_Depth*`` / ``SV_Coverage``: pixel (``ps``);
6. an ``SV_Position`` output: vertex (``vs``).

Outputs are the return value's semantic, the members of a returned struct, and ``out``/``inout``
parameters (their semantic or their struct's members). The text is the include-expanded source;
macros are not expanded (a stage hidden behind a macro needs ``stage=``).
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

STAGES = {"compute": "cs", "vertex": "vs", "pixel": "ps", "geometry": "gs", "hull": "hs", "domain": "ds"}
"""Stage names accepted by ``compile_hlsl(stage=)`` and their profile prefixes (the prefixes are accepted too)."""

_COMMENTS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"', re.S)
_STRUCT = re.compile(r"\bstruct\s+([A-Za-z_]\w*)\s*\{(.*?)\}\s*;", re.S)
_MEMBER_SEMANTIC = re.compile(r":\s*([A-Za-z_]\w*)\s*;")
_PIXEL = re.compile(r"^SV_(TARGET\d*|DEPTH\w*|COVERAGE)$")


def _code(text: str) -> str:
    """`text` without comments and preprocessor lines (string literals kept, attribute arguments use them)."""
    text = _COMMENTS.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " ", text)
    return "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))


def _close_paren(text: str, i: int) -> int:
    """Index after the ')' matching the '(' at text[i - 1]; -1 when none."""
    level = 1
    while i < len(text):
        c = text[i]
        if c == "(":
            level += 1
        elif c == ")":
            level -= 1
            if level == 0:
                return i + 1
        i += 1
    return -1


def _split_params(params: str) -> List[str]:
    out: List[str] = []
    cur: List[str] = []
    level = 0
    for c in params:
        if c in "<(":
            level += 1
        elif c in ">)":
            level -= 1
        if c == "," and level == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        out.append("".join(cur))
    return out


def detect_stage(text: str, entry: str) -> Tuple[Optional[str], str]:
    """(profile prefix such as ``"cs"``, or None; the reason, for messages)."""
    code = _code(text)
    structs: Dict[str, List[str]] = {m.group(1): list(_MEMBER_SEMANTIC.findall(m.group(2))) for m in _STRUCT.finditer(code)}
    for m in re.finditer(r"\b" + re.escape(entry) + r"\s*\(", code):
        end = _close_paren(code, m.end())
        if end < 0:
            continue
        after = re.compile(r"\s*(?::\s*([A-Za-z_]\w*)\s*)?\{").match(code, end)
        if after is None:
            continue  # a call or a declaration, not the definition
        start = max(code.rfind(";", 0, m.start()), code.rfind("}", 0, m.start())) + 1
        prefix = code[start:m.start()]
        attributes = [a.lower() for a in re.findall(r"\[\s*([A-Za-z_]\w*)", prefix)]
        return_type = re.sub(r"\[[^\]]*\]", " ", prefix).split()
        where = f"entry '{entry}'"
        for attr, stage in (("outputcontrolpoints", "hs"), ("patchconstantfunc", "hs"), ("maxvertexcount", "gs"), ("domain", "ds"),
                            ("numthreads", "cs")):
            if attr in attributes:
                return stage, f"stage chosen from the [{attr}] attribute of {where}"
        outputs: List[Tuple[str, str]] = []  # (semantic, where)
        if after.group(1):
            outputs.append((after.group(1), "its return semantic"))
        if return_type and return_type[-1] in structs:
            outputs += [(s, f"its return type {return_type[-1]}") for s in structs[return_type[-1]]]
        for p in _split_params(code[m.end():end - 1]):
            words = re.findall(r"[A-Za-z_][\w<>]*", p.split(":")[0])
            if not words or words[0] not in ("out", "inout"):
                continue
            semantic = re.search(r":\s*([A-Za-z_]\w*)\s*$", p.strip())
            if semantic:
                outputs.append((semantic.group(1), f"its out parameter '{words[-1]}'"))
            elif len(words) >= 2 and words[1] in structs:
                outputs += [(s, f"its out parameter '{words[-1]}' ({words[1]})") for s in structs[words[1]]]
        for sem, source in outputs:
            if _PIXEL.match(sem.upper()):
                return "ps", f"stage chosen from the {sem} output of {where} ({source})"
        for sem, source in outputs:
            if sem.upper() == "SV_POSITION":
                return "vs", f"stage chosen from the SV_Position output of {where} ({source})"
        return None, (f"{where} has none of [numthreads], [maxvertexcount], [domain], [outputcontrolpoints] and no SV_Target "
                      "or SV_Position output")
    return None, f"no definition of entry '{entry}' found in the source"
