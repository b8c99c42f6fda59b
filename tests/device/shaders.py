"""HLSL sources shared by the device tests, and the one-UAV compute run several of them use."""

import numpy as np

import dx12kit as dx

# A full-screen triangle with uv: the demo's (python -m dx12kit demo), one copy.
from dx12kit.__main__ import FULL_VS as FULLSCREEN_VS  # noqa: F401 - re-exported to the tests

SAXPY = """
cbuffer Params : register(b0) { float a; uint n; };
RWStructuredBuffer<float> x : register(u0);
RWStructuredBuffer<float> y : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x < n) y[id.x] = a * x[id.x] + y[id.x];
}
"""



def fullscreen_pos_vs(z: float = 0.0) -> str:
    """A full-screen triangle with position only, at depth `z`."""
    return """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), %r, 1);
}
""" % float(z)


FULLSCREEN_POS_VS = fullscreen_pos_vs(0.0)

WHITE_PS = "float4 main(float4 pos : SV_Position) : SV_Target { return float4(1, 1, 1, 1); }"

TEXTURED_PS = """
cbuffer Tint : register(b0) { float4 tint; };
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
    return tex.Sample(smp, uv) * tint;
}
"""

# A compute shader that keeps the GPU busy: about 0.9 ms a group on lavapipe here (dispatch(700)
# runs for about 0.6 s; dispatch(65535, 64) for about an hour, for tests that never wait for it).
# Each thread writes into the first 64 uints of u0.
LONG_CS = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64,1,1)] void main(uint3 t : SV_DispatchThreadID) {
  uint a = t.x; [loop] for (uint i = 0; i < 60000u; ++i) { a = a * 1664525u + o[i & 63]; } o[t.x & 63] = a; }
"""


def run_uav(device, queue, shader, nbytes: int = 4, dtype=np.uint32) -> np.ndarray:
    """Runs `shader` (one thread group) with a fresh `nbytes` buffer as root UAV u0, its only
    binding, and returns the buffer read back as `dtype`."""
    pso = device.create_compute_pipeline(shader, device.create_root_signature([dx.RootUAV(0)]))
    buf = device.create_buffer(nbytes, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(0, buf)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    return queue.read_buffer(buf, dtype=dtype)


def run_value(device, queue, shader) -> int:
    """run_uav's first uint: what a shader writing `o[0] = expr` computed."""
    return int(run_uav(device, queue, shader)[0])


# A 2x2 box filter as a pixel shader: mip k-1 (an SRV of that one mip) -> mip k (the render target), summed
# (a + b) + (c + d), then * 0.25, as numpy's reference does.
DOWN_PS = """
Texture2D<float> src : register(t0);
float main(float4 pos : SV_Position) : SV_Target {
    int2 p = int2(pos.xy) * 2;
    float a = src.Load(int3(p, 0)), b = src.Load(int3(p + int2(1, 0), 0));
    float c = src.Load(int3(p + int2(0, 1), 0)), d = src.Load(int3(p + int2(1, 1), 0));
    return ((a + b) + (c + d)) * 0.25;
}
"""
