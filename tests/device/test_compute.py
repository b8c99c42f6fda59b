"""Compute passes on the real device."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

from .shaders import SAXPY


@pytest.fixture(scope="module")
def saxpy(device):
    cs = dx.compile_hlsl(SAXPY, profile="cs_5_0")
    rs = device.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0), dx.RootUAV(1)])
    return device.create_compute_pipeline(cs, rs)


def _saxpy_list(device, queue, saxpy, x, y):
    """A list that uploads x and y into UAV buffers and binds them to the saxpy pipeline."""
    bx = device.create_buffer(x.nbytes, uav=True, name="x")
    by = device.create_buffer(y.nbytes, uav=True, name="y")
    cl = queue.command_list()
    cl.upload(bx, x)
    cl.upload(by, y)
    cl.set_pipeline_state(saxpy)
    cl.set_root_uav(1, bx)
    cl.set_root_uav(2, by)
    return cl, by


def test_saxpy_2_20(device, queue, saxpy):
    n = 1 << 20
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    a = np.float32(2.5)
    cl, by = _saxpy_list(device, queue, saxpy, x, y)
    cl.set_constants(0, np.array([a.view(np.uint32), n], dtype=np.uint32))
    cl.dispatch((n + 63) // 64)
    queue.wait(queue.execute(cl))
    out = queue.read_buffer(by, dtype=np.float32)
    np.testing.assert_array_equal(out, a * x + y)


def test_constants_as_python_list(device, queue, saxpy):
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    cl, by = _saxpy_list(device, queue, saxpy, x, y)
    cl.set_constants(0, [3.0, n])  # a float and an int become their 32-bit patterns
    cl.dispatch((n + 63) // 64)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(by, dtype=np.float32), 3 * x + 1)


def test_dependent_dispatches_get_uav_barriers(device, queue, saxpy):
    """Ten dispatches read-modify-write the same buffer: automatic UAV barriers keep them ordered."""
    n = 4096
    x = np.full(n, 1, dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    cl, by = _saxpy_list(device, queue, saxpy, x, y)
    for i in range(10):
        cl.set_constants(0, [float(i + 1), n])
        cl.dispatch(n // 64)
    queue.execute(cl)
    np.testing.assert_array_equal(queue.read_buffer(by, dtype=np.float32), np.full(n, 55, np.float32))


def test_compute_queue_and_copy_queue(device, saxpy):
    n = 256
    cq = device.queue("compute")
    xq = device.queue("copy")
    bx = device.create_buffer(n * 4, uav=True)
    by = device.create_buffer(n * 4, uav=True)
    up = xq.command_list()
    up.upload(bx, np.full(n, 2, np.float32))
    up.upload(by, np.full(n, 1, np.float32))
    fence = xq.execute(up)
    cq.wait_for(xq, fence)  # GPU-side wait: the compute queue starts after the copy
    cl = cq.command_list()
    cl.set_pipeline_state(saxpy)
    cl.set_constants(0, [4.0, n])
    cl.set_root_uav(1, bx)
    cl.set_root_uav(2, by)
    cl.dispatch(n // 64)
    cq.wait(cq.execute(cl))
    np.testing.assert_array_equal(cq.read_buffer(by, dtype=np.float32), np.full(n, 9, np.float32))
