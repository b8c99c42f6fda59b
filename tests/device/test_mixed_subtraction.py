"""float - integer: vkd3d-shader 2.1 negates the integer in its own type before converting it
(x - u gives x + float(0u - u)); compile_hlsl finds each such minus and converts the operand first
(dx12kit/_hlsl_subtraction.py). The numpy differential cases are in diffcases.py, group
``mixed_subtraction``."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import _hlsl_subtraction as sub
from dx12kit.shaders import find_compiler

from . import diffcases
from .difftest import Harness
from .shaders import run_uav

REPRO = """
RWStructuredBuffer<float> b : register(u0);
[numthreads(1,1,1)] void main() { float x = b[0]; uint level = uint(x) / 64; b[1] = x - level * 64; b[2] = level; }
"""


def _asm(src: str) -> str:
    r = subprocess.run([find_compiler(), "-x", "hlsl", "-b", "d3d-asm", "-p", "cs_5_0", "-e", "main", "-o", "-", "-"],
                       input=src.encode(), capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode()


def test_cause_compiler_negates_the_integer_before_converting_it():
    """The compiler's own output for x - u: ineg of the uint, then utof (2^32 - u as a float), then add.
    When this stops failing, the compiler is fixed and the rewrite is no longer needed."""
    asm = _asm("RWStructuredBuffer<float> b : register(u0);\nRWStructuredBuffer<uint> c : register(u1);\n"
               "[numthreads(1,1,1)] void main() { b[1] = b[0] - c[0]; }\n")
    assert "ineg" in asm and "utof" in asm, asm


def test_float_minus_uint_product_is_right(device, queue):
    """The reported program: 100.5 - (100 / 64) * 64 is 36.5, not 4.29e9."""
    shader = dx.compile_hlsl(REPRO)
    pso = device.create_compute_pipeline(shader, device.create_root_signature([dx.RootUAV(0)]))
    buf = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.upload(buf, np.array([100.5, 0, 0, 0], np.float32))
    cl.set_pipeline_state(pso)
    cl.set_root_uav(0, buf)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(buf, np.float32).tolist() == [100.5, 36.5, 1.0, 0.0]


CASES = [c for c in diffcases.CASES if c.group == "mixed_subtraction"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_mixed_subtraction_agrees_with_numpy(device, queue, case):
    """Scalars, vectors, matrices, literals, -=, nested minuses, in and out of functions; int - uint
    and uint - float (right without the fix) stay right. Compute stage here; the fast slice runs
    the first two in every stage."""
    Harness(device, queue).check(case, "cs", seed=3)


def test_a_written_negation_of_a_uint_keeps_hlsls_meaning(device, queue):
    """-u of a uint is a uint (2^32 - u): x + -u and float(-u) are not rewritten."""
    src = ("RWStructuredBuffer<float> o : register(u0);\n"
           "[numthreads(1,1,1)] void main(uint3 t : SV_DispatchThreadID) { uint u = t.x + 5; float x = 0.5;\n"
           "  o[0] = x + -u; o[1] = float(-u); o[2] = x - -u; o[3] = x - u; }\n")
    got = run_uav(device, queue, dx.compile_hlsl(src), 16, np.float32)
    want = np.float32(2**32 - 5)
    assert got.tolist() == [np.float32(0.5) + want, want, np.float32(0.5) - want, -4.5]


def test_subtraction_hidden_in_a_macro_is_refused_with_line():
    src = ("RWStructuredBuffer<float> o : register(u0);\n"
           "#define SUB(a, b) ((a) - (b))\n"
           "[numthreads(1,1,1)] void main(uint3 t : SV_DispatchThreadID) {\n"
           "  o[0] = SUB(o[1], t.x); }\n")
    with pytest.raises(dx.ShaderCompileError, match=r"shader\.hlsl:2: a subtraction of an integer from a float.*float\(u\)"):
        dx.compile_hlsl(src)


def test_the_same_macro_with_integers_only_compiles():
    src = ("RWStructuredBuffer<uint> o : register(u0);\n"
           "#define SUB(a, b) ((a) - (b))\n"
           "[numthreads(1,1,1)] void main(uint3 t : SV_DispatchThreadID) { o[0] = SUB(o[1], t.x) - 1.5; }\n")
    dx.compile_hlsl(src)


def test_sites_and_operand_wrapping():
    text = "float a = x - u * 2 + y; a -= v.x, b; c = -d - f(e)[1].y; g = 1e-5 - (h - k);"
    sites = sub.minus_sites(text)
    kinds = [k for _, k in sites]
    assert kinds == ["binary", "assign", "unary", "binary", "binary", "binary"]
    wrapped = sub.wrap_operands(text, [s for s in sites if s[1] != "unary"])
    assert wrapped == ("float a = x - ((u * 2) * 1.0) + y; a -= ((v.x) * 1.0), b; c = -d - ((f(e)[1].y) * 1.0); "
                       "g = 1e-5 - (((h - ((k) * 1.0))) * 1.0);")
    assert "\n" not in wrapped
