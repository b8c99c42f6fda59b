"""compile_hlsl without a profile: the stage comes from the entry point's source (or stage=)."""
from __future__ import annotations

import numpy as np
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


PS_51 = ("struct Material { float4 tint; };\n"
         "ConstantBuffer<Material> mat : register(b0);\n"
         "float4 main(float4 p : SV_Position) : SV_Target { return mat.tint; }\n")
CS_SPACE = ("RWStructuredBuffer<uint> b : register(u0, space1);\n"
            "[numthreads(8, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { b[i.x] = i.x; }\n")


def test_shader_model_5_1_syntax_picks_5_1_and_the_shader_runs() -> None:
    ps = dx.compile_hlsl(PS_51)
    assert ps.profile == "ps_5_1"
    assert dx.compile_hlsl(PS_51, stage="pixel").profile == "ps_5_1"
    assert dx.compile_hlsl(CS_SPACE).profile == "cs_5_1"
    assert dx.compile_hlsl(PS).profile == "ps_5_0"   # 5.0 syntax stays at 5_0
    with pytest.raises(dx.ShaderCompileError, match=r"ps_5_1, entry 'main'; .*shader model 5_1 since the source uses "
                                                    r"ConstantBuffer<\.\.\.>"):
        dx.compile_hlsl(PS_51.replace("mat.tint", "mat.missing"))
    dev = dx.Device()   # the 5_1 shader draws the constant buffer's colour
    q = dev.queue()
    rt = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True)
    vs = dx.compile_hlsl("float4 main(uint i : SV_VertexID) : SV_Position { float2 p = float2((i << 1) & 2, i & 2);"
                         " return float4(p * 2 - 1, 0, 1); }")
    rs = dev.create_root_signature([dx.RootCBV(0)])
    pso = dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.set_dynamic_constant_buffer(0, np.array([0.0, 1.0, 0.0, 1.0], np.float32))
    cl.draw(3)
    q.wait(q.execute(cl))
    assert (q.read_texture(rt) == [0, 255, 0, 255]).all()


CS_COMMENTED_50 = """
// ported from a sample that declared ConstantBuffer<Params> at register(b0, space1)
/* ConstantBuffer<Other> o2 : register(b1, space2); */
cbuffer P : register(b0) { float scale; };
Buffer<float> extra[2] : register(t0);
RWStructuredBuffer<float> o : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = extra[1][i.x] * scale; }
"""


def test_shader_model_5_1_syntax_in_comments_does_not_pick_5_1() -> None:
    # Under cs_5_1 the compiler refuses the resource array (not implemented), which 5_0 accepts.
    assert dx.compile_hlsl(CS_COMMENTED_50).profile == "cs_5_0"
    assert dx.compile_hlsl("/* a comment */ " + CS_SPACE).profile == "cs_5_1"


CS_BOTH_PATHS = """
#ifdef USE_SM51
struct Params { float scale; };
ConstantBuffer<Params> params : register(b0, space1);
#define SCALE params.scale
#else
cbuffer Params : register(b0) { float scale; };
#define SCALE scale
#endif
Buffer<float> extra[2] : register(t0);
RWStructuredBuffer<float> o : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = extra[1][i.x] * SCALE; }
"""


def test_shader_model_5_1_syntax_only_in_an_inactive_branch_does_not_pick_5_1() -> None:
    assert dx.compile_hlsl(CS_BOTH_PATHS).profile == "cs_5_0"
    # the active branch's 5.1 syntax still picks 5_1 (a header guard around it too)
    assert dx.compile_hlsl("#ifndef GUARD\n#define GUARD\n" + CS_SPACE + "\n#endif\n").profile == "cs_5_1"
    with pytest.raises(dx.ShaderCompileError, match=r"cs_5_1, .*shader model 5_1 since the source uses ConstantBuffer"):
        dx.compile_hlsl(CS_BOTH_PATHS, defines={"USE_SM51": 1})   # 5_1 chosen: the array is refused under 5_1
