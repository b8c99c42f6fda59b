// The position from vertex-buffer slot 0 (POSITION, float2), as is.
float4 main(float2 pos : POSITION) : SV_Position {
    return float4(pos, 0, 1);
}
