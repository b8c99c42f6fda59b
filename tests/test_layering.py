"""Layers only go down (issue 12): every #include under cpp/ names a file of the same layer or a lower one.

The layer order, written down once (lowest first; one rank may hold several peer folders, which
may include each other):

    core        errors, small helpers (no D3D12); builtin: the core's shaders as DXBC byte arrays
    platform    the only files that include the Windows SDK or vkd3d
    d3dx12      external/d3dx12/: the project's own d3dx12-style helpers (over platform's header)
    alloc       device-independent allocators (no D3D12)
    memory, descriptors, resources, shaders
                the D3D12 building blocks; device/DeviceCore.hpp is what they need from the
                device (serials, submission lock, native device, allocators, options, statistics)
    gpu         device, queues, command lists, pipelines
    bindings    the pybind11 extension dx12kit.dx12core
    bench       the benchmark module dx12kit._bench (and benchmarks/baseline, which only it compiles)

A file's layer is the folder it lives in (cpp/include/dx12kit/<layer>/, cpp/src/<layer>/,
cpp/bindings/, cpp/bench/, external/d3dx12/); an include's layer is the folder of the file it
resolves to.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CPP = ROOT / "cpp"
EXTERNAL = ROOT / "external"

LAYERS = [
    ("core", "builtin"),
    ("platform",),
    ("d3dx12",),
    ("alloc",),
    ("memory", "descriptors", "resources", "shaders"),
    ("gpu",),
    ("bindings",),
    ("bench", "baseline"),
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer_of(path: Path) -> str:
    rel = path.resolve().relative_to(ROOT).parts
    if rel[:3] == ("cpp", "include", "dx12kit"):
        return rel[3]
    if rel[:2] == ("cpp", "src"):
        return rel[2]
    if rel[:2] == ("cpp", "bindings"):
        return "bindings"
    if rel[:2] == ("cpp", "bench"):
        return "bench"
    if rel[:2] == ("benchmarks", "baseline"):
        return "baseline"
    if rel[:2] == ("external", "d3dx12"):
        return "d3dx12"
    raise AssertionError(f"{path}: not in a known layer; add its folder to LAYERS in {__file__}")


def resolve(include: str, source: Path) -> Path | None:
    """The file a quoted include names: relative to the source, or under cpp/include."""
    for base in (source.parent, CPP / "include", EXTERNAL, ROOT / "benchmarks" / "baseline"):
        candidate = (base / include)
        if candidate.is_file():
            return candidate.resolve()
    return None


def sources() -> list[Path]:
    files = [p for p in CPP.rglob("*") if p.suffix in (".hpp", ".cpp", ".h")]
    files += list((ROOT / "benchmarks" / "baseline").glob("*.[ch]pp"))
    files += [p for p in (EXTERNAL / "d3dx12").rglob("*") if p.suffix in (".hpp", ".cpp", ".h")]
    return sorted(files)


def upward_includes() -> list[str]:
    bad = []
    for src in sources():
        src_layer = layer_of(src)
        for inc in INCLUDE.findall(src.read_text()):
            target = resolve(inc, src)
            assert target is not None, f"{src.relative_to(ROOT)}: cannot resolve #include \"{inc}\""
            dst_layer = layer_of(target)
            if RANK[dst_layer] > RANK[src_layer]:
                bad.append(f"{src.relative_to(ROOT)} ({src_layer}) includes {inc} ({dst_layer})")
    return bad


def test_no_upward_include():
    bad = upward_includes()
    assert not bad, "includes that go up a layer:\n  " + "\n  ".join(bad)


def test_the_check_sees_the_includes():
    """Guards the check itself: it finds the sources and resolves their includes."""
    files = sources()
    assert any(p.name == "Device.cpp" for p in files) and any(p.name == "Module.cpp" for p in files)
    assert layer_of(CPP / "include" / "dx12kit" / "gpu" / "Device.hpp") == "gpu"
    assert RANK["resources"] < RANK["gpu"] < RANK["bindings"] < RANK["bench"]
    assert any(p.name == "D3dx12Lite.hpp" and layer_of(p) == "d3dx12" for p in files)
    assert RANK["platform"] < RANK["d3dx12"] < RANK["resources"]


def test_d3dx12_helpers_live_in_external():
    """The design card's layout: the d3dx12 helper layer is external/d3dx12/, included as
    "d3dx12/D3dx12Lite.hpp"; nothing includes it from its old place."""
    assert (EXTERNAL / "d3dx12" / "D3dx12Lite.hpp").is_file() and (EXTERNAL / "d3dx12" / "README.md").is_file()
    assert not (CPP / "include" / "dx12kit" / "platform" / "D3dx12Lite.hpp").exists()
    users = [src for src in sources() if "d3dx12/D3dx12Lite.hpp" in INCLUDE.findall(src.read_text())]
    assert len(users) >= 5
