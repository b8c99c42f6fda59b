"""Automatic aliasing barriers (D3D12Rules.hpp rule 6), on the real device.

Resources placed in the same Device.allocate_memory memory are used alternately, across and within
command lists, without a hand-written barrier: every read-back must show what was written last
through the resource read, and the aliasing barriers the state tracker recorded are counted in
Device.stats()["barriers"].
"""
from __future__ import annotations

import threading

import numpy as np
import pytest

import dx12kit as dx

KiB = 1024
S = dx.ResourceState


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "validate"])
def dev(request):
    d = dx.Device(validate=request.param)
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def q(dev):
    return dev.queue("direct")


def aliasing(dev):
    b = dev.stats()["barriers"]
    return b["aliasing_automatic"], b["aliasing_explicit"]


def since(before, dev):
    now = aliasing(dev)
    return now[0] - before[0], now[1] - before[1]


def shared_pair(dev, *, render_target=False, name=""):
    """A 64 KiB buffer and a 64x64 RGBA8 texture (64 KiB with its alignment) at offset 0 of one memory."""
    mem = dev.allocate_memory(64 * KiB, name=f"shared{name}")
    buf = dev.create_buffer(64 * KiB, memory=mem, offset=0, name=f"buf{name}")
    tex = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=render_target, memory=mem, offset=0, name=f"tex{name}")
    assert buf.allocation["offset"] == tex.allocation["offset"] and buf.allocation["aliased"] and tex.allocation["aliased"]
    return mem, buf, tex


def image(seed):
    return np.random.default_rng(seed).integers(0, 256, (64, 64, 4), dtype=np.uint8)


def words(seed):
    return np.random.default_rng(seed).integers(0, 2**32, 16 * KiB, dtype=np.uint32)


def test_buffer_and_texture_alternate_across_lists(dev, q):
    mem, buf, tex = shared_pair(dev)
    start = aliasing(dev)
    for round in range(3):
        d = words(round)
        cl = q.command_list()
        cl.upload(buf, d)
        q.execute(cl)
        np.testing.assert_array_equal(q.read_buffer(buf, np.uint32), d)
        img = image(round)
        cl = q.command_list()
        cl.upload(tex, img)
        q.execute(cl)
        np.testing.assert_array_equal(q.read_texture(tex), img)
    # One activation barrier per switch (buffer -> texture -> buffer ...), none for the reads of
    # the resource just written; the very first use of the memory needs none.
    assert since(start, dev) == (5, 0)
    assert dev.stats()["barriers"]["aliasing"] >= 5


def test_buffer_texture_buffer_within_one_list(dev, q):
    mem, buf, tex = shared_pair(dev)
    out1 = dev.create_buffer(64 * KiB, name="out1")
    out2 = dev.create_buffer(64 * KiB, name="out2")
    tex_copy = dev.create_texture2d(64, 64, "rgba8_unorm", name="tex_copy")
    d1, d2, img = words(10), words(11), image(12)
    start = aliasing(dev)
    cl = q.command_list()
    cl.upload(buf, d1)
    cl.copy_buffer_region(out1, 0, buf, 0, 64 * KiB)
    cl.upload(tex, img)               # activates the texture: barrier buf -> tex, recorded here
    cl.copy_resource(tex_copy, tex)
    cl.upload(buf, d2)                # the buffer again (A, B, A): barrier tex -> buf
    cl.copy_buffer_region(out2, 0, buf, 0, 64 * KiB)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(out1, np.uint32), d1)
    np.testing.assert_array_equal(q.read_texture(tex_copy), img)
    np.testing.assert_array_equal(q.read_buffer(out2, np.uint32), d2)
    np.testing.assert_array_equal(q.read_buffer(buf, np.uint32), d2)
    assert since(start, dev) == (2, 0)


def test_lists_recorded_together_executed_in_either_order(dev, q):
    mem, buf, tex = shared_pair(dev)
    out = dev.create_buffer(64 * KiB, name="out")
    tex_copy = dev.create_texture2d(64, 64, "rgba8_unorm", name="tex_copy")
    for order in ((0, 1), (1, 0)):
        d, img = words(20 + order[0]), image(30 + order[0])
        a = q.command_list()
        a.upload(buf, d)
        a.copy_buffer_region(out, 0, buf, 0, 64 * KiB)
        b = q.command_list()
        b.upload(tex, img)
        b.copy_resource(tex_copy, tex)
        lists = [(a, b)[i] for i in order]
        start = aliasing(dev)
        q.wait(q.execute(lists))   # both in one execute call: the second list's barrier goes before it
        np.testing.assert_array_equal(q.read_buffer(out, np.uint32), d)
        np.testing.assert_array_equal(q.read_texture(tex_copy), img)
        assert since(start, dev)[0] >= 1


def test_explicit_aliasing_barrier_suppresses_the_automatic_one(dev, q):
    mem, buf, tex = shared_pair(dev)
    img, d = image(40), words(41)
    # Within a list.
    start = aliasing(dev)
    cl = q.command_list()
    cl.upload(buf, d)
    cl.aliasing_barrier(buf, tex)
    cl.upload(tex, img)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_texture(tex), img)
    assert since(start, dev) == (0, 1)
    # Across lists: the texture was used last; the next list hands the memory to the buffer itself.
    start = aliasing(dev)
    cl = q.command_list()
    cl.aliasing_barrier(tex, buf)
    cl.upload(buf, d)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(buf, np.uint32), d)
    assert since(start, dev) == (0, 1)


def test_no_barrier_for_resources_that_do_not_overlap(dev, q):
    mem = dev.allocate_memory(256 * KiB, name="halves")
    lo = dev.create_buffer(128 * KiB, memory=mem, offset=0, name="lo")
    hi = dev.create_buffer(128 * KiB, memory=mem, offset=128 * KiB, name="hi")
    plain = dev.create_buffer(64 * KiB, name="plain")
    start = aliasing(dev)
    for i in range(3):
        cl = q.command_list()
        cl.upload(lo, np.full(32 * KiB, i, np.uint32))
        cl.upload(hi, np.full(32 * KiB, i + 10, np.uint32))
        cl.upload(plain, np.full(16 * KiB, i, np.uint32))
        q.execute(cl)
    assert (q.read_buffer(lo, np.uint32) == 2).all() and (q.read_buffer(hi, np.uint32) == 12).all()
    assert since(start, dev) == (0, 0)
    # A buffer spanning both: its use follows both, so one barrier with before = NULL.
    whole = dev.create_buffer(256 * KiB, memory=mem, offset=0, name="whole")
    cl = q.command_list()
    cl.upload(whole, np.full(64 * KiB, 99, np.uint32))
    q.wait(q.execute(cl))
    assert (q.read_buffer(whole, np.uint32) == 99).all()
    assert since(start, dev) == (1, 0)
    # And the halves each follow it again.
    cl = q.command_list()
    cl.upload(lo, np.full(32 * KiB, 5, np.uint32))
    cl.upload(hi, np.full(32 * KiB, 6, np.uint32))
    q.wait(q.execute(cl))
    assert (q.read_buffer(lo, np.uint32) == 5).all() and (q.read_buffer(hi, np.uint32) == 6).all()
    assert since(start, dev) == (3, 0)


def test_copy_queue_lists_get_aliasing_barriers_too(dev, q):
    mem, buf, tex = shared_pair(dev)
    cq = dev.queue("copy")
    img, d = image(50), words(51)
    cl = q.command_list()
    cl.upload(tex, img)
    q.wait(q.execute(cl))
    start = aliasing(dev)
    cl = cq.command_list()       # rule 6b: aliasing barriers are legal on the copy queue
    cl.upload(buf, d)
    cq.wait(cq.execute(cl))
    assert since(start, dev) == (1, 0)
    np.testing.assert_array_equal(q.read_buffer(buf, np.uint32), d)


def test_reactivated_texture_keeps_its_state_and_is_parked_in_common(dev, q):
    """Rule 6c: an aliasing barrier changes no state; a texture first used in a list after an
    overlapping buffer was used in that list is moved to COMMON before the list (activated for
    that first), and from COMMON after the barrier in the list."""
    mem, buf, rt = shared_pair(dev, render_target=True)
    cl = q.command_list()
    cl.clear_render_target(rt, [1, 0, 0, 1])
    q.wait(q.execute(cl))
    assert rt.global_state() == S.RENDER_TARGET
    cl = q.command_list()
    cl.upload(buf, words(60))
    q.wait(q.execute(cl))
    assert rt.global_state() == S.RENDER_TARGET      # the buffer's activation changed no state of the texture
    start = aliasing(dev)
    cl = q.command_list()
    cl.upload(buf, words(61))
    cl.clear_render_target(rt, [0, 0, 1, 1])          # activated inside the list
    q.wait(q.execute(cl))
    inserted = [(name, before, after) for _, name, _, before, after in q.last_inserted_barriers]
    assert ("tex", S.RENDER_TARGET, S.COMMON) in inserted
    # Pre-list: buf -> tex (to park it), tex -> buf (the buffer's first use); in the list: buf -> tex.
    assert since(start, dev) == (3, 0)
    px = q.read_texture(rt)
    assert (px[..., 2] == 255).all() and (px[..., 0] == 0).all()


def test_render_target_reactivated_without_clear_raises_in_validation_mode(q_validate):
    dev, q = q_validate
    mem, buf, rt = shared_pair(dev, render_target=True)
    other = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, name="other")
    cl = q.command_list()
    cl.clear_render_target(rt, [1, 0, 0, 1])
    q.wait(q.execute(cl))
    cl = q.command_list()
    cl.upload(buf, words(70))
    q.wait(q.execute(cl))
    # Across lists: found at execute, which then changes nothing.
    cl = q.command_list()
    cl.copy_resource(other, rt)
    with pytest.raises(dx.ResourceStateError, match="'tex' is a render target .* clear"):
        q.execute(cl)
    with pytest.raises(dx.ResourceStateError, match="'tex' is a render target"):
        q.read_texture(rt)
    # Within a list: found where it is recorded.
    cl = q.command_list()
    cl.upload(buf, words(71))
    with pytest.raises(dx.ResourceStateError, match="same command list"):
        cl.copy_resource(other, rt)
    # With a clear (or a full copy into it) first, it is fine.
    cl.clear_render_target(rt, [0, 1, 0, 1])
    cl.copy_resource(other, rt)
    q.wait(q.execute(cl))
    assert (q.read_texture(other)[..., 1] == 255).all()
    cl = q.command_list()
    cl.upload(buf, words(72))
    cl.copy_resource(rt, other)        # a full copy initializes it too
    q.wait(q.execute(cl))
    assert (q.read_texture(rt)[..., 1] == 255).all()
    # After an explicit barrier, the next use must initialize it as well.
    cl = q.command_list()
    cl.upload(buf, words(73))
    cl.aliasing_barrier(buf, rt)
    with pytest.raises(dx.ResourceStateError, match="aliasing_barrier"):
        cl.copy_resource(other, rt)
    cl.clear_render_target(rt, [0, 0, 1, 1])
    q.wait(q.execute(cl))
    assert (q.read_texture(rt)[..., 2] == 255).all()
    # The first use ever of a placed render target needs it too.
    fresh = dev.create_texture2d(64, 64, "rgba8_unorm", render_target=True, memory=dev.allocate_memory(64 * KiB), name="fresh")
    with pytest.raises(dx.ResourceStateError, match="'fresh' is a render target .* first"):
        q.read_texture(fresh)


def test_without_validation_an_uninitialized_render_target_is_not_an_error(q_novalidate):
    dev, q = q_novalidate
    mem, buf, rt = shared_pair(dev, render_target=True)
    cl = q.command_list()
    cl.clear_render_target(rt, [1, 0, 0, 1])
    cl.upload(buf, words(80))
    q.wait(q.execute(cl))
    q.read_texture(rt)   # contents undefined, but no error


def test_two_threads_record_lists_on_aliased_resources(dev, q):
    mem, buf, tex = shared_pair(dev)
    n = 12
    outs = [dev.create_buffer(64 * KiB, name=f"out{i}") for i in range(n)]
    copies = [dev.create_texture2d(64, 64, "rgba8_unorm", name=f"copy{i}") for i in range(n)]
    errors = []
    start = aliasing(dev)

    def buffers():
        try:
            for i in range(n):
                cl = q.command_list()
                cl.upload(buf, words(100 + i))
                cl.copy_buffer_region(outs[i], 0, buf, 0, 64 * KiB)
                q.execute(cl)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    def textures():
        try:
            for i in range(n):
                cl = q.command_list()
                cl.upload(tex, image(200 + i))
                cl.copy_resource(copies[i], tex)
                q.execute(cl)
        except Exception as e:  # pragma: no cover
            errors.append(e)

    threads = [threading.Thread(target=buffers), threading.Thread(target=textures)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    dev.wait_idle()
    for i in range(n):
        np.testing.assert_array_equal(q.read_buffer(outs[i], np.uint32), words(100 + i))
        np.testing.assert_array_equal(q.read_texture(copies[i]), image(200 + i))
    auto, explicit = since(start, dev)
    assert 1 <= auto <= 2 * n and explicit == 0


def test_misaligned_or_oversized_placements_are_refused(dev):
    mem = dev.allocate_memory(128 * KiB, name="small")
    with pytest.raises(dx.InvalidArgumentError, match="create_buffer"):
        dev.create_buffer(64 * KiB, memory=mem, offset=4 * KiB)            # buffers need 64 KiB alignment
    with pytest.raises(dx.InvalidArgumentError, match="create_buffer"):
        dev.create_buffer(128 * KiB, memory=mem, offset=64 * KiB)          # runs past the end
    with pytest.raises(dx.InvalidArgumentError, match="create_texture2d"):
        dev.create_texture2d(256, 256, "rgba8_unorm", memory=mem, offset=0)  # 256 KiB > 128 KiB
    with pytest.raises(dx.InvalidArgumentError, match="create_texture2d"):
        dev.create_texture2d(64, 64, "rgba8_unorm", memory=mem, offset=1000)
    with pytest.raises(dx.InvalidArgumentError):
        dev.create_buffer(64 * KiB, memory=mem, offset=256 * KiB)
    assert dev.create_buffer(64 * KiB, memory=mem, offset=64 * KiB).allocation["aliased"]


@pytest.fixture
def q_validate():
    dev = dx.Device(validate=True)
    return dev, dev.queue()


@pytest.fixture
def q_novalidate():
    dev = dx.Device(validate=False)
    return dev, dev.queue()


def test_partial_overlaps_remember_the_last_user_of_each_range(dev, q):
    """R = [0, 128K), A = [64K, 192K), C = [128K, 256K): after R, A, C, the range [64K, 128K) was
    last used by A, so R's next use needs a barrier although C, the latest user, does not overlap R."""
    mem = dev.allocate_memory(256 * KiB, name="staggered")
    r = dev.create_buffer(128 * KiB, memory=mem, offset=0, name="R")
    a = dev.create_buffer(128 * KiB, memory=mem, offset=64 * KiB, name="A")
    c = dev.create_buffer(128 * KiB, memory=mem, offset=128 * KiB, name="C")
    counts = []
    for buf, value in ((r, 1), (a, 2), (c, 3), (r, 4), (r, 5)):
        start = aliasing(dev)
        cl = q.command_list()
        cl.upload(buf, np.full(32 * KiB, value, np.uint32))
        q.wait(q.execute(cl))
        counts.append(since(start, dev)[0])
        assert (q.read_buffer(buf, np.uint32) == value).all()
    assert counts == [0, 1, 1, 1, 0]


def test_texture_mips_used_around_an_overlapping_buffer_in_one_list(dev, q):
    """A texture's mip 0 is used, then an overlapping buffer, then its mip 1: the mip the list had
    not touched yet is parked in COMMON too (its state must be known where the barrier is)."""
    mem = dev.allocate_memory(128 * KiB, name="mips")
    tex = dev.create_texture2d(64, 64, "rgba8_unorm", mip_levels=2, memory=mem, offset=0, name="mipped")
    buf = dev.create_buffer(64 * KiB, memory=mem, offset=0, name="over")
    small = image(90)[:32, :32].copy()
    for round in range(2):   # the second time the texture starts in COPY_DEST (textures do not decay)
        start = aliasing(dev)
        cl = q.command_list()
        cl.upload(tex, image(91), mip=0)
        cl.upload(buf, words(92))
        cl.upload(tex, small, mip=1)
        q.wait(q.execute(cl))
        inserted = [(n, b, a) for _, n, _, b, a in q.last_inserted_barriers]
        assert since(start, dev)[0] == 2   # buffer after mip 0, mip 1 after the buffer (recorded in the list)
        if round == 1:   # mip 1, left in COPY_SOURCE by the read, was parked in COMMON before the list
            assert ("mipped", S.COPY_SOURCE, S.COMMON) in inserted
        np.testing.assert_array_equal(q.read_texture(tex, mip=1), small)
        assert (tex.global_state(0), tex.global_state(1)) == (S.COPY_DEST, S.COPY_SOURCE)   # read_texture left mip 1 there


def test_memory_used_by_a_dropped_resource_still_needs_a_barrier(dev, q):
    import gc

    mem = dev.allocate_memory(64 * KiB, name="reused")
    old = dev.create_buffer(64 * KiB, memory=mem, offset=0, name="old")
    cl = q.command_list()
    cl.upload(old, words(110))
    q.wait(q.execute(cl))
    del old, cl
    gc.collect()
    dev.wait_idle()
    dev.poll()
    new = dev.create_buffer(64 * KiB, memory=mem, offset=0, name="new")   # may even get the old one's address
    start = aliasing(dev)
    cl = q.command_list()
    cl.upload(new, words(111))
    q.wait(q.execute(cl))
    assert since(start, dev) == (1, 0)   # before = NULL: the resource that used it is gone
    np.testing.assert_array_equal(q.read_buffer(new, np.uint32), words(111))
    b = dev.stats()["barriers"]
    assert b["aliasing"] == b["aliasing_automatic"] + b["aliasing_explicit"]


@pytest.mark.parametrize("kind", ["cube", "3d"])
def test_cube_and_3d_textures_in_user_memory_get_barriers_like_2d(dev, q, kind):
    # Every creator that takes memory= gives the resource its aliasing range (Device::AdoptPlacement);
    # cube and 3D textures once had none, so switching to them recorded no barrier.
    mem = dev.allocate_memory(256 * KiB, name=f"mem_{kind}")
    buf = dev.create_buffer(64 * KiB, memory=mem, offset=0, name=f"buf_{kind}")
    if kind == "cube":
        tex = dev.create_texture_cube(32, "rgba8_unorm", mip_levels=1, memory=mem, offset=0, name="cube")
        data = np.random.default_rng(3).integers(0, 256, (32, 32, 4), dtype=np.uint8)
    else:
        tex = dev.create_texture3d(32, 32, 4, "rgba8_unorm", mip_levels=1, memory=mem, offset=0, name="vol")
        data = np.random.default_rng(3).integers(0, 256, (4, 32, 32, 4), dtype=np.uint8)
    assert tex.allocation["aliased"]
    start = aliasing(dev)
    cl = q.command_list()
    cl.upload(buf, words(30))
    cl.upload(tex, data)   # buf -> tex
    cl.upload(buf, words(31))  # tex -> buf
    q.wait(q.execute(cl))
    assert since(start, dev) == (2, 0)
