"""What ships in dx12kit: no benchmark code in the extension or the public modules; no
library that asks for an executable stack."""
from __future__ import annotations

import subprocess
import sys

import pytest


def test_import_dx12kit_never_loads_the_benchmark_module():
    code = ("import sys, dx12kit, dx12kit.alloc, dx12kit.descriptors, dx12kit.memory\n"
            "assert 'dx12kit_bench' not in sys.modules, 'dx12kit imported its benchmark module'\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_the_installed_package_is_the_product_only():
    """no benchmark module, benchmark workloads or trace builder in the package (the
    benchmark module stays in the build tree; benchmarks/workloads.py and traces.py in the checkout)."""
    import os

    import dx12kit

    pkg = os.path.dirname(dx12kit.__file__)
    shipped = [os.path.relpath(os.path.join(d, f), pkg) for d, _, files in os.walk(pkg) for f in files]
    assert not [f for f in shipped if "bench" in f.lower() or f.startswith("workloads")], shipped
    assert not hasattr(dx12kit.dx12core.alloc, "_build_random_trace")


def test_the_render_graph_ships_as_a_package():
    """dx12kit.graph is a package (python/dx12kit/graph/): the installed one holds every module of the
    source tree's, and the single-module files it replaced are gone."""
    import os
    from pathlib import Path

    import dx12kit
    from dx12kit.graph import GraphError, GraphResource, RenderGraph

    pkg = os.path.dirname(dx12kit.__file__)
    installed = Path(pkg) / "graph"
    assert Path(dx12kit.graph.__file__) == installed / "__init__.py"
    source = Path(__file__).resolve().parents[1] / "python" / "dx12kit" / "graph"
    assert sorted(p.name for p in installed.glob("*.py")) == sorted(p.name for p in source.glob("*.py"))
    assert not (Path(pkg) / "graph.py").exists() and not (Path(pkg) / "graph_draw.py").exists()
    assert (RenderGraph, GraphResource, GraphError) == (dx12kit.RenderGraph, dx12kit.GraphResource, dx12kit.GraphError)
    assert RenderGraph.__module__ == "dx12kit.graph"


def test_no_timing_loops_in_the_product():
    import dx12kit

    assert not [n for n in dir(dx12kit.dx12core) if n.startswith("_bench")]
    assert not [n for n in dx12kit.descriptors.__all__ if n.startswith(("measure_", "stress_"))]
    assert not hasattr(dx12kit.alloc, "BaselineBimap") and not hasattr(dx12kit.dx12core.alloc, "BaselineBimap")


def test_the_benchmark_module_holds_them():
    """... they live in the benchmark module, which benchmarks/ and tests/ import explicitly."""
    bench = pytest.importorskip("dx12kit_bench", reason="needs the benchmark module dx12kit_bench (not in a product-only install)")
    for name in ("BaselineBimap", "build_random_trace", "dynamic_cb", "transition", "measure_commit",
                 "measure_cpu_allocator", "measure_dynamic_suballocation", "stress_cpu_allocator"):
        assert hasattr(bench, name), name


def _asks_for_executable_stack(path: str) -> bool:
    """True if the ELF file's PT_GNU_STACK header has the execute flag (readelf -lW, as the issue
    asks; a file without the header counts as executable, as glibc treats it)."""
    out = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0] == "GNU_STACK":
            return "E" in fields[-2]
    return True


def _shipped_shared_objects() -> list[str]:
    import os

    import dx12kit

    pkg = os.path.dirname(dx12kit.__file__)
    roots = [pkg, pkg + ".libs"]  # dx12kit.libs: where auditwheel would graft libraries
    return sorted(os.path.join(d, f) for r in roots if os.path.isdir(r)
                  for d, _, files in os.walk(r) for f in files if ".so" in f)


def test_no_shipped_library_asks_for_an_executable_stack():
    """glibc 2.41+ refuses to dlopen such a library (Debian 13: "cannot enable executable stack as
    shared object requires"). Debian's vkd3d 1.2 libraries ask for one; dx12kit ships private copies
    with the flag cleared (cmake/private_libs.py) in the package's _libs/."""
    import sys as _sys

    files = _shipped_shared_objects()
    assert any("dx12core" in f for f in files), files
    if _sys.platform.startswith("linux"):
        assert any("libvkd3d" in f for f in files), f"no private vkd3d copies shipped: {files}"
    assert [f for f in files if _asks_for_executable_stack(f)] == []


def test_no_loaded_library_asks_for_an_executable_stack():
    """Every shared object in a process that created a device and ran work (the Vulkan driver
    included) loads under glibc 2.41's rule; vkd3d comes from dx12kit's private copies."""
    code = ("import numpy as np, dx12kit as dx\n"
            "d = dx.Device(); q = d.queue(); b = d.create_buffer(256)\n"
            "cl = q.command_list(); cl.upload(b, np.arange(64, dtype=np.uint32)); q.wait(q.execute(cl))\n"
            "maps = {l.split()[-1] for l in open('/proc/self/maps') if '.so' in l.split()[-1]}\n"
            "print('\\n'.join(sorted(maps)))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    loaded = r.stdout.split()
    vkd3d = [f for f in loaded if "libvkd3d" in f]
    assert vkd3d and all("/dx12kit/_libs/" in f or "/dx12kit.libs/" in f for f in vkd3d), vkd3d
    assert [f for f in loaded if _asks_for_executable_stack(f)] == []


def test_binding_signatures_name_python_types_only():
    """Every class is registered before any method names it (cpp/bindings/Classes.hpp): a signature
    that shows a C++ type ("dx12kit::...", "std::...") means a class was used before its registration."""
    import dx12kit.dx12core as core

    found = []
    for mod in (core, core.alloc, core.shaders, core.descriptors):
        for name, obj in vars(mod).items():
            members = vars(obj).items() if isinstance(obj, type) else [(name, obj)]
            for member_name, member in members:
                doc = getattr(getattr(member, "fget", member), "__doc__", None) or ""
                if "dx12kit::" in doc or "std::" in doc:
                    found.append(f"{mod.__name__}.{name}.{member_name}")
    assert not found, found
