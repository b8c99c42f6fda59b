"""What ships in dx12kit: no benchmark code in the extension or the public modules (issue 12)."""
from __future__ import annotations

import subprocess
import sys


def test_import_dx12kit_never_loads_the_benchmark_module():
    code = ("import sys, dx12kit, dx12kit.alloc, dx12kit.descriptors, dx12kit.memory\n"
            "assert 'dx12kit._bench' not in sys.modules, 'dx12kit imported its benchmark module'\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_no_timing_loops_in_the_product():
    import dx12kit
    from dx12kit import _bench

    assert not [n for n in dir(dx12kit.dx12core) if n.startswith("_bench")]
    assert not [n for n in dx12kit.descriptors.__all__ if n.startswith(("measure_", "stress_"))]
    assert not hasattr(dx12kit.alloc, "BaselineBimap") and not hasattr(dx12kit.dx12core.alloc, "BaselineBimap")
    # ... they live in the benchmark module, which benchmarks/ and tests/ import explicitly.
    for name in ("BaselineBimap", "dynamic_cb", "transition", "measure_commit", "measure_cpu_allocator",
                 "measure_dynamic_suballocation", "stress_cpu_allocator"):
        assert hasattr(_bench, name), name
