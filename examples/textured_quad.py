"""A textured quad: a vertex buffer (position, uv), an index buffer, a texture and a point sampler, bound
by the names the pixel shader gives them.

Run: python examples/textured_quad.py [OUT_DIR]   (writes textured_quad.png, 64x64)
"""
import sys
from pathlib import Path

import numpy as np

import dx12kit as dx

VS = """
struct V { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
V main(float2 pos : POSITION, float2 uv : TEXCOORD0) { V o; o.pos = float4(pos, 0, 1); o.uv = uv; return o; }
"""
PS = """
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target { return tex.Sample(smp, uv); }
"""
SIZE = 64


def checkerboard(n: int = 8) -> np.ndarray:
    """An n x n RGBA8 checkerboard of orange and blue texels."""
    cells = (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(bool)
    image = np.empty((n, n, 4), np.uint8)
    image[cells] = [255, 128, 0, 255]
    image[~cells] = [0, 64, 255, 255]
    return image


def main(out_dir: str = ".") -> Path:
    dev = dx.Device()
    queue = dev.queue("direct")
    pso = dev.create_graphics_pipeline(      # no root signature: derived from the shaders
        dx.compile_hlsl(VS), dx.compile_hlsl(PS), rtv_formats="rgba8_unorm",   # stages from SV_Position / SV_Target
        input_layout=[dx.InputElement("POSITION", "float2", offset=0), dx.InputElement("TEXCOORD", "float2", offset=8)])

    #                   x     y    u  v     (the quad covers the middle half of the target)
    vertices = np.array([[-0.5, 0.5, 0, 0], [0.5, 0.5, 1, 0], [-0.5, -0.5, 0, 1], [0.5, -0.5, 1, 1]], np.float32)
    indices = np.array([0, 1, 2, 2, 1, 3], np.uint16)
    vb = dev.create_buffer(data=vertices, name="vertices")
    ib = dev.create_buffer(data=indices, name="indices")
    texture = dev.create_texture2d(data=checkerboard(), name="checkerboard")   # 8x8 rgba8_unorm, from the array
    sampler = dev.create_sampler(filter="point")
    target = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, name="target")

    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([target])            # also sets a full-size viewport and scissor
    cl.clear_render_target(target, [0.1, 0.1, 0.1, 1.0])
    cl.set_vertex_buffer(0, vb, stride=16)
    cl.set_index_buffer(ib, "uint16")
    cl.bind(tex=texture, smp=sampler)
    cl.draw_indexed(6)
    queue.execute(cl)
    pixels = queue.read_texture(target)

    path = dx.save_image(Path(out_dir) / "textured_quad.png", pixels)
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
