// dx12kit built-in pass (cpp/src/gpu/QueryPasses.cpp): every 64-bit value of `values` becomes 1
// where it is not zero, 0 where it is, in place. D3D12 reads binary-occlusion results and predicates
// as 64-bit values that are zero or not; vkd3d 1.2 resolves binary occlusion queries as sample counts
// and reads predicates as 32-bit values, so dx12kit passes both through this shader on that backend.
RWStructuredBuffer<uint2> values : register(u0);   // bound as a root UAV (stride 8)
cbuffer Constants : register(b0) { uint count; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= count) return;
    uint2 v = values[id.x];
    values[id.x] = uint2((v.x | v.y) != 0 ? 1 : 0, 0);
}
