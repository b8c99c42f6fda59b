"""Device.close() and `with dx12kit.Device() as dev:`: closing waits for the device's work, then any use of
the device or its objects raises DeviceClosedError (a UseAfterFreeError) naming the closed device, never a crash;
closing twice is fine."""
from __future__ import annotations

import gc

import numpy as np
import pytest

import dx12kit as dx


def _check_every_use_refused(dev, q, buf, tex, recording, value):
    for use in (lambda: dev.create_buffer(16), lambda: dev.create_texture2d(4, 4), lambda: dev.queue("compute"),
                lambda: q.command_list(), lambda: q.read_buffer(buf), lambda: q.read_texture(tex), lambda: q.wait(value),
                lambda: q.flush(), lambda: q.write_buffer(buf, np.zeros(4, np.uint32)), lambda: recording.upload(buf, np.zeros(4, np.uint32)),
                lambda: q.execute(recording), lambda: dev.defragment(), lambda: dev.load_texture(np.zeros((4, 4), np.uint8)),
                lambda: q.write_texture(tex, np.zeros((8, 8, 4), np.uint8)), lambda: tex.close()):
        with pytest.raises(dx.DeviceClosedError, match="the device was closed"):
            use()


def test_close_waits_for_submitted_work_then_refuses_every_use():
    dev = dx.Device()
    q = dev.queue("direct")
    buf = dev.create_buffer(data=np.arange(1024, dtype=np.uint32))
    tex = dev.create_texture2d(data=np.zeros((8, 8, 4), np.uint8))
    cl = q.command_list()
    cl.upload(buf, np.arange(1024, dtype=np.uint32)[::-1].copy())
    value = q.execute(cl)
    recording = q.command_list()
    dev.close()
    assert dev.closed
    _check_every_use_refused(dev, q, buf, tex, recording, value)
    assert issubclass(dx.DeviceClosedError, dx.UseAfterFreeError)
    dev.close()  # twice is fine
    del buf, tex, cl, recording, q
    gc.collect()


def test_work_submitted_before_close_completed_with_its_results():
    dev = dx.Device(uma_direct=False)
    q = dev.queue("direct")
    src = dev.create_buffer(data=np.arange(1 << 16, dtype=np.uint32))
    dst = dev.create_buffer(1 << 18, heap="readback")
    cl = q.command_list()
    cl.copy_resource(dst, src)
    q.execute(cl)
    view = dst.map(np.uint32)  # mapped before close: the memory stays while the buffer lives
    dev.close()
    # The copy finished before close returned: its bytes are there without any wait.
    np.testing.assert_array_equal(view, np.arange(1 << 16, dtype=np.uint32))
    with pytest.raises(dx.DeviceClosedError):
        dst.map(np.uint32)


def test_with_block_closes_the_device_also_on_an_exception():
    with dx.Device() as dev:
        buf = dev.create_buffer(data=np.arange(16, dtype=np.float32))
        assert dev.queue().read_buffer(buf, np.float32)[5] == 5
    assert dev.closed
    with pytest.raises(dx.DeviceClosedError):
        dev.create_buffer(16)
    with pytest.raises(ZeroDivisionError):
        with dx.Device() as dev2:
            1 / 0
    assert dev2.closed


def test_objects_dropped_after_close_free_without_error():
    dev = dx.Device()
    q = dev.queue()
    objs = [dev.create_buffer(4096) for _ in range(20)] + [dev.create_texture2d(16, 16) for _ in range(5)]
    q.flush()
    dev.close()
    del objs, q
    gc.collect()
    del dev
    gc.collect()
