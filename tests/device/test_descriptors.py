"""Descriptors on the real device: CPU descriptor allocation, shader-visible chunks, the dynamic
descriptor heap behind set_shader_resource_view / set_unordered_access_view / set_sampler, and
deferred reuse. Every pixel and every buffer element read back is compared exactly."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

import dx12kit as dx
from dx12kit.dx12core import descriptors as D

from .shaders import FULLSCREEN_VS

# ---------------------------------------------------------------------------------------- shaders

# Each pixel of a cell gets the texel at the same position of four r32_uint textures.
FOUR_TEXTURES_PS = """
Texture2D<uint> t0 : register(t0);
Texture2D<uint> t1 : register(t1);
Texture2D<uint> t2 : register(t2);
Texture2D<uint> t3 : register(t3);
cbuffer Origin : register(b0) { uint2 origin; };
uint4 main(float4 pos : SV_Position) : SV_Target {
    int3 p = int3(int2(pos.xy) - int2(origin), 0);
    return uint4(t0.Load(p), t1.Load(p), t2.Load(p), t3.Load(p));
}
"""

# Reads only the first three slots of a four-slot table (slot 3 is never staged in that test).
THREE_OF_FOUR_PS = """
Texture2D<uint> t0 : register(t0);
Texture2D<uint> t1 : register(t1);
Texture2D<uint> t2 : register(t2);
uint4 main(float4 pos : SV_Position) : SV_Target {
    int3 p = int3(0, 0, 0);
    return uint4(t0.Load(p), t1.Load(p), t2.Load(p), 99);
}
"""

# Two UAVs through one table; dispatch d stores one value into each at element d.
TWO_UAVS_CS = """
RWByteAddressBuffer a : register(u0);
RWByteAddressBuffer b : register(u1);
cbuffer C : register(b0) { uint d; uint va; uint vb; };
[numthreads(1, 1, 1)]
void main() { a.Store(d * 4, va); b.Store(d * 4, vb); }
"""

# A slow pixel shader (a loop the compiler cannot fold) that returns texel (0, 0) unchanged.
SLOW_PS = """
Texture2D<float4> t : register(t0);
cbuffer C : register(b0) { uint iters; };
float4 main(float4 pos : SV_Position) : SV_Target {
    float x = pos.x;
    [loop] for (uint i = 0; i < iters; ++i) x = x * 0.999 + 1.0;
    float4 c = t.Load(int3(0, 0, 0));
    return x < -1.0 ? float4(0, 0, 0, 0) : c;
}
"""

# Samples a 4x1 texture at u (outside [0, 1]) with the bound sampler: the address mode shows.
SAMPLE_PS = """
Texture2D<float4> t : register(t0);
SamplerState s : register(s0);
cbuffer C : register(b0) { float u; };
float4 main(float4 pos : SV_Position) : SV_Target { return t.Sample(s, float2(u, 0.5)); }
"""

CELL = 4  # every draw writes its own CELL x CELL region


def cell_origin(d: int, grid: int) -> tuple[int, int]:
    return (d % grid) * CELL, (d // grid) * CELL


def set_cell(cl, d: int, grid: int) -> tuple[int, int]:
    x, y = cell_origin(d, grid)
    cl.set_viewport(x, y, CELL, CELL)
    cl.set_scissor(x, y, x + CELL, y + CELL)
    return x, y


def shader_visible(dev, kind: str = "cbv_srv_uav") -> dict:
    return dev.descriptor_stats()[kind]["shader_visible"]


# --------------------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def small_chunks():
    """A device whose command lists take dynamic descriptors 64 at a time, so chunks run out often."""
    dev = dx.Device(dynamic_chunk_size=64, sampler_chunk_size=16)
    yield dev, dev.queue("direct")
    dev.wait_idle()


@pytest.fixture(scope="module")
def vs():
    return dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0")


def make_uint_textures(dev, queue, n: int) -> tuple[list, np.ndarray]:
    """n CELL x CELL r32_uint textures; texel (y, x) of texture i holds i*16 + y*4 + x + 1."""
    values = (np.arange(n, dtype=np.uint32)[:, None, None] * 16
              + np.arange(CELL * CELL, dtype=np.uint32).reshape(CELL, CELL)[None] + 1)
    textures = [dev.create_texture2d(CELL, CELL, "r32_uint", name=f"tex{i}") for i in range(n)]
    cl = queue.command_list()
    for t, v in zip(textures, values):
        cl.upload(t, v[:, :, None])
    queue.execute(cl)
    return textures, values


# ----------------------------------------------------------------------------- draws and dispatches

def test_thousand_draws_four_random_textures_with_small_chunks(small_chunks, vs):
    """1000 draws, each binding 4 of 500 textures (random picks, staged in random slot order) through
    one table; 64-descriptor chunks run out ~60 times in the one list. Every cell is exact."""
    dev, q = small_chunks
    rng = np.random.default_rng(3)
    n_tex, n_draws, grid = 500, 1000, 32
    textures, values = make_uint_textures(dev, q, n_tex)
    ps = dx.compile_hlsl(FOUR_TEXTURES_PS, profile="ps_5_0")
    rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.DescriptorTable([dx.SRV(0, count=4)])])
    pso = dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba32_uint"])
    rt = dev.create_texture2d(grid * CELL, grid * CELL, "rgba32_uint", render_target=True)

    picks = rng.integers(0, n_tex, (n_draws, 4))
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    for d in range(n_draws):
        x, y = set_cell(cl, d, grid)
        cl.set_constants(0, [x, y])
        for slot in rng.permutation(4):
            cl.set_shader_resource_view(1, int(slot), textures[picks[d, slot]])
        cl.draw(3)
    held = shader_visible(dev)["chunks_in_use"]
    assert held >= n_draws * 4 // 64  # the list went through many chunks
    q.wait(q.execute(cl))

    out = q.read_texture(rt)
    expected = np.zeros_like(out)
    for d in range(n_draws):
        x, y = cell_origin(d, grid)
        for k in range(4):
            expected[y:y + CELL, x:x + CELL, k] = values[picks[d, k]]
    np.testing.assert_array_equal(out, expected)

    # Binding a texture many times created one view; every chunk came back after completion.
    assert all(t.cached_views == 1 for t in textures if t.cached_views)
    dev.poll()
    sv = shader_visible(dev)
    assert sv["chunks_in_use"] == 0 and sv["chunks_retired"] == 0
    assert sv["peak_dynamic_in_use"] >= n_draws * 4


def test_many_dispatches_write_uavs_bound_through_tables(small_chunks):
    """1000 dispatches, each binding 2 of 64 UAV buffers (random) through a table and storing one
    value in each; buffers first cleared with clear_unordered_access_view (the single-descriptor
    copy path). Every element of every buffer is exact."""
    dev, q = small_chunks
    rng = np.random.default_rng(5)
    n_buf, n_disp = 64, 1000
    cs = dx.compile_hlsl(TWO_UAVS_CS, profile="cs_5_0")
    rs = dev.create_root_signature([dx.RootConstants(0, 3), dx.DescriptorTable([dx.UAV(0, count=2)])])
    pso = dev.create_compute_pipeline(cs, rs)
    bufs = [dev.create_buffer(n_disp * 4, uav=True, name=f"uav{i}") for i in range(n_buf)]
    expected = np.full((n_buf, n_disp), 7, np.uint32)

    cl = q.command_list()
    for b in bufs:
        cl.clear_unordered_access_view(b, [7, 7, 7, 7])
    cl.set_pipeline_state(pso)
    for d in range(n_disp):
        a, b = rng.choice(n_buf, 2, replace=False)
        cl.set_constants(0, [d, 2 * d + 1, 2 * d + 2])
        cl.set_unordered_access_view(1, 0, bufs[a])
        cl.set_unordered_access_view(1, 1, bufs[b])
        cl.dispatch(1)
        expected[a, d] = 2 * d + 1
        expected[b, d] = 2 * d + 2
    q.wait(q.execute(cl))
    for i, b in enumerate(bufs):
        np.testing.assert_array_equal(q.read_buffer(b, dtype=np.uint32), expected[i], err_msg=f"buffer {i}")


def test_unset_slot_below_highest_staged_slot_refused(device, queue, vs):
    """Slots 0 and 2 of a 4-slot table staged: slot 1 (below the highest staged slot) would hold the
    null descriptor and read 0, so the draw is refused (plain and validation mode alike): the shader
    reads t1, which was never set. Once t1 is set the draw reads all three; slot 3 is never copied
    (and never read)."""
    textures, values = make_uint_textures(device, queue, 3)
    ps = dx.compile_hlsl(THREE_OF_FOUR_PS, profile="ps_5_0")
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0, count=4)])])
    pso = device.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba32_uint"])
    rt = device.create_texture2d(4, 4, "rgba32_uint", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.set_shader_resource_view(0, 0, textures[0])
    cl.set_shader_resource_view(0, 2, textures[1])
    with pytest.raises(dx.InvalidArgumentError, match=r"reads t1 .*root parameter 0, slot 1, which was never set"):
        cl.draw(3)
    cl.set_shader_resource_view(0, 1, textures[2])
    cl.draw(3)
    queue.execute(cl)
    out = queue.read_texture(rt)
    assert (out == np.array([values[0, 0, 0], values[2, 0, 0], values[1, 0, 0], 99], np.uint32)).all()


# ------------------------------------------------------------------------------------ deferred reuse

@pytest.mark.parametrize("option", ["static_descriptors", "gpu_page_size"])
def test_removed_device_options_raise_clearly(option):
    """The device reserves no static descriptors and has no GPU-exclusive upload pages (nothing used
    them): the old options raise naming the option instead of being silently ignored."""
    with pytest.raises(dx.InvalidArgumentError, match=f"{option} was removed"):
        dx.Device(**{option: 4096})


def test_device_heaps_are_all_dynamic(device):
    """Every shader-visible descriptor is in the dynamic part: no reserved static slots."""
    for heap in ("cbv_srv_uav", "sampler"):
        s = device.descriptor_stats()[heap]["shader_visible"]
        assert s["static_capacity"] == 0 and s["dynamic_capacity"] > 0

def test_chunk_freed_by_a_completion_nobody_applied_yet_is_used_not_reported_exhausted():
    """The interleaving that made the test below fail on a fast machine, forced: list 1's work has
    completed on the GPU, but nothing has polled since, so its chunk is still counted as retired
    when list 2 runs out. The allocator's wait for progress sees that completion: it must apply
    it (the chunk becomes free) rather than find nothing in flight and report the heap exhausted."""
    dev = dx.Device(descriptor_heap_size=4 * 64, dynamic_chunk_size=64)
    q = dev.queue()
    vs = dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(SLOW_PS, profile="ps_5_0")
    rs = dev.create_root_signature([dx.RootConstants(0, 1), dx.DescriptorTable([dx.SRV(0)])])
    pso = dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])
    texs = [dev.create_texture2d(1, 1, "rgba8_unorm") for _ in range(2)]
    rt = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True)
    cl = q.command_list()
    for tex in texs:
        cl.upload(tex, np.array([[[0, 255, 0, 255]]], np.uint8))
    q.wait(q.execute(cl))

    def draws(cl, n):
        cl.set_pipeline_state(pso)
        cl.set_render_targets([rt])
        cl.set_constants(0, [1])
        for i in range(n):
            # Two textures in turn: each draw's table changed (one descriptor copied per draw);
            # re-staging the view a slot holds already would copy nothing.
            cl.set_shader_resource_view(1, 0, texs[i % 2])
            cl.draw(3)

    cl1 = q.command_list()
    draws(cl1, 1)
    cl2 = q.command_list()  # created (it polls) before list 1 is submitted
    f1 = q.execute(cl1)
    assert shader_visible(dev)["chunks_retired"] == 1
    deadline = time.monotonic() + 60
    while q.completed_value < f1:  # reads the fence only: nothing polls, nothing is released
        assert time.monotonic() < deadline, "list 1 never completed"
        time.sleep(0.001)
    assert shader_visible(dev)["chunks_retired"] == 1  # complete, but not applied yet
    draws(cl2, 4 * 64)  # needs all 4 chunks: the 4th is list 1's
    assert shader_visible(dev)["chunks_retired"] == 0
    q.wait(q.execute(cl2))
    np.testing.assert_array_equal(q.read_texture(rt), np.broadcast_to(np.array([0, 255, 0, 255], np.uint8), (8, 8, 4)))


def test_chunk_of_in_flight_list_is_not_reused_before_its_fence():
    """A device with only 4 dynamic chunks. List 1 (slow draw reading a red texture) is submitted and
    left running; list 2 then needs more chunks than are free. While list 1 has not completed, its
    chunk stays retired; list 2 gets it only by waiting for list 1. List 1's pixels stay red."""
    dev = dx.Device(descriptor_heap_size=4 * 64, dynamic_chunk_size=64)
    q = dev.queue()
    vs = dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(SLOW_PS, profile="ps_5_0")
    rs = dev.create_root_signature([dx.RootConstants(0, 1), dx.DescriptorTable([dx.SRV(0)])])
    pso = dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])
    red = dev.create_texture2d(1, 1, "rgba8_unorm")
    greens = [dev.create_texture2d(1, 1, "rgba8_unorm") for _ in range(2)]
    rt1 = dev.create_texture2d(128, 128, "rgba8_unorm", render_target=True)
    rt2 = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True)
    cl = q.command_list()
    cl.upload(red, np.array([[[255, 0, 0, 255]]], np.uint8))
    for green in greens:
        cl.upload(green, np.array([[[0, 255, 0, 255]]], np.uint8))
    q.wait(q.execute(cl))

    cl1 = q.command_list()
    cl1.set_pipeline_state(pso)
    cl1.set_render_targets([rt1])
    cl1.set_constants(0, [3000])
    cl1.set_shader_resource_view(1, 0, red)
    cl1.draw(3)
    f1 = q.execute(cl1)
    assert shader_visible(dev)["chunks_retired"] == 1

    cl2 = q.command_list()
    cl2.set_pipeline_state(pso)
    cl2.set_render_targets([rt2])
    cl2.set_constants(0, [1])
    for i in range(4 * 64):  # one descriptor per draw (two textures in turn: each table changed): needs all 4 chunks
        cl2.set_shader_resource_view(1, 0, greens[i % 2])
        cl2.draw(3)
        sv = shader_visible(dev)  # read before the completed value: a release implies completion
        done = q.completed_value >= f1
        assert sv["chunks_retired"] + sv["chunks_in_use"] <= 4
        assert done or sv["chunks_retired"] == 1, "list 1's chunk was handed out before its fence completed"
    assert q.completed_value >= f1  # the 4th chunk could only come from list 1, after it completed
    q.wait(q.execute(cl2))
    out1 = q.read_texture(rt1)
    assert (out1 == np.array([255, 0, 0, 255], np.uint8)).all()
    assert (q.read_texture(rt2) == np.array([0, 255, 0, 255], np.uint8)).all()
    dev.wait_idle()


def test_cpu_descriptor_freed_in_flight_is_not_reused_before_completion(device, queue, vs):
    """A CPU descriptor freed while a list is in flight (tagged with that list's fence value) is not
    handed out again until the fence completes and stale descriptors are released."""
    alloc = D.CpuDescriptorAllocator(device, "cbv_srv_uav", page_size=8)
    victim = alloc.allocate(1)
    handle = victim.handle()

    ps = dx.compile_hlsl(SLOW_PS, profile="ps_5_0")
    rs = device.create_root_signature([dx.RootConstants(0, 1), dx.DescriptorTable([dx.SRV(0)])])
    pso = device.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])
    tex = device.create_texture2d(1, 1, "rgba8_unorm")
    rt = device.create_texture2d(64, 64, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.set_constants(0, [500])
    cl.set_shader_resource_view(1, 0, tex)
    cl.draw(3)
    fence = queue.execute(cl)

    alloc.current_serial = fence  # what the device does: tag frees with the last submission
    victim.free()
    assert alloc.stats()["stale"] == 1
    others = [alloc.allocate(1) for _ in range(40)]  # several pages' worth
    assert handle not in {o.handle() for o in others}
    alloc.release_stale_descriptors(fence - 1)  # an older submission completing does not free it
    more = [alloc.allocate(1) for _ in range(8)]
    assert handle not in {o.handle() for o in more}

    queue.wait(fence)
    alloc.release_stale_descriptors(queue.completed_value)
    assert alloc.stats()["stale"] == 0
    again = [alloc.allocate(1) for _ in range(8)]  # now the freed slot is the only free one in its page
    assert handle in {a.handle() for a in again}
    alloc.validate()


def test_more_than_2048_samplers_over_many_frames(device, queue, vs):
    """30 frames x 100 new samplers (3000 distinct, more than a shader-visible sampler heap holds):
    sampler chunks and CPU sampler descriptors are only reusable through deferred release. Each
    draw's address mode shows in its cell, so a sampler bound wrongly would show."""
    rng = np.random.default_rng(11)
    # 40 frames of 100 samplers: more than the 2048-slot sampler heap holds in flight (32 chunks of 64),
    # so recording must wait for older frames, whose CPU sampler descriptors are then reused.
    frames, per_frame, grid = 40, 100, 10
    texels = np.array([[[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]]], np.uint8)
    # u = 1.375 is texel coordinate 5.5 of 4: clamp -> texel 3, wrap -> 1, mirror -> 2, border -> 0000
    modes = ["clamp", "wrap", "mirror", "border"]
    mode_colour = [texels[0, 3], texels[0, 1], texels[0, 2], np.zeros(4, np.uint8)]
    tex = device.create_texture2d(4, 1, "rgba8_unorm")
    ps = dx.compile_hlsl(SAMPLE_PS, profile="ps_5_0")
    rs = device.create_root_signature([dx.RootConstants(0, 1), dx.DescriptorTable([dx.SRV(0)]),
                                       dx.DescriptorTable([dx.Sampler(0)])])
    pso = device.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])
    cl = queue.command_list()
    cl.upload(tex, texels)
    queue.execute(cl)
    sampler_capacity_before = device.descriptor_stats()["sampler"]["capacity"]

    targets, choices = [], []
    for _ in range(frames):
        rt = device.create_texture2d(grid * CELL, grid * CELL, "rgba8_unorm", render_target=True)
        pick = rng.integers(0, 4, per_frame)
        samplers = [device.create_sampler(filter="point", address=modes[m]) for m in pick]
        cl = queue.command_list()
        cl.set_pipeline_state(pso)
        cl.set_render_targets([rt])
        cl.set_constants(0, [1.375])
        cl.set_shader_resource_view(1, 0, tex)
        for d, s in enumerate(samplers):
            set_cell(cl, d, grid)
            cl.set_sampler(2, 0, s)
            cl.draw(3)
        queue.execute(cl)  # no wait: frames overlap until the sampler chunks run out
        del samplers, cl
        targets.append(rt)
        choices.append(pick)

    for f, (rt, pick) in enumerate(zip(targets, choices)):
        out = queue.read_texture(rt)
        for d, m in enumerate(pick):
            x, y = cell_origin(d, grid)
            np.testing.assert_array_equal(out[y:y + CELL, x:x + CELL], np.broadcast_to(mode_colour[m], (CELL, CELL, 4)),
                                          err_msg=f"frame {f} draw {d} ({modes[m]})")
    device.wait_idle()
    stats = device.descriptor_stats()["sampler"]
    assert stats["shader_visible"]["chunks_in_use"] == 0
    # 4000 samplers were made, but their CPU descriptors were reused: fewer slots than samplers.
    assert stats["capacity"] - sampler_capacity_before < frames * per_frame


# ------------------------------------------------------------------ the CPU allocator against a model

class CpuAllocatorMachine(RuleBasedStateMachine):
    """The allocator against a model of what is live and what is stale (freed, serial not yet
    released): a new allocation never overlaps either, stats always agree, and everything comes back."""

    device = None  # set by the test below

    def __init__(self):
        super().__init__()
        self.alloc = D.CpuDescriptorAllocator(self.device, "cbv_srv_uav", page_size=8)
        self.stride = self.alloc.descriptor_size
        self.live: dict[int, tuple[object, list[int]]] = {}
        self.stale: list[tuple[int, list[int]]] = []  # (serial, handles)
        self.next_key = 0

    def busy(self) -> set[int]:
        out: set[int] = set()
        for _, hs in self.live.values():
            out.update(hs)
        for _, hs in self.stale:
            out.update(hs)
        return out

    @rule(count=st.integers(1, 12))  # up to 12 > page_size: dedicated pages too
    def allocate(self, count):
        a = self.alloc.allocate(count)
        hs = a.handles()
        assert hs == [hs[0] + i * self.stride for i in range(count)]
        assert self.busy().isdisjoint(hs), "a handle was handed out while live or stale"
        self.live[self.next_key] = (a, hs)
        self.next_key += 1

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def free(self, data):
        key = data.draw(st.sampled_from(sorted(self.live)))
        a, hs = self.live.pop(key)
        a.free()
        assert a.is_null and a.count == 0
        self.stale.append((self.alloc.current_serial, hs))

    @rule()
    def submit(self):
        self.alloc.current_serial = self.alloc.current_serial + 1

    @rule(lag=st.integers(0, 3))
    def release(self, lag):
        completed = max(0, self.alloc.current_serial - lag)
        self.alloc.release_stale_descriptors(completed)
        self.stale = [(s, hs) for s, hs in self.stale if s > completed]

    @invariant()
    def stats_agree(self):
        s = self.alloc.stats()
        assert s["in_use"] == sum(len(hs) for _, hs in self.live.values())
        assert s["stale"] == sum(len(hs) for _, hs in self.stale)
        assert s["in_use"] + s["stale"] <= s["capacity"]
        self.alloc.validate()

    def teardown(self):
        for a, _ in self.live.values():
            a.free()
        self.alloc.release_stale_descriptors(self.alloc.current_serial)
        s = self.alloc.stats()
        assert s["in_use"] == 0 and s["stale"] == 0
        assert s["capacity"] == 8 * s["pages"]  # dedicated pages were destroyed on release
        self.alloc.validate()


def test_cpu_allocator_against_model(device):
    CpuAllocatorMachine.device = device
    run_state_machine_as_test(
        CpuAllocatorMachine,
        settings=settings(max_examples=60, stateful_step_count=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow]),
    )


class ShaderVisibleHeapMachine(RuleBasedStateMachine):
    """Static ranges and dynamic chunks of a shader-visible heap against a model: nothing handed out
    overlaps anything live or waiting for its serial, chunks come back exactly when their serial
    completes (in any retire order), and everything comes back in the end."""

    device = None
    STATIC, CHUNK, CHUNKS = 40, 16, 6

    def __init__(self):
        super().__init__()
        self.heap = D.ShaderVisibleHeap(self.device, "cbv_srv_uav", self.STATIC + self.CHUNK * self.CHUNKS + 5,
                                        static_count=self.STATIC, chunk_size=self.CHUNK)
        self.static_live: dict[int, int] = {}         # first -> count
        self.static_pending: list[tuple[int, int, int]] = []  # (serial, first, count)
        self.chunks_held: set[int] = set()
        self.chunks_retired: list[tuple[int, int]] = []  # (serial, first)
        self.completed = 0

    def static_busy(self) -> set[int]:
        out = {i for f, c in self.static_live.items() for i in range(f, f + c)}
        out |= {i for _, f, c in self.static_pending for i in range(f, f + c)}
        return out

    @rule(count=st.integers(1, 12))
    def allocate_static(self, count):
        busy = self.static_busy()
        try:
            first = self.heap.allocate_static(count)
        except dx.OutOfMemoryError:
            # Only when no run of `count` free slots exists.
            free = [i not in busy for i in range(self.STATIC)]
            assert not any(all(free[i:i + count]) for i in range(self.STATIC - count + 1))
            return
        assert 0 <= first and first + count <= self.STATIC
        assert busy.isdisjoint(range(first, first + count))
        self.static_live[first] = count

    @precondition(lambda self: self.static_live)
    @rule(data=st.data(), ahead=st.integers(0, 3))
    def free_static(self, data, ahead):
        first = data.draw(st.sampled_from(sorted(self.static_live)))
        serial = self.completed + ahead
        self.heap.free_static(first, serial)
        self.static_pending.append((serial, first, self.static_live.pop(first)))

    @rule()
    def acquire(self):
        first = self.heap.try_acquire_chunk()
        unavailable = len(self.chunks_held) + len(self.chunks_retired)
        if first is None:
            assert unavailable == self.CHUNKS
            return
        assert unavailable < self.CHUNKS
        assert (first - self.STATIC) % self.CHUNK == 0 and self.STATIC <= first < self.STATIC + self.CHUNK * self.CHUNKS
        assert first not in self.chunks_held and first not in {f for _, f in self.chunks_retired}
        self.chunks_held.add(first)

    @precondition(lambda self: self.chunks_held)
    @rule(data=st.data(), ahead=st.integers(0, 4))
    def retire(self, data, ahead):
        first = data.draw(st.sampled_from(sorted(self.chunks_held)))
        self.chunks_held.remove(first)
        serial = self.completed + ahead
        self.heap.retire_chunk(first, serial)
        self.chunks_retired.append((serial, first))

    @rule(step=st.integers(0, 2))
    def complete(self, step):
        self.completed += step
        self.heap.release_stale(self.completed)
        self.chunks_retired = [(s, f) for s, f in self.chunks_retired if s > self.completed]
        self.static_pending = [(s, f, c) for s, f, c in self.static_pending if s > self.completed]

    @invariant()
    def stats_agree(self):
        v = self.heap.stats()
        assert v["chunks_in_use"] == len(self.chunks_held)
        assert v["chunks_retired"] == len(self.chunks_retired)
        assert v["dynamic_in_use"] == self.CHUNK * (len(self.chunks_held) + len(self.chunks_retired))
        assert v["static_in_use"] == sum(self.static_live.values()) + sum(c for _, _, c in self.static_pending)
        assert v["dynamic_capacity"] == self.CHUNK * self.CHUNKS and v["static_capacity"] == self.STATIC
        self.heap.validate()

    def teardown(self):
        for f in sorted(self.chunks_held):
            self.heap.retire_chunk(f, self.completed + 1)
        for f in sorted(self.static_live):
            self.heap.free_static(f, self.completed + 1)
        self.heap.release_stale(self.completed + 10)  # past every serial handed out (at most completed + 4)
        v = self.heap.stats()
        assert v["dynamic_in_use"] == 0 and v["static_in_use"] == 0
        self.heap.validate()


def test_shader_visible_heap_against_model(device):
    ShaderVisibleHeapMachine.device = device
    run_state_machine_as_test(
        ShaderVisibleHeapMachine,
        settings=settings(max_examples=60, stateful_step_count=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow]),
    )


def test_shader_visible_heap_limits_and_misuse(device):
    with pytest.raises(dx.InvalidArgumentError, match="2048"):
        D.ShaderVisibleHeap(device, "sampler", 4096, static_count=0, chunk_size=64)
    with pytest.raises(dx.InvalidArgumentError, match="cannot be shader-visible"):
        D.ShaderVisibleHeap(device, "rtv", 64, static_count=0, chunk_size=8)
    with pytest.raises(dx.InvalidArgumentError, match="no room for one chunk"):
        D.ShaderVisibleHeap(device, "cbv_srv_uav", 100, static_count=90, chunk_size=16)
    with pytest.raises(dx.InvalidArgumentError, match="2048"):
        dx.Device(sampler_heap_size=4096)
    heap = D.ShaderVisibleHeap(device, "sampler", 2048, static_count=256, chunk_size=64)
    assert heap.chunk_count == (2048 - 256) // 64
    assert heap.gpu_handle(3) - heap.gpu_handle(0) == 3 * heap.descriptor_size
    with pytest.raises(dx.InvalidArgumentError, match="heap size"):
        heap.cpu_handle(2048)
    first = heap.try_acquire_chunk()
    heap.retire_chunk(first, 1)
    with pytest.raises(dx.InvalidArgumentError, match="not the first index of a chunk in use"):
        heap.retire_chunk(first, 1)
    with pytest.raises(dx.InvalidArgumentError, match="not the first index of a chunk in use"):
        heap.retire_chunk(5, 1)
    with pytest.raises(dx.InvalidArgumentError, match="not in the static part"):
        heap.free_static(300, 1)
    a = heap.allocate_static(200)
    with pytest.raises(dx.OutOfMemoryError, match="no room for 100"):
        heap.allocate_static(100)
    heap.free_static(a, 7)
    with pytest.raises(dx.OutOfMemoryError):
        heap.allocate_static(100)  # the free is deferred until serial 7 completes
    heap.release_stale(7)
    assert heap.allocate_static(100) == 0
    with pytest.raises(dx.InvalidArgumentError, match="count must be at least 1"):
        heap.allocate_static(0)
    heap.validate()


# ----------------------------------------------------------------------------------------- threads

def test_four_native_threads_never_share_a_handle(device):
    """Native threads race in the allocator: the stress loop lives in the benchmark module."""
    bench = pytest.importorskip("dx12kit_bench", reason="needs the benchmark module dx12kit_bench (not in a product-only install)")
    alloc = D.CpuDescriptorAllocator(device, "cbv_srv_uav", page_size=32)
    r = bench.stress_cpu_allocator(alloc, threads=4, iterations=20000, max_count=4, seed=7)
    assert r["duplicates"] == 0 and r["allocations"] > 40000
    alloc.release_stale_descriptors(alloc.current_serial)
    s = alloc.stats()
    assert s["in_use"] == 0 and s["stale"] == 0
    alloc.validate()


def test_four_python_threads_allocating_and_freeing(device):
    """Allocate and free release the GIL, so four Python threads really race in the allocator."""
    alloc = D.CpuDescriptorAllocator(device, "sampler", page_size=16)
    lock = threading.Lock()
    live: set[int] = set()
    errors: list[str] = []

    def worker(seed: int) -> None:
        rng = np.random.default_rng(seed)
        mine = []
        for i in range(3000):
            if not mine or (len(mine) < 32 and rng.random() < 0.6):
                a = alloc.allocate(int(rng.integers(1, 4)))
                hs = a.handles()
                with lock:
                    if not live.isdisjoint(hs):
                        errors.append(f"handles {sorted(live.intersection(hs))} handed out twice")
                    live.update(hs)
                mine.append((a, hs))
            else:
                a, hs = mine.pop(int(rng.integers(len(mine))))
                with lock:
                    live.difference_update(hs)
                a.free()
            if i % 50 == 49:
                with lock:
                    alloc.current_serial = alloc.current_serial + 1
                    completed = alloc.current_serial - 2
                alloc.release_stale_descriptors(max(completed, 0))
        with lock:
            for a, hs in mine:
                live.difference_update(hs)
                a.free()

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    alloc.release_stale_descriptors(alloc.current_serial)
    assert alloc.stats()["in_use"] == 0 and alloc.stats()["stale"] == 0
    alloc.validate()


# ---------------------------------------------------------------------------------------- bad input

def test_allocation_basics_and_use_after_free(device):
    alloc = D.CpuDescriptorAllocator(device, "rtv", page_size=4)
    assert alloc.heap_type == "rtv" and alloc.page_size == 4
    with alloc.allocate(3) as a:
        assert a.count == 3 and len(set(a.handles())) == 3 and a
    assert a.is_null and not a
    with pytest.raises(dx.UseAfterFreeError, match="null"):
        a.handle()
    with pytest.raises(dx.UseAfterFreeError):
        a.handles()
    a.free()  # freeing twice does nothing
    big = alloc.allocate(10)  # larger than a page: a page of its own
    assert alloc.stats()["pages"] == 2 and alloc.stats()["capacity"] == 14
    with pytest.raises(dx.InvalidArgumentError, match="out of range"):
        big.handle(10)
    big.free()
    alloc.release_stale_descriptors(0)
    assert alloc.stats() == {"in_use": 0, "pages": 1, "peak": 10, "stale": 0, "capacity": 4}
    with pytest.raises(dx.InvalidArgumentError, match="count must be at least 1"):
        alloc.allocate(0)
    with pytest.raises(dx.InvalidArgumentError, match="heap_type"):
        D.CpuDescriptorAllocator(device, "textures")
    with pytest.raises(dx.InvalidArgumentError, match="pageSize"):
        D.CpuDescriptorAllocator(device, "dsv", page_size=0)
    with pytest.raises(dx.InvalidArgumentError, match="forward"):
        alloc.current_serial = 5
        alloc.current_serial = 4


@pytest.fixture(scope="module")
def table_pipeline(device, vs):
    ps = dx.compile_hlsl(FOUR_TEXTURES_PS, profile="ps_5_0")
    rs = device.create_root_signature([dx.RootConstants(0, 2), dx.DescriptorTable([dx.SRV(0, count=4)]),
                                       dx.DescriptorTable([dx.Sampler(0)])])
    return device.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba32_uint"])


def test_bad_bindings_raise_clear_errors(device, queue, table_pipeline):
    (tex,), values = make_uint_textures(device, queue, 1)
    sampler = device.create_sampler(filter="point")
    cl = queue.command_list()
    cl.set_pipeline_state(table_pipeline)
    with pytest.raises(dx.InvalidArgumentError, match=r"\[4, 5\) pass the end of the table at root index 1, which holds 4"):
        cl.set_shader_resource_view(1, 4, tex)
    with pytest.raises(dx.InvalidArgumentError, match="root index 0 is not a CBV_SRV_UAV descriptor table"):
        cl.set_shader_resource_view(0, 0, tex)
    with pytest.raises(dx.InvalidArgumentError, match="root index 2 is a SAMPLER descriptor table"):
        cl.set_shader_resource_view(2, 0, tex)
    with pytest.raises(dx.InvalidArgumentError, match="root index 1 is a CBV_SRV_UAV descriptor table"):
        cl.set_sampler(1, 0, sampler)
    with pytest.raises(dx.InvalidArgumentError, match="out of range"):
        cl.set_shader_resource_view(70, 0, tex)
    with pytest.raises(dx.InvalidArgumentError, match="uav=True"):
        cl.set_unordered_access_view(1, 0, tex)  # a texture created without uav=True
    # The list is still usable after every one of those errors.
    rt = device.create_texture2d(4, 4, "rgba32_uint", render_target=True)
    cl.set_render_targets([rt])
    cl.set_constants(0, [0, 0])
    for slot in range(4):
        cl.set_shader_resource_view(1, slot, tex)
    cl.set_sampler(2, 0, sampler)
    cl.draw(3)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_texture(rt), np.repeat(values[0][:, :, None], 4, axis=2))


def test_table_slot_beyond_chunk_size_is_rejected(small_chunks, vs):
    """A table is copied contiguously into one 64-descriptor chunk: staging slot 80 of a 100-slot table
    can never be committed, so staging it raises (naming the chunk size) instead of failing at draw."""
    dev, q = small_chunks
    ps = dx.compile_hlsl(THREE_OF_FOUR_PS, profile="ps_5_0")
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0, count=100)])])
    pso = dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba32_uint"])
    (tex,), _ = make_uint_textures(dev, q, 1)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 63, tex)  # the last slot that fits
    with pytest.raises(dx.InvalidArgumentError, match="one dynamic chunk of 64 descriptors"):
        cl.set_shader_resource_view(0, 64, tex)


def test_device_descriptor_stats_shape(device):
    stats = device.descriptor_stats()
    assert set(stats) == {"cbv_srv_uav", "sampler", "rtv", "dsv"}
    for kind in stats:
        assert {"in_use", "pages", "peak", "stale", "capacity"} <= set(stats[kind])
    sv = stats["sampler"]["shader_visible"]
    assert sv["capacity"] <= 2048 and sv["static_capacity"] + sv["dynamic_capacity"] <= sv["capacity"]
    assert "shader_visible" not in stats["rtv"]
