"""A mip-mapped texture: the full mip chain generated on the GPU, then every mip drawn side by side
with SampleLevel and a point sampler.

Run: python examples/mipmaps.py [OUT_DIR]
Writes mipmaps.png (7 panels of 64x64, mip 0 to mip 6) and mipmaps.npz (each mip read back).
"""
import sys
from pathlib import Path

import numpy as np

import dx12kit as dx

SIZE = 64
MIPS = 7   # 64, 32, ..., 1
VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""
PS = """
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 main(float4 pos : SV_Position) : SV_Target {
    float level = floor(pos.x / 64);                      // panel = mip level
    float2 uv = float2(pos.x - level * 64, pos.y) / 64;
    return tex.SampleLevel(smp, uv, level);
}
"""


def image() -> np.ndarray:
    """A smooth RGBA8 pattern with some noise, so each mip differs from the next."""
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    noise = np.random.default_rng(3).integers(0, 40, (SIZE, SIZE))
    rgba = np.stack([x * 4, y * 4, (x + y) * 2 + noise, np.full_like(x, 255)], axis=-1)
    return np.clip(rgba, 0, 255).astype(np.uint8)


def main(out_dir: str = ".") -> Path:
    dev = dx.Device()
    queue = dev.queue("direct")
    texture = dev.create_texture2d(data=image(), mip_levels=0, name="pattern")   # 0: full chain; data fills mip 0
    assert texture.mip_levels == MIPS
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(VS), dx.compile_hlsl(PS), rtv_formats="rgba8_unorm")
    target = dev.create_texture2d(SIZE * MIPS, SIZE, "rgba8_unorm", render_target=True)

    cl = queue.command_list()
    cl.generate_mips(texture)                 # a compute pass: 2x2 averages, up to four mips per dispatch
    cl.set_pipeline_state(pso)                # generate_mips leaves no pipeline bound
    cl.set_render_targets([target])
    cl.bind(tex=texture, smp=dev.create_sampler(filter="point"))
    cl.draw(3)
    queue.execute(cl)

    mips = {f"mip{k}": queue.read_texture(texture, mip=k) for k in range(MIPS)}
    out = Path(out_dir)
    np.savez(out / "mipmaps.npz", **mips)
    path = dx.save_image(out / "mipmaps.png", queue.read_texture(target))
    print("mip sizes:", [m.shape[0] for m in mips.values()])
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
