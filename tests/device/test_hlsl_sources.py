"""Bringing existing HLSL: include resolution with a line map, a cache that sees
includes, messages with file/line/column, [RootSignature] attributes, MiniEngine-style shaders run
against numpy."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import dx12kit as dx

from .shaders import run_value

HERE = Path(__file__).parent / "hlsl"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, pyenv):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path / "cache")


def write(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


CS = "RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1,1,1)] void main() {{ o[0] = {expr}; }}\n"


# ---- include resolution ---------------------------------------------------------------------


def test_nested_relative_and_include_dirs(tmp_path, device, queue):
    write(tmp_path, {
        "src/main.hlsl": '#include "a/one.hlsli"\n#include <lib.hlsli>\n' + CS.format(expr="ONE + TWO + LIB"),
        "src/a/one.hlsli": '#include "../b/two.hlsli"\n#define ONE 1\n',   # relative to a/, not to main's folder
        "src/b/two.hlsli": "#define TWO 20\n",
        "src/lib.hlsli": "#define LIB 999\n",   # not found for <lib.hlsli>: angled includes use include_dirs only
        "inc/lib.hlsli": "#define LIB 300\n",
    })
    s = dx.compile_hlsl_file(tmp_path / "src/main.hlsl", include_dirs=[tmp_path / "inc"])
    assert run_value(device, queue, s) == 321
    assert [Path(f).name for f in s.source_files] == ["main.hlsl", "one.hlsli", "two.hlsli", "lib.hlsli"]
    # quoted includes: the includer's folder first, then include_dirs in order
    write(tmp_path, {"first/q.hlsli": "#define Q 1\n", "second/q.hlsli": "#define Q 2\n"})
    s = dx.compile_hlsl('#include "q.hlsli"\n' + CS.format(expr="Q"), include_dirs=[tmp_path / "second", tmp_path / "first"])
    assert run_value(device, queue, s) == 2
    # compile_hlsl with source_name behaves like compile_hlsl_file
    s = dx.compile_hlsl('#include "../first/q.hlsli"\n' + CS.format(expr="Q"), source_name=str(tmp_path / "src" / "x.hlsl"))
    assert run_value(device, queue, s) == 1


def test_quoted_include_never_uses_the_working_directory(tmp_path, monkeypatch):
    write(tmp_path, {"cwd.hlsli": "#define V 1\n"})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(dx.ShaderCompileError, match="cannot open include file 'cwd.hlsli'") as e:
        dx.compile_hlsl('#include "cwd.hlsli"\n' + CS.format(expr="V"))
    assert (e.value.messages[0].file, e.value.messages[0].line) == ("shader.hlsl", 1)


def test_pragma_once_and_guards(tmp_path, device, queue):
    write(tmp_path, {
        "once.hlsli": "#pragma once\nstatic const uint OnceValue = 5;\n",
        "guard.hlsli": "#ifndef GUARD\n#define GUARD\nstatic const uint GuardValue = 7;\n#endif\n",
        "both.hlsli": '#include "once.hlsli"\n#include "guard.hlsli"\n',
        "main.hlsl": '#include "once.hlsli"\n#include "both.hlsli"\n#include "once.hlsli"\n#include "guard.hlsli"\n'
                     + CS.format(expr="OnceValue + GuardValue"),
    })
    assert run_value(device, queue, dx.compile_hlsl_file(tmp_path / "main.hlsl")) == 12


def test_cycle_is_refused_clearly(tmp_path):
    write(tmp_path, {"a.hlsli": '#include "b.hlsli"\n', "b.hlsli": '#include "a.hlsli"\n',
                     "main.hlsl": '#include "a.hlsli"\n' + CS.format(expr="1")})
    with pytest.raises(dx.ShaderCompileError, match=r"#include cycle: .*a\.hlsli -> .*b\.hlsli -> .*a\.hlsli"):
        dx.compile_hlsl_file(tmp_path / "main.hlsl")
    # guarded mutual includes are fine
    write(tmp_path, {"a.hlsli": '#ifndef A\n#define A\n#include "b.hlsli"\n#endif\n',
                     "b.hlsli": '#ifndef B\n#define B\n#include "a.hlsli"\n#endif\n'})
    dx.compile_hlsl_file(tmp_path / "main.hlsl")


def test_missing_include_is_always_an_error(tmp_path):
    write(tmp_path, {"main.hlsl": '// a comment\n#include "nope.hlsli"\n' + CS.format(expr="1")})
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl_file(tmp_path / "main.hlsl")
    m = e.value.messages[0]
    assert (Path(m.file).name, m.line) == ("main.hlsl", 2) and "nope.hlsli" in m.text
    # inside an inactive block it is skipped; in an active one it fails at compile time
    guarded = '#ifdef WANT\n#include "nope.hlsli"\n#endif\n' + CS.format(expr="1")
    dx.compile_hlsl(guarded)
    with pytest.raises(dx.ShaderCompileError, match="nope.hlsli") as e:
        dx.compile_hlsl(guarded, defines={"WANT": 1})
    assert (e.value.messages[0].file, e.value.messages[0].line) == ("shader.hlsl", 2)
    # ... also when the missing include sits in a header included inside the inactive block
    write(tmp_path, {"inner.hlsli": '#include "nope.hlsli"\n'})
    dx.compile_hlsl('#ifdef WANT\n#include "inner.hlsli"\n#endif\n' + CS.format(expr="1"), include_dirs=[tmp_path])
    # an include in a comment is not one
    dx.compile_hlsl('/* #include "nope.hlsli"\n#include "nope.hlsli" */\n// #include "nope.hlsli"\n' + CS.format(expr="1"))


def test_case_insensitive_fallback_warns(tmp_path, device, queue):
    write(tmp_path, {"Inc/Helpers.HLSLI": "#define H 11\n", "main.hlsl": '#include "inc/helpers.hlsli"\n' + CS.format(expr="H")})
    with pytest.warns(dx.ShaderIncludeWarning, match="without regard to case"):
        s = dx.compile_hlsl_file(tmp_path / "main.hlsl")
    assert run_value(device, queue, s) == 11


def test_include_dirs_missing_or_in_another_case(tmp_path, device, queue):
    write(tmp_path, {"Shaders/Include/v.hlsli": "#define V 7\n"})
    src = '#include <v.hlsli>\n' + CS.format(expr="V")
    # a folder spelled in another letter case (build files written on Windows): used, with a warning
    with pytest.warns(dx.ShaderIncludeWarning, match=r"shaders/include matched .*Shaders/Include only without regard to case"):
        s = dx.compile_hlsl(src, include_dirs=[tmp_path / "shaders/include"])
    assert run_value(device, queue, s) == 7
    # a folder that does not exist: skipped, with a warning (not silently)
    with pytest.warns(dx.ShaderIncludeWarning, match=r"nowhere is not a folder \(skipped\)"):
        s = dx.compile_hlsl(src, include_dirs=[tmp_path / "nowhere", tmp_path / "Shaders/Include"])
    assert run_value(device, queue, s) == 7
    with pytest.warns(dx.ShaderIncludeWarning, match="not a folder"), \
            pytest.raises(dx.ShaderCompileError, match="cannot open include file 'v.hlsli'"):
        dx.compile_hlsl(src, include_dirs=[tmp_path / "nowhere"])


# ---- cache -------------------------------------------------------------------------------------


def test_cache_sees_header_changes(tmp_path, device, queue):
    write(tmp_path, {"value.hlsli": "#define V 1\n", "main.hlsl": '#include "value.hlsli"\n' + CS.format(expr="V")})
    cache = Path(os.environ["DX12KIT_SHADER_CACHE"])
    assert run_value(device, queue, dx.compile_hlsl_file(tmp_path / "main.hlsl")) == 1
    (tmp_path / "value.hlsli").write_text("#define V 2\n")
    assert run_value(device, queue, dx.compile_hlsl_file(tmp_path / "main.hlsl")) == 2
    assert len(list(cache.glob("*.dxbc"))) == 2
    # the header gone: an error, never the cached bytecode
    (tmp_path / "value.hlsli").unlink()
    with pytest.raises(dx.ShaderCompileError, match="value.hlsli"):
        dx.compile_hlsl_file(tmp_path / "main.hlsl")


# ---- messages ------------------------------------------------------------------------------------


def test_header_error_names_the_header_line(tmp_path):
    write(tmp_path, {
        "inc/bad.hlsli": "// line 1\n#define LONG_MACRO 1 + \\\n    2\nfloat Broken() { return undefined_name; }\n",
        "main.hlsl": "// first\n// second\n#include \"inc/bad.hlsli\"\n" + CS.format(expr="1") + "\n",
    })
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl_file(tmp_path / "main.hlsl", defines={"A": 1, "B": "x \\\n y"})
    m = e.value.messages[0]
    assert m.file == str((tmp_path / "inc/bad.hlsli").resolve()) and m.line == 4 and m.column > 20, e.value.messages
    assert m.severity == "error" and m.code.startswith("E") and "undefined_name" in m.text
    assert str(m).startswith(f"{m.file}:4:{m.column}: error {m.code}:")
    assert str(m) in str(e.value)
    # vkd3d's internal log lines are kept apart from the messages
    assert all("fixme" not in str(x) for x in e.value.messages)


def test_fixme_lines_kept_apart(tmp_path):
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl("#pragma warning(disable: 1234)\n" + CS.format(expr="nope"))  # vkd3d logs a fixme for the pragma
    assert e.value.fixme and all(":fixme:" in f or ":err:" in f for f in e.value.fixme)
    assert [m.line for m in e.value.messages] == [3]  # line 1: the #pragma (the compiler counts no line for it)
    assert "fixme" not in str(e.value)


# Lines vkd3d-compiler's preprocessor drops (its line numbers count its preprocessed text): each
# case is (text before the error, the error line). The error line's column of `undefined_name` is 22.
DROPPED_LINES = {
    "pragma": "#pragma warning(disable: 3571)\n#pragma pack_matrix(row_major)\n",
    "inactive_if": "#if 0\nnot code\nnot code\n#elif 0\nnot code\n#else\nstatic const float A = 1;\n#endif\n"
                   "#ifdef NOT_DEFINED\nnot code\n#endif\n",
    "comment": "/* a comment\n   over\n   lines */ static const float C = 1;\n/**/ /* and\n */\n",
    "macro_call": "#define ADD(a, b) ((a) + (b))\nstatic const float M = ADD(1,\n    2\n    );\n",
}
BAD = "float Bad() { return undefined_name; }\n"


@pytest.mark.parametrize("case", sorted(DROPPED_LINES))
@pytest.mark.parametrize("where", ["main", "nested_header"])
def test_dropped_lines_keep_file_line_and_column(tmp_path, case, where):
    before = DROPPED_LINES[case]
    line = before.count("\n") + 1
    if where == "main":
        write(tmp_path, {"main.hlsl": before + BAD + CS.format(expr="1")})
        expected = tmp_path / "main.hlsl"
    else:
        # the header's dropped lines come before the main file's error too: both must be right
        write(tmp_path, {"inc/outer.hlsli": before + '#include "inner.hlsli"\n' + before,
                         "inc/inner.hlsli": "// inner\n" + before + BAD,
                         "main.hlsl": before + '#include "inc/outer.hlsli"\n' + before + BAD + CS.format(expr="1")})
        expected = tmp_path / "inc/inner.hlsli"
        line += 1
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl_file(tmp_path / "main.hlsl", defines={"D1": 1, "D2": 2})
    got = [(Path(m.file).resolve(), m.line, m.column) for m in e.value.messages if "undefined_name" in m.text]
    assert got[0] == (expected.resolve(), line, 22), e.value.messages
    if where == "nested_header":
        main_line = 2 * before.count("\n") + 2
        assert got[1] == ((tmp_path / "main.hlsl").resolve(), main_line, 22), e.value.messages


def test_dropped_lines_inside_a_multiline_macro_call_and_after_a_comment(tmp_path):
    src = ("#define ADD(a, b) ((a) + (b))\n#pragma once\n"
           "static const float M = ADD(1,\n"
           "    undefined_one);\n"              # line 4, column 5
           "/* two\n lines */ static const float K = undefined_two;\n"  # line 6, column 34
           "#if 0\n#endif\n"
           + CS.format(expr="undefined_three"))   # line 10, column 42
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl(src)
    got = {m.text.split('"')[1]: (m.file, m.line, m.column) for m in e.value.messages if "is not declared" in m.text}
    assert got == {"undefined_one": ("shader.hlsl", 4, 5), "undefined_two": ("shader.hlsl", 6, 34),
                   "undefined_three": ("shader.hlsl", 10, 42)}, e.value.messages
    # the preprocessor's own messages count lines of its input (no lines dropped yet)
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl("#pragma foo\n#if 0\nx\n#endif\n#define A 1\n#define A 2\n" + CS.format(expr="A + nope"))
    assert [(m.code, m.line) for m in e.value.messages] == [("W4300", 6), ("E5005", 8)], e.value.messages


def test_profile_error_explains_sm6():
    with pytest.raises(dx.InvalidArgumentError, match=r"shader model 6.*_5_0 or _5_1.*wave intrinsics"):
        dx.compile_hlsl(CS.format(expr="1"), profile="cs_6_6")
    with pytest.raises(dx.InvalidArgumentError, match="unsupported profile 'xs_5_0'"):
        dx.compile_hlsl(CS.format(expr="1"), profile="xs_5_0")


# ---- [RootSignature] -----------------------------------------------------------------------------


def test_root_signature_attribute(device):
    src = ('#define RS "RootFlags(0), " \\\n   "UAV(u0)"\nRWStructuredBuffer<uint> o : register(u0);\n'
           "[RootSignature(RS)]\n[numthreads(1,1,1)] void main() { o[0] = 1; }\n"
           '[RootSignature("CBV(b0)")]\n[numthreads(1,1,1)] void other() { o[0] = 2; }\n')
    s = dx.compile_hlsl(src)
    assert s.root_signature == "RootFlags(0), UAV(u0)"
    assert dx.compile_hlsl(src, entry="other").root_signature == "CBV(b0)"
    assert dx.compile_hlsl(CS.format(expr="1")).root_signature is None
    device.create_compute_pipeline(s, device.create_root_signature(s.root_signature))


def test_miniengine_style_compute_shader_against_numpy(device, queue):
    cs = dx.compile_hlsl_file(HERE / "Shaders/BoxBlurCS.hlsl", include_dirs=[HERE / "Include"])
    assert "Filter_RootSig" not in cs.root_signature and cs.root_signature.startswith("RootFlags(0), RootConstants(b0")
    rs = device.create_root_signature(cs.root_signature)
    pso = device.create_compute_pipeline(cs, rs)
    h, w = 13, 21
    rng = np.random.default_rng(3)
    img = rng.random((h, w)).astype(np.float32)
    scale, bias = 2.0, -0.5
    tex = device.create_texture2d(w, h, "r32_float")
    out = device.create_buffer(h * w * 4, uav=True)
    cl = queue.command_list()
    cl.upload(tex, img)
    cl.set_pipeline_state(pso)
    cl.set_constants(0, np.array([w, h], np.uint32).tobytes() + np.array([scale, bias], np.float32).tobytes())
    cl.set_shader_resource_view(1, 0, tex)
    cl.set_root_uav(2, out)
    cl.dispatch((w + 7) // 8, (h + 7) // 8)
    queue.wait(queue.execute(cl))
    padded = np.pad(img, 1, mode="edge").astype(np.float64)
    box = sum(padded[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9.0
    got = queue.read_buffer(out, dtype=np.float32).reshape(h, w)
    np.testing.assert_allclose(got, box * scale + bias, rtol=1e-5, atol=1e-5)


def test_miniengine_style_graphics_shaders_against_numpy(device, queue):
    path = HERE / "Shaders/PresentVSPS.hlsl"
    vs = dx.compile_hlsl_file(path, "ScreenQuadVS", "vs_5_0")
    ps = dx.compile_hlsl_file(path, "PresentPS", "ps_5_0")
    assert vs.root_signature == ps.root_signature and "StaticSampler(s0" in ps.root_signature
    rs = device.create_root_signature(ps.root_signature)
    pso = device.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])
    size = 16
    src = (np.random.default_rng(5).integers(0, 64, (size, size, 4)) * 4).astype(np.uint8)
    tex = device.create_texture2d(size, size, "rgba8_unorm")
    rt = device.create_texture2d(size, size, "rgba8_unorm", render_target=True)
    tint = np.array([1.0, 0.5, 0.25, 1.0], np.float32)
    cl = queue.command_list()
    cl.upload(tex, src)
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.set_constants(0, tint)
    cl.set_shader_resource_view(1, 0, tex)
    cl.draw(3)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_texture(rt), (src.astype(np.float64) * tint).astype(np.uint8))


def test_bad_arguments(device):
    src = CS.format(expr="1")
    with pytest.raises(TypeError, match="entry"):
        dx.compile_hlsl(src, entry=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="timeout"):
        dx.compile_hlsl(src, timeout="10")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="source"):
        dx.compile_hlsl(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="define names"):
        dx.compile_hlsl(src, defines={1: 2})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="root-signature text, got int"):
        device.create_root_signature(123)
    with pytest.raises(FileNotFoundError):
        dx.compile_hlsl_file("/nonexistent/x.hlsl")
