"""History resources of dx12kit.RenderGraph: contents kept from one execution to the next (ping-pong
versions), checked against numpy on the real device."""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np
import pytest

import dx12kit as dx

N = 16
ALPHA = 0.25
FRAME_CS = """
cbuffer C : register(b0) { uint frame; };
RWTexture2D<float> o : register(u0);
[numthreads(8, 8, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.xy] = float(i.x + i.y * 16 + frame * 7); }
"""
ACCUMULATE_CS = """
Texture2D<float> prev : register(t0);
Texture2D<float> cur : register(t1);
RWTexture2D<float> o : register(u0);
[numthreads(8, 8, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.xy] = lerp(prev[i.xy], cur[i.xy], 0.25); }
"""


def frame_input(k: int) -> np.ndarray:
    y, x = np.mgrid[0:N, 0:N]
    return (x + y * N + k * 7).astype(np.float32)


def _pipelines(dev: dx.Device) -> Tuple[Any, Any]:
    rs_frame = dev.create_root_signature([dx.RootConstants(0, 1), dx.DescriptorTable([dx.UAV(0)])])
    rs_acc = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0, count=2), dx.UAV(0)])])
    return (dev.create_compute_pipeline(dx.compile_hlsl(FRAME_CS, profile="cs_5_0"), rs_frame),
            dev.create_compute_pipeline(dx.compile_hlsl(ACCUMULATE_CS, profile="cs_5_0"), rs_acc))


def taa_graph(dev: dx.Device, out: dx.Texture, counter: list, queue: str = "direct") -> Tuple[dx.RenderGraph, Any]:
    """Each execution: render this frame's input (a transient), accum = lerp(accum.previous(), input, 0.25),
    copy accum to the imported ``out``."""
    frame_pso, acc_pso = _pipelines(dev)
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    acc = g.create_history("accum", N, N, "r32_float")
    cur = g.create_texture("frame", N, N, "r32_float")

    def render(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(frame_pso)
        cl.set_constants(0, np.array([counter[0]], np.uint32))
        cl.set_unordered_access_view(1, 0, r[cur])
        cl.dispatch(N // 8, N // 8)

    def accumulate(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(acc_pso)
        cl.set_shader_resource_view(0, 0, r[acc.previous()])
        cl.set_shader_resource_view(0, 1, r[cur])
        cl.set_unordered_access_view(0, 2, r[acc])
        cl.dispatch(N // 8, N // 8)

    g.add_pass("render", render, queue=queue, writes=[cur])
    g.add_pass("accumulate", accumulate, queue=queue, reads=[acc.previous(), cur], writes=[acc])
    g.add_pass("present", lambda cl, r: cl.copy_resource(r[o], r[acc]), copy_from=[acc], copy_to=[o])
    return g, acc


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validated"])
@pytest.mark.parametrize("queue", ["direct", "compute"])
def test_eight_frame_accumulation_in_one_graph_matches_numpy(validate: bool, queue: str) -> None:
    dev = dx.Device(validate=validate)
    q = dev.queue()
    out = dev.create_texture2d(N, N, "r32_float", name="out")
    counter = [0]
    g, acc = taa_graph(dev, out, counter, queue)
    expect = np.zeros((N, N), np.float32)   # the previous version before the first frame: zeros
    seen = set()
    for k in range(8):
        counter[0] = k
        q.wait(g.execute())
        x = frame_input(k)
        expect = expect + np.float32(ALPHA) * (x - expect)
        got = q.read_texture(out).reshape(N, N)
        np.testing.assert_allclose(got, expect, rtol=1e-6, atol=1e-5)
        # the written version is the one the next execution reads as previous
        seen.add(id(g.history_resource(acc)))
        assert g.history_resource(acc) is not g.history_resource(acc.previous())
    assert len(seen) == 2   # two versions, ping-ponged
    np.testing.assert_allclose(q.read_texture(g.history_resource(acc)).reshape(N, N), expect, rtol=1e-6, atol=1e-5)
    assert g.stats()["transients"] == 1   # only the frame input is transient; the history is not aliased
    dot = g.to_dot()
    assert "accum\\n(history)" in dot and "accum (previous)\\n(history, previous)" in dot
    assert f"r{acc.index} -> r{acc.previous().index} [style=dashed, label=\"next execution\"]" in dot


def test_previous_reads_as_zeros_before_any_execution_wrote_it() -> None:
    dev = dx.Device()
    q = dev.queue()
    out = dev.create_texture2d(N, N, "rgba8_unorm", render_target=True, name="out")
    g = dx.RenderGraph(dev)
    o = g.import_resource(out)
    h = g.create_history("h", N, N, "rgba8_unorm")
    g.add_pass("show_previous", lambda cl, r: cl.copy_resource(r[o], r[h.previous()]), copy_from=[h.previous()],
               copy_to=[o])
    g.add_pass("write", lambda cl, r: None, render_targets=[h], clear={h: (1.0, 0.5, 0.0, 1.0)})
    q.wait(g.execute())
    assert (q.read_texture(out) == 0).all()              # before any write: zeros
    q.wait(g.execute())
    assert (q.read_texture(out) == [255, 128, 0, 255]).all()   # the first execution's write


COUNT_CS = """
StructuredBuffer<uint> prev : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = prev[i.x] + i.x + 1; }
"""


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validated"])
def test_history_buffer_adds_up_over_executions(validate: bool) -> None:
    dev = dx.Device(validate=validate)
    q = dev.queue()
    rs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(COUNT_CS, profile="cs_5_0"), rs)
    g = dx.RenderGraph(dev)
    h = g.create_history("counter", size=64 * 4)

    def step(cl: Any, r: Any) -> None:   # counter = previous + i + 1
        cl.set_pipeline_state(pso)
        cl.set_root_srv(0, r[h.previous()])
        cl.set_root_uav(1, r[h])
        cl.dispatch(1)

    g.add_pass("count", step, queue="compute", reads=[h.previous()], writes=[h])
    for k in range(1, 6):
        q.wait(g.execute())
        assert (q.read_buffer(g.history_resource(h), np.uint32) == (np.arange(64) + 1) * k).all()


def test_history_declaration_errors() -> None:
    dev = dx.Device()
    g = dx.RenderGraph(dev)
    t = g.create_texture("t", 8, 8, "rgba8_unorm")
    with pytest.raises(dx.GraphError, match="'t' is not a history resource"):
        t.previous()
    h = g.create_history("h", 8, 8, "rgba8_unorm")
    with pytest.raises(dx.GraphError, match="'h \\(previous\\)' is not a history resource"):
        h.previous().previous()
    with pytest.raises(dx.GraphError, match="a resource named 'h' exists already"):
        g.create_history("h", size=16)
    with pytest.raises(dx.GraphError, match="not both"):
        g.create_history("b", 8, size=16)
    with pytest.raises(dx.GraphError, match="needs width, height and format"):
        g.create_history("c", 8, 8)
    with pytest.raises(dx.GraphError, match="has no versions yet"):
        g.history_resource(h)
    with pytest.raises(dx.GraphError, match="not a history handle"):
        g.history_resource(t)


SHOW_PS = """
Texture2D<float> t : register(t0);
float main(float4 pos : SV_Position) : SV_Target { return t.Load(int3(pos.xy, 0)) + 0.5; }
"""
PLUS_ONE_CS = """
Texture2D<float> src : register(t0);
RWStructuredBuffer<float> o : register(u0);
[numthreads(8, 8, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x + i.y * 16] = src[i.xy] + 1; }
"""
FILL_CS = """
cbuffer C : register(b0) { float v; };
RWTexture2D<float> o : register(u0);
[numthreads(8, 8, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.xy] = v + i.x; }
"""


def _healed_on_direct(dev: dx.Device) -> int:
    """Transitions the compute queue's last execute could not record itself (dx12kit ran them on the
    direct queue, in a submission of their own that the compute queue waited for)."""
    return len(dev.queue("compute").last_direct_queue_barriers)


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validated"])
def test_history_left_in_a_pixel_read_state_is_handed_to_the_compute_queue_by_the_direct_list(validate: bool) -> None:
    """The version written this execution is last read by a pixel shader (PIXEL | NON_PIXEL_SHADER_RESOURCE,
    a state the compute queue may not leave) and read first on the compute queue as previous() in the next
    execution: the drawing pass hands it over after its work, so execute has nothing to fix on the direct
    queue."""
    from .shaders import FULLSCREEN_POS_VS
    dev = dx.Device(validate=validate)
    q = dev.queue()
    img = dev.create_texture2d(N, N, "r32_float", render_target=True, name="img")
    outb = dev.create_buffer(N * N * 4, uav=True, name="outb")
    plus_one = dev.create_compute_pipeline(dx.compile_hlsl(PLUS_ONE_CS, profile="cs_5_0"))
    fill = dev.create_compute_pipeline(dx.compile_hlsl(FILL_CS, profile="cs_5_0"))
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)])])   # PS | NPS, the state the graph asks
    show = dev.create_graphics_pipeline(dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0"),
                                        dx.compile_hlsl(SHOW_PS, profile="ps_5_0"), rs, ["r32_float"])
    g = dx.RenderGraph(dev)
    h = g.create_history("h", N, N, "r32_float")
    o, shown = g.import_resource(outb), g.import_resource(img)
    frame = [0]

    def read_previous(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(plus_one)
        cl.bind(src=r[h.previous()], o=r[o])
        cl.dispatch(N // 8, N // 8)

    def write(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(fill)
        cl.bind(C={"v": float(frame[0] + 10)}, o=r[h])
        cl.dispatch(N // 8, N // 8)

    def draw(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(show)
        cl.set_shader_resource_view(0, 0, r[h])
        cl.draw(3)

    g.add_pass("read previous", read_previous, queue="compute", reads=[h.previous()], writes=[o])
    g.add_pass("write", write, writes=[h])
    g.add_pass("show", draw, reads=[h], render_targets=[shown])
    xs = np.tile(np.arange(N, dtype=np.float32), (N, 1))
    for k in range(4):
        frame[0] = k
        q.wait(g.execute())
        np.testing.assert_array_equal(q.read_texture(img).reshape(N, N), xs + k + 10.5)
        expect_out = xs + k + 10 if k else np.ones((N, N), np.float32)   # previous() + 1; zeros before any write
        np.testing.assert_array_equal(q.read_buffer(outb, np.float32).reshape(N, N), expect_out)
        if k:
            assert _healed_on_direct(dev) == 0
    # the draw's handoff, and the compute read's move of previous() to UNORDERED_ACCESS (written next execution)
    assert g.stats()["barriers"]["queue_handoff"] == 2


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validated"])
def test_imported_texture_rendered_last_is_handed_to_its_first_compute_reader_by_the_direct_list(validate: bool) -> None:
    """An imported texture read first on the compute queue and rendered into last on the direct queue: each
    execution ends with the render-target pass moving it to the compute read state (the compute queue may
    not leave RENDER_TARGET), so the next execution's compute list starts without a fix-up on the direct
    queue."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    tex = dev.create_texture2d(N, N, "r32_float", render_target=True, name="tex")
    outb = dev.create_buffer(N * N * 4, uav=True, name="outb")
    plus_one = dev.create_compute_pipeline(dx.compile_hlsl(PLUS_ONE_CS, profile="cs_5_0"))
    g = dx.RenderGraph(dev)
    t, o = g.import_resource(tex), g.import_resource(outb)
    frame = [0]

    def read(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(plus_one)
        cl.bind(src=r[t], o=r[o])
        cl.dispatch(N // 8, N // 8)

    g.add_pass("read", read, queue="compute", reads=[t], writes=[o])
    g.add_pass("render", lambda cl, r: cl.clear_render_target(r[t], (frame[0] + 2.0, 0, 0, 0)), render_targets=[t])
    for k in range(4):
        frame[0] = k
        q.wait(g.execute())
        expect = np.full((N, N), k + 2.0 if k else 1.0, np.float32)   # last execution's clear + 1 (zeros first)
        np.testing.assert_array_equal(q.read_buffer(outb, np.float32).reshape(N, N), expect)
        if k:
            assert _healed_on_direct(dev) == 0
    assert g.stats()["barriers"]["queue_handoff"] == 1
    assert (q.read_texture(tex) == k + 2.0).all()


def _count_graph(dev: dx.Device, pso: Any, store: Any) -> Tuple[dx.RenderGraph, Any]:
    g = dx.RenderGraph(dev, histories=store)
    h = g.create_history("counter", size=64 * 4)

    def step(cl: Any, r: Any) -> None:   # counter = previous + i + 1
        cl.set_pipeline_state(pso)
        cl.set_root_srv(0, r[h.previous()])
        cl.set_root_uav(1, r[h])
        cl.dispatch(1)

    g.add_pass("count", step, reads=[h.previous()], writes=[h])
    return g, h


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validated"])
def test_history_store_carries_histories_across_rebuilt_graphs(validate: bool) -> None:
    dev = dx.Device(validate=validate)
    q = dev.queue()
    rs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(COUNT_CS, profile="cs_5_0"), rs)
    store = dx.HistoryStore()
    executions = 0
    for k in range(5):   # a new graph every frame, as engines build them
        g, h = _count_graph(dev, pso, store)
        for _ in range(2 if k == 2 else 1):   # two executions of one graph between rebuilds carry on as well
            q.wait(g.execute())
            executions += 1
            assert (q.read_buffer(g.history_resource(h), np.uint32) == (np.arange(64) + 1) * executions).all()
    assert executions == 6
    assert store.names() == ["counter"] and len(store) == 1 and "counter" in store
    assert "counter" in repr(store)
    g, h = _count_graph(dev, pso, None)   # without a store: a graph of its own, from zeros
    q.wait(g.execute())
    assert (q.read_buffer(g.history_resource(h), np.uint32) == np.arange(64) + 1).all()


def test_history_store_refuses_an_older_graph_and_restarts_on_another_description() -> None:
    dev = dx.Device()
    q = dev.queue()
    rs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(COUNT_CS, profile="cs_5_0"), rs)
    store = dx.HistoryStore()
    old, _ = _count_graph(dev, pso, store)
    q.wait(old.execute())
    new, h = _count_graph(dev, pso, store)
    q.wait(new.execute())
    with pytest.raises(dx.GraphError, match="'counter'.*newer RenderGraph.*same HistoryStore"):
        old.execute()
    q.wait(new.execute())   # the newest graph carries on, untouched by the refused one
    assert (q.read_buffer(new.history_resource(h), np.uint32) == (np.arange(64) + 1) * 3).all()
    g = dx.RenderGraph(dev, histories=store)   # the same name, another size: new versions, from zeros
    h2 = g.create_history("counter", size=128 * 4)

    def step(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(pso)
        cl.set_root_srv(0, r[h2.previous()])
        cl.set_root_uav(1, r[h2])
        cl.dispatch(2)

    g.add_pass("count", step, reads=[h2.previous()], writes=[h2])
    q.wait(g.execute())
    assert (q.read_buffer(g.history_resource(h2), np.uint32) == np.arange(128) + 1).all()
    store.clear()
    assert len(store) == 0
    with pytest.raises(TypeError, match="HistoryStore"):
        dx.RenderGraph(dev, histories={})  # type: ignore[arg-type]


def test_clearing_the_store_restarts_a_graph_built_with_it_from_zeros() -> None:
    dev = dx.Device()
    q = dev.queue()
    rs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(COUNT_CS, profile="cs_5_0"), rs)
    store = dx.HistoryStore()
    g, h = _count_graph(dev, pso, store)
    q.wait(g.execute())
    q.wait(g.execute())
    store.clear()   # a reset (a camera cut): the same graph carries on from zeros
    for k in (1, 2):
        q.wait(g.execute())
        assert (q.read_buffer(g.history_resource(h), np.uint32) == (np.arange(64) + 1) * k).all()
    assert store.names() == ["counter"]


def test_a_store_holding_another_devices_history_is_refused() -> None:
    dev, other = dx.Device(), dx.Device()
    store = dx.HistoryStore()
    for d in (dev, other):
        rs = d.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
        pso = d.create_compute_pipeline(dx.compile_hlsl(COUNT_CS, profile="cs_5_0"), rs)
        g, h = _count_graph(d, pso, store)
        if d is dev:
            d.queue().wait(g.execute())
            continue
        with pytest.raises(dx.GraphError, match="'counter'.*holds it for another Device"):
            g.execute()
        store.clear()
        d.queue().wait(g.execute())
        assert (d.queue().read_buffer(g.history_resource(h), np.uint32) == np.arange(64) + 1).all()


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validated"])
@pytest.mark.parametrize("first", ["copy", "compute"])
def test_imported_texture_written_last_on_the_compute_queue_is_moved_there_for_its_next_first_use(
        validate: bool, first: str) -> None:
    """An imported texture written last by a compute-queue pass (UNORDERED_ACCESS) and used first in the next
    execution by a copy-queue copy (COPY_SOURCE, a state the copy queue may not leave UNORDERED_ACCESS for) or a
    compute read: the writing pass moves it to the state that first use needs, in its own list, so execute
    records nothing for it: no direct-queue fix-up for the copy queue and no transition list before either."""
    dev = dx.Device(validate=validate)
    q = dev.queue()
    tex = dev.create_texture2d(N, N, "r32_float", uav=True, name="tex")
    cpy = dev.create_texture2d(N, N, "r32_float", name="cpy")
    outb = dev.create_buffer(N * N * 4, uav=True, name="outb")
    fill = dev.create_compute_pipeline(dx.compile_hlsl(FILL_CS, profile="cs_5_0"))
    plus_one = dev.create_compute_pipeline(dx.compile_hlsl(PLUS_ONE_CS, profile="cs_5_0"))
    g = dx.RenderGraph(dev)
    t, c, o = g.import_resource(tex), g.import_resource(cpy), g.import_resource(outb)
    frame = [0]

    def read(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(plus_one)
        cl.bind(src=r[t], o=r[o])
        cl.dispatch(N // 8, N // 8)

    def write(cl: Any, r: Any) -> None:
        cl.set_pipeline_state(fill)
        cl.bind(C={"v": float(frame[0] + 10)}, o=r[t])
        cl.dispatch(N // 8, N // 8)

    if first == "copy":
        g.add_pass("copy", lambda cl, r: cl.copy_resource(r[c], r[t]), queue="copy", copy_from=[t], copy_to=[c])
    else:
        g.add_pass("read", read, queue="compute", reads=[t], writes=[o])
    g.add_pass("write", write, queue="compute", writes=[t])
    xs = np.tile(np.arange(N, dtype=np.float32), (N, 1))
    queue = dev.queue(first)
    for k in range(4):
        frame[0] = k
        before = dev.stats()["barriers"]["inserted_at_execute"]
        q.wait(g.execute())
        seen = q.read_texture(cpy)[..., 0] if first == "copy" else q.read_buffer(outb, np.float32).reshape(N, N) - 1
        np.testing.assert_array_equal(seen, xs + k + 9 if k else np.zeros((N, N), np.float32))   # the last write
        if k:
            assert queue.last_direct_queue_barriers == []
            assert [b for b in queue.last_inserted_barriers if b[1] == "tex"] == []
            if first == "compute":
                assert dev.stats()["barriers"]["inserted_at_execute"] == before
    assert g.stats()["barriers"]["queue_handoff"] == 1
    assert (q.read_texture(tex)[..., 0] == xs + 13).all()
