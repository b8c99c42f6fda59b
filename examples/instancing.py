"""Instancing: one quad drawn 16 times in one call; each instance's offset and colour come from a
per-instance vertex buffer (slot 1).

Run: python examples/instancing.py [OUT_DIR]   (writes instancing.png, 64x64: a 4x4 grid of squares)
"""
import sys
from pathlib import Path

import numpy as np

import dx12kit as dx

VS = """
struct V { float4 pos : SV_Position; float4 colour : COLOR0; };
V main(float2 corner : POSITION, float2 offset : OFFSET, float4 colour : COLOR0) {
    V o; o.pos = float4(corner + offset, 0, 1); o.colour = colour; return o;
}
"""
PS = "float4 main(float4 pos : SV_Position, float4 colour : COLOR0) : SV_Target { return colour; }"
SIZE, GRID = 64, 4


def instances() -> np.ndarray:
    """Per instance: the offset of its cell's centre in NDC (x, y) and a colour (r, g, b, a)."""
    rows = []
    for row in range(GRID):
        for col in range(GRID):
            x = -1 + (2 * col + 1) / GRID
            y = 1 - (2 * row + 1) / GRID
            rows.append([x, y, col / (GRID - 1), row / (GRID - 1), 0.5, 1.0])
    return np.array(rows, np.float32)


def main(out_dir: str = ".") -> Path:
    dev = dx.Device()
    queue = dev.queue("direct")
    pso = dev.create_graphics_pipeline(
        dx.compile_hlsl(VS), dx.compile_hlsl(PS), rtv_formats="rgba8_unorm", topology="triangle_strip",
        input_layout=[dx.InputElement("POSITION", "float2", slot=0, offset=0),
                      dx.InputElement("OFFSET", "float2", slot=1, offset=0, per_instance=True),
                      dx.InputElement("COLOR", "float4", slot=1, offset=8, per_instance=True)])
    half = 0.5 / GRID   # each square is half a cell wide
    corners = np.array([[-half, half], [half, half], [-half, -half], [half, -half]], np.float32)
    target = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True)

    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 1])
    cl.set_dynamic_vertex_buffer(0, corners)          # per-frame data through upload pages
    cl.set_dynamic_vertex_buffer(1, instances())
    cl.draw(4, instance_count=GRID * GRID)
    queue.execute(cl)
    path = dx.save_image(Path(out_dir) / "instancing.png", queue.read_texture(target))
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
