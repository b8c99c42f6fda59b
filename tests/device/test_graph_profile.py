"""GPU time per pass of dx12kit.RenderGraph (profile=True), on the real device: timestamps around each
pass, the per-pass times against the frame's, copy-queue passes reported as not timed, the picture."""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import dx12kit as dx

N = 64
WORK_CS = """
cbuffer C : register(b0) { uint iterations; float seed; };
Texture2D<float> src : register(t0);
RWTexture2D<float> o : register(u0);
[numthreads(8, 8, 1)] void main(uint3 i : SV_DispatchThreadID) {
    float v = src[i.xy] + seed;
    for (uint k = 0; k < iterations; ++k) { v = frac(v * 1.0001 + 0.37); }
    o[i.xy] = float(i.x + i.y) + seed + (v < -1.0 ? 1.0 : 0.0);   // v keeps the loop
}
"""


@pytest.fixture(scope="module")
def dev() -> dx.Device:
    return dx.Device()


def _work(dev: dx.Device) -> Any:
    rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.DescriptorTable([dx.SRV(0), dx.UAV(0)])])
    return dev.create_compute_pipeline(dx.compile_hlsl(WORK_CS, profile="cs_5_0"), rs)


def _pass(pso: Any, src: Any, dst: Any, iterations: int, seed: float) -> Any:
    def rec(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(pso)
        cl.set_constants(0, np.array([iterations, np.float32(seed).view(np.uint32)], np.uint32))
        cl.set_shader_resource_view(1, 0, r[src])
        cl.set_unordered_access_view(1, 1, r[dst])
        cl.dispatch(N // 8, N // 8)
    return rec


def frame(dev: dx.Device, out: dx.Texture, queues: Tuple[str, str] = ("direct", "direct"), *,
          profile: bool = True) -> dx.RenderGraph:
    """seed -> a (heavy) -> b (light) -> c (heavy) -> copy to out; queue of a and c, then of b."""
    pso = _work(dev)
    g = dx.RenderGraph(dev, profile=profile)
    o = g.import_resource(out)
    s = g.create_texture("seed", N, N, "r32_float")
    a = g.create_texture("ta", N, N, "r32_float")
    b = g.create_texture("tb", N, N, "r32_float")
    c = g.create_texture("tc", N, N, "r32_float")
    g.add_pass("seed", lambda cl, r: cl.clear_unordered_access_view(r[s], [0.5, 0, 0, 0]), queue=queues[0], writes=[s])
    g.add_pass("heavy_a", _pass(pso, s, a, 400, 1.0), queue=queues[0], reads=[s], writes=[a])
    g.add_pass("light_b", _pass(pso, a, b, 40, 2.0), queue=queues[1], reads=[a], writes=[b])
    g.add_pass("heavy_c", _pass(pso, b, c, 400, 3.0), queue=queues[0], reads=[b], writes=[c])
    g.add_pass("present", lambda cl, r: cl.copy_resource(r[o], r[c]), copy_from=[c], copy_to=[o])
    return g


def expected() -> np.ndarray:
    y, x = np.mgrid[0:N, 0:N]
    return (x + y + 3.0).astype(np.float32)


def test_pass_times_sum_to_the_frame_time_on_one_queue(dev: dx.Device) -> None:
    q = dev.queue()
    out = dev.create_texture2d(N, N, "r32_float", name="out")
    g = frame(dev, out)
    ratios = []
    runs: List[Dict[str, float]] = []
    for _ in range(5):
        q.wait(g.execute())
        st = g.stats()
        ms = st["gpu_ms"]
        runs.append(dict(ms))
        assert list(ms) == ["seed", "heavy_a", "light_b", "heavy_c", "present"]
        assert all(v is not None and v >= 0 for v in ms.values()) and st["gpu_unmeasured"] == {}
        assert sum(ms.values()) <= st["gpu_frame_ms"] * 1.0001   # one queue: the passes do not overlap
        ratios.append(sum(ms.values()) / st["gpu_frame_ms"])
    assert (q.read_texture(out).reshape(N, N) == expected()).all()
    # lavapipe is a CPU thread: on a loaded host it may be descheduled between two passes, which the frame's
    # time holds and no pass's does; the median execution is what the passes' time is measured by
    assert sorted(ratios)[2] >= 0.90, ratios
    assert st["gpu_queue_ms"].keys() == {"direct"}
    # the work is what is timed, by the median of the executions (one execution alone may be descheduled: with
    # the sanitizers' runtime one measured 1.20 against 0.90 ms): the heavy passes (10x the light one's loop;
    # measured 4-6x its time on a quiet machine, 2.3x under the sanitizers' runtime on a loaded one, the
    # dispatch's fixed cost included) take at least 1.5x the light one's time. (Two heavy passes of the same
    # work measured 2.5x apart in one loaded run: lavapipe's thread is descheduled inside a pass at random, so
    # no closer agreement is asked of wall-clock GPU times here.)
    med = {n: sorted(r[n] for r in runs)[2] for n in ("heavy_a", "light_b", "heavy_c")}
    assert min(med["heavy_a"], med["heavy_c"]) >= 1.5 * med["light_b"], runs
    tl = st["gpu_timeline"]
    starts: List[float] = [tl[n][0] for n in ms]
    assert starts == sorted(starts) and starts[0] == 0.0


def test_compute_queue_timed_and_copy_queue_reported_not_timed(dev: dx.Device) -> None:
    q = dev.queue()
    out = dev.create_texture2d(N, N, "r32_float", name="out2")
    g = frame(dev, out, ("direct", "compute"))
    side = dev.create_buffer(256, name="side")
    sb = g.import_resource(side)
    tmp = g.create_buffer("tmp", 256)
    g.add_pass("upload_copy", lambda cl, r: cl.copy_resource(r[tmp], r[sb]), queue="copy", copy_from=[sb], copy_to=[tmp])
    g.add_pass("copy_back", lambda cl, r: cl.copy_resource(r[sb], r[tmp]), queue="copy", copy_from=[tmp], copy_to=[sb])
    q.wait(g.execute())
    assert (q.read_texture(out).reshape(N, N) == expected()).all()
    st = g.stats()
    ms = st["gpu_ms"]
    assert ms["light_b"] is not None and ms["light_b"] > 0   # compute queue
    assert ms["heavy_a"] > 0 and set(st["gpu_queue_ms"]) == {"direct", "compute"}
    if not dev.query_support["copy_queue_timestamps"]:
        assert ms["upload_copy"] is None and ms["copy_back"] is None
        assert "copy_queue_timestamps" in st["gpu_unmeasured"]["upload_copy"]
    timed = sum(v for v in ms.values() if v is not None)
    assert timed <= st["gpu_frame_ms"] * 1.10   # the queues wait for each other here: no overlap to add


def test_profiled_picture_draws_the_passes_to_scale(dev: dx.Device, tmp_path: Any) -> None:
    from PIL import Image

    q = dev.queue()
    out = dev.create_texture2d(N, N, "r32_float", name="out3")
    plain = frame(dev, out, profile=False)
    g = frame(dev, out)
    q.wait(plain.execute())
    q.wait(g.execute())
    with Image.open(plain.to_png(tmp_path / "plain.png")) as im:
        h0 = im.height
    st = g.stats()
    with Image.open(g.to_png(tmp_path / "profiled.png")) as im:
        img = np.asarray(im.convert("RGB"))
    assert img.shape[0] > h0
    # below the plain picture, the direct lane to scale of GPU time (150 px of labels, 12 of margin): one row
    # inside the pass boxes crosses only their vertical edges in the queue's colour, where the times put them
    row = img[h0 + 24 + 5]
    edges = set(np.nonzero((row == (66, 133, 244)).all(axis=1))[0].tolist())
    span, total = 1100 - 12 - 150, st["gpu_frame_ms"]
    for name in ("heavy_a", "heavy_c"):
        t0, t1 = st["gpu_timeline"][name]
        for t in (t0, t1):
            x = 150 + t / total * span
            assert any(abs(e - x) <= 1.5 for e in edges), (name, x, sorted(edges))


def test_no_profile_records_no_timestamps(dev: dx.Device) -> None:
    q = dev.queue()
    out = dev.create_texture2d(N, N, "r32_float", name="out4")
    g = frame(dev, out, profile=False)
    q.wait(g.execute())
    assert "gpu_ms" not in g.stats()
    assert all("end_query" not in lst.source for lst in g._record_plan.lists)
    with pytest.raises(TypeError, match="profile must be a bool"):
        dx.RenderGraph(dev, profile=1)  # type: ignore[arg-type]
    p = frame(dev, out)
    assert set(p.stats()["gpu_unmeasured"]) == {"seed", "heavy_a", "light_b", "heavy_c", "present"}   # not executed
