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
    monkeypatch.setattr(shaders, "_BUNDLED_DIR", tmp_path / "no-bundled-compiler")   # (a wheel carries one)
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


def _without_other_compilers(pyenv, tmp_path):
    """No per-user prefix (an empty data home), nothing on PATH, no override: only a bundled compiler."""
    pyenv.pop("DX12KIT_HLSL_COMPILER", None)
    pyenv.pop("DX12KIT_COMPILER_PREFIX", None)
    pyenv["XDG_DATA_HOME"] = str(tmp_path / "empty-data-home")
    pyenv["PATH"] = str(tmp_path / "empty-path")
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path / "shader-cache")


def test_bundled_compiler_comes_before_the_user_prefix(monkeypatch, pyenv, tmp_path):
    """The package's own _compiler/ folder (the wheel's bundled compiler) is looked in first, so an
    installed wheel compiles HLSL with no set-up step; DX12KIT_HLSL_COMPILER still overrides it."""
    real = dx12kit.find_compiler()
    bundled = tmp_path / "_compiler"
    bundled.mkdir()
    (bundled / "vkd3d-compiler").write_text(f'#!/bin/sh\nPATH=/usr/bin:/bin exec "{real}" "$@"\n')
    (bundled / "vkd3d-compiler").chmod(0o755)
    _without_other_compilers(pyenv, tmp_path)
    monkeypatch.setattr(shaders, "_BUNDLED_DIR", bundled)
    shaders._forget_compiler()
    try:
        assert dx12kit.find_compiler() == str(bundled / "vkd3d-compiler")
        sh = dx12kit.compile_hlsl("RWStructuredBuffer<uint> b : register(u0);\n"
                                  "[numthreads(1,1,1)] void main() { b[0] = 7; }\n", profile="cs_5_0")
        assert bytes(sh.bytecode)[:4] == b"DXBC"
        pyenv["DX12KIT_HLSL_COMPILER"] = real
        assert dx12kit.find_compiler() == real
    finally:
        monkeypatch.undo()
        shaders._forget_compiler()


@pytest.mark.skipif(not os.environ.get("DX12KIT_EXPECT_INSTALLED"), reason="checks the installed wheel (scripts/test-wheel.sh)")
def test_installed_wheel_carries_its_compiler_and_licences(monkeypatch, pyenv, tmp_path):
    """The wheel's dx12kit/_compiler/: the wrapper, vkd3d-compiler and the libraries it runs with
    (its own glibc and loader), each package's copyright file and the NOTICE; compile_hlsl works
    from it alone."""
    root = shaders._BUNDLED_DIR
    assert os.path.realpath(root).startswith(os.path.realpath(os.environ["DX12KIT_EXPECT_INSTALLED"]))
    for pkg in ("vkd3d-compiler", "libvkd3d-shader1", "libc6", "libtinfo6"):
        assert (root / "usr" / "share" / "doc" / pkg / "copyright").stat().st_size > 1000, pkg
    notice = (root / "NOTICE").read_text()
    assert "LGPL-2.1-or-later" in notice and "libvkd3d-shader.so.1" in notice
    assert _compiler_setup.conversion_merge_state(root) == "fixed"
    _without_other_compilers(pyenv, tmp_path)
    shaders._forget_compiler()
    try:
        assert dx12kit.find_compiler() == str(root / "vkd3d-compiler")
        sh = dx12kit.compile_hlsl("RWStructuredBuffer<uint> b : register(u0);\n"
                                  "[numthreads(1,1,1)] void main() { b[0] = 7; }\n", profile="cs_5_0")
        assert bytes(sh.bytecode)[:4] == b"DXBC"
    finally:
        monkeypatch.undo()
        shaders._forget_compiler()
