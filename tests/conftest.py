"""Shared fixtures. Every device test runs on a real D3D12 device (vkd3d over lavapipe on Linux)."""
from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())  # quiets Mesa/Vulkan loader warnings


@pytest.fixture(scope="session")
def device():
    import dx12kit

    dev = dx12kit.Device()
    yield dev
    dev.wait_idle()


@pytest.fixture(scope="session")
def queue(device):
    return device.queue("direct")
