"""Shared fixtures. Every device test runs on a real D3D12 device (vkd3d over lavapipe on Linux).

``pytest --validate`` runs the suite with validation mode on: the ``device`` fixture and every
``dx12kit.Device(...)`` the tests create in this process get ``validate=True`` unless they ask for
``validate=False`` explicitly. CI runs ``tests/device`` once this way (scripts/test.sh).
"""
from __future__ import annotations

import os
import tempfile

import _pytest.runner as _pytest_runner
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())  # quiets Mesa/Vulkan loader warnings

# PYTEST_CURRENT_TEST is set once, here (before any device exists), and never deleted. pytest sets
# it at every phase and deletes it after every test, so each test's setup added it back: setenv(3)
# growing the environment array, which realloc may move (AddressSanitizer's realloc always does)
# while one of lavapipe's threads walks it in getenv(3). The ASan run crashed that way (SIGSEGV in
# getenv.c inside a lavapipe thread, seen in CI and reproduced here); replacing the value of a
# variable that exists never moves the array. (tests/device: the pyenv fixture below for the rest.)
os.environ.setdefault("PYTEST_CURRENT_TEST", "(session start)")
_update_current_test_var = getattr(_pytest_runner, "_update_current_test_var", None)


def _keep_current_test_var(item, when):
    if when is not None and _update_current_test_var is not None:  # None: pytest would delete it
        _update_current_test_var(item, when)


if _update_current_test_var is not None:  # (pytest's private helper, pytest 8 and 9)
    _pytest_runner._update_current_test_var = _keep_current_test_var


def _load_bench_locator():
    """benchmarks/_native.py, loaded by path: it puts the benchmark module dx12kit_bench (built into
    the build tree by scripts/bootstrap.sh, never installed) on sys.path when it exists. Tests that
    need it import it themselves and skip, with BENCH_MISSING as the reason, when it is absent (a
    product-only install: scripts/test-wheel.sh)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "_native.py"
    spec = importlib.util.spec_from_file_location("dx12kit_bench_locator", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module.REASON


BENCH_MISSING = _load_bench_locator()


def pytest_report_header(config):
    return f"benchmark module dx12kit_bench: {BENCH_MISSING or 'found in the build tree'}"


def pytest_addoption(parser):
    parser.addoption("--validate", action="store_true", default=False,
                     help="create every dx12kit.Device with validate=True (state validation mode)")


def _check_imported_from(env: str, what: str) -> None:
    """scripts/test-wheel.sh (DX12KIT_EXPECT_INSTALLED: the fresh venv the wheel went into) and
    scripts/test-sanitizers.sh (DX12KIT_EXPECT_PACKAGE_DIR: the sanitized build) run the suite
    against a dx12kit installed elsewhere: that one must be the one imported, never python/ from
    the checkout or the .venv's."""
    expected = os.environ.get(env)
    if not expected:
        return
    import dx12kit
    import dx12kit.dx12core

    root = os.path.realpath(expected)
    for mod in (dx12kit, dx12kit.dx12core):
        path = os.path.realpath(mod.__file__ or "")
        if not (path == root or path.startswith(root + os.sep)):
            raise pytest.UsageError(f"{mod.__name__} imported from {path}, not from {what} in {expected}")


def pytest_configure(config):
    _check_imported_from("DX12KIT_EXPECT_INSTALLED", "the installed wheel")
    _check_imported_from("DX12KIT_EXPECT_PACKAGE_DIR", "the sanitized build")
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


@pytest.fixture
def pyenv(monkeypatch):
    """Environment variables for dx12kit's Python code, set without setenv(3): os.environ becomes a
    private dict copy for the test. lavapipe's threads call getenv(3) at any time, and glibc's
    setenv may move the environment under them (monkeypatch.setenv crashed one under ASan)."""
    env = dict(os.environ)
    monkeypatch.setattr(os, "environ", env)
    return env


@pytest.fixture(scope="session")
def device():
    import dx12kit

    dev = dx12kit.Device()
    yield dev
    dev.wait_idle()


@pytest.fixture(scope="session")
def queue(device):
    return device.queue("direct")
