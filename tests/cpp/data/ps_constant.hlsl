// Root constants (b0) as the colour, and a checker pattern from the pixel position: pixels with
// (x / 4 + y / 4) odd get the colour's rgb halved.
cbuffer Colour : register(b0) { float4 colour; };
float4 main(float4 pos : SV_Position) : SV_Target {
    uint2 p = uint2(pos.xy) / 4;
    return ((p.x + p.y) & 1) ? float4(colour.rgb * 0.5, colour.a) : colour;
}
