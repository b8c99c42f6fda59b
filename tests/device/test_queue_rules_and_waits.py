"""Queues and states as D3D12 defines them (not vkd3d's leniency): atomic execute, interruptible
waits, recording raced against execute, validation mode and depth-stencil planes.

Tests whose old behaviour crashed or hung the process
run their scenario in a subprocess, so a regression fails the test instead of killing pytest.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import dx12kit as dx

from .shaders import LONG_CS

S = dx.ResourceState
ALL = dx.ALL_SUBRESOURCES


ADD_ONE_TEX_CS = """
RWTexture2D<float> o : register(u0);
[numthreads(8,8,1)] void main(uint3 i : SV_DispatchThreadID) { o[i.xy] += 1; }
"""

STORE7_CS = """
RWByteAddressBuffer o : register(u0);
[numthreads(1,1,1)] void main() { o.Store(0, 7); o.Store(4, 8); }
"""


@contextlib.contextmanager
def ticking():
    """A Python thread appending to the yielded list every millisecond: it grows only while the
    caller's waits leave the GIL free."""
    ticks: list = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        yield ticks
    finally:
        stop.set()
        t.join()


def run_script(body: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs `body` in a fresh interpreter; returns the finished process (stdout, stderr, returncode)."""
    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    return subprocess.run([sys.executable, "-c", textwrap.dedent(body)], capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="module")
def dev():
    d = dx.Device()
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def long_pso(dev):
    rs = dev.create_root_signature([dx.RootUAV(0)])
    return dev.create_compute_pipeline(dx.compile_hlsl(LONG_CS), rs)


def long_list(q, pso, buf, groups):
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(0, buf)
    cl.dispatch(groups)
    return cl


# ----------------------------------------------------------------------- item 4: record vs execute

def test_recording_while_another_thread_executes_never_crashes():
    """Old: SIGSEGV within a few hundred rounds. Now the recorder finishes its call before execute
    takes the list, or finds the list executed (UseAfterFreeError)."""
    r = run_script("""
        import threading, numpy as np, dx12kit as dx
        dev = dx.Device(); q = dev.queue()
        rs = dev.create_root_signature([dx.RootConstants(0, 1), dx.RootUAV(0)])
        pso = dev.create_compute_pipeline(dx.compile_hlsl('''
        RWStructuredBuffer<uint> o : register(u0);
        cbuffer C : register(b0) { uint v; };
        [numthreads(64,1,1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = v + i.x; }
        '''), rs)
        bufs = [dev.create_buffer(1024, uav=True) for _ in range(8)]
        outcomes = {"use_after_free": 0}
        for it in range(300):
            cl = q.command_list(); cl.set_pipeline_state(pso); cl.set_constants(0, [it]); cl.set_root_uav(1, bufs[0]); cl.dispatch(1)
            def rec():
                i = 0
                try:
                    while True:
                        cl.set_root_uav(1, bufs[i % 8]); cl.dispatch(1); cl.upload(bufs[(i + 1) % 8], np.zeros(64, np.uint8)); i += 1
                except dx.UseAfterFreeError:
                    outcomes["use_after_free"] += 1
            t = threading.Thread(target=rec); t.start()
            q.execute(cl)
            t.join()
        q.flush()
        print("rounds ok", outcomes["use_after_free"])
    """)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "rounds ok 300" in r.stdout


def test_work_recorded_before_execute_runs(dev):
    """The list's recorded work executes; a call after execute raises UseAfterFreeError."""
    q = dev.queue()
    buf = dev.create_buffer(256, name="recorded_before_execute")
    cl = q.command_list()
    cl.upload(buf, np.full(256, 3, np.uint8))
    started = threading.Event()
    result = {}

    def recorder():
        started.set()
        try:
            while True:
                cl.upload(buf, np.full(256, 5, np.uint8))
        except dx.UseAfterFreeError as e:
            result["error"] = e

    t = threading.Thread(target=recorder)
    t.start()
    started.wait()
    q.wait(q.execute(cl))
    t.join()
    assert "already executed" in str(result["error"])
    assert set(q.read_buffer(buf).tolist()) <= {3, 5}


# ------------------------------------------------------------------------ item 5: interruptible waits

def test_wait_timeout_raises_timeout_error(dev, long_pso):
    q = dev.queue()
    buf = dev.create_buffer(256, uav=True)
    fence = q.execute(long_list(q, long_pso, buf, 64))
    t0 = time.monotonic()
    with pytest.raises(TimeoutError) as info:
        q.wait(fence, timeout=0.01)
    assert time.monotonic() - t0 < 0.2
    assert isinstance(info.value, dx.Dx12Error) and isinstance(info.value, dx.WaitTimeoutError)
    q.wait(fence, timeout=None)  # the work is still there; waiting again completes
    assert q.completed_value >= fence


def test_timeouts_on_flush_and_reads(dev, long_pso):
    q = dev.queue()
    buf = dev.create_buffer(256, uav=True)
    q.execute(long_list(q, long_pso, buf, 64))
    with pytest.raises(dx.WaitTimeoutError):
        q.flush(timeout=0)
    with pytest.raises(dx.WaitTimeoutError):
        q.read_buffer(buf, timeout=0)
    q.flush()
    q.read_buffer(buf, timeout=30)  # completes
    with pytest.raises(dx.InvalidArgumentError):
        q.wait(1, timeout=-1)
    with pytest.raises(dx.InvalidArgumentError):
        q.flush(timeout=float("nan"))


def test_wait_does_not_hold_the_gil(dev, long_pso):
    """Another Python thread keeps running while the main thread waits for the GPU."""
    q = dev.queue()
    buf = dev.create_buffer(256, uav=True)
    fence = q.execute(long_list(q, long_pso, buf, 64))
    with ticking() as ticks:
        q.wait(fence)
    assert len(ticks) > 5


# Every script that expects Ctrl-C installs Python's own handler first: a process started with
# SIGINT ignored (a background job of a shell without job control) keeps it ignored, and the
# test would then wait for the whole dispatch.
SIGINT_SCRIPT = textwrap.dedent("""
    import os, time, signal, threading, dx12kit as dx
    signal.signal(signal.SIGINT, signal.default_int_handler)
    dev = dx.Device(); q = dev.queue()
    rs = dev.create_root_signature([dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl('''{cs}'''), rs)
    b = dev.create_buffer(256, uav=True)
    cl = q.command_list(); cl.set_pipeline_state(pso); cl.set_root_uav(0, b); cl.dispatch(65535, 64)
    f = q.execute(cl)
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    t0 = time.time()
    try:
        {call}
        print("returned", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted {{time.time() - t0:.2f}}", flush=True)
    os._exit(0)  # the GPU is still busy for an hour: do not wait for it at exit
""")


@pytest.mark.parametrize("call", ["q.wait(f)", "q.flush()", "q.read_buffer(b)", "dev.wait_idle()"])
def test_ctrl_c_interrupts_a_long_wait(call):
    """Old: Ctrl-C ignored until the hour-long dispatch ended. Now KeyboardInterrupt within a slice."""
    r = run_script(SIGINT_SCRIPT.format(cs=LONG_CS, call=call), timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    line = [x for x in r.stdout.splitlines() if x.startswith(("interrupted", "returned"))]
    assert line and line[0].startswith("interrupted"), r.stdout
    assert float(line[0].split()[1]) < 1.5


def test_ctrl_c_interrupts_device_teardown():
    """Dropping the last reference to a busy device waits without the GIL and can be interrupted:
    the in-flight work is leaked (never freed under the GPU) and KeyboardInterrupt follows."""
    r = run_script(SIGINT_SCRIPT.format(cs=LONG_CS, call="del q, cl, dev\n    for _ in range(100): time.sleep(0.05)"), timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    line = [x for x in r.stdout.splitlines() if x.startswith(("interrupted", "returned"))]
    assert line and line[0].startswith("interrupted"), r.stdout
    assert float(line[0].split()[1]) < 1.5


# ---------------------------------------------------------- item 6: state values, atomic execute

@pytest.mark.parametrize("state", [S.RENDER_TARGET | S.COPY_DEST, S.UNORDERED_ACCESS | S.PIXEL_SHADER_RESOURCE,
                                   S.DEPTH_WRITE | S.DEPTH_READ, S(0x10000), S(0x80000000)])
def test_transition_barrier_refuses_illegal_states(dev, state):
    t = dev.create_texture2d(4, 4, render_target=True, name="t6")
    cl = dev.queue().command_list()
    with pytest.raises(dx.InvalidArgumentError, match="t6"):
        cl.transition_barrier(t, state)
    with pytest.raises(dx.InvalidArgumentError):
        cl.raw_transition(t, S.COMMON, state)
    assert not cl.closed


def test_read_only_states_combine(dev):
    q = dev.queue()
    t = dev.create_texture2d(4, 4, render_target=True, name="ro")
    cl = q.command_list()
    combo = S.PIXEL_SHADER_RESOURCE | S.NON_PIXEL_SHADER_RESOURCE | S.COPY_SOURCE
    cl.transition_barrier(t, combo)
    q.wait(q.execute(cl))
    assert t.global_state() == combo


def test_execute_is_all_or_nothing(dev):
    """execute([good, bad]) fails before anything is closed or committed: the good list stays open,
    its resources keep their states, and it can be executed afterwards with its work intact."""
    q, other = dev.queue(), dev.queue("compute")
    good_tex = dev.create_texture2d(4, 4, name="good")
    target = dev.create_texture2d(4, 4, render_target=True, name="target6")
    good = q.command_list()
    good.upload(good_tex, np.full((4, 4, 4), 9, np.uint8))
    good.clear_render_target(target, [1, 0, 0, 1])
    bad = other.command_list()  # a list of another queue
    executed = q.command_list()
    q.wait(q.execute(executed))
    for lists in ([good, bad], [good, executed], [good, good]):
        with pytest.raises(dx.InvalidArgumentError):
            q.execute(lists)
        assert not good.closed
        assert good_tex.global_state() == S.COMMON and target.global_state() == S.COMMON
    good.clear_render_target(target, [0, 1, 0, 1])  # still recordable
    q.wait(q.execute(good))
    assert good.closed
    assert (q.read_texture(good_tex) == 9).all()
    assert (q.read_texture(target) == np.array([0, 255, 0, 255], np.uint8)).all()
    # and the "bad" list of the other queue is intact too
    other.wait(other.execute(bad))


# --------------------------------------------------------------------- item 11: validation mode

@pytest.fixture(scope="module")
def vdev():
    d = dx.Device(validate=True)
    yield d
    d.wait_idle()


@pytest.mark.parametrize("validate", [False, True])
def test_raw_transition_state_reaches_the_global_state(validate):
    d = dx.Device(validate=validate)
    q = d.queue()
    t = d.create_texture2d(4, 4, render_target=True, name="raw")
    cl = q.command_list()
    cl.clear_render_target(t, [0, 0, 0, 0])
    cl.raw_transition(t, S.RENDER_TARGET, S.COPY_SOURCE)
    q.wait(q.execute(cl))
    assert t.global_state() == S.COPY_SOURCE  # where the GPU really left it
    cl = q.command_list()
    cl.clear_render_target(t, [1, 0, 0, 1])
    q.wait(q.execute(cl))
    assert q.last_inserted_barriers == [(0, "raw", ALL, S.COPY_SOURCE, S.RENDER_TARGET)]
    assert (q.read_texture(t) == np.array([255, 0, 0, 255], np.uint8)).all()


def test_validation_checks_clears_and_copies(vdev):
    q = vdev.queue()
    d = vdev.create_texture2d(4, 4, "d32_float", depth_stencil=True, name="d")
    cl = q.command_list()
    cl.clear_depth_stencil(d)
    cl.raw_transition(d, S.DEPTH_WRITE, S.PIXEL_SHADER_RESOURCE)
    with pytest.raises(dx.ResourceStateError, match="clear_depth_stencil"):
        cl.clear_depth_stencil(d, 0.5)
    u = vdev.create_texture2d(4, 4, uav=True, name="u")
    cl = q.command_list()
    cl.clear_unordered_access_view(u, [0, 0, 0, 0])
    cl.raw_transition(u, S.UNORDERED_ACCESS, S.COPY_SOURCE)
    with pytest.raises(dx.ResourceStateError, match="clear_unordered_access_view"):
        cl.clear_unordered_access_view(u, [1, 1, 1, 1])
    a, b = vdev.create_buffer(256, name="a"), vdev.create_buffer(256, name="b")
    cl = q.command_list()
    cl.copy_buffer_region(a, 0, b, 0, 256)
    cl.raw_transition(a, S.COPY_DEST, S.COMMON)
    with pytest.raises(dx.ResourceStateError, match="copy_buffer_region"):
        cl.copy_buffer_region(a, 0, b, 0, 256)
    t1, t2 = vdev.create_texture2d(4, 4, name="t1"), vdev.create_texture2d(4, 4, name="t2")
    cl = q.command_list()
    cl.copy_resource(t1, t2)
    cl.raw_transition(t2, S.COPY_SOURCE, S.COMMON)
    with pytest.raises(dx.ResourceStateError, match="copy_resource"):
        cl.copy_resource(t1, t2)


# ------------------------------------------------------------------- item 12: per-queue rules

@pytest.fixture(scope="module")
def add_one_pso(dev):
    rs = dev.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    return dev.create_compute_pipeline(dx.compile_hlsl(ADD_ONE_TEX_CS), rs)


def test_compute_queue_leaves_render_target_on_the_direct_queue(dev, add_one_pso):
    direct, comp = dev.queue("direct"), dev.queue("compute")
    t = dev.create_texture2d(16, 16, "r32_float", render_target=True, uav=True, name="T12")
    cl = direct.command_list()
    cl.clear_render_target(t, [2, 0, 0, 0])
    direct.wait(direct.execute(cl))
    assert t.global_state() == S.RENDER_TARGET
    direct_before = direct.last_submitted_value
    serial_before = dev.stats()["last_serial"]
    cl = comp.command_list()
    cl.set_pipeline_state(add_one_pso)
    cl.set_unordered_access_view(0, 0, t)
    cl.dispatch(2, 2)
    comp.wait(comp.execute(cl))
    # RENDER_TARGET -> UNORDERED_ACCESS is illegal on a compute queue: recorded on the direct queue
    assert comp.last_inserted_barriers == [(0, "T12", ALL, S.RENDER_TARGET, S.UNORDERED_ACCESS)]
    assert comp.last_direct_queue_barriers == comp.last_inserted_barriers
    assert direct.last_submitted_value == direct_before + 1
    assert dev.stats()["last_serial"] == serial_before + 2
    dev.wait_idle()
    assert dev.stats()["completed_serial"] == dev.stats()["last_serial"]
    assert t.global_state() == S.UNORDERED_ACCESS
    np.testing.assert_array_equal(direct.read_texture(t)[..., 0], np.full((16, 16), 3.0, np.float32))


def test_copy_queue_reads_a_render_target(dev):
    direct, copy = dev.queue("direct"), dev.queue("copy")
    t = dev.create_texture2d(8, 8, render_target=True, name="T12c")
    cl = direct.command_list()
    cl.clear_render_target(t, [0, 0, 1, 1])
    direct.wait(direct.execute(cl))
    out = copy.read_texture(t)
    assert copy.last_direct_queue_barriers == [(0, "T12c", ALL, S.RENDER_TARGET, S.COPY_SOURCE)]
    assert (out == np.array([0, 0, 255, 255], np.uint8)).all()
    assert t.global_state() == S.COMMON  # what a copy queue touched decays to COMMON


def test_copy_queue_lists_refuse_non_copy_work(dev):
    cl = dev.queue("copy").command_list()
    b = dev.create_buffer(256, uav=True)
    t = dev.create_texture2d(4, 4, render_target=True)
    refused = [
        lambda: cl.clear_unordered_access_view(b, [1, 2, 3, 4]),
        lambda: cl.set_viewport(0, 0, 4, 4),
        lambda: cl.set_scissor(0, 0, 4, 4),
        lambda: cl.set_vertex_buffer(0, b, 16),
        lambda: cl.set_index_buffer(b),
        lambda: cl.set_render_targets([t]),
        lambda: cl.clear_render_target(t, [0, 0, 0, 0]),
        lambda: cl.transition_barrier(t, S.PIXEL_SHADER_RESOURCE),
        lambda: cl.transition_barrier(b, S.UNORDERED_ACCESS),
        lambda: cl.raw_transition(t, S.RENDER_TARGET, S.COPY_SOURCE),
        lambda: cl.dispatch(1),
    ]
    for f in refused:
        with pytest.raises(dx.InvalidArgumentError):
            f()
    cl.transition_barrier(t, S.COPY_SOURCE)  # legal there


def test_compute_queue_lists_refuse_graphics_work(dev):
    cl = dev.queue("compute").command_list()
    b = dev.create_buffer(256)
    t = dev.create_texture2d(4, 4, render_target=True)
    d = dev.create_texture2d(4, 4, "d32_float", depth_stencil=True)
    refused = [
        lambda: cl.transition_barrier(t, S.RENDER_TARGET),
        lambda: cl.transition_barrier(t, S.PIXEL_SHADER_RESOURCE),
        lambda: cl.transition_barrier(d, S.DEPTH_READ),
        lambda: cl.transition_barrier(b, S.INDEX_BUFFER),
        lambda: cl.set_index_buffer(b),
        lambda: cl.set_vertex_buffer(0, b, 16),
        lambda: cl.set_viewport(0, 0, 4, 4),
        lambda: cl.clear_render_target(t, [0, 0, 0, 0]),
        lambda: cl.clear_depth_stencil(d),
        lambda: cl.draw(3),
    ]
    for f in refused:
        with pytest.raises(dx.InvalidArgumentError):
            f()
    for ok in (S.NON_PIXEL_SHADER_RESOURCE, S.COPY_SOURCE, S.VERTEX_AND_CONSTANT_BUFFER):
        cl.transition_barrier(b, ok)


# -------------------------------------------------------------- item 13: decay per execute call

def test_no_decay_between_lists_of_one_execute(dev):
    q = dev.queue()
    b = dev.create_buffer(256, uav=True, name="B13")
    dst = dev.create_buffer(256, name="D13")
    pso = dev.create_compute_pipeline(dx.compile_hlsl(STORE7_CS), dev.create_root_signature([dx.RootUAV(0)]))
    for _ in range(2):  # the second round starts from the decayed COMMON state
        l0 = q.command_list()
        l0.set_pipeline_state(pso)
        l0.set_root_uav(0, b)
        l0.dispatch(1)
        l1 = q.command_list()
        l1.copy_buffer_region(dst, 0, b, 0, 256)
        q.wait(q.execute([l0, l1]))
        # list 0 promoted B from COMMON to UNORDERED_ACCESS; it stays there until the call ends
        assert q.last_inserted_barriers == [(1, "B13", ALL, S.UNORDERED_ACCESS, S.COPY_SOURCE)]
        assert b.global_state() == S.COMMON and dst.global_state() == S.COMMON  # decayed after the call
        assert q.read_buffer(dst, np.uint32)[:2].tolist() == [7, 8]


# ------------------------------------------------------------- item 14: depth-stencil planes

@pytest.mark.parametrize("fmt", ["d24_unorm_s8_uint", "d32_float_s8x24_uint"])
def test_stencil_plane_is_tracked_per_mip(dev, fmt):
    q = dev.queue()
    d = dev.create_texture2d(8, 8, fmt, depth_stencil=True, mip_levels=2, name="ds")
    assert d.num_subresources == 2 * 2  # mips * array * planes
    cl = q.command_list()
    cl.clear_depth_stencil(d, 0.5, 3)
    cl.clear_depth_stencil(d, 0.5, 3, mip=1)  # a clear transitions only the (mip, slice) it clears
    q.wait(q.execute(cl))
    assert d.global_state() == S.DEPTH_WRITE
    # Mip 1 alone as a shader resource: both of its planes move, mip 0 (both planes) stays.
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)])])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(
        "Texture2D<float> t : register(t0);\n[numthreads(1,1,1)] void main() { float x = t.Load(int3(0,0,1)); }\n"), rs)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, d, mip=1)
    cl.dispatch(1)
    q.wait(q.execute(cl))
    subs = {(mip, plane): mip + plane * 2 for mip in range(2) for plane in range(2)}
    assert d.global_state(subs[0, 0]) == S.DEPTH_WRITE and d.global_state(subs[0, 1]) == S.DEPTH_WRITE
    assert d.global_state(subs[1, 0]) == S.NON_PIXEL_SHADER_RESOURCE
    assert d.global_state(subs[1, 1]) == S.NON_PIXEL_SHADER_RESOURCE
    sorted_barriers = sorted(q.last_inserted_barriers)
    assert sorted_barriers == [(0, "ds", subs[1, 0], S.DEPTH_WRITE, S.NON_PIXEL_SHADER_RESOURCE),
                               (0, "ds", subs[1, 1], S.DEPTH_WRITE, S.NON_PIXEL_SHADER_RESOURCE)]
    with pytest.raises(dx.InvalidArgumentError):
        q.command_list().transition_barrier(d, S.DEPTH_READ, 4)  # 4 subresources: 0..3


def test_validate_option_reaches_every_device(request, device):
    """pytest --validate (CI's second run of tests/device) turns validation on everywhere."""
    on = request.config.getoption("--validate")
    assert device.validate == on and dx.Device().validate == on
    assert dx.Device(validate=False).validate is False


DEPTH_VS = """
cbuffer C : register(b0) { float z; float3 pad; float4 color; };
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), z, 1);
}
"""
DEPTH_PS = """
cbuffer C : register(b0) { float z; float3 pad; float4 color; };
float4 main(float4 pos : SV_Position) : SV_Target { return color; }
"""


@pytest.mark.parametrize("fmt", ["d24_unorm_s8_uint", "d32_float_s8x24_uint"])
def test_depth_stencil_formats_end_to_end(dev, fmt):
    """Clear depth and stencil, draw with the depth test, read the depth plane back."""
    q = dev.queue()
    n = 16
    rs = dev.create_root_signature([dx.RootConstants(0, 8)])
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(DEPTH_VS, profile="vs_5_0"), dx.compile_hlsl(DEPTH_PS, profile="ps_5_0"),
                                       rs, rtv_formats=["rgba8_unorm"], dsv_format=fmt, depth_test=True)
    rt = dev.create_texture2d(n, n, render_target=True, name="color14")
    ds = dev.create_texture2d(n, n, fmt, depth_stencil=True, name="depth14")
    assert ds.num_subresources == 2
    cl = q.command_list()
    cl.clear_render_target(rt, [0, 0, 0, 1])
    cl.clear_depth_stencil(ds, 1.0, 5)
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt], ds)
    cl.set_constants(0, [0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0])   # red at z = 0.5: passes (0.5 < 1)
    cl.draw(3)
    cl.set_constants(0, [0.75, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0])  # green at z = 0.75: fails (0.75 > 0.5)
    cl.draw(3)
    cl.set_constants(0, [0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0])  # blue at z = 0.25: passes
    cl.draw(3)
    q.wait(q.execute(cl))
    assert ds.global_state() == S.DEPTH_WRITE  # both planes
    assert (q.read_texture(rt) == np.array([0, 0, 255, 255], np.uint8)).all()
    depth = q.read_texture(ds)[..., 0]
    assert depth.shape == (n, n)
    if fmt == "d24_unorm_s8_uint":  # 24-bit unorm in the low bits; the high 8 bits are not the depth plane's
        np.testing.assert_allclose((depth & 0xFFFFFF) / 0xFFFFFF, 0.25, atol=1e-6)
    else:
        np.testing.assert_array_equal(depth, np.float32(0.25))
    assert ds.global_state(0) == S.COPY_SOURCE and ds.global_state(1) == S.DEPTH_WRITE  # only the depth plane was read


LONG_TABLE_CS = """
RWTexture2D<float> o : register(u0);
[numthreads(64,1,1)] void main(uint3 t : SV_DispatchThreadID) {
  float a = t.x; [loop] for (uint i = 0; i < 60000u; ++i) { a = a * 0.5f + o[uint2(i & 7, 0)]; } o[uint2(t.x & 7, 0)] = a; }
"""


def test_descriptor_heap_exhaustion_waits_without_the_gil():
    """A dispatch that must wait for the GPU to free shader-visible descriptors (Device.WaitForProgress)
    releases the GIL meanwhile: another Python thread keeps running."""
    d = dx.Device(descriptor_heap_size=256, dynamic_chunk_size=256)  # one dynamic chunk
    q = d.queue()
    rs = d.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = d.create_compute_pipeline(dx.compile_hlsl(LONG_TABLE_CS), rs)
    buf = d.create_texture2d(8, 1, "r32_float", uav=True)

    def record(groups):
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_unordered_access_view(0, 0, buf)
        cl.dispatch(groups)
        return cl

    first = q.execute(record(128))  # holds the only chunk until it completes
    with ticking() as ticks:
        before = len(ticks)
        second = record(1)  # waits inside dispatch() for the first list's fence
        assert q.completed_value >= first
    assert len(ticks) - before > 5
    q.wait(q.execute(second))


def test_ctrl_c_interrupts_a_wait_for_descriptors_inside_dispatch():
    """dispatch() waiting for shader-visible descriptors held by a long GPU job is interruptible too."""
    r = run_script(f"""
import os, time, signal, threading, dx12kit as dx
signal.signal(signal.SIGINT, signal.default_int_handler)
d = dx.Device(descriptor_heap_size=256, dynamic_chunk_size=256)
q = d.queue()
rs = d.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
pso = d.create_compute_pipeline(dx.compile_hlsl('''{LONG_TABLE_CS}'''), rs)
t = d.create_texture2d(8, 1, "r32_float", uav=True)
def record(groups):
    cl = q.command_list(); cl.set_pipeline_state(pso); cl.set_unordered_access_view(0, 0, t); cl.dispatch(groups); return cl
q.execute(record(65535))
threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
t0 = time.time()
try:
    record(1)
    print("returned", flush=True)
except KeyboardInterrupt:
    print(f"interrupted {{time.time() - t0:.2f}}", flush=True)
os._exit(0)
""", timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    line = [x for x in r.stdout.splitlines() if x.startswith(("interrupted", "returned"))]
    assert line and line[0].startswith("interrupted"), r.stdout
    assert float(line[0].split()[1]) < 1.5


def test_ctrl_c_at_exit_stops_waiting_for_a_busy_gpu():
    """At interpreter exit the device waits for its GPU work (never frees memory under the GPU);
    Ctrl-C then abandons the wait (leaking the in-flight work) and the process exits at once."""
    script = SIGINT_SCRIPT.split("threading.Timer")[0] + "print('exiting', flush=True)\n"
    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    p = subprocess.Popen([sys.executable, "-c", script.format(cs=LONG_CS)], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "exiting"
        time.sleep(1.0)  # now in interpreter shutdown, inside ~Device's wait
        assert p.poll() is None  # still waiting for the GPU
        p.send_signal(2)  # SIGINT
        t0 = time.monotonic()
        p.wait(timeout=30)
        assert time.monotonic() - t0 < 3
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdout.close()


@pytest.mark.parametrize("fmt", ["d24_unorm_s8_uint", "d32_float_s8x24_uint"])
def test_stencil_test_end_to_end(dev, fmt):
    """The stencil plane works: mark the left half (stencil 'replace' under a scissor), then draw the
    whole target with stencil 'equal': only the marked half is drawn."""
    q = dev.queue()
    n = 16
    rs = dev.create_root_signature([dx.RootConstants(0, 8)])
    vs, ps = dx.compile_hlsl(DEPTH_VS, profile="vs_5_0"), dx.compile_hlsl(DEPTH_PS, profile="ps_5_0")
    mark = dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"], dsv_format=fmt,
                                        stencil_func="always", stencil_pass_op="replace")
    test = dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"], dsv_format=fmt, stencil_func="equal")
    rt = dev.create_texture2d(n, n, render_target=True, name="color14s")
    ds = dev.create_texture2d(n, n, fmt, depth_stencil=True, mip_levels=2, name="stencil14")
    cl = q.command_list()
    cl.clear_render_target(rt, [0, 0, 0, 1])
    cl.clear_depth_stencil(ds, 1.0, 0)
    cl.set_render_targets([rt], ds)
    cl.set_pipeline_state(mark)
    cl.set_stencil_ref(1)
    cl.set_scissor(0, 0, n // 2, n)
    cl.set_constants(0, [0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0])  # red, marks stencil = 1
    cl.draw(3)
    cl.set_scissor(0, 0, n, n)
    cl.set_pipeline_state(test)
    cl.set_constants(0, [0.5, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0])  # green where stencil == 1
    cl.draw(3)
    q.wait(q.execute(cl))
    out = q.read_texture(rt)
    assert (out[:, : n // 2] == np.array([0, 255, 0, 255], np.uint8)).all()
    assert (out[:, n // 2:] == np.array([0, 0, 0, 255], np.uint8)).all()
    with pytest.raises(dx.InvalidArgumentError):
        q.command_list().set_stencil_ref(256)
    with pytest.raises(dx.InvalidArgumentError, match="stencil"):
        dev.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"], dsv_format="d32_float", stencil_func="equal")
    with pytest.raises(dx.InvalidArgumentError):
        dev.queue("compute").command_list().set_stencil_ref(1)
