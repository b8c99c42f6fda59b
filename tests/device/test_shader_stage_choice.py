"""compile_hlsl without a profile: the stage comes from the entry point's source (or stage=)."""
from __future__ import annotations

import pytest

import dx12kit as dx
from dx12kit._hlsl_stage import detect_stage

CS = "RWStructuredBuffer<uint> b : register(u0);\n[numthreads(8, 1, 1)]\nvoid main(uint3 i : SV_DispatchThreadID) { b[i.x] = i.x; }\n"
PS = "float4 main(float4 p : SV_Position) : SV_Target { return p; }\n"
VS_STRUCT = ("struct VOut { float2 uv : TEXCOORD0; float4 pos : SV_Position; };\n"
             "VOut main(uint id : SV_VertexID) { VOut o; o.uv = float2(id, 0); o.pos = float4(0, 0, 0, 1); return o; }\n")
VS_OUT_PARAM = "void main(float3 p : POSITION, out float4 pos : SV_Position) { pos = float4(p, 1); }\n"
PS_STRUCT = ("struct POut { float4 c : SV_Target0; };\n"
             "// a vertex-looking comment: float4 main() : SV_Position\n"
             "POut main(float4 pos : SV_Position) { POut o; o.c = pos; return o; }\n")


@pytest.mark.parametrize("source, profile", [(CS, "cs_5_0"), (PS, "ps_5_0"), (VS_STRUCT, "vs_5_0"), (VS_OUT_PARAM, "vs_5_0"),
                                             (PS_STRUCT, "ps_5_0")])
def test_profile_follows_the_entry_point(source, profile):
    shader = dx.compile_hlsl(source)
    assert shader.profile == profile and shader.reflection.profile == profile


def test_stage_attributes_of_geometry_hull_and_domain_shaders():
    gs = "[maxvertexcount(3)] void main(triangle float4 v[3] : SV_Position, inout TriangleStream<float4> s) {}"
    hs = '[domain("tri")] [partitioning("integer")] [outputtopology("triangle_cw")] [outputcontrolpoints(3)]\n' \
         '[patchconstantfunc("pc")] float4 main(InputPatch<float4, 3> p, uint i : SV_OutputControlPointID) : POS { return p[i]; }'
    ds = '[domain("tri")] float4 main(float3 uvw : SV_DomainLocation) : SV_Position { return float4(uvw, 1); }'
    assert detect_stage(gs, "main")[0] == "gs"
    assert detect_stage(hs, "main") == ("hs", "stage chosen from the [outputcontrolpoints] attribute of entry 'main'")
    assert detect_stage(ds, "main")[0] == "ds"


def test_entry_other_than_main_and_calls_are_not_definitions():
    src = "float4 helper(float4 x) { return x; }\nfloat4 vsmain(float4 p : POSITION) : SV_Position { return helper(p); }\n" \
          "float4 psmain() : SV_Target { return helper(float4(1, 1, 1, 1)); }\n"
    assert dx.compile_hlsl(src, "vsmain").profile == "vs_5_0"
    assert dx.compile_hlsl(src, "psmain").profile == "ps_5_0"


def test_stage_argument_and_explicit_profile():
    assert dx.compile_hlsl(PS, stage="pixel").profile == "ps_5_0"
    assert dx.compile_hlsl(PS, stage="ps").profile == "ps_5_0"
    assert dx.compile_hlsl(CS, profile="cs_5_1").profile == "cs_5_1"
    assert dx.compile_hlsl(CS, "main", "cs_5_0").profile == "cs_5_0"   # positional profile, as before
    with pytest.raises(dx.InvalidArgumentError, match="disagree"):
        dx.compile_hlsl(PS, stage="vertex", profile="ps_5_0")
    with pytest.raises(dx.InvalidArgumentError, match="unknown stage 'fragment'"):
        dx.compile_hlsl(PS, stage="fragment")


def test_undetectable_stage_asks_for_stage():
    with pytest.raises(dx.InvalidArgumentError, match=r"cannot tell the shader stage: entry 'main' has none of .* Give stage="):
        dx.compile_hlsl("float4 main(float4 p : POSITION) : COLOR0 { return p; }")
    with pytest.raises(dx.InvalidArgumentError, match="no definition of entry 'nope'"):
        dx.compile_hlsl(PS, "nope")


def test_compile_error_says_which_profile_and_why():
    with pytest.raises(dx.ShaderCompileError, match=r"\(ps_5_0, entry 'main'; stage chosen from the SV_Target output of entry 'main'"):
        dx.compile_hlsl("float4 main() : SV_Target { return undefined_name; }")
