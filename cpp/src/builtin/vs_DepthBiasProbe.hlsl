// The depth-bias probe of DepthBiasUnits (cpp/src/device/DepthBiasUnits.cpp): a triangle covering
// the whole viewport at the constant depth 0.25, from SV_VertexID alone. 0.25 has exponent -2 (a
// float format's bias unit is then 2^-25), and on a UNORM format it lies 3/4 of a step above a
// stored value, so rounding never ties.
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0.25, 1);
}
