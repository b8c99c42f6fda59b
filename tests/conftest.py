"""Shared fixtures. Every device test runs on a real D3D12 device (vkd3d over lavapipe on Linux).

``pytest --validate`` runs the suite with validation mode on: the ``device`` fixture and every
``dx12kit.Device(...)`` the tests create in this process get ``validate=True`` unless they ask for
``validate=False`` explicitly. CI runs ``tests/device`` once this way (scripts/test.sh).
"""
from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())  # quiets Mesa/Vulkan loader warnings


def pytest_addoption(parser):
    parser.addoption("--validate", action="store_true", default=False,
                     help="create every dx12kit.Device with validate=True (state validation mode)")


def pytest_configure(config):
    if not config.getoption("--validate"):
        return
    import dx12kit
    from dx12kit import dx12core

    class ValidatingDevice(dx12core.Device):
        """dx12kit.Device with validate=True by default (pytest --validate)."""

        def __init__(self, *args, **kwargs):
            kwargs.setdefault("validate", True)
            super().__init__(*args, **kwargs)

    dx12kit.Device = ValidatingDevice


@pytest.fixture(scope="session")
def device():
    import dx12kit

    dev = dx12kit.Device()
    yield dev
    dev.wait_idle()


@pytest.fixture(scope="session")
def queue(device):
    return device.queue("direct")
