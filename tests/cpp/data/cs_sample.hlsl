// A 2x1 texture (t0) sampled with the table sampler s0 at LOD 0 along v = 0.5, at u = u0 + du * i for
// i < 8; dst (raw) gets each float4 read, 16 bytes per i.
cbuffer Params : register(b0) { float u0; float du; };
Texture2D<float4> tex : register(t0);
SamplerState smp : register(s0);
RWByteAddressBuffer dst : register(u0);
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    dst.Store4(id.x * 16, asuint(tex.SampleLevel(smp, float2(u0 + du * id.x, 0.5), 0)));
}
