"""Finds the benchmark module ``dx12kit_bench`` (cpp/bench/) for benchmarks/ and tests/.

The benchmark module is not part of dx12kit: the wheel and the installed package never hold it.
The developer build (scripts/bootstrap.sh, CMake option ``DX12KIT_BENCH=ON``) leaves it in the build
tree, ``build/<wheel tag>/bench/``; this module puts that folder on ``sys.path``. Where it is absent
(a product-only install such as scripts/test-wheel.sh's, or a build without the option), ``bench``
is None and ``REASON`` says why: tests that need it skip with that reason.

``DX12KIT_BENCH_DIR`` names the folder explicitly (another build directory). When the suite runs
against a dx12kit installed elsewhere (``DX12KIT_EXPECT_INSTALLED``, ``DX12KIT_EXPECT_PACKAGE_DIR``),
the checkout's build tree is not searched: its module was built beside another dx12core.
"""
from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path
from types import ModuleType
from typing import Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
NAME = "dx12kit_bench"


def locate() -> Tuple[Optional[Path], str]:
    """The folder holding the benchmark module for this Python, or None and the reason."""
    filename = NAME + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    explicit = os.environ.get("DX12KIT_BENCH_DIR")
    if explicit:
        found = Path(explicit) / filename
        return (found.parent, "") if found.is_file() else (None, f"DX12KIT_BENCH_DIR={explicit} holds no {filename}")
    for env in ("DX12KIT_EXPECT_INSTALLED", "DX12KIT_EXPECT_PACKAGE_DIR"):
        if os.environ.get(env):
            return None, (f"the suite runs against a product-only dx12kit ({env}); the benchmark module {NAME} "
                          "is not part of the product (set DX12KIT_BENCH_DIR to use one built beside it)")
    candidates = sorted((ROOT / "build").glob(f"*/bench/{filename}"), key=lambda p: p.stat().st_mtime)
    if not candidates:
        return None, (f"the benchmark module {NAME} is not built (build/*/bench/{filename}); scripts/bootstrap.sh "
                      "builds it (CMake option DX12KIT_BENCH=ON)")
    return candidates[-1].parent, ""


def load() -> Tuple[Optional[ModuleType], str]:
    folder, reason = locate()
    if folder is None:
        return None, reason
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    import importlib

    return importlib.import_module(NAME), ""


bench, REASON = load()


def require() -> ModuleType:
    """The benchmark module; ImportError with the reason when it is absent (benchmarks need it)."""
    if bench is None:
        raise ImportError(REASON)
    return bench
