"""Automatic resource states on the real device.

Every scenario here is written without a hand-made barrier (unless the test is about explicit
barriers) and checks real outcomes: pixels and buffer contents read back, the barrier statistics of
``Device.stats()['barriers']``, the global states of ``Resource.global_state()`` and the
transitions ``CommandQueue.last_inserted_barriers`` reports for the last execute.

The scenarios run on a plain device and on a ``Device(validate=True)``: validation must stay silent
on all of them. ``TestValidation`` then shows it catching a transition made behind the tracker's
back with ``raw_transition``.
"""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

import dx12kit as dx

from .shaders import DOWN_PS, FULLSCREEN_POS_VS

S = dx.ResourceState
ALL = dx.ALL_SUBRESOURCES

# Writes base + x + 16 y: a pattern that tells every pixel apart.
PATTERN_PS = """
cbuffer C : register(b0) { float base; };
float main(float4 pos : SV_Position) : SV_Target { return base + floor(pos.x) + 16 * floor(pos.y); }
"""
# Reads the texture as a pixel-shader resource and writes twice its value.
DOUBLE_PS = """
Texture2D<float> t : register(t0);
float main(float4 pos : SV_Position) : SV_Target { return 2 * t.Load(int3(pos.xy, 0)); }
"""
# Read-modify-write through a UAV.
ADD_CS = """
cbuffer C : register(b0) { float add; };
RWTexture2D<float> t : register(u0);
[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) { t[id.xy] = t[id.xy] + add; }
"""
# 2x2 box filter, mip i (SRV of one mip) -> mip i+1 (UAV); (a+b)+(c+d) then * 0.25 as numpy does.
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
# DOWN_PS (shaders.py): the same filter as a pixel shader, mip i (SRV) -> mip i+1 (render target).


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "validate"])
def dev(request):
    d = dx.Device(validate=request.param)
    assert d.validate is request.param
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def q(dev):
    return dev.queue("direct")


@pytest.fixture(scope="module")
def psos(dev):
    vs = dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0")
    rs_cb = dev.create_root_signature([dx.RootCBV(0)])
    rs_srv = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)], visibility="pixel")])
    rs_uav = dev.create_root_signature([dx.RootCBV(0), dx.DescriptorTable([dx.UAV(0)])])
    rs_down = dev.create_root_signature(
        [dx.RootConstants(0, 2), dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)])])
    return {
        "pattern": dev.create_graphics_pipeline(vs, dx.compile_hlsl(PATTERN_PS, profile="ps_5_0"), rs_cb, ["r32_float"]),
        "double": dev.create_graphics_pipeline(vs, dx.compile_hlsl(DOUBLE_PS, profile="ps_5_0"), rs_srv, ["r32_float"]),
        "add": dev.create_compute_pipeline(dx.compile_hlsl(ADD_CS, profile="cs_5_0"), rs_uav),
        "down_cs": dev.create_compute_pipeline(dx.compile_hlsl(DOWN_CS, profile="cs_5_0"), rs_down),
        "down_ps": dev.create_graphics_pipeline(vs, dx.compile_hlsl(DOWN_PS, profile="ps_5_0"), rs_srv, ["r32_float"]),
    }


def barrier_stats(dev):
    return dict(dev.stats()["barriers"])


def delta(before, after):
    return {k: after[k] - before[k] for k in before}


def pattern(base, n=16):
    return (base + np.arange(n)[None, :] + n * np.arange(n)[:, None]).astype(np.float32)


# ------------------------------------------------------------------------------ four threads


class TestFourThreads:
    """Four threads each record a list using texture T in another state; executed in a fixed order."""

    N = 16

    def record(self, q, psos, kind, t, side, base):
        cl = q.command_list()
        if kind == "rt":  # T as RENDER_TARGET
            cl.set_pipeline_state(psos["pattern"])
            cl.set_render_targets([t])
            cl.set_dynamic_constant_buffer(0, np.array([base, 0, 0, 0], np.float32))
            cl.draw(3)
        elif kind == "psr":  # T as PIXEL_SHADER_RESOURCE, drawing 2*T into `side`
            cl.set_pipeline_state(psos["double"])
            cl.set_render_targets([side])
            cl.set_shader_resource_view(0, 0, t)
            cl.draw(3)
        elif kind == "uav":  # T as UNORDERED_ACCESS: T += 1000
            cl.set_pipeline_state(psos["add"])
            cl.set_dynamic_constant_buffer(0, np.array([1000, 0, 0, 0], np.float32))
            cl.set_unordered_access_view(1, 0, t)
            cl.dispatch(self.N // 8, self.N // 8)
        else:  # T as COPY_SOURCE, copied into `side`
            cl.copy_resource(side, t)
        return cl

    def record_in_threads(self, q, psos, t, targets, base):
        kinds = ["rt", "psr", "uav", "copy"]
        lists, errors = {}, []
        start = threading.Barrier(len(kinds))

        def work(kind):
            try:
                start.wait()
                lists[kind] = self.record(q, psos, kind, t, targets.get(kind), base)
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)

        old = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)  # switch threads as often as possible while recording
        try:
            threads = [threading.Thread(target=work, args=(k,)) for k in kinds]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
        finally:
            sys.setswitchinterval(old)
        assert not errors, errors
        return lists

    def test_four_states_two_orders(self, dev, q, psos):
        n = self.N
        t = dev.create_texture2d(n, n, "r32_float", render_target=True, uav=True, name="T")
        side_rt = dev.create_texture2d(n, n, "r32_float", render_target=True, name="side_rt")
        side_copy = dev.create_texture2d(n, n, "r32_float", name="side_copy")
        targets = {"psr": side_rt, "copy": side_copy}
        p1, p2 = pattern(5.0, n), pattern(7.0, n)

        # Round 1: order RT, PSR, UAV, COPY_SOURCE; every resource starts in COMMON.
        lists = self.record_in_threads(q, psos, t, targets, 5.0)
        before = barrier_stats(dev)
        q.wait(q.execute([lists["rt"], lists["psr"], lists["uav"], lists["copy"]]))
        d = delta(before, barrier_stats(dev))
        inserted = sorted(q.last_inserted_barriers)
        assert inserted == sorted([
            (0, "T", ALL, S.COMMON, S.RENDER_TARGET),
            (1, "T", ALL, S.RENDER_TARGET, S.PIXEL_SHADER_RESOURCE),
            (1, "side_rt", ALL, S.COMMON, S.RENDER_TARGET),
            (2, "T", ALL, S.PIXEL_SHADER_RESOURCE, S.UNORDERED_ACCESS),
            (3, "T", ALL, S.UNORDERED_ACCESS, S.COPY_SOURCE),
            (3, "side_copy", ALL, S.COMMON, S.COPY_DEST),
        ])
        assert d["inserted_at_execute"] == 6
        assert d["recorded"] == 0  # each list used T in one state only: nothing to transition inside
        assert d["batches"] == 4   # one small barrier list before each of the four lists
        assert t.global_state() == S.COPY_SOURCE
        assert side_rt.global_state() == S.RENDER_TARGET
        assert side_copy.global_state() == S.COPY_DEST
        np.testing.assert_array_equal(q.read_texture(side_rt)[..., 0], 2 * p1)
        np.testing.assert_array_equal(q.read_texture(side_copy)[..., 0], p1 + 1000)
        np.testing.assert_array_equal(q.read_texture(t)[..., 0], p1 + 1000)

        # Round 2, reverse order, from the states round 1 and the reads left (all COPY_SOURCE):
        # the copy list needs no barrier for T, only for its destination.
        lists = self.record_in_threads(q, psos, t, targets, 7.0)
        before = barrier_stats(dev)
        q.wait(q.execute([lists["copy"], lists["uav"], lists["psr"], lists["rt"]]))
        d = delta(before, barrier_stats(dev))
        assert sorted(q.last_inserted_barriers) == sorted([
            (0, "side_copy", ALL, S.COPY_SOURCE, S.COPY_DEST),
            (1, "T", ALL, S.COPY_SOURCE, S.UNORDERED_ACCESS),
            (2, "T", ALL, S.UNORDERED_ACCESS, S.PIXEL_SHADER_RESOURCE),
            (2, "side_rt", ALL, S.COPY_SOURCE, S.RENDER_TARGET),
            (3, "T", ALL, S.PIXEL_SHADER_RESOURCE, S.RENDER_TARGET),
        ])
        assert d["inserted_at_execute"] == 5 and d["batches"] == 4 and d["recorded"] == 0
        assert t.global_state() == S.RENDER_TARGET
        np.testing.assert_array_equal(q.read_texture(side_copy)[..., 0], p1 + 1000)      # copied first
        np.testing.assert_array_equal(q.read_texture(side_rt)[..., 0], 2 * (p1 + 2000))  # after += 1000
        np.testing.assert_array_equal(q.read_texture(t)[..., 0], p2)                     # drawn last

    def test_lists_executed_one_by_one(self, dev, q, psos):
        """The same, with each list in its own execute: resolution happens at each execute."""
        n = self.N
        t = dev.create_texture2d(n, n, "r32_float", render_target=True, uav=True, name="T1")
        side_rt = dev.create_texture2d(n, n, "r32_float", render_target=True, name="side_rt1")
        side_copy = dev.create_texture2d(n, n, "r32_float", name="side_copy1")
        lists = self.record_in_threads(q, psos, t, {"psr": side_rt, "copy": side_copy}, 3.0)
        expect = {
            "uav": [(0, "T1", ALL, S.COMMON, S.UNORDERED_ACCESS)],
            "rt": [(0, "T1", ALL, S.UNORDERED_ACCESS, S.RENDER_TARGET)],
            "copy": [(0, "T1", ALL, S.RENDER_TARGET, S.COPY_SOURCE), (0, "side_copy1", ALL, S.COMMON, S.COPY_DEST)],
            "psr": [(0, "T1", ALL, S.COPY_SOURCE, S.PIXEL_SHADER_RESOURCE), (0, "side_rt1", ALL, S.COMMON, S.RENDER_TARGET)],
        }
        fence = 0
        for kind in ["uav", "rt", "copy", "psr"]:
            fence = q.execute(lists[kind])
            assert sorted(q.last_inserted_barriers) == sorted(expect[kind]), kind
        q.wait(fence)
        p = pattern(3.0, n)
        np.testing.assert_array_equal(q.read_texture(side_copy)[..., 0], p)
        np.testing.assert_array_equal(q.read_texture(side_rt)[..., 0], 2 * p)


# ------------------------------------------------------------------------------ mip chain


class TestMipChain:
    """A mip chain built by hand, mip i read as SRV while mip i+1 is written; no barrier by hand."""

    SIZE = 32

    @staticmethod
    def reference(level0, levels):
        out = [level0]
        for _ in range(1, levels):
            a = out[-1]
            out.append(((a[0::2, 0::2] + a[0::2, 1::2]) + (a[1::2, 0::2] + a[1::2, 1::2])) * np.float32(0.25))
        return out

    @pytest.mark.parametrize("one_list", [True, False], ids=["one_list", "list_per_level"])
    def test_mip_chain(self, dev, q, psos, one_list):
        size = self.SIZE
        # Multiples of 1024 below 2**23: every 2x2 average down to 1x1 is exact in float32.
        level0 = (np.random.default_rng(3).integers(0, 1 << 13, (size, size)) * 1024).astype(np.float32)
        tex = dev.create_texture2d(size, size, "r32_float", mip_levels=0, render_target=True, uav=True, name="chain")
        levels = tex.mip_levels
        assert levels == 6
        cl = q.command_list()
        cl.upload(tex, level0[..., None])
        srv_state = {}
        for i in range(levels - 1):
            w = size >> (i + 1)
            if i % 2 == 0:  # compute: SRV of mip i, UAV of mip i+1
                cl.set_pipeline_state(psos["down_cs"])
                cl.set_constants(0, [w, w])
                cl.set_shader_resource_view(1, 0, tex, mip=i)
                cl.set_unordered_access_view(2, 0, tex, mip=i + 1)
                cl.dispatch((w + 7) // 8, (w + 7) // 8)
                srv_state[i] = S.NON_PIXEL_SHADER_RESOURCE
            else:  # graphics: SRV of mip i, render target mip i+1
                cl.set_pipeline_state(psos["down_ps"])
                cl.set_render_targets([tex], mip=i + 1)
                cl.set_shader_resource_view(0, 0, tex, mip=i)
                cl.draw(3)
                srv_state[i] = S.PIXEL_SHADER_RESOURCE
            if not one_list:
                q.execute(cl)
                cl = q.command_list()
        q.wait(q.execute(cl))
        # Per-subresource global states: every level but the last was last read as an SRV.
        for i in range(levels - 1):
            assert tex.global_state(i) == srv_state[i], i
        last = levels - 1
        assert tex.global_state(last) == (S.UNORDERED_ACCESS if (last - 1) % 2 == 0 else S.RENDER_TARGET)
        with pytest.raises(dx.InvalidArgumentError, match="differ"):
            tex.global_state()
        for i, ref in enumerate(self.reference(level0, levels)):
            np.testing.assert_array_equal(q.read_texture(tex, mip=i)[..., 0], ref, err_msg=f"mip {i}")
        # The reads moved each level to COPY_SOURCE: the states collapse back to one.
        assert tex.global_state() == S.COPY_SOURCE


# ------------------------------------------------------------------------------ minimum barriers


def states_after(glob, script, buffers):
    """D3D12's rules (cpp/include/dx12kit/resources/D3D12Rules.hpp, rule 5): after an execute on the
    direct queue each subresource is in the state its last use left it in; buffers decay to COMMON."""
    new = {r: list(v) for r, v in glob.items()}
    for name, state, sub in script:
        for i in (range(len(new[name])) if sub == ALL else [sub]):
            new[name][i] = state
    for name in buffers:
        new[name] = [S.COMMON] * len(new[name])
    return new


class TestMinimumBarriers:
    """Barrier counts are dx12kit's policy (one barrier per change of state of a subresource, one for
    a whole resource whose subresources share a state, none for a state it already has; the first
    use in a list resolved at execute), counted by hand per line below. The resulting states follow
    D3D12's rules (states_after). Random sequences against the rules: tests/device/test_state_rules.py."""

    def run_script(self, dev, q, resources, buffers, lists):
        """`lists`: (script, (recorded, inserted)) pairs; a script is a list of (name, state, sub)."""
        glob = {name: [S.COMMON] * r.num_subresources for name, r in resources.items()}
        for script, (recorded, inserted) in lists:
            before = barrier_stats(dev)
            cl = q.command_list()
            for name, state, sub in script:
                cl.transition_barrier(resources[name], state, sub)
            q.execute(cl)
            d = delta(before, barrier_stats(dev))
            assert (d["recorded"], d["inserted_at_execute"]) == (recorded, inserted), script
            # Batched: one ResourceBarrier call for the list's own barriers (flushed at close), one
            # for the barrier list execute puts before it.
            assert d["batches"] == (recorded > 0) + (inserted > 0)
            glob = states_after(glob, script, buffers)
            for name, res in resources.items():
                for sub, state in enumerate(glob[name]):
                    assert res.global_state(sub) == state, (name, sub)
        q.flush()

    def test_scripted_sequence(self, dev, q):
        tex = dev.create_texture2d(16, 16, "rgba8_unorm", mip_levels=4, array_size=2, render_target=True, name="tex")
        buf = dev.create_buffer(256, name="buf")
        res = {"tex": tex, "buf": buf}
        assert tex.num_subresources == 8
        script1 = [
            ("tex", S.COPY_DEST, ALL),             # first use: resolved at execute (COMMON -> COPY_DEST: 1)
            ("tex", S.COPY_DEST, ALL),             # same state: nothing
            ("tex", S.PIXEL_SHADER_RESOURCE, 1),   # 1
            ("tex", S.PIXEL_SHADER_RESOURCE, 1),   # nothing
            ("tex", S.PIXEL_SHADER_RESOURCE, ALL), # the 7 others change: 7
            ("tex", S.COPY_SOURCE, ALL),           # uniform again: 1 for all
            ("buf", S.COPY_DEST, ALL),             # first use: promoted from COMMON, no barrier
            ("buf", S.VERTEX_AND_CONSTANT_BUFFER, ALL),  # 1
        ]
        script2 = [
            ("tex", S.COPY_SOURCE, 3),             # first use, already COPY_SOURCE globally: nothing
            ("tex", S.RENDER_TARGET, 3),           # 1
            ("buf", S.VERTEX_AND_CONSTANT_BUFFER, ALL),  # first use: decayed to COMMON, promoted: nothing
            ("tex", S.UNORDERED_ACCESS, 5),        # first use of 5: execute (1)
        ]
        script3 = [
            ("tex", S.PIXEL_SHADER_RESOURCE, ALL), # global mixed: 8 changes at execute (COPY_SOURCE x6, RT, UAV)
            ("tex", S.PIXEL_SHADER_RESOURCE, 0),   # nothing
        ]
        self.run_script(dev, q, res, {"buf"}, [(script1, (10, 1)), (script2, (1, 1)), (script3, (0, 8))])
        assert tex.global_state() == S.PIXEL_SHADER_RESOURCE  # collapsed back to one state

    def test_automatic_operations_are_minimal(self, dev, q):
        """Copies, clears and draws request their states; repeated use records nothing more."""
        a = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="a")
        b = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="b")
        before = barrier_stats(dev)
        cl = q.command_list()
        for _ in range(3):
            cl.clear_render_target(a, [1, 0, 0, 1])   # a: RT (first use, pending)
        for _ in range(3):
            cl.copy_resource(b, a)                    # a: RT -> COPY_SOURCE once; b: pending COPY_DEST
        cl.clear_render_target(a, [0, 1, 0, 1])       # a: COPY_SOURCE -> RT
        q.execute(cl)
        d = delta(before, barrier_stats(dev))
        assert d["recorded"] == 2 and d["inserted_at_execute"] == 2
        assert sorted(q.last_inserted_barriers) == sorted([
            # clear names mip 0; with a single subresource that is the whole texture (an ALL barrier,
            # which also covers a stencil plane)
            (0, "a", ALL, S.COMMON, S.RENDER_TARGET), (0, "b", ALL, S.COMMON, S.COPY_DEST)])
        assert (q.read_texture(b) == [255, 0, 0, 255]).all()
        assert (q.read_texture(a) == [0, 255, 0, 255]).all()


# ------------------------------------------------------------------------------ explicit barriers


def test_explicit_barriers_go_through_the_tracker(dev, q):
    buf = dev.create_buffer(256, uav=True, name="explicit")
    before = barrier_stats(dev)
    cl = q.command_list()
    cl.transition_barrier(buf, S.UNORDERED_ACCESS)  # first use: a buffer in COMMON is promoted, no barrier
    cl.uav_barrier(buf)
    cl.uav_barrier()
    cl.aliasing_barrier(None, buf)
    cl.transition_barrier(buf, S.COPY_SOURCE)
    q.wait(q.execute(cl))
    d = delta(before, barrier_stats(dev))
    assert (d["recorded"], d["uav"], d["aliasing"], d["inserted_at_execute"], d["batches"]) == (4, 2, 1, 0, 1)
    assert q.last_inserted_barriers == []
    assert buf.global_state() == S.COMMON  # buffers decay to COMMON once their list has executed
    with pytest.raises(dx.InvalidArgumentError, match="subresource 1 out of range"):
        q.command_list().transition_barrier(buf, S.COPY_DEST, 1)


def test_reads_a_wider_read_only_state_allows_keep_it_without_barriers(dev, q, psos):
    """T in PIXEL | NON_PIXEL_SHADER_RESOURCE is read by a pixel shader and by a compute shader: both reads
    are allowed there, so nothing is recorded and T stays in the wider state (D3D12: a read-only state
    combination allows each of its reads); an explicit transition_barrier to one of them still moves it."""
    n = 16
    both = S.PIXEL_SHADER_RESOURCE | S.NON_PIXEL_SHADER_RESOURCE
    t = dev.create_texture2d(n, n, "r32_float", render_target=True, name="wide read")
    side = dev.create_texture2d(n, n, "r32_float", render_target=True, name="doubled")
    small = dev.create_texture2d(n // 2, n // 2, "r32_float", uav=True, name="filtered")
    cl = q.command_list()
    cl.set_pipeline_state(psos["pattern"])
    cl.set_render_targets([t])
    cl.set_dynamic_constant_buffer(0, np.array([3, 0, 0, 0], np.float32))
    cl.draw(3)
    cl.transition_barrier(t, both)
    before = barrier_stats(dev)
    cl.set_pipeline_state(psos["double"])
    cl.set_render_targets([side])
    cl.set_shader_resource_view(0, 0, t)
    cl.draw(3)
    cl.set_pipeline_state(psos["down_cs"])
    cl.set_constants(0, [n // 2, n // 2])
    cl.set_shader_resource_view(1, 0, t)
    cl.set_unordered_access_view(2, 0, small)
    cl.dispatch(1, 1)
    d = delta(before, barrier_stats(dev))
    assert d["recorded"] == 0, d
    q.wait(q.execute(cl))
    assert t.global_state() == both
    p = pattern(3, n)
    assert np.array_equal(q.read_texture(side)[..., 0], 2 * p)
    assert np.array_equal(q.read_texture(small)[..., 0], ((p[0::2, 0::2] + p[0::2, 1::2]) + (p[1::2, 0::2] + p[1::2, 1::2])) * 0.25)
    before = barrier_stats(dev)
    cl = q.command_list()
    cl.transition_barrier(t, both)
    cl.transition_barrier(t, S.NON_PIXEL_SHADER_RESOURCE)   # asked for explicitly: recorded
    q.wait(q.execute(cl))
    d = delta(before, barrier_stats(dev))
    assert (d["recorded"], d["inserted_at_execute"]) == (1, 0), d
    assert t.global_state() == S.NON_PIXEL_SHADER_RESOURCE


def test_a_list_ending_in_the_wider_read_state_then_a_compute_queue_read(dev, q, psos):
    """A draw reads T through an SRV visible to every stage (PIXEL | NON_PIXEL_SHADER_RESOURCE), then a dispatch on
    the same direct list reads it (NON_PIXEL, covered: nothing recorded), so the list leaves T in the wider state. A
    compute-queue list then reads T: D3D12 forbids PIXEL_SHADER_RESOURCE on compute queues, so the transition to
    NON_PIXEL is made on the direct queue first, and the compute read gives the right numbers."""
    n = 16
    both = S.PIXEL_SHADER_RESOURCE | S.NON_PIXEL_SHADER_RESOURCE
    vs = dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0")
    double_all = dev.create_graphics_pipeline(vs, dx.compile_hlsl(DOUBLE_PS, profile="ps_5_0"),
                                              dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)])]), ["r32_float"])
    t = dev.create_texture2d(n, n, "r32_float", render_target=True, name="wide then compute")
    side = dev.create_texture2d(n, n, "r32_float", render_target=True, name="doubled")
    small = dev.create_texture2d(n // 2, n // 2, "r32_float", uav=True, name="filtered on direct")
    small_c = dev.create_texture2d(n // 2, n // 2, "r32_float", uav=True, name="filtered on compute")
    comp_q = dev.queue("compute")

    def downsample(cl, out):   # the compute read of T: 2x2 averages into `out`
        cl.set_pipeline_state(psos["down_cs"])
        cl.set_constants(0, [n // 2, n // 2])
        cl.set_shader_resource_view(1, 0, t)
        cl.set_unordered_access_view(2, 0, out)
        cl.dispatch(1, 1)

    def direct_list(cl):   # a draw reading T through the all-stages SRV, then the compute read on the direct list
        cl.set_pipeline_state(double_all)
        cl.set_render_targets([side])
        cl.set_shader_resource_view(0, 0, t)
        cl.draw(3)
        downsample(cl, small)
        return cl

    def compute_queue_read():
        cc = comp_q.command_list()
        downsample(cc, small_c)
        comp_q.wait(comp_q.execute(cc))

    cl = q.command_list()
    cl.set_pipeline_state(psos["pattern"])
    cl.set_render_targets([t])
    cl.set_dynamic_constant_buffer(0, np.array([5, 0, 0, 0], np.float32))
    cl.draw(3)
    q.wait(q.execute(direct_list(cl)))   # T written, then read in the same list
    assert t.global_state() == both
    compute_queue_read()
    assert comp_q.last_direct_queue_barriers == [(0, "wide then compute", ALL, both, S.NON_PIXEL_SHADER_RESOURCE)]
    assert t.global_state() == S.NON_PIXEL_SHADER_RESOURCE
    p = pattern(5, n)
    want = ((p[0::2, 0::2] + p[0::2, 1::2]) + (p[1::2, 0::2] + p[1::2, 1::2])) * 0.25
    assert np.array_equal(q.read_texture(side)[..., 0], 2 * p)
    assert np.array_equal(q.read_texture(small)[..., 0], want)
    assert np.array_equal(comp_q.read_texture(small_c)[..., 0], want)
    # Now that a compute queue uses T, the direct list's covered read narrows it (one barrier in the list), so the
    # next compute-queue list needs no direct-queue fix-up: one execute per list, and the same numbers.
    before = dev.stats()["submissions_per_queue"]["direct"]["executes"]
    q.wait(q.execute(direct_list(q.command_list())))
    assert t.global_state() == S.NON_PIXEL_SHADER_RESOURCE
    compute_queue_read()
    assert comp_q.last_direct_queue_barriers == []
    assert dev.stats()["submissions_per_queue"]["direct"]["executes"] - before == 1  # the direct list (its pre-list in the same call)
    assert np.array_equal(q.read_texture(small)[..., 0], want)
    assert np.array_equal(comp_q.read_texture(small_c)[..., 0], want)


def test_uav_clear_of_a_texture_array_transitions_every_slice(dev, q):
    """clear_unordered_access_view clears mip 0 of every array slice (the UAV covers them all), so
    every one of them must be in UNORDERED_ACCESS, not only subresource 0."""
    t = dev.create_texture2d(8, 8, "r32_float", mip_levels=2, array_size=3, uav=True, name="arr")
    cl = q.command_list()
    cl.clear_unordered_access_view(t, [2.5, 0.0, 0.0, 0.0])
    q.wait(q.execute(cl))
    assert sorted(q.last_inserted_barriers) == [(0, "arr", 2 * s, S.COMMON, S.UNORDERED_ACCESS) for s in range(3)]
    for s in range(3):
        assert t.global_state(2 * s) == S.UNORDERED_ACCESS      # mip 0 of slice s
        assert t.global_state(2 * s + 1) == S.COMMON            # mip 1 untouched
        assert (q.read_texture(t, mip=0, array_slice=s) == 2.5).all()


def test_copy_queue_and_compute_queue_share_global_states(dev, psos):
    """A texture written on the copy queue, then modified on the compute queue: one global state."""
    n = 16
    copy_q, comp_q = dev.queue("copy"), dev.queue("compute")
    t = dev.create_texture2d(n, n, "r32_float", uav=True, name="shared")
    data = pattern(1.0, n)
    up = copy_q.command_list()
    up.upload(t, data[..., None])
    fence = copy_q.execute(up)
    assert t.global_state() == S.COMMON  # what a copy queue touched decays to COMMON
    comp_q.wait_for(copy_q, fence)
    cl = comp_q.command_list()
    cl.set_pipeline_state(psos["add"])
    cl.set_dynamic_constant_buffer(0, np.array([0.5, 0, 0, 0], np.float32))
    cl.set_unordered_access_view(1, 0, t)
    cl.dispatch(n // 8, n // 8)
    comp_q.wait(comp_q.execute(cl))
    assert comp_q.last_inserted_barriers == [(0, "shared", ALL, S.COMMON, S.UNORDERED_ACCESS)]
    np.testing.assert_array_equal(comp_q.read_texture(t)[..., 0], data + 0.5)


# ------------------------------------------------------------------------------ validation


@pytest.fixture(scope="module")
def vdev():
    d = dx.Device(validate=True)
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def psos_v(vdev):
    vs = dx.compile_hlsl(FULLSCREEN_POS_VS, profile="vs_5_0")
    return {
        "pattern": vdev.create_graphics_pipeline(vs, dx.compile_hlsl(PATTERN_PS, profile="ps_5_0"),
                                                 vdev.create_root_signature([dx.RootCBV(0)]), ["r32_float"]),
        "add": vdev.create_compute_pipeline(
            dx.compile_hlsl(ADD_CS, profile="cs_5_0"),
            vdev.create_root_signature([dx.RootCBV(0), dx.DescriptorTable([dx.UAV(0)])])),
    }


class TestValidation:
    def test_missing_transition_before_draw(self, vdev, psos_v):
        q = vdev.queue()
        rt = vdev.create_texture2d(16, 16, "r32_float", render_target=True, name="target")
        cl = q.command_list()
        cl.set_pipeline_state(psos_v["pattern"])
        cl.set_render_targets([rt])
        cl.set_dynamic_constant_buffer(0, np.zeros(4, np.float32))
        cl.draw(3)                                                    # rt: RENDER_TARGET (tracked)
        cl.raw_transition(rt, S.RENDER_TARGET, S.PIXEL_SHADER_RESOURCE)  # behind the tracker's back
        with pytest.raises(dx.ResourceStateError) as e:
            cl.draw(3)
        msg = str(e.value)
        assert "'target'" in msg and "RENDER_TARGET" in msg and "PIXEL_SHADER_RESOURCE" in msg and "draw" in msg

    def test_missing_transition_before_dispatch(self, vdev, psos_v):
        q = vdev.queue()
        t = vdev.create_texture2d(16, 16, "r32_float", uav=True, name="uavtex")
        cl = q.command_list()
        cl.set_pipeline_state(psos_v["add"])
        cl.set_dynamic_constant_buffer(0, np.ones(4, np.float32))
        cl.set_unordered_access_view(1, 0, t)
        cl.dispatch(2, 2)
        cl.raw_transition(t, S.UNORDERED_ACCESS, S.COPY_SOURCE)
        with pytest.raises(dx.ResourceStateError, match=r"dispatch: resource 'uavtex'.*UNORDERED_ACCESS.*COPY_SOURCE"):
            cl.dispatch(2, 2)

    def test_missing_transition_before_copy(self, vdev):
        q = vdev.queue()
        src = vdev.create_buffer(256, name="src")
        dst = vdev.create_buffer(256, name="dst")
        cl = q.command_list()
        cl.copy_resource(dst, src)
        cl.raw_transition(dst, S.COPY_DEST, S.COMMON)
        with pytest.raises(dx.ResourceStateError, match=r"copy_resource: resource 'dst'.*COPY_DEST.*COMMON"):
            cl.copy_resource(dst, src)
        with pytest.raises(dx.ResourceStateError, match="'dst'"):
            cl.upload(dst, np.zeros(16, np.uint8))

    def test_silent_when_raw_transitions_restore_the_state(self, vdev, psos_v):
        q = vdev.queue()
        rt = vdev.create_texture2d(16, 16, "r32_float", render_target=True, name="restored")
        other = vdev.create_buffer(256, name="other")
        cl = q.command_list()
        cl.set_pipeline_state(psos_v["pattern"])
        cl.set_render_targets([rt])
        cl.set_dynamic_constant_buffer(0, np.array([2, 0, 0, 0], np.float32))
        cl.draw(3)
        cl.raw_transition(rt, S.RENDER_TARGET, S.PIXEL_SHADER_RESOURCE)
        cl.raw_transition(rt, S.PIXEL_SHADER_RESOURCE, S.RENDER_TARGET)  # and back: correct
        cl.draw(3)
        # A raw transition of a resource the next operation does not touch is not its business.
        cl.copy_resource(other, vdev.create_buffer(256))
        cl.raw_transition(other, S.COPY_DEST, S.COMMON)
        cl.draw(3)
        cl.raw_transition(other, S.COMMON, S.COPY_DEST)
        q.wait(q.execute(cl))
        np.testing.assert_array_equal(q.read_texture(rt)[..., 0], pattern(2.0))


# ------------------------------------------------------------------------------ closed resources


class TestClosedResources:
    """A "destroyed" resource is one whose close() was called: every later use raises
    UseAfterFreeError naming it, while work submitted before still completes."""

    def test_every_use_after_close_raises(self, dev, q, psos):
        buf = dev.create_buffer(256, uav=True, name="doomed")
        tex = dev.create_texture2d(16, 16, "r32_float", render_target=True, uav=True, name="doomed_tex")
        other = dev.create_buffer(256, name="other")
        buf.close()
        tex.close()
        assert buf.closed and tex.closed
        buf.close()  # twice is fine
        cl = q.command_list()
        for call in [
            lambda: cl.transition_barrier(buf, S.COPY_DEST),
            lambda: cl.uav_barrier(buf),
            lambda: cl.aliasing_barrier(buf, other),
            lambda: cl.aliasing_barrier(None, buf),
            lambda: cl.raw_transition(buf, S.COMMON, S.COPY_DEST),
            lambda: cl.copy_resource(other, buf),
            lambda: cl.copy_resource(buf, other),
            lambda: cl.upload(buf, np.zeros(4, np.uint8)),
            lambda: cl.copy_from_upload(buf, cl.allocate_upload(256)),
            lambda: cl.clear_render_target(tex, [0, 0, 0, 0]),
            lambda: cl.clear_unordered_access_view(tex, [0.0, 0.0, 0.0, 0.0]),
            lambda: q.read_buffer(buf),
            lambda: q.read_texture(tex),
        ]:
            with pytest.raises(dx.UseAfterFreeError, match="'doomed"):
                call()
        cl.set_pipeline_state(psos["add"])
        with pytest.raises(dx.UseAfterFreeError, match="'doomed_tex' was closed"):
            cl.set_unordered_access_view(1, 0, tex)
        # The list is still usable, and so is the device.
        cl.copy_resource(other, dev.create_buffer(256))
        q.wait(q.execute(cl))

    def test_close_while_in_flight(self, dev, q, psos):
        n = 16
        t = dev.create_texture2d(n, n, "r32_float", uav=True, name="inflight")
        out = dev.create_texture2d(n, n, "r32_float", name="out")
        cl = q.command_list()
        cl.upload(t, pattern(0.0, n)[..., None])
        cl.set_pipeline_state(psos["add"])
        cl.set_dynamic_constant_buffer(0, np.array([3, 0, 0, 0], np.float32))
        cl.set_unordered_access_view(1, 0, t)
        cl.dispatch(2, 2)
        cl.copy_resource(out, t)
        fence = q.execute(cl)
        t.close()  # the GPU may still be running the list: the native resource lives on
        del t
        q.wait(fence)
        np.testing.assert_array_equal(q.read_texture(out)[..., 0], pattern(3.0, n))

    def test_context_manager(self, dev, q):
        with dev.create_buffer(64, name="scoped") as b:
            cl = q.command_list()
            cl.upload(b, np.arange(64, dtype=np.uint8))
            q.execute(cl)
            np.testing.assert_array_equal(q.read_buffer(b), np.arange(64, dtype=np.uint8))
        assert b.closed
        with pytest.raises(dx.UseAfterFreeError, match="read_buffer: resource 'scoped' was closed"):
            q.read_buffer(b)
