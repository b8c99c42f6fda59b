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


def pytest_configure(config):
    # scripts/test-sanitizers.sh runs the suite against a sanitized build installed elsewhere:
    # make sure that build (not the .venv's) is the one imported.
    expect = os.environ.get("DX12KIT_EXPECT_PACKAGE_DIR")
    if expect:
        import dx12kit

        got = os.path.dirname(os.path.realpath(dx12kit.__file__))
        if got != os.path.realpath(expect):
            raise pytest.UsageError(f"dx12kit imported from {got}, expected the sanitized build in {expect}")
