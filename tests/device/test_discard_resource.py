"""CommandList.discard_resource: D3D12's states per queue type, and what it refuses."""
from __future__ import annotations

import pytest

import dx12kit as dx


def test_discard_then_write_on_direct_and_compute(device: dx.Device) -> None:
    dev = device
    rt = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="rt")
    uav = dev.create_texture2d(8, 8, "rgba8_unorm", uav=True, name="uav")
    q = dev.queue("direct")
    cl = q.command_list()
    cl.discard_resource(rt)
    cl.clear_render_target(rt, (0.0, 1.0, 0.0, 1.0))
    q.wait(q.execute(cl))
    assert (q.read_texture(rt).reshape(-1, 4) == (0, 255, 0, 255)).all()
    c = dev.queue("compute")
    cl = c.command_list()
    cl.discard_resource(uav, mip=0, array_slice=0)
    cl.clear_unordered_access_view(uav, (1.0, 0.0, 0.0, 1.0))
    c.wait(c.execute(cl))
    assert (q.read_texture(uav).reshape(-1, 4) == (255, 0, 0, 255)).all()


def test_discard_refusals(device: dx.Device) -> None:
    dev = device
    rt = dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name="rt")
    plain = dev.create_texture2d(8, 8, "rgba8_unorm", name="plain")
    buf = dev.create_buffer(256, name="buf")
    cl = dev.queue("direct").command_list()
    with pytest.raises(dx.InvalidArgumentError, match="neither a render target"):
        cl.discard_resource(plain)
    with pytest.raises(dx.InvalidArgumentError, match="is a buffer"):
        cl.discard_resource(buf)
    with pytest.raises(dx.InvalidArgumentError, match="mip"):
        cl.discard_resource(rt, mip=3)
    with pytest.raises(TypeError):
        cl.discard_resource("rt")  # type: ignore[arg-type]
    ccl = dev.queue("compute").command_list()
    with pytest.raises(dx.InvalidArgumentError, match="uav=True"):
        ccl.discard_resource(rt)
    with pytest.raises(dx.InvalidArgumentError, match="copy-queue"):
        dev.queue("copy").command_list().discard_resource(rt)
