"""Host copies over several threads (speed): uploads, read_buffer and read_texture of 2 MiB
and more are split over dx12kit.copy_threads() threads (cpp/include/dx12kit/base/HostCopy.hpp).
Every byte must land where a single memcpy puts it, on the UMA-direct and the staging paths, for
buffers and pitched texture rows, and from several Python threads at once."""
from __future__ import annotations

import threading
from typing import Iterator

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import InvalidArgumentError

MIB = 1 << 20


@pytest.fixture(autouse=True)
def default_threads() -> Iterator[None]:
    yield
    dx.set_copy_threads(None)


@pytest.fixture(scope="module", params=[True, False], ids=["uma_direct", "staging"])
def dev(request):
    d = dx.Device(uma_direct=request.param)
    yield d
    d.wait_idle()


def test_set_copy_threads_checks_its_argument():
    with pytest.raises(TypeError):
        dx.set_copy_threads("2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        dx.set_copy_threads(2.0)  # type: ignore[arg-type]
    for flag in (True, False):  # a bool is not a count (True was taken as 1)
        with pytest.raises(TypeError, match="not bool"):
            dx.set_copy_threads(flag)
    for bad in (0, 65, -1):
        with pytest.raises(InvalidArgumentError, match="set_copy_threads|copy threads"):
            dx.set_copy_threads(bad)
    dx.set_copy_threads(3)
    assert dx.copy_threads() == 3
    dx.set_copy_threads(None)
    assert 1 <= dx.copy_threads() <= 64


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_buffer_upload_and_readback_exact(dev, threads):
    dx.set_copy_threads(threads)
    q = dev.queue()
    n = 9 * MIB + 12  # not a multiple of any piece size
    data = np.random.default_rng(threads).integers(0, 256, n, dtype=np.uint8)
    buf = dev.create_buffer(n)
    before = dx.copy_stats()
    cl = q.command_list()
    cl.upload(buf, data)
    q.wait(q.execute(cl))
    out = q.read_buffer(buf)
    after = dx.copy_stats()
    assert np.array_equal(out, data)
    assert after["copies"] - before["copies"] >= 2 and after["bytes"] - before["bytes"] >= 2 * n
    split = after["parallel_copies"] - before["parallel_copies"]
    # the upload: into upload memory, then (uma_direct) into the buffer at execute; the readback: one
    expected = 3 if dev.uma_direct else 2
    assert split == (0 if threads == 1 else expected), "the upload and the readback: one split copy each step"
    # Into the caller's array, at an address that is not page aligned (one byte into a larger array).
    big = np.full(n + 2, 7, np.uint8)
    into = big[1:n + 1]
    assert into.flags.c_contiguous and into.ctypes.data % 4096 != 0
    q.read_buffer(buf, out=into)
    assert np.array_equal(into, data) and big[0] == 7 and big[-1] == 7


@pytest.mark.parametrize("threads", [1, 2])
def test_pitched_texture_rows_exact(dev, threads):
    # 1000 texels of rgba8 = 4000 bytes a row, 4096 in D3D12's copy layout: the rows are copied in
    # bands, both on upload (into the upload page) and on read_texture (out of the readback buffer).
    dx.set_copy_threads(threads)
    q = dev.queue()
    img = np.random.default_rng(5).integers(0, 256, (700, 1000, 4), dtype=np.uint8)
    tex = dev.create_texture2d(1000, 700, "rgba8_unorm")
    before = dx.copy_stats()["parallel_copies"]
    cl = q.command_list()
    cl.upload(tex, img)
    q.wait(q.execute(cl))
    got = q.read_texture(tex)
    assert np.array_equal(got.reshape(img.shape), img)
    assert dx.copy_stats()["parallel_copies"] - before == (0 if threads == 1 else 2)


def test_copies_from_several_threads_at_once(dev):
    dx.set_copy_threads(2)
    q = dev.queue()
    n = 3 * MIB + 4
    k = 4
    bufs = [dev.create_buffer(n) for _ in range(k)]
    datas = [np.random.default_rng(50 + i).integers(0, 256, n, dtype=np.uint8) for i in range(k)]
    errors: list[str] = []

    def worker(i: int) -> None:
        try:
            for r in range(6):
                d = datas[i] ^ np.uint8(r)
                cl = q.command_list()
                cl.upload(bufs[i], d)
                q.wait(q.execute(cl))
                out = q.read_buffer(bufs[i])
                if not np.array_equal(out, d):
                    errors.append(f"thread {i} round {r}: {int(np.count_nonzero(out != d))} bytes differ")
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(f"thread {i}: {e!r}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(k)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a copy hung"
    assert errors == []


def test_new_readback_arrays_reuse_freed_blocks(dev):
    # Readbacks of 1 MiB or more into new arrays take blocks freed by earlier such arrays (their
    # pages already faulted in); the contents are always the buffer's, the arrays ordinary.
    q = dev.queue()
    n = 2 * MIB
    buf = dev.create_buffer(n)
    x = np.random.default_rng(5).integers(0, 256, n, dtype=np.uint8)
    cl = q.command_list()
    cl.upload(buf, x)
    q.wait(q.execute(cl))
    a = q.read_buffer(buf)
    addr = a.ctypes.data
    assert addr % 4096 == 0 and a.flags.writeable and a.flags.c_contiguous
    a[:] = 0  # the caller's to change
    del a
    b = q.read_buffer(buf, np.uint32)
    assert b.ctypes.data == addr  # the freed block, reused
    np.testing.assert_array_equal(b.view(np.uint8), x)
    c = q.read_buffer(buf)  # b still alive: another block
    assert c.ctypes.data != addr
    np.testing.assert_array_equal(c, x)
    small = q.read_buffer(dev.create_buffer(4096))  # below 1 MiB: a plain numpy allocation
    np.testing.assert_array_equal(small, np.zeros(4096, np.uint8))
