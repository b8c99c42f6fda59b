// A full-screen triangle (ScreenQuadVS) and a tinted copy (PresentPS) sharing one root signature.
#include "PresentRS.hlsli"

struct VSOutput
{
    float4 pos : SV_Position;
    float2 uv : TexCoord0;
};

cbuffer Constants : register(b0)
{
    float4 Tint;
};

Texture2D<float4> ColorTex : register(t0);
SamplerState PointSampler : register(s0);

[RootSignature(Present_RootSig)]
VSOutput ScreenQuadVS(uint vertexID : SV_VertexID)
{
    VSOutput o;
    o.uv = float2((vertexID << 1) & 2, vertexID & 2);
    o.pos = float4(o.uv * float2(2, -2) + float2(-1, 1), 0, 1);
    return o;
}

[RootSignature(Present_RootSig)]
float4 PresentPS(VSOutput i) : SV_Target0
{
    return ColorTex.Sample(PointSampler, i.uv) * Tint;
}
