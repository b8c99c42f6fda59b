"""Layers only go down: every #include under cpp/ names a file of the same folder or of a lower
layer, the device-free parts include no D3D12 header, and each class's methods are implemented in
the layer of the header that declares the class.

The layer order is one table, LAYERS in scripts/cpplayers.py (lowest first, with what each folder
holds); this test reads it, and docs/architecture/layers.rst is generated from it (a test below
fails when the committed page differs). Folders that share a floor are peers that do not know each
other: neither includes the other.

A file's layer is the folder it lives in (cpp/include/dx12kit/<layer>/, cpp/src/<layer>/,
cpp/bindings/, cpp/bench/, external/d3dx12/, benchmarks/baseline/); an include's layer is the
folder of the file it resolves to. Quoted and angle-bracket includes are both read: an
angle-bracket include that resolves to none of the project's files is a system header.
"""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CPP = ROOT / "cpp"
EXTERNAL = ROOT / "external"
BASELINE = ROOT / "benchmarks" / "baseline"


def _load_table():
    spec = importlib.util.spec_from_file_location("cpplayers", ROOT / "scripts" / "cpplayers.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cpplayers", mod)   # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


cpplayers = _load_table()
LAYERS = [tuple(name for name, _ in floor) for floor in cpplayers.LAYERS]
RANK = cpplayers.RANK
DEVICE_FREE = cpplayers.DEVICE_FREE
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
    device = resolve("dx12kit/devicecontext/DeviceContext.hpp", CPP / "bindings" / "X.cpp", quoted=False)
    assert device is not None and layer_of(device) == "devicecontext"
    assert resolve("vector", CPP / "src" / "alloc" / "X.cpp", quoted=False) is None
    assert D3D12_HEADER.match("vkd3d/vkd3d_utils.h") and D3D12_HEADER.match("d3d12.h") and not D3D12_HEADER.match("deque")
    platform_edges = [(a, inc) for _, a, inc, b in edges() if b is None and D3D12_HEADER.match(inc)]
    assert platform_edges and {a for a, _ in platform_edges} <= {"platform"}, platform_edges
    assert any(p.name == "D3dx12Lite.hpp" and layer_of(p) == "d3dx12" for p in files)
    # the order the module docstring states
    assert (RANK["base"] < RANK["alloc"] == RANK["platform"] < RANK["d3dx12"] < RANK["memory"] == RANK["descriptors"]
            < RANK["devicecontext"] < RANK["resources"] < RANK["gpu"] < RANK["features"] < RANK["bindings"] < RANK["bench"])


def test_every_folder_is_a_layer():
    folders = {p.name for base in (CPP / "include" / "dx12kit", CPP / "src") for p in base.iterdir() if p.is_dir()}
    assert folders <= set(RANK), folders - set(RANK)
    assert set(RANK) - {"bindings", "bench", "baseline", "d3dx12"} <= folders


def test_the_docs_layer_page_is_drawn_from_the_table():
    """docs/architecture/layers.rst is what scripts/cpplayers.py draws from LAYERS (run
    `.venv/bin/python scripts/cpplayers.py doc` after changing the table)."""
    page = cpplayers.DOC_PAGE
    assert page.is_file(), f"{page.relative_to(ROOT)} is missing: run scripts/cpplayers.py doc"
    assert page.read_text() == cpplayers.render_doc(), (
        f"{page.relative_to(ROOT)} differs from what scripts/cpplayers.py draws from its LAYERS table: run scripts/cpplayers.py doc")
    assert "architecture/layers" in (ROOT / "docs" / "index.rst").read_text()
    for name in RANK:
        assert f"``{name}/``" in page.read_text()


# ---- Each class's methods live in its header's layer ------------------------------------------------
def class_layers() -> dict[str, set[str]]:
    """Class name -> the layers whose headers define (not forward-declare) a class of that name."""
    out: dict[str, set[str]] = {}
    for header in cpplayers.cpp_files(CPP / "include" / "dx12kit"):
        for name in cpplayers.classes_defined(header):
            out.setdefault(name, set()).add(layer_of(header))
    return out


def method_definitions() -> list[tuple[Path, str, str, str]]:
    """(file, its layer, class, method) of every Class::method definition in cpp/src and the headers."""
    out = []
    for path in cpplayers.cpp_files(CPP / "src", CPP / "include" / "dx12kit"):
        for f in cpplayers.functions(path):
            if f.qualifier:
                out.append((path, layer_of(path), f.qualifier, f.method))
    return out


def misplaced_methods(defined: dict[str, set[str]], methods: list[tuple[Path, str, str, str]]) -> list[str]:
    return [f"{cls}::{method} is defined in {path.relative_to(ROOT)} (layer {layer}), but {cls} is declared in layer "
            f"{' / '.join(sorted(defined[cls]))}" for path, layer, cls, method in methods if cls in defined and layer not in defined[cls]]


def test_every_class_method_is_defined_in_its_headers_layer():
    """A class is whole in its layer: Class::method( definitions under cpp/src (and out-of-class ones
    in headers) live in the folder of the header that declares Class. Operations built on a class
    from a higher layer are free functions there (features/: GenerateMips(CommandList&, ...))."""
    defined = class_layers()
    methods = method_definitions()
    bad = misplaced_methods(defined, methods)
    assert not bad, "methods implemented outside their class's layer:\n  " + "\n  ".join(bad)


def test_the_method_check_sees_the_definitions():
    """Guards the check itself: it finds the classes and their out-of-line methods, and names a misplaced one."""
    defined = class_layers()
    assert defined["CommandList"] == {"gpu"} and defined["Device"] == {"gpu"} and defined["Resource"] == {"resources"}
    methods = method_definitions()
    seen = {(cls, m) for _, _, cls, m in methods}
    assert {("CommandList", "Dispatch"), ("Device", "Poll"), ("Resource", "WriteView"), ("CommandList", "CopySubresource")} <= seen
    assert len(methods) > 300
    fake = [(CPP / "src" / "features" / "GenerateMips.cpp", "features", "CommandList", "GenerateMips")]
    assert misplaced_methods(defined, fake) == [
        "CommandList::GenerateMips is defined in cpp/src/features/GenerateMips.cpp (layer features), but CommandList is declared "
        "in layer gpu"]
    # the scanner: comments and strings do not count, nested bodies are not definitions, qualified names are read whole
    code = ('namespace dx12kit {\nnamespace {\nint Helper() { return 1; }\n}\n// void Fake::Method() {}\n'
            'void Device::Poll() {\n    auto f = [] { return X::Y(); };\n    const char* s = "A::B() {";\n}\n'
            'std::shared_ptr<int> memory::MemoryPool::Plan(int a,\n                                   int b) const {\n    if (a) { b++; }\n}\n}\n')
    found = {(f.name, f.line, f.lines) for f in cpplayers.functions(Path("x.cpp"), code)}
    assert found == {("Helper", 3, 1), ("Device::Poll", 6, 4), ("memory::MemoryPool::Plan", 10, 4)}, found


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
GRAPH_LAYERS = ["model", "subresources", "declare", "cull", "lifetimes", "placement", "barriers", "schedule", "compile", "checked", "recorder",
                "realize", "bake", "parallel", "plancache", "history", "profile", "draw", "render_graph", "__init__"]


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
