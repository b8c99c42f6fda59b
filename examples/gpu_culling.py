"""GPU culling and indirect drawing with a root constant buffer per draw (the shape of Microsoft's
ExecuteIndirect sample): a compute pass tests 64 instances against a view rectangle and appends, for each
visible one, a command [its constant buffer's GPU address, draw arguments] and counts them; then
execute_indirect draws exactly those commands, each with its root CBV pointing at its instance's constants,
without the CPU reading anything back. (On vkd3d 1.2, which ignores root CBV arguments, dx12kit expands the
commands on the GPU: docs/guides/shader-gaps.rst, 'ExecuteIndirect'.)

Run: python examples/gpu_culling.py [OUT_DIR]
Writes gpu_culling.png (64x64) and gpu_culling.npz (the instances, the count, the commands, the visible list).
"""
import sys
from pathlib import Path

import numpy as np

import dx12kit as dx

SIZE, COUNT = 64, 64
VIEW = (-0.6, -0.6, 0.6, 0.6)       # x0, y0, x1, y1: instances whose square overlaps it are drawn
BLOCK = 256                         # one constant-buffer block per instance (root CBV addresses are 256-aligned)

CULL_CS = """
cbuffer View : register(b0) { float4 view; uint count; uint cb_lo; uint cb_hi; uint pad; };
RWStructuredBuffer<float4> instances : register(u0);   // x, y, half size, colour index
RWStructuredBuffer<uint> commands : register(u1);      // per command: CBV address (lo, hi), 4 vertices, 1 instance, 0, 0
RWStructuredBuffer<uint> counter : register(u2);
[numthreads(64, 1, 1)]
void main(uint3 i : SV_DispatchThreadID) {
    if (i.x >= count) return;
    float4 s = instances[i.x];
    bool inside = s.x + s.z > view.x && s.x - s.z < view.z && s.y + s.z > view.y && s.y - s.z < view.w;
    if (inside) {
        uint slot;
        InterlockedAdd(counter[0], 1, slot);
        uint w = slot * 6;
        commands[w] = cb_lo + i.x * 256;       // the constant buffer is 64 KiB-aligned: no carry into cb_hi
        commands[w + 1] = cb_hi;
        commands[w + 2] = 4;
        commands[w + 3] = 1;
        commands[w + 4] = 0;
        commands[w + 5] = 0;
    }
}
"""
DRAW_VS = """
cbuffer Instance : register(b0) { float4 s; };       // x, y, half size, colour index: set per draw
struct V { float4 pos : SV_Position; float4 colour : COLOR0; };
V main(uint vid : SV_VertexID) {
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
    cull_rs = dev.create_root_signature([dx.RootConstants(0, 8), dx.RootUAV(0), dx.RootUAV(1), dx.RootUAV(2)])
    cull = dev.create_compute_pipeline(dx.compile_hlsl(CULL_CS, profile="cs_5_0"), cull_rs)
    # The command signature changes root parameter 0 per command, so the draw's root signature is written
    # out (an automatic one may lay the cbuffer out as root constants).
    draw_rs = dev.create_root_signature([dx.RootCBV(0)])
    draw = dev.create_graphics_pipeline(dx.compile_hlsl(DRAW_VS, profile="vs_5_0"), dx.compile_hlsl(DRAW_PS, profile="ps_5_0"),
                                        draw_rs, ["rgba8_unorm"], topology="triangle_strip")
    # Per command: the root CBV's address (8 bytes), then the draw arguments (16 bytes).
    signature = dev.create_command_signature([dx.IndirectArgument.constant_buffer_view(0), dx.IndirectArgument.draw()],
                                             byte_stride=24, root_signature=draw_rs)

    instances = make_instances()
    blocks = np.zeros((COUNT, BLOCK // 4), np.float32)
    blocks[:, :4] = instances
    instance_buf = dev.create_buffer(instances.nbytes, uav=True, name="instances")
    constants = dev.create_buffer(blocks.nbytes, name="instance constants")
    commands = dev.create_buffer(COUNT * 24, uav=True, name="commands")
    count = dev.create_buffer(4, uav=True, name="command count")
    target = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True)

    va = constants.gpu_address
    cl = queue.command_list()
    cl.upload(instance_buf, instances)
    cl.upload(constants, blocks)
    cl.upload(count, np.zeros(1, np.uint32))
    cl.set_pipeline_state(cull)
    cl.set_constants(0, [*VIEW, COUNT, va & 0xFFFFFFFF, va >> 32, 0])      # floats stay floats, ints become uints
    cl.set_root_uav(1, instance_buf)
    cl.set_root_uav(2, commands)
    cl.set_root_uav(3, count)
    cl.dispatch(1)
    cl.set_pipeline_state(draw)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 1])
    cl.execute_indirect(signature, COUNT, commands, count_buffer=count, referenced=[constants])   # what the compute pass wrote
    queue.execute(cl)

    n = int(queue.read_buffer(count, dtype=np.uint32)[0])
    cmds = queue.read_buffer(commands, dtype=np.uint32).reshape(COUNT, 6)[:n]
    addresses = cmds[:, 0].astype(np.uint64) | (cmds[:, 1].astype(np.uint64) << np.uint64(32))
    visible_list = ((addresses - np.uint64(va)) // np.uint64(BLOCK)).astype(np.uint32)
    out = Path(out_dir)
    np.savez(out / "gpu_culling.npz", instances=instances, count=n, commands=cmds, visible=np.sort(visible_list), view=np.array(VIEW))
    path = dx.save_image(out / "gpu_culling.png", queue.read_texture(target))
    print(f"{n} of {COUNT} instances visible")
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
