#pragma once
#include "FilterRS.hlsli"
#include <Common.hlsli>

// Clamped texel fetch: the image border repeats.
float FetchClamped(Texture2D<float> tex, int2 p, uint2 size)
{
    p = clamp(p, int2(0, 0), int2(size) - 1);
    return tex.Load(int3(p, 0));
}
