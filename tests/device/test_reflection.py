"""DXBC reflection (Shader.bindings/inputs/outputs) and the pipeline checks built on it,
DXBC validation of the cache and the compiler's output, define line numbers."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import dx12kit as dx

from . import shaders as S

CS_U0 = "RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1,1,1)] void main() { o[0] = 1; }\n"
PS_T3 = ("Texture2D t : register(t3);\n"
         "float4 main(float4 p : SV_Position) : SV_Target { return t.Load(int3(0,0,0)) + float4(0.25,0,0,1); }\n")


def run_isolated(code: str) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter, so a crash fails the test instead of killing pytest."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)


# ---- reflection ---------------------------------------------------------------------------------


def test_reflection_of_a_pixel_shader():
    src = """
    cbuffer CB : register(b1) { uint a; float4 v; }
    Texture2D unused : register(t5);
    Texture2D<float4> tex : register(t2);
    StructuredBuffer<float> sb : register(t7, space1);
    SamplerState smp : register(s0);
    float4 main(float4 p : SV_Position, float2 uv : TEXCOORD3) : SV_Target { return tex.Sample(smp, uv) * a + v + sb[0]; }
    """
    ps = dx.compile_hlsl(src, profile="ps_5_1")
    got = {(b.kind, b.register, b.space, b.count, b.type, b.name) for b in ps.bindings}
    assert got == {("cbv", 1, 0, 1, "cbuffer", "CB"), ("srv", 2, 0, 1, "Texture2D", "tex"),
                   ("srv", 7, 1, 1, "StructuredBuffer", "sb"), ("sampler", 0, 0, 1, "SamplerState", "smp")}
    cb = next(b for b in ps.bindings if b.kind == "cbv")
    assert cb.cbuffer_size == 32 and cb.cbuffer_used_bytes == 32
    assert [(e.semantic, e.semantic_index, e.register, e.mask) for e in ps.inputs] == [("SV_Position", 0, 0, "xyzw"),
                                                                                      ("TEXCOORD", 3, 1, "xy")]
    assert [(e.semantic, e.component_type) for e in ps.outputs] == [("SV_Target", "float32")]
    assert ps.stage == "pixel" and ps.reflection.profile == "ps_5_1"
    assert ps.reflection is ps.reflection  # computed once and kept


def test_reflection_of_raw_bytes_and_numthreads():
    cs = dx.compile_hlsl("RWStructuredBuffer<uint> o : register(u0);\n"
                         "[numthreads(8,4,2)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = 1; }\n")
    r = dx.reflect(bytes(cs.bytecode))
    assert r.stage == "compute" and r.numthreads == (8, 4, 2)
    assert [(b.kind, b.type, b.register) for b in r.bindings] == [("uav", "RWStructuredBuffer", 0)]
    assert dx.reflect(memoryview(cs.bytecode)).numthreads == (8, 4, 2)


@pytest.mark.parametrize("damage", ["truncate", "flip", "size", "magic", "chunk"])
def test_malformed_dxbc_is_refused(damage):
    good = bytearray(dx.compile_hlsl(CS_U0).bytecode)
    if damage == "truncate":
        bad = good[:40]
    elif damage == "flip":
        bad = good[:]
        bad[len(bad) // 2] ^= 0xFF
    elif damage == "size":
        bad = good[:]
        bad[24:28] = (len(good) + 100).to_bytes(4, "little")
    elif damage == "magic":
        bad = b"DXBX" + good[4:]
    else:  # a chunk offset past the end
        bad = good[:]
        bad[32:36] = (len(good) + 8).to_bytes(4, "little")
    with pytest.raises(dx.InvalidArgumentError, match="DXBC"):
        dx.reflect(bytes(bad))
    with pytest.raises(TypeError):
        dx.reflect(12)  # type: ignore[arg-type]


def test_checksum_matches_the_compilers():
    from dx12kit.dx12core import shaders as native

    for src, profile in ((CS_U0, "cs_5_0"), (S.FULLSCREEN_VS, "vs_5_0"), (S.TEXTURED_PS, "ps_5_1")):
        b = dx.compile_hlsl(src, profile=profile).bytecode
        assert native.dxbc_checksum(b) == b[4:20]
        assert native.dxbc_problem(b) == ""


# ---- pipeline checks ---------------------------------------------------------------------------


def test_repro_compute_register_missing_is_an_error_not_a_crash():
    r = run_isolated(f"""
        import dx12kit as dx
        dev = dx.Device()
        cs = dx.compile_hlsl({CS_U0!r})
        try:
            dev.create_compute_pipeline(cs, dev.create_root_signature([dx.RootConstants(0, 1)]))
        except dx.InvalidArgumentError as e:
            print("ERR", e)
        # the device stays usable
        pso = dev.create_compute_pipeline(cs, dev.create_root_signature([dx.RootUAV(0)]))
        print("OK", pso.is_compute)
    """)
    assert r.returncode == 0, r.stderr
    assert "ERR create_compute_pipeline: the compute shader uses u0 space0 (RWStructuredBuffer 'o')" in r.stdout
    assert "RootConstants b0 space0" in r.stdout and "OK True" in r.stdout


def test_repro_pixel_srv_missing_is_an_error_not_a_crash():
    r = run_isolated(f"""
        import dx12kit as dx
        dev = dx.Device()
        vs = dx.compile_hlsl({S.FULLSCREEN_VS!r}, profile="vs_5_0")
        ps = dx.compile_hlsl({PS_T3!r}, profile="ps_5_0")
        try:
            dev.create_graphics_pipeline(vs, ps, dev.create_root_signature([dx.RootConstants(0, 4)]), rtv_formats=["rgba8_unorm"])
        except dx.InvalidArgumentError as e:
            print("ERR", e)
    """)
    assert r.returncode == 0, r.stderr
    assert "ERR create_graphics_pipeline: the pixel shader uses t3 space0 (Texture2D 't')" in r.stdout


def test_texture_cannot_be_a_root_srv(device):
    vs = dx.compile_hlsl(S.FULLSCREEN_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(PS_T3, profile="ps_5_0")
    with pytest.raises(dx.InvalidArgumentError, match=r"t3 space0 .*root SRV.*raw or structured buffers"):
        device.create_graphics_pipeline(vs, ps, device.create_root_signature([dx.RootSRV(3)]), rtv_formats=["rgba8_unorm"])
    # a descriptor table range covers it (unbounded ranges would too, but vkd3d 1.2 creates no
    # root signature with one: E_NOTIMPL)
    for rng in (dx.SRV(0, 4), dx.SRV(3)):
        device.create_graphics_pipeline(vs, ps, device.create_root_signature([dx.DescriptorTable([rng])]), rtv_formats=["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match="t3 space0"):  # t0..t2 only
        device.create_graphics_pipeline(vs, ps, device.create_root_signature([dx.DescriptorTable([dx.SRV(0, 3)])]),
                                        rtv_formats=["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match="t3 space0"):  # wrong space
        device.create_graphics_pipeline(vs, ps, device.create_root_signature([dx.DescriptorTable([dx.SRV(3, space=1)])]),
                                        rtv_formats=["rgba8_unorm"])


def test_structured_buffer_can_be_a_root_srv(device, queue):
    cs = dx.compile_hlsl("StructuredBuffer<uint> i : register(t0);\nRWStructuredBuffer<uint> o : register(u0);\n"
                         "[numthreads(4,1,1)] void main(uint3 t : SV_DispatchThreadID) { o[t.x] = i[t.x] * 3; }\n")
    pso = device.create_compute_pipeline(cs, device.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)]))
    src = device.create_buffer(16)
    dst = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.upload(src, np.arange(4, dtype=np.uint32))
    cl.set_pipeline_state(pso)
    cl.set_root_srv(0, src)
    cl.set_root_uav(1, dst)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    np.testing.assert_array_equal(queue.read_buffer(dst, dtype=np.uint32), np.arange(4) * 3)


def test_visibility_and_kind_are_checked(device):
    vs = dx.compile_hlsl(S.FULLSCREEN_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(S.TEXTURED_PS, profile="ps_5_0")
    table = dx.DescriptorTable([dx.SRV(0)])
    sampler = [dx.StaticSampler(0)]
    ok = device.create_root_signature([dx.RootConstants(0, 4, visibility="pixel"), dx.DescriptorTable([dx.SRV(0)], "pixel")], sampler)
    device.create_graphics_pipeline(vs, ps, ok, rtv_formats=["rgba8_unorm"])
    bad = device.create_root_signature([dx.RootConstants(0, 4), dx.DescriptorTable([dx.SRV(0)], "vertex")], sampler)
    with pytest.raises(dx.InvalidArgumentError, match="pixel shader uses t0 space0 .*visible to the vertex stage only"):
        device.create_graphics_pipeline(vs, ps, bad, rtv_formats=["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match="s0 space0 .*SamplerState 'smp'"):
        device.create_graphics_pipeline(vs, ps, device.create_root_signature([dx.RootConstants(0, 4), table]), rtv_formats=["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match="cbuffer 'Tint' .* uses 16 bytes.*holds 2 32-bit values"):
        device.create_graphics_pipeline(vs, ps, device.create_root_signature([dx.RootConstants(0, 2), table], sampler),
                                        rtv_formats=["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match="b0 space0"):  # a cbuffer is not a t register
        device.create_graphics_pipeline(vs, ps, device.create_root_signature([dx.RootSRV(5), table], sampler), rtv_formats=["rgba8_unorm"])
    deny_ps = device.create_root_signature("RootFlags(DENY_PIXEL_SHADER_ROOT_ACCESS), RootConstants(num32BitConstants=4, b0), "
                                           "DescriptorTable(SRV(t0)), StaticSampler(s0)")
    with pytest.raises(dx.InvalidArgumentError, match="deny the pixel shader root access"):
        device.create_graphics_pipeline(vs, ps, deny_ps, rtv_formats=["rgba8_unorm"])


def test_stage_linkage(device):
    ps_uv1 = dx.compile_hlsl("float4 main(float4 p : SV_Position, float2 uv : TEXCOORD1) : SV_Target { return uv.xyxy; }\n",
                             profile="ps_5_0")
    vs = dx.compile_hlsl(S.FULLSCREEN_VS, profile="vs_5_0")
    rs = device.create_root_signature([])
    with pytest.raises(dx.InvalidArgumentError, match=r"pixel shader's input TEXCOORD1 \(v1\) is not an output of the vertex shader"):
        device.create_graphics_pipeline(vs, ps_uv1, rs, rtv_formats=["rgba8_unorm"])
    ps_skip = dx.compile_hlsl("float4 main(float4 p : SV_Position, float4 c : COLOR0) : SV_Target { return c; }\n", profile="ps_5_0")
    vs2 = dx.compile_hlsl("struct O { float4 p : SV_Position; float2 uv : TEXCOORD0; float4 c : COLOR0; };\n"
                          "O main(uint id : SV_VertexID) { O o; o.p = 0; o.uv = 0; o.c = 1; return o; }\n", profile="vs_5_0")
    with pytest.raises(dx.InvalidArgumentError, match="different register"):
        device.create_graphics_pipeline(vs2, ps_skip, rs, rtv_formats=["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match="not a pixel shader"):
        device.create_graphics_pipeline(vs, vs, rs, rtv_formats=["rgba8_unorm"])
    with pytest.raises(dx.InvalidArgumentError, match="not a compute shader"):
        device.create_compute_pipeline(vs, rs)


def test_pipeline_refuses_damaged_bytecode(device):
    b = bytearray(dx.compile_hlsl(CS_U0).bytecode)
    b[-1] ^= 1
    with pytest.raises(dx.InvalidArgumentError, match="create_compute_pipeline .*checksum"):
        device.create_compute_pipeline(bytes(b), device.create_root_signature([dx.RootUAV(0)]))


# ---- cache and compiler output (item 9) -------------------------------------------------------


def test_truncated_cache_file_is_recompiled(tmp_path, pyenv, device):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path)
    good = dx.compile_hlsl(CS_U0)
    (f,) = tmp_path.glob("*.dxbc")
    f.write_bytes(good.bytecode[:40])
    again = dx.compile_hlsl(CS_U0)
    assert again.bytecode == good.bytecode
    assert f.read_bytes() == good.bytecode  # healed on disk
    f.write_bytes(good.bytecode[:-1] + bytes([good.bytecode[-1] ^ 1]))  # same size, one bit off
    assert dx.compile_hlsl(CS_U0).bytecode == good.bytecode
    device.create_compute_pipeline(again, device.create_root_signature([dx.RootUAV(0)]))


def _fake_compiler(tmp_path, body: str) -> str:
    p = tmp_path / "fake-compiler.sh"
    p.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo fake 3.0; exit 0; fi\n" + body)
    p.chmod(0o755)
    return str(p)


def test_junk_compiler_output_is_an_error(tmp_path, pyenv):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path / "cache")
    pyenv["DX12KIT_HLSL_COMPILER"] = (_fake_compiler(
        tmp_path, 'while [ $# -gt 0 ]; do if [ "$1" = -o ]; then o="$2"; [ "$o" = - ] && o=/dev/stdout; '
                  'printf "DXBCJUNKJUNKJUNKJUNKJUNKJUNKJUNK" > "$o"; fi; shift; done\n'))  # '-o -': stdout, not a file named '-'
    with pytest.raises(dx.ShaderCompileError, match="invalid DXBC"):
        dx.compile_hlsl("[numthreads(1,1,1)] void main() {}\n")
    assert not list((tmp_path / "cache").glob("*.dxbc"))


def test_hung_compiler_is_a_compile_error(tmp_path, pyenv):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path / "cache")
    pyenv["DX12KIT_HLSL_COMPILER"] = (_fake_compiler(tmp_path, "sleep 1000\n"))
    with pytest.raises(dx.ShaderCompileError, match=r"did not finish within 0.5 s"):
        dx.compile_hlsl("[numthreads(1,1,1)] void main() {}\n", timeout=0.5)
    with pytest.raises(dx.InvalidArgumentError, match="timeout"):
        dx.compile_hlsl("[numthreads(1,1,1)] void main() {}\n", timeout=0)


# ---- item 17 --------------------------------------------------------------------------------


def test_define_with_line_continuation_keeps_line_numbers(tmp_path, pyenv):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path)
    src = "RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1,1,1)]\nvoid main() {\n  o[0] = X +* ;\n}\n"
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl(src, defines={"X": "1 \\\n + 2", "Y": 3})
    first = e.value.messages[0]
    assert (first.file, first.line, first.severity) == ("shader.hlsl", 4, "error"), e.value.messages
    assert str(e.value.messages).splitlines()[0].startswith("shader.hlsl:4:")
    with pytest.raises(dx.InvalidArgumentError, match="line break"):
        dx.compile_hlsl(src, defines={"X": "1\n2"})


def test_hostile_containers_with_valid_checksums_never_crash():
    """Mutated containers whose checksum is recomputed reach the parser: each must reflect or
    raise InvalidArgumentError (run apart, so a crash fails the test)."""
    r = run_isolated(f"""
        import random
        import dx12kit as dx
        from dx12kit.dx12core import shaders as native
        srcs = [({CS_U0!r}, "cs_5_0"), ({S.TEXTURED_PS!r}, "ps_5_1"), ({S.FULLSCREEN_VS!r}, "vs_5_0")]
        rng = random.Random(1234)
        ok = bad = 0
        for src, profile in srcs:
            good = dx.compile_hlsl(src, profile=profile).bytecode
            for _ in range(1500):
                b = bytearray(good)
                for _ in range(rng.randint(1, 8)):
                    i = rng.randrange(32, len(b))
                    b[i] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256)])
                b[4:20] = native.dxbc_checksum(bytes(b))
                try:
                    r = dx.reflect(bytes(b))
                    [str(x) for x in r.bindings + r.inputs + r.outputs]
                    ok += 1
                except dx.InvalidArgumentError:
                    bad += 1
        print("done", ok, bad)
    """)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("done")


def test_overlapping_registers_are_refused_per_visibility(device):
    # the same register for two different stages is fine (MiniEngine's text root signature does it)
    device.create_root_signature([dx.RootCBV(0, visibility="vertex"), dx.RootCBV(0, visibility="pixel")])
    device.create_root_signature([dx.RootSRV(0), dx.RootSRV(0, space=1), dx.DescriptorTable([dx.SRV(1, 4)])])
    cases = [
        ([dx.RootSRV(0), dx.DescriptorTable([dx.SRV(0)])], r"root parameter 0 \(root SRV\) and root parameter 1 .* t0 space0 to every stage"),
        ([dx.RootConstants(2, 1), dx.DescriptorTable([dx.CBV(0, 4)], "pixel")], "b2 space0 to the pixel stage"),
        ([dx.DescriptorTable([dx.UAV(0, 2), dx.UAV(1)])], "u1 space0"),
        ([dx.DescriptorTable([dx.Sampler(0, 2)])], None),
    ]
    for params, match in cases:
        if match is None:
            with pytest.raises(dx.InvalidArgumentError, match="s1 space0"):
                device.create_root_signature(params, [dx.StaticSampler(1)])
        else:
            with pytest.raises(dx.InvalidArgumentError, match=match):
                device.create_root_signature(params)


def test_raw_buffer_declared_in_the_program_counts_as_raw(device):
    # vkd3d-shader's RDEF calls a RWByteAddressBuffer a typed RWBuffer; the program's dcl_uav_raw
    # is what the shader runs with, and D3D12 allows raw buffers as root UAVs.
    import dx12kit as dx

    cs = dx.compile_hlsl("RWByteAddressBuffer o : register(u0);\n"
                         "[numthreads(1,1,1)] void main() { o.Store(0, 7); }", profile="cs_5_0")
    (b,) = cs.bindings
    assert b.type_name == "RWByteAddressBuffer" if hasattr(b, "type_name") else "RWByteAddressBuffer" in repr(b)
    device.create_compute_pipeline(cs, device.create_root_signature([dx.RootUAV(0)]))
