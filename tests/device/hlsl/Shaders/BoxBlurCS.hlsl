// A 3x3 box blur followed by Scale * x + Bias, written to a structured buffer (row-major).
#include "FilterUtility.hlsli"
#include "FilterRS.hlsli"
#include <Common.hlsli>

cbuffer CB0 : register(b0)
{
    uint Width;
    uint Height;
    float Scale;
    float Bias;
};

Texture2D<float> Input : register(t0);
RWStructuredBuffer<float> Output : register(u0);

[RootSignature(Filter_RootSig)]
[numthreads(8, 8, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    if (DTid.x >= Width || DTid.y >= Height)
        return;
    uint2 size = uint2(Width, Height);
    float sum = 0;
    [unroll] for (int dy = -1; dy <= 1; ++dy)
        [unroll] for (int dx = -1; dx <= 1; ++dx)
            sum += FetchClamped(Input, int2(DTid.xy) + int2(dx, dy), size);
    Output[DTid.y * Width + DTid.x] = sum / 9.0 * Scale + Bias;
}
