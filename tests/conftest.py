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


def pytest_sessionstart(session):
    """scripts/test-wheel.sh sets DX12KIT_EXPECT_INSTALLED to the fresh venv the wheel went into:
    the suite must then test that installed package, never python/ from the checkout."""
    expected = os.environ.get("DX12KIT_EXPECT_INSTALLED")
    if expected:
        import dx12kit
        import dx12kit.dx12core

        for mod in (dx12kit, dx12kit.dx12core):
            path = os.path.realpath(mod.__file__ or "")
            if not path.startswith(os.path.realpath(expected) + os.sep):
                raise pytest.UsageError(f"{mod.__name__} imported from {path}, not from the installed wheel in {expected}")


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
