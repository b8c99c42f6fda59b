"""The render graph's last stage, bake, alone on the device: the barrier plan of a small declared graph
turned into prebuilt barrier batches of the real resources, then submitted (the stages before it:
tests/unit/test_graph_stages.py)."""
from __future__ import annotations

from typing import Any

import numpy as np

import dx12kit as dx
from dx12kit.graph.bake import bake, submit
from dx12kit.graph.checked import _RealResources
from dx12kit.graph.compile import compile_graph
from dx12kit.graph.declare import Declaration
from dx12kit.graph.recorder import InitClear
from dx12kit.graph.realize import create_transients, device_allocation_info

S = dx.ResourceState


def noop(cl: Any, res: Any) -> None:
    pass


def test_bake_prebuilds_barrier_batches_of_the_real_resources_and_submit_runs_them(device: dx.Device) -> None:
    target = device.create_texture2d(16, 16, "rgba8_unorm", name="target")
    d = Declaration()
    out = d.imported(target)
    t = d.texture("t", 16, 16, "rgba8_unorm")
    d.add_pass("fill", noop, writes=[t])   # first use unbound: the graph clears it first (it is also a target)
    # no clear declared (a partial write: "fill" stays alive); the record clears
    d.add_pass("draw", lambda cl, r: cl.clear_render_target(r[t], (0.0, 1.0, 0.0, 1.0)), render_targets=[t])
    d.add_pass("copy", lambda cl, r: cl.copy_resource(r[out], r[t]), copy_from=[t], copy_to=[out])
    c = compile_graph(d.passes, device_allocation_info(device))
    real = _RealResources()
    create_transients(device, c.layout, real)
    real[out] = target
    plan = bake(c.barriers, c.layout, real, device)
    assert len(plan.lists) == 1 and plan.final_direct == 0 and plan.end_waits == ()
    fill, draw, copy = plan.lists[0].passes
    rt = real[t]
    assert fill.init_clears == (InitClear(rt, depth=False),)
    assert fill.barriers_before is None   # no carried, aliasing or UAV barriers: the transitions follow the clear
    assert fill.transitions is not None and fill.transitions.entries == [("transition", rt, int(S.UNORDERED_ACCESS))]
    assert fill.render_targets is None and fill.clears == ()
    # one batch before each later pass: its transitions (no init clear between)
    assert draw.barriers_before is not None
    assert draw.barriers_before.entries == [("transition", rt, int(S.RENDER_TARGET))]
    assert draw.render_targets == [rt] and draw.depth_stencil is None and draw.clears == ()
    assert copy.barriers_before is not None and copy.barriers_before.entries == [
        ("transition", rt, int(S.COPY_SOURCE)), ("transition", target, int(S.COPY_DEST))]
    assert copy.barriers_after is None
    # validation mode (pytest --validate): each pass's res holds only what it declared
    assert all((r.check is not None) == bool(device.validate) for r in (fill, draw, copy))
    if device.validate:
        assert copy.check is not None and dict(copy.check.resources) == {t: rt, out: target}
    # the list's recorder is straight-line source naming the plan's fields
    src = plan.lists[0].source.splitlines()
    assert src[:4] == ["def run(cl, res):", "    # pass 0: 'fill'", "    cl.transition_barrier(p0_init_clear, 4)  # RENDER_TARGET",
                       "    cl.clear_render_target(p0_init_clear, (0.0, 0.0, 0.0, 0.0))"]
    assert "    cl.resource_barriers(p0_transitions)" in src and "    cl.resource_barriers(p1_barriers_before)" in src
    q = device.queue()
    q.wait(submit(plan, real, 0))
    assert (q.read_texture(target) == np.array([0, 255, 0, 255], np.uint8)).all()
