"""Upload memory on the real device: dynamic constants, vertices, indices and structured
buffers, page recycling by fence, large uploads, the zero-copy path, and bad input.

The device here has 16 KiB upload pages (instead of 2 MiB) so that a few hundred draws already
cross pages, and validation on: validation must stay silent on every correct test.
"""
from __future__ import annotations

import mmap
import threading
import time

import numpy as np
import pytest

import dx12kit as dx

PAGE = 16 << 10
W = H = 100  # 10,000 pixels: one per draw

# Each draw covers exactly the centre of pixel (px, py): a triangle with legs of 1.5 pixels.
ONE_PIXEL_VS = f"""
cbuffer C : register(b0) {{ uint px; uint py; uint value; uint pad; }};
float4 main(uint id : SV_VertexID) : SV_Position {{
    float2 p = float2(px, py) + float2(id == 1 ? 1.5 : 0.0, id == 2 ? 1.5 : 0.0);
    return float4(p.x / {W}.0 * 2 - 1, 1 - p.y / {H}.0 * 2, 0, 1);
}}
"""
ONE_PIXEL_PS = """
cbuffer C : register(b0) { uint px; uint py; uint value; uint pad; };
uint main(float4 pos : SV_Position) : SV_Target { return value; }
"""
VERTEX_VS = """
struct V { float4 pos : SV_Position; float v : VALUE; };
V main(float2 p : POSITION, float v : VALUE) { V o; o.pos = float4(p, 0, 1); o.v = v; return o; }
"""
VERTEX_PS = """
float main(float4 pos : SV_Position, float v : VALUE) : SV_Target { return v; }
"""
STRUCTURED_CS = """
StructuredBuffer<float> src : register(t0);
RWStructuredBuffer<float> dst : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = src[id.x] * 2 + 1; }
"""


def make_device():
    # These tests measure the staging path (upload pages), which uma_direct bypasses for idle buffers.
    return dx.Device(validate=True, upload_page_size=PAGE, uma_direct=False)


@pytest.fixture(scope="module")
def dev():
    d = make_device()
    yield d
    d.wait_idle()


@pytest.fixture(scope="module")
def q(dev):
    return dev.queue("direct")


def one_pixel_pso(dev):
    rs = dev.create_root_signature([dx.RootCBV(0)])
    return dev.create_graphics_pipeline(dx.compile_hlsl(ONE_PIXEL_VS, profile="vs_5_0"),
                                        dx.compile_hlsl(ONE_PIXEL_PS, profile="ps_5_0"), rs, ["r32_uint"])


@pytest.fixture(scope="module")
def pixel_pso(dev):
    return one_pixel_pso(dev)


def upload_stats(dev):
    return dev.stats()["upload"]


def values_for(seed, n):
    return np.random.default_rng(seed).integers(1, 1 << 32, n, dtype=np.uint64).astype(np.uint32)


# --------------------------------------------------------------------------- many dynamic CBs


def test_10000_draws_each_with_its_own_constants(dev, q, pixel_pso):
    n = W * H
    values = values_for(1, n)
    consts = np.zeros((n, 4), np.uint32)
    consts[:, 0] = np.arange(n) % W
    consts[:, 1] = np.arange(n) // W
    consts[:, 2] = values
    rt = dev.create_texture2d(W, H, "r32_uint", render_target=True, name="pixels")
    before = upload_stats(dev)
    cl = q.command_list()
    cl.set_pipeline_state(pixel_pso)
    cl.set_render_targets([rt])
    for i in range(n):
        cl.set_dynamic_constant_buffer(0, consts[i])
        cl.draw(3)
    # 256-byte aligned constants: 64 per 16 KiB page, so the list holds ceil(10000 / 64) pages.
    assert cl.upload_pages == -(-n // (PAGE // 256))
    q.wait(q.execute(cl))
    after = upload_stats(dev)
    assert after["bytes_allocated"] - before["bytes_allocated"] == n * 16
    assert after["cpu"]["pages_in_use"] == 0
    out = q.read_texture(rt)[..., 0]
    np.testing.assert_array_equal(out, values.reshape(H, W))


def test_100_frames_page_count_stays_bounded():
    """A render loop: 100 frames of 100 draws (each its own constants), two frames in flight.

    100 draws per frame (not 10,000) keeps the loop cheap; each frame still spans two 16 KiB pages,
    so the loop takes 200 pages from the pool in all and would create 200 without recycling.
    Frame f writes row f, so every frame's constants are checked at the end.
    """
    dev = make_device()  # a fresh pool, so its page count is this loop's alone
    q = dev.queue()
    pso = one_pixel_pso(dev)
    rt = dev.create_texture2d(W, H, "r32_uint", render_target=True, name="frames")
    frames, per_frame, in_flight = 100, 100, 2
    values = values_for(2, frames * per_frame).reshape(frames, per_frame)
    fences, created = [], []
    for f in range(frames):
        if f >= in_flight:
            q.wait(fences[f - in_flight])
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_render_targets([rt])
        for i in range(per_frame):
            cl.set_dynamic_constant_buffer(0, np.array([i, f, values[f, i], 0], np.uint32))
            cl.draw(3)
        assert cl.upload_pages == 2
        fences.append(q.execute(cl))
        created.append(upload_stats(dev)["pages_created"])
    q.wait(fences[-1])
    s = upload_stats(dev)
    # At most (frames in flight + the one being recorded) x 2 pages ever exist, and none are made
    # after the first few frames: every later frame reuses pages whose fence has completed.
    assert created[-1] <= (in_flight + 1) * 2
    assert created[-1] == created[10]
    assert s["cpu"]["peak_pages"] <= (in_flight + 1) * 2
    assert s["cpu"]["pages_in_use"] == 0
    assert s["cpu"]["pages_free"] + s["cpu"]["pages_retired"] == s["pages_created"]
    assert s["bytes_allocated"] == frames * per_frame * 16
    np.testing.assert_array_equal(q.read_texture(rt)[..., 0], values)
    dev.wait_idle()


# --------------------------------------------------------------------------- large uploads


def test_upload_larger_than_a_page_is_released_after_its_fence(dev, q):
    big = np.random.default_rng(3).integers(0, 256, 5 * PAGE + 123, dtype=np.uint8)
    img = np.random.default_rng(4).integers(0, 256, (128, 128, 4), dtype=np.uint8)  # 64 KiB
    buf = dev.create_buffer(big.size, name="big")
    tex = dev.create_texture2d(128, 128, "rgba8_unorm", name="bigtex")
    q.flush()
    dev.poll()
    before = upload_stats(dev)
    assert before["dedicated_in_use"] == 0
    cl = q.command_list()
    cl.upload(buf, big)
    cl.upload(tex, img)
    cl.upload(buf, big[:100], offset=7)  # small: from a normal page
    assert upload_stats(dev)["dedicated_in_use"] == 2
    fence = q.execute(cl)
    s = upload_stats(dev)
    assert s["dedicated_in_use"] == 2 and s["dedicated_bytes"] >= big.size + img.size
    q.wait(fence)  # waiting polls: the two pages of their own are destroyed, not pooled
    s = upload_stats(dev)
    assert s["dedicated_in_use"] == 0 and s["dedicated_bytes"] == 0
    assert s["pages_created"] - before["pages_created"] == 2 + (before["cpu"]["pages_free"] == 0)
    expect = big.copy()
    expect[7:107] = big[:100]
    np.testing.assert_array_equal(q.read_buffer(buf), expect)
    np.testing.assert_array_equal(q.read_texture(tex), img)


def test_dynamic_buffers_larger_than_a_page(dev, q):
    """A dynamic vertex buffer of 40 KiB (more than a page) draws correctly."""
    rs = dev.create_root_signature([])
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(VERTEX_VS, profile="vs_5_0"),
                                       dx.compile_hlsl(VERTEX_PS, profile="ps_5_0"), rs, ["r32_float"],
                                       input_layout=[("POSITION", "float2", 0, 0), ("VALUE", "float", 0, 8)])
    rt = dev.create_texture2d(8, 8, "r32_float", render_target=True)
    # 3,400 degenerate triangles, then one full-screen triangle of value 9.
    verts = np.zeros((3401 * 3, 3), np.float32)
    verts[-3:] = [[-1, -1, 9], [-1, 3, 9], [3, -1, 9]]
    assert verts.nbytes > 2 * PAGE
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.set_dynamic_vertex_buffer(0, verts)
    cl.draw(len(verts))
    q.wait(q.execute(cl))
    assert (q.read_texture(rt) == 9).all()


def test_concurrent_recording_executing_and_polling():
    """Two threads on two queues: one uploads more than a page (a page of its own each time) and
    waits; the other fills normal pages, executes without waiting and polls. The pool's books must
    balance at the end: nothing in use or retired, no page of its own left, every pooled page free.
    (Guards the drain of completed pages in UploadPagePool::Acquire, which must treat pages of
    their own as ReleaseStale does.)"""
    dev = make_device()
    direct, compute = dev.queue("direct"), dev.queue("compute")
    big = np.arange(5 * PAGE, dtype=np.uint32).astype(np.uint8)
    buf = dev.create_buffer(big.size)
    stop = time.monotonic() + 1.5
    errors = []

    def uploader():
        try:
            while time.monotonic() < stop:
                cl = direct.command_list()
                cl.upload(buf, big)
                direct.wait(direct.execute(cl))
        except BaseException as e:  # pragma: no cover
            errors.append(e)

    def filler():
        try:
            while time.monotonic() < stop:
                cl = compute.command_list()
                for _ in range(4):
                    cl.allocate_upload(PAGE - 256, 256)  # a page each
                compute.execute(cl)
                dev.poll()
        except BaseException as e:  # pragma: no cover
            errors.append(e)

    threads = [threading.Thread(target=uploader), threading.Thread(target=filler)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    dev.wait_idle()
    s = upload_stats(dev)
    assert s["dedicated_in_use"] == 0 and s["dedicated_bytes"] == 0
    assert s["cpu"]["pages_in_use"] == 0 and s["cpu"]["pages_retired"] == 0
    assert s["cpu"]["pages_free"] == s["cpu"]["peak_pages"] < 1 << 20
    np.testing.assert_array_equal(direct.read_buffer(buf), big)


# --------------------------------------------------------------------------- vertex/index/structured


@pytest.mark.parametrize("index_dtype", [np.uint16, np.uint32])
def test_dynamic_vertex_and_index_buffers(dev, q, index_dtype):
    rs = dev.create_root_signature([])
    pso = dev.create_graphics_pipeline(dx.compile_hlsl(VERTEX_VS, profile="vs_5_0"),
                                       dx.compile_hlsl(VERTEX_PS, profile="ps_5_0"), rs, ["r32_float"],
                                       input_layout=[("POSITION", "float2", 0, 0), ("VALUE", "float", 0, 8)])
    rt = dev.create_texture2d(8, 8, "r32_float", render_target=True)
    # A quad over the left half (value 5) and one over the right half (value 6), indexed.
    verts = np.array([[-1, 1, 5], [0, 1, 5], [-1, -1, 5], [0, -1, 5],
                      [0, 1, 6], [1, 1, 6], [0, -1, 6], [1, -1, 6]], np.float32)
    idx = np.array([0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7], index_dtype)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [-1, 0, 0, 0])
    cl.set_dynamic_vertex_buffer(0, verts)          # stride from the row size (12 bytes)
    cl.set_dynamic_index_buffer(idx[:6])
    cl.draw_indexed(6)
    cl.set_dynamic_index_buffer(idx[6:])
    cl.draw_indexed(6)
    q.wait(q.execute(cl))
    out = q.read_texture(rt)[..., 0]
    assert (out[:, :4] == 5).all() and (out[:, 4:] == 6).all()


def test_dynamic_structured_buffer(dev, q):
    n = 4096
    rs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    pso = dev.create_compute_pipeline(dx.compile_hlsl(STRUCTURED_CS, profile="cs_5_0"), rs)
    out = dev.create_buffer(n * 4, uav=True)
    src = np.random.default_rng(5).standard_normal(n).astype(np.float32)
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    cl.set_dynamic_structured_buffer(0, src)
    cl.set_root_uav(1, out)
    cl.dispatch(n // 64)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(out, dtype=np.float32), src * 2 + 1)


# --------------------------------------------------------------------------- zero copy


def test_zero_copy_buffer_and_texture(dev, q):
    n = 10000
    buf = dev.create_buffer(n * 4, name="zc")
    tex = dev.create_texture2d(50, 30, "rgba8_unorm", name="zctex")
    img = np.random.default_rng(6).integers(0, 256, (30, 50, 4), dtype=np.uint8)
    cl = q.command_list()
    a = cl.allocate_upload(n * 4)                      # 10,000 floats: more than a 16 KiB page
    assert a.size == n * 4 and a.gpu_address % 256 == 0
    view = a.array(np.float32)
    view[:] = np.arange(n, dtype=np.float32)
    view[::2] *= -1                                    # written in place: no intermediate copy
    cl.copy_from_upload(buf, a)
    t = cl.allocate_texture_upload(tex)                # rows padded to 256 bytes, 512-aligned
    assert t.offset % 512 == 0
    rows = t.array(np.uint8, (30, 256))
    rows[:, :200] = img.reshape(30, 200)
    cl.copy_from_upload(tex, t)
    q.wait(q.execute(cl))
    expect = np.arange(n, dtype=np.float32)
    expect[::2] *= -1
    np.testing.assert_array_equal(q.read_buffer(buf, dtype=np.float32), expect)
    np.testing.assert_array_equal(q.read_texture(tex), img)
    with pytest.raises(dx.UseAfterFreeError):
        a.array(np.float32)


def test_allocation_alignment(dev, q):
    cl = q.command_list()
    for align in [1, 4, 16, 256, 512, 4096]:
        for size in [1, 13, 300]:
            assert cl.allocate_upload(size, align).gpu_address % align == 0
    q.execute(cl)


# --------------------------------------------------------------------------- bad input


@pytest.fixture(scope="module")
def huge():
    """A 4 GiB + 16 byte array that costs no memory: an anonymous mapping nobody writes."""
    mm = mmap.mmap(-1, (4 << 30) + 16)
    yield np.frombuffer(mm, np.uint8)
    # the arrays made from it die with the test; the mapping goes with the process


@pytest.fixture(scope="module")
def cl(dev, q, pixel_pso):
    """One list that every bad call below goes to; it must still work at the end."""
    cl = q.command_list()
    cl.set_pipeline_state(pixel_pso)
    return cl


class TestBadInput:
    def test_empty_dynamic_buffers(self, cl):
        empty = np.zeros(0, np.uint32)
        with pytest.raises(dx.InvalidArgumentError, match="set_dynamic_constant_buffer: 0 bytes"):
            cl.set_dynamic_constant_buffer(0, empty)
        with pytest.raises(dx.InvalidArgumentError, match="set_dynamic_vertex_buffer: 0 bytes"):
            cl.set_dynamic_vertex_buffer(0, empty, stride=4)
        with pytest.raises(dx.InvalidArgumentError, match="set_dynamic_index_buffer: 0 bytes"):
            cl.set_dynamic_index_buffer(empty)
        with pytest.raises(dx.InvalidArgumentError, match="0 bytes"):
            cl.allocate_upload(0)

    def test_too_large(self, cl, huge):
        with pytest.raises(dx.InvalidArgumentError, match="65536-byte constant buffer limit"):
            cl.set_dynamic_constant_buffer(0, np.zeros(65537, np.uint8))
        with pytest.raises(dx.InvalidArgumentError, match="set_dynamic_vertex_buffer: larger than 4 GiB"):
            cl.set_dynamic_vertex_buffer(0, huge, stride=16)
        with pytest.raises(dx.InvalidArgumentError, match="set_dynamic_index_buffer: larger than 4 GiB"):
            cl.set_dynamic_index_buffer(huge[: 4 << 30].view(np.uint32))  # exactly 4 GiB: one too many
        with pytest.raises(dx.InvalidArgumentError, match="4 GiB limit"):
            cl.allocate_upload(5 << 30)
        with pytest.raises(dx.InvalidArgumentError, match="not a power of two"):
            cl.allocate_upload(64, 48)

    def test_structured_buffer_too_large(self, dev, q, huge):
        rs = dev.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
        pso = dev.create_compute_pipeline(dx.compile_hlsl(STRUCTURED_CS, profile="cs_5_0"), rs)
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        with pytest.raises(dx.InvalidArgumentError, match="4 GiB limit"):
            cl.set_dynamic_structured_buffer(0, huge)
        with pytest.raises(dx.InvalidArgumentError, match="0 bytes"):
            cl.set_dynamic_structured_buffer(0, np.zeros(0, np.float32))

    @pytest.mark.parametrize("dtype", [np.int32, np.int16, np.uint8, np.uint64, np.int64, np.float32, np.float16])
    def test_index_array_of_wrong_dtype(self, cl, dtype):
        with pytest.raises(dx.InvalidArgumentError, match="uint16 or uint32"):
            cl.set_dynamic_index_buffer(np.arange(6).astype(dtype))

    def test_other_misuse(self, dev, q, cl):
        with pytest.raises(dx.InvalidArgumentError, match="not a multiple of the stride"):
            cl.set_dynamic_vertex_buffer(0, np.zeros(10, np.float32), stride=12)
        with pytest.raises(dx.InvalidArgumentError, match="give stride="):
            cl.set_dynamic_vertex_buffer(0, np.zeros(12, np.float32))
        with pytest.raises(dx.InvalidArgumentError, match="C-contiguous"):
            cl.set_dynamic_constant_buffer(0, np.zeros((4, 8), np.uint32)[:, ::2])
        with pytest.raises(dx.InvalidArgumentError, match="not root CBV|is a root"):
            cl.set_dynamic_structured_buffer(0, np.zeros(4, np.float32))  # root 0 is a CBV
        bare = q.command_list()
        with pytest.raises(dx.InvalidArgumentError, match="no pipeline is set"):
            bare.set_dynamic_constant_buffer(0, np.zeros(4, np.uint32))
        upload_heap = dev.create_buffer(64, heap="upload")
        with pytest.raises(dx.InvalidArgumentError, match="not in a DEFAULT heap"):
            bare.upload(upload_heap, np.zeros(4, np.uint8))
        other = q.command_list()
        with pytest.raises(dx.InvalidArgumentError, match="another command list"):
            bare.copy_from_upload(dev.create_buffer(256), other.allocate_upload(256))

    def test_device_still_works(self, dev, q, cl, pixel_pso):
        """After every error above, the same list still records and draws."""
        rt = dev.create_texture2d(W, H, "r32_uint", render_target=True)
        cl.set_render_targets([rt])
        cl.set_dynamic_constant_buffer(0, np.array([3, 4, 77, 0], np.uint32))
        cl.draw(3)
        q.wait(q.execute(cl))
        assert q.read_texture(rt)[4, 3, 0] == 77


def test_loop_that_never_calls_wait_reuses_pages():
    """A loop paced by reading completed_value (two frames in flight), never calling wait/flush/poll,
    still recycles upload pages: each new list polls the device, so pages whose fence completed
    are reused."""
    dev = dx.Device(upload_page_size=16 << 10)
    q = dev.queue()
    rs = dev.create_root_signature([dx.RootCBV(0), dx.RootUAV(0)])
    cs = dx.compile_hlsl("""
        cbuffer C : register(b0) { uint index; uint value; };
        RWStructuredBuffer<uint> o : register(u0);
        [numthreads(1, 1, 1)] void main() { o[index] = value; }
    """)
    pso = dev.create_compute_pipeline(cs, rs)
    out = dev.create_buffer(4 * 64, uav=True)
    frames = 200
    for frame in range(frames):
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_root_uav(1, out)
        for i in range(64):  # 64 x 256-byte constants = one 16 KiB page per frame
            cl.set_dynamic_constant_buffer(0, np.array([i, frame * 64 + i], np.uint32))
            cl.dispatch(1)
        fence = q.execute(cl)
        while q.completed_value + 2 < fence:  # frame pacing without wait()
            time.sleep(0.0002)
    q.flush()
    np.testing.assert_array_equal(q.read_buffer(out, dtype=np.uint32), (frames - 1) * 64 + np.arange(64, dtype=np.uint32))
    created = dev.stats()["upload"]["pages_created"]
    assert created <= 6, f"{created} upload pages for {frames} frames: pages are not being reused"


def test_trim_memory_destroys_idle_upload_pages_and_uploads_still_work():
    dev = dx.Device(uma_direct=False)
    q = dev.queue()
    buf = dev.create_buffer(8 << 20)
    data = values_for(11, (8 << 20) // 4)
    cl = q.command_list()
    cl.upload(buf, data[: (1 << 20) // 4])  # a pooled page
    cl.upload(buf, data, offset=0)  # 8 MiB: a large page of its own, cached after its fence
    q.wait(q.execute(cl))
    dev.poll()
    before = upload_stats(dev)
    assert before["cpu"]["pages_free"] >= 1 and before["large_cached"] == 1
    upload_blocks = dev.memory_stats()["heap_types"]["upload"]["block_bytes"]
    dev.trim_memory()
    s = upload_stats(dev)
    assert s["cpu"]["pages_free"] == 0 and s["large_cached"] == 0 and s["large_cached_bytes"] == 0
    assert s["pages_trimmed"] == before["cpu"]["pages_free"] + 1
    assert dev.memory_stats()["heap_types"]["upload"]["block_bytes"] < upload_blocks
    dev.validate_memory()
    # A list recorded before the trim and executed after it keeps its pages.
    cl = q.command_list()
    cl.upload(buf, data[::-1].copy())
    dev.trim_memory()
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(buf).view(data.dtype), data[::-1])


RGB32_LOAD_CS = """
Texture2D<uint4> t : register(t0);
RWStructuredBuffer<uint4> o : register(u0);
cbuffer C : register(b0) { uint w; uint h; uint mip; uint pad; };
[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= w || id.y >= h) return;
    o[id.y * w + id.x] = t.Load(int3(id.xy, mip));
}
"""


@pytest.mark.parametrize("fmt", ["rgb32_float", "rgb32_uint"])
def test_rgb32_textures_upload_read_back_and_load_as_numpy(dev, q, fmt):
    # 12-byte texels: a 256-byte row pitch is not a whole number of texels, and vkd3d 1.2 turns the pitch
    # into a row length in texels (rounded down), shifting row r by r*4 bytes. dx12kit's footprints use
    # a pitch that is a multiple of 256 and 12 (768) for these formats.
    from .test_block_compressed import gpu_load, gpu_sample

    w, h = 5, 3
    dtype = np.float32 if fmt.endswith("float") else np.uint32
    texels = (np.arange(w * h * 3) * 7 + 1).astype(dtype).reshape(h, w, 3)
    tex = dev.create_texture2d(w, h, fmt, mip_levels=2)
    mip1 = (np.arange(2 * 1 * 3) + 1000).astype(dtype).reshape(1, 2, 3)
    cl = q.command_list()
    cl.upload(tex, texels)
    cl.upload(tex, mip1, mip=1)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_texture(tex).reshape(h, w, 3), texels)
    np.testing.assert_array_equal(q.read_texture(tex, 1).reshape(1, 2, 3), mip1)
    if fmt == "rgb32_float":
        got = gpu_load(dev, q, tex)
        np.testing.assert_array_equal(got[..., :3], texels)
        np.testing.assert_array_equal(gpu_sample(dev, q, tex, (0.5, 0.5), linear=False)[..., :3], texels)
        np.testing.assert_array_equal(gpu_load(dev, q, tex, 1)[..., :3], mip1)
    else:
        rs = dev.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)]), dx.RootConstants(0, 4)])
        pso = dev.create_compute_pipeline(dx.compile_hlsl(RGB32_LOAD_CS, profile="cs_5_0"), rs)
        out = dev.create_buffer(w * h * 16, uav=True)
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_shader_resource_view(0, 0, tex)
        cl.set_unordered_access_view(1, 0, out)
        cl.set_constants(2, np.array([w, h, 0, 0], np.uint32))
        cl.dispatch(1, 1)
        q.wait(q.execute(cl))
        np.testing.assert_array_equal(q.read_buffer(out, np.uint32).reshape(h, w, 4)[..., :3], texels)


def test_rgb32_zero_copy_texture_upload_uses_a_whole_number_of_texels_per_row(dev, q):
    w, h = 5, 3
    texels = (np.arange(w * h * 3) + 1).astype(np.float32).reshape(h, w, 3)
    tex = dev.create_texture2d(w, h, "rgb32_float")
    cl = q.command_list()
    a = cl.allocate_texture_upload(tex)
    pitch = a.size // h                                # 768: a multiple of 256 and of the 12-byte texel
    assert pitch % 256 == 0 and pitch % 12 == 0 and a.offset % 512 == 0
    a.array(np.float32, (h, pitch // 4))[:, :w * 3] = texels.reshape(h, w * 3)
    cl.copy_from_upload(tex, a)
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_texture(tex).reshape(h, w, 3), texels)
