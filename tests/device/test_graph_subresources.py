"""Render graph passes declaring one mip (or array slice) of a texture: ``h.mip(k)``, ``h.slice(i)``.

A mip pyramid declared as one pass per mip (read mip k-1, render mip k) gives numpy's box-filtered mips,
with exactly the per-subresource transitions it needs, on a plain device and with validation on; an
overlapping declaration and a use of an undeclared mip are GraphErrors naming the pass and the subresource.
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np
import pytest

import dx12kit as dx

from .shaders import DOWN_PS, FULLSCREEN_POS_VS

S = dx.ResourceState
ALL = dx.ALL_SUBRESOURCES
SRV = int(S.PIXEL_SHADER_RESOURCE | S.NON_PIXEL_SHADER_RESOURCE)
RT = int(S.RENDER_TARGET)
LEVELS, SIZE = 8, 128   # 128x128 down to 1x1

# DOWN_PS (shaders.py): the 2x2 box filter, mip k-1 (SRV) -> mip k (render target).


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "validate"])
def dev(request: Any) -> Any:
    d = dx.Device(validate=request.param)
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def down(dev: dx.Device) -> Any:
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)])])   # PS | NPS, the state the graph asks
    return dev.create_graphics_pipeline(dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0"),
                                        dx.compile_hlsl(DOWN_PS, profile="ps_5_0"), rs, ["r32_float"])


def reference_mips(base: np.ndarray) -> List[np.ndarray]:
    mips = [base]
    for _ in range(1, LEVELS):
        m = mips[-1]
        mips.append(((m[0::2, 0::2] + m[0::2, 1::2]) + (m[1::2, 0::2] + m[1::2, 1::2])) * np.float32(0.25))
    return mips


def pyramid_graph(dev: dx.Device, down: Any, tex: dx.Texture, copy: dx.Texture, base: np.ndarray) -> dx.RenderGraph:
    g = dx.RenderGraph(dev)
    t, c = g.import_resource(tex, name="tex"), g.import_resource(copy, name="copy")
    g.add_pass("upload", lambda cl, r: cl.upload(r[t], base, mip=0), copy_to=[t.mip(0)])
    for k in range(1, LEVELS):
        def draw(cl: Any, r: Any, k: int = k) -> None:
            cl.set_pipeline_state(down)
            cl.set_shader_resource_view(0, 0, r[t.mip(k - 1)], mip=k - 1)
            cl.draw(3)
        g.add_pass(f"mip {k}", draw, reads=[t.mip(k - 1)], render_targets=[t.mip(k)])
    g.add_pass("read all", lambda cl, r: None, reads=[t], side_effects=True)
    g.add_pass("copy", lambda cl, r: cl.copy_resource(r[c], r[t]), copy_from=[t], copy_to=[c])
    return g


def planned(g: dx.RenderGraph) -> List[Tuple[str, List[Tuple[str, int, int]]]]:
    """Per pass its planned transitions: (resource, state, subresource)."""
    c = g._compiled_graph()
    return [(pb.pass_.name, [(t.resource.name, t.state, t.subresource) for t in pb.transitions])
            for pb in c.barriers.passes]


def test_mip_pyramid_declared_per_mip_gives_reference_mips_with_minimal_transitions(dev: dx.Device, down: Any) -> None:
    q = dev.queue()
    tex = dev.create_texture2d(SIZE, SIZE, "r32_float", mip_levels=LEVELS, render_target=True, name="tex")
    copy = dev.create_texture2d(SIZE, SIZE, "r32_float", mip_levels=LEVELS, name="copy")
    rng = np.random.default_rng(7)
    base = rng.random((SIZE, SIZE, 1), dtype=np.float32)
    g = pyramid_graph(dev, down, tex, copy, base)
    q.wait(g.execute())
    ref = reference_mips(base)
    for k in range(LEVELS):
        np.testing.assert_allclose(q.read_texture(tex, mip=k), ref[k], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(q.read_texture(copy, mip=k), ref[k], rtol=1e-6, atol=1e-7)
    # exactly the transitions the pyramid needs: mip 0 into COPY_DEST; for each k, mip k-1 (written just
    # before) to a shader resource and mip k to a render target; mip 7 read; then every mip, all in one
    # state, to COPY_SOURCE in one whole-resource transition
    expected = [("upload", [("tex", int(S.COPY_DEST), 0)])]
    expected += [(f"mip {k}", [("tex", SRV, k - 1), ("tex", RT, k)]) for k in range(1, LEVELS)]
    expected += [("read all", [("tex", SRV, LEVELS - 1)]),
                 ("copy", [("tex", int(S.COPY_SOURCE), ALL), ("copy", int(S.COPY_DEST), ALL)])]
    assert planned(g) == expected
    assert g.stats()["barriers"]["transitions"] == 1 + 2 * (LEVELS - 1) + 1 + 2
    # the device records exactly those: in the list the transitions of subresources it knows (mip k-1 to a
    # shader resource, mip 7 read, the whole-texture copy source), and at execute the first use of each
    # subresource in the list, resolved against its global state (mip 0 to COPY_DEST, mip k to RENDER_TARGET,
    # the copy's destination)
    b0 = dict(dev.stats()["barriers"])
    q.wait(g.execute())
    b1 = dev.stats()["barriers"]
    assert (b1["recorded"] - b0["recorded"], b1["inserted_at_execute"] - b0["inserted_at_execute"]) == (LEVELS + 1, LEVELS + 1)
    for k in range(LEVELS):
        assert tex.global_state(k) == S.COPY_SOURCE
        np.testing.assert_allclose(q.read_texture(tex, mip=k), ref[k], rtol=1e-6, atol=1e-7)


def test_overlapping_subresource_declarations_are_graph_errors(dev: dx.Device) -> None:
    g = dx.RenderGraph(dev)
    t = g.create_texture("tex", 32, 32, "r32_float", mips=6)
    with pytest.raises(dx.GraphError, match=r"'bad'.*'tex mip 2'"):
        g.add_pass("bad", lambda cl, r: None, reads=[t.mip(2)], render_targets=[t.mip(2)])
    with pytest.raises(dx.GraphError, match=r"'whole'.*'tex mip 1'.*overlaps 'tex'"):
        g.add_pass("whole", lambda cl, r: None, reads=[t], render_targets=[t.mip(1)])
    with pytest.raises(dx.GraphError, match=r"mips 0\.\.5"):
        t.mip(6)
    with pytest.raises(dx.GraphError, match=r"'two mips'.*one mip"):
        u = g.create_texture("u", 32, 32, "r32_float", mips=2)
        g.add_pass("two mips", lambda cl, r: None, render_targets=[t.mip(1), u.mip(0)])
    # non-overlapping views of one texture in one pass are fine
    g.add_pass("ok", lambda cl, r: None, reads=[t.mip(0)], render_targets=[t.mip(1)], side_effects=True)


def test_validation_refuses_a_mip_the_pass_did_not_declare(dev: dx.Device) -> None:
    if not dev.validate:
        pytest.skip("validation mode checks the subresources a pass touches")
    q = dev.queue()
    tex = dev.create_texture2d(16, 16, "r32_float", mip_levels=3, render_target=True, name="tex")
    for bound, what in ((2, "'tex mip 2', which the pass did not declare"),
                        (None, "'tex mip 1' as read, but the pass declared it as render_target")):
        g = dx.RenderGraph(dev)
        t = g.import_resource(tex, name="tex")

        def draw(cl: Any, r: Any, bound: Any = bound) -> None:
            cl.set_shader_resource_view(0, 0, r[t], mip=bound)   # mip 0 declared; mip 2 / every mip bound

        g.add_pass("fill", lambda cl, r: None, render_targets=[t.mip(0)], clear={t.mip(0): (1, 0, 0, 0)})
        g.add_pass("down", draw, reads=[t.mip(0)], render_targets=[t.mip(1)])
        with pytest.raises(dx.GraphError, match=rf"pass 'down': set_shader_resource_view uses subresource {what}"):
            g.execute()
        q.wait(q.execute(q.command_list()))


def test_graph_picture_labels_subresource_edges(dev: dx.Device, down: Any) -> None:
    tex = dev.create_texture2d(SIZE, SIZE, "r32_float", mip_levels=LEVELS, render_target=True, name="tex")
    copy = dev.create_texture2d(SIZE, SIZE, "r32_float", mip_levels=LEVELS, name="copy")
    dot = pyramid_graph(dev, down, tex, copy, np.zeros((SIZE, SIZE, 1), np.float32)).to_dot()
    assert '"tex mip 3 (render_target)"' in dot and '"tex mip 3 (read)"' in dot


PATTERN_PS = """
float main(float4 pos : SV_Position) : SV_Target { return floor(pos.x) + 128 * floor(pos.y); }
"""
TAKE_PS = """
Texture2D<float> t : register(t0);
float main(float4 pos : SV_Position) : SV_Target { return t.Load(int3(0, 0, 0)); }
"""


def test_transient_pyramid_is_initialised_then_built_per_mip(dev: dx.Device, down: Any) -> None:
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)])])   # PS | NPS, the state the graph asks
    vs = dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0")
    pattern = dev.create_graphics_pipeline(vs, dx.compile_hlsl(PATTERN_PS, profile="ps_5_0"), rs, ["r32_float"])
    take = dev.create_graphics_pipeline(vs, dx.compile_hlsl(TAKE_PS, profile="ps_5_0"), rs, ["r32_float"])
    q = dev.queue()
    out = dev.create_texture2d(1, 1, "r32_float", render_target=True, name="out")
    g = dx.RenderGraph(dev)
    t = g.create_texture("pyr", SIZE, SIZE, "r32_float", mips=LEVELS)
    o = g.import_resource(out)
    g.add_pass("fill", lambda cl, r: (cl.set_pipeline_state(pattern), cl.draw(3)), render_targets=[t.mip(0)])
    for k in range(1, LEVELS):
        def draw(cl: Any, r: Any, k: int = k) -> None:
            cl.set_pipeline_state(down)
            cl.set_shader_resource_view(0, 0, r[t], mip=k - 1)
            cl.draw(3)
        g.add_pass(f"mip {k}", draw, reads=[t.mip(k - 1)], render_targets=[t.mip(k)])

    def last(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(take)
        cl.set_shader_resource_view(0, 0, r[t], mip=LEVELS - 1)
        cl.draw(3)
    g.add_pass("take", last, reads=[t.mip(LEVELS - 1)], render_targets=[o])
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    ref = reference_mips((x + 128 * y).astype(np.float32)[..., None])
    for _ in range(2):
        q.wait(g.execute())
        np.testing.assert_allclose(q.read_texture(out), ref[-1], rtol=1e-6)
    assert g.stats()["barriers"]["init_clears"] == 1   # the transient's first use: every mip initialised


def test_two_transient_pyramids_of_one_description_alias_and_keep_their_values(dev: dx.Device, down: Any) -> None:
    """Two transient pyramids of one description, one after the other: they share bytes (an aliasing
    barrier), each keeps a physical resource of its own (its states are kept per subresource), and both
    give numpy's 1x1 mip. After the cross-queue aliasing work the merged planner met the second pyramid's
    aliasing barrier with no state for it (AttributeError at compile)."""
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)])])
    vs = dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0")
    take = dev.create_graphics_pipeline(vs, dx.compile_hlsl(TAKE_PS, profile="ps_5_0"), rs, ["r32_float"])
    q = dev.queue()
    levels, size = 5, 16
    bases = [np.random.default_rng(i).random((size, size, 1), dtype=np.float32) for i in (1, 2)]
    outs = [dev.create_texture2d(1, 1, "r32_float", render_target=True, name=f"out{i}") for i in (0, 1)]
    g = dx.RenderGraph(dev)
    for i, (base, out) in enumerate(zip(bases, outs)):
        t = g.create_texture(f"pyr{i}", size, size, "r32_float", mips=levels)
        o = g.import_resource(out)
        g.add_pass(f"up {i}", lambda cl, r, t=t, base=base: cl.upload(r[t], base, mip=0), copy_to=[t.mip(0)])
        for k in range(1, levels):
            def draw(cl: Any, r: Any, k: int = k, t: Any = t) -> None:
                cl.set_pipeline_state(down)
                cl.set_shader_resource_view(0, 0, r[t], mip=k - 1)
                cl.draw(3)
            g.add_pass(f"{i} mip {k}", draw, reads=[t.mip(k - 1)], render_targets=[t.mip(k)])

        def last(cl: Any, r: Any, t: Any = t) -> None:
            cl.set_pipeline_state(take)
            cl.set_shader_resource_view(0, 0, r[t], mip=levels - 1)
            cl.draw(3)
        g.add_pass(f"take {i}", last, reads=[t.mip(levels - 1)], render_targets=[o])
    for _ in range(2):
        q.wait(g.execute())
        for base, out in zip(bases, outs):
            np.testing.assert_allclose(q.read_texture(out), reference_mips(base)[levels - 1], rtol=1e-6)
    st = g.stats()
    assert st["transient_bytes"] < st["transient_bytes_unaliased"]   # they share bytes


def test_barrier_batch_transition_of_one_subresource(dev: dx.Device) -> None:
    tex = dev.create_texture2d(8, 8, "r32_float", mip_levels=4, render_target=True)
    b = dx.BarrierBatch([("transition", tex, RT, 2), ("transition", tex, SRV)])
    assert b.entries == [("transition", tex, RT, 2), ("transition", tex, SRV)]
    with pytest.raises(dx.InvalidArgumentError):
        dx.BarrierBatch([("transition", tex, RT, 4)])
    q = dev.queue()
    cl = q.command_list()
    cl.transition_barrier(tex, SRV)
    cl.resource_barriers(dx.BarrierBatch([("transition", tex, RT, 2)]))
    q.wait(q.execute(cl))
    assert tex.global_state(2) == S.RENDER_TARGET and tex.global_state(1) == SRV


DOWN_CS = """
cbuffer C : register(b0) { uint w; uint h; };
Texture2D<float> src : register(t0);
RWTexture2D<float> dst : register(u0);
[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= w || id.y >= h) return;
    int2 p = int2(id.xy) * 2;
    float a = src.Load(int3(p, 0)), b = src.Load(int3(p + int2(1, 0), 0));
    float c = src.Load(int3(p + int2(0, 1), 0)), d = src.Load(int3(p + int2(1, 1), 0));
    dst[id.xy] = ((a + b) + (c + d)) * 0.25;
}
"""


def test_compute_queue_pyramid_writes_each_mip_as_uav_without_uav_barriers(dev: dx.Device) -> None:
    q = dev.queue()
    rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)])])
    cs = dev.create_compute_pipeline(dx.compile_hlsl(DOWN_CS, profile="cs_5_0"), rs)
    out = dev.create_texture2d(64, 64, "r32_float", mip_levels=7, uav=True, name="out")
    base = np.random.default_rng(5).random((64, 64, 1), dtype=np.float32)
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    g.add_pass("upload", lambda cl, r: cl.upload(r[o], base, mip=0), copy_to=[o.mip(0)])
    for k in range(1, 7):
        def step(cl: Any, r: Any, k: int = k) -> None:
            n = 64 >> k
            cl.set_pipeline_state(cs)
            cl.set_constants(0, np.array([n, n], np.uint32))
            cl.set_shader_resource_view(1, 0, r[o], mip=k - 1)
            cl.set_unordered_access_view(2, 0, r[o], mip=k)
            cl.dispatch((n + 7) // 8, (n + 7) // 8)
        g.add_pass(f"cs {k}", step, queue="compute", reads=[o.mip(k - 1)], writes=[o.mip(k)])
    for _ in range(2):
        q.wait(g.execute())
    ref = [base]
    for _ in range(6):
        m = ref[-1]
        ref.append(((m[0::2, 0::2] + m[0::2, 1::2]) + (m[1::2, 0::2] + m[1::2, 1::2])) * np.float32(0.25))
    for k in range(7):
        np.testing.assert_allclose(q.read_texture(out, mip=k), ref[k], rtol=1e-6, atol=1e-7)
    nps, uav = int(S.NON_PIXEL_SHADER_RESOURCE), int(S.UNORDERED_ACCESS)
    assert planned(g) == [("upload", [("out", int(S.COPY_DEST), 0)])] + [
        (f"cs {k}", [("out", nps, k - 1), ("out", uav, k)]) for k in range(1, 7)]
    st = g.stats()
    assert st["barriers"]["uav"] == 0 and st["batches"] == [("direct", ["upload"]), ("compute", [f"cs {k}" for k in range(1, 7)])]


def test_transient_pyramid_taking_over_memory_ends_in_the_state_its_aliasing_barrier_names(dev: dx.Device,
                                                                                            down: Any) -> None:
    """A transient pyramid (mips in different states when its passes end: mip 3 is last rendered, mips 0-2
    last read) takes over another transient's bytes in the middle of a command list. The graph's aliasing
    barrier names one state for the whole texture, so the pyramid ends every execution in that state (its
    odd mip moved there after the pyramid's last pass): each mip is really in the state named, dx12kit moves
    nothing before the list, and the pixels are numpy's."""
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)])])
    vs = dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0")
    pattern = dev.create_graphics_pipeline(vs, dx.compile_hlsl(PATTERN_PS, profile="ps_5_0"), rs, ["r32_float"])
    take = dev.create_graphics_pipeline(vs, dx.compile_hlsl(TAKE_PS, profile="ps_5_0"), rs, ["r32_float"])
    q = dev.queue()
    levels, size = 4, 16
    out = dev.create_texture2d(1, 1, "r32_float", render_target=True, name="out")
    before = dev.create_texture2d(size, size, "rgba8_unorm", name="before copy")
    g = dx.RenderGraph(dev, schedule="memory")   # packed byte by byte: the pyramid takes over b's bytes
    b = g.create_texture("b", size, size, "rgba8_unorm")
    t = g.create_texture("pyr", size, size, "r32_float", mips=levels)
    o, bc = g.import_resource(out), g.import_resource(before)
    g.add_pass("b", lambda cl, r: None, render_targets=[b], clear={b: (1, 0, 0, 1)})
    g.add_pass("b out", lambda cl, r: cl.copy_resource(r[bc], r[b]), copy_from=[b], copy_to=[bc])
    g.add_pass("fill", lambda cl, r: (cl.set_pipeline_state(pattern), cl.draw(3)), render_targets=[t.mip(0)])
    for k in range(1, levels):
        def draw(cl: Any, r: Any, k: int = k) -> None:
            cl.set_pipeline_state(down)
            cl.set_shader_resource_view(0, 0, r[t], mip=k - 1)
            cl.draw(3)
        g.add_pass(f"mip {k}", draw, reads=[t.mip(k - 1)], render_targets=[t.mip(k)])

    def last(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(take)
        cl.set_shader_resource_view(0, 0, r[t], mip=levels - 2)
        cl.draw(3)
    g.add_pass("take", last, reads=[t.mip(levels - 2)], render_targets=[o])   # mip 3 stays a render target
    mm = {m["name"]: m for m in g.memory_map()}
    assert mm["pyr"]["offset"] == mm["b"]["offset"]
    named = [a.state for pb in g._compiled_graph().barriers.passes for a in pb.aliasing if a.after.name == "pyr"]
    assert len(named) == 1 and g.stats()["barriers"]["aliasing"] == 1   # the graph activates it mid-list
    y, x = np.mgrid[0:size, 0:size]
    m = (x + 128 * y).astype(np.float32)
    for _ in range(levels - 2):
        m = ((m[0::2, 0::2] + m[0::2, 1::2]) + (m[1::2, 0::2] + m[1::2, 1::2])) * np.float32(0.25)
    for _ in range(3):
        q.wait(g.execute())
        pyr = g._real[t]
        assert [int(pyr.global_state(k)) for k in range(levels)] == [named[0]] * levels
        assert [x for x in q.last_inserted_barriers if x[1] == "pyr"] == []   # nothing moved before the list
        np.testing.assert_allclose(q.read_texture(out)[0, 0, 0], m[0, 0], rtol=1e-6)


def test_list_split_for_threads_requests_each_subresource_at_its_first_use_in_a_part(dev: dx.Device, down: Any) -> None:
    """Recorded on two threads, the list's second part starts with a pass reading mip 0, already a shader
    resource (no transition planned): the part requests it there, as it requests every subresource new to
    it (a transition of mip 2 of the same texture does not stand for mip 0), and the mips are right."""
    from dx12kit.graph.bake import split_list

    q = dev.queue()
    tex = dev.create_texture2d(16, 16, "r32_float", mip_levels=3, render_target=True, name="tex")
    g = dx.RenderGraph(dev, threads=2)
    t = g.import_resource(tex, name="tex")

    def down_from(k: int) -> Any:
        def draw(cl: Any, r: Any) -> None:
            cl.set_pipeline_state(down)
            cl.set_shader_resource_view(0, 0, r[t], mip=k)
            cl.draw(3)
        return draw
    g.add_pass("fill", lambda cl, r: None, render_targets=[t.mip(0)], clear={t.mip(0): (4, 0, 0, 0)})
    g.add_pass("a", down_from(0), reads=[t.mip(0)], render_targets=[t.mip(1)])
    g.add_pass("b", down_from(0), reads=[t.mip(0)], render_targets=[t.mip(2)])
    g.add_pass("c", lambda cl, r: None, reads=[t.mip(1), t.mip(2)], side_effects=True)
    (lst,) = g._compiled_graph().barriers.lists
    parts = split_list(lst, 2)
    assert [[pb.pass_.name for pb in part.passes] for part in parts] == [["fill", "a"], ["b", "c"]]
    assert [(x.state, x.subresource) for x in parts[1].passes[0].transitions] == [(SRV, 0), (RT, 2)]
    for _ in range(2):
        q.wait(g.execute())
        assert [float(q.read_texture(tex, mip=k)[0, 0, 0]) for k in range(3)] == [4.0, 4.0, 4.0]


def test_resolve_into_a_mip_view_does_not_initialise_a_transient_render_target(dev: dx.Device) -> None:
    """A transient render target declared through mip views, first used by a pass that uploads mip 0 and
    resolves a multisampled target into mip 1: D3D12 initialises memory taken over only by a clear, a discard
    or a copy of the entire subresource (ResolveSubresource is none of these), so the graph clears it before
    that pass, as it does for a resolve into a whole texture; the mips hold the upload and the resolve."""
    q = dev.queue()
    out = dev.create_texture2d(16, 16, "rgba8_unorm", mip_levels=2, name="out")
    base = np.random.default_rng(3).integers(0, 256, (16, 16, 4), dtype=np.uint8)
    colour = (0.0, 0.5, 1.0, 1.0)
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    ms = g.create_texture("ms", 8, 8, "rgba8_unorm", samples=4)
    t = g.create_texture("t", 16, 16, "rgba8_unorm", mips=2)
    g.add_pass("ms", lambda cl, r: None, render_targets=[ms], clear={ms: colour})

    def fill(cl: Any, r: Any) -> None:
        cl.upload(r[t], base, mip=0)
        cl.resolve(r[t], r[ms], dst_subresource=1)
    g.add_pass("fill", fill, copy_to=[t.mip(0)], resolve_from=[ms], resolve_to=[t.mip(1)])
    g.add_pass("target", lambda cl, r: None, render_targets=[t.mip(0)])   # makes t a render target
    g.add_pass("out", lambda cl, r: cl.copy_resource(r[o], r[t]), copy_from=[t], copy_to=[o])
    inits = {pb.pass_.name: [h.name for h in pb.init_clears] for pb in g._compiled_graph().barriers.passes}
    assert inits == {"ms": [], "fill": ["t"], "target": [], "out": []}
    want1 = np.broadcast_to(np.array([0, 128, 255, 255], np.uint8), (8, 8, 4))
    for _ in range(2):
        q.wait(g.execute())
        assert np.array_equal(q.read_texture(out, mip=0), base)
        assert np.abs(q.read_texture(out, mip=1).astype(int) - want1).max() <= 1
    assert g.stats()["barriers"]["init_clears"] == 1


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validated"])
def test_a_pass_clearing_a_mip_chain_declared_whole_still_gets_every_mip_initialised(validate: bool) -> None:
    """A pass's own clear of a render target declared whole clears the bound mip only: a transient with more
    mips is not initialised by it (D3D12: every subresource of a render target taking over memory is cleared,
    discarded or copied into whole first), so the graph initialises it; a one-mip target's own clear does."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    for mips, inits in ((3, 1), (1, 0)):
        g = dx.RenderGraph(dev)
        t = g.create_texture("t", 16, 16, "rgba8_unorm", mips=mips)
        g.add_pass("clear", lambda cl, r: None, render_targets=[t], clear={t: (1.0, 0.0, 0.0, 1.0)})
        g.add_pass("use", lambda cl, r: None, reads=[t], side_effects=True)
        q.wait(g.execute())
        assert g.stats()["barriers"]["init_clears"] == inits, mips
