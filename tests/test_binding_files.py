"""One binding file per Python class (cpp/bindings/README.md states the rule).

Reads the sources, nothing runs: every class of the D3D12 layer (registered in Classes.hpp) gets its
methods in Bind<Class>.cpp, or in Bind<Class><Concept>.cpp helpers, unless it is one of a concept's small
classes that share a file named for the concept; classes registered with py::class_ outside Classes.hpp
live in such concept files too.
"""
from __future__ import annotations

import re
from pathlib import Path

BINDINGS = Path(__file__).resolve().parents[1] / "cpp" / "bindings"
# Files named for a concept, and the classes they may bind.
CONCEPT_FILES = {
    "BindFormat.cpp": {"FormatSupport"},
    "BindRootLayout.cpp": {"DescriptorRange", "RootParameter", "StaticSamplerDesc"},  # the root-signature layout
    "BindDescriptors.cpp": {"DescriptorAllocation", "CpuDescriptorAllocator", "ShaderVisibleHeap"},
    "BindShaders.cpp": {"ShaderBinding", "SignatureElement", "ShaderReflection"},
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
