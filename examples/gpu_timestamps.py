"""GPU timestamps of a frame: a timestamp query before and after each pass (a compute pass, a draw,
a copy), read back and turned into milliseconds with the queue's timestamp frequency.

Run: python examples/gpu_timestamps.py [OUT_DIR]   (writes gpu_timestamps.json and gpu_timestamps.png, 64x64)
"""
import json
import sys
from pathlib import Path

import numpy as np

import dx12kit as dx

SIZE = 64
FILL_CS = """
RWStructuredBuffer<float> values : register(u0);
[numthreads(64, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { values[i.x] = sqrt(float(i.x)); }
"""
VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""
PS = "float4 main(float4 pos : SV_Position) : SV_Target { return float4(pos.x / 64, pos.y / 64, 0.25, 1); }"
PASSES = ["compute", "draw", "copy"]


def main(out_dir: str = ".") -> Path:
    dev = dx.Device()
    queue = dev.queue("direct")
    fill = dev.create_compute_pipeline(dx.compile_hlsl(FILL_CS))
    draw = dev.create_graphics_pipeline(dx.compile_hlsl(VS), dx.compile_hlsl(PS), rtv_formats="rgba8_unorm")
    values = dev.create_buffer(4096 * 4, uav=True, name="values")
    target = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True)
    copy = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm")
    heap = dev.create_query_heap("timestamp", 2 * len(PASSES))

    cl = queue.command_list()
    cl.end_query(heap, "timestamp", 0)                   # timestamps are written with end_query
    cl.set_pipeline_state(fill)
    cl.bind(values=values)
    cl.dispatch(4096 // 64)
    cl.end_query(heap, "timestamp", 1)
    cl.end_query(heap, "timestamp", 2)
    cl.set_pipeline_state(draw)
    cl.set_render_targets([target])
    cl.clear_render_target(target, [0, 0, 0, 1])
    cl.draw(3)
    cl.end_query(heap, "timestamp", 3)
    cl.end_query(heap, "timestamp", 4)
    cl.copy_resource(copy, target)
    cl.end_query(heap, "timestamp", 5)
    queue.wait(queue.execute(cl))

    ticks = queue.read_queries(heap, "timestamp")        # uint64 ticks of queue.timestamp_frequency per second
    frequency = queue.timestamp_frequency
    report = {
        "timestamp_frequency": frequency,
        "ticks": [int(t) for t in ticks],
        "passes_ms": {name: (int(ticks[2 * k + 1]) - int(ticks[2 * k])) * 1000.0 / frequency for k, name in enumerate(PASSES)},
        "frame_ms": (int(ticks[-1]) - int(ticks[0])) * 1000.0 / frequency,
    }
    assert np.allclose(queue.read_buffer(values, dtype=np.float32), np.sqrt(np.arange(4096, dtype=np.float32)))
    out = Path(out_dir)
    (out / "gpu_timestamps.json").write_text(json.dumps(report, indent=2))
    dx.save_image(out / "gpu_timestamps.png", queue.read_texture(copy))
    for name, ms in report["passes_ms"].items():
        print(f"{name:8s} {ms:8.3f} ms")
    print(f"frame    {report['frame_ms']:8.3f} ms")
    return out / "gpu_timestamps.json"


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
