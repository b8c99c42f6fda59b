"""RenderGraph(threads=N): passes recorded into several command lists on worker threads and submitted in
order: the same pixels and the same barriers as one thread."""
from __future__ import annotations

import threading
from typing import Any, Dict, List

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import graph_demo as gd

from .graphcases import random_graph

COUNTED = ("recorded", "inserted_at_execute", "uav", "aliasing", "aliasing_automatic", "aliasing_explicit")


def barrier_deltas(dev: dx.Device, g: dx.RenderGraph) -> Dict[str, int]:
    """The device's barrier counts over one execution of ``g``."""
    b0 = dict(dev.stats()["barriers"])
    dev.queue().wait(g.execute())
    b1 = dev.stats()["barriers"]
    return {k: b1[k] - b0[k] for k in COUNTED}


def test_deferred_frame_recorded_on_threads_matches_one_thread_pixels_and_barriers(device: dx.Device) -> None:
    q = device.queue()
    px: Dict[int, np.ndarray] = {}
    barriers: Dict[int, Dict[str, int]] = {}
    for threads in (1, 2, 3):
        target = device.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
        g, _ = gd.build_deferred_graph(device, target, threads=threads)
        q.wait(g.execute())
        barriers[threads] = barrier_deltas(device, g)
        px[threads] = q.read_texture(target)
        st = g.stats()
        assert st["threads"] == threads
        if threads > 1:
            rec = st["recording"]
            assert rec["parts"] > len(st["batches"]) and len(rec["cpu_ms"]) == rec["parts"] and rec["wall_ms"] > 0
        else:
            assert "recording" not in st
    assert px[1].std() > 10
    for threads in (2, 3):
        assert np.array_equal(px[1], px[threads])
        one, many = barriers[1], barriers[threads]
        # every transition of one thread, once: recorded in the parts' lists, or (a state changed at a part's
        # start, which its list cannot know while recording) by dx12kit at execute
        assert one["recorded"] + one["inserted_at_execute"] == many["recorded"] + many["inserted_at_execute"]
        assert {k: one[k] for k in COUNTED[2:]} == {k: many[k] for k in COUNTED[2:]}


def test_random_graphs_on_threads_read_back_as_on_one_thread(device: dx.Device) -> None:
    q = device.queue()
    for seed in range(10):
        got = {}
        for threads, schedule in ((1, "declared"), (2, "declared"), (3, "memory")):
            g, outs = random_graph(device, seed, threads=threads, schedule=schedule)
            for _ in range(2):
                q.wait(g.execute())
            got[threads] = [q.read_texture(o) for o in outs]
        for threads in (2, 3):
            assert all(np.array_equal(a, b) for a, b in zip(got[1], got[threads])), (seed, threads)


def chain_graph(dev: dx.Device, n: int, threads: int, record: Any) -> dx.RenderGraph:
    out = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="out")
    g = dx.RenderGraph(dev, threads=threads)
    o = g.import_resource(out)
    for i in range(n):
        g.add_pass(f"p{i}", record(i), render_targets=[o], clear={o: (i / 255, 0, 0, 1)} if i == 0 else None)
    return g


def test_records_run_on_worker_threads_in_one_part_per_thread(device: dx.Device) -> None:
    seen: List[str] = []

    def record(i: int) -> Any:
        return lambda cl, r: seen.append(threading.current_thread().name)

    g = chain_graph(device, 8, 4, record)
    device.queue().wait(g.execute())
    assert len(seen) == 8 and all(name.startswith("render graph recorder") for name in seen)
    assert g.stats()["recording"]["parts"] == 4 and g.stats()["batches"] == [("direct", [f"p{i}" for i in range(8)])]


def test_an_error_in_a_worker_reaches_execute_and_the_graph_runs_again(device: dx.Device) -> None:
    fail = [True]

    def record(i: int) -> Any:
        def rec(cl: Any, r: Any) -> None:
            if i == 5 and fail[0]:
                raise ValueError("pass five failed")
        return rec

    g = chain_graph(device, 8, 2, record)
    with pytest.raises(ValueError, match="pass five failed"):
        g.execute()
    fail[0] = False
    device.queue().wait(g.execute())


def test_validation_checks_passes_recorded_on_workers() -> None:
    dev = dx.Device(validate=True)
    spare = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="spare")

    def record(i: int) -> Any:
        return (lambda cl, r: cl.clear_render_target(spare, (1, 0, 0, 1))) if i == 3 else (lambda cl, r: None)

    g = chain_graph(dev, 4, 2, record)
    g.import_resource(spare)
    with pytest.raises(dx.GraphError, match="p3"):
        g.execute()


def test_threads_argument_is_checked(device: dx.Device) -> None:
    with pytest.raises(TypeError, match="threads must be an int"):
        dx.RenderGraph(device, threads=2.0)  # type: ignore[arg-type]
    with pytest.raises(dx.GraphError, match="threads must be 1..64"):
        dx.RenderGraph(device, threads=0)
