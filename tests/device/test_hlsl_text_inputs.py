"""HLSL inputs: byte-order marks, bytes that are not UTF-8, recursive macros and define
values end in the right result or a clear error naming what is wrong, never a hang (real compiler,
real device)."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

import dx12kit as dx

from .shaders import run_value

CS = "RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1,1,1)] void main() {{ o[0] = {expr}; }}\n"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, pyenv):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path / "cache")


# ---- byte-order marks ---------------------------------------------------------------------------


def test_utf8_bom_in_main_file_and_include_is_skipped(tmp_path: Path, device, queue):
    (tmp_path / "inc.hlsli").write_text("#define VAL 41\n", encoding="utf-8-sig")
    main = tmp_path / "main.hlsl"
    main.write_text('#include "inc.hlsli"\n' + CS.format(expr="VAL + 1"), encoding="utf-8-sig")
    assert main.read_bytes()[:3] == b"\xef\xbb\xbf"
    assert run_value(device, queue, dx.compile_hlsl_file(main)) == 42


def test_bom_in_a_str_source_is_skipped(device, queue):
    assert run_value(device, queue, dx.compile_hlsl("\ufeff" + CS.format(expr="7"))) == 7


def test_bom_file_error_lines_are_not_shifted(tmp_path: Path):
    main = tmp_path / "main.hlsl"
    main.write_text("RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1,1,1)] void main() {\n o[0] = 1 +* ;\n}\n",
                    encoding="utf-8-sig")
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl_file(main)
    first = e.value.messages[0]
    assert (Path(first.file).name, first.line) == ("main.hlsl", 3), e.value


# ---- bytes that are not UTF-8 -------------------------------------------------------------------


@pytest.mark.parametrize("where", ["main", "header"])
def test_non_utf8_byte_is_one_clear_error_naming_file_line_and_byte(tmp_path: Path, where):
    bad = b"// line one\n// caf\xe9\n#define VAL 4\n"
    if where == "header":
        (tmp_path / "inc.hlsli").write_bytes(bad)
        (tmp_path / "a.hlsl").write_bytes(b'#include "inc.hlsli"\n' + CS.format(expr="VAL").encode())
    else:
        (tmp_path / "a.hlsl").write_bytes(bad + CS.format(expr="VAL").encode())
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl_file(tmp_path / "a.hlsl")
    msg = e.value.messages[0]
    assert Path(msg.file).name == ("inc.hlsli" if where == "header" else "a.hlsl")
    assert (msg.line, msg.column) == (2, 7)
    assert "0xE9" in msg.text and "UTF-8" in msg.text
    assert "0xE9" in str(e.value) and f"{Path(msg.file).name}:2:7" in str(e.value)


def test_surrogateescaped_str_names_line_and_byte():
    src = CS.format(expr="1") + "// caf\udce9\n"
    with pytest.raises(dx.InvalidArgumentError, match=r"shader\.hlsl:3:7 holds the undecodable byte 0xE9"):
        dx.compile_hlsl(src)


# ---- recursive macros ---------------------------------------------------------------------------


@pytest.mark.parametrize("defs, name", [
    ("#define A B\n#define B A\n", "A"),            # mutual recursion (the repro)
    ("#define A (A + 1)\n", "A"),                  # direct: legal C, but vkd3d's preprocessor loops on it
    ("#define F(x) G(x)\n#define G(x) F(x)\n", "F"),  # function-like
])
def test_recursive_macro_is_a_prompt_error_naming_it(defs, name):
    expr = "F(1)" if name == "F" else "A"
    t = time.monotonic()
    with pytest.raises(dx.ShaderCompileError, match=f"macro '{name}' refers to itself") as e:
        dx.compile_hlsl(defs + CS.format(expr=expr), timeout=60)
    assert time.monotonic() - t < 30, "took the compile timeout rather than the probe"
    msg = e.value.messages[0]
    assert (msg.file, msg.line) == ("shader.hlsl", 1)


def test_recursive_macro_in_a_header_names_the_header(tmp_path: Path):
    (tmp_path / "inc.hlsli").write_text("// header\n#define A B\n#define B A\n")
    (tmp_path / "a.hlsl").write_text('#include "inc.hlsli"\n' + CS.format(expr="A"))
    with pytest.raises(dx.ShaderCompileError, match=r"A -> B -> A") as e:
        dx.compile_hlsl_file(tmp_path / "a.hlsl")
    msg = e.value.messages[0]
    assert (Path(msg.file).name, msg.line) == ("inc.hlsli", 2)


@pytest.mark.parametrize("src, value", [
    ("#define A B\n#define B A\n" + CS.format(expr="3"), 3),                       # defined, never expanded
    ("#define A B\n#define B A\n#undef B\n#define B 5\n" + CS.format(expr="A"), 5),  # redefined before use
    ("#if 0\n#define A A\n#endif\n#define A 6\n" + CS.format(expr="A"), 6),          # in a block not compiled
])
def test_self_referring_macros_that_do_not_loop_still_compile(device, queue, src, value):
    assert run_value(device, queue, dx.compile_hlsl(src)) == value


# ---- define values ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [[1, 2], (1,), {"a": 1}, b"1", object(), 1j])
def test_define_value_of_another_type_is_a_typeerror_naming_it(value):
    with pytest.raises(TypeError, match=r"define 'VAL' must be a str, int, float, bool or None"):
        dx.compile_hlsl(CS.format(expr="VAL"), defines={"VAL": value})


@pytest.mark.parametrize("value, expected", [
    (5, 5), (np.int64(6), 6), (2.5, 2), ("3 + 4", 7), (True, 1), (False, 0), (np.float32(9.0), 9),
])
def test_define_values_of_the_accepted_types(device, queue, value, expected):
    shader = dx.compile_hlsl(CS.format(expr="(uint)(VAL)"), defines={"VAL": value})
    assert run_value(device, queue, shader) == expected


def test_bool_define_agrees_with_if(device, queue):
    src = "#if FLAG\n#define V 1\n#else\n#define V 2\n#endif\n" + CS.format(expr="V")
    assert run_value(device, queue, dx.compile_hlsl(src, defines={"FLAG": True})) == 1
    assert run_value(device, queue, dx.compile_hlsl(src, defines={"FLAG": False})) == 2


def test_non_finite_float_define_is_refused():
    with pytest.raises(dx.InvalidArgumentError, match="define 'VAL'"):
        dx.compile_hlsl(CS.format(expr="VAL"), defines={"VAL": float("nan")})
