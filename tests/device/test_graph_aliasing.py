"""RenderGraph memory across queues and the barriers aliasing costs, on the real device."""
from __future__ import annotations

from typing import Any, Dict, List

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import graph_demo as gd
from dx12kit.graph.realize import create_transients, prime_states, record_priming


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


def _barriers_per_execution(dev: dx.Device, g: dx.RenderGraph) -> int:
    """Every barrier the device records for one (steady-state) execution of ``g``: in the lists, in the
    lists dx12kit runs before them at execute, and the aliasing barriers those hold."""
    q = dev.queue()
    q.wait(g.execute())
    b0 = dict(dev.stats()["barriers"])
    q.wait(g.execute())
    dev.wait_idle()
    b1 = dev.stats()["barriers"]
    d = {k: b1[k] - b0[k] for k in b1}
    assert d["aliasing_explicit"] == g.stats()["barriers"]["aliasing"]   # the graph's own, in its lists
    return int(d["recorded"] + d["inserted_at_execute"] + d["aliasing_automatic"])


def _chain(dev: dx.Device, out: dx.Texture, passes: int, seen: Any = None) -> dx.RenderGraph:
    """Each pass writes a transient the next reads (four descriptions in turn), every fifth on the compute
    queue, the last into ``out``; ``seen`` collects (name, real resource) from the records."""
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    kinds = [("rgba8_unorm", 64), ("rgba16_float", 64), ("r32_float", 128), ("rgba8_unorm", 128)]
    prev: Any = None
    for i in range(passes - 1):
        fmt, size = kinds[i % 4]
        t = g.create_texture(f"t{i}", size, size, fmt)

        def rec(cl: Any, r: Any, t: Any = t) -> None:
            if seen is not None:
                seen.append((t.name, r[t]))
        reads = [prev] if prev is not None else []
        if i % 5 == 4:
            g.add_pass(f"p{i}", rec, queue="compute", reads=reads, writes=[t])
        else:
            g.add_pass(f"p{i}", rec, reads=reads, render_targets=[t], clear={t: (0, 0, 0, 0)})
        prev = t
    g.add_pass("final", _noop, reads=[prev], render_targets=[o])
    return g


def test_transients_of_one_description_reuse_one_resource_without_aliasing_barriers(dev: dx.Device) -> None:
    """A 50-pass chain with aliasing: transients of one description are one physical resource in turn, so
    memory never changes hands: no aliasing barrier, and as many barriers as the chain needs by hand
    (each transient into its write state once and into its read state once: 98)."""
    out = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="out")
    seen: List[Any] = []
    g = _chain(dev, out, 50, seen)
    n = _barriers_per_execution(dev, g)
    st = g.stats()
    assert st["barriers"]["aliasing"] == 0 and st["barriers"]["aliasing_at_execute"] == 0
    assert n <= 1.05 * 98, n
    assert st["transient_bytes"] <= 0.2 * st["transient_bytes_unaliased"]
    real: Dict[str, Any] = {}
    for name, r in seen:
        real.setdefault(name, r)
    # t0, t8, t16 ...: one description (rgba8 64x64 render target), lifetimes apart: one real texture
    assert real["t0"] is real["t8"] is real["t16"]
    assert real["t0"] is not real["t4"]   # a UAV (compute pass): another description
    assert len({id(r) for r in real.values()}) <= 8
    g.aliasing = False
    assert _barriers_per_execution(dev, g) == n


@pytest.mark.parametrize("validate", [False, True])
def test_reused_physical_resource_keeps_each_transients_values(validate: bool) -> None:
    """a and c (one description) share a real texture in turn (a written on the compute queue, c on the
    direct queue after a's last use there, c read on the copy queue): the values each holds reach the
    outputs, over executions."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    outs = [dev.create_texture2d(8, 8, "rgba8_unorm", uav=True, name=f"o{i}") for i in range(2)]
    g = dx.RenderGraph(dev)
    o = [g.import_resource(x) for x in outs]
    a, b, c = (g.create_texture(n, 8, 8, "rgba8_unorm") for n in "abc")
    g.add_pass("fill_a", lambda cl, r: cl.clear_unordered_access_view(r[a], (0.2, 0, 0, 1)), queue="compute", writes=[a])
    g.add_pass("a_to_b", lambda cl, r: cl.copy_resource(r[b], r[a]), copy_from=[a], copy_to=[b])
    g.add_pass("fill_c", lambda cl, r: cl.clear_unordered_access_view(r[c], (0.6, 0, 0, 1)), writes=[c])
    g.add_pass("out0", lambda cl, r: cl.copy_resource(r[o[0]], r[b]), copy_from=[b], copy_to=[o[0]])
    g.add_pass("out1", lambda cl, r: cl.copy_resource(r[o[1]], r[c]), queue="copy", copy_from=[c], copy_to=[o[1]])
    mm = {m["name"]: m for m in g.memory_map()}
    assert mm["a"]["offset"] == mm["c"]["offset"]
    for _ in range(3):
        q.wait(g.execute())
        assert (q.read_texture(outs[0])[..., 0] == 51).all()
        assert (q.read_texture(outs[1])[..., 0] == 153).all()
    st = g.stats()["barriers"]
    assert st["aliasing"] == 0 and st["aliasing_at_execute"] == 0


@pytest.mark.parametrize("validate", [False, True])
def test_aliasing_barrier_naming_the_state_left_parks_without_a_detour_through_common(validate: bool) -> None:
    """("aliasing", before, after, state) in a BarrierBatch: ``after``, activated inside the list, is taken
    to be in ``state``; when it was left there, nothing moves it to COMMON before the list, and the list
    transitions it from there. A wrong state is put right before the list (activation and transition)."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    S = dx.ResourceState
    mem = dev.allocate_memory(64 * 1024, name="shared")
    buf = dev.create_buffer(64 * 1024, memory=mem, offset=0, name="buf")
    rt = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, memory=mem, offset=0, name="tex")
    cl = q.command_list()
    cl.clear_render_target(rt, [1, 0, 0, 1])
    cl.transition_barrier(rt, S.PIXEL_SHADER_RESOURCE)
    q.wait(q.execute(cl))
    # each round's read_texture leaves it in COPY_SOURCE
    for claimed, moved in ((S.PIXEL_SHADER_RESOURCE, []), (S.PIXEL_SHADER_RESOURCE, [("tex", S.COPY_SOURCE, S.PIXEL_SHADER_RESOURCE)]),
                           (S.COMMON, [("tex", S.COPY_SOURCE, S.COMMON)])):
        batch = dx.BarrierBatch([("aliasing", buf, rt, claimed)] if claimed != S.COMMON else [("aliasing", buf, rt)])
        assert batch.entries[0][3:] == ((claimed,) if claimed != S.COMMON else ())
        cl = q.command_list()
        cl.upload(buf, np.arange(16 * 1024, dtype=np.uint32))
        cl.resource_barriers(batch)
        cl.clear_render_target(rt, [0, 0, 1, 1])
        q.wait(q.execute(cl))
        inserted = [(name, before, after) for _, name, _, before, after in q.last_inserted_barriers]
        assert [x for x in inserted if x[0] == "tex"] == moved
        px = q.read_texture(rt)
        assert (px[..., 2] == 255).all() and (px[..., 0] == 0).all()
    with pytest.raises(dx.InvalidArgumentError, match="state"):
        dx.BarrierBatch([("aliasing", buf, None, S.COPY_SOURCE)])


def _hand_barriers(dev: dx.Device, record: Any) -> int:
    """Every barrier the device records for one by-hand frame ``record()`` (its second run: steady state)."""
    q = dev.queue()
    q.wait(record())
    b0 = dict(dev.stats()["barriers"])
    q.wait(record())
    dev.wait_idle()
    b1 = dev.stats()["barriers"]
    return int(sum(b1[k] - b0[k] for k in ("recorded", "inserted_at_execute", "aliasing_automatic")))


def test_deferred_frame_with_compute_lighting_aliases_without_aliasing_barriers(dev: dx.Device) -> None:
    """The deferred frame, lighting on the compute queue: within 0.85 of its unaliased bytes, the layout
    where memory never changes hands is taken (the blur reuses the G-buffer's physical texture of its
    description), so aliasing costs no barrier: as many as by hand with committed textures (16), same pixels."""
    q = dev.queue()
    target = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
    hand = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="hand")
    textures = gd.by_hand_textures(dev)
    by_hand = _hand_barriers(dev, lambda: gd.record_deferred_by_hand_queues(dev, hand, textures))
    g, _ = gd.build_deferred_graph(dev, target)
    n = _barriers_per_execution(dev, g)
    assert np.array_equal(q.read_texture(target), q.read_texture(hand))
    st = g.stats()
    assert st["barriers"]["aliasing"] == 0 and st["barriers"]["aliasing_at_execute"] == 0
    assert n <= 1.05 * by_hand, (n, by_hand)
    assert st["transient_bytes"] <= 0.85 * st["transient_bytes_unaliased"]
    mm = {m["name"]: m for m in g.memory_map()}
    assert mm["blur_a"]["offset"] == mm["gbuf1"]["offset"]
    g.aliasing = False
    assert _barriers_per_execution(dev, g) == n


def test_deferred_frame_on_one_queue_records_as_many_barriers_as_by_hand(dev: dx.Device) -> None:
    """The deferred frame on the direct queue alone: the graph puts the lighting pass's inputs in
    PIXEL | NON_PIXEL_SHADER_RESOURCE, where the compute read needs no barrier, so it records as many
    barriers as the same frame by hand in one list (16), with and without aliasing; same pixels."""
    q = dev.queue()
    target = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
    hand = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="hand")
    textures = gd.by_hand_textures(dev)
    by_hand = _hand_barriers(dev, lambda: gd.record_deferred_by_hand(dev, hand, textures))
    g, _ = gd.build_deferred_graph(dev, target, compute_lighting=False)
    n = _barriers_per_execution(dev, g)
    assert np.array_equal(q.read_texture(target), q.read_texture(hand))
    assert n <= 1.05 * by_hand, (n, by_hand)
    g.aliasing = False
    assert _barriers_per_execution(dev, g) <= 1.05 * by_hand


def test_memory_schedule_packs_to_the_lowest_peak_whatever_the_barriers(dev: dx.Device) -> None:
    """schedule="memory" asks for the lowest peak: the deferred frame packed byte by byte (memory changes
    hands, with aliasing barriers), below the barrier-free layout the default schedule takes."""
    target = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
    g, _ = gd.build_deferred_graph(dev, target)
    tight, _ = gd.build_deferred_graph(dev, target, schedule="memory")
    assert tight.stats()["transient_bytes"] < g.stats()["transient_bytes"]
    assert tight.stats()["transient_bytes"] <= 0.7 * tight.stats()["transient_bytes_unaliased"]
    dev.queue().wait(tight.execute())


class _NotedList:
    """A real command list that also notes, in order, the calls recorded into it (name and arguments)."""

    def __init__(self, cl: Any) -> None:
        self.cl = cl
        self.calls: List[Any] = []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.cl, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args))
            return method(*args, **kwargs)
        return call


@pytest.mark.parametrize("validate", [False, True])
def test_priming_activates_and_initialises_each_transient_sharing_bytes(validate: bool) -> None:
    """The deferred frame packed byte by byte: priming puts each placed transient in its start state only
    after an aliasing barrier naming it as ResourceAfter and, for a render target or depth buffer, a
    discard (D3D12's rules for a placed resource taking over bytes); the frame's pixels are those by hand."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    target = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
    g, _ = gd.build_deferred_graph(dev, target, schedule="memory")
    compiled = g._compiled_graph()
    layout, start = compiled.layout, compiled.barriers.start_states
    pl = layout.placements
    textures = [h for h in start if h.kind == "texture"]
    shared = [h for h in textures if any(o is not h and pl[o].physical is o
                                         and pl[o].offset < pl[h].offset + pl[h].size and pl[h].offset < pl[o].offset + pl[o].size
                                         for o in pl)]
    assert len(shared) >= 3
    # what priming submits: one explicit aliasing barrier per texture sharing bytes, none added by dx12kit
    real: Dict[Any, Any] = {}
    create_transients(dev, layout, real)
    b0 = dict(dev.stats()["barriers"])
    q.wait(prime_states(dev, layout, start, real))
    d = {k: v - b0[k] for k, v in dev.stats()["barriers"].items()}
    assert (d["aliasing_explicit"], d["aliasing_automatic"]) == (len(shared), 0), d
    assert all(int(real[h].global_state()) == start[h] for h in textures)
    # in order, per texture: activation (sharing bytes), initialisation (render targets and depth buffers),
    # transition into its start state
    real = {}
    create_transients(dev, layout, real)
    cl = _NotedList(q.command_list())
    record_priming(cl, layout, start, real)
    q.wait(q.execute(cl.cl))
    seq = [(name, args[0].entries[0] if name == "resource_barriers" else args[0]) for name, args in cl.calls]
    for h in textures:
        mine = [name for name, who in seq if (who[2] if name == "resource_barriers" else who).name == real[h].name]
        expected = (["resource_barriers"] if h in shared else []) + (
            ["discard_resource"] if pl[h].flags.render_target or pl[h].flags.depth_stencil else []) + ["transition_barrier"]
        assert mine == expected, (h.name, mine)
    first = next(who for name, who in seq if name == "resource_barriers")
    assert first[0] == "aliasing" and first[1] is None   # before = None: any resource
    # the frame: same pixels as by hand, over executions
    hand = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="hand")
    q.wait(gd.record_deferred_by_hand_queues(dev, hand, gd.by_hand_textures(dev)))
    for _ in range(2):
        q.wait(g.execute())
        assert np.array_equal(q.read_texture(target), q.read_texture(hand))
    dev.wait_idle()


_TRI_VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
  float2 p[3] = { float2(-0.9, -0.9), float2(0.9, -0.7), float2(-0.3, 0.9) };
  return float4(p[id], 0, 1);
}"""
_TRI_PS = "float4 main(float4 p : SV_Position) : SV_Target { return float4(1, 0.5, 0.25, 1); }"


@pytest.mark.parametrize("validate", [False, True])
def test_multisampled_transients_of_disjoint_lifetimes_share_one_texture(validate: bool) -> None:
    """Two 4x MSAA render targets of one description, each drawn (over different clear colours) and
    resolved before the next is drawn: one placed texture serves both in turn (half the multisampled
    bytes, no aliasing barrier), and the resolved pixels equal those with aliasing off, over executions."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    rs = dev.create_root_signature([])
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(_TRI_VS, profile="vs_5_0"), dx.compile_hlsl(_TRI_PS, profile="ps_5_0"),
                                       rs, ["rgba8_unorm"], sample_count=4)
    outs = [dev.create_texture2d(32, 32, "rgba8_unorm", name=f"out{i}") for i in range(2)]

    def draw(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(pso)
        cl.draw(3)

    g = dx.RenderGraph(dev)
    o = [g.import_resource(x) for x in outs]
    for i, colour in enumerate([(0, 0, 0, 1), (0, 0, 1, 1)]):
        ms = g.create_texture(f"ms{i}", 32, 32, "rgba8_unorm", samples=4)
        res = g.create_texture(f"resolved{i}", 32, 32, "rgba8_unorm")
        g.add_pass(f"draw{i}", draw, render_targets=[ms], clear={ms: colour})
        g.add_pass(f"resolve{i}", lambda cl, r, ms=ms, res=res: cl.resolve(r[res], r[ms]), resolve_from=[ms], resolve_to=[res])
        g.add_pass(f"out{i}", lambda cl, r, res=res, i=i: cl.copy_resource(r[o[i]], r[res]), copy_from=[res], copy_to=[o[i]])
    px: Dict[bool, List[Any]] = {}
    for aliasing in (False, True):
        g.aliasing = aliasing
        for _ in range(3):
            q.wait(g.execute())
            got = [q.read_texture(x) for x in outs]
            if aliasing in px:
                assert all(np.array_equal(a, b) for a, b in zip(got, px[aliasing]))
            px[aliasing] = got
        st = g.stats()
        mm = {m["name"]: m for m in g.memory_map()}
        assert not mm["ms0"]["committed"] and not mm["ms1"]["committed"]
        assert st["transient_bytes_committed"] == 0
        if aliasing:
            assert st["transient_bytes"] < st["transient_bytes_unaliased"]
            assert mm["ms0"]["offset"] == mm["ms1"]["offset"]
            assert st["barriers"]["aliasing"] == 0 and st["barriers"]["aliasing_at_execute"] == 0
        else:
            assert mm["ms0"]["offset"] != mm["ms1"]["offset"]
    for a, b in zip(px[True], px[False]):
        assert np.array_equal(a, b)
    p0, p1 = px[True]
    assert ((p0[..., 0] > 0) & (p0[..., 0] < 255)).any()   # edges averaged over 4 samples
    assert tuple(p0[0, 31]) == (0, 0, 0, 255) and tuple(p1[0, 31]) == (0, 0, 255, 255)   # each its own clear colour
    dev.wait_idle()


_COLOUR_PS = """
cbuffer c : register(b0) { float4 colour; };
float4 main(float4 p : SV_Position) : SV_Target { return colour; }
"""


@pytest.mark.parametrize("validate", [False, True])
def test_multisampled_transients_of_different_descriptions_alias_in_placed_memory(validate: bool) -> None:
    """A 4x rgba8 64x64 and a 4x rgba16_float 32x32 render target with disjoint lifetimes share bytes of
    the graph's memory (an aliasing barrier and the graph's clear when the second takes them over): the
    resolved pixels equal those drawn by hand in committed textures, over executions and with aliasing
    off, and the transients take less memory than each in its own."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    rs = dev.create_root_signature([dx.RootConstants(0, 4)])
    vs, ps = dx.compile_hlsl(_TRI_VS, profile="vs_5_0"), dx.compile_hlsl(_COLOUR_PS, profile="ps_5_0")
    descs = [("rgba8_unorm", 64, (0, 0, 0.5, 1), (1, 0.5, 0, 1)), ("rgba16_float", 32, (0.25, 0, 0, 1), (0, 0.75, 1, 1))]
    psos = {fmt: dev.create_graphics_pipeline(vs, ps, rs, [fmt], sample_count=4) for fmt, *_ in descs}

    def draw(cl: Any, fmt: str, colour: Any) -> None:
        cl.set_pipeline_state(psos[fmt])
        cl.set_constants(0, np.array(colour, np.float32))
        cl.draw(3)

    hand = []
    cl = q.command_list()
    for fmt, size, clear, colour in descs:
        ms = dev.create_texture2d(size, size, fmt, render_target=True, sample_count=4, committed=True)
        out = dev.create_texture2d(size, size, fmt)
        cl.clear_render_target(ms, list(clear))
        cl.set_render_targets([ms])
        draw(cl, fmt, colour)
        cl.resolve(out, ms)
        hand.append((ms, out))
    q.wait(q.execute(cl))
    want = [q.read_texture(out) for _ms, out in hand]

    outs = [dev.create_texture2d(size, size, fmt, name=f"out{i}") for i, (fmt, size, *_r) in enumerate(descs)]
    g = dx.RenderGraph(dev)
    o = [g.import_resource(x) for x in outs]
    for i, (fmt, size, clear, colour) in enumerate(descs):
        ms = g.create_texture(f"ms{i}", size, size, fmt, samples=4)
        res = g.create_texture(f"resolved{i}", size, size, fmt)
        g.add_pass(f"draw{i}", lambda cl, r, fmt=fmt, colour=colour: draw(cl, fmt, colour), render_targets=[ms],
                   clear={ms: clear})
        g.add_pass(f"resolve{i}", lambda cl, r, ms=ms, res=res: cl.resolve(r[res], r[ms]), resolve_from=[ms], resolve_to=[res])
        g.add_pass(f"out{i}", lambda cl, r, res=res, i=i: cl.copy_resource(r[o[i]], r[res]), copy_from=[res], copy_to=[o[i]])
    for aliasing in (True, False):
        g.aliasing = aliasing
        for _ in range(2):
            q.wait(g.execute())
            for out, w in zip(outs, want):
                assert np.array_equal(q.read_texture(out), w), aliasing
        st = g.stats()
        mm = {m["name"]: m for m in g.memory_map()}
        assert not mm["ms0"]["committed"] and not mm["ms1"]["committed"]
        if aliasing:
            assert mm["ms0"]["offset"] < mm["ms1"]["offset"] + mm["ms1"]["size"]   # they share bytes
            assert mm["ms1"]["offset"] < mm["ms0"]["offset"] + mm["ms0"]["size"]
            assert st["transient_bytes"] < st["transient_bytes_unaliased"]
            assert st["barriers"]["aliasing"] + st["barriers"]["aliasing_at_execute"] >= 1
            assert st["barriers"]["init_clears"] == 0   # each first use clears it already (its activation)
    dev.wait_idle()
