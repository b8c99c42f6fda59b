"""The GPU memory layer on the real device: D3D12MA's test checklist (src/Tests.cpp), adapted.

Every test that checks statistics uses a device of its own, so the session device's traffic cannot
blur the figures. `dev.validate_memory()` runs after every operation of the placement tests: it
checks, per pool, that no two allocations of a block overlap, that the allocators agree with the
records and that the budget's block bytes equal the pools'.

Frees are deferred to the completed submission serial: a dropped resource's memory comes back on
the next `poll()` (or wait) after the work that used it, and an empty block stays for
`memory_grace` seconds unless `trim_memory()` releases it.
"""
from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import dx12kit as dx
from dx12kit.errors import InvalidArgumentError, OutOfMemoryError

KiB = 1024
MiB = 1024 * 1024
STAT_KEYS = ("block_count", "block_bytes", "allocation_count", "allocation_bytes", "unused_range_count",
             "allocation_size_min", "allocation_size_max", "unused_range_size_min", "unused_range_size_max")
ADDITIVE = ("block_count", "block_bytes", "allocation_count", "allocation_bytes", "unused_range_count")
# Allocations the device makes for itself and keeps: upload pages (recycled, not freed), the
# zero-initialisation source buffer and each queue's readback buffer.
INTERNAL_NAMES = {"upload page", "upload page (large)", "zeros", "readback"}


# ----------------------------------------------------------------------------------- helpers

def ranges_of(resources):
    """(key, start, end) of every placed resource: key = (heap_type, pool, block)."""
    out = []
    for r in resources:
        a = r.allocation
        if a["committed"]:
            continue
        out.append(((a["heap_type"], a["pool"], a["block"]), a["offset"], a["offset"] + a["size"]))
    return out


def assert_disjoint(resources):
    """No two placed resources of one block overlap, and every offset honours its alignment."""
    by_block = {}
    for r in resources:
        a = r.allocation
        assert a["size"] > 0 and a["alignment"] > 0
        assert a["offset"] % a["alignment"] == 0, a
        if not a["committed"]:
            by_block.setdefault((a["heap_type"], a["pool"], a["block"]), []).append((a["offset"], a["offset"] + a["size"]))
    for key, spans in by_block.items():
        spans.sort()
        for (s0, e0), (s1, e1) in zip(spans, spans[1:]):
            assert e0 <= s1, f"overlap in {key}: [{s0},{e0}) and [{s1},{e1})"


def overlaps(a, b):
    """Whether two allocation dicts share bytes (same block of the same pool)."""
    if a["committed"] or b["committed"]:
        return False
    if (a["heap_type"], a["pool"], a["block"]) != (b["heap_type"], b["pool"], b["block"]):
        return False
    return a["offset"] < b["offset"] + b["size"] and b["offset"] < a["offset"] + a["size"]


def internal_allocations(dev):
    """Name -> count of every live allocation in the detailed JSON dump."""
    names = {}
    j = json.loads(dev.memory_json())
    pools = list(j["DefaultPools"].values()) + j["CustomPools"]
    for p in pools:
        for b in p["Blocks"]:
            for s in b["Suballocations"]:
                if s["Type"] != "free":
                    names[s["Name"]] = names.get(s["Name"], 0) + 1
        for s in p["DedicatedAllocations"]:
            names[s["Name"]] = names.get(s["Name"], 0) + 1
    return names


def settle(dev):
    """Everything submitted has completed and every deferred free has been returned."""
    dev.wait_idle()
    dev.poll()


def check_stats_consistent(dev):
    """D3D12MA's CheckTotalStatistics, on memory_stats / stats() / memory_budget / memory_json."""
    s = dev.memory_stats()
    assert set(s) == {"total", "heap_types"}
    assert set(s["heap_types"]) == {"default", "upload", "readback", "custom"}
    tot = s["total"]
    assert set(tot) == set(STAT_KEYS)
    for k in ADDITIVE:
        assert tot[k] == sum(h[k] for h in s["heap_types"].values()), k
    present = [h for h in s["heap_types"].values() if h["allocation_count"]]
    if present:
        assert tot["allocation_size_min"] == min(h["allocation_size_min"] for h in present)
        assert tot["allocation_size_max"] == max(h["allocation_size_max"] for h in present)
    else:
        assert tot["allocation_size_min"] == 0 and tot["allocation_size_max"] == 0
    assert tot["allocation_bytes"] <= tot["block_bytes"]
    for h in list(s["heap_types"].values()) + [tot]:
        if h["allocation_count"]:
            assert h["allocation_size_min"] <= h["allocation_size_max"]
            assert h["allocation_size_min"] * h["allocation_count"] <= h["allocation_bytes"]
            assert h["allocation_size_max"] * h["allocation_count"] >= h["allocation_bytes"]
    assert dev.stats()["memory"] == s
    # UMA (vkd3d over lavapipe): every byte is local; usage is the block bytes.
    bud = dev.memory_budget()
    assert bud["local"]["usage_bytes"] == bud["local"]["block_bytes"] == tot["block_bytes"]
    assert bud["local"]["allocation_bytes"] == tot["allocation_bytes"]
    assert bud["non_local"]["block_bytes"] == 0 and bud["non_local"]["usage_bytes"] == 0
    assert bud["local"]["budget_bytes"] > 0
    # The JSON: total == the dict; per pool: blocks + dedicated == the pool's stats; sum of pools == total.
    j = json.loads(dev.memory_json())
    assert j["Total"]["BlockBytes"] == tot["block_bytes"]
    assert j["Total"]["AllocationCount"] == tot["allocation_count"]
    assert j["Total"]["AllocationBytes"] == tot["allocation_bytes"]
    for name, h in s["heap_types"].items():
        assert j["HeapTypes"][name]["BlockBytes"] == h["block_bytes"]
        assert j["HeapTypes"][name]["AllocationCount"] == h["allocation_count"]
    assert j["MemoryInfo"]["Local"]["UsageBytes"] == bud["local"]["usage_bytes"]
    pools = list(j["DefaultPools"].values()) + j["CustomPools"]
    sum_blocks = sum_allocs = sum_alloc_bytes = 0
    for p in pools:
        blocks = sum(b["TotalBytes"] for b in p["Blocks"]) + sum(d["Size"] for d in p["DedicatedAllocations"])
        n = sum(b["Allocations"] for b in p["Blocks"]) + len(p["DedicatedAllocations"])
        nbytes = sum(x["Size"] for b in p["Blocks"] for x in b["Suballocations"] if x["Type"] != "free")
        nbytes += sum(d["Size"] for d in p["DedicatedAllocations"])
        assert p["Stats"]["BlockBytes"] == blocks, p["Name"]
        assert p["Stats"]["BlockCount"] == len(p["Blocks"]) + len(p["DedicatedAllocations"]), p["Name"]
        assert p["Stats"]["AllocationCount"] == n, p["Name"]
        assert p["Stats"]["AllocationBytes"] == nbytes, p["Name"]
        for b in p["Blocks"]:
            subs = b["Suballocations"]
            assert b["Allocations"] == sum(x["Type"] != "free" for x in subs)
            assert b["UnusedRanges"] == sum(x["Type"] == "free" for x in subs)
            offs = [x["Offset"] for x in subs]
            assert offs == sorted(offs)
            for x, y in zip(subs, subs[1:]):
                assert x["Offset"] + x["Size"] <= y["Offset"], (p["Name"], b["Id"])
            if subs:
                assert subs[-1]["Offset"] + subs[-1]["Size"] <= b["TotalBytes"]
        sum_blocks += blocks
        sum_allocs += n
        sum_alloc_bytes += nbytes
    assert sum_blocks == tot["block_bytes"]
    assert sum_allocs == tot["allocation_count"]
    assert sum_alloc_bytes == tot["allocation_bytes"]
    dev.validate_memory()
    return s


SLOW_CS = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
    uint x = id.x;
    [loop] for (uint i = 0; i < 60000; ++i) x = x * 1664525u + 1013904223u;
    o[id.x] = x;
}
"""


def slow_pipeline(dev):
    rs = dev.create_root_signature([dx.RootUAV(0)])
    return dev.create_compute_pipeline(dx.compile_hlsl(SLOW_CS, profile="cs_5_0"), rs)


def record_slow_work(dev, cl, pso, sink, repeats=3):
    """About 0.2 s of GPU time per repeat on lavapipe: keeps a submission in flight."""
    cl.set_pipeline_state(pso)
    cl.set_root_uav(0, sink)
    for _ in range(repeats):
        cl.dispatch(16)


# ------------------------------------------------------------------------- placement basics

def test_placed_resources_share_a_heap_without_overlap():
    dev = dx.Device(uma_direct=False)  # default buffers in the default pool
    dev.validate_memory()
    res = []
    for i in range(4):  # D3D12MA TestPlacedResources: 4 x 64 KiB buffers in one heap
        res.append(dev.create_buffer(64 * KiB, name=f"b{i}"))
        dev.validate_memory()
    res.append(dev.create_texture2d(64, 64, name="tex"))
    dev.validate_memory()
    res.append(dev.create_texture2d(128, 128, render_target=True, name="rt"))
    dev.validate_memory()
    res.append(dev.create_texture2d(128, 128, "d32_float", depth_stencil=True, name="ds"))
    dev.validate_memory()
    allocs = [r.allocation for r in res]
    assert all(not a["committed"] and a["heap_type"] == "default" and a["pool"] is None for a in allocs)
    assert len({a["block"] for a in allocs}) == 1, allocs  # tier 2: one heap holds every class
    assert len({a["offset"] for a in allocs}) == len(allocs)
    assert_disjoint(res)
    s = check_stats_consistent(dev)["heap_types"]["default"]
    assert s["block_count"] == 1 and s["allocation_count"] == len(res)
    assert s["allocation_bytes"] == sum(a["size"] for a in allocs)
    del res[1], res[2]
    dev.validate_memory()
    dev.poll()
    dev.validate_memory()
    assert dev.memory_stats()["heap_types"]["default"]["allocation_count"] == len(res)
    res.append(dev.create_buffer(100 * KiB, name="after"))
    dev.validate_memory()
    assert_disjoint(res)
    check_stats_consistent(dev)


def test_frees_are_deferred_and_blocks_kept_for_the_grace_period():
    dev = dx.Device(memory_grace=0.3)
    b = dev.create_buffer(4096)
    blk = b.allocation["block"]
    assert dev.memory_stats()["total"]["allocation_count"] == 1
    del b
    gc.collect()
    dev.validate_memory()
    # Released but not yet returned: counted until a poll sees its serial completed.
    assert dev.memory_stats()["total"]["allocation_count"] == 1
    dev.poll()
    dev.validate_memory()
    s = dev.memory_stats()["total"]
    assert s["allocation_count"] == 0 and s["block_count"] == 1  # the empty block is kept
    c = dev.create_buffer(4096)
    assert c.allocation["block"] == blk  # reused, not a new heap
    del c
    time.sleep(0.45)
    dev.poll()  # first poll: returns the range (block empty from now) ...
    dev.validate_memory()
    time.sleep(0.45)
    dev.poll()  # ... and once it stayed empty for the grace period the block goes
    dev.validate_memory()
    assert dev.memory_stats()["total"]["block_count"] == 0
    # trim_memory releases at once.
    d = dev.create_buffer(4096)
    del d
    dev.trim_memory()
    dev.validate_memory()
    assert dev.memory_stats()["total"] == dev.memory_stats()["total"] | {"block_count": 0, "block_bytes": 0}


# --------------------------------------------------------------------------- out of memory

def test_pool_block_limit_out_of_memory_then_success_after_free():
    dev = dx.Device()
    pool = dev.create_pool(heap="default", block_size=1 * MiB, max_blocks=1, name="limited")
    bufs = [dev.create_buffer(64 * KiB, pool=pool) for _ in range(16)]  # exactly fills the block
    dev.validate_memory()
    assert pool.block_count == 1 and {b.allocation["block"] for b in bufs} == {bufs[0].allocation["block"]}
    assert_disjoint(bufs)
    before = dev.memory_stats()
    pool_before = pool.stats()
    with pytest.raises(OutOfMemoryError, match="limited"):
        dev.create_buffer(64 * KiB, pool=pool)
    with pytest.raises(OutOfMemoryError):
        dev.create_texture2d(64, 64, pool=pool)
    assert dev.memory_stats() == before and pool.stats() == pool_before
    dev.validate_memory()
    freed = bufs.pop(5).allocation
    # The free waits for the completed serial: until a poll, the range is not reusable.
    with pytest.raises(OutOfMemoryError):
        dev.create_buffer(64 * KiB, pool=pool)
    dev.poll()
    again = dev.create_buffer(64 * KiB, pool=pool)
    assert again.allocation["offset"] == freed["offset"] and again.allocation["block"] == freed["block"]
    assert again.allocation["pool"] == "limited"
    dev.validate_memory()
    check_stats_consistent(dev)


def test_budget_within_budget_out_of_memory_then_success_after_free():
    budget = 8 * MiB
    dev = dx.Device(memory_budget=budget, memory_block_size=4 * MiB, memory_grace=60)
    assert dev.memory_budget()["local"]["budget_bytes"] == budget
    held = []
    with pytest.raises(OutOfMemoryError, match="budget"):
        for _ in range(1000):
            held.append(dev.create_buffer(256 * KiB, within_budget=True))
            dev.validate_memory()
            assert dev.memory_budget()["local"]["usage_bytes"] <= budget
    assert len(held) > 8
    bud = dev.memory_budget()["local"]
    assert bud["usage_bytes"] <= budget
    before = dev.memory_stats()
    with pytest.raises(OutOfMemoryError):
        dev.create_buffer(256 * KiB, within_budget=True)
    with pytest.raises(OutOfMemoryError):  # over half a block: committed, also charged to the budget
        dev.create_buffer(3 * MiB, within_budget=True)
    assert dev.memory_stats() == before
    dev.validate_memory()
    # Freeing blocks brings usage down; then the same request succeeds.
    held.clear()
    gc.collect()
    dev.trim_memory()
    dev.validate_memory()
    assert dev.memory_budget()["local"]["usage_bytes"] == 0
    ok = dev.create_buffer(3 * MiB, within_budget=True)
    assert ok.allocation["committed"]
    assert dev.memory_budget()["local"]["usage_bytes"] == ok.allocation["size"]
    # Without within_budget the budget may be exceeded (D3D12MA: it only prefers committed then).
    big = [dev.create_buffer(3 * MiB) for _ in range(3)]
    assert dev.memory_budget()["local"]["usage_bytes"] > budget
    check_stats_consistent(dev)
    del big


def test_within_budget_uses_a_smaller_block_when_the_growth_block_does_not_fit():
    dev = dx.Device(memory_budget=1 * MiB)
    b = dev.create_buffer(64 * KiB, within_budget=True)
    assert dev.memory_budget()["local"]["usage_bytes"] <= 1 * MiB
    assert b.allocation["size"] == 64 * KiB


# ----------------------------------------------------------------------------- statistics

def test_statistics_consistent_over_heap_types_pools_and_committed():
    dev = dx.Device()
    check_stats_consistent(dev)
    assert dev.memory_stats()["total"]["block_count"] == 0
    pool = dev.create_pool(heap="upload", block_size=2 * MiB, name="ups")
    keep = [
        dev.create_buffer(1000, name="d1"),
        dev.create_buffer(70 * KiB, uav=True, name="d2"),
        dev.create_buffer(3000, heap="upload", name="u1"),
        dev.create_buffer(3000, heap="readback", name="r1"),
        dev.create_buffer(5000, heap="custom", uav=True, name="c1"),
        dev.create_buffer(2000, committed=True, name="dc"),
        dev.create_buffer(40 * MiB, name="big"),  # over half of 64 MiB: committed
        dev.create_buffer(4000, pool=pool, name="p1"),
        dev.create_texture2d(32, 32, name="t1"),
        dev.create_texture2d(64, 64, render_target=True, name="rt1"),
    ]
    s = check_stats_consistent(dev)
    for k in ("default", "upload", "readback", "custom"):
        assert s["heap_types"][k]["allocation_count"] >= 1, k
    assert s["total"]["allocation_count"] == len(keep)
    assert keep[6].allocation["committed"] and keep[5].allocation["committed"]
    ps = pool.stats()
    assert ps["block_count"] == 1 and ps["block_bytes"] == 2 * MiB and ps["allocation_count"] == 1
    jp = [p for p in json.loads(dev.memory_json())["CustomPools"] if p["Name"] == "ups"]
    assert len(jp) == 1 and jp[0]["Stats"]["BlockBytes"] == ps["block_bytes"]
    assert jp[0]["Stats"]["AllocationCount"] == ps["allocation_count"]
    # Dropped resources stay counted until the GPU is done; then the statistics shrink.
    del keep[::2]
    gc.collect()
    check_stats_consistent(dev)
    settle(dev)
    s = check_stats_consistent(dev)
    assert s["total"]["allocation_count"] == len(keep)
    keep.clear()
    settle(dev)
    dev.trim_memory()
    s = check_stats_consistent(dev)
    assert s["total"]["allocation_count"] == 0 and s["total"]["block_count"] == 0
    assert pool.stats()["block_count"] == 0
    j = json.loads(dev.memory_json(detailed=False))
    assert j["Total"]["BlockCount"] == 0 and "Blocks" not in j["DefaultPools"]["default"]


# ------------------------------------------------------------------------------ custom pools

def test_custom_pool_min_and_max_blocks():
    dev = dx.Device()
    pool = dev.create_pool(heap="default", block_size=1 * MiB, min_blocks=2, max_blocks=3, name="minmax")
    assert (pool.name, pool.heap, pool.block_size, pool.min_blocks, pool.max_blocks, pool.algorithm) == \
        ("minmax", "default", 1 * MiB, 2, 3, "tlsf")
    assert pool.block_count == 2  # created up front (D3D12MA TestCustomPools: empty pool already has its blocks)
    st = pool.stats()
    assert st["block_count"] == 2 and st["block_bytes"] == 2 * MiB and st["allocation_count"] == 0
    assert st["unused_range_count"] == 2 and st["unused_range_size_max"] == 1 * MiB
    pool.validate()
    check_stats_consistent(dev)
    bufs = []
    for i in range(3 * 16):
        bufs.append(dev.create_buffer(64 * KiB, pool=pool, name=f"p{i}"))
        pool.validate()
    assert pool.block_count == 3
    assert len({b.allocation["block"] for b in bufs}) == 3
    assert all(b.allocation["pool"] == "minmax" for b in bufs)
    assert_disjoint(bufs)
    with pytest.raises(OutOfMemoryError):
        dev.create_buffer(64 * KiB, pool=pool)
    with pytest.raises(InvalidArgumentError):  # cannot fit a 1 MiB block at all
        dev.create_buffer(2 * MiB, pool=pool)
    with pytest.raises(InvalidArgumentError):  # fixed block size: always placed
        dev.create_buffer(4 * KiB, pool=pool, committed=True)
    bufs.clear()
    settle(dev)
    dev.trim_memory()
    assert pool.block_count == 2  # min_blocks stay
    assert pool.stats()["allocation_count"] == 0
    check_stats_consistent(dev)
    # Dropping the Pool object before its resources is fine: they keep it alive.
    b = dev.create_buffer(1000, pool=pool)
    del pool
    gc.collect()
    assert b.allocation["pool"] == "minmax"
    check_stats_consistent(dev)
    del b
    gc.collect()
    settle(dev)
    dev.validate_memory()
    assert dev.memory_stats()["total"]["allocation_count"] == 0


def test_custom_pool_growing_and_custom_heap():
    dev = dx.Device()
    pool = dev.create_pool(heap="custom", name="cpu-visible")  # block_size None: grows as the default pools
    assert pool.heap == "custom"
    b = dev.create_buffer(1000, pool=pool, uav=True)
    assert b.allocation["heap_type"] == "custom" and b.allocation["pool"] == "cpu-visible"
    big = dev.create_buffer(40 * MiB, pool=pool, committed=True)  # growing pools accept committed
    assert big.allocation["committed"] and big.allocation["pool"] == "cpu-visible"
    s = check_stats_consistent(dev)
    assert s["heap_types"]["custom"]["allocation_count"] == 2
    v = b.map(np.uint32)
    v[:] = np.arange(v.size, dtype=np.uint32)
    q = dev.queue()
    np.testing.assert_array_equal(q.read_buffer(b, np.uint32), np.arange(v.size, dtype=np.uint32))


def test_linear_pool_offsets_increase_and_reset_when_empty():
    dev = dx.Device()
    pool = dev.create_pool(heap="upload", block_size=4 * MiB, max_blocks=1, algorithm="linear", name="lin")
    assert pool.algorithm == "linear"
    bufs, last = [], -1
    for i in range(20):
        b = dev.create_buffer(random.Random(i).randint(1, 100_000), heap="upload", pool=pool)
        a = b.allocation
        assert a["offset"] > last and a["offset"] % a["alignment"] == 0
        last = a["offset"]
        bufs.append(b)
        pool.validate()
    assert_disjoint(bufs)
    check_stats_consistent(dev)
    # Freeing some does not move the head: the next allocation still goes above.
    del bufs[0], bufs[5]
    settle(dev)
    pool.validate()
    nxt = dev.create_buffer(1000, heap="upload", pool=pool)
    assert nxt.allocation["offset"] > last
    bufs.append(nxt)
    # Filling up: at the single block's end the pool is out of memory.
    with pytest.raises(OutOfMemoryError):
        for _ in range(100):
            bufs.append(dev.create_buffer(64 * KiB, heap="upload", pool=pool))
    pool.validate()
    # Freeing all resets the block: offsets start again at 0.
    bufs.clear()
    del b, nxt
    gc.collect()
    settle(dev)
    pool.validate()
    first = dev.create_buffer(1000, heap="upload", pool=pool)
    assert first.allocation["offset"] == 0
    second = dev.create_buffer(1000, heap="upload", pool=pool)
    assert second.allocation["offset"] > 0
    check_stats_consistent(dev)


# ------------------------------------------------------------------------- committed choice

def test_committed_on_request_and_over_half_a_block():
    dev = dx.Device(memory_block_size=1 * MiB)
    a = dev.create_buffer(1000, committed=True)
    assert a.allocation["committed"] and a.allocation["block"] is None and a.allocation["offset"] == 0
    t = dev.create_texture2d(64, 64, committed=True)
    assert t.allocation["committed"]
    half = dev.create_buffer(512 * KiB)  # exactly half: placed
    assert not half.allocation["committed"]
    over = dev.create_buffer(512 * KiB + 1)  # over half a block: committed
    assert over.allocation["committed"]
    tex_over = dev.create_texture2d(512, 512)  # 1 MiB of texels
    assert tex_over.allocation["committed"]
    up = dev.create_buffer(600 * KiB, heap="upload")
    assert up.allocation["committed"] and up.allocation["heap_type"] == "upload"
    s = check_stats_consistent(dev)
    # A committed resource counts as one block holding one allocation.
    dedicated = sum(len(p["DedicatedAllocations"]) for p in json.loads(dev.memory_json())["DefaultPools"].values())
    assert dedicated == 5
    assert s["total"]["allocation_count"] == 6
    # Data goes through committed resources like through placed ones.
    q = dev.queue()
    x = np.arange(over.size, dtype=np.uint8)
    cl = q.command_list()
    cl.upload(over, x)
    q.execute(cl)
    np.testing.assert_array_equal(q.read_buffer(over), x)


# -------------------------------------------------------------------- CPU-visible heaps

def test_upload_and_readback_heaps_mapped_written_and_read():
    dev = dx.Device()
    q = dev.queue()
    n = 10_000
    up = dev.create_buffer(n * 4, heap="upload", name="up")
    rb = dev.create_buffer(n * 4, heap="readback", name="rb")
    gpu = dev.create_buffer(n * 4, name="gpu")
    assert up.allocation["heap_type"] == "upload" and rb.allocation["heap_type"] == "readback"
    m = up.map(np.float32)
    assert m.shape == (n,) and m.dtype == np.float32
    assert not m.any()  # new CPU-visible memory reads as zeros too
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    m[:] = x
    np.testing.assert_array_equal(up.map(np.float32), x)  # the same memory through a second view
    assert not rb.map(np.float32).any()
    # The upload buffer is a copy source; the readback buffer is filled by a GPU copy.
    cl = q.command_list()
    cl.copy_buffer_region(gpu, 0, up, 0, n * 4)
    cl.copy_buffer_region(rb, 0, gpu, 0, n * 4)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(rb.map(np.float32), x)
    np.testing.assert_array_equal(q.read_buffer(rb, np.float32), x)
    np.testing.assert_array_equal(q.read_buffer(gpu, np.float32), x)
    # copy_resource from upload, into readback
    rb2 = dev.create_buffer(n * 4, heap="readback")
    cl = q.command_list()
    cl.copy_resource(rb2, gpu)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(rb2.map(np.float32), x)
    # Many mapped buffers, every other one viewed and kept (D3D12MA TestMapping)
    bufs = [dev.create_buffer(32 * KiB, heap="upload") for _ in range(10)]
    views = []
    for i, b in enumerate(bufs):
        v = b.map(np.uint32)
        v[:] = i * 1_000_003 + np.arange(v.size, dtype=np.uint32)
        if i % 2 == 0:
            views.append(v)
    del bufs[::2]
    gc.collect()
    for i, v in enumerate(views):  # the views keep their buffers (and mapping) alive
        np.testing.assert_array_equal(v, 2 * i * 1_000_003 + np.arange(v.size, dtype=np.uint32))
    with pytest.raises(InvalidArgumentError):
        gpu.map()  # GPU-only memory
    with pytest.raises(InvalidArgumentError):
        up.map(np.dtype("V3"))  # 40000 bytes are not whole 3-byte items
    with pytest.raises(InvalidArgumentError):
        up.map(object)
    assert up.map(np.float64).shape == (n // 2,)
    check_stats_consistent(dev)


# -------------------------------------------------------------------------------- alignment

def test_small_texture_alignment_when_granted():
    dev = dx.Device()
    small = [dev.create_texture2d(64, 64, name=f"s{i}") for i in range(6)]
    for t in small:
        a = t.allocation
        assert a["alignment"] == 4096 and a["size"] == 16 * KiB and a["offset"] % 4096 == 0, a
    # Small textures pack at 4 KiB granularity: 6 of them in 96 KiB, not 6 x 64 KiB.
    offs = sorted(t.allocation["offset"] for t in small)
    assert offs[-1] - offs[0] == 5 * 16 * KiB
    r8 = dev.create_texture2d(16, 16, "r8_unorm")
    assert r8.allocation["alignment"] == 4096 and r8.allocation["size"] == 4096
    rt = dev.create_texture2d(64, 64, render_target=True)  # RT/DS: no small alignment
    assert rt.allocation["alignment"] == 64 * KiB and rt.allocation["offset"] % (64 * KiB) == 0
    ds = dev.create_texture2d(64, 64, "d32_float", depth_stencil=True)
    assert ds.allocation["alignment"] == 64 * KiB
    large = dev.create_texture2d(1024, 1024)  # too large for the small alignment (more than 16 tiles)
    assert large.allocation["alignment"] == 64 * KiB
    buf = dev.create_buffer(256)
    assert buf.allocation["alignment"] == 64 * KiB and buf.allocation["size"] == 64 * KiB
    assert_disjoint(small + [r8, rt, ds, large, buf])
    dev.validate_memory()
    # Data survives the tight packing.
    q = dev.queue()
    cl = q.command_list()
    data = [np.full((64, 64, 4), i + 1, np.uint8) for i in range(len(small))]
    for t, d in zip(small, data):
        cl.upload(t, d)
    q.execute(cl)
    for t, d in zip(small, data):
        np.testing.assert_array_equal(q.read_texture(t), d)


# --------------------------------------------------------------------------------- JSON dump

WEIRD_NAMES = [
    'quote " inside',
    "back\\slash \\n not a newline",
    "new\nline\r\n",
    "tab\tand\bbackspace\fformfeed",
    "ctrl \x01\x02\x1f and del \x7f",
    "nul \x00 inside",
    "non-ASCII: é ü ß 日本語 🎉",
    "</script><!-- & ' {}[]:,",
    "",
]


def test_json_parses_and_escapes_names():
    dev = dx.Device()
    keep = [dev.create_buffer(256, name=n) for n in WEIRD_NAMES]
    keep += [dev.create_buffer(256, committed=True, name=n) for n in WEIRD_NAMES]  # dedicated allocations
    keep += [dev.create_texture2d(8, 8, name=n) for n in WEIRD_NAMES[:3]]
    pools = [dev.create_pool(heap="readback", name=n) for n in WEIRD_NAMES[:-1]]
    keep += [dev.create_buffer(100, heap="readback", pool=p, name=p.name) for p in pools]
    for p, n in zip(pools, WEIRD_NAMES):
        assert p.name == n
    text = dev.memory_json()
    assert isinstance(text, str)
    j = json.loads(text)  # strict: control characters inside strings are rejected by json.loads
    names = []
    for p in list(j["DefaultPools"].values()) + j["CustomPools"]:
        for b in p["Blocks"]:
            names += [s["Name"] for s in b["Suballocations"] if s["Type"] != "free"]
        names += [d["Name"] for d in p["DedicatedAllocations"]]
    for n in WEIRD_NAMES:
        assert names.count(n) >= 2, repr(n)
    assert sorted(p["Name"] for p in j["CustomPools"]) == sorted(WEIRD_NAMES[:-1])
    # General section
    g = j["General"]
    assert g["API"] == "Direct3D 12" and g["ResourceHeapTier"] in (1, 2) and isinstance(g["GPU"], str)
    # The JSON is plain ASCII-safe where it escapes, and round-trips through a re-dump.
    assert json.loads(json.dumps(j)) == j
    # Kinds of allocations are reported per type
    types = {s["Type"] for p in j["DefaultPools"].values() for b in p["Blocks"] for s in b["Suballocations"]}
    assert {"buffer", "texture", "free"} <= types
    check_stats_consistent(dev)
    j2 = json.loads(dev.memory_json(detailed=False))
    assert "Blocks" not in j2["DefaultPools"]["default"] and j2["Total"] == j["Total"]


# ------------------------------------------------------------------------- heap tier 1 and 2

def _tier_resources(dev):
    q = dev.queue()
    rng = np.random.default_rng(3)
    buf = dev.create_buffer(3000, name="buf")
    tex = dev.create_texture2d(32, 32, name="tex")
    rt = dev.create_texture2d(32, 32, render_target=True, name="rt")
    ds = dev.create_texture2d(32, 32, "d32_float", depth_stencil=True, name="ds")
    buf2 = dev.create_buffer(5000, name="buf2")
    tex2 = dev.create_texture2d(16, 16, "rgba16_float", name="tex2")
    bd = rng.integers(0, 256, 3000, dtype=np.uint8)
    bd2 = rng.integers(0, 256, 5000, dtype=np.uint8)
    td = rng.integers(0, 256, (32, 32, 4), dtype=np.uint8)
    td2 = rng.random((16, 16, 4)).astype(np.float16)
    cl = q.command_list()
    cl.upload(buf, bd)
    cl.upload(buf2, bd2)
    cl.upload(tex, td)
    cl.upload(tex2, td2)
    cl.clear_render_target(rt, [1.0, 0.0, 0.5, 1.0])
    cl.clear_depth_stencil(ds, 0.25)
    q.execute(cl)
    np.testing.assert_array_equal(q.read_buffer(buf), bd)
    np.testing.assert_array_equal(q.read_buffer(buf2), bd2)
    np.testing.assert_array_equal(q.read_texture(tex), td)
    np.testing.assert_array_equal(q.read_texture(tex2), td2)
    assert (q.read_texture(rt) == np.array([255, 0, 128, 255], np.uint8)).all()
    assert (q.read_texture(ds) == np.float32(0.25)).all()
    res = [buf, tex, rt, ds, buf2, tex2]
    assert_disjoint(res)
    dev.validate_memory()
    return res


def test_tier1_separates_buffers_textures_and_rt_ds():
    dev = dx.Device(resource_heap_tier=1, uma_direct=False)
    buf, tex, rt, ds, buf2, tex2 = _tier_resources(dev)
    blocks = {n: r.allocation["block"] for n, r in
              dict(buf=buf, tex=tex, rt=rt, ds=ds, buf2=buf2, tex2=tex2).items()}
    assert blocks["buf"] == blocks["buf2"]
    assert blocks["tex"] == blocks["tex2"]
    assert blocks["rt"] == blocks["ds"]
    assert len({blocks["buf"], blocks["tex"], blocks["rt"]}) == 3, blocks
    j = json.loads(dev.memory_json())
    assert j["General"]["ResourceHeapTier"] == 1
    classes = {b["Id"]: b["ResourceClass"] for b in j["DefaultPools"]["default"]["Blocks"]}
    assert classes[blocks["buf"]] == "buffers"
    assert classes[blocks["tex"]] == "textures"
    assert classes[blocks["rt"]] == "rt_ds_textures"
    # Every suballocation of a block is of the block's class (upload pages are buffers too).
    for p in j["DefaultPools"].values():
        for b in p["Blocks"]:
            kinds = {s["Type"] for s in b["Suballocations"] if s["Type"] != "free"}
            allowed = {"buffers": {"buffer", "upload_page", "memory"}, "textures": {"texture"},
                       "rt_ds_textures": {"render_target", "depth_stencil"}}[b["ResourceClass"]]
            assert kinds <= allowed, (b["ResourceClass"], kinds)
    check_stats_consistent(dev)


def test_tier2_shares_one_heap_between_classes():
    dev = dx.Device(resource_heap_tier=2)
    res = _tier_resources(dev)
    assert len({r.allocation["block"] for r in res}) == 1
    j = json.loads(dev.memory_json())
    assert j["General"]["ResourceHeapTier"] == 2
    assert {b["ResourceClass"] for b in j["DefaultPools"]["default"]["Blocks"]} == {"any"}
    check_stats_consistent(dev)


def test_tier1_pool_min_blocks_usable_by_textures():
    dev = dx.Device(resource_heap_tier=1)
    pool = dev.create_pool(block_size=1 * MiB, min_blocks=1, max_blocks=1, name="one")
    t = dev.create_texture2d(64, 64, pool=pool)
    assert t.allocation["pool"] == "one"


# ------------------------------------------------------------------------------------- data

def test_hundreds_of_placed_buffers_and_textures_read_back_exactly():
    dev = dx.Device(memory_block_size=4 * MiB)
    q = dev.queue()
    rng = np.random.default_rng(11)
    sizes = rng.integers(1, 40_000, 300)
    bufs = [dev.create_buffer(int(s), name=f"b{i}") for i, s in enumerate(sizes)]
    datas = [rng.integers(0, 256, int(s), dtype=np.uint8) for s in sizes]
    fmts = ["rgba8_unorm", "r32_float", "rgba16_float", "r8_unorm"]
    texs, tdatas = [], []
    for i in range(120):
        w, h = int(rng.integers(1, 80)), int(rng.integers(1, 80))
        f = fmts[i % 4]
        t = dev.create_texture2d(w, h, f, name=f"t{i}")
        ch = t.shape[2]
        if f == "rgba8_unorm" or f == "r8_unorm":
            d = rng.integers(0, 256, (h, w, ch), dtype=np.uint8)
        elif f == "r32_float":
            d = rng.random((h, w, ch), dtype=np.float32)
        else:
            d = rng.random((h, w, ch)).astype(np.float16)
        texs.append(t)
        tdatas.append(d)
    dev.validate_memory()
    assert_disjoint(bufs + texs)
    placed = [r for r in bufs + texs if not r.allocation["committed"]]
    assert len(placed) == len(bufs) + len(texs)
    assert len({r.allocation["block"] for r in placed}) < 20  # placed in a few heaps, not one each
    for i in range(0, 300, 100):  # several lists in flight at once
        cl = q.command_list()
        for b, d in zip(bufs[i:i + 100], datas[i:i + 100]):
            cl.upload(b, d)
        q.execute(cl)
    cl = q.command_list()
    for t, d in zip(texs, tdatas):
        cl.upload(t, d)
    q.execute(cl)
    # Gather every buffer into one readback buffer with GPU copies, then compare.
    total = int(sum(sizes))
    rb = dev.create_buffer(total, heap="readback")
    cl = q.command_list()
    off = 0
    for b, s in zip(bufs, sizes):
        cl.copy_buffer_region(rb, off, b, 0, int(s))
        off += int(s)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(rb.map(), np.concatenate(datas))
    for t, d in zip(texs, tdatas):
        np.testing.assert_array_equal(q.read_texture(t), d)
    check_stats_consistent(dev)


def test_dropped_resource_keeps_its_memory_until_the_fence():
    dev = dx.Device()
    q = dev.queue()
    cq = dev.queue("copy")
    pso = slow_pipeline(dev)
    sink = dev.create_buffer(16 * 64 * 4, uav=True)
    n = 256 * KiB
    data = np.random.default_rng(5).integers(0, 256, n, dtype=np.uint8)
    # The slow work must still run while the new buffers are created: on a fast or idle machine
    # it may not, so the scenario is repeated with more GPU work until it does.
    for repeats in (3, 12, 48):
        a = dev.create_buffer(n, name="a")
        dst = dev.create_buffer(n, name="dst")
        cl = q.command_list()
        cl.upload(a, data)
        q.wait(q.execute(cl))
        old = a.allocation
        cl = q.command_list()
        record_slow_work(dev, cl, pso, sink, repeats=repeats)
        cl.copy_buffer_region(dst, 0, a, 0, n)  # reads `a` after the slow GPU work
        value = q.execute(cl)
        list_serial = dev.stats()["last_serial"]
        del a, cl
        gc.collect()
        dev.poll()
        dev.validate_memory()
        news = []
        for i in range(8):  # same size: the freed range would be the first choice
            c = dev.create_buffer(n, name=f"new{i}")
            dev.validate_memory()
            news.append(c)
            if overlaps(c.allocation, old):
                assert dev.stats()["completed_serial"] >= list_serial, "memory reused before its fence completed"
        busy = q.completed_value < value
        if busy:
            break
        dev.wait_idle()
        del news, dst
        gc.collect()
        dev.trim_memory()
    assert busy, "the slow dispatches finished too early for this test to mean anything"
    # Overwrite the new buffers on another queue, concurrently with the slow list.
    junk = np.full(n, 0xEE, np.uint8)
    ccl = cq.command_list()
    for c in news:  # noqa: F821 - bound by the loop above (ruff sees its del)
        ccl.upload(c, junk)
    cq.execute(ccl)
    dev.wait_idle()
    np.testing.assert_array_equal(q.read_buffer(dst), data)  # noqa: F821
    for c in news:  # noqa: F821
        np.testing.assert_array_equal(q.read_buffer(c), junk)
    # After the fence the range is free again.
    dev.poll()
    dev.validate_memory()
    j = json.loads(dev.memory_json())
    live = [s for b in j["DefaultPools"]["default"]["Blocks"] for s in b["Suballocations"] if s.get("Name") == "a"]
    assert live == []
    later = [dev.create_buffer(n) for _ in range(3)]
    assert any(overlaps(x.allocation, old) for x in later)


def test_zeroing_done_for_another_queue_still_precedes_a_third_queue():
    """A new buffer is taken for zeroing by an execute on the compute queue (zeroing on the direct
    queue, behind slow work); a list on the copy queue then writes part of it. D3D12 runs the queues
    concurrently, so the copy queue must wait for that zeroing, or the zeros land on top of its data.
    (vkd3d over lavapipe serialises the queues, so this passes here either way; on Windows it is the
    check of Device::InitializeNewResources' cross-queue wait.)"""
    dev = dx.Device()
    d, c, cp = dev.queue("direct"), dev.queue("compute"), dev.queue("copy")
    pso = slow_pipeline(dev)
    sink = dev.create_buffer(16 * 64 * 4, uav=True)
    other = dev.create_buffer(256)
    cl = d.command_list()
    cl.upload(other, np.zeros(256, np.uint8))
    d.wait(d.execute(cl))
    cl = d.command_list()
    record_slow_work(dev, cl, pso, sink)
    d.execute(cl)
    r = dev.create_buffer(4096, name="r")
    la = cp.command_list()
    data = (np.arange(4096 - 256) % 255 + 1).astype(np.uint8)
    la.upload(r, data)  # partial: the zeroing must run before it
    lb = c.command_list()
    lb.upload(other, np.ones(256, np.uint8))
    c.execute(lb)  # takes r's zeroing (direct queue, behind the slow work)
    cp.execute(la)
    dev.wait_idle()
    out = d.read_buffer(r)
    np.testing.assert_array_equal(out[:4096 - 256], data)
    assert not out[4096 - 256:].any()


def _dirty_then_fresh(dev, make, fill, read, zero_check):
    """Creates resources with `make`, fills them with non-zero data, drops them, waits; then creates
    the same again and returns (old allocations, new resources)."""
    q = dev.queue()
    olds = [make(i) for i in range(12)]
    cl = q.command_list()
    for r in olds:
        fill(cl, r)
    q.wait(q.execute(cl))
    for r in olds:  # really dirty
        assert not zero_check(read(q, r))
    old_allocs = [r.allocation for r in olds]
    del olds, cl
    gc.collect()
    settle(dev)
    dev.validate_memory()
    news = [make(i) for i in range(12)]
    dev.validate_memory()
    reused = sum(any(overlaps(n.allocation, o) for o in old_allocs) for n in news)
    assert reused >= 3, "the new resources did not land in the freed memory"
    return news


def test_new_resources_read_as_zeros_after_dirty_memory_was_freed():
    dev = dx.Device()
    q = dev.queue()

    def is_zero(a):
        return not np.any(a)

    # Buffers
    news = _dirty_then_fresh(dev, lambda i: dev.create_buffer(3000 + 256 * i, uav=True),
                             lambda cl, b: cl.upload(b, np.full(b.size, 0xA5, np.uint8)),
                             lambda q, b: q.read_buffer(b), is_zero)
    for b in news:
        assert is_zero(q.read_buffer(b))
    del news
    # Textures (with mips and array slices)
    def fill_tex(cl, t):
        for s in range(t.array_size):
            for m in range(t.mip_levels):
                h, w = max(1, t.height >> m), max(1, t.width >> m)
                cl.upload(t, np.full((h, w, 4), 0x5A, np.uint8), mip=m, array_slice=s)

    news = _dirty_then_fresh(dev, lambda i: dev.create_texture2d(48, 40, mip_levels=0, array_size=2),
                             fill_tex, lambda q, t: q.read_texture(t), is_zero)
    for t in news:
        for s in range(t.array_size):
            for m in range(t.mip_levels):
                assert is_zero(q.read_texture(t, m, s)), (m, s)
    del news
    # Render targets (every mip)
    news = _dirty_then_fresh(dev, lambda i: dev.create_texture2d(64, 64, render_target=True, mip_levels=2),
                             lambda cl, t: (cl.clear_render_target(t, [1, 1, 1, 1]), cl.clear_render_target(t, [1, 1, 1, 1], mip=1)),
                             lambda q, t: q.read_texture(t), is_zero)
    for t in news:
        assert is_zero(q.read_texture(t)) and is_zero(q.read_texture(t, 1))
    del news
    # Depth buffers (d32 and d24s8)
    news = _dirty_then_fresh(dev, lambda i: dev.create_texture2d(64, 64, "d32_float", depth_stencil=True),
                             lambda cl, t: cl.clear_depth_stencil(t, 0.75),
                             lambda q, t: q.read_texture(t), is_zero)
    for t in news:
        assert is_zero(q.read_texture(t))
    del news
    # Upload and readback heaps: zeros through the mapping
    for heap in ("upload", "readback", "custom"):
        olds = [dev.create_buffer(20_000, heap=heap) for _ in range(8)]
        for b in olds:
            b.map()[:] = 0xC3
        old_allocs = [b.allocation for b in olds]
        del olds, b
        gc.collect()
        settle(dev)
        news = [dev.create_buffer(20_000, heap=heap) for _ in range(8)]
        assert sum(any(overlaps(n.allocation, o) for o in old_allocs) for n in news) >= 4, heap
        for b in news:
            assert is_zero(b.map()), heap
        del news
    dev.validate_memory()


def test_partial_first_write_keeps_the_rest_zero():
    dev = dx.Device()
    q = dev.queue()
    news = _dirty_then_fresh(dev, lambda i: dev.create_buffer(4096),
                             lambda cl, b: cl.upload(b, np.full(b.size, 0x77, np.uint8)),
                             lambda q, b: q.read_buffer(b), lambda a: not np.any(a))
    x = np.arange(1000, dtype=np.uint8) | 1
    cl = q.command_list()
    for b in news:
        cl.upload(b, x, offset=1000)  # a partial write: the zeroing must still run first
    q.execute(cl)
    for b in news:
        out = q.read_buffer(b)
        np.testing.assert_array_equal(out[1000:2000], x)
        assert not out[:1000].any() and not out[2000:].any()


def test_full_upload_of_an_unaligned_buffer_zeroes_its_tail():
    dev = dx.Device()
    q = dev.queue()
    news = _dirty_then_fresh(dev, lambda i: dev.create_buffer(256),
                             lambda cl, b: cl.upload(b, np.full(256, 0x99, np.uint8)),
                             lambda q, b: q.read_buffer(b), lambda a: not np.any(a))
    del news
    settle(dev)
    small = [dev.create_buffer(100) for _ in range(12)]   # native width 256
    whole = [dev.create_buffer(256) for _ in range(12)]
    cl = q.command_list()
    for s in small:
        cl.upload(s, np.ones(100, np.uint8))  # its whole logical size: zeroing skipped
    for s, w in zip(small, whole):
        cl.copy_resource(w, s)  # same native width (256): legal, copies the tail too
    q.execute(cl)
    for w in whole:
        out = q.read_buffer(w)
        assert (out[:100] == 1).all()
        assert not out[100:].any(), f"tail holds old bytes: {set(out[100:].tolist())}"


@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's quarantine keeps freed memory: resident size says nothing there")
def test_create_drop_without_execute_does_not_grow_cpu_memory():
    code = (
        "import gc, dx12kit as dx\n"
        "def rss():\n"
        "    return int(open('/proc/self/statm').read().split()[1]) * 4096\n"
        "d = dx.Device(uma_direct=False)\n"  # the zero-init queue of GPU-only buffers
        "for i in range(2000):\n"
        "    b = d.create_buffer(256); del b\n"
        "d.poll(); gc.collect(); r0 = rss()\n"
        "for i in range(100000):\n"
        "    b = d.create_buffer(256); del b\n"
        "    if i % 1000 == 0: d.poll()\n"
        "gc.collect()\n"
        "print((rss() - r0) / 1e6)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-1000:]
    grown_mb = float(r.stdout.strip())
    # heap='upload' (no zero-init queue) grows ~1 MB over the same loop.
    assert grown_mb < 10, f"{grown_mb:.1f} MB kept for 100,000 dropped buffers"


# ---------------------------------------------------------------------------------- threads

def test_threads_create_and_drop_at_random():
    dev = dx.Device(memory_block_size=8 * MiB)
    fresh = dev.memory_stats()
    assert fresh["total"]["allocation_count"] == 0
    pool = dev.create_pool(heap="default", block_size=2 * MiB, name="shared")
    errors = []
    live_snapshots = []
    held_by_thread = []
    q = dev.queue()

    def worker(seed):
        rng = random.Random(seed)
        held = []
        try:
            for it in range(120):
                op = rng.random()
                if op < 0.55 or not held:
                    kind = rng.choice(["buf", "buf", "up", "tex", "rt", "pool", "committed"])
                    if kind == "buf":
                        r = dev.create_buffer(rng.randint(1, 300_000), name=f"t{seed}")
                    elif kind == "up":
                        r = dev.create_buffer(rng.randint(1, 100_000), heap="upload", name=f"t{seed}")
                        r.map()[:] = seed
                    elif kind == "tex":
                        r = dev.create_texture2d(rng.randint(1, 128), rng.randint(1, 128), name=f"t{seed}")
                    elif kind == "rt":
                        r = dev.create_texture2d(rng.randint(1, 64), rng.randint(1, 64), render_target=True, name=f"t{seed}")
                    elif kind == "pool":
                        r = dev.create_buffer(rng.randint(1, 200_000), pool=pool, name=f"t{seed}")
                    else:
                        r = dev.create_buffer(rng.randint(1, 50_000), committed=True, name=f"t{seed}")
                    held.append(r)
                    if kind in ("buf", "pool", "committed") and rng.random() < 0.3:
                        val = np.full(r.size, seed * 16 + it % 16, np.uint8)
                        cl = q.command_list()
                        cl.upload(r, val)
                        q.execute(cl)
                        np.testing.assert_array_equal(q.read_buffer(r), val)
                else:
                    held.pop(rng.randrange(len(held)))
                if it % 20 == 0:
                    dev.validate_memory()
                    if rng.random() < 0.5:
                        dev.poll()
            held_by_thread.append(held)  # kept alive until every thread is done
            live_snapshots.append([r.allocation for r in held])
            assert_disjoint(held)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    # Across threads: the live ranges at the end never overlap.
    allocs = [a for snap in live_snapshots for a in snap]
    for i, a in enumerate(allocs):
        for b in allocs[i + 1:]:
            assert not overlaps(a, b), (a, b)
    dev.validate_memory()
    check_stats_consistent(dev)
    live_snapshots.clear()
    held_by_thread.clear()
    gc.collect()
    settle(dev)
    dev.trim_memory()
    dev.validate_memory()
    # Back to what the device keeps for itself (upload pages, the zeros buffer, the readback buffer).
    left = internal_allocations(dev)
    assert set(left) <= INTERNAL_NAMES, left
    s = check_stats_consistent(dev)
    assert s["total"]["allocation_count"] == sum(left.values())
    assert pool.stats()["block_count"] == 0 and pool.stats()["allocation_count"] == 0
    j = json.loads(dev.memory_json())
    for p in list(j["DefaultPools"].values()) + j["CustomPools"]:
        for b in p["Blocks"]:
            assert b["Allocations"] > 0, "an empty block survived trim_memory"


# --------------------------------------------------------------------- per-frame allocation

def test_per_frame_allocate_free_does_not_churn_heaps():
    dev = dx.Device(uma_direct=False)  # memory_grace 1 s (default)
    q = dev.queue()
    blocks_seen = set()
    counts = []
    fences = []
    for frame in range(100):
        if len(fences) >= 2:
            q.wait(fences[-2])  # two frames in flight, as a renderer does
        tmp = dev.create_buffer(64 * KiB, uav=True, name="frame")
        rt = dev.create_texture2d(32, 32, render_target=True, name="frame rt")
        cl = q.command_list()
        cl.upload(tmp, np.full(64 * KiB, frame % 256, np.uint8))
        cl.clear_render_target(rt, [frame / 100, 0, 0, 1])
        fences.append(q.execute(cl))
        blocks_seen.update((r.allocation["heap_type"], r.allocation["block"]) for r in (tmp, rt))
        del tmp, rt, cl
        dev.poll()
        s = dev.memory_stats()["heap_types"]
        counts.append((s["default"]["block_count"], s["default"]["allocation_count"]))
        if frame % 10 == 0:
            dev.validate_memory()
    dev.wait_idle()
    # Block ids are never reused: the set of ids seen is the number of heaps created for them.
    assert len(blocks_seen) == 1, blocks_seen
    assert {c[0] for c in counts[1:]} == {1}, counts
    assert max(c[1] for c in counts) <= 8, counts  # at most a few frames' resources pending
    j = json.loads(dev.memory_json())
    max_id = max(b["Id"] for p in j["DefaultPools"].values() for b in p["Blocks"])
    assert max_id == 1
    max_upload_id = max(b["Id"] for b in j["DefaultPools"]["upload"]["Blocks"])
    assert max_upload_id <= 2  # upload pages are recycled, not re-created
    dev.poll()
    assert dev.memory_stats()["heap_types"]["default"]["allocation_count"] == 0
    dev.validate_memory()


def test_zero_grace_releases_empty_blocks_at_the_next_poll():
    dev = dx.Device(memory_grace=0)
    ids = []
    for _ in range(5):
        b = dev.create_buffer(1000)
        ids.append(b.allocation["block"])
        del b
        dev.poll()
        dev.poll()
        assert dev.memory_stats()["heap_types"]["default"]["block_count"] == 0
    assert len(set(ids)) == 5  # a new heap each time: what the grace period exists to avoid
    dev.validate_memory()


# ----------------------------------------------------------------------------------- bad input

def test_bad_input_raises_and_changes_nothing():
    dev = dx.Device(memory_block_size=4 * MiB, uma_direct=False)
    other = dx.Device()
    other_pool = other.create_pool(name="other")
    up_pool = dev.create_pool(heap="upload", name="up")
    keep = [dev.create_buffer(1000), dev.create_buffer(5000, heap="upload")]
    before = dev.memory_stats()
    before_json = json.loads(dev.memory_json())
    cases = [
        (InvalidArgumentError, lambda: dev.create_buffer(0)),
        (InvalidArgumentError, lambda: dev.create_buffer((1 << 40) + 1)),
        (InvalidArgumentError, lambda: dev.create_buffer(-1)),
        (InvalidArgumentError, lambda: dev.create_buffer(1 << 64)),
        (TypeError, lambda: dev.create_buffer("100")),
        (TypeError, lambda: dev.create_buffer(1.5)),
        (InvalidArgumentError, lambda: dev.create_buffer(100, heap="gpu")),
        (InvalidArgumentError, lambda: dev.create_buffer(100, heap="")),
        (TypeError, lambda: dev.create_buffer(100, heap=1)),
        # (heap=None is the default: the heap of pool=/memory=, else 'default')
        (TypeError, lambda: dev.create_buffer(100, pool="up")),
        (TypeError, lambda: dev.create_buffer(100, pool=up_pool.stats())),
        (TypeError, lambda: dev.create_buffer(100, committed="yes")),
        (TypeError, lambda: dev.create_buffer(100, within_budget="no")),
        (InvalidArgumentError, lambda: dev.create_buffer(100, pool=other_pool)),
        (InvalidArgumentError, lambda: dev.create_texture2d(8, 8, pool=other_pool)),
        (InvalidArgumentError, lambda: dev.create_buffer(100, heap="readback", pool=up_pool)),
        (InvalidArgumentError, lambda: dev.create_buffer(100, uav=True, heap="upload")),
        (InvalidArgumentError, lambda: dev.create_buffer(100, uav=True, heap="readback")),
        (InvalidArgumentError, lambda: dev.create_buffer(100, uav=True, pool=up_pool)),
        (InvalidArgumentError, lambda: dev.create_texture2d(8, 8, heap="upload")),
        (InvalidArgumentError, lambda: dev.create_texture2d(8, 8, heap="readback")),
        (InvalidArgumentError, lambda: dev.create_texture2d(8, 8, heap="custom")),
        (InvalidArgumentError, lambda: dev.create_texture2d(8, 8, pool=up_pool)),
        (InvalidArgumentError, lambda: dev.create_texture2d(0, 8)),
        (InvalidArgumentError, lambda: dev.create_texture2d(8, 20000)),
        (TypeError, lambda: dev.create_texture2d(8, 8, heap=2)),
        (InvalidArgumentError, lambda: dev.create_pool(algorithm="buddy")),
        (InvalidArgumentError, lambda: dev.create_pool(algorithm="")),
        (InvalidArgumentError, lambda: dev.create_pool(heap="vram")),
        (TypeError, lambda: dev.create_pool(heap=0)),
        (InvalidArgumentError, lambda: dev.create_pool(block_size=0)),
        (InvalidArgumentError, lambda: dev.create_pool(block_size=-65536)),
        (InvalidArgumentError, lambda: dev.create_pool(block_size=4096)),       # below 64 KiB
        (InvalidArgumentError, lambda: dev.create_pool(block_size=65535)),
        (InvalidArgumentError, lambda: dev.create_pool(block_size=65536 + 4096)),  # not a multiple
        (InvalidArgumentError, lambda: dev.create_pool(block_size=3 * 65536 // 2)),
        (TypeError, lambda: dev.create_pool(block_size="65536")),
        (TypeError, lambda: dev.create_pool(block_size=65536.0)),
        (InvalidArgumentError, lambda: dev.create_pool(block_size=1 << 20, min_blocks=3, max_blocks=2)),
        (TypeError, lambda: dev.create_pool("default")),  # keyword-only
        (InvalidArgumentError, lambda: dx.Device(memory_block_size=0)),
        (InvalidArgumentError, lambda: dx.Device(memory_block_size=1000)),
        (InvalidArgumentError, lambda: dx.Device(memory_block_size=65536 * 3 + 1)),
        (InvalidArgumentError, lambda: dx.Device(memory_block_size=-1)),
        (InvalidArgumentError, lambda: dx.Device(memory_budget=0)),
        (InvalidArgumentError, lambda: dx.Device(memory_budget=-5)),
        (InvalidArgumentError, lambda: dx.Device(resource_heap_tier=3)),
        (InvalidArgumentError, lambda: dx.Device(resource_heap_tier=0)),
        (InvalidArgumentError, lambda: dx.Device(memory_grace=-1)),
        (InvalidArgumentError, lambda: dx.Device(memory_grace=float("nan"))),
        (TypeError, lambda: dx.Device(memory_grace="1")),
    ]
    for exc, call in cases:
        with pytest.raises(exc):
            call()
        assert dev.memory_stats() == before
        dev.validate_memory()
    # Absurd sizes: a clear out-of-memory error, nothing kept.
    for call in (lambda: dev.create_buffer(1 << 40), lambda: dev.create_buffer(1 << 36, within_budget=True),
                 lambda: dev.create_texture2d(16384, 16384, mip_levels=0, array_size=2048),
                 lambda: dev.create_buffer(100, pool=dev.create_pool(block_size=1 << 40))):
        with pytest.raises(OutOfMemoryError):
            call()
        assert dev.memory_stats() == before
        dev.validate_memory()
    after_json = json.loads(dev.memory_json())
    assert after_json["Total"] == before_json["Total"]
    assert keep[0].allocation["heap_type"] == "default"


@pytest.mark.parametrize("call", [
    lambda dev: dx.Device(memory_budget="1000000"),
    lambda dev: dx.Device(memory_budget=1.5e9),
    lambda dev: dx.Device(resource_heap_tier="1"),
    lambda dev: dev.create_pool(name=5),
], ids=["budget-str", "budget-float", "tier-str", "pool-name-int"])
def test_wrong_types_raise_type_error(device, call):
    with pytest.raises(TypeError):
        call(device)


@pytest.mark.parametrize("call", [
    lambda dev: dx.Device(memory_budget=2**70),
    lambda dev: dev.create_pool(block_size=2**70),
], ids=["budget", "block-size"])
def test_huge_integers_raise_a_clear_error(device, call):
    with pytest.raises((TypeError, InvalidArgumentError, OutOfMemoryError)):
        call(device)


@pytest.mark.parametrize("args, error", [("algorithm=1", "TypeError"), ("algorithm=None", "TypeError"),
                                         ("min_blocks=-1", "InvalidArgumentError"), ("max_blocks='2'", "TypeError")])
def test_create_pool_wrong_keyword_types_raise_type_error(args, error):
    code = (
        "import dx12kit as dx\n"
        "d = dx.Device()\n"
        "try:\n"
        f"    d.create_pool({args})\n"
        "except TypeError:\n"
        "    print('TypeError')\n"
        "except dx.InvalidArgumentError:\n"
        "    print('InvalidArgumentError')\n"
        "assert d.memory_stats()['total']['block_count'] == 0\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-500:]}"
    assert r.stdout.strip() == error


def test_heap_type_strings_and_allocation_dict(device):
    b = device.create_buffer(100, heap="UPLOAD")
    assert b.allocation["heap_type"] == "upload"
    a = b.allocation
    assert set(a) == {"heap_type", "committed", "block", "offset", "size", "alignment", "pool"}
    assert isinstance(a["committed"], bool) and isinstance(a["block"], int)
    assert "Pool" in repr(device.create_pool(name="r")) or "pool" in repr(device.create_pool(name="r")).lower()


def test_memory_layer_survives_device_drop_order():
    """Pools, resources and mapped views dropped after their device: no crash (subprocess)."""
    code = (
        "import gc, numpy as np, dx12kit as dx\n"
        "d = dx.Device()\n"
        "p = d.create_pool(heap='upload', block_size=1 << 20, min_blocks=1)\n"
        "b = d.create_buffer(1000, pool=p, heap='upload')\n"
        "v = b.map(np.uint8)\n"
        "t = d.create_texture2d(8, 8)\n"
        "q = d.queue(); cl = q.command_list(); cl.upload(t, np.ones((8, 8, 4), np.uint8)); q.execute(cl)\n"
        "del d, q, cl\n"
        "gc.collect()\n"
        "v[:] = 7\n"
        "del p, b\n"
        "gc.collect()\n"
        "assert (v == 7).all()\n"
        "del v, t\n"
        "gc.collect()\n"
        "print('ok')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def test_a_block_larger_than_the_device_is_refused_by_dx12kit_not_the_driver():
    """Mesa 22's lavapipe refused a 1 TiB heap; Mesa 25's grants it lazily. dx12kit refuses a heap
    or committed resource larger than all of the device's memory itself, budget or not."""
    dev = dx.Device()
    total = json.loads(dev.memory_json())
    before = dev.memory_stats()
    with pytest.raises(OutOfMemoryError, match="larger than all of the device's memory"):
        dev.create_buffer(100, pool=dev.create_pool(block_size=1 << 40, name="huge"))
    with pytest.raises(OutOfMemoryError, match="larger than all of the device's memory"):
        dev.create_buffer(1 << 40, committed=True, within_budget=False)
    assert dev.memory_stats() == before and json.loads(dev.memory_json())["Total"] == total["Total"]
    dev.validate_memory()


def test_a_pool_larger_than_the_device_is_refused_when_created():
    """create_pool itself refuses a block_size larger than all of the device's memory, and min_blocks
    blocks that together are (they were created at once: 4 GiB of heaps on a 2 GiB device)."""
    dev = dx.Device()
    before = dev.memory_budget()["local"]["usage_bytes"]
    with pytest.raises(OutOfMemoryError, match=r"block_size of 4194304\.00 MiB is larger than all of the device's memory"):
        dev.create_pool(block_size=4 << 40)
    with pytest.raises(OutOfMemoryError, match=r"min_blocks 4096 x block_size 1024\.00 MiB = 4194304\.00 MiB is larger than all"):
        dev.create_pool(block_size=1 << 30, min_blocks=4096)  # 4 TiB in all, each block possible
    assert dev.memory_budget()["local"]["usage_bytes"] == before
    pool = dev.create_pool(block_size=1 << 20, min_blocks=2)  # well within: still created at once
    assert pool.block_count == 2
    dev.validate_memory()
