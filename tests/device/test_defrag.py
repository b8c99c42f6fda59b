"""Defragmentation (Device.defragment) on the real device: dx12kit plans the moves, copies on the GPU,
re-points the same Python objects (cached views included) and frees the old memory after the copy.
Adapted from D3D12MA's defragmentation tests (fast/balanced/full, immovable allocations, incremental
passes with new allocations between them)."""
from __future__ import annotations

import gc
import threading
import time

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import InvalidArgumentError

KiB = 1024

READ_TEX_CS = """
Texture2D<float4> t : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(8, 8, 1)] void main(uint3 i : SV_DispatchThreadID) {
    float4 c = t.Load(int3(i.xy, 0));
    uint4 b = uint4(round(c * 255.0));
    o[i.y * 64 + i.x] = b.x | (b.y << 8) | (b.z << 16) | (b.w << 24);
}
"""


def fragmented_device(n_buffers=240, n_textures=40, seed=1, default_device=False):
    """Hundreds of buffers and small textures of mixed sizes with distinct contents, then every
    second one dropped: the default pool is left with holes. ``default_device``: a plain ``Device()``
    (uma_direct on a cache-coherent UMA adapter: buffers in CPU-visible memory, textures in the pool)."""
    # uma_direct=False: 'default' buffers in the default pool (uma_direct puts them in the custom one)
    dev = dx.Device() if default_device else dx.Device(uma_direct=False)
    q = dev.queue()
    rng = np.random.default_rng(seed)
    bufs, datas, texs, tdatas = [], [], [], []
    for i in range(n_buffers):
        n = int(rng.integers(1, 48)) * 4 * KiB
        bufs.append(dev.create_buffer(n, name=f"b{i}"))
        datas.append(rng.integers(0, 256, n, dtype=np.uint8))
    for i in range(n_textures):
        texs.append(dev.create_texture2d(64, 64, "rgba8_unorm", name=f"t{i}"))
        tdatas.append(rng.integers(0, 256, (64, 64, 4), dtype=np.uint8))
    cl = q.command_list()
    for b, d in zip(bufs, datas):
        cl.upload(b, d)
    for t, d in zip(texs, tdatas):
        cl.upload(t, d)
    q.wait(q.execute(cl))
    del bufs[::2], datas[::2], texs[::2], tdatas[::2]
    gc.collect()
    dev.wait_idle()
    dev.trim_memory()
    return dev, q, bufs, datas, texs, tdatas


def check_contents(q, bufs, datas, texs, tdatas):
    for b, d in zip(bufs, datas):
        np.testing.assert_array_equal(q.read_buffer(b), d, err_msg=b.name)
    for t, d in zip(texs, tdatas):
        np.testing.assert_array_equal(q.read_texture(t), d, err_msg=t.name)


def default_stats(dev):
    return dev.memory_stats()["heap_types"]["default"]


@pytest.mark.parametrize("algorithm", ["fast", "balanced", "full"])
def test_defragment_frees_memory_and_keeps_every_byte(algorithm):
    dev, q, bufs, datas, texs, tdatas = fragmented_device()
    before = default_stats(dev)
    placements = {r.name: (r.allocation["block"], r.allocation["offset"]) for r in bufs + texs}
    st = dev.defragment(algorithm=algorithm)
    dev.validate_memory()
    after = default_stats(dev)
    assert set(st) == {"moves", "bytes_moved", "blocks_freed", "passes", "seconds"}
    assert st["moves"] > 0 and st["bytes_moved"] > 0 and st["passes"] >= 1 and st["seconds"] >= 0
    moved = sum(placements[r.name] != (r.allocation["block"], r.allocation["offset"]) for r in bufs + texs)
    assert moved >= 1
    # Memory given back: fewer blocks, or fewer holes.
    assert after["block_count"] < before["block_count"] or after["unused_range_count"] < before["unused_range_count"]
    assert after["block_count"] == before["block_count"] - st["blocks_freed"]
    check_contents(q, bufs, datas, texs, tdatas)


COPY_CS = """
StructuredBuffer<uint> s : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = s[i.x]; }
"""


def gpu_copy(dev, q, src, *, table):
    """``src``'s bytes as a shader reads them: through a root SRV (its gpu_address, taken when the
    list is recorded) or, with ``table``, through its cached buffer SRV in a descriptor table."""
    first = dx.DescriptorTable([dx.SRV(0)]) if table else dx.RootSRV(0)
    rs = dev.create_root_signature([first, dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(COPY_CS, profile="cs_5_0"), rs)
    out = dev.create_buffer(src.size, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    if table:
        cl.set_shader_resource_view(0, 0, src)  # structured, from the shader
    else:
        cl.set_root_srv(0, src)
    cl.set_root_uav(1, out)
    cl.dispatch(src.size // 4 // 64)
    q.wait(q.execute(cl))
    return q.read_buffer(out)


def where(r):
    return (r.allocation["block"], r.allocation["offset"])


def test_defragment_on_the_default_device_keeps_every_byte():
    """The default Device (uma_direct on this cache-coherent UMA adapter: buffers in the custom heap's
    default pool, CPU-visible; textures in the default heap's): defragment() compacts both pools.
    Every buffer and texture reads back its bytes, shaders read moved buffers through their new
    gpu_address and their re-pointed cached views, a moved texture samples right, and buffers take
    writes (direct or through the GPU) after the moves."""
    dev, q, bufs, datas, texs, tdatas = fragmented_device(n_buffers=40, n_textures=20, default_device=True)
    if not dev.uma_direct:
        pytest.skip("the adapter is not cache-coherent UMA: buffers live in the default heap")
    assert {b.allocation["heap_type"] for b in bufs} == {"custom"}
    big = max(range(len(bufs)), key=lambda i: bufs[i].size)  # a view cached before the moves
    np.testing.assert_array_equal(gpu_copy(dev, q, bufs[big], table=True), datas[big])
    before = dev.memory_stats()["heap_types"]
    placements = {r.name: where(r) for r in bufs + texs}
    addresses = {b.name: b.gpu_address for b in bufs}
    st = dev.defragment()
    dev.validate_memory()
    after = dev.memory_stats()["heap_types"]
    assert set(st) == {"moves", "bytes_moved", "blocks_freed", "passes", "seconds"}
    moved = [b for b in bufs if placements[b.name] != where(b)]
    moved_texs = [t for t in texs if placements[t.name] != where(t)]
    assert moved and moved_texs and st["moves"] >= len(moved) + len(moved_texs)
    assert all(b.gpu_address != addresses[b.name] for b in moved)
    # The custom heap's holes close (40 buffers, every second one dropped: 21 holes before, 6 after).
    assert after["custom"]["unused_range_count"] < before["custom"]["unused_range_count"] // 2
    assert after["custom"]["block_count"] <= before["custom"]["block_count"]
    assert after["default"]["unused_range_count"] < before["default"]["unused_range_count"]
    check_contents(q, bufs, datas, texs, tdatas)
    # shaders: a moved buffer by its new address, the cached view of another, a moved texture
    b = moved[0]
    np.testing.assert_array_equal(gpu_copy(dev, q, b, table=False), datas[bufs.index(b)])
    np.testing.assert_array_equal(gpu_copy(dev, q, bufs[big], table=True), datas[big])
    t, d = moved_texs[0], tdatas[texs.index(moved_texs[0])]
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(READ_TEX_CS, profile="cs_5_0"), rs)
    out = dev.create_buffer(64 * 64 * 4, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, t)
    cl.set_root_uav(1, out)
    cl.dispatch(8, 8)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(out).reshape(64, 64, 4), d)
    # writes after the moves: CPU-direct (nothing in flight) and in a list
    new = datas[bufs.index(b)][::-1].copy()
    q.wait(q.write_buffer(b, new))
    np.testing.assert_array_equal(q.read_buffer(b), new)
    np.testing.assert_array_equal(gpu_copy(dev, q, b, table=False), new)  # the CPU wrote where the GPU reads
    datas[bufs.index(b)] = new
    c = moved[-1]
    cl = q.command_list()
    cl.upload(c, datas[bufs.index(c)] ^ 0x5A)
    q.wait(q.execute(cl))
    datas[bufs.index(c)] = datas[bufs.index(c)] ^ 0x5A
    np.testing.assert_array_equal(gpu_copy(dev, q, c, table=True), datas[bufs.index(c)])
    check_contents(q, bufs, datas, texs, tdatas)


def big_buffers_with_holes(dev, q, *, pool=None, n=6, mib=4):
    """``n`` buffers of ``mib`` MiB (copies long enough to be still running when an incremental pass
    returns), distinct bytes, every second one dropped."""
    rng = np.random.default_rng(n * mib)
    bufs = [dev.create_buffer(mib << 20, pool=pool, name=f"big{i}") for i in range(n)]
    datas = [rng.integers(0, 256, b.size, dtype=np.uint8) for b in bufs]
    for b, d in zip(bufs, datas):
        q.write_buffer(b, d)
    del bufs[::2], datas[::2]
    gc.collect()
    dev.wait_idle()
    dev.poll()
    return bufs, datas


def test_incremental_moves_on_the_default_device_then_reads_and_writes_at_once():
    """An incremental pass returns with its copies running. A uma_direct buffer read at once waits for
    its copy (the copy is its last use); one written at once gets its bytes after the copy (the write
    goes through the GPU, behind it), never the copy's stale bytes over the new ones."""
    dev = dx.Device()
    if not dev.uma_direct:
        pytest.skip("the adapter is not cache-coherent UMA")
    q = dev.queue()
    bufs, datas = big_buffers_with_holes(dev, q)
    placements = [where(b) for b in bufs]
    st = dev.defragment(max_moves=2)
    assert st["moves"] == 2
    moved = [i for i, b in enumerate(bufs) if where(b) != placements[i]]
    assert len(moved) == 2
    datas[moved[1]] = datas[moved[1]] ^ 0xFF
    q.write_buffer(bufs[moved[1]], datas[moved[1]])   # at once: ordered behind the copy
    np.testing.assert_array_equal(q.read_buffer(bufs[moved[0]]), datas[moved[0]])   # at once: waits for it
    dev.wait_idle()
    for b, d in zip(bufs, datas):
        np.testing.assert_array_equal(q.read_buffer(b), d, err_msg=b.name)
        np.testing.assert_array_equal(gpu_copy(dev, q, b, table=False)[:4096], d[:4096], err_msg=b.name)


def test_threads_read_and_write_uma_buffers_while_another_defragments():
    """read_buffer and write_buffer of uma_direct buffers touch their mapping on the CPU: a buffer
    being read is pinned, a write lands under the submission lock, so a move on another thread never
    pulls the memory from under either (each thread checks what it wrote)."""
    dev, q, bufs, datas, _, _ = fragmented_device(n_buffers=60, n_textures=0, seed=13, default_device=True)
    if not dev.uma_direct:
        pytest.skip("the adapter is not cache-coherent UMA")
    errors = []

    def worker(k):
        try:
            qq = dev.queue()
            mine = list(range(k, len(bufs), 2))
            for it in range(12):
                for i in mine[it % 3::3]:
                    datas[i] = (datas[i] + 1).astype(np.uint8)
                    qq.write_buffer(bufs[i], datas[i])
                    np.testing.assert_array_equal(qq.read_buffer(bufs[i]), datas[i], err_msg=bufs[i].name)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    moves = 0
    for _ in range(20):
        moves += dev.defragment(max_moves=3)["moves"]
    for t in threads:
        t.join()
    assert not errors, errors
    assert moves > 0
    dev.wait_idle()
    dev.validate_memory()
    check_contents(q, bufs, datas, [], [])


def test_cpu_visible_buffers_never_move_and_their_views_stay_valid():
    """heap='custom' buffers are CPU-visible by contract: Buffer.map hands out a numpy array over their
    memory, and the user may keep raw pointers. defragment(pool=None) covers the custom heap's pool for
    the uma_direct buffers beside them, but never moves a heap='custom' buffer, mapped or not; an
    explicit custom Pool is refused."""
    dev = dx.Device()
    q = dev.queue()
    try:
        pool = dev.create_pool(heap="custom", block_size=1 << 20, name="cpu")
    except InvalidArgumentError:
        pytest.skip("no custom heap (the adapter is not cache-coherent UMA)")
    # heap='custom' buffers interleaved with uma_direct ones in the device's own custom pool, and in a user pool.
    mixed = [dev.create_buffer(64 * KiB, heap="custom" if i % 2 else "default", uav=True, name=f"m{i}") for i in range(16)]
    own = [dev.create_buffer(64 * KiB, pool=pool, uav=True, name=f"c{i}") for i in range(8)]
    bufs = mixed + own
    del mixed, own
    datas = [np.full(64 * KiB, i + 1, np.uint8) for i in range(len(bufs))]
    for b, d in zip(bufs, datas):
        q.write_buffer(b, d)
    q.wait(q.write_buffer(bufs[0], datas[0]))
    drop = set(range(0, 8, 2)) | {16, 17, 18}   # holes below the rest in both pools
    bufs = [b for i, b in enumerate(bufs) if i not in drop]
    datas = [d for i, d in enumerate(datas) if i not in drop]
    gc.collect()
    dev.wait_idle()
    custom = [b for b in bufs if b.name.startswith("c") or int(b.name[1:]) % 2]   # the heap='custom' ones
    before = {b.name: where(b) for b in bufs}
    held = custom[-1].map(np.uint32)[16:]      # a live view: the user's pointer
    st = dev.defragment(algorithm="full")
    if dev.uma_direct:
        assert st["moves"] > 0                 # uma_direct buffers did move
        assert any(where(b) != before[b.name] for b in bufs if b not in custom)
    assert all(where(b) == before[b.name] for b in custom), "a heap='custom' buffer moved"
    held[:] = 0xDEADBEEF                       # the view still points into the buffer
    d = datas[bufs.index(custom[-1])]
    d.view(np.uint32)[16:] = 0xDEADBEEF
    for b, d in zip(bufs, datas):
        np.testing.assert_array_equal(gpu_copy(dev, q, b, table=False), d, err_msg=b.name)
        np.testing.assert_array_equal(q.read_buffer(b), d, err_msg=b.name)
    with pytest.raises(InvalidArgumentError, match=r"pool 'cpu' holds CPU-visible memory \('custom'\), which never moves"):
        dev.defragment(pool=pool)
    dev.validate_memory()


def test_max_bytes_bounds_a_pass_over_both_pools():
    """pool=None plans the default heap's pool (textures) and the custom heap's (uma_direct buffers) in
    one pass: max_bytes bounds their sum, not each pool's share. 64 KiB resources above holes in both
    pools, max_bytes=64 KiB: one move per pass, never one in each pool."""
    dev = dx.Device()
    if not dev.uma_direct:
        pytest.skip("the adapter is not cache-coherent UMA: one pool only")
    q = dev.queue()
    texs = [dev.create_texture2d(128, 128, "rgba8_unorm", name=f"t{i}") for i in range(8)]   # 64 KiB each
    bufs = [dev.create_buffer(64 * KiB, name=f"b{i}") for i in range(8)]
    tdatas = [np.full((128, 128, 4), i + 1, np.uint8) for i in range(8)]
    datas = [np.full(64 * KiB, i + 101, np.uint8) for i in range(8)]
    cl = q.command_list()
    for t, d in zip(texs, tdatas):
        cl.upload(t, d)
    for b, d in zip(bufs, datas):
        cl.upload(b, d)
    q.wait(q.execute(cl))
    del texs[:4], tdatas[:4], bufs[:4], datas[:4]
    gc.collect()
    dev.wait_idle()
    moved = []
    for _ in range(12):
        st = dev.defragment(algorithm="full", max_bytes=64 * KiB)
        assert st["bytes_moved"] <= 64 * KiB and st["moves"] <= 1, st
        moved.append(st["moves"])
        dev.wait_idle()
    assert sum(moved) >= 2   # both pools got their moves, one pass at a time
    check_contents(q, bufs, datas, texs, tdatas)


def test_full_defragmentation_compacts_and_a_second_call_is_a_no_op():
    dev, q, bufs, datas, texs, tdatas = fragmented_device(seed=2)
    st = dev.defragment(algorithm="full")
    assert st["moves"] > 0
    again = dev.defragment(algorithm="full")
    assert again["moves"] == 0 and again["blocks_freed"] == 0
    check_contents(q, bufs, datas, texs, tdatas)


def test_defragmenting_an_empty_device_is_a_no_op():
    dev = dx.Device()
    st = dev.defragment()
    assert st["moves"] == 0 and st["bytes_moved"] == 0 and st["blocks_freed"] == 0
    b = dev.create_buffer(64 * KiB)
    st = dev.defragment()  # one allocation, already at the front
    assert st["moves"] == 0
    assert b.allocation["offset"] == 0


def test_views_cached_before_the_move_still_sample_right():
    dev, q, bufs, datas, texs, tdatas = fragmented_device(seed=3)
    rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(READ_TEX_CS, profile="cs_5_0"), rs)
    out = dev.create_buffer(64 * 64 * 4, uav=True)

    def sample(t):
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_shader_resource_view(0, 0, t)   # the texture's cached SRV
        cl.set_root_uav(1, out)
        cl.dispatch(8, 8)
        q.wait(q.execute(cl))
        return q.read_buffer(out, dtype=np.uint32).view(np.uint8).reshape(64, 64, 4)

    for t, d in zip(texs, tdatas):  # views created (and cached) before the move
        np.testing.assert_array_equal(sample(t), d)
    views_before = [t.cached_views for t in texs]
    where = [(t.allocation["block"], t.allocation["offset"]) for t in texs]
    dev.defragment(algorithm="full")
    assert any((t.allocation["block"], t.allocation["offset"]) != w for t, w in zip(texs, where)), "no texture moved"
    assert [t.cached_views for t in texs] == views_before  # the same descriptors, rewritten in place
    for t, d in zip(texs, tdatas):
        np.testing.assert_array_equal(sample(t), d)


def test_a_moved_buffer_gets_a_new_gpu_address_and_root_views_follow():
    dev, q, bufs, datas, texs, tdatas = fragmented_device(seed=4)
    addresses = {b.name: b.gpu_address for b in bufs}
    offsets = {b.name: (b.allocation["block"], b.allocation["offset"]) for b in bufs}
    dev.defragment(algorithm="full")
    moved = [b for b in bufs if (b.allocation["block"], b.allocation["offset"]) != offsets[b.name]]
    assert moved
    assert all(b.gpu_address != addresses[b.name] for b in moved)
    # A root view recorded after the move reads the moved memory.
    rs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl("""
StructuredBuffer<uint> s : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = s[i.x]; }
""", profile="cs_5_0"), rs)
    b = moved[0]
    d = datas[bufs.index(b)]
    out = dev.create_buffer(b.size, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_srv(0, b)
    cl.set_root_uav(1, out)
    cl.dispatch(b.size // 4 // 64)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(out), d)


def test_resources_of_a_list_still_being_recorded_are_not_moved_and_the_list_still_works():
    dev, q, bufs, datas, texs, tdatas = fragmented_device(seed=5)
    held = bufs[-20:]   # the last ones: the likeliest to move
    where = {b.name: (b.allocation["block"], b.allocation["offset"]) for b in held}
    sink = dev.create_buffer(sum(b.size for b in held))
    cl = q.command_list()   # recorded before the defragmentation, executed after it
    off = 0
    for b in held:
        cl.copy_buffer_region(sink, off, b, 0, b.size)
        off += b.size
    st = dev.defragment(algorithm="full")
    assert st["moves"] > 0
    assert all((b.allocation["block"], b.allocation["offset"]) == where[b.name] for b in held)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(sink), np.concatenate([datas[bufs.index(b)] for b in held]))
    # Once the list is executed they may move.
    dev.defragment(algorithm="full")
    check_contents(q, bufs, datas, texs, tdatas)


def test_committed_and_aliased_memory_is_immovable():
    dev, q, bufs, datas, texs, tdatas = fragmented_device(n_buffers=60, n_textures=0, seed=6)
    c = dev.create_buffer(64 * KiB, committed=True, name="committed")
    mem = dev.allocate_memory(256 * KiB, name="shared")
    a = dev.create_buffer(64 * KiB, memory=mem, offset=0, name="alias")
    where = (mem.allocation["block"], mem.allocation["offset"])
    dev.defragment(algorithm="full")
    assert c.allocation["committed"]
    assert (mem.allocation["block"], mem.allocation["offset"]) == where
    assert a.allocation["offset"] == where[1]
    check_contents(q, bufs, datas, [], [])


def test_incremental_passes_with_new_allocations_between_them():
    dev, q, bufs, datas, texs, tdatas = fragmented_device(seed=7)
    rng = np.random.default_rng(70)
    total_moves = 0
    for frame in range(40):
        st = dev.defragment(algorithm="full", max_moves=4, max_bytes=1 << 20)
        assert st["moves"] <= 4 and st["bytes_moved"] <= 1 << 20 and st["passes"] <= 1
        total_moves += st["moves"]
        if frame % 5 == 0:  # the game keeps allocating meanwhile
            n = int(rng.integers(1, 16)) * 4 * KiB
            b = dev.create_buffer(n, name=f"new{frame}")
            d = rng.integers(0, 256, n, dtype=np.uint8)
            cl = q.command_list()
            cl.upload(b, d)
            q.execute(cl)
            bufs.append(b)
            datas.append(d)
        dev.poll()
        dev.validate_memory()
    assert total_moves > 0
    dev.wait_idle()
    check_contents(q, bufs, datas, texs, tdatas)


def test_resources_dropped_while_their_move_is_in_flight():
    """An incremental pass returns with its copies still running; the user may drop the moved
    resources at once. The copies' destinations belong to those objects now: they must live until
    the copies (and every earlier submission) are done. (Before the fix, lavapipe crashed executing
    a copy into a destroyed destination; CI found it with creator threads dropping buffers.)"""
    for seed in range(6):
        dev = dx.Device(uma_direct=False)
        q = dev.queue()
        rng = np.random.default_rng(300 + seed)
        bufs = [dev.create_buffer(int(rng.integers(8, 64)) * 16 * KiB, name=f"big{i}") for i in range(48)]
        cl = q.command_list()
        for b in bufs:
            cl.upload(b, np.full(b.size, 7, np.uint8))
        q.wait(q.execute(cl))
        del bufs[::2]
        gc.collect()
        dev.wait_idle()
        st = dev.defragment(algorithm="full", max_moves=32)
        assert st["moves"] > 0
        del bufs  # every moved buffer goes while its copy may still run
        gc.collect()
        dev.poll()
        dev.wait_idle()
        dev.validate_memory()
        keep = dev.create_buffer(4 * KiB)  # the device still works
        np.testing.assert_array_equal(q.read_buffer(keep), np.zeros(4 * KiB, np.uint8))


def test_threads_create_while_another_defragments():
    dev, q, bufs, datas, texs, tdatas = fragmented_device(seed=8)
    errors = []
    made = [[] for _ in range(4)]

    def creator(k):
        try:
            rng = np.random.default_rng(100 + k)
            qq = dev.queue()
            for i in range(40):
                n = int(rng.integers(1, 8)) * 4 * KiB
                b = dev.create_buffer(n, name=f"th{k}-{i}")
                d = rng.integers(0, 256, n, dtype=np.uint8)
                cl = qq.command_list()
                cl.upload(b, d)
                qq.execute(cl)
                made[k].append((b, d))
                if i % 3 == 0:
                    made[k].pop(0)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=creator, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    moves = 0
    for _ in range(10):
        moves += dev.defragment(algorithm="full", max_moves=8)["moves"]
    for t in threads:
        t.join()
    assert not errors, errors
    dev.wait_idle()
    dev.validate_memory()
    assert moves > 0
    check_contents(q, bufs, datas, texs, tdatas)
    for lst in made:
        for b, d in lst:
            np.testing.assert_array_equal(q.read_buffer(b), d)


def test_custom_pool_defragmentation_and_bad_input():
    dev = dx.Device()
    q = dev.queue()
    pool = dev.create_pool(block_size=1 << 20, name="p")
    rng = np.random.default_rng(9)
    bufs = [dev.create_buffer(int(rng.integers(1, 4)) * 64 * KiB, pool=pool) for _ in range(30)]
    datas = [rng.integers(0, 256, b.size, dtype=np.uint8) for b in bufs]
    cl = q.command_list()
    for b, d in zip(bufs, datas):
        cl.upload(b, d)
    q.wait(q.execute(cl))
    del bufs[::2], datas[::2]
    gc.collect()
    dev.wait_idle()
    blocks = pool.block_count
    st = dev.defragment(pool=pool)
    assert st["moves"] > 0
    assert pool.block_count <= blocks
    pool.validate()
    check_contents(q, bufs, datas, [], [])
    with pytest.raises(InvalidArgumentError, match="linear"):
        dev.defragment(pool=dev.create_pool(algorithm="linear"))
    with pytest.raises(InvalidArgumentError, match="upload"):
        dev.defragment(pool=dev.create_pool(heap="upload"))
    with pytest.raises(InvalidArgumentError, match="readback"):
        dev.defragment(pool=dev.create_pool(heap="readback"))
    try:
        cpu_pool = dev.create_pool(heap="custom")
    except InvalidArgumentError:   # not cache-coherent UMA: no custom heap
        cpu_pool = None
    if cpu_pool is not None:
        with pytest.raises(InvalidArgumentError, match=r"\('custom'\), which never moves"):
            dev.defragment(pool=cpu_pool)
    with pytest.raises(InvalidArgumentError, match="algorithm"):
        dev.defragment(algorithm="best")
    with pytest.raises(InvalidArgumentError, match="max_bytes"):
        dev.defragment(max_bytes=0)
    with pytest.raises(TypeError):
        dev.defragment(pool="p")
    with pytest.raises(TypeError):
        dev.defragment(max_moves="3")
    with pytest.raises(InvalidArgumentError, match="another device"):
        dx.Device().defragment(pool=pool)


def test_full_defragmentation_closes_the_holes_of_every_block():
    # Two 1 MiB blocks of 64 KiB buffers: one hole in the first, eight in the second. 'full' must
    # fill every hole it can, not only those of the fullest block (a candidate left over by the
    # first phase of a plan stays movable in the second).
    dev = dx.Device()
    q = dev.queue()
    pool = dev.create_pool(block_size=1 << 20, name="two_blocks")
    bufs = [dev.create_buffer(64 * KiB, pool=pool, name=f"b{i}") for i in range(32)]
    datas = [np.full(64 * KiB, i, np.uint8) for i in range(32)]
    cl = q.command_list()
    for b, d in zip(bufs, datas):
        cl.upload(b, d)
    q.wait(q.execute(cl))
    keep = [i for i in range(32) if not (i == 5 or (i >= 16 and i % 2 == 0))]
    bufs = [bufs[i] for i in keep]
    datas = [datas[i] for i in keep]
    gc.collect()
    dev.wait_idle()
    assert pool.stats()["unused_range_count"] == 9
    st = dev.defragment(pool=pool, algorithm="full")
    assert st["moves"] >= 7
    dev.wait_idle()
    s = pool.stats()
    assert s["unused_range_count"] == 1 and s["unused_range_size_max"] == 9 * 64 * KiB, s
    pool.validate()
    for b, d in zip(bufs, datas):
        np.testing.assert_array_equal(q.read_buffer(b), d)


def test_new_resources_are_zeroed_before_defragmentation_moves_them():
    # A resource created but not used yet still waits for its zeroing (done at the next execute).
    # Defragment zeroes such resources first: moved before it, the zeroing would race the copy on
    # another queue (D3D12 orders the two queues only through fences).
    dev = dx.Device()
    q = dev.queue()
    pool = dev.create_pool(block_size=1 << 20, name="fresh")
    bufs = [dev.create_buffer(64 * KiB, pool=pool) for _ in range(16)]
    del bufs[::2]
    gc.collect()
    before = dev.stats()["zero_init"]["resources"]
    st = dev.defragment(pool=pool, algorithm="full", max_moves=4)
    assert st["moves"] > 0
    assert dev.stats()["zero_init"]["resources"] - before == len(bufs)
    for b in bufs:
        assert not q.read_buffer(b).any()


def test_buffers_created_on_other_threads_while_defragmenting_keep_their_bytes():
    """A uma_direct buffer is mapped and zeroed at creation: it becomes movable only after that
    (Device::CreateBuffer), or a move on another thread between the map and the memset crashed
    (SIGSEGV in MapPersistently) or lost the first write (found by hostile testing: 4 of 5 runs of 20 s
    crashed or lost bytes; 0 of 5 after the fix, 1.8 million creations)."""
    dev = dx.Device()
    q = dev.queue()
    stop = threading.Event()
    errors = []

    def creator(seed):
        try:
            rng = np.random.default_rng(seed)
            keep = []
            while not stop.is_set():
                b = dev.create_buffer(int(rng.choice([4096, 65536])))
                v = int(rng.integers(1, 256))
                q.write_buffer(b, np.full(b.size, v, np.uint8))
                got = q.read_buffer(b)
                if not (got == v).all():
                    errors.append(f"wrote {v}, read {np.unique(got)[:4]}")
                keep.append(b)
                if len(keep) > 24:
                    del keep[int(rng.integers(len(keep)))]
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=creator, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    moves = 0
    rng = np.random.default_rng(5)
    t0 = time.monotonic()
    try:
        while time.monotonic() - t0 < 2.0:   # a stress window, not a timing assertion: the old code
            moves += dev.defragment(max_moves=int(rng.integers(1, 8)))["moves"]   # failed ~1 in 150k creations
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not errors, errors[:5]
    assert moves > 0   # the moves raced the creations
    dev.wait_idle()
    dev.validate_memory()

