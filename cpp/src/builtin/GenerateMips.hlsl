// Mip generation (CommandList::GenerateMips, cpp/src/gpu/GenerateMips.cpp): one dispatch writes
// up to four mips of every array slice below the source mip. 8x8 threads per group, one thread
// per texel of the first output mip; the next mips are 2x2 averages reduced in groupshared memory.
//
// First output mip: a destination texel covers 2x2 source texels when both source sizes are even
// (their average). An odd source size cannot be halved exactly, so the texel
// takes two bilinear taps along each odd axis, at a quarter and three quarters of its footprint
// (2 taps for one odd axis, 4 for both): weights always sum to one (a constant image stays
// constant), but each texel weights three source texels unevenly (3 -> 1: 3/8, 1/4, 3/8), so the
// mean is close to the source's, not equal (README "Mips" gives the weights). This is the scheme of
// DX12Lib's and MiniEngine's GenerateMipsCS, written anew here.
//
// sRGB: the source view has the sRGB format (sampling returns linear values, averaged in linear
// light); the output views are UNORM (D3D12 has no sRGB UAVs), so IsSrgb re-encodes by hand.
// Every view is a Texture2DArray (a single texture is an array of one); z selects the slice.

cbuffer MipParams : register(b0) {
    uint NumMips;      // mips this dispatch writes, 1..4
    uint SrcOdd;       // bit 0: source width odd, bit 1: source height odd
    uint IsSrgb;       // 1: encode outputs to sRGB
    uint DstWidth;     // size of the first output mip
    float2 TexelSize;  // 1 / (DstWidth, DstHeight)
    uint DstHeight;
};

Texture2DArray<float4> SrcMip : register(t0);
RWTexture2DArray<float4> OutMip1 : register(u0);
RWTexture2DArray<float4> OutMip2 : register(u1);
RWTexture2DArray<float4> OutMip3 : register(u2);
RWTexture2DArray<float4> OutMip4 : register(u3);
SamplerState LinearClamp : register(s0);

// One array per channel: neighbouring threads then touch neighbouring words.
groupshared float gsR[64];
groupshared float gsG[64];
groupshared float gsB[64];
groupshared float gsA[64];

void StoreShared(uint i, float4 c) {
    gsR[i] = c.r;
    gsG[i] = c.g;
    gsB[i] = c.b;
    gsA[i] = c.a;
}

float4 LoadShared(uint i) {
    return float4(gsR[i], gsG[i], gsB[i], gsA[i]);
}

float EncodeSrgb(float x) {
    // IEC 61966-2-1: the exact piecewise curve.
    x = saturate(x);
    return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1.0 / 2.4) - 0.055;
}

float4 Encode(float4 c) {
    if (IsSrgb != 0) return float4(EncodeSrgb(c.r), EncodeSrgb(c.g), EncodeSrgb(c.b), c.a);
    return c;
}

// Offset of the partner texel in a 2x2 reduction from a mip `width` wide: 0 along an axis of size
// 1 (that axis is not halved, the texel averages with itself).
uint Step(uint size, uint s) {
    return size > 1 ? s : 0;
}

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    const float slice = (float)id.z;
    float4 c;
    if (SrcOdd == 0) {
        // Even sizes: the 2x2 block, read with four loads. One bilinear tap at the block's centre is
        // the same average in exact arithmetic, but filtering units may round it to the format's
        // precision (llvmpipe filters 8-bit formats in 8-bit fixed point), and the next mips would
        // average those rounded values.
        const int2 p = int2(id.xy) * 2;
        const int s = (int)id.z;
        c = 0.25 * (SrcMip.Load(int4(p, s, 0)) + SrcMip.Load(int4(p + int2(1, 0), s, 0)) + SrcMip.Load(int4(p + int2(0, 1), s, 0)) +
                    SrcMip.Load(int4(p + int2(1, 1), s, 0)));
    } else if (SrcOdd == 1) {
        // odd width: two taps across the footprint
        const float2 uv = TexelSize * (id.xy + float2(0.25, 0.5));
        const float2 d = TexelSize * float2(0.5, 0.0);
        c = 0.5 * (SrcMip.SampleLevel(LinearClamp, float3(uv, slice), 0) + SrcMip.SampleLevel(LinearClamp, float3(uv + d, slice), 0));
    } else if (SrcOdd == 2) {
        // odd height
        const float2 uv = TexelSize * (id.xy + float2(0.5, 0.25));
        const float2 d = TexelSize * float2(0.0, 0.5);
        c = 0.5 * (SrcMip.SampleLevel(LinearClamp, float3(uv, slice), 0) + SrcMip.SampleLevel(LinearClamp, float3(uv + d, slice), 0));
    } else {
        // both odd: four taps
        const float2 uv = TexelSize * (id.xy + 0.25);
        const float dx = TexelSize.x * 0.5;
        const float dy = TexelSize.y * 0.5;
        c = SrcMip.SampleLevel(LinearClamp, float3(uv, slice), 0);
        c += SrcMip.SampleLevel(LinearClamp, float3(uv + float2(dx, 0.0), slice), 0);
        c += SrcMip.SampleLevel(LinearClamp, float3(uv + float2(0.0, dy), slice), 0);
        c += SrcMip.SampleLevel(LinearClamp, float3(uv + float2(dx, dy), slice), 0);
        c *= 0.25;
    }
    OutMip1[id] = Encode(c);
    if (NumMips == 1) return;

    // Mip 2: threads at even (x, y) of the group average their 2x2 block (group index bits 0 and 3).
    StoreShared(gi, c);
    GroupMemoryBarrierWithGroupSync();
    if ((gi & 0x9) == 0) {
        const uint sx = Step(DstWidth, 1), sy = Step(DstHeight, 8);
        c = 0.25 * (c + LoadShared(gi + sx) + LoadShared(gi + sy) + LoadShared(gi + sx + sy));
        OutMip2[uint3(id.xy / 2, id.z)] = Encode(c);
        StoreShared(gi, c);
    }
    if (NumMips == 2) return;

    // Mip 3: threads at multiples of 4 (bits 0, 1, 3, 4 clear).
    GroupMemoryBarrierWithGroupSync();
    if ((gi & 0x1B) == 0) {
        const uint sx = Step(max(DstWidth >> 1, 1u), 2), sy = Step(max(DstHeight >> 1, 1u), 16);
        c = 0.25 * (c + LoadShared(gi + sx) + LoadShared(gi + sy) + LoadShared(gi + sx + sy));
        OutMip3[uint3(id.xy / 4, id.z)] = Encode(c);
        StoreShared(gi, c);
    }
    if (NumMips == 3) return;

    // Mip 4: the group's first thread.
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) {
        const uint sx = Step(max(DstWidth >> 2, 1u), 4), sy = Step(max(DstHeight >> 2, 1u), 32);
        c = 0.25 * (c + LoadShared(gi + sx) + LoadShared(gi + sy) + LoadShared(gi + sx + sy));
        OutMip4[uint3(id.xy / 8, id.z)] = Encode(c);
    }
}
