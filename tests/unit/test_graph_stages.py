"""The render graph's compile stages one at a time (dx12kit.graph's package modules), on small graphs
declared without a device: cull, lifetimes, physical placement and aliases, barriers. Sizes come from
a fixed allocation-info function, so offsets are known. (The bake stage needs real resources:
tests/device/test_graph_stages.py.)"""
from __future__ import annotations

import random
from typing import Any, Dict, List, Sequence

import pytest

from dx12kit import ResourceState as S
from dx12kit.graph import GraphError
from dx12kit.graph.barriers import AliasingBarrier, Transition, plan_barriers
from dx12kit.graph.compile import compile_graph
from dx12kit.graph.cull import cull
from dx12kit.graph.declare import Declaration
from dx12kit.graph.lifetimes import lifetimes
from dx12kit.graph.model import SRV_COMPUTE, SRV_DIRECT, GraphResource, ResourceFlags
from dx12kit.graph.placement import AllocationInfo, Packing, Placement, align, pack, place

KIB64 = 65536


def noop(cl: Any, res: Any) -> None:
    pass


def fixed_size(h: GraphResource, flags: ResourceFlags) -> AllocationInfo:
    """64 KiB per texture, the buffer's size rounded to 64 KiB; alignment 64 KiB."""
    size = h.size if h.kind == "buffer" else KIB64
    return AllocationInfo(size=-(-size // KIB64) * KIB64, alignment=KIB64)


def names(items: Sequence[Any]) -> List[str]:
    return [x.name for x in items]


def chain(n: int, *, kind: str = "rt", queue_of: Any = lambda i: "direct") -> Declaration:
    """n passes, pass i writes transient t<i> and reads t<i-1>; the last has side effects."""
    d = Declaration()
    ts = [d.texture(f"t{i}", 64, 64, "rgba8_unorm") for i in range(n)]
    for i, t in enumerate(ts):
        reads = [ts[i - 1]] if i else []
        if kind == "rt":
            d.add_pass(f"p{i}", noop, reads=reads, render_targets=[t], clear={t: (0, 0, 0, 0)}, side_effects=i == n - 1)
        else:
            d.add_pass(f"p{i}", noop, queue=queue_of(i), reads=reads, writes=[t], side_effects=i == n - 1)
    return d


# ---------------------------------------------------------------------------- cull
def test_cull_keeps_what_reaches_a_side_effect_and_drops_the_rest() -> None:
    d = Declaration()
    a, b, orphan = (d.texture(n, 64, 64, "rgba8_unorm") for n in ("a", "b", "orphan"))
    d.add_pass("make_a", noop, render_targets=[a], clear={a: (0, 0, 0, 0)})
    d.add_pass("debug", noop, reads=[a], render_targets=[orphan])
    d.add_pass("make_b", noop, reads=[a], render_targets=[b], clear={b: (0, 0, 0, 0)})
    d.add_pass("present", noop, reads=[b], side_effects=True)
    c = cull(d.passes)
    assert names(c.alive) == ["make_a", "make_b", "present"]
    assert names(c.culled) == ["debug"]
    assert [c.order_of[p] for p in c.alive] == [0, 1, 2]


def test_cull_drops_a_write_that_a_full_write_replaces_before_any_read() -> None:
    d = Declaration()
    buf = d.buffer("buf", 256)
    d.add_pass("first", noop, queue="compute", writes=[buf])
    d.add_pass("overwrite", noop, queue="copy", copy_to=[buf])   # a full write: the first one is dead
    d.add_pass("use", noop, queue="compute", reads=[buf], side_effects=True)
    assert names(cull(d.passes).alive) == ["overwrite", "use"]
    d2 = Declaration()
    t = d2.texture("t", 64, 64, "rgba8_unorm")
    d2.add_pass("first", noop, render_targets=[t], clear={t: (0, 0, 0, 0)})
    d2.add_pass("blend", noop, render_targets=[t])   # no clear: a partial write keeps the first alive
    d2.add_pass("use", noop, reads=[t], side_effects=True)
    assert names(cull(d2.passes).alive) == ["first", "blend", "use"]


def test_cull_refuses_a_transient_read_before_any_write() -> None:
    d = Declaration()
    t = d.texture("t", 64, 64, "rgba8_unorm")
    d.add_pass("early", noop, reads=[t], side_effects=True)
    d.add_pass("late", noop, render_targets=[t])
    with pytest.raises(GraphError, match="pass 'early' reads transient 't' before any pass writes it"):
        cull(d.passes)


# ---------------------------------------------------------------------------- lifetimes
def test_lifetimes_are_first_and_last_alive_use_with_flags() -> None:
    d = Declaration()
    a, depth, u = d.texture("a", 64, 64, "rgba8_unorm"), d.texture("depth", 64, 64, "d32_float"), d.buffer("u", 256)
    d.add_pass("culled", noop, render_targets=[d.texture("x", 8, 8, "rgba8_unorm")])
    d.add_pass("draw", noop, render_targets=[a], depth_stencil=depth, clear={a: (0, 0, 0, 0), depth: 1.0})
    d.add_pass("sim", noop, writes=[u])
    d.add_pass("shade", noop, reads=[a, depth, u], side_effects=True)
    lives = lifetimes(cull(d.passes).alive)
    got = {h.name: (x.first, x.last_use, x.last) for h, x in lives.of.items()}
    assert got == {"a": (0, 2, 2), "depth": (0, 2, 2), "u": (1, 2, 2)}   # "x": only a culled pass uses it
    assert list(lives.of) == [a, depth, u]   # in order of first use
    assert lives.of[a].flags == ResourceFlags(render_target=True)
    assert lives.of[depth].flags == ResourceFlags(depth_stencil=True)
    assert lives.of[u].flags == ResourceFlags(uav=True)
    assert lives.known == ()   # one queue


def test_lifetimes_hold_bytes_until_every_later_pass_is_ordered_after_the_last_uses() -> None:
    d = Declaration()
    scratch, out = d.buffer("scratch", 256), d.texture("out", 64, 64, "rgba8_unorm")
    ui = d.texture("ui", 64, 64, "rgba8_unorm")
    d.add_pass("sim", noop, queue="compute", writes=[scratch])
    d.add_pass("resolve", noop, queue="compute", reads=[scratch], writes=[out])
    d.add_pass("ui", noop, render_targets=[ui], clear={ui: (0, 0, 0, 0)})
    d.add_pass("ui2", noop, reads=[ui], render_targets=[d.texture("ui2", 64, 64, "rgba8_unorm")], side_effects=True)
    d.add_pass("compose", noop, reads=[out, ui], side_effects=True)
    lives = lifetimes(cull(d.passes).alive)
    # per pass, per queue (direct, compute, copy): the latest pass it is ordered after
    assert lives.known == ((-1, 0, -1), (-1, 1, -1), (2, -1, -1), (3, -1, -1), (4, 1, -1))
    # used last by "resolve" (order 1), but ui and ui2 (direct) may run beside it: held until ui2 (order 3)
    assert (lives.of[scratch].last_use, lives.of[scratch].last) == (1, 3)
    assert (lives.of[out].last_use, lives.of[out].last) == (4, 4)
    assert (lives.of[ui].last_use, lives.of[ui].last) == (4, 4)


# ---------------------------------------------------------------------------- physical resources and aliases
def test_lifetimes_on_the_compute_queue_end_on_its_own_timeline() -> None:
    """A transient read on the compute queue frees its bytes after that read for the later compute passes
    (ordered after it by their queue) and the direct passes that wait for them, not at the join point."""
    d = Declaration()
    g, hdr, blur = (d.texture(n, 64, 64, "rgba8_unorm") for n in ("g", "hdr", "blur"))
    d.add_pass("gbuffer", noop, render_targets=[g], clear={g: (0, 0, 0, 0)})
    d.add_pass("light", noop, queue="compute", reads=[g], writes=[hdr])
    d.add_pass("blur", noop, queue="compute", reads=[hdr], writes=[blur])
    d.add_pass("tone", noop, reads=[blur], side_effects=True)
    lives = lifetimes(cull(d.passes).alive)
    assert (lives.of[g].last_use, lives.of[g].last) == (1, 1)
    assert (lives.of[blur].first, lives.of[blur].last) == (2, 3)


def test_place_shares_bytes_between_lifetimes_that_do_not_overlap() -> None:
    d = Declaration()   # a chain of four passes, t2 and t3 of another format than t0 and t1
    ts = [d.texture(f"t{i}", 64, 64, "rgba8_unorm" if i < 2 else "r32_float") for i in range(4)]
    for i, t in enumerate(ts):
        d.add_pass(f"p{i}", noop, reads=[ts[i - 1]] if i else [], render_targets=[t], clear={t: (0, 0, 0, 0)},
                   side_effects=i == 3)
    layout = place(lifetimes(cull(d.passes).alive), fixed_size)
    offsets = {h.name: pl.offset for h, pl in layout.placements.items()}
    # t0 lives over passes 0-1, t1 over 1-2, t2 over 2-3, t3 over 3: t0 and t2 share, t1 and t3 share
    assert offsets == {"t0": 0, "t1": KIB64, "t2": 0, "t3": KIB64}
    assert (layout.block_bytes, layout.unaliased_bytes) == (2 * KIB64, 4 * KIB64)
    s = layout.succession
    by_name = {h.name: [x.name for x in v] for h, v in s.previous_users.items()}
    assert by_name == {"t0": [], "t1": [], "t2": ["t0"], "t3": ["t1"]}
    before = {h.name: (x.name if x is not None else None) for h, x in s.barrier_before.items()}
    # t2 and t3 take over from t0 and t1; t0 and t1 take the bytes back from them in the next execution
    assert before == {"t2": "t0", "t3": "t1", "t0": "t2", "t1": "t3"}
    assert all(pl.physical is h for h, pl in layout.placements.items())


def test_place_gives_transients_of_one_description_one_physical_resource() -> None:
    """t0 and t2 (one description, lifetimes apart) are one physical resource: memory does not change
    hands, so no aliasing barrier names them (also not when t0 takes the bytes back in the next execution);
    without aliasing each has its own."""
    d = chain(4)
    layout = place(lifetimes(cull(d.passes).alive), fixed_size)
    phys = {h.name: pl.physical.name for h, pl in layout.placements.items()}
    assert phys == {"t0": "t0", "t1": "t1", "t2": "t0", "t3": "t1"}
    assert layout.block_bytes == 2 * KIB64
    assert dict(layout.succession.barrier_before) == {}
    by_name = {h.name: [x.name for x in v] for h, v in layout.succession.previous_users.items()}
    assert by_name == {"t0": [], "t1": [], "t2": ["t0"], "t3": ["t1"]}   # whose work each waits for
    apart = place(lifetimes(cull(d.passes).alive), fixed_size, aliasing=False)
    assert all(pl.physical is h for h, pl in apart.placements.items())


def test_place_prefers_no_bytes_changing_hands_within_the_aliasing_target() -> None:
    """t0 and t2 are one physical resource; t3 could take t1's bytes (2 x 64 KiB, an aliasing barrier each
    way per execution) or have its own (3 x 64 KiB = 0.75 of the unaliased bytes, within
    SPARE_BARRIERS_RATIO): the latter is taken, so memory never changes hands. ``spare_barriers=False``
    (the memory schedule) packs to the lowest peak."""
    d = Declaration()
    fmts = ["rgba8_unorm", "r32_float", "rgba8_unorm", "rgba16_float"]
    ts = [d.texture(f"t{i}", 64, 64, f) for i, f in enumerate(fmts)]
    for i, t in enumerate(ts):
        d.add_pass(f"p{i}", noop, reads=[ts[i - 1]] if i else [], render_targets=[t], clear={t: (0, 0, 0, 0)},
                   side_effects=i == 3)
    lives = lifetimes(cull(d.passes).alive)
    layout = place(lives, fixed_size)
    assert (layout.block_bytes, layout.unaliased_bytes) == (3 * KIB64, 4 * KIB64)
    assert dict(layout.succession.barrier_before) == {}
    assert {h.name: pl.physical.name for h, pl in layout.placements.items()} == {"t0": "t0", "t1": "t1", "t2": "t0", "t3": "t3"}
    tight = place(lives, fixed_size, spare_barriers=False)
    assert tight.block_bytes == 2 * KIB64
    before = {h.name: (x.name if x is not None else None) for h, x in tight.succession.barrier_before.items()}
    assert before == {"t3": "t1", "t1": "t3"}


def test_place_lets_multisampled_transients_of_one_description_share_a_placed_texture() -> None:
    """Multisampled transients are placed in the block like the others; two of one description whose
    lifetimes do not overlap are one physical texture in turn (no aliasing barrier). Without aliasing,
    each its own bytes."""
    d = Declaration()
    ms = [d.texture(f"ms{i}", 64, 64, "rgba8_unorm", samples=4) for i in range(2)]
    rs = [d.texture(f"r{i}", 64, 64, "rgba8_unorm") for i in range(2)]
    for i in range(2):
        d.add_pass(f"draw{i}", noop, render_targets=[ms[i]], clear={ms[i]: (0, 0, 0, 1)})
        d.add_pass(f"resolve{i}", noop, resolve_from=[ms[i]], resolve_to=[rs[i]])
    d.add_pass("use", noop, reads=rs, side_effects=True)
    lives = lifetimes(cull(d.passes).alive)
    layout = place(lives, fixed_size)
    pl = {h.name: p for h, p in layout.placements.items()}
    assert pl["ms1"].physical is pl["ms0"].resource   # placed, one texture in turn
    assert pl["ms0"].offset == pl["ms1"].offset
    assert layout.unaliased_bytes == 4 * KIB64
    assert ms[1] not in layout.succession.barrier_before
    apart = place(lives, fixed_size, aliasing=False)
    assert apart.block_bytes == 4 * KIB64
    assert all(p.physical is h for h, p in apart.placements.items())


def test_place_lets_multisampled_transients_of_different_descriptions_share_bytes() -> None:
    """A 4x rgba8 and a 4x rgba16_float transient with disjoint lifetimes take the same bytes, the second
    after an aliasing barrier naming the first."""
    d = Declaration()
    ms = [d.texture("ms0", 64, 64, "rgba8_unorm", samples=4), d.texture("ms1", 32, 32, "rgba16_float", samples=4)]
    rs = [d.texture("r0", 64, 64, "rgba8_unorm"), d.texture("r1", 32, 32, "rgba16_float")]
    for i in range(2):
        d.add_pass(f"draw{i}", noop, render_targets=[ms[i]], clear={ms[i]: (0, 0, 0, 1)})
        d.add_pass(f"resolve{i}", noop, resolve_from=[ms[i]], resolve_to=[rs[i]])
    d.add_pass("use", noop, reads=rs, side_effects=True)
    layout = place(lifetimes(cull(d.passes).alive), fixed_size, spare_barriers=False)
    pl = {h.name: p for h, p in layout.placements.items()}
    assert pl["ms0"].physical is not pl["ms1"].physical and pl["ms0"].offset == pl["ms1"].offset
    assert layout.succession.barrier_before[ms[1]] is ms[0]
    assert layout.block_bytes < layout.unaliased_bytes


def pack_by_scanning_every_placed_transient(items: Sequence[Placement]) -> Packing:
    """The packer's rule written plainly (O(n^2)): largest first, each at the lowest aligned offset that
    no transient placed before it with an overlapping lifetime holds."""
    offsets: Dict[GraphResource, int] = {}
    top = 0
    placed: List[Placement] = []
    for it in sorted(items, key=lambda x: (-x.size, x.first, x.resource.index)):
        busy = sorted((offsets[o.resource], offsets[o.resource] + o.size) for o in placed
                      if not (o.last < it.first or it.last < o.first))
        off = 0
        for b0, b1 in busy:
            if off + it.size <= b0:
                break
            if b1 > off:
                off = align(b1, it.alignment)
        offsets[it.resource] = off
        placed.append(it)
        top = max(top, off + it.size)
    return Packing(offsets, align(top, 4096) if top else 0)


@pytest.mark.parametrize("seed", range(40))
def test_pack_places_like_scanning_every_placed_transient_on_random_lifetimes(seed: int) -> None:
    rng = random.Random(seed)
    d = Declaration()
    passes = rng.choice([3, 17, 64, 300])
    items = []
    for i in range(rng.choice([1, 5, 40, 200])):
        h = d.buffer(f"b{i}", 1)
        first = rng.randrange(passes)
        last = min(passes - 1, first + int(rng.expovariate(1 / rng.choice([1, 4, 30]))))
        alignment = rng.choice([256, 4096, KIB64])
        size = rng.choice([256, 1000, 4096, KIB64, 3 * KIB64, 4 * 1024 * 1024 + 512])
        items.append(Placement(h, 0, size, alignment, first, last, ResourceFlags(), h))
    got, want = pack(items), pack_by_scanning_every_placed_transient(items)
    assert got.block_bytes == want.block_bytes
    assert {h.name: o for h, o in got.offsets.items()} == {h.name: o for h, o in want.offsets.items()}


def test_place_without_aliasing_gives_each_transient_its_own_bytes() -> None:
    d = chain(3)
    layout = place(lifetimes(cull(d.passes).alive), fixed_size, aliasing=False)
    assert [pl.offset for pl in layout.placements.values()] == [0, KIB64, 2 * KIB64]
    assert layout.block_bytes == layout.unaliased_bytes == 3 * KIB64
    assert dict(layout.succession.barrier_before) == {}


def test_pack_without_aliasing_needs_no_more_than_the_unaliased_bytes_with_mixed_alignments() -> None:
    # A 16 KiB small texture then a 64 KiB-aligned target: in declaration order 48 KiB would be padding.
    d = Declaration()
    small, big, small2 = d.buffer("small", 1), d.buffer("big", 1), d.buffer("small2", 1)
    items = [Placement(small, 0, 16384, 4096, 0, 0, ResourceFlags(), small),
             Placement(big, 0, KIB64, KIB64, 1, 1, ResourceFlags(), big),
             Placement(small2, 0, 8192, 4096, 2, 2, ResourceFlags(), small2)]
    got = pack(items, aliasing=False)
    assert got.block_bytes <= sum(align(x.size, x.alignment) for x in items) == KIB64 + 16384 + 8192
    assert sorted(got.offsets.values()) == [0, KIB64, KIB64 + 16384]
    assert got.offsets[big] == 0


def test_place_puts_multisampled_transients_in_the_block_and_refuses_a_multisampled_uav() -> None:
    d = Declaration()
    ms, resolved = d.texture("ms", 64, 64, "rgba8_unorm", samples=4), d.texture("resolved", 64, 64, "rgba8_unorm")
    d.add_pass("draw", noop, render_targets=[ms], clear={ms: (0, 0, 0, 0)})
    d.add_pass("resolve", noop, resolve_from=[ms], resolve_to=[resolved], side_effects=True)
    layout = place(lifetimes(cull(d.passes).alive), fixed_size)
    assert layout.block_bytes == 2 * KIB64   # both in the block, in bytes of their own (their lives overlap)
    assert {layout.placements[ms].offset, layout.placements[resolved].offset} == {0, KIB64}
    bad = Declaration()
    m = bad.texture("m", 64, 64, "rgba8_unorm", samples=4)
    bad.add_pass("uav", noop, writes=[m], side_effects=True)
    with pytest.raises(GraphError, match="transient 'm' is multisampled"):
        place(lifetimes(cull(bad.passes).alive), fixed_size)


# ---------------------------------------------------------------------------- barriers
def stages(d: Declaration, aliasing: bool = True) -> Any:
    alive = cull(d.passes).alive
    lives = lifetimes(alive)
    return plan_barriers(alive, lives, place(lives, fixed_size, aliasing))


def test_barriers_transition_each_use_and_alias_within_a_list() -> None:
    d = Declaration()   # a chain of three passes, t2 of another format than t0
    t0, t1 = d.texture("t0", 64, 64, "rgba8_unorm"), d.texture("t1", 64, 64, "rgba8_unorm")
    t2 = d.texture("t2", 64, 64, "r32_float")
    d.add_pass("p0", noop, render_targets=[t0], clear={t0: (0, 0, 0, 0)})
    d.add_pass("p1", noop, reads=[t0], render_targets=[t1], clear={t1: (0, 0, 0, 0)})
    d.add_pass("p2", noop, reads=[t1], render_targets=[t2], clear={t2: (0, 0, 0, 0)}, side_effects=True)
    plan = stages(d)
    rt, srv = int(S.RENDER_TARGET), SRV_DIRECT
    assert [p.transitions for p in plan.passes] == [
        [Transition(t0, rt)],
        [Transition(t0, srv), Transition(t1, rt)],
        [Transition(t1, srv), Transition(t2, rt)]]   # t2: new to the list, requested (already there)
    # t2 takes over t0's bytes, used earlier in the same list: the graph's own aliasing barrier, naming
    # the state t2 was left in (render target, by its last use in the previous execution): no detour
    # through COMMON, and nothing after its last use
    assert [p.aliasing for p in plan.passes] == [[], [], [AliasingBarrier(t0, t2, rt)]]
    assert all(p.after == [] for p in plan.passes)
    assert [len(lst.passes) for lst in plan.lists] == [3] and plan.lists[0].waits == {}
    c = plan.counts
    # 4 state changes (t0 and t1 start the execution in the read state their last use left, t2 in
    # RENDER_TARGET); t0 takes its bytes back from t2 at the start of the next execution (at execute)
    assert (c.transitions, c.aliasing, c.aliasing_at_execute, c.uav, c.batches, c.init_clears) == (4, 1, 1, 0, 1, 0)
    assert c.split_candidates == 0


def test_barriers_reuse_of_a_physical_resource_is_a_plain_transition() -> None:
    d = chain(3)   # t0 and t2: one description, one physical resource
    plan = stages(d)
    t0, t1, t2 = d.resources
    rt, srv = int(S.RENDER_TARGET), SRV_DIRECT
    assert [p.transitions for p in plan.passes] == [
        [Transition(t0, rt)],
        [Transition(t0, srv), Transition(t1, rt)],
        [Transition(t1, srv), Transition(t2, rt)]]   # from the read state t0 left
    assert all(p.aliasing == [] and p.after == [] for p in plan.passes)
    c = plan.counts
    # the physical resource starts an execution in RENDER_TARGET (t2's last use): t0's first use needs no change
    assert (c.transitions, c.aliasing, c.aliasing_at_execute) == (4, 0, 0)


def test_barriers_uav_barrier_between_dependent_uav_writes_and_init_clear_of_an_uncleared_target() -> None:
    d = Declaration()
    u, t = d.buffer("u", 256), d.texture("t", 64, 64, "rgba8_unorm")
    d.add_pass("sim1", noop, writes=[u])
    d.add_pass("sim2", noop, writes=[u])
    d.add_pass("blend", noop, reads=[u], render_targets=[t])   # first use of t without a clear
    d.add_pass("out", noop, reads=[t], side_effects=True)
    plan = stages(d)
    assert [p.uav for p in plan.passes] == [[], [u], [], []]
    assert [p.init_clears for p in plan.passes] == [[], [], [t], []]
    assert plan.passes[1].transitions == []   # same state, already requested in this list
    assert (plan.counts.uav, plan.counts.init_clears) == (1, 1)


def test_barriers_split_lists_at_cross_queue_waits_and_hand_states_over() -> None:
    d = Declaration()
    a, ui, lit = d.texture("a", 64, 64, "rgba8_unorm"), d.texture("ui", 64, 64, "rgba8_unorm"), d.buffer("lit", 256)
    d.add_pass("draw", noop, render_targets=[a], clear={a: (0, 0, 0, 0)})
    d.add_pass("ui", noop, render_targets=[ui], clear={ui: (0, 0, 0, 0)})
    d.add_pass("light", noop, queue="compute", reads=[a], writes=[lit])
    d.add_pass("compose", noop, reads=[lit, ui], side_effects=True)
    plan = stages(d)
    assert [(lst.queue, names([pb.pass_ for pb in lst.passes])) for lst in plan.lists] == [
        ("direct", ["draw", "ui"]), ("compute", ["light"]), ("direct", ["compose"])]
    assert [lst.waits for lst in plan.lists] == [{}, {"direct": 0}, {"compute": 1}]
    assert [lst.waits_previous_execution for lst in plan.lists] == [False, True, False]
    # the compute queue may not leave RENDER_TARGET: the drawing pass moves "a" to the compute read state
    assert plan.passes[0].after == [Transition(a, SRV_COMPUTE)]
    assert plan.counts.queue_handoff == 1 and plan.counts.batches == 3


def test_barriers_a_pass_that_must_wait_starts_a_new_list() -> None:
    d = Declaration()
    buf, x, y = d.buffer("buf", 256), d.texture("x", 64, 64, "rgba8_unorm"), d.texture("y", 64, 64, "rgba8_unorm")
    d.add_pass("sim", noop, queue="compute", writes=[buf])
    d.add_pass("free", noop, render_targets=[x], clear={x: (0, 0, 0, 0)}, side_effects=True)
    d.add_pass("waits", noop, reads=[buf], render_targets=[y], clear={y: (0, 0, 0, 0)}, side_effects=True)
    plan = stages(d)
    # "free" does not depend on the compute work: it runs in a list of its own, without the wait
    assert [names([pb.pass_ for pb in lst.passes]) for lst in plan.lists] == [["sim"], ["free"], ["waits"]]
    assert [lst.waits for lst in plan.lists] == [{}, {}, {"compute": 0}]
    assert plan.passes[2].list_index == 2
    assert [t.resource.name for t in plan.passes[2].transitions] == ["buf", "y"]   # new to the list: all requested


def test_compile_graph_runs_the_stages_in_order_and_reports_stats() -> None:
    d = chain(4)
    d.add_pass("unused", noop, render_targets=[d.texture("spare", 64, 64, "rgba8_unorm")])
    c = compile_graph(d.passes, fixed_size)
    assert names(c.culling.alive) == ["p0", "p1", "p2", "p3"] and names(c.culling.culled) == ["unused"]
    st = c.stats()
    assert (st["passes"], st["culled"], st["culled_passes"], st["transients"]) == (4, 1, ["unused"], 4)
    assert (st["transient_bytes"], st["transient_bytes_unaliased"]) == (2 * KIB64, 4 * KIB64)
    assert st["batches"] == [("direct", ["p0", "p1", "p2", "p3"])] and st["barriers"] == c.barriers.counts.as_dict()
