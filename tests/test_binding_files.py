"""One binding file per Python class (cpp/bindings/README.md states the rule).

Reads the sources, nothing runs: every class of the D3D12 layer (registered in Classes.hpp) gets its
methods in Bind<Class>.cpp, or in Bind<Class><Concept>.cpp helpers, unless it is one of a concept's small
classes that share a file named for the concept; classes registered with py::class_ outside Classes.hpp
live in such concept files too.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import cpplayers  # noqa: E402  (the C++ scanner of the layering and function-length checks)

BINDINGS = Path(__file__).resolve().parents[1] / "cpp" / "bindings"
# Files named for a concept, and the classes they may bind.
CONCEPT_FILES = {
    "BindFormat.cpp": {"FormatSupport"},
    "BindRootLayout.cpp": {"DescriptorRange", "RootParameter", "StaticSamplerDesc"},  # the root-signature layout
    "BindDescriptors.cpp": {"DescriptorAllocation", "CpuDescriptorAllocator", "ShaderVisibleHeap"},
    "BindShaders.cpp": {"ShaderBinding", "SignatureElement", "ShaderReflection", "CbufferVariable"},
    # the fixed-function states of a graphics pipeline
    "BindPipelineStates.cpp": {"BlendState", "RasterizerState", "DepthStencilState", "StencilFace", "InputElement"},
}


def registered_classes() -> dict[str, str]:
    """Classes.hpp's members -> Python class names."""
    text = (BINDINGS / "Classes.hpp").read_text()
    return dict(re.findall(r'(\w+)\(m, "(\w+)"\)', text))


def test_each_class_is_bound_in_its_own_file():
    members = registered_classes()
    assert {"device", "commandList", "buffer", "texture"} <= set(members)
    where: dict[str, set[str]] = {}
    for f in sorted(BINDINGS.glob("*.cpp")):
        for member in set(re.findall(r"\bc\.(\w+)\b", f.read_text())) & set(members):
            where.setdefault(members[member], set()).add(f.name)
    wrong = []
    for cls, files in sorted(where.items()):
        for name in files:
            own = name == f"Bind{cls}.cpp" or (name.startswith(f"Bind{cls}") and name.endswith(".cpp"))
            if not own and cls not in CONCEPT_FILES.get(name, set()):
                wrong.append(f"{cls} in {name}")
    assert not wrong, "classes bound outside their own file: " + ", ".join(wrong)
    assert set(members.values()) <= set(where), f"classes with no binding file: {set(members.values()) - set(where)}"


def test_helpers_of_a_class_are_called_by_its_binding_only():
    """Bind<Class><Concept>() helpers are called from Bind<Class>() alone (one entry point per class)."""
    module = (BINDINGS / "Module.cpp").read_text()
    device = (BINDINGS / "BindDevice.cpp").read_text()
    for helper in ("BindDeviceMemory", "BindDeviceTextures"):
        assert f"{helper}(" in device and f"{helper}(" not in module


def test_classes_outside_classes_hpp_live_in_concept_files():
    for f in sorted(BINDINGS.glob("*.cpp")):
        for cls in re.findall(r'py::class_<[^>]*>+\(\s*\w+,\s*"(\w+)"', f.read_text()):
            assert cls in CONCEPT_FILES.get(f.name, set()), f"{cls} registered in {f.name}: register it in Classes.hpp"


# ---- binding functions stay short -------------------------------------------------------------------
# Docstrings live in cpp/bindings/docs/<Class>Docs.hpp (docs::<Class>::<member>), and a class's methods are
# bound by concept (DefCopies, DefBarriers, ...), so that no function of cpp/bindings/ runs past a screenful
# or two. The scan below blanks comments and string literals, then measures every function body (namespace
# or class scope; a lambda counts towards the function that holds it).
MAX_FUNCTION_LINES = 150


def function_lengths(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of every function body in a C++ source."""
    m = cpplayers.strip_code(text)   # comments and literals blanked, newlines kept
    found: list[tuple[str, int, int]] = []

    def closing(i: int) -> int:
        depth = 0
        for k in range(i, len(m)):
            if m[k] == "{":
                depth += 1
            elif m[k] == "}":
                depth -= 1
                if depth == 0:
                    return k
        raise ValueError("unbalanced braces")

    def scan(start: int, end: int) -> None:
        i = start
        while i < end:
            if m[i] != "{":
                i += 1
                continue
            j = closing(i)
            head = re.split(r"[;{}]", m[max(0, i - 400):i])[-1].strip()
            if re.search(r"\bnamespace\b[\w:\s]*$", head) or head.startswith("extern"):
                scan(i + 1, j)  # a namespace: look inside
            elif re.search(r"\b(struct|class|union)\b[^()=]*$", head) and not head.endswith(")"):
                scan(i + 1, j)  # a class: its member functions
            elif re.search(r"\)\s*(const|noexcept|override|final|->\s*[\w:<>&*, ]+|\s)*$", head) and not head.endswith("="):
                name = re.search(r"([~\w:]+)\s*\(", head)
                found.append((name.group(1) if name else head[:40], m.count("\n", 0, i) + 1, m.count("\n", i, j) + 1))
            i = j + 1

    scan(0, len(m))
    return found


def test_no_binding_function_is_longer_than_the_limit():
    sources = sorted(BINDINGS.rglob("*.cpp")) + sorted(BINDINGS.rglob("*.hpp"))
    long = [f"{f.relative_to(BINDINGS)}:{line} {name} ({n} lines)" for f in sources
            for name, line, n in function_lengths(f.read_text()) if n > MAX_FUNCTION_LINES]
    assert not long, (f"binding functions over {MAX_FUNCTION_LINES} lines (split them by concept; docstrings go to "
                      "cpp/bindings/docs/): " + ", ".join(long))


def test_the_length_scan_sees_functions_lambdas_and_literals():
    src = ('namespace a { namespace {\nint f(int x) {\n  auto g = [](int y) {\n    return y; };\n  return g(x);\n}\n}  }\n'
           'struct S { void m() const {\n} };\nconst char* s = "{ not a brace";  // {\n'
           'void h()\n{\n  int v[] = {1, 2};\n}\n')
    assert [(name, n) for name, _, n in function_lengths(src)] == [("f", 5), ("m", 2), ("h", 3)]
