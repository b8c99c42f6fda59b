"""uma_direct (on by default): on a cache-coherent UMA adapter 'default' buffers live
in CPU-visible memory; CommandList.upload into one lands at execute, in execution order (a CPU copy,
or a GPU copy before the list while the buffer is still in use), and CommandQueue.read_buffer is one
memcpy; every D3D12 ordering rule holds (dx12kit/gpu/UmaAccess.hpp). Each behaviour is checked with
uma_direct on and off (off: the staging paths, unchanged)."""
from __future__ import annotations

import functools
import gc
import threading

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import InvalidArgumentError

FILL_CS = """
cbuffer C : register(b0) { uint value; uint count; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { if (id.x < count) o[id.x] = value + id.x; }
"""

N = 1 << 16  # uints


@pytest.fixture(scope="module", params=[True, False], ids=["uma_direct", "staging"])
def dev(request):
    d = dx.Device(uma_direct=request.param)
    if request.param and not d.uma_direct:
        pytest.skip("the adapter is not cache-coherent UMA")
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def q(dev):
    return dev.queue("direct")


@pytest.fixture(scope="module")
def fill(dev):
    rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0)])
    return dev.create_compute_pipeline(dx.compile_hlsl(FILL_CS, profile="cs_5_0"), rs)


def record_fill(cl, pso, buf, value, count=N):
    cl.set_pipeline_state(pso)
    cl.set_constants(0, [value, count])
    cl.set_root_uav(1, buf)
    cl.dispatch((count + 63) // 64)


def data(seed):
    return np.random.default_rng(seed).integers(0, 2**32, N, dtype=np.uint32)


def upload_list(q, buf, arr, **kw):
    """A list opened now (the order lists are opened in matters below) that uploads arr into buf."""
    cl = q.command_list()
    cl.upload(buf, arr, **kw)
    return cl


def copy_list(q, dst, src):
    """A list opened now that copies src into dst."""
    cl = q.command_list()
    cl.copy_resource(dst, src)
    return cl


def uploaded(q, buf, arr, **kw):
    q.wait(q.execute(upload_list(q, buf, arr, **kw)))


def buffer_holding(dev, q, name, arr):
    """A buffer of arr's size holding arr (uploaded, waited for)."""
    b = dev.create_buffer(arr.nbytes, name=name)
    uploaded(q, b, arr)
    return b


def buffer_and_copy(dev, q, name, old):
    """A buffer of N uints holding old and an empty one to copy it into."""
    return buffer_holding(dev, q, name, old), dev.create_buffer(N * 4, name=f"{name}_copy")


def assert_holds(q, buf, expected):
    np.testing.assert_array_equal(q.read_buffer(buf, np.uint32), expected)


def test_the_option_and_where_it_applies(dev):
    assert dx.Device(uma_direct=False).uma_direct is False
    b = dev.create_buffer(1024, name="opt")
    with pytest.raises(InvalidArgumentError):
        b.map()  # still a 'default' buffer: not mappable by the user
    expected_heap = "custom" if dev.uma_direct else "default"
    assert b.allocation["heap_type"] == expected_heap


def test_round_trip_and_new_buffers_read_zero(dev, q):
    b = dev.create_buffer(N * 4, name="rt")
    assert_holds(q, b, np.zeros(N, np.uint32))
    x = data(1)
    cl = upload_list(q, b, x)
    before = dev.stats()["uma_writes"]
    q.wait(q.execute(cl))
    after = dev.stats()["uma_writes"]
    assert after["cpu"] - before["cpu"] == (1 if dev.uma_direct else 0)  # idle buffer: the CPU writes it at execute
    assert after["gpu"] == before["gpu"]
    assert_holds(q, b, x)
    # at an offset, a part
    uploaded(q, b, x[:100] + 1, offset=400)
    exp = x.copy()
    exp[100:200] = x[:100] + 1
    assert_holds(q, b, exp)


def test_read_buffer_waits_for_the_gpu_work_that_wrote_it(dev, q, fill):
    b = dev.create_buffer(N * 4, uav=True, name="gpuwritten")
    for v in (5, 1000):
        cl = q.command_list()
        record_fill(cl, fill, b, v)
        q.execute(cl)  # not waited for: read_buffer must wait
        assert_holds(q, b, v + np.arange(N, dtype=np.uint32))


def test_upload_into_a_busy_buffer_lands_in_list_order(dev, q, fill):
    b = dev.create_buffer(N * 4, uav=True, name="busy")
    x = data(2)
    cl = q.command_list()
    record_fill(cl, fill, b, 7)
    q.execute(cl)  # in flight (or maybe done): the upload below must land after it
    uploaded(q, b, x)
    assert_holds(q, b, x)


SLOW_COPY_CS = """
cbuffer C : register(b0) { uint count; uint spin; };
StructuredBuffer<uint> src : register(t0);
RWStructuredBuffer<uint> dst : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= count) return;
    uint v = src[id.x];
    uint acc = v;
    for (uint i = 0; i < spin; ++i) acc = acc * 1664525u + 1013904223u;   // keeps the GPU busy
    dst[id.x] = acc == 0x9e3779b9u && spin == 1u ? 0u : v;                 // a copy (never 0 here)
}
"""
SLOW_N = 4096  # uints


@pytest.fixture(scope="module")
def slow_copy(dev):
    rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.RootSRV(0), dx.RootUAV(0)])
    return dev.create_compute_pipeline(dx.compile_hlsl(SLOW_COPY_CS, profile="cs_5_0"), rs)


@pytest.mark.parametrize("how", ["write_buffer", "upload"])
def test_a_write_into_a_buffer_the_gpu_still_reads_is_a_gpu_copy(dev, q, slow_copy, how):
    """A buffer a submitted list still reads (a slow copy out of it, tens of ms on lavapipe) is written by
    write_buffer / a later list's upload: on uma_direct the bytes cannot be written by the CPU at execute
    (the reader would see them), so they are copied on the GPU after the reader (stats uma_writes.gpu).
    The reader must see the old bytes, the buffer the new ones. Should the GPU finish the reader before
    the write looks (a stalled test process), the round is repeated with a slower reader."""
    a = dev.create_buffer(SLOW_N * 4, name=f"busy_{how}")
    seen = dev.create_buffer(SLOW_N * 4, uav=True, name=f"busy_{how}_seen")
    old = np.arange(1, SLOW_N + 1, dtype=np.uint32)
    new = old * 7 + 3
    took_gpu = False
    for spin in (8000, 65000, 400000):   # the last about a second on lavapipe: only after two stalls
        q.wait(q.write_buffer(a, old))
        reader = q.command_list()
        reader.set_pipeline_state(slow_copy)
        reader.set_constants(0, [SLOW_N, spin])
        reader.set_root_srv(1, a)
        reader.set_root_uav(2, seen)
        reader.dispatch(SLOW_N // 64)
        writer = None
        if how == "upload":
            writer = upload_list(q, a, new)   # opened first: opening a list polls the fences
        before = dev.stats()["uma_writes"]
        q.execute(reader)               # not waited for: still reading `a` below
        v = q.write_buffer(a, new) if writer is None else q.execute(writer)
        after = dev.stats()["uma_writes"]
        q.wait(v)
        assert_holds(q, seen, old)   # the reader saw the old bytes
        assert_holds(q, a, new)
        gpu, cpu = after["gpu"] - before["gpu"], after["cpu"] - before["cpu"]
        if not dev.uma_direct:
            assert gpu == cpu == 0   # staging: an upload list, never a direct write
            return
        assert gpu + cpu == 1
        if gpu == 1:
            took_gpu = True
            break
    assert took_gpu, "the reader always finished before the write: the GPU-copy path was not reached"


@pytest.mark.parametrize("where", ["in_the_same_list", "while_another_open_list_uses_the_buffer"])
def test_an_upload_after_a_use_lands_after_it(dev, q, where):
    old, new = data(3), data(4)
    a, c = buffer_and_copy(dev, q, f"a_{where}", old)
    reader = copy_list(q, c, a)     # reads the old contents when the list runs
    if where == "in_the_same_list":
        reader.upload(a, new)       # so this must land after the copy: staged in place
        q.wait(q.execute(reader))
    else:
        writer = upload_list(q, a, new)
        q.execute(reader)           # the reader's list, still open when the writer was recorded, runs first
        q.wait(q.execute(writer))
    assert_holds(q, c, old)
    assert_holds(q, a, new)


def test_a_list_opened_later_may_execute_first(dev, q):
    # D3D12 order is execution order: the reader, recorded after the writer but executed first,
    # sees the old data; read_buffer before the writer executes sees it too.
    old, new = data(7), data(8)
    a, c = buffer_and_copy(dev, q, "a3", old)
    writer = upload_list(q, a, new)
    reader = copy_list(q, c, a)
    assert_holds(q, a, old)
    q.wait(q.execute(reader))
    assert_holds(q, c, old)
    q.wait(q.execute(writer))
    assert_holds(q, a, new)


def test_reader_and_writer_in_one_execute_write_through_the_gpu(dev, q):
    # The writer's bytes cannot be written by the CPU at execute: the reader before it in the same
    # call has not run yet. They are copied on the GPU between the two lists.
    old, new = data(14), data(15)
    a, c = buffer_and_copy(dev, q, "a5", old)
    d = dev.create_buffer(N * 4, name="d5")
    reader = copy_list(q, c, a)
    writer = upload_list(q, a, new)
    after_write = copy_list(q, d, a)
    before = dev.stats()["uma_writes"]
    q.wait(q.execute([reader, writer, after_write]))
    if dev.uma_direct:
        assert dev.stats()["uma_writes"]["gpu"] - before["gpu"] == 1
    assert_holds(q, c, old)
    assert_holds(q, d, new)
    assert_holds(q, a, new)


@pytest.mark.parametrize("first", ["x", "y"])
def test_two_lists_writing_one_buffer_in_either_order(dev, q, first):
    buf = dev.create_buffer(N * 4, name="either")
    x, y = data(16), data(17)
    lx, ly = upload_list(q, buf, x), upload_list(q, buf, y)
    order = [lx, ly] if first == "x" else [ly, lx]
    q.execute(order[0])
    q.wait(q.execute(order[1]))
    assert_holds(q, buf, y if first == "x" else x)
    # both in one call: the later list's bytes win too
    lx, ly = upload_list(q, buf, x), upload_list(q, buf, y)
    q.wait(q.execute([ly, lx] if first == "x" else [lx, ly]))
    assert_holds(q, buf, x if first == "x" else y)


def test_several_writes_in_one_list_land_in_order_around_uses(dev, q):
    buf = dev.create_buffer(N * 4, name="several")
    c = dev.create_buffer(N * 4, name="several_copy")
    x, y, z = data(18), data(19), data(20)
    cl = upload_list(q, buf, x)
    cl.upload(buf, y[: N // 2], offset=0)   # pending too: nothing used buf in between
    cl.copy_resource(c, buf)               # sees y's half over x
    cl.upload(buf, z)                      # after a use: staged in place
    q.wait(q.execute(cl))
    exp = x.copy()
    exp[: N // 2] = y[: N // 2]
    assert_holds(q, c, exp)
    assert_holds(q, buf, z)


def test_an_executed_list_is_not_executed_again(dev, q):
    # D3D12 may re-execute a closed list; dx12kit refuses, so a pending write lands exactly once.
    buf = dev.create_buffer(N * 4, name="twice")
    x, y = data(21), data(22)
    cl = upload_list(q, buf, x)
    q.wait(q.execute(cl))
    uploaded(q, buf, y)
    with pytest.raises(InvalidArgumentError, match="already executed"):
        q.execute(cl)
    assert_holds(q, buf, y)


def test_a_failed_execute_writes_nothing(dev, q):
    x, y = data(23), data(24)
    buf = buffer_holding(dev, q, "failed", x)
    cl = upload_list(q, buf, y)
    other = dev.queue("compute").command_list()
    with pytest.raises(InvalidArgumentError, match="another queue"):
        q.execute([cl, other])
    assert_holds(q, buf, x)
    q.wait(q.execute(cl))  # still executable: writes now
    assert_holds(q, buf, y)


def test_a_write_after_gpu_use_on_another_queue(dev, fill):
    # The compute queue fills the buffer (not waited for); a copy-queue list then uploads into it:
    # the upload lands after the fill, whichever path it takes.
    cq, kq = dev.queue("compute"), dev.queue("copy")
    buf = dev.create_buffer(N * 4, uav=True, name="xq")
    x = data(25)
    for _ in range(3):
        cl = cq.command_list()
        record_fill(cl, fill, buf, 3)
        cq.execute(cl)
        uploaded(kq, buf, x)
        assert_holds(kq, buf, x)


def test_a_dropped_list_writes_nothing(dev, q):
    x, y = data(9), data(10)
    a = buffer_holding(dev, q, "a4", y)
    cl = upload_list(q, a, x)
    del cl
    gc.collect()
    assert_holds(q, a, y)  # never executed: never written
    uploaded(q, a, x)
    assert_holds(q, a, x)


def test_compute_and_copy_queues_see_direct_uploads(dev, fill):
    for kind in ("compute", "copy"):
        q = dev.queue(kind)
        a = dev.create_buffer(N * 4, name=f"a_{kind}")
        c = dev.create_buffer(N * 4, name=f"c_{kind}")
        x = data(11)
        cl = upload_list(q, a, x)
        cl.copy_resource(c, a)
        q.wait(q.execute(cl))
        assert_holds(q, c, x)


def test_textures_are_unaffected(dev, q):
    img = np.random.default_rng(12).integers(0, 256, (32, 32, 4), np.uint8)
    t = dev.create_texture2d(32, 32, "rgba8_unorm", name="tex")
    uploaded(q, t, img)
    np.testing.assert_array_equal(q.read_texture(t), img)


def test_read_buffer_into_out(dev, q):
    x = data(13)
    b = buffer_holding(dev, q, "out", x)
    out = np.empty(N, np.uint32)
    assert q.read_buffer(b, out=out) is out
    np.testing.assert_array_equal(out, x)
    as_bytes = np.empty(N * 4, np.uint8)
    q.read_buffer(b, out=as_bytes)
    np.testing.assert_array_equal(as_bytes.view(np.uint32), x)
    with pytest.raises(InvalidArgumentError, match="bytes"):
        q.read_buffer(b, out=np.empty(N - 1, np.uint32))
    with pytest.raises(InvalidArgumentError, match="C-contiguous"):
        q.read_buffer(b, out=np.empty(2 * N, np.uint32)[::2])
    with pytest.raises(TypeError):
        q.read_buffer(b, out=bytearray(N * 4))
    ro = np.empty(N, np.uint32)
    ro.flags.writeable = False
    with pytest.raises(InvalidArgumentError, match="writable"):
        q.read_buffer(b, out=ro)


def _on_threads(*targets, seconds=30):
    """Runs each target on a thread of its own and joins them all (seconds each at the most)."""
    threads = [threading.Thread(target=t) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds)
    assert not any(t.is_alive() for t in threads), "threads still running"


def _submitted_together(count, prepare):
    """On count threads: prepare(k) (k = 0 .. count-1) returns a submit function; once every thread has
    prepared, all submit at once. Returns {k: the fence value submit returned}."""
    barrier = threading.Barrier(count)
    values: dict = {}

    def run(k):
        submit = prepare(k)
        barrier.wait()
        values[k] = submit()

    _on_threads(*(functools.partial(run, k) for k in range(count)))
    assert len(values) == count
    return values


def test_threads_recording_and_executing_uploads_into_one_buffer(dev, q):
    # Several threads record an upload into the same buffer and execute it; the buffer ends with
    # exactly the bytes of the list executed last (execute order is the order of the returned
    # fence values), never a mix.
    n = 3 << 20  # large enough to be split over the copy threads
    buf = dev.create_buffer(n, name="contended")
    fills = [np.full(n, v, np.uint8) for v in (0x11, 0x55, 0xAA, 0xEE)]

    def record(k):  # recorded before the threads meet; executed together
        return functools.partial(q.execute, upload_list(q, buf, fills[k]))

    for _ in range(8):
        values = _submitted_together(len(fills), record)
        last = max(values, key=values.__getitem__)
        out = q.read_buffer(buf)
        assert np.array_equal(out, fills[last]), (values, np.unique(out))


def test_write_buffer_is_a_one_upload_list_executed_now(dev, q):
    buf = dev.create_buffer(N * 4, name="wb")
    c = dev.create_buffer(N * 4, name="wb_copy")
    old, new = data(26), data(27)
    before = dev.stats()["uma_writes"]["cpu"]
    q.wait(q.write_buffer(buf, old))
    if dev.uma_direct:  # idle: one memcpy, nothing submitted
        assert dev.stats()["uma_writes"]["cpu"] - before == 1
    assert_holds(q, buf, old)
    opened_before = copy_list(q, c, buf)  # executed after the write below: sees it
    d = dev.create_buffer(N * 4, name="wb_reader")
    reader = copy_list(q, d, buf)
    q.execute(reader)  # submitted before the write: sees the old bytes, busy or not
    q.wait(q.write_buffer(buf, new[:100], offset=400))
    q.wait(q.execute(opened_before))
    exp = old.copy()
    exp[100:200] = new[:100]
    assert_holds(q, d, old)
    assert_holds(q, c, exp)
    assert_holds(q, buf, exp)


def test_write_buffer_refusals(dev, q):
    buf = dev.create_buffer(1024, name="wb_bad")
    with pytest.raises(InvalidArgumentError, match="wb_bad"):
        q.write_buffer(buf, np.zeros(300, np.uint32))  # 1200 bytes do not fit
    with pytest.raises(InvalidArgumentError, match="offset"):
        q.write_buffer(buf, np.zeros(4, np.uint32), offset=1021)
    with pytest.raises(InvalidArgumentError, match="texture"):
        q.write_buffer(dev.create_texture2d(4, 4, "rgba8_unorm"), np.zeros(64, np.uint8))
    with pytest.raises(TypeError):
        q.write_buffer(np.zeros(4), np.zeros(4, np.uint8))
    with pytest.raises(TypeError):
        q.write_buffer(buf, "text")
    buf.close()
    with pytest.raises(dx.UseAfterFreeError):
        q.write_buffer(buf, np.zeros(4, np.uint8))


def test_threads_writing_one_buffer_with_write_buffer_never_mix(dev, q):
    n = 3 << 20  # split over the copy threads
    buf = dev.create_buffer(n, name="wb_threads")
    fills = [np.full(n, v, np.uint8) for v in (0x22, 0x66, 0x99, 0xDD)]
    for _ in range(5):
        values = _submitted_together(len(fills), lambda k: functools.partial(q.write_buffer, buf, fills[k]))
        q.wait(max(values.values()))
        out = q.read_buffer(buf)
        assert len(np.unique(out)) == 1 and out[0] in (0x22, 0x66, 0x99, 0xDD)


def _race(writer, reader, seconds=60):
    """Runs writer() once and reader() until the writer ends, on two threads; returns the reader's torn reads."""
    done = threading.Event()
    errors: list = []
    torn: list = []

    def write():
        try:
            writer()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            done.set()

    def read():
        try:
            while not done.is_set():
                values = reader()
                if values.size > 1:
                    torn.append(values[:4].tolist())
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    _on_threads(write, read, seconds=seconds)
    assert not errors, errors[0]
    return torn


def _zeroed(dev, q, n, name, **kw):
    """A buffer of n uints, zeroed (waited for)."""
    buf = dev.create_buffer(n * 4, name=name, **kw)
    q.wait(q.write_buffer(buf, np.zeros(n, np.uint32)))
    return buf


def _assert_never_torn(q, buf, writer, stride, what):
    """While writer() runs, every read of buf (each stride-th uint) holds one value: never two writes mixed."""
    torn = _race(writer, lambda: np.unique(q.read_buffer(buf, np.uint32)[::stride]))
    assert not torn, f"{len(torn)} reads mixed two {what}, e.g. {torn[0]}"


def _alternating_queues(q, compute, count, record):
    """count lists, on compute and q in turn: each recorded by record(cl, i), then executed (not waited for)."""
    for i in range(count):
        queue = q if i % 2 else compute
        cl = queue.command_list()
        record(cl, i)
        queue.execute(cl)


def test_read_buffer_never_sees_half_a_write_buffer(dev, q):
    # 1,000 whole-buffer writes on one thread, reads on another: a read is one state the buffer had in
    # submission order (a CPU write and a CPU read of a uma_direct buffer are exclusive).
    n = 1 << 18
    buf = _zeroed(dev, q, n, "torn_wb")
    patterns = [np.full(n, v, np.uint32) for v in range(1, 9)]

    def writer():
        for i in range(1000):
            q.write_buffer(buf, patterns[i % len(patterns)])

    _assert_never_torn(q, buf, writer, 1024, "writes")


def test_read_buffer_never_sees_half_a_dispatch_submitted_on_another_thread(dev, q, fill):
    # A dispatch submitted by another thread after the read's wait must not be read half-done.
    n = 1 << 16
    buf = _zeroed(dev, q, n, "torn_dispatch", uav=True)
    compute = dev.queue("compute")
    const_cs = FILL_CS.replace("value + id.x", "value")
    rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(const_cs, profile="cs_5_0"), rs)

    def writer():
        _alternating_queues(q, compute, 200, lambda cl, i: record_fill(cl, pso, buf, i + 1, n))

    _assert_never_torn(q, buf, writer, 256, "dispatches")


def test_read_buffer_never_sees_half_an_executed_upload(dev, q):
    # Lists uploading whole patterns, executed on two queues by one thread, read on another.
    n = 1 << 18
    buf = _zeroed(dev, q, n, "torn_upload")
    compute = dev.queue("compute")
    patterns = [np.full(n, v, np.uint32) for v in range(1, 9)]

    def writer():
        _alternating_queues(q, compute, 300, lambda cl, i: cl.upload(buf, patterns[i % len(patterns)]))

    _assert_never_torn(q, buf, writer, 1024, "uploads")
