// PanoToCubemap: one mip of a cube map from an equirectangular panorama (CommandList::PanoToCubemap).
//
// Dispatch (ceil(size / 8), ceil(size / 8), 6): z is the face, in D3D12's order +X, -X, +Y, -Y,
// +Z, -Z, with +Y up. Each texel is the average of Samples x Samples samples of the panorama,
// spread evenly over the texel, taken at panorama mip Lod (the host picks Samples so that the
// samples are about one panorama texel apart at that mip: a box filter where the panorama has
// no mips small enough).
//
// Panorama layout (equirectangular): u = 0.5 + atan2(x, -z) / 2pi, v = acos(y) / pi. Row 0 is
// straight up (+Y), the last row straight down; the centre column looks along -Z, u = 0.75 along
// +X, u = 0.25 along -X, and the left/right edges along +Z.

cbuffer Constants : register(b0)
{
    uint FaceSize;    // texels per side of the mip being written
    uint Samples;     // samples per texel side
    float Lod;        // panorama mip level to sample
    uint EncodeSrgb;  // 1: the UAV is the UNORM alias of an sRGB cube; write sRGB-encoded values
};

Texture2D<float4> Panorama : register(t0);
RWTexture2DArray<float4> Cube : register(u0);
SamplerState PanoSampler : register(s0);  // linear, wrap in u, clamp in v

static const float kPi = 3.14159265358979;

// The direction through point p of a face (p in [-1, 1]^2, x to the right, y down), as the D3D12
// cube sampling rules map directions to faces.
float3 FaceDirection(uint face, float2 p)
{
    if (face == 0) return float3(1.0, -p.y, -p.x);
    if (face == 1) return float3(-1.0, -p.y, p.x);
    if (face == 2) return float3(p.x, 1.0, p.y);
    if (face == 3) return float3(p.x, -1.0, -p.y);
    if (face == 4) return float3(p.x, -p.y, 1.0);
    return float3(-p.x, -p.y, -1.0);
}

float2 PanoramaUv(float3 d)
{
    d = normalize(d);
    return float2(0.5 + atan2(d.x, -d.z) / (2.0 * kPi), acos(clamp(d.y, -1.0, 1.0)) / kPi);
}

float3 LinearToSrgb(float3 c)
{
    c = saturate(c);
    float3 lo = c * 12.92;
    float3 hi = 1.055 * pow(max(c, 0.0031308), 1.0 / 2.4) - 0.055;
    return lerp(lo, hi, step(0.0031308, c));
}

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= FaceSize || id.y >= FaceSize)
        return;
    float scale = 2.0 / float(FaceSize * Samples);
    float4 sum = float4(0.0, 0.0, 0.0, 0.0);
    for (uint sy = 0; sy < Samples; ++sy)
    {
        for (uint sx = 0; sx < Samples; ++sx)
        {
            float2 p = (float2(id.x * Samples + sx, id.y * Samples + sy) + 0.5) * scale - 1.0;
            sum += Panorama.SampleLevel(PanoSampler, PanoramaUv(FaceDirection(id.z, p)), Lod);
        }
    }
    float4 c = sum / float(Samples * Samples);
    if (EncodeSrgb != 0)
        c.rgb = LinearToSrgb(c.rgb);
    Cube[id] = c;
}
