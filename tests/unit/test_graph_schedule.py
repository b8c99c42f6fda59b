"""The render graph's schedule stage (dx12kit.graph.schedule) on graphs declared without a device: the
dependency DAG it keeps, the orders "memory" and "overlap" choose, and what they report. Sizes come from a
fixed allocation-info function (64 KiB per texture). Pixels of scheduled graphs: tests/device/test_graph_schedule.py."""
from __future__ import annotations

import random
from typing import Any, List, Sequence

import pytest

from dx12kit.graph import GraphError
from dx12kit.graph.compile import compile_graph
from dx12kit.graph.cull import cull
from dx12kit.graph.declare import Declaration
from dx12kit.graph.model import GraphResource, ResourceFlags
from dx12kit.graph.placement import AllocationInfo
from dx12kit.graph.schedule import check_schedule, dependencies, schedule

KIB64 = 65536


def noop(cl: Any, res: Any) -> None:
    pass


def fixed_size(h: GraphResource, flags: ResourceFlags) -> AllocationInfo:
    size = h.size if h.kind == "buffer" else KIB64
    return AllocationInfo(size=-(-size // KIB64) * KIB64, alignment=KIB64)


def names(items: Sequence[Any]) -> List[str]:
    return [x.name for x in items]


def producers_first(n: int, consumer_queue: str = "direct") -> Declaration:
    """n producers (each renders a transient), then n consumers (each reads one, writes one imported buffer)."""
    d = Declaration()
    out = d.buffer("out", 4096)
    out.transient = False   # stands for an imported buffer (no device here)
    ts = [d.texture(f"t{i}", 64, 64, "rgba8_unorm") for i in range(n)]
    for i, t in enumerate(ts):
        d.add_pass(f"make{i}", noop, render_targets=[t], clear={t: (0, 0, 0, 0)})
    for i, t in enumerate(ts):
        d.add_pass(f"use{i}", noop, queue=consumer_queue, reads=[t], writes=[out])
    return d


def test_memory_schedule_interleaves_producers_and_consumers_and_lowers_the_peak() -> None:
    d = producers_first(5)
    declared = compile_graph(d.passes, fixed_size)
    c = compile_graph(d.passes, fixed_size, schedule_mode="memory")
    assert names(declared.culling.alive) == [f"make{i}" for i in range(5)] + [f"use{i}" for i in range(5)]
    assert names(c.culling.alive) == [n for i in range(5) for n in (f"make{i}", f"use{i}")]
    assert c.culling.order_of == {p: i for i, p in enumerate(c.culling.alive)}
    st = c.stats()
    assert st["transient_bytes"] == KIB64 and declared.stats()["transient_bytes"] == 5 * KIB64
    sch = st["schedule"]
    assert sch["mode"] == "memory" and sch["transient_bytes"] == {"declared": 5 * KIB64, "scheduled": KIB64}
    assert sch["declared_order"] == names(declared.culling.alive) and sch["scheduled_order"] == names(c.culling.alive)
    assert sch["moved"] == names(c.culling.alive)[1:-1]   # everything but the first and the last pass moved
    assert sch["queue_switches"] == {"declared": 0, "scheduled": 0}
    # the memory map and the barriers follow the scheduled order
    assert all(pl.last == pl.first + 1 for pl in c.layout.placements.values())
    assert [pb.pass_.name for pb in c.barriers.passes] == names(c.culling.alive)


def test_declared_schedule_is_declaration_order_and_reports_nothing_moved() -> None:
    d = producers_first(3)
    c = compile_graph(d.passes, fixed_size)
    sch = c.stats()["schedule"]
    assert sch["mode"] == "declared" and sch["moved"] == [] and sch["candidates"] == 1
    assert sch["declared_order"] == sch["scheduled_order"] == names(d.passes)


def test_dependencies_are_read_after_write_write_after_read_write_after_write_and_side_effects() -> None:
    d = Declaration()
    a, b = d.texture("a", 64, 64, "rgba8_unorm"), d.texture("b", 64, 64, "rgba8_unorm")
    d.add_pass("w_a", noop, render_targets=[a])                     # 0
    d.add_pass("r_a1", noop, reads=[a], render_targets=[b])         # 1: RAW on a
    d.add_pass("r_a2", noop, reads=[a], side_effects=True)          # 2: RAW on a; reads commute with 1 (same state)
    d.add_pass("w_a2", noop, writes=[a])                            # 3: WAR on a (both readers), WAW on a
    d.add_pass("r_b", noop, queue="compute", reads=[b], side_effects=True)   # 4: RAW on b, after side effect 2
    d.add_pass("r_b_direct", noop, reads=[b], side_effects=True)    # 5: another state than 4's read: after it
    d.add_pass("end", noop, reads=[a], side_effects=True)           # 6
    alive = cull(d.passes).alive
    assert [sorted(s) for s in dependencies(alive)] == [[], [0], [0], [0, 1, 2], [1, 2], [1, 4], [3, 5]]


def test_every_scheduled_order_keeps_every_dependency_on_random_graphs() -> None:
    rnd = random.Random(7)
    for _ in range(60):
        d = Declaration()
        ts = [d.texture(f"t{i}", 64, 64, "rgba8_unorm") for i in range(rnd.randint(2, 6))]
        out = d.buffer("out", 4096)
        out.transient = False
        written: List[GraphResource] = []
        for k in range(rnd.randint(3, 14)):
            q = rnd.choice(["direct", "direct", "compute", "copy"])
            if q == "copy" and written:
                s = rnd.choice(written)
                dst = rnd.choice([t for t in ts if t is not s])
                d.add_pass(f"p{k}", noop, queue=q, copy_from=[s], copy_to=[dst])
                written.append(dst)
            elif q == "copy":
                continue
            else:
                t = rnd.choice(ts)
                reads = [rnd.choice(written)] if written and rnd.random() < 0.7 else []
                if t in reads:
                    reads = []
                d.add_pass(f"p{k}", noop, queue=q, reads=reads, writes=[t] if rnd.random() < 0.8 else [out],
                           side_effects=rnd.random() < 0.2)
                written.append(t)
        try:
            alive = cull(d.passes).alive
        except GraphError:
            continue   # a transient read before written (fine: not this test's subject)
        preds = dependencies(alive)
        for mode in ("memory", "overlap"):
            chosen, report = schedule(alive, mode, fixed_size)
            pos = {p: i for i, p in enumerate(chosen.order)}
            assert sorted(pos, key=lambda p: p.index) == list(alive)
            for i, ps in enumerate(preds):
                assert all(pos[alive[j]] < pos[alive[i]] for j in ps), (mode, names(chosen.order))
            # never worse than declaration order by its own measure
            if mode == "memory":
                assert report.scheduled_numbers["transient_bytes"] <= report.declared_numbers["transient_bytes"]
            else:
                assert report.scheduled_numbers["span"] <= report.declared_numbers["span"]


def overlap_frame() -> Declaration:
    """gbuffer -> lighting (compute) -> post; ui and ui2 are independent direct work declared after post."""
    d = Declaration()
    g, h, u, u2 = (d.texture(n, 64, 64, "rgba8_unorm") for n in ("g", "h", "u", "u2"))
    out = d.buffer("out", 4096)
    out.transient = False
    d.add_pass("gbuffer", noop, render_targets=[g])
    d.add_pass("lighting", noop, queue="compute", reads=[g], writes=[h])
    d.add_pass("post", noop, reads=[h], writes=[out])
    d.add_pass("ui", noop, render_targets=[u])
    d.add_pass("ui2", noop, reads=[u], render_targets=[u2])
    d.add_pass("compose", noop, reads=[u2], writes=[out])
    return d


def test_overlap_schedule_runs_independent_direct_work_while_the_compute_queue_works() -> None:
    d = overlap_frame()
    declared = compile_graph(d.passes, fixed_size).stats()
    st = compile_graph(d.passes, fixed_size, schedule_mode="overlap").stats()
    # declared: post waits for lighting, and ui, ui2 wait with it in post's command list
    assert declared["batches"] == [("direct", ["gbuffer"]), ("compute", ["lighting"]),
                                   ("direct", ["post", "ui", "ui2", "compose"])]
    # scheduled: ui and ui2 run while lighting does; post waits in a list of its own
    assert st["batches"] == [("direct", ["gbuffer"]), ("compute", ["lighting"]), ("direct", ["ui", "ui2"]),
                             ("direct", ["post", "compose"])]
    assert st["batch_waits"][2] == {} and st["batch_waits"][3] == {"compute": 1}
    sch = st["schedule"]
    assert sch["moved"] == ["ui", "ui2", "post"] and sch["span"]["scheduled"] < sch["span"]["declared"]
    assert sch["queue_switches"] == {"declared": 2, "scheduled": 2}
    assert sch["cross_queue_waits"]["scheduled"] == sch["cross_queue_waits"]["declared"]


def test_a_graph_with_nothing_to_gain_keeps_declaration_order() -> None:
    d = Declaration()
    ts = [d.texture(f"t{i}", 64, 64, "rgba8_unorm") for i in range(4)]
    for i, t in enumerate(ts):   # a chain: one topological order only
        d.add_pass(f"p{i}", noop, reads=[ts[i - 1]] if i else [], render_targets=[t], side_effects=i == 3)
    for mode in ("memory", "overlap"):
        sch = compile_graph(d.passes, fixed_size, schedule_mode=mode).stats()["schedule"]
        assert sch["moved"] == [] and sch["scheduled_order"] == ["p0", "p1", "p2", "p3"]


def test_schedule_argument_is_checked() -> None:
    assert check_schedule("memory") == "memory"
    with pytest.raises(GraphError, match="schedule must be one of"):
        check_schedule("fastest")
    with pytest.raises(TypeError, match="schedule must be a str"):
        check_schedule(1)
