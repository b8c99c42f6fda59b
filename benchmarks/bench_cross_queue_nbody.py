"""An nBody-style frame on two queues: where the frame's time goes (time inside ``execute`` vs total).

As Microsoft's nBodyGravity sample: the compute queue integrates N bodies (O(N^2) gravity, reading
``pos[cur]`` and writing ``pos[nxt]`` and the velocities), the direct queue draws the bodies of
``pos[nxt]`` as points into a small render target. dx12kit inserts the cross-queue GPU waits itself
(D3D12Rules rule 7): each draw waits for the compute step that wrote its positions (read after
write), and each step waits for the draw that read the buffer it overwrites (write after read).

On D3D12 both executes return at once and the CPU records the next frame while the GPU works. On
vkd3d 1.2 a GPU ``Wait`` on a value not reached yet blocks the thread that issues it; dx12kit then
issues that queue's work from the queue's submission thread (docs/guides/threads.rst), so
``execute`` returns at once here too.

Printed: frames, the run's wall time, the time inside ``execute`` (and its share), the final wait,
and a check of the result (the last frame's positions against numpy's integration of the same
steps, and the number of lit pixels of the last draw).

Run ``python benchmarks/bench_cross_queue_nbody.py [frames] [bodies]`` or
``pytest benchmarks/bench_cross_queue_nbody.py`` (pytest-benchmark: one frame loop).
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np
import pytest

import dx12kit as dx

STEP_CS = """
cbuffer C : register(b0) { uint n; float dt; };
StructuredBuffer<float4> pos : register(t0);
RWStructuredBuffer<float4> vel : register(u0);
RWStructuredBuffer<float4> nxt : register(u1);
[numthreads(64, 1, 1)] void main(uint3 t : SV_DispatchThreadID) {
    uint i = t.x;
    if (i >= n) return;
    float3 p = pos[i].xyz;
    float3 a = float3(0, 0, 0);
    [loop] for (uint j = 0; j < n; ++j) {
        float3 d = pos[j].xyz - p;
        float r2 = dot(d, d) + 0.01;
        a += d * (1.0 / (r2 * sqrt(r2)));
    }
    float3 v = vel[i].xyz + a * (dt / n);
    vel[i] = float4(v, 0);
    nxt[i] = float4(p + v * dt, 1);
}
"""
DRAW_VS = """
StructuredBuffer<float4> pos : register(t0);
float4 main(uint id : SV_VertexID) : SV_Position { return float4(pos[id].xy * 0.5, 0.5, 1); }
"""
DRAW_PS = """
float4 main(float4 p : SV_Position) : SV_Target { return float4(1, 1, 1, 1); }
"""
DT = 0.01
SIZE = 64


def integrate(pos, vel, steps, n):
    """numpy's float32 integration of the shader's steps (the reference)."""
    p, v = pos[:, :3].astype(np.float64), vel[:, :3].astype(np.float64)
    for _ in range(steps):
        d = p[None, :, :] - p[:, None, :]
        r2 = (d * d).sum(-1) + 0.01
        a = (d / (r2 * np.sqrt(r2))[..., None]).sum(1)
        v = v + a * (DT / n)
        p = p + v * DT
    return p


class NBody:
    def __init__(self, bodies: int = 1024):
        self.n = bodies
        dev = self.dev = dx.Device()
        self.cq, self.dq = dev.queue("compute"), dev.queue("direct")
        step_rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.RootSRV(0), dx.RootUAV(0), dx.RootUAV(1)])
        self.step_pso = dev.create_compute_pipeline(dx.compile_hlsl(STEP_CS, profile="cs_5_0"), step_rs)
        draw_rs = dev.create_root_signature([dx.RootSRV(0, visibility="vertex")])
        self.draw_pso = dev.create_graphics_pipeline(dx.compile_hlsl(DRAW_VS, profile="vs_5_0"), dx.compile_hlsl(DRAW_PS, profile="ps_5_0"),
                                                     draw_rs, rtv_formats=["rgba8_unorm"], topology="point")
        rng = np.random.default_rng(7)
        self.pos0 = np.zeros((bodies, 4), np.float32)
        self.pos0[:, :2] = rng.uniform(-1, 1, (bodies, 2))
        self.pos0[:, 3] = 1
        self.vel0 = np.zeros((bodies, 4), np.float32)
        self.pos = [dev.create_buffer(bodies * 16, uav=True, name=f"pos{i}") for i in range(2)]
        self.vel = dev.create_buffer(bodies * 16, uav=True, name="vel")
        self.rt = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, name="frame")
        self.frame = 0

    def reset(self):
        self.dq.wait(self.dq.write_buffer(self.pos[0], self.pos0))
        self.dq.wait(self.dq.write_buffer(self.vel, self.vel0))
        self.dev.wait_idle()
        self.frame = 0

    def run(self, frames: int):
        """Runs `frames` frames; returns (total s, inside execute s, final wait s)."""
        in_execute = 0.0
        t0 = time.perf_counter()
        last = 0
        for _ in range(frames):
            cur, nxt = self.pos[self.frame % 2], self.pos[(self.frame + 1) % 2]
            cl = self.cq.command_list()
            cl.set_pipeline_state(self.step_pso)
            cl.set_constants(0, np.array([self.n, np.float32(DT).view(np.uint32)], np.uint32))
            cl.set_root_srv(1, cur)
            cl.set_root_uav(2, self.vel)
            cl.set_root_uav(3, nxt)
            cl.dispatch((self.n + 63) // 64)
            t = time.perf_counter()
            self.cq.execute(cl)
            in_execute += time.perf_counter() - t
            dl = self.dq.command_list()
            dl.clear_render_target(self.rt, (0, 0, 0, 1))
            dl.set_pipeline_state(self.draw_pso)
            dl.set_render_targets([self.rt])
            dl.set_root_srv(0, nxt)
            dl.draw(self.n)
            t = time.perf_counter()
            last = self.dq.execute(dl)
            in_execute += time.perf_counter() - t
            self.frame += 1
        t = time.perf_counter()
        self.dq.wait(last)
        final = time.perf_counter() - t
        return time.perf_counter() - t0, in_execute, final

    def check(self):
        got = self.dq.read_buffer(self.pos[self.frame % 2], dtype=np.float32).reshape(-1, 4)
        want = integrate(self.pos0, self.vel0, self.frame, self.n)
        np.testing.assert_allclose(got[:, :3], want, rtol=0, atol=2e-3)
        img = self.dq.read_texture(self.rt)
        lit = int((img[..., 0] == 255).sum())
        inside = want[np.all(np.abs(want[:, :2] * 0.5) < 1, axis=1)]
        assert 0 < lit <= len(inside), (lit, len(inside))
        return lit


def main() -> None:
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    bodies = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nb = NBody(bodies)
    nb.reset()
    nb.run(1)   # warm-up (pipelines, pools)
    nb.reset()
    total, in_execute, final = nb.run(frames)
    lit = nb.check()
    print(f"nBody frame on two queues: {frames} frames of {bodies} bodies (compute step + point draw, each waiting on the other)")
    print(f"  total {total * 1e3:.0f} ms ({total / frames * 1e3:.1f} ms/frame); inside execute {in_execute * 1e3:.0f} ms "
          f"({100 * in_execute / total:.0f}%); final wait {final * 1e3:.0f} ms")
    print(f"  cross-queue GPU waits inserted: direct {nb.dq.stats()['cross_queue_waits']}, compute {nb.cq.stats()['cross_queue_waits']}; "
          f"last frame: {lit} lit pixels; positions match numpy")
    print(f"  load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


@pytest.fixture(scope="module")
def nbody():
    nb = NBody(256)
    nb.reset()
    nb.run(1)
    return nb


@pytest.mark.benchmark(group="nbody frame on two queues")
def test_nbody_frames(benchmark, nbody):
    def frames():
        nbody.reset()
        nbody.run(4)
        nbody.check()
    benchmark.pedantic(frames, rounds=3, warmup_rounds=0)


if __name__ == "__main__":
    main()
