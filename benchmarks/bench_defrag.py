"""Defragmentation and aliasing benchmarks.

- Full defragmentation: moves per second and MB/s of ``Device.defragment(algorithm="full")`` on a
  heap of hundreds of buffers and textures of mixed sizes after every other one was freed. Each
  round builds the fragmented heap anew (setup, not timed); afterwards every remaining resource is
  read back and compared byte for byte. Beside it, in the same run, the baseline: as many plain GPU
  copies (``copy_resource`` between buffers made beforehand) of the same bytes, executed and waited
  for: what the copies alone cost, so the ratio is what planning, placing and re-pointing add.
- Incremental defragmentation in a frame loop: the time one ``defragment(max_bytes=4 MiB)`` call
  takes while a frame's small list is recorded and executed around it; the calls that moved
  something and the no-op calls of the compact steady state are reported apart (extra_info).
- The cost of automatic aliasing tracking where nothing aliases: a list recording loop over plain
  buffers (copies between 64 buffers, all first uses), and the same loop over 64 buffers placed in
  disjoint ranges of one Device.allocate_memory (the tracker's aliasing path on every first use,
  no barrier); each checks the copies' results and that no aliasing barrier was recorded.

Run ``pytest benchmarks/bench_defrag.py`` (pytest-benchmark); ``--benchmark-disable`` smoke-runs it.
"""
from __future__ import annotations

import gc
import time

import numpy as np
import pytest

KiB = 1024
MiB = 1024 * 1024

N_BUFFERS = 320
N_TEXTURES = 64
FRAME_MAX_BYTES = 4 * MiB
N_FRAMES = 40


def fresh_device():
    import dx12kit as dx

    return dx.Device(uma_direct=False)  # 'default' buffers in the default pool, as docs/performance.rst's figures were measured


def fragmented(seed: int = 1):
    """A device whose default heap holds N_BUFFERS buffers (16 KiB - 512 KiB) and N_TEXTURES RGBA8
    textures (32-256 texels square) with known contents, every other one freed."""
    dev = fresh_device()
    q = dev.queue()
    rng = np.random.default_rng(seed)
    bufs, datas, texs, tdatas = [], [], [], []
    cl = q.command_list()
    for i in range(N_BUFFERS):
        n = int(rng.integers(1, 33)) * 16 * KiB
        b = dev.create_buffer(n, name=f"b{i}")
        d = rng.integers(0, 256, n, dtype=np.uint8)
        cl.upload(b, d)
        bufs.append(b)
        datas.append(d)
    for i in range(N_TEXTURES):
        side = int(rng.choice([32, 64, 128, 256]))
        t = dev.create_texture2d(side, side, "rgba8_unorm", name=f"t{i}")
        d = rng.integers(0, 256, (side, side, 4), dtype=np.uint8)
        cl.upload(t, d)
        texs.append(t)
        tdatas.append(d)
    q.wait(q.execute(cl))
    del bufs[::2], datas[::2], texs[::2], tdatas[::2]
    gc.collect()
    dev.wait_idle()
    dev.poll()
    dev.trim_memory()
    return dev, q, bufs, datas, texs, tdatas


def check_contents(q, bufs, datas, texs, tdatas):
    for b, d in zip(bufs, datas):
        np.testing.assert_array_equal(q.read_buffer(b), d)
    for t, d in zip(texs, tdatas):
        np.testing.assert_array_equal(q.read_texture(t), d)


def _median(benchmark):
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        return stats.stats.median
    return None


# ------------------------------------------------------------------ full defragmentation

@pytest.mark.benchmark(group="defragment: full, after freeing half")
def test_full_defragmentation(benchmark):
    state = {}

    def setup():
        state["dev"] = None
        gc.collect()
        # The same layout every round (seed 1), so the rounds time the same moves.
        state["dev"], state["q"], state["bufs"], state["datas"], state["texs"], state["tdatas"] = fragmented(seed=1)
        state["before"] = state["dev"].memory_stats()["total"]
        return (), {}

    def run():
        st = state["dev"].defragment(algorithm="full")
        state["dev"].wait_idle()   # the copies are part of the cost
        state["result"] = st
        return st

    benchmark.pedantic(run, setup=setup, rounds=3, iterations=1)
    st = state["result"]
    assert st["moves"] > 0 and st["bytes_moved"] > 0
    after = state["dev"].memory_stats()["total"]
    assert after["unused_range_count"] < state["before"]["unused_range_count"] or st["blocks_freed"] > 0
    check_contents(state["q"], state["bufs"], state["datas"], state["texs"], state["tdatas"])
    med = _median(benchmark)
    if med:
        benchmark.extra_info["moves"] = st["moves"]
        benchmark.extra_info["MB moved"] = round(st["bytes_moved"] / MiB, 2)
        benchmark.extra_info["moves/s"] = round(st["moves"] / med)
        benchmark.extra_info["MB/s"] = round(st["bytes_moved"] / MiB / med, 1)
        plain = plain_copies_seconds(state["dev"], state["q"], st["moves"], st["bytes_moved"])
        benchmark.extra_info["plain copies of the same bytes, ms"] = round(plain * 1e3, 2)
        benchmark.extra_info["defragment / plain copies"] = round(med / plain, 2)


def plain_copies_seconds(dev, q, moves: int, nbytes: int, reps: int = 5) -> float:
    """Median time of `moves` copy_resource calls of `nbytes` in all (buffers made beforehand), executed and waited for."""
    size = max(256, (nbytes // moves + 255) // 256 * 256)
    srcs = [dev.create_buffer(size) for _ in range(moves)]
    dsts = [dev.create_buffer(size) for _ in range(moves)]

    def run():
        cl = q.command_list()
        for s, d in zip(srcs, dsts):
            cl.copy_resource(d, s)
        q.wait(q.execute(cl))

    run()  # the new buffers' zeroing and first use
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        run()
        ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 2]


# ------------------------------------------------------------------ incremental, in a frame loop

@pytest.mark.benchmark(group="defragment: max_bytes=4 MiB per frame")
def test_incremental_defragmentation_per_frame(benchmark):
    dev, q, bufs, datas, texs, tdatas = fragmented(seed=11)
    scratch = dev.create_buffer(64 * KiB, name="frame")
    frame_data = np.arange(16 * KiB, dtype=np.uint32)
    moving, idle, moved = [], [], []

    def frame():
        cl = q.command_list()            # the frame's own work
        cl.upload(scratch, frame_data)
        q.execute(cl)
        t0 = time.perf_counter()
        st = dev.defragment(max_bytes=FRAME_MAX_BYTES)
        dt = time.perf_counter() - t0
        assert st["bytes_moved"] <= FRAME_MAX_BYTES and st["passes"] <= 1
        (moving if st["moves"] else idle).append(dt)
        moved.append(st["bytes_moved"])
        dev.poll()

    benchmark.pedantic(frame, rounds=N_FRAMES, iterations=1)
    assert sum(moved) > 0
    dev.wait_idle()
    check_contents(q, bufs, datas, texs, tdatas)
    np.testing.assert_array_equal(q.read_buffer(scratch, np.uint32), frame_data)
    if moving:
        benchmark.extra_info["calls that moved"] = len(moving)
        benchmark.extra_info["ms per moving call (median)"] = round(float(np.median(moving)) * 1e3, 3)
        benchmark.extra_info["MB per moving call (mean)"] = round(sum(moved) / len(moving) / MiB, 2)
    if idle:
        benchmark.extra_info["ms per no-op call (median)"] = round(float(np.median(idle)) * 1e3, 3)


# ------------------------------------------------------------------ aliasing tracking overhead

N_PLAIN = 64
PLAIN_BYTES = 64 * KiB


def recording_loop(dev, q, bufs):
    """One list: every buffer copied into the next (64 first uses, then 64 state changes), executed."""
    cl = q.command_list()
    for i in range(len(bufs)):
        cl.copy_buffer_region(bufs[(i + 1) % len(bufs)], 0, bufs[i], 0, 256)
    q.execute(cl)


@pytest.mark.benchmark(group="list recording: 64 buffers, nothing aliased")
@pytest.mark.parametrize("placement", ["plain", "disjoint-in-user-memory"])
def test_recording_without_aliasing(benchmark, placement):
    import dx12kit as dx

    dev = dx.Device(uma_direct=False)
    q = dev.queue()
    if placement == "plain":
        bufs = [dev.create_buffer(PLAIN_BYTES, name=f"p{i}") for i in range(N_PLAIN)]
    else:
        mem = dev.allocate_memory(N_PLAIN * PLAIN_BYTES, name="disjoint")
        bufs = [dev.create_buffer(PLAIN_BYTES, memory=mem, offset=i * PLAIN_BYTES, name=f"p{i}") for i in range(N_PLAIN)]
    cl = q.command_list()
    for i, b in enumerate(bufs):
        cl.upload(b, np.full(PLAIN_BYTES // 4, i, np.uint32))
    q.wait(q.execute(cl))
    before = dev.stats()["barriers"]["aliasing"]
    benchmark(recording_loop, dev, q, bufs)
    dev.wait_idle()
    assert dev.stats()["barriers"]["aliasing"] == before   # nothing overlaps: no barrier
    # Each buffer's first 256 bytes now hold some earlier buffer's index; the rest is its own.
    for i in (0, 1, N_PLAIN - 1):
        got = q.read_buffer(bufs[i], np.uint32)
        assert (got[64:] == i).all() and int(got[0]) in range(N_PLAIN)
    med = _median(benchmark)
    if med:
        benchmark.extra_info["us per list"] = round(med * 1e6, 1)
