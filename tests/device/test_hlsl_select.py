"""HLSL 2021's select(cond, a, b): compile_hlsl rewrites it to a conditional expression
(dx12kit/_hlsl_select.py). numpy cases: diffcases.py, group ``select``."""
from __future__ import annotations

import pytest

import dx12kit as dx
from dx12kit._hlsl_select import rewrite_select

from . import diffcases
from .difftest import Harness
from .shaders import run_uav

CASES = [c for c in diffcases.CASES if c.group == "select"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_select_agrees_with_numpy(device, queue, case):
    """Scalars, vector conditions with vector and broadcast scalar operands, nested calls, calls in
    macros (one over a line continuation)."""
    Harness(device, queue).check(case, "cs", seed=2)


def test_select_evaluates_both_operands(device, queue):
    """select's operands are both evaluated (HLSL 2021): a call with a side effect in each runs both,
    whichever the condition picks."""
    src = ("RWStructuredBuffer<uint> o : register(u0);\n"
           "uint bump(uint k) { uint p; InterlockedAdd(o[k], 1, p); return p + 10 * k; }\n"
           "[numthreads(1,1,1)] void main(uint3 t : SV_DispatchThreadID) {\n"
           "    o[3] = select(t.x == 0, bump(1), bump(2)); o[4] = select(t.x != 0, bump(1), bump(2)); }\n")
    got = run_uav(device, queue, dx.compile_hlsl(src), 32)
    assert got[:5].tolist() == [0, 2, 2, 10, 21]


def test_select_keeps_lines_and_columns_of_what_follows():
    src = ("RWStructuredBuffer<uint> o : register(u0);\n"
           "[numthreads(1,1,1)] void main(uint3 t : SV_DispatchThreadID) {\n"
           "    o[0] = select(t.x > 1,\n"
           "                  t.y, t.z);\n"
           "    o[1] = undefined_name; }\n")
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl(src)
    assert [m.line for m in e.value.messages] == [5]


def test_a_users_own_select_is_left_alone():
    text = "float select(float a, float b, float c) { return a + b + c; }\nfloat y = select(1, 2, 3);"
    assert rewrite_select(text) == (text, 0)
    assert rewrite_select("x = v.select(1, 2, 3); y = select(a, b);") == ("x = v.select(1, 2, 3); y = select(a, b);", 0)


def test_select_without_the_rewrite_is_refused_by_the_compiler():
    """The cause: the compiler has no select (E5005). When this fails, the compiler learnt it."""
    import subprocess

    from dx12kit.shaders import find_compiler
    src = b"RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1,1,1)] void main() { o[0] = select(o[1] > 2, 1u, 2u); }\n"
    r = subprocess.run([find_compiler(), "-x", "hlsl", "-b", "dxbc-tpf", "-p", "cs_5_0", "-e", "main", "-o", "-", "-"],
                       input=src, capture_output=True, timeout=60)
    assert r.returncode != 0 and b'Function "select" is not defined' in r.stderr + r.stdout
