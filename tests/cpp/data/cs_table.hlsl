// A descriptor table of one SRV (t0) and one UAV (u0), both raw buffer views as dx12kit creates
// them for buffers, and root constants (b0): dst[i] = src[i] * 3 + bias, for i < count.
cbuffer Params : register(b0) { uint bias; uint count; };
ByteAddressBuffer src : register(t0);
RWByteAddressBuffer dst : register(u0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x < count) dst.Store(id.x * 4, src.Load(id.x * 4) * 3 + bias);
}
