"""GPU culling and indirect drawing: a compute pass tests 64 instances against a view rectangle,
appends the visible ones to a list and counts them into the instance count of a draw command; then
execute_indirect draws exactly those instances, without the CPU reading anything back.

Run: python examples/gpu_culling.py [OUT_DIR]
Writes gpu_culling.png (64x64) and gpu_culling.npz (the instances, the draw arguments, the visible list).
"""
import sys
from pathlib import Path

import numpy as np

import dx12kit as dx

SIZE, COUNT = 64, 64
VIEW = (-0.6, -0.6, 0.6, 0.6)       # x0, y0, x1, y1: instances whose square overlaps it are drawn

CULL_CS = """
cbuffer View : register(b0) { float4 view; uint count; };
RWStructuredBuffer<float4> instances : register(u0);   // x, y, half size, colour index
RWStructuredBuffer<uint> args : register(u1);          // vertex count, instance count, start vertex, start instance
RWStructuredBuffer<uint> visible : register(u2);
[numthreads(64, 1, 1)]
void main(uint3 i : SV_DispatchThreadID) {
    if (i.x >= count) return;
    float4 s = instances[i.x];
    bool inside = s.x + s.z > view.x && s.x - s.z < view.z && s.y + s.z > view.y && s.y - s.z < view.w;
    if (inside) {
        uint slot;
        InterlockedAdd(args[1], 1, slot);
        visible[slot] = i.x;
    }
}
"""
DRAW_VS = """
StructuredBuffer<float4> instances : register(t0);
StructuredBuffer<uint> visible : register(t1);
struct V { float4 pos : SV_Position; float4 colour : COLOR0; };
V main(uint vid : SV_VertexID, uint iid : SV_InstanceID) {
    float4 s = instances[visible[iid]];
    float2 corner = float2(vid & 1, vid >> 1) * 2 - 1;     // triangle strip
    V o;
    o.pos = float4(s.xy + corner * s.z, 0, 1);
    o.colour = float4(frac(s.w * 0.37), frac(s.w * 0.61), 1 - frac(s.w * 0.37), 1);
    return o;
}
"""
DRAW_PS = "float4 main(float4 pos : SV_Position, float4 colour : COLOR0) : SV_Target { return colour; }"


def make_instances() -> np.ndarray:
    """An 8x8 grid over [-1, 1]^2 of squares, each (x, y, half size, index)."""
    centres = (np.arange(8) + 0.5) / 4 - 1
    x, y = np.meshgrid(centres, centres)
    return np.stack([x.ravel(), y.ravel(), np.full(COUNT, 0.1), np.arange(COUNT)], axis=-1).astype(np.float32)


def main(out_dir: str = ".") -> Path:
    dev = dx.Device()
    queue = dev.queue("direct")
    cull = dev.create_compute_pipeline(dx.compile_hlsl(CULL_CS))          # root signatures derived from the shaders
    draw = dev.create_graphics_pipeline(dx.compile_hlsl(DRAW_VS), dx.compile_hlsl(DRAW_PS), rtv_formats="rgba8_unorm",
                                        topology="triangle_strip")
    signature = dev.create_command_signature([dx.IndirectArgument.draw()], byte_stride=16)   # a draw, no root arguments

    instances = make_instances()
    instance_buf = dev.create_buffer(data=instances, uav=True, name="instances")
    args = dev.create_buffer(data=np.uint32([4, 0, 0, 0]), uav=True, name="draw arguments")   # 4 vertices, 0 instances
    visible = dev.create_buffer(COUNT * 4, uav=True, name="visible")
    target = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True)

    cl = queue.command_list()
    cl.set_pipeline_state(cull)
    cl.bind(View={"view": VIEW, "count": COUNT}, instances=instance_buf, args=args, visible=visible)
    cl.dispatch(1)
    cl.set_pipeline_state(draw)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 1])
    cl.bind(instances=instance_buf, visible=visible)          # the same names, now read as StructuredBuffers
    cl.execute_indirect(signature, 1, args)                   # the draw the compute pass wrote
    queue.execute(cl)

    draw_args = queue.read_buffer(args, dtype=np.uint32)
    visible_list = queue.read_buffer(visible, dtype=np.uint32)[: draw_args[1]]
    out = Path(out_dir)
    np.savez(out / "gpu_culling.npz", instances=instances, args=draw_args, visible=np.sort(visible_list), view=np.array(VIEW))
    path = dx.save_image(out / "gpu_culling.png", queue.read_texture(target))
    print(f"{draw_args[1]} of {COUNT} instances visible")
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
