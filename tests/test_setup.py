"""`python -m dx12kit setup` and the missing-compiler message: a wheel user must get the
compiler or a clear way to it. The fetch itself downloads from Debian: scripts/bootstrap.sh runs the
same code (python/dx12kit/_compiler_setup.py) on every machine without a compiler, so it is
exercised there rather than on each test run."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import dx12kit
from dx12kit import _compiler_setup, shaders


def test_setup_reports_the_compiler_it_finds():
    r = subprocess.run([sys.executable, "-m", "dx12kit", "setup"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "HLSL compiler found: " + dx12kit.find_compiler() in r.stdout


def test_missing_compiler_names_the_setup_command(monkeypatch, pyenv, tmp_path):
    # (pyenv: os.environ is a private dict here; setenv(3) could move the environment under
    # lavapipe's threads, tests/conftest.py)
    pyenv.pop("DX12KIT_HLSL_COMPILER", None)
    pyenv.pop("DX12KIT_COMPILER_PREFIX", None)
    pyenv["XDG_DATA_HOME"] = str(tmp_path)
    pyenv["PATH"] = str(tmp_path)
    shaders._forget_compiler()
    try:
        with pytest.raises(dx12kit.Dx12Error, match=r"python -m dx12kit setup"):
            dx12kit.find_compiler()
    finally:
        monkeypatch.undo()
        shaders._forget_compiler()
    assert os.path.isfile(dx12kit.find_compiler())


def test_prefix_follows_the_environment(pyenv, tmp_path):
    pyenv.pop("DX12KIT_COMPILER_PREFIX", None)
    pyenv["XDG_DATA_HOME"] = str(tmp_path)
    assert _compiler_setup.default_prefix() == tmp_path / "dx12kit" / "vkd3d-compiler"
    pyenv["DX12KIT_COMPILER_PREFIX"] = str(tmp_path / "p")
    assert _compiler_setup.default_prefix() == tmp_path / "p"


def test_fetch_without_apt_says_what_to_do_instead(pyenv, tmp_path):
    pyenv["PATH"] = str(tmp_path)  # no apt-get, no dpkg
    with pytest.raises(_compiler_setup.CompilerSetupError, match=r"DX12KIT_HLSL_COMPILER"):
        _compiler_setup.fetch_compiler(tmp_path / "prefix", log=lambda m: None)
    assert not (tmp_path / "prefix").exists()
