"""uma_direct (issue 10 item 2): on a cache-coherent UMA adapter 'default' buffers live in CPU-visible
memory; CommandList.upload into an idle buffer and CommandQueue.read_buffer are one memcpy, and every
D3D12 ordering rule still holds (dx12kit/gpu/UmaAccess.hpp). Each behaviour is checked with
uma_direct on and off (off: the staging paths, unchanged)."""
from __future__ import annotations

import gc

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


def uploaded(q, buf, arr):
    cl = q.command_list()
    cl.upload(buf, arr)
    q.wait(q.execute(cl))


def test_the_option_and_where_it_applies(dev):
    assert dx.Device(uma_direct=False).uma_direct is False
    b = dev.create_buffer(1024, name="opt")
    with pytest.raises(InvalidArgumentError):
        b.map()  # still a 'default' buffer: not mappable by the user
    expected_heap = "custom" if dev.uma_direct else "default"
    assert b.allocation["heap_type"] == expected_heap


def test_round_trip_and_new_buffers_read_zero(dev, q):
    b = dev.create_buffer(N * 4, name="rt")
    np.testing.assert_array_equal(q.read_buffer(b, np.uint32), np.zeros(N, np.uint32))
    x = data(1)
    cl = q.command_list()
    cl.upload(b, x)
    assert cl.upload_pages == (0 if dev.uma_direct else 1)  # idle buffer: written directly
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(b, np.uint32), x)
    # at an offset, a part
    cl = q.command_list()
    cl.upload(b, x[:100] + 1, offset=400)
    q.wait(q.execute(cl))
    exp = x.copy()
    exp[100:200] = x[:100] + 1
    np.testing.assert_array_equal(q.read_buffer(b, np.uint32), exp)


def test_read_buffer_waits_for_the_gpu_work_that_wrote_it(dev, q, fill):
    b = dev.create_buffer(N * 4, uav=True, name="gpuwritten")
    for v in (5, 1000):
        cl = q.command_list()
        record_fill(cl, fill, b, v)
        q.execute(cl)  # not waited for: read_buffer must wait
        np.testing.assert_array_equal(q.read_buffer(b, np.uint32), v + np.arange(N, dtype=np.uint32))


def test_upload_into_a_busy_buffer_is_staged_and_lands_in_list_order(dev, q, fill):
    b = dev.create_buffer(N * 4, uav=True, name="busy")
    x = data(2)
    cl = q.command_list()
    record_fill(cl, fill, b, 7)
    q.execute(cl)  # in flight (or maybe done): the upload below must land after it
    cl = q.command_list()
    cl.upload(b, x)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(b, np.uint32), x)


def test_upload_after_a_use_in_the_same_list_is_staged(dev, q):
    a = dev.create_buffer(N * 4, name="a")
    c = dev.create_buffer(N * 4, name="c")
    old, new = data(3), data(4)
    uploaded(q, a, old)
    cl = q.command_list()
    cl.copy_resource(c, a)      # reads the old contents when the list runs
    cl.upload(a, new)           # so this may not write a at record time
    assert cl.upload_pages == 1
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(c, np.uint32), old)
    np.testing.assert_array_equal(q.read_buffer(a, np.uint32), new)


def test_upload_while_another_open_list_uses_the_buffer_is_staged(dev, q):
    a = dev.create_buffer(N * 4, name="a2")
    c = dev.create_buffer(N * 4, name="c2")
    old, new = data(5), data(6)
    uploaded(q, a, old)
    reader = q.command_list()
    reader.copy_resource(c, a)  # open, executed first below
    writer = q.command_list()
    writer.upload(a, new)
    assert writer.upload_pages == 1
    q.execute(reader)
    q.wait(q.execute(writer))
    np.testing.assert_array_equal(q.read_buffer(c, np.uint32), old)
    np.testing.assert_array_equal(q.read_buffer(a, np.uint32), new)


def test_a_pending_direct_write_cannot_be_observed_early(dev, q):
    a = dev.create_buffer(N * 4, name="a3")
    c = dev.create_buffer(N * 4, name="c3")
    old, new = data(7), data(8)
    uploaded(q, a, old)
    writer = q.command_list()
    writer.upload(a, new)
    reader = q.command_list()
    reader.copy_resource(c, a)
    if dev.uma_direct:
        # written at record time: executing the reader first, or reading, would show it early
        with pytest.raises(InvalidArgumentError, match="a3"):
            q.execute(reader)
        with pytest.raises(InvalidArgumentError, match="a3"):
            q.read_buffer(a, np.uint32)
        q.execute(writer)
        q.wait(q.execute(reader))  # the failed execute left the reader executable
        np.testing.assert_array_equal(q.read_buffer(c, np.uint32), new)
    else:
        q.wait(q.execute(reader))  # D3D12 order: the reader runs first and sees the old data
        np.testing.assert_array_equal(q.read_buffer(c, np.uint32), old)
        q.wait(q.execute(writer))
    np.testing.assert_array_equal(q.read_buffer(a, np.uint32), new)


def test_a_dropped_list_releases_the_buffer(dev, q):
    a = dev.create_buffer(N * 4, name="a4")
    x, y = data(9), data(10)
    cl = q.command_list()
    cl.upload(a, x)
    del cl
    gc.collect()
    uploaded(q, a, y)  # idle again: neither refused nor ordered after the dropped list
    np.testing.assert_array_equal(q.read_buffer(a, np.uint32), y)


def test_compute_and_copy_queues_see_direct_uploads(dev, fill):
    for kind in ("compute", "copy"):
        q = dev.queue(kind)
        a = dev.create_buffer(N * 4, name=f"a_{kind}")
        c = dev.create_buffer(N * 4, name=f"c_{kind}")
        x = data(11)
        cl = q.command_list()
        cl.upload(a, x)
        cl.copy_resource(c, a)
        q.wait(q.execute(cl))
        np.testing.assert_array_equal(q.read_buffer(c, np.uint32), x)


def test_textures_are_unaffected(dev, q):
    img = np.random.default_rng(12).integers(0, 256, (32, 32, 4), np.uint8)
    t = dev.create_texture2d(32, 32, "rgba8_unorm", name="tex")
    cl = q.command_list()
    cl.upload(t, img)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_texture(t), img)


def test_read_buffer_into_out(dev, q):
    b = dev.create_buffer(N * 4, name="out")
    x = data(13)
    uploaded(q, b, x)
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


def test_two_threads_uploading_into_one_idle_buffer_never_mix(dev, q):
    # Both lists find the buffer idle; one claims the direct write, the other stages. Executed in
    # an order D3D12 allows, the buffer holds exactly the last list's data, never a mix of both.
    import threading

    n = 3 << 20  # large enough to be split over the copy threads
    buf = dev.create_buffer(n, name="contended")
    a = np.full(n, 0xAA, np.uint8)
    b = np.full(n, 0x55, np.uint8)
    for _ in range(20):
        lists: dict = {}
        barrier = threading.Barrier(2)

        def record(key, data):
            cl = q.command_list()
            barrier.wait()
            cl.upload(buf, data)
            lists[key] = cl

        ts = [threading.Thread(target=record, args=(k, d)) for k, d in (("a", a), ("b", b))]
        for t in ts:
            t.start()
        for t in ts:
            t.join(30)
        order = ["a", "b"]
        try:
            q.execute(lists["a"])
        except InvalidArgumentError as e:  # "b" wrote it directly: D3D12 order needs "b" first
            assert "execute that list first" in str(e)
            order = ["b", "a"]
            q.execute(lists["b"])
            q.execute(lists["a"])
        else:
            q.execute(lists["b"])
        out = q.read_buffer(buf)
        last = a if order[-1] == "a" else b
        assert np.array_equal(out, last), (order, np.unique(out))
