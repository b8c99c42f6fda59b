"""MSAA: the same triangle drawn into a 1-sample and a 4-sample target; the 4-sample one is resolved.

Run: python examples/msaa.py [OUT_DIR]   (writes msaa.png: 1x on the left, 4x resolved on the right, 32x32 each)
"""
import sys
from pathlib import Path

import numpy as np

import dx12kit as dx

SIZE = 32
VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 p[3] = { float2(-0.9, 0.9), float2(0.9, 0.6), float2(-0.6, -0.9) };
    return float4(p[id], 0, 1);
}
"""
PS = "float4 main() : SV_Target { return float4(1, 1, 1, 1); }"


def draw_triangle(dev: dx.Device, queue: dx.CommandQueue, samples: int) -> np.ndarray:
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(VS), dx.compile_hlsl(PS), rtv_formats="rgba8_unorm",
                                       sample_count=samples)
    target = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, sample_count=samples)
    image = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm")
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 1])
    cl.draw(3)
    if samples > 1:
        cl.resolve(image, target)     # averages each pixel's samples (ResolveSubresource)
    else:
        cl.copy_resource(image, target)
    queue.execute(cl)
    return queue.read_texture(image)


def main(out_dir: str = ".") -> Path:
    dev = dx.Device()
    assert 4 in dev.format_support("rgba8_unorm").msaa
    queue = dev.queue("direct")
    x1 = draw_triangle(dev, queue, 1)
    x4 = draw_triangle(dev, queue, 4)
    path = dx.save_image(Path(out_dir) / "msaa.png", np.concatenate([x1, x4], axis=1))
    print("distinct red values: 1x", np.unique(x1[..., 0]).tolist(), "4x", np.unique(x4[..., 0]).tolist())
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
