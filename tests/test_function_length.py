"""No function in the C++ core (cpp/src) runs over 150 lines: longer ones are split at their natural
steps. Lengths come from scripts/cpplayers.py's scanner (from a function's first declaration line to
its closing brace); `.venv/bin/python scripts/cpplayers.py long 100` lists the longest."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 150
# Functions allowed over the limit, each with the reason; the test fails once one is short enough, so
# the list only shrinks.
ALLOWED: dict[str, str] = {}


def _scanner():
    spec = importlib.util.spec_from_file_location("cpplayers", ROOT / "scripts" / "cpplayers.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cpplayers", mod)
    spec.loader.exec_module(mod)
    return mod


cpplayers = _scanner()


def test_no_function_in_cpp_src_is_longer_than_150_lines():
    long = cpplayers.long_functions(LIMIT)
    bad = [f"{f.name} ({f.path.relative_to(ROOT)}:{f.line}): {f.lines} lines" for f in long if f.name not in ALLOWED]
    assert not bad, f"functions over {LIMIT} lines (split them at their steps):\n  " + "\n  ".join(bad)
    stale = sorted(set(ALLOWED) - {f.name for f in long})
    assert not stale, f"no longer over {LIMIT} lines: drop them from ALLOWED: {stale}"


def test_the_length_scan_sees_the_functions():
    """Guards the scan: it finds the core's functions, with lengths from first line to closing brace."""
    found = [f for p in cpplayers.cpp_files(ROOT / "cpp" / "src") for f in cpplayers.functions(p)]
    assert len(found) > 600
    names = {f.name for f in found}
    assert {"CommandList::Dispatch", "Device::Poll", "Defragment", "RootSignature::RootSignature"} <= names
    code = "void A::f() {\n  if (x) {\n  }\n}\n\nint g(int a,\n      int b)\n{\n  return a;\n}\n"
    assert [(f.name, f.line, f.lines) for f in cpplayers.functions(Path("y.cpp"), code)] == [("A::f", 1, 4), ("g", 6, 5)]
