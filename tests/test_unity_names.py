"""No two files of one unity batch define a free function of the same name.

The core libraries and the bindings are unity-built (cmake/BuildSpeed.cmake): several .cpp files are
compiled as one translation unit. Two definitions with one signature then fail to compile, but two
functions of one name with different parameters (each file's own helper, in an anonymous namespace
or not) become overloads of each other, and a call can silently pick the other file's function. So
any two files that a target may batch together must not define free functions of one name; a file
that needs such a name is compiled alone (SKIP_UNITY_BUILD_INCLUSION in cpp/CMakeLists.txt).
Reads the sources, nothing is compiled.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import cpplayers  # noqa: E402  (the C++ scanner of the layering and function-length checks)

CPP = Path(__file__).resolve().parents[1] / "cpp"
CMAKE = (CPP / "CMakeLists.txt").read_text()
# The unity-built targets, by the variable that lists their sources.
TARGETS = ["DX12KIT_ALLOC_SOURCES", "DX12KIT_SHADERS_SOURCES", "DX12KIT_GPU_SOURCES", "DX12KIT_BINDING_SOURCES"]


# Names defined in several such files whose overloads cannot be confused: no argument list fits two of them.
DISTINCT = {
    # (const BufferViewDesc&), (int, uint64_t, const std::string&, uint64_t), (const D3D12_INDIRECT_ARGUMENT_DESC&)
    "Describe": {"src/resources/BufferView.cpp", "src/gpu/QueueSubmitter.cpp", "src/gpu/CommandSignature.cpp"},
}


def listed(var: str) -> list[str]:
    body = re.search(r"set\(" + var + r"\b(.*?)\)", CMAKE, re.S)
    assert body, var
    return [w for w in re.sub(r"#[^\n]*", "", body.group(1)).split() if w.endswith(".cpp")]


def compiled_alone() -> set[str]:
    """Files with SKIP_UNITY_BUILD_INCLUSION, or a compile definition of their own (CMake never batches those)."""
    alone: set[str] = set()
    for files, props in re.findall(r"set_source_files_properties\((.*?)PROPERTIES(.*?)\)", CMAKE, re.S):
        if "SKIP_UNITY_BUILD_INCLUSION" in props or "COMPILE_DEFINITIONS" in props:
            alone.update(w for w in re.sub(r"#[^\n]*", "", files).split() if w.endswith(".cpp"))
    return alone


def free_functions(path: Path) -> set[str]:
    # ("defined": the scanner reads `#if defined(X)` before a brace as a function head)
    return {f.name for f in cpplayers.functions(path)
            if "::" not in f.name and not f.name.startswith("operator") and f.name != "defined"}


def test_no_free_function_name_is_defined_in_two_files_of_one_target():
    alone = compiled_alone()
    clashes = []
    for var in TARGETS:
        seen: dict[str, str] = {}
        files = [f for f in listed(var) if f not in alone]
        assert len(files) > 3, var
        for f in files:
            for name in sorted(free_functions(CPP / f)):
                if name in seen and not {seen[name], f} <= DISTINCT.get(name, set()):
                    clashes.append(f"{name}: {seen[name]} and {f}")
                else:
                    seen.setdefault(name, f)
    assert not clashes, ("free functions of one name in two files that one unity batch may hold (rename one, "
                         "or compile the file alone: SKIP_UNITY_BUILD_INCLUSION in cpp/CMakeLists.txt):\n  "
                         + "\n  ".join(clashes))


def test_the_scan_sees_the_files_compiled_alone():
    # TlsfAllocator.cpp and FreeListAllocator.cpp each have their own Broken(): the reason the first is alone.
    assert "src/alloc/TlsfAllocator.cpp" in compiled_alone()
    assert "Broken" in free_functions(CPP / "src/alloc/TlsfAllocator.cpp") & free_functions(CPP / "src/alloc/FreeListAllocator.cpp")
