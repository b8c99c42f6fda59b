"""A deferred frame as a render graph: a G-buffer pass (albedo, normal, depth) draws two quads, a
lighting pass on the compute queue shades them, a tone-mapping pass writes the frame.

Run: python examples/deferred_graph.py [OUT_DIR]   (writes deferred.png, 64x64, and deferred_graph.png)

The graph orders the passes, puts every resource in the state each pass needs, places the transient
textures in shared memory and makes the direct queue wait for the compute queue on the GPU.
"""
import sys
from pathlib import Path

import dx12kit as dx

SIZE = 64
LIGHT = (0.0, 0.6, 0.8)       # direction towards the light (unit length)

GBUFFER_VS = """
cbuffer Quad : register(b0) { float4 rect; float depth; float3 albedo; float3 normal; };
struct V { float4 pos : SV_Position; };
V main(uint id : SV_VertexID) {
    float2 corner = float2(id & 1, id >> 1);                 // 0,0 1,0 0,1 1,1 (triangle strip)
    V o; o.pos = float4(lerp(rect.xy, rect.zw, corner), depth, 1); return o;
}
"""
GBUFFER_PS = """
cbuffer Quad : register(b0) { float4 rect; float depth; float3 albedo; float3 normal; };
struct Out { float4 albedo : SV_Target0; float4 normal : SV_Target1; };
Out main(float4 pos : SV_Position) { Out o; o.albedo = float4(albedo, 1); o.normal = float4(normal, 0); return o; }
"""
LIGHTING_CS = """
cbuffer Light : register(b0) { float3 light; float ambient; };
Texture2D<float4> albedo : register(t0);
Texture2D<float4> normal : register(t1);
RWTexture2D<float4> hdr : register(u0);
[numthreads(8, 8, 1)]
void main(uint3 i : SV_DispatchThreadID) {
    float3 a = albedo.Load(int3(i.xy, 0)).rgb;
    float3 n = normal.Load(int3(i.xy, 0)).xyz;
    hdr[i.xy] = float4(a * (ambient + 2.0 * max(dot(n, light), 0.0)), 1);
}
"""
FULLSCREEN_VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""
TONEMAP_PS = """
Texture2D<float4> hdr : register(t0);
float4 main(float4 pos : SV_Position) : SV_Target { float3 c = hdr.Load(int3(pos.xy, 0)).rgb; return float4(c / (1 + c), 1); }
"""

# Two quads: (x0, y0, x1, y1) in NDC, depth, albedo, normal. The second lies in front of the first.
QUADS = [
    ((-1.0, -1.0, 1.0, 1.0), 0.8, (0.8, 0.8, 0.8), (0.0, 0.0, 1.0)),       # the floor, facing the viewer
    ((-0.5, -0.5, 0.5, 0.5), 0.3, (1.0, 0.3, 0.1), (0.0, 0.6, 0.8)),       # a panel facing the light
]


def main(out_dir: str = ".") -> Path:
    dev = dx.Device()
    queue = dev.queue("direct")
    # No root signatures: each pipeline derives its own from its shaders, and the passes bind by HLSL names.
    gbuffer = dev.create_graphics_pipeline(
        dx.compile_hlsl(GBUFFER_VS), dx.compile_hlsl(GBUFFER_PS), rtv_formats=["rgba8_unorm", "rgba16_float"],
        dsv_format="d32_float", topology="triangle_strip", depth_test=True)
    lighting = dev.create_compute_pipeline(dx.compile_hlsl(LIGHTING_CS))
    tonemap = dev.create_graphics_pipeline(dx.compile_hlsl(FULLSCREEN_VS), dx.compile_hlsl(TONEMAP_PS),
                                           rtv_formats="rgba8_unorm")

    frame = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, name="frame")
    g = dx.RenderGraph(dev)
    out = g.import_resource(frame)
    albedo = g.create_texture("albedo", SIZE, SIZE, "rgba8_unorm")
    normal = g.create_texture("normal", SIZE, SIZE, "rgba16_float")
    depth = g.create_texture("depth", SIZE, SIZE, "d32_float")
    hdr = g.create_texture("hdr", SIZE, SIZE, "rgba16_float")

    def record_gbuffer(cl, res):
        cl.set_pipeline_state(gbuffer)
        for rect, z, colour, facing in QUADS:
            cl.bind(Quad={"rect": rect, "depth": z, "albedo": colour, "normal": facing})
            cl.draw(4)

    def record_lighting(cl, res):
        cl.set_pipeline_state(lighting)
        cl.bind(Light={"light": LIGHT, "ambient": 0.1}, albedo=res[albedo], normal=res[normal], hdr=res[hdr])
        cl.dispatch(SIZE // 8, SIZE // 8)

    def record_tonemap(cl, res):
        cl.set_pipeline_state(tonemap)
        cl.bind(hdr=res[hdr])
        cl.draw(3)

    g.add_pass("gbuffer", record_gbuffer, render_targets=[albedo, normal], depth_stencil=depth,
               clear={albedo: (0, 0, 0, 0), normal: (0, 0, 0, 0), depth: 1.0})
    g.add_pass("lighting", record_lighting, queue="compute", reads=[albedo, normal], writes=[hdr])
    g.add_pass("tonemap", record_tonemap, reads=[hdr], render_targets=[out])
    queue.wait(g.execute())

    out_path = Path(out_dir)
    g.to_png(str(out_path / "deferred_graph.png"))          # the passes on their queues, the transient memory
    path = dx.save_image(out_path / "deferred.png", queue.read_texture(frame))
    print(g.stats())
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
