"""Layers only go down: every #include under cpp/ names a file of the same folder
or of a lower layer, and the device-free parts include no D3D12 header.

The layer order, measured from the includes (lowest first). Folders that share a rank are peers
that do not know each other: neither includes the other.

    core          errors, host copies                                      (device-free)
    alloc         range allocators: FreeList, Tlsf, Linear, replay         (device-free)
    shaders       DXBC validation and reflection                           (device-free)
    builtin       the features' shaders as DXBC byte arrays (generated)    (device-free)
    platform      the only files that include the Windows SDK or vkd3d
    d3dx12        external/d3dx12/: the project's own d3dx12-style helpers
    memory, descriptors
                  the D3D12 building blocks over alloc: GPU memory pools; descriptor allocators
    device        the device's own state: DeviceCore (native device, allocators, submission lock,
                  serials, statistics), the format table and format support, upload pages
    resources     Resource/Buffer/Texture, views, resource states and the state tracker
    gpu           Device, queues, command lists, pipelines: the command-list core
    features      operations built on the core: defragmentation, mip generation, cube maps,
                  texture creation (cube and 3D textures)
    bindings      the pybind11 extension dx12kit.dx12core: one file per Python class (cpp/bindings/README.md)
    baseline      benchmarks/baseline/: the textbook allocator the benchmarks compare against
    bench         the benchmark module dx12kit_bench (never part of the product)

A file's layer is the folder it lives in (cpp/include/dx12kit/<layer>/, cpp/src/<layer>/,
cpp/bindings/, cpp/bench/, external/d3dx12/, benchmarks/baseline/); an include's layer is the
folder of the file it resolves to. Quoted and angle-bracket includes are both read: an
angle-bracket include that resolves to none of the project's files is a system header.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CPP = ROOT / "cpp"
EXTERNAL = ROOT / "external"
BASELINE = ROOT / "benchmarks" / "baseline"

LAYERS = [
    ("core",),
    ("alloc", "shaders", "builtin", "platform"),
    ("d3dx12",),
    ("memory", "descriptors"),
    ("device",),
    ("resources",),
    ("gpu",),
    ("features",),
    ("bindings",),
    ("baseline",),
    ("bench",),
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
# No D3D12 in these: they build and test without a device (alloc's allocators serve memory/ and
# descriptors/, and could serve any other API).
DEVICE_FREE = ("core", "alloc", "shaders", "builtin")
# System headers of the D3D12 platform (Windows SDK, mingw-w64, DirectX-Headers, vkd3d).
D3D12_HEADER = re.compile(r"^(d3d\w*|dxgi\w*|d3dx12|directx/.*|vkd3d.*|windows|unknwn|objbase|wrl.*|combaseapi)(\.h)?$",
                          re.I)
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)


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


def includes(text: str) -> list[tuple[str, bool]]:
    """(name, quoted) of every #include in `text`."""
    return [(q or a, bool(q)) for q, a in INCLUDE.findall(text)]


def resolve(include: str, source: Path, quoted: bool) -> Path | None:
    """The project file an include names: a quoted one relative to the source first, then (both
    kinds) under cpp/include, external/ and benchmarks/baseline/. None: not a project file."""
    bases = ([source.parent] if quoted else []) + [CPP / "include", EXTERNAL, BASELINE]
    for base in bases:
        candidate = base / include
        if candidate.is_file():
            return candidate.resolve()
    return None


def sources() -> list[Path]:
    files = [p for p in CPP.rglob("*") if p.suffix in (".hpp", ".cpp", ".h")]
    files += list(BASELINE.glob("*.[ch]pp"))
    files += [p for p in (EXTERNAL / "d3dx12").rglob("*") if p.suffix in (".hpp", ".cpp", ".h")]
    return sorted(files)


def edges() -> list[tuple[Path, str, str, str | None]]:
    """(source, its layer, include, the include's layer or None for a system header)."""
    out = []
    for src in sources():
        src_layer = layer_of(src)
        for inc, quoted in includes(src.read_text()):
            target = resolve(inc, src, quoted)
            assert target is not None or not quoted, f"{src.relative_to(ROOT)}: cannot resolve #include \"{inc}\""
            out.append((src, src_layer, inc, layer_of(target) if target is not None else None))
    return out


def test_no_upward_or_sideways_include():
    bad = [f"{src.relative_to(ROOT)} ({a}) includes {inc} ({b})"
           for src, a, inc, b in edges() if b is not None and b != a and RANK[b] >= RANK[a]]
    assert not bad, "includes that go up a layer or sideways to a peer:\n  " + "\n  ".join(bad)


def test_device_free_parts_include_no_d3d12_header():
    bad = [f"{src.relative_to(ROOT)} ({a}) includes {inc}" for src, a, inc, b in edges() if a in DEVICE_FREE and (
        (b is None and D3D12_HEADER.match(inc)) or (b is not None and b not in DEVICE_FREE))]
    assert not bad, "D3D12 in a device-free part:\n  " + "\n  ".join(bad)


def test_the_check_sees_the_includes():
    """Guards the check itself: it finds the sources, reads both include forms and resolves them."""
    files = sources()
    assert any(p.name == "Device.cpp" for p in files) and any(p.name == "Module.cpp" for p in files)
    assert layer_of(CPP / "include" / "dx12kit" / "gpu" / "Device.hpp") == "gpu"
    assert includes('#include <dx12kit/gpu/Device.hpp>\n#  include "a.hpp"') == [("dx12kit/gpu/Device.hpp", False), ("a.hpp", True)]
    device = resolve("dx12kit/device/DeviceCore.hpp", CPP / "bindings" / "X.cpp", quoted=False)
    assert device is not None and layer_of(device) == "device"
    assert resolve("vector", CPP / "src" / "alloc" / "X.cpp", quoted=False) is None
    assert D3D12_HEADER.match("vkd3d/vkd3d_utils.h") and D3D12_HEADER.match("d3d12.h") and not D3D12_HEADER.match("deque")
    platform_edges = [(a, inc) for _, a, inc, b in edges() if b is None and D3D12_HEADER.match(inc)]
    assert platform_edges and {a for a, _ in platform_edges} <= {"platform"}, platform_edges
    assert any(p.name == "D3dx12Lite.hpp" and layer_of(p) == "d3dx12" for p in files)
    # the order the module docstring states
    assert (RANK["core"] < RANK["alloc"] == RANK["platform"] < RANK["d3dx12"] < RANK["memory"] == RANK["descriptors"]
            < RANK["device"] < RANK["resources"] < RANK["gpu"] < RANK["features"] < RANK["bindings"] < RANK["bench"])


def test_every_folder_is_a_layer():
    folders = {p.name for base in (CPP / "include" / "dx12kit", CPP / "src") for p in base.iterdir() if p.is_dir()}
    assert folders <= set(RANK), folders - set(RANK)
    assert set(RANK) - {"bindings", "bench", "baseline", "d3dx12"} <= folders


def test_the_readme_map_names_every_layer():
    """README's "What is inside" draws the layers, one line per folder with its floor (its rank)."""
    readme = (ROOT / "README.md").read_text()
    for name, rank in RANK.items():
        m = re.search(rf"^\s+(\d+)\s+{name}/\s", readme, re.M)
        assert m, f"README's layer map lacks {name}/"
        assert int(m.group(1)) == rank, f"README puts {name}/ on floor {m.group(1)}, the test on {rank}"


def test_d3dx12_helpers_live_in_external():
    """The design card's layout: the d3dx12 helper layer is external/d3dx12/, included as
    "d3dx12/D3dx12Lite.hpp"; nothing includes it from its old place."""
    assert (EXTERNAL / "d3dx12" / "D3dx12Lite.hpp").is_file() and (EXTERNAL / "d3dx12" / "README.md").is_file()
    assert not (CPP / "include" / "dx12kit" / "platform" / "D3dx12Lite.hpp").exists()
    users = [src for src in sources() if ("d3dx12/D3dx12Lite.hpp", True) in includes(src.read_text())]
    assert len(users) >= 5


# ---- The render graph package (python/dx12kit/graph/): its modules import only downward -------------
# Lowest first: each module imports only modules before it in this list (and dx12kit's modules
# outside the package, never the package's parent's render-graph users such as graph_demo).
GRAPH_PACKAGE = ROOT / "python" / "dx12kit" / "graph"
GRAPH_LAYERS = ["model", "declare", "cull", "lifetimes", "placement", "barriers", "compile", "checked", "recorder",
                "realize", "bake", "draw", "render_graph", "__init__"]


def graph_imports() -> list[tuple[str, str]]:
    """(module, imported module) for every import of the graph package's modules."""
    import ast

    out = []
    for path in sorted(GRAPH_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                targets = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                out += [(path.stem, t) for t in targets]
            elif isinstance(node, ast.ImportFrom) and node.level >= 2:
                out.append((path.stem, "dx12kit." + (node.module or "")))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dx12kit"):
                out.append((path.stem, node.module or ""))
    return out


def test_graph_package_modules_import_only_downward():
    assert sorted(p.stem for p in GRAPH_PACKAGE.glob("*.py")) == sorted(GRAPH_LAYERS)
    rank = {name: i for i, name in enumerate(GRAPH_LAYERS)}
    bad = [f"graph/{a}.py imports {b}" for a, b in graph_imports()
           if (b in rank and rank[b] >= rank[a]) or b.startswith(("dx12kit.graph", "dx12kit.graph_demo"))]
    assert not bad, "imports that go up (or sideways) in the render graph package:\n  " + "\n  ".join(bad)
    seen = graph_imports()
    assert ("draw", "compile") in seen and ("render_graph", "draw") in seen   # the check sees the imports
    assert not (GRAPH_PACKAGE.parent / "graph.py").exists() and not (GRAPH_PACKAGE.parent / "graph_draw.py").exists()
