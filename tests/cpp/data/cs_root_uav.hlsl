// Root constants (b0) and a root UAV (u0): data[i] = data[i] * scale + add + i, for i < count.
cbuffer Params : register(b0) { uint scale; uint add; uint count; };
RWStructuredBuffer<uint> data : register(u0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x < count) data[id.x] = data[id.x] * scale + add + id.x;
}
