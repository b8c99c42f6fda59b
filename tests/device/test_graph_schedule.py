"""RenderGraph(schedule=...) on the device: reordered passes give declaration order's numbers, with less
transient memory ("memory") or more overlap of the queues ("overlap"). (The orders themselves, without a
device: tests/unit/test_graph_schedule.py.)"""
from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import graph_demo as gd
from .graphcases import random_graph

MIX_CS = """
cbuffer C : register(b0) { float w; float3 pad; };
Texture2D<float4> t : register(t0);
RWStructuredBuffer<float> o : register(u0);
[numthreads(8, 8, 1)] void main(uint3 i : SV_DispatchThreadID) {
    uint k = i.y * 16 + i.x;
    o[k] = o[k] * 0.5 + t.Load(int3(i.xy, 0)).x * w;
}
"""
SCHEDULES = ("declared", "memory", "overlap")


@pytest.fixture(scope="module")
def mixer(device: dx.Device) -> Tuple[Any, Any]:
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.DescriptorTable([dx.SRV(0)]), dx.RootUAV(0)])
    return rs, device.create_compute_pipeline(dx.compile_hlsl(MIX_CS, profile="cs_5_0"), rs)


def mix_pass(pso: Any, t: dx.GraphResource, o: dx.GraphResource, w: float) -> Any:
    """out = out * 0.5 + t.x * w over 16x16 texels (order matters: each mix halves what came before)."""
    def rec(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(pso)
        cl.set_constants(0, np.array([w, 0, 0, 0], np.float32))
        cl.set_shader_resource_view(1, 0, r[t])
        cl.set_root_uav(2, r[o])
        cl.dispatch(2, 2)
    return rec


def producers_first(dev: dx.Device, pso: Any, schedule: str, n: int = 5,
                    queue: str = "direct") -> Tuple[dx.RenderGraph, dx.Buffer]:
    """A frame declared in a poor order: n passes each rendering a 16x16 rgba32_float transient, then n
    passes each mixing one of them into an imported buffer."""
    out = dev.create_buffer(16 * 16 * 4, uav=True, name="out")
    g = dx.RenderGraph(dev, schedule=schedule)
    o = g.import_resource(out)
    ts = [g.create_texture(f"t{i}", 16, 16, "rgba32_float") for i in range(n)]
    for i, t in enumerate(ts):
        g.add_pass(f"make{i}", lambda cl, r: None, render_targets=[t], clear={t: ((i + 1) / 8, 0, 0, 1)})
    for i, t in enumerate(ts):
        g.add_pass(f"mix{i}", mix_pass(pso, t, o, float(i + 1)), queue=queue, reads=[t], writes=[o])
    return g, out


def test_memory_schedule_lowers_the_peak_of_a_poorly_ordered_frame_with_the_same_numbers(
        device: dx.Device, mixer: Tuple[Any, Any]) -> None:
    q = device.queue()
    expect = np.float32(0)
    for i in range(5):
        expect = np.float32(expect * 0.5 + np.float32((i + 1) / 8) * (i + 1))
    got: Dict[str, np.ndarray] = {}
    stats: Dict[str, Dict[str, Any]] = {}
    for s in SCHEDULES:
        g, out = producers_first(device, mixer[1], s)
        q.write_buffer(out, np.zeros(256, np.float32))
        q.wait(g.execute())
        got[s] = q.read_buffer(out, np.float32)
        stats[s] = g.stats()
        assert g.schedule == s
    assert np.allclose(got["declared"], expect) and got["declared"].min() == got["declared"].max()
    assert all(np.array_equal(got["declared"], got[s]) for s in SCHEDULES)
    declared, memory = stats["declared"], stats["memory"]
    assert memory["transient_bytes"] * 5 == declared["transient_bytes"]   # one transient alive at a time, not five
    sch = memory["schedule"]
    assert sch["transient_bytes"] == {"declared": declared["transient_bytes"], "scheduled": memory["transient_bytes"]}
    assert sch["scheduled_order"] == [n for i in range(5) for n in (f"make{i}", f"mix{i}")]
    assert declared["schedule"]["moved"] == [] and declared["schedule"]["scheduled_order"] == sch["declared_order"]
    assert [b[1] for b in memory["batches"]] == [sch["scheduled_order"]]
    # "overlap" has nothing to overlap on one queue: declaration order
    assert stats["overlap"]["schedule"]["moved"] == []


def test_schedule_is_part_of_the_plan_cache_key(device: dx.Device, mixer: Tuple[Any, Any]) -> None:
    dx.graph.plan_cache(device).clear()
    g1, _ = producers_first(device, mixer[1], "declared")
    g1.compile()
    g2, _ = producers_first(device, mixer[1], "memory")
    g2.compile()
    assert not g2.stats()["compile_cached"]   # the same declarations, another schedule: its own plan
    assert g2.stats()["schedule"]["moved"] and not g1.stats()["schedule"]["moved"]
    g3, _ = producers_first(device, mixer[1], "memory")
    g3.compile()
    assert g3.stats()["compile_cached"] and g3.stats()["schedule"] == g2.stats()["schedule"]


def test_overlap_schedule_moves_independent_direct_work_ahead_of_a_wait_with_the_same_numbers(
        device: dx.Device, mixer: Tuple[Any, Any]) -> None:
    q = device.queue()
    got, stats = {}, {}
    for s in SCHEDULES:
        out = device.create_buffer(16 * 16 * 4, uav=True, name="out")
        g = dx.RenderGraph(device, schedule=s)
        o = g.import_resource(out)
        gb, lit, ui = (g.create_texture(n, 16, 16, "rgba32_float") for n in ("gbuffer", "lit", "ui"))
        g.add_pass("gbuffer", lambda cl, r: None, render_targets=[gb], clear={gb: (0.5, 0, 0, 1)})
        g.add_pass("lighting", lambda cl, r: cl.copy_resource(r[lit], r[gb]), queue="compute", copy_from=[gb],
                   copy_to=[lit])
        g.add_pass("post", mix_pass(mixer[1], lit, o, 2.0), reads=[lit], writes=[o])
        g.add_pass("ui", lambda cl, r: None, render_targets=[ui], clear={ui: (0.25, 0, 0, 1)})
        g.add_pass("compose", mix_pass(mixer[1], ui, o, 4.0), reads=[ui], writes=[o])
        q.write_buffer(out, np.full(256, 8.0, np.float32))
        q.wait(g.execute())
        got[s], stats[s] = q.read_buffer(out, np.float32), g.stats()
    assert (got["declared"] == np.float32(((8 * 0.5 + 1.0) * 0.5) + 1.0)).all()
    assert all(np.array_equal(got["declared"], got[s]) for s in SCHEDULES)
    sch = stats["overlap"]["schedule"]
    assert sch["scheduled_order"] == ["gbuffer", "lighting", "ui", "post", "compose"]
    assert sch["span"]["scheduled"] < sch["span"]["declared"]
    ui_list = next(i for i, (_, names) in enumerate(stats["overlap"]["batches"]) if "ui" in names)
    assert stats["overlap"]["batch_waits"][ui_list] == {}   # ui no longer waits for the compute queue


def test_deferred_frame_under_each_schedule_matches_by_hand(device: dx.Device) -> None:
    q = device.queue()
    hand = device.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="hand")
    q.wait(gd.record_deferred_by_hand(device, hand, gd.by_hand_textures(device)))
    want = q.read_texture(hand)
    for s in SCHEDULES:
        target = device.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
        g, _ = gd.build_deferred_graph(device, target, schedule=s)
        q.wait(g.execute())
        assert np.array_equal(q.read_texture(target), want), s


def test_random_graphs_read_back_the_same_under_every_schedule(device: dx.Device) -> None:
    q = device.queue()
    reordered = 0
    for seed in range(12):
        got = {}
        for s in SCHEDULES:
            g, outs = random_graph(device, seed, schedule=s)
            for _ in range(2):   # the second execution starts from the states the first left
                q.wait(g.execute())
            got[s] = [q.read_texture(o) for o in outs]
            reordered += s != "declared" and bool(g.stats()["schedule"]["moved"])
        for s in SCHEDULES:
            assert all(np.array_equal(a, b) for a, b in zip(got["declared"], got[s])), (seed, s)
    assert reordered >= 4   # the schedules did move passes in some of them


def test_schedule_argument_is_checked(device: dx.Device) -> None:
    with pytest.raises(dx.GraphError, match=r"schedule must be one of \('declared', 'memory', 'overlap'\)"):
        dx.RenderGraph(device, schedule="fast")
    with pytest.raises(TypeError, match="schedule must be a str"):
        dx.RenderGraph(device, schedule=None)  # type: ignore[arg-type]
    assert dx.RenderGraph(device).schedule == "declared"
