"""dx12kit.RenderGraph on the real device."""
from __future__ import annotations

import gc
import re
from typing import Any, List

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import graph_demo as gd

CLEAR_CS = """
cbuffer C : register(b0) { float4 v; };
RWTexture2D<float4> o : register(u0);
[numthreads(8, 8, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.xy] = v; }
"""


@pytest.fixture(scope="module")
def dev() -> dx.Device:
    return dx.Device()


def _target(dev: dx.Device, size: int = 32, name: str = "out") -> dx.Texture:
    return dev.create_texture2d(size, size, "rgba8_unorm", render_target=True, name=name)


def test_order_culling_and_record_never_called(dev: dx.Device) -> None:
    q = dev.queue()
    out = _target(dev)
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    a = g.create_texture("a", 32, 32, "rgba8_unorm")
    b = g.create_texture("b", 32, 32, "rgba8_unorm")
    unused = g.create_texture("unused", 32, 32, "rgba8_unorm")
    calls: List[str] = []
    g.add_pass("make_a", lambda cl, r: calls.append("make_a"), render_targets=[a], clear={a: (1, 0, 0, 1)})
    g.add_pass("orphan", lambda cl, r: calls.append("orphan"), render_targets=[unused], clear={unused: (0, 1, 0, 1)})
    g.add_pass("a_to_b", lambda cl, r: calls.append("a_to_b") or cl.copy_resource(r[b], r[a]), copy_from=[a], copy_to=[b])
    g.add_pass("b_to_out", lambda cl, r: calls.append("b_to_out") or cl.copy_resource(r[o], r[b]), copy_from=[b],
               copy_to=[o])
    g.add_pass("log", lambda cl, r: calls.append("log"), reads=[b], side_effects=True)
    compiles: List[int] = []
    compile_ = g.compile
    g.compile = lambda: compiles.append(1) or compile_()  # type: ignore[method-assign]
    q.wait(g.execute())
    assert calls == ["make_a", "a_to_b", "b_to_out", "log"]
    st = g.stats()
    assert st["passes"] == 4 and st["culled"] == 1 and st["culled_passes"] == ["orphan"]
    assert (q.read_texture(out) == [255, 0, 0, 255]).all()
    # no recompile when unchanged; a new pass recompiles
    calls.clear()
    q.wait(g.execute())
    assert len(compiles) == 1 and calls == ["make_a", "a_to_b", "b_to_out", "log"]
    g.add_pass("late", lambda cl, r: calls.append("late"), copy_from=[o], copy_to=[a])
    calls.clear()
    q.wait(g.execute())
    assert len(compiles) == 2
    assert "late" not in calls   # writes only a transient nobody reads afterwards
    assert g.stats()["culled_passes"] == ["orphan", "late"]


def test_transient_read_before_write_raises(dev: dx.Device) -> None:
    g = dx.RenderGraph(dev)
    o = g.import_resource(_target(dev))
    t = g.create_texture("t", 32, 32, "rgba8_unorm")
    g.add_pass("uses_t", lambda cl, r: None, reads=[t], render_targets=[o])
    g.add_pass("writes_t", lambda cl, r: None, render_targets=[t], clear={t: (0, 0, 0, 0)})
    with pytest.raises(dx.GraphError, match="'uses_t' reads transient 't' before any pass writes it"):
        g.compile()


def test_bad_declarations(dev: dx.Device) -> None:
    g = dx.RenderGraph(dev)
    t = g.create_texture("t", 8, 8, "rgba8_unorm")
    with pytest.raises(dx.GraphError, match="queue"):
        g.add_pass("p", lambda cl, r: None, queue="gfx", writes=[t])
    with pytest.raises(dx.GraphError, match="direct queue"):
        g.add_pass("p", lambda cl, r: None, queue="compute", render_targets=[t])
    with pytest.raises(dx.GraphError, match="exists already"):
        g.create_buffer("t", 16)
    other = dx.RenderGraph(dev).create_buffer("x", 16)
    with pytest.raises(dx.GraphError, match="handles of this graph"):
        g.add_pass("p", lambda cl, r: None, writes=[other])
    with pytest.raises(dx.GraphError, match="not a render target"):
        g.add_pass("p", lambda cl, r: None, writes=[t], clear={t: (0, 0, 0, 0)})
    d = g.create_texture("d", 8, 8, "d32_float")
    with pytest.raises(dx.GraphError, match=r"'p'.*clear depth of 'd' must be in \[0, 1\]"):
        g.add_pass("p", lambda cl, r: None, depth_stencil=d, clear={d: float("nan")})
    with pytest.raises(TypeError, match="'d' is a number"):
        g.add_pass("p", lambda cl, r: None, depth_stencil=d, clear={d: "far"})
    with pytest.raises(dx.GraphError, match="'t' must be four numbers"):
        g.add_pass("p", lambda cl, r: None, render_targets=[t], clear={t: (1, 2)})
    with pytest.raises(TypeError, match="render target 't' is four numbers"):
        g.add_pass("p", lambda cl, r: None, render_targets=[t], clear={t: "red"})
    g.add_pass("ok", lambda cl, r: None, render_targets=[t], clear={t: np.ones(4, np.float32)}, side_effects=True)


def test_aliasing_different_formats_share_bytes_with_correct_pixels(dev: dx.Device) -> None:
    """Two transients of different formats and sizes, with disjoint lifetimes, at the same offset."""
    q = dev.queue()
    out1 = _target(dev, 64, "out1")
    out2 = dev.create_texture2d(32, 32, "rgba16_float", uav=True, name="out2")
    rs = dev.create_root_signature([dx.RootConstants(0, 4), dx.DescriptorTable([dx.UAV(0)])])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(CLEAR_CS, profile="cs_5_0"), rs)

    def fill(value: Any, tex: Any) -> Any:
        def rec(cl: Any, r: Any) -> None:
            cl.set_pipeline_state(pso)
            cl.set_constants(0, np.asarray(value, np.float32))
            cl.set_unordered_access_view(1, 0, r[tex])
            cl.dispatch(8, 8)
        return rec

    g = dx.RenderGraph(dev)
    o1, o2 = g.import_resource(out1), g.import_resource(out2)
    a = g.create_texture("a_rgba8_64", 64, 64, "rgba8_unorm")
    b = g.create_texture("b_rgba16f_32", 32, 32, "rgba16_float")
    g.add_pass("fill_a", fill((0.2, 0.4, 0.6, 1.0), a), writes=[a])
    g.add_pass("copy_a", lambda cl, r: cl.copy_resource(r[o1], r[a]), copy_from=[a], copy_to=[o1])
    g.add_pass("fill_b", fill((3.0, -1.0, 0.5, 2.0), b), writes=[b])
    g.add_pass("copy_b", lambda cl, r: cl.copy_resource(r[o2], r[b]), copy_from=[b], copy_to=[o2])
    for _ in range(3):
        q.wait(g.execute())
        assert (q.read_texture(out1) == [51, 102, 153, 255]).all()
        assert (q.read_texture(out2).astype(np.float32) == [3.0, -1.0, 0.5, 2.0]).all()
    mm = {m["name"]: m for m in g.memory_map()}
    assert mm["a_rgba8_64"]["offset"] == mm["b_rgba16f_32"]["offset"] == 0
    st = g.stats()
    assert st["transient_bytes"] < st["transient_bytes_unaliased"]
    # b takes a's bytes inside the list: the graph's barrier; a takes them back at the start of the
    # next execution's list: dx12kit activates it at execute, in the list run before (no in-list barrier)
    assert st["barriers"]["aliasing"] == 1 and st["barriers"]["aliasing_at_execute"] == 1
    b0 = dict(dev.stats()["barriers"])
    q.wait(g.execute())
    b1 = dev.stats()["barriers"]
    assert b1["aliasing_explicit"] - b0["aliasing_explicit"] == 1
    assert b1["aliasing_automatic"] - b0["aliasing_automatic"] == 1
    # aliasing switched off after compiling: the next execute compiles again, each transient in bytes of its own
    assert g.aliasing is True
    g.aliasing = False
    assert g.aliasing is False
    q.wait(g.execute())
    assert (q.read_texture(out1) == [51, 102, 153, 255]).all()
    assert (q.read_texture(out2).astype(np.float32) == [3.0, -1.0, 0.5, 2.0]).all()
    mm = {m["name"]: m for m in g.memory_map()}
    assert mm["b_rgba16f_32"]["offset"] >= mm["a_rgba8_64"]["offset"] + mm["a_rgba8_64"]["size"]
    st = g.stats()
    assert st["transient_bytes"] >= st["transient_bytes_unaliased"]
    assert st["barriers"]["aliasing"] == 0 and st["barriers"]["aliasing_at_execute"] == 0
    b0 = dict(dev.stats()["barriers"])
    q.wait(g.execute())
    b1 = dev.stats()["barriers"]
    assert b1["aliasing_explicit"] == b0["aliasing_explicit"] and b1["aliasing_automatic"] == b0["aliasing_automatic"]
    g.aliasing = True   # and back
    q.wait(g.execute())
    assert (q.read_texture(out2).astype(np.float32) == [3.0, -1.0, 0.5, 2.0]).all()
    assert g.stats()["transient_bytes"] < g.stats()["transient_bytes_unaliased"]
    for bad in (0, 1, "no", None, np.bool_(True)):
        with pytest.raises(TypeError, match="aliasing must be a bool"):
            g.aliasing = bad  # type: ignore[assignment]
        with pytest.raises(TypeError, match="aliasing must be a bool"):
            dx.RenderGraph(dev, aliasing=bad)  # type: ignore[arg-type]
    assert g.aliasing is True


def test_uav_barrier_between_dependent_uav_passes(dev: dx.Device) -> None:
    q = dev.queue()
    out = dev.create_texture2d(32, 32, "rgba16_float", uav=True, name="uavout")
    rs = dev.create_root_signature([dx.RootConstants(0, 4), dx.DescriptorTable([dx.UAV(0)])])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(CLEAR_CS, profile="cs_5_0"), rs)
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)

    def fill(v: float) -> Any:
        def rec(cl: Any, r: Any) -> None:
            cl.set_pipeline_state(pso)
            cl.set_constants(0, np.full(4, v, np.float32))
            cl.set_unordered_access_view(1, 0, r[o])
            cl.dispatch(4, 4)
        return rec

    g.add_pass("w1", fill(1.0), writes=[o])
    g.add_pass("w2", fill(2.0), writes=[o])
    q.wait(g.execute())
    assert g.stats()["barriers"]["uav"] == 1
    assert (q.read_texture(out).astype(np.float32) == 2.0).all()


def _no_peaks(d: Any) -> Any:
    """A stats dict without its high-water marks (``peak*``), which two lists in flight at once may raise."""
    if isinstance(d, dict):
        return {k: _no_peaks(v) for k, v in d.items() if not str(k).startswith("peak")}
    return d


def test_memory_and_descriptors_flat_over_1000_executions() -> None:
    dev = dx.Device()
    q = dev.queue()
    out = _target(dev, 16, "flat")
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    a = g.create_texture("a", 16, 16, "rgba8_unorm")
    b = g.create_texture("b", 16, 16, "rgba8_unorm")
    g.add_pass("a", lambda cl, r: None, render_targets=[a], clear={a: (0, 0, 1, 1)})
    g.add_pass("a2o", lambda cl, r: cl.copy_resource(r[o], r[a]), copy_from=[a], copy_to=[o])
    g.add_pass("b", lambda cl, r: None, render_targets=[b], clear={b: (0, 1, 0, 1)})
    g.add_pass("b2o", lambda cl, r: cl.copy_resource(r[o], r[b]), copy_from=[b], copy_to=[o])
    # and a transient buffer written on the compute queue, copied out on the copy queue (GPU waits each time)
    buf_out = dev.create_buffer(256, name="flat_buf")
    ob = g.import_resource(buf_out)
    c = g.create_buffer("c", 256)
    g.add_pass("fill_c", lambda cl, r: cl.clear_unordered_access_view(r[c], (7, 7, 7, 7)), queue="compute", writes=[c])
    g.add_pass("c2out", lambda cl, r: cl.copy_resource(r[ob], r[c]), queue="copy", copy_from=[c], copy_to=[ob])
    for _ in range(20):
        g.execute()
    dev.wait_idle()
    gc.collect()
    dev.poll()
    m0 = dev.memory_stats()["total"]
    d0 = _no_peaks(dev.descriptor_stats())
    v = 0
    for i in range(1000):
        v = g.execute()
        if i % 100 == 99:
            q.wait(v)
    dev.wait_idle()
    gc.collect()
    dev.poll()
    m1 = dev.memory_stats()["total"]
    assert (m1["block_bytes"], m1["allocation_count"], m1["allocation_bytes"]) == \
        (m0["block_bytes"], m0["allocation_count"], m0["allocation_bytes"])
    assert _no_peaks(dev.descriptor_stats()) == d0   # in use, pages, chunks (high-water marks may rise)
    assert (q.read_texture(out) == [0, 255, 0, 255]).all()
    assert (q.read_buffer(buf_out, dtype=np.uint32) == 7).all()
    assert g.stats()["queues"] == {"direct": 4, "compute": 1, "copy": 1} and g.stats()["executions"] == 1020


def test_validation_names_pass_and_resource() -> None:
    dev = dx.Device(validate=True)
    rs = dev.create_root_signature([dx.RootConstants(0, 4), dx.DescriptorTable([dx.UAV(0)])])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(CLEAR_CS, profile="cs_5_0"), rs)
    out = dev.create_texture2d(16, 16, "rgba16_float", uav=True, name="vout")
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    t = g.create_texture("scratch", 16, 16, "rgba16_float")

    def writes_t(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(pso)
        cl.set_constants(0, np.zeros(4, np.float32))
        cl.set_unordered_access_view(1, 0, r[t])
        cl.dispatch(2, 2)

    g.add_pass("sneaky", writes_t, writes=[o])          # t is not declared by this pass
    g.add_pass("init_t", writes_t, writes=[t])
    g.add_pass("t_to_o", lambda cl, r: cl.copy_resource(r[o], r[t]), copy_from=[t], copy_to=[o])
    with pytest.raises(dx.GraphError, match=r"pass 'sneaky'.*'scratch'.*did not declare"):
        g.execute()
    dev.wait_idle()

    g2 = dx.RenderGraph(dev)
    o2 = g2.import_resource(out)

    def uav_of_read(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(pso)
        cl.set_constants(0, np.zeros(4, np.float32))
        cl.set_unordered_access_view(1, 0, r[o2])

    g2.add_pass("reader", uav_of_read, reads=[o2], side_effects=True)
    with pytest.raises(dx.GraphError, match=r"pass 'reader'.*'vout' as write.*declared it as read"):
        g2.execute()
    dev.wait_idle()


def test_deferred_frame_matches_by_hand(dev: dx.Device) -> None:
    q = dev.queue()
    target = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
    g, h = gd.build_deferred_graph(dev, target)
    q.wait(g.execute())
    graph_px = q.read_texture(target)
    hand = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="hand")
    q.wait(gd.record_deferred_by_hand(dev, hand, gd.by_hand_textures(dev)))
    hand_px = q.read_texture(hand)
    assert np.array_equal(graph_px, hand_px)
    assert graph_px.std() > 10      # a real picture, not a clear colour
    st = g.stats()
    assert st["culled_passes"] == ["debug_view"]
    # within the aliasing target, the layout where no memory changes hands (no aliasing barrier) is taken
    assert st["transient_bytes"] <= 0.85 * st["transient_bytes_unaliased"]
    assert st["queues"]["compute"] == 1
    # the UI pass does not depend on lighting: it is submitted without waiting for the compute queue
    batches = st["batches"]
    ui_batch = next(i for i, (qn, names) in enumerate(batches) if "ui" in names)
    assert batches[ui_batch] == ("direct", ["ui"]) and st["batch_waits"][ui_batch] == {}
    assert st["batch_waits"][ui_batch + 1] == {"compute": ui_batch - 1}
    assert batches[ui_batch - 1][0] == "compute"
    assert st["cross_queue_waits"] == sum(len(w) for w in st["batch_waits"])
    # again, three times: same pixels; the tracker adds no barrier for the graph's resources
    for _ in range(3):
        b0 = dict(dev.stats()["barriers"])
        q.wait(g.execute())
        b1 = dev.stats()["barriers"]
        # exactly the aliasing barriers the graph planned: its own inside lists, dx12kit's at execute
        assert b1["aliasing_explicit"] - b0["aliasing_explicit"] == st["barriers"]["aliasing"]
        assert b1["aliasing_automatic"] - b0["aliasing_automatic"] == st["barriers"]["aliasing_at_execute"]
        assert dev.queue("compute").last_direct_queue_barriers == []
        assert np.array_equal(q.read_texture(target), hand_px)


def test_dot_and_png(dev: dx.Device, tmp_path: Any) -> None:
    target = dev.create_texture2d(gd.SIZE, gd.SIZE, "rgba8_unorm", render_target=True, name="frame")
    g, _ = gd.build_deferred_graph(dev, target)
    dot = g.to_dot()
    assert dot.startswith("digraph") and "debug_view (culled)" in dot and "cluster_compute" in dot
    assert "GPU wait" in dot
    path = g.to_png(tmp_path / "graph.png")
    from PIL import Image
    with Image.open(path) as im:
        assert im.size[0] == 1100 and im.size[1] > 300


TRI_VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
  float2 p[3] = { float2(-0.9, -0.9), float2(0.9, -0.7), float2(-0.3, 0.9) };
  return float4(p[id], 0, 1);
}"""
TRI_PS = "float4 main(float4 p : SV_Position) : SV_Target { return float4(1, 0.5, 0.25, 1); }"


def test_msaa_transient_resolved_matches_by_hand(dev: dx.Device) -> None:
    """A 4x MSAA transient drawn into and resolved by a pass (resolve_from / resolve_to), against the
    same draw and resolve by hand: identical pixels, edge pixels partly covered (real multisampling)."""
    q = dev.queue()
    rs = dev.create_root_signature([])
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(TRI_VS, profile="vs_5_0"), dx.compile_hlsl(TRI_PS, profile="ps_5_0"),
                                       rs, ["rgba8_unorm"], sample_count=4)
    out = _target(dev, 32, "msaa_out")

    def draw(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(pso)
        cl.draw(3)

    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    ms = g.create_texture("ms", 32, 32, "rgba8_unorm", samples=4)
    rt = g.create_texture("resolved", 32, 32, "rgba8_unorm")
    g.add_pass("draw_ms", draw, render_targets=[ms], clear={ms: (0, 0, 0, 1)})
    g.add_pass("resolve", lambda cl, r: cl.resolve(r[rt], r[ms]), resolve_from=[ms], resolve_to=[rt])
    g.add_pass("to_out", lambda cl, r: cl.copy_resource(r[o], r[rt]), copy_from=[rt], copy_to=[o])
    for _ in range(2):
        q.wait(g.execute())
    px = q.read_texture(out)

    ms_h = dev.create_texture2d(32, 32, "rgba8_unorm", render_target=True, sample_count=4, name="ms_hand")
    res_h = dev.create_texture2d(32, 32, "rgba8_unorm", name="resolved_hand")
    cl = q.command_list()
    cl.set_render_targets([ms_h])
    cl.clear_render_target(ms_h, (0, 0, 0, 1))
    draw(cl, {})
    cl.resolve(res_h, ms_h)
    q.wait(q.execute(cl))
    assert np.array_equal(px, q.read_texture(res_h))
    partial = (px[..., 0] > 0) & (px[..., 0] < 255)
    assert partial.any() and (px[..., 0] == 255).any()     # edges averaged over 4 samples
    st = g.stats()
    assert st["transient_bytes_committed"] == 0
    mm = {m["name"]: m for m in g.memory_map()}
    assert not mm["ms"]["committed"] and not mm["resolved"]["committed"]
    # both placed in the graph's block (alive together: bytes of their own)
    assert st["transient_bytes"] >= mm["ms"]["size"] + mm["resolved"]["size"]
    assert mm["ms"]["offset"] % 65536 == 0
    # the tracker adds nothing for the declared resources inside the passes
    b0 = dict(dev.stats()["barriers"])
    q.wait(g.execute())
    assert dev.stats()["barriers"]["aliasing_automatic"] == b0["aliasing_automatic"]
    with pytest.raises(dx.GraphError, match="resolves need the direct queue"):
        g.add_pass("bad", lambda cl, r: None, queue="compute", resolve_from=[ms])
    g2 = dx.RenderGraph(dev)
    u = g2.create_texture("ms_uav", 32, 32, "rgba8_unorm", samples=4)
    g2.add_pass("uav", lambda cl, r: None, writes=[u], side_effects=True)
    with pytest.raises(dx.GraphError, match="'ms_uav' is multisampled"):
        g2.compile()


def test_copy_queue_pass(dev: dx.Device) -> None:
    """A pass on the copy queue copies a transient the direct queue rendered; the graph waits on the GPU and
    records the render-target transition the copy queue may not (on the direct list)."""
    q = dev.queue()
    out = dev.create_texture2d(16, 16, "rgba8_unorm", name="copy_out")
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    t = g.create_texture("drawn", 16, 16, "rgba8_unorm")
    colour = [(0.0, 1.0, 0.0, 1.0)]   # what the draw pass clears to in the next execution
    g.add_pass("draw", lambda cl, r: cl.clear_render_target(r[t], colour[0]), render_targets=[t])
    g.add_pass("copy", lambda cl, r: cl.copy_resource(r[o], r[t]), queue="copy", copy_from=[t], copy_to=[o])
    for c in ((0.0, 1.0, 0.0, 1.0), (1.0, 0.0, 1.0, 1.0)):
        colour[0] = c
        q.wait(g.execute())
        assert (q.read_texture(out) == [int(x * 255) for x in c]).all()
    st = g.stats()
    assert st["queues"]["copy"] == 1 and st["cross_queue_waits"] >= 1
    assert [qn for qn, _ in st["batches"]] == ["direct", "copy"]
    assert st["barriers"]["queue_handoff"] >= 1


def _resource_parameters(method: Any) -> List[str]:
    """The parameters of a CommandList method that take a resource (by the names the bindings use)."""
    doc = (method.__doc__ or "").split("\n", 1)[0]
    params = doc[doc.find("(") + 1:doc.rfind(")")]
    wanted = {"resource", "buffer", "texture", "textures", "dst", "src", "depth", "cubemap", "panorama", "before", "after",
              "argument_buffer", "count_buffer",
              "batch"}
    out = []
    for p in params.split(","):
        name, _, annotation = p.partition(":")
        name, annotation = name.strip().lstrip("*"), annotation.split("=")[0].strip()
        if name in wanted and (annotation == "object" or
                               re.search(r"dx12kit\.dx12core\.(BarrierBatch|Resource|Buffer|Texture)\b", annotation)):
            out.append(name)
    return out


NOT_RESOURCES = {("raw_transition", "before"), ("raw_transition", "after")}   # states, named like resources


def test_every_resource_taking_command_list_method_has_a_role() -> None:
    # The graph's checked command list is generated from this table: a method missing from it
    # would let a pass use an undeclared resource in validation mode.
    roles = dx.dx12core.resource_arguments()
    for name in dir(dx.CommandList):
        if name.startswith("_"):
            continue
        method = getattr(dx.CommandList, name)
        if not callable(method):
            continue
        taken = [a for a in _resource_parameters(method) if (name, a) not in NOT_RESOURCES]
        assert set(taken) <= {a for a, _, _, _ in roles.get(name, [])}, f"CommandList.{name} takes {taken} but has no role"
    for name, entries in roles.items():
        assert hasattr(dx.CommandList, name), name
        for argument, position, role, _ in entries:
            assert set(role.split("|")) <= {"read", "write", "render_target", "depth_stencil", "copy_from", "copy_to",
                                            "resolve_from", "resolve_to", "states", "barriers", "layout"}, (name, role)
            assert argument in _resource_parameters(getattr(dx.CommandList, name)), (name, argument)


PANO_OR_BARRIER_USES = [
    ("pano_to_cubemap", lambda cl, cube, pano, other: cl.pano_to_cubemap(cube, other), "did not declare"),
    ("raw_transition", lambda cl, cube, pano, other: cl.raw_transition(other, dx.ResourceState.COMMON,
                                                                        dx.ResourceState.PIXEL_SHADER_RESOURCE), "owns its states"),
    ("uav_barrier", lambda cl, cube, pano, other: cl.uav_barrier(other), "did not declare"),
    ("aliasing_barrier", lambda cl, cube, pano, other: cl.aliasing_barrier(None, other), "owns its states"),
    ("resource_barriers", lambda cl, cube, pano, other: cl.resource_barriers(dx.BarrierBatch([("uav", other)])), "did not declare"),
    ("resource_barriers", lambda cl, cube, pano, other: cl.resource_barriers(
        dx.BarrierBatch([("transition", other, "copy_source")])), "owns its states"),
]


@pytest.mark.parametrize("method,use,message", PANO_OR_BARRIER_USES,
                         ids=[f"{m}-{i}" for i, (m, _, _) in enumerate(PANO_OR_BARRIER_USES)])
def test_validation_checks_every_resource_taking_method(method: str, use: Any, message: str) -> None:
    dev = dx.Device(validate=True)
    cube = dev.create_texture2d(8, 8, "rgba16_float", array_size=6, uav=True, name="cube")
    pano = dev.create_texture2d(16, 8, "rgba16_float", name="pano")
    g = dx.RenderGraph(dev)
    c, p = g.import_resource(cube), g.import_resource(pano)
    real = dev.create_texture2d(16, 8, "rgba16_float", uav=True, name="undeclared")
    other = g.import_resource(real)
    # The real texture reaches the pass by closure, not through res[] (which refuses undeclared handles):
    # the checked command list must still see it is a graph resource the pass did not declare.
    g.add_pass("sneaky", lambda cl, r: use(cl, r[c], r[p], real), writes=[c], reads=[p], side_effects=True)
    g.add_pass("keep", lambda cl, r: None, reads=[other], side_effects=True)
    with pytest.raises(dx.GraphError, match=f"pass 'sneaky'.*{method}.*'undeclared'.*{message}"):
        g.execute()
    dev.wait_idle()


def test_add_pass_refuses_a_record_that_is_not_callable(dev: dx.Device) -> None:
    g = dx.RenderGraph(dev)
    t = g.create_texture("t", 8, 8, "rgba8_unorm")
    with pytest.raises(TypeError, match="add_pass 'the_pass': record must be callable"):
        g.add_pass("the_pass", "not callable", render_targets=[t], side_effects=True)  # type: ignore[arg-type]


def test_dot_escapes_every_name(dev: dx.Device) -> None:
    import re

    g = dx.RenderGraph(dev)
    o = g.import_resource(dev.create_buffer(64, name='out"put'))
    t = g.create_buffer('we"ird\\name\nx', 64)
    g.add_pass('pa"ss\none', lambda cl, r: None, copy_to=[t], side_effects=True)
    g.add_pass("se}c{ond", lambda cl, r: None, copy_from=[t], copy_to=[o])
    dot = g.to_dot()
    strings = re.findall(r'"(?:[^"\\\n]|\\.)*"', dot)
    outside = re.sub(r'"(?:[^"\\\n]|\\.)*"', "", dot)
    assert '"' not in outside, dot
    assert r'"0: pa\"ss\none"' in strings and r'"we\"ird\\name\nx\n64 B\n64 KiB @ 0 KiB"' in strings or any(
        s.startswith(r'"we\"ird\\name\nx\n64 B') for s in strings), strings
    assert r'"out\"put\n(imported)"' in strings, strings


@pytest.mark.parametrize("form", ["texture", "list", "generator"])
def test_validation_takes_every_form_of_render_targets(form: str) -> None:
    dev = dx.Device(validate=True)
    q = dev.queue()
    out = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="out")
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)

    def record(cl: Any, r: Any) -> None:
        t = r[o]
        targets = t if form == "texture" else [t] if form == "list" else (x for x in [t])
        cl.set_render_targets(targets)
        cl.clear_render_target(t, [0.25, 0.5, 0.75, 1.0])

    g.add_pass("clear", record, render_targets=[o], side_effects=True)
    q.wait(g.execute())
    assert (q.read_texture(out)[0, 0] == [64, 128, 191, 255]).all()


def test_transient_first_written_on_compute_then_render_target(dev: dx.Device) -> None:
    # A placed render target first used on the compute queue is initialised there by a discard in
    # UNORDERED_ACCESS (a compute list can neither clear nor hold RENDER_TARGET), then drawn on.
    frame = dev.create_texture2d(16, 16, "rgba8_unorm", render_target=True, name="frame")
    for validate in (False, True):
        d = dx.Device(validate=True) if validate else dev
        out_tex = frame if not validate else d.create_texture2d(16, 16, "rgba8_unorm", render_target=True, name="frame")
        g = dx.RenderGraph(d)
        out = g.import_resource(out_tex)
        t = g.create_texture("t", 16, 16, "rgba8_unorm")
        g.add_pass("fill", lambda cl, r: cl.clear_unordered_access_view(r[t], (0.25, 0.5, 0.75, 1.0)), queue="compute",
                   writes=[t])
        g.add_pass("bind", lambda cl, r: None, render_targets=[t])   # bound, not cleared: the compute values stay
        g.add_pass("copy", lambda cl, r: cl.copy_resource(r[out], r[t]), copy_from=[t], copy_to=[out])
        q = d.queue("direct")
        q.wait(g.execute())
        px = q.read_texture(out_tex)
        assert (px.reshape(-1, 4) == (64, 128, 191, 255)).all(), px[0, 0]
