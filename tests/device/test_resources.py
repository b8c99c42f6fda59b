"""Upload/readback round trips, formats, lifetime and bad input on the real device."""
from __future__ import annotations

import gc

import numpy as np
import pytest

import dx12kit as dx

from .shaders import SAXPY


@pytest.mark.parametrize("size", [1, 3, 256, 1000, 65536 + 7, 3 << 20])
def test_buffer_round_trip(device, queue, size):
    data = np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8)
    buf = device.create_buffer(size)
    cl = queue.command_list()
    cl.upload(buf, data)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(buf), data)


@pytest.mark.parametrize(
    "fmt,dtype,channels",
    [("rgba8_unorm", np.uint8, 4), ("bgra8_unorm", np.uint8, 4), ("rgba16_float", np.float16, 4),
     ("rgba32_float", np.float32, 4), ("r32_float", np.float32, 1), ("r32_uint", np.uint32, 1),
     ("rg32_float", np.float32, 2), ("r8_unorm", np.uint8, 1)],
)
@pytest.mark.parametrize("w,h", [(1, 1), (13, 7), (65, 3), (100, 33)])
def test_texture_round_trip(device, queue, fmt, dtype, channels, w, h):
    rng = np.random.default_rng(w * h)
    if np.issubdtype(dtype, np.floating):
        img = rng.standard_normal((h, w, channels)).astype(dtype)
    else:
        img = rng.integers(0, np.iinfo(dtype).max, (h, w, channels), dtype=dtype)
    tex = device.create_texture2d(w, h, fmt)
    cl = queue.command_list()
    cl.upload(tex, img)
    queue.execute(cl)
    out = queue.read_texture(tex)
    assert out.shape == (h, w, channels) and out.dtype == dtype
    np.testing.assert_array_equal(out, img)


def test_mips_and_array_slices(device, queue):
    tex = device.create_texture2d(32, 16, "rgba8_unorm", mip_levels=0, array_size=3)
    assert tex.mip_levels == 6 and tex.num_subresources == 18
    imgs = {}
    cl = queue.command_list()
    for s in range(3):
        for m in range(6):
            w, h = max(32 >> m, 1), max(16 >> m, 1)
            imgs[m, s] = np.full((h, w, 4), 10 * s + m, np.uint8)
            cl.upload(tex, imgs[m, s], mip=m, array_slice=s)
    queue.execute(cl)
    for (m, s), img in imgs.items():
        np.testing.assert_array_equal(queue.read_texture(tex, mip=m, array_slice=s), img)


def test_format_enum_and_string(device):
    a = device.create_texture2d(4, 4, dx.Format.RGBA16_FLOAT)
    b = device.create_texture2d(4, 4, "RGBA16_float")
    assert a.format == b.format == dx.Format.RGBA16_FLOAT


def test_zero_copy_upload(device, queue):
    n = 4096
    buf = device.create_buffer(n * 4)
    cl = queue.command_list()
    alloc = cl.allocate_upload(n * 4)
    view = alloc.array(np.float32)
    view[:] = np.arange(n, dtype=np.float32) * 2
    cl.copy_from_upload(buf, alloc)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(buf, dtype=np.float32), np.arange(n, dtype=np.float32) * 2)
    with pytest.raises(dx.UseAfterFreeError):
        alloc.array(np.float32)


def test_lifetime_drop_everything_while_executing(device, queue):
    """Every Python reference to the resources and pipeline goes away before the GPU finishes."""
    cs = dx.compile_hlsl(SAXPY)
    n = 1 << 16
    fences = []
    for i in range(4):
        rs = device.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0), dx.RootUAV(1)])
        pso = device.create_compute_pipeline(cs, rs)
        bx = device.create_buffer(n * 4, uav=True)
        by = device.create_buffer(n * 4, uav=True)
        out = device.create_buffer(n * 4)
        cl = queue.command_list()
        cl.upload(bx, np.full(n, i, np.float32))
        cl.upload(by, np.ones(n, np.float32))
        cl.set_pipeline_state(pso)
        cl.set_constants(0, [2.0, n])
        cl.set_root_uav(1, bx)
        cl.set_root_uav(2, by)
        cl.dispatch(n // 64)
        cl.copy_resource(out, by)
        fences.append((queue.execute(cl), out))
        del rs, pso, bx, by, cl
        gc.collect()
    for i, (fence, out) in enumerate(fences):
        queue.wait(fence)
        np.testing.assert_array_equal(queue.read_buffer(out, dtype=np.float32), np.full(n, 2 * i + 1, np.float32))
    del fences
    gc.collect()
    queue.flush()
    device.poll()


class TestBadInput:
    def test_bad_hlsl(self):
        with pytest.raises(dx.ShaderCompileError) as e:
            dx.compile_hlsl("[numthreads(1,1,1)] void main() { undefined_thing = 1; }\n")
        assert "1:" in str(e.value) and e.value.messages

    def test_bad_profile(self):
        with pytest.raises(dx.InvalidArgumentError):
            dx.compile_hlsl("void main() {}", profile="xs_9_9")

    def test_zero_size_buffer(self, device):
        with pytest.raises(dx.InvalidArgumentError, match="size"):
            device.create_buffer(0)
        with pytest.raises(ValueError):
            device.create_buffer(0)

    def test_unknown_format(self, device):
        with pytest.raises(dx.InvalidArgumentError, match="unknown format 'bc7_unrom'; did you mean 'bc7_unorm'"):
            device.create_texture2d(4, 4, "bc7_unrom")

    def test_upload_shape_mismatch(self, device, queue):
        tex = device.create_texture2d(8, 8, "rgba8_unorm")
        cl = queue.command_list()
        with pytest.raises(dx.InvalidArgumentError, match=r"\(8, 8, 4\)"):
            cl.upload(tex, np.zeros((8, 8, 3), np.uint8))
        with pytest.raises(dx.InvalidArgumentError, match="1-byte items"):
            cl.upload(tex, np.zeros((8, 8, 4), np.float32))
        buf = device.create_buffer(16)
        with pytest.raises(dx.InvalidArgumentError, match="do not fit"):
            cl.upload(buf, np.zeros(17, np.uint8))
        with pytest.raises(dx.InvalidArgumentError, match="C-contiguous"):
            cl.upload(buf, np.zeros((4, 8), np.uint8)[:, ::2])

    def test_root_index_out_of_range(self, device, queue):
        cs = dx.compile_hlsl(SAXPY)
        rs = device.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0), dx.RootUAV(1)])
        pso = device.create_compute_pipeline(cs, rs)
        cl = queue.command_list()
        cl.set_pipeline_state(pso)
        with pytest.raises(dx.InvalidArgumentError, match="root index 7 out of range"):
            cl.set_constants(7, [1])
        with pytest.raises(dx.InvalidArgumentError, match="is a root UAV, not root constants"):
            cl.set_constants(1, [1])
        with pytest.raises(dx.InvalidArgumentError, match="exceed the 2 constants"):
            cl.set_constants(0, [1, 2, 3])

    def test_execute_twice_and_record_after_execute(self, device, queue):
        cl = queue.command_list()
        queue.execute(cl)
        with pytest.raises(dx.InvalidArgumentError, match="already executed"):
            queue.execute(cl)
        with pytest.raises(dx.UseAfterFreeError):
            cl.dispatch(1)

    def test_wait_for_unsubmitted_fence(self, queue):
        with pytest.raises(dx.InvalidArgumentError, match="never submitted"):
            queue.wait(queue.last_submitted_value + 100)

    def test_device_keeps_working(self, device, queue):
        # After all of the above, the device still does real work.
        buf = device.create_buffer(64)
        cl = queue.command_list()
        cl.upload(buf, np.arange(64, dtype=np.uint8))
        queue.execute(cl)
        np.testing.assert_array_equal(queue.read_buffer(buf), np.arange(64, dtype=np.uint8))
