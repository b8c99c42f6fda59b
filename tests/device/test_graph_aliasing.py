"""RenderGraph memory across queues and the barriers aliasing costs, on the real device."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import graph_demo as gd


@pytest.fixture(scope="module")
def dev() -> dx.Device:
    return dx.Device()


def _noop(cl: Any, r: Any) -> None:
    pass


@pytest.mark.parametrize("validate", [False, True])
def test_compute_queue_transients_free_their_bytes_on_the_compute_timeline(validate: bool) -> None:
    """Lighting and both blurs on the compute queue: the blur takes the G-buffer's bytes once lighting
    (before it on its own queue) is done, with no GPU wait beyond the dependencies'; same pixels as by hand."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    target = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
    hand = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="hand")
    q.wait(gd.record_compute_post_by_hand(dev, hand))
    hand_px = q.read_texture(hand)
    assert hand_px.std() > 10
    g, _ = gd.build_compute_post_graph(dev, target)
    for _ in range(3):
        q.wait(g.execute())
        assert np.array_equal(q.read_texture(target), hand_px)
    st = g.stats()
    assert st["transient_bytes_unaliased"] == 576 * 1024
    assert st["transient_bytes"] == 448 * 1024   # the peak of this order: lighting's inputs and output
    assert st["transient_bytes"] <= 0.85 * st["transient_bytes_unaliased"]
    mm = {m["name"]: m for m in g.memory_map()}
    assert mm["blur"]["first_pass"] == "blur_h" and mm["blur"]["last_pass"] == "blur_v"
    taken = [n for n in ("shadow", "albedo", "gbuf1", "depth")
             if mm[n]["offset"] < mm["blur"]["offset"] + mm["blur"]["size"] and mm["blur"]["offset"] < mm[n]["offset"] + mm[n]["size"]]
    assert taken and all(mm[n]["last_pass"] == "lighting" for n in taken)
    waits = st["batch_waits"]
    g.aliasing = False
    assert g.stats()["batch_waits"] == waits == [{}, {"direct": 0}, {"compute": 1}]


def test_bytes_change_queues_only_where_a_wait_orders_them(dev: dx.Device) -> None:
    """A (direct, then read on compute) is free for D, first used on the compute queue after A's last use
    there; not for C, first used on the direct queue by a pass no wait orders after that compute use."""
    out = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="out")
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    a, b, c, d = (g.create_texture(n, 8, 8, "rgba8_unorm") for n in "ABCD")
    g.add_pass("d0", _noop, render_targets=[a], clear={a: (0, 0, 0, 0)})
    g.add_pass("c1", _noop, queue="compute", reads=[a], writes=[b])
    g.add_pass("d2", _noop, render_targets=[c], clear={c: (0, 0, 0, 0)})
    g.add_pass("c3", _noop, queue="compute", reads=[b], writes=[d])
    g.add_pass("d4", _noop, reads=[c, d], render_targets=[o])
    mm = {m["name"]: m for m in g.memory_map()}
    assert mm["D"]["offset"] == mm["A"]["offset"]
    assert len({mm[n]["offset"] for n in "ABC"}) == 3
    assert mm["A"]["last_pass"] == "d2"   # d2 may run beside c1
    waits = g.stats()["batch_waits"]
    g.aliasing = False
    assert g.stats()["batch_waits"] == waits
    g.aliasing = True
    dev.queue().wait(g.execute())
