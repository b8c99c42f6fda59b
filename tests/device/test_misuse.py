"""Misuse that once could crash or corrupt memory now raises a clear exception (real device)."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import dx12kit as dx


def test_same_list_executed_from_two_threads(device, queue):
    buf = device.create_buffer(256)
    for _ in range(20):
        cl = queue.command_list()
        cl.upload(buf, np.arange(256, dtype=np.uint8))
        errors, fences = [], []

        def run():
            try:
                fences.append(queue.execute(cl))
            except dx.InvalidArgumentError as e:
                errors.append(e)

        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(fences) == 1 and len(errors) == 1
    queue.flush()
    np.testing.assert_array_equal(queue.read_buffer(buf), np.arange(256, dtype=np.uint8))


def test_copy_from_upload_checks_the_subresource(device, queue):
    tex = device.create_texture2d(8, 8)
    cl = queue.command_list()
    a = cl.allocate_texture_upload(tex)
    with pytest.raises(dx.InvalidArgumentError, match="mip 3 out of range"):
        cl.copy_from_upload(tex, a, mip=3)
    with pytest.raises(dx.InvalidArgumentError, match="array slice 1 out of range"):
        cl.copy_from_upload(tex, a, array_slice=1)


def test_dtype_without_item_size(device, queue):
    buf = device.create_buffer(16)
    with pytest.raises(dx.InvalidArgumentError, match="no fixed item size"):
        queue.read_buffer(buf, dtype=np.dtype("S"))
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="no fixed item size"):
        cl.allocate_upload(64).array(np.dtype("U"))


def test_offsets_that_would_wrap_around(device, queue):
    buf = device.create_buffer(64)
    other = device.create_buffer(64)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="do not fit"):
        cl.upload(buf, np.zeros(16, np.uint8), offset=2**64 - 8)
    with pytest.raises(dx.InvalidArgumentError, match="out of bounds"):
        cl.copy_buffer_region(buf, 2**64 - 8, other, 0, 16)


def test_zero_copy_view_keeps_its_page_out_of_reuse(device, queue):
    cl = queue.command_list()
    a = cl.allocate_upload(4096)
    view = a.array(np.uint32)
    view[:] = 7
    buf = device.create_buffer(4096)
    cl.copy_from_upload(buf, a)
    queue.wait(queue.execute(cl))
    # The page is retired and complete, but `view` still points into it: a new list must not get it.
    addresses = set()
    for _ in range(4):
        cl2 = queue.command_list()
        addresses.add(cl2.allocate_upload(4096).gpu_address)
        queue.wait(queue.execute(cl2))
    assert a.gpu_address not in addresses
    view[:] = 9  # memory that nobody else uses: no corruption elsewhere
    np.testing.assert_array_equal(queue.read_buffer(buf, dtype=np.uint32), np.full(1024, 7, np.uint32))


def test_fixed_state_heaps_are_refused_as_copy_ends(device, queue):
    up = device.create_buffer(64, heap="upload")
    rb = device.create_buffer(64, heap="readback")
    buf = device.create_buffer(64)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="UPLOAD heap"):
        cl.copy_buffer_region(up, 0, buf, 0, 64)
    with pytest.raises(dx.InvalidArgumentError, match="READBACK heap"):
        cl.copy_buffer_region(buf, 0, rb, 0, 64)


def test_graphics_work_on_a_compute_list(device):
    cq = device.queue("compute")
    rt = device.create_texture2d(4, 4, render_target=True)
    cl = cq.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="direct queue"):
        cl.set_render_targets([rt])
    with pytest.raises(dx.InvalidArgumentError, match="direct queue"):
        cl.clear_render_target(rt, [0, 0, 0, 0])


def test_vertex_slot_out_of_range(device, queue):
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="slot 32 out of range"):
        cl.set_dynamic_vertex_buffer(32, np.zeros((3, 4), np.float32))


def test_objects_of_another_device(device, queue):
    other = dx.Device()
    rs = other.create_root_signature([dx.RootUAV(0)])
    cs = dx.compile_hlsl("RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1,1,1)] void main() { o[0] = 1; }\n")
    with pytest.raises(dx.InvalidArgumentError, match="another device"):
        device.create_compute_pipeline(cs, rs)
    pso = other.create_compute_pipeline(cs, rs)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="another device"):
        cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match="another device"):
        queue.wait_for(other.queue(), 0)
