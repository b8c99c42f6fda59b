"""HLSL compilation to DXBC, with an on-disk cache.

dx12kit compiles HLSL with vkd3d-shader's ``vkd3d-compiler`` (shader model 4.x/5.x to DXBC, which
vkd3d runs). The compiler is found, in order:

1. the ``DX12KIT_HLSL_COMPILER`` environment variable (a path to a ``vkd3d-compiler``-compatible
   program), which overrides everything;
2. the per-user copy that ``python -m dx12kit setup`` (and ``scripts/bootstrap.sh``) installs:
   ``$XDG_DATA_HOME/dx12kit/vkd3d-compiler/vkd3d-compiler`` (``~/.local/share/...``;
   ``DX12KIT_COMPILER_PREFIX`` names another folder);
3. ``vkd3d-compiler`` on ``PATH``, if it compiles HLSL (vkd3d-shader 1.10 or newer).

Results are cached under ``$XDG_CACHE_HOME/dx12kit/shaders`` (``~/.cache/...``; override with
``DX12KIT_SHADER_CACHE``), keyed by source, entry point, profile, defines and compiler version.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Optional, Union

from .errors import Dx12Error, ShaderCompileError

__all__ = ["Shader", "compile_hlsl", "find_compiler", "compiler_version"]

_PROFILES = {"vs", "ps", "cs", "gs", "hs", "ds"}


@dataclass(frozen=True)
class Shader:
    """Compiled shader bytecode (DXBC).

    Attributes:
        bytecode: the DXBC container, ready for ``create_*_pipeline``.
        entry: the entry point it was compiled from.
        profile: the target profile, for example ``"cs_5_0"``.
    """

    bytecode: bytes
    entry: str = "main"
    profile: str = "cs_5_0"
    messages: str = field(default="", compare=False)

    def __len__(self) -> int:
        return len(self.bytecode)


_lock = threading.Lock()
_compiler: Optional[str] = None
_versions: dict = {}  # (compiler path, mtime) -> version line


def _cache_dir() -> Path:
    env = os.environ.get("DX12KIT_SHADER_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dx12kit" / "shaders"


def _compiles_hlsl(exe: str) -> bool:
    src = "RWStructuredBuffer<uint> b : register(u0);\n[numthreads(1,1,1)] void main(uint3 i : SV_DispatchThreadID) { b[i.x] = 1; }\n"
    try:
        r = subprocess.run([exe, "-x", "hlsl", "-b", "dxbc-tpf", "-p", "cs_5_0", "-e", "main", "-o", "-", "-"],
                           input=src.encode(), capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return r.returncode == 0 and r.stdout[:4] == b"DXBC"


def find_compiler() -> str:
    """The path of the HLSL compiler dx12kit uses (see the module docstring for the order).

    Raises:
        Dx12Error: when no HLSL-capable compiler is found, with what to do about it.
    """
    global _compiler
    with _lock:
        if _compiler is not None and not os.environ.get("DX12KIT_HLSL_COMPILER"):
            return _compiler
        env = os.environ.get("DX12KIT_HLSL_COMPILER")
        if env:
            if not (os.path.isfile(env) and os.access(env, os.X_OK)):
                raise Dx12Error(f"DX12KIT_HLSL_COMPILER={env!r} is not an executable file")
            return env
        from ._compiler_setup import default_prefix  # the folder `python -m dx12kit setup` fills

        user = default_prefix() / "vkd3d-compiler"
        if user.is_file() and os.access(user, os.X_OK):
            _compiler = str(user)
            return _compiler
        system = shutil.which("vkd3d-compiler")
        if system and _compiles_hlsl(system):
            _compiler = system
            return _compiler
        raise Dx12Error(
            "no HLSL compiler found: run `python -m dx12kit setup` (fetches vkd3d-compiler into "
            f"{user.parent}; scripts/bootstrap.sh does the same in a checkout), install vkd3d-shader 1.10+ "
            "so vkd3d-compiler is on PATH, or set DX12KIT_HLSL_COMPILER to a vkd3d-compiler executable")


def _forget_compiler() -> None:
    """Makes the next :func:`find_compiler` look again (after ``python -m dx12kit setup``)."""
    global _compiler
    with _lock:
        _compiler = None


def compiler_version(exe: Optional[str] = None) -> str:
    """The version line of `exe` (default: :func:`find_compiler`), part of every cache key.

    Asked once per compiler file (path and modification time), so an overriding
    ``DX12KIT_HLSL_COMPILER`` costs no extra process per compilation.
    """
    exe = exe or find_compiler()
    key = (exe, os.stat(exe).st_mtime_ns)
    version = _versions.get(key)
    if version is None:
        r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
        out = (r.stdout or r.stderr).strip()
        version = out.splitlines()[0] if out else "unknown"
        with _lock:
            _versions[key] = version
    return version


def _renumber(messages: str, offset: int) -> str:
    """Makes 'shader.hlsl:LINE:' refer to the user's source (defines are prepended lines)."""
    if not offset:
        return messages
    import re

    return re.sub(r"shader\.hlsl:(\d+):", lambda m: f"shader.hlsl:{max(int(m.group(1)) - offset, 1)}:", messages)


def compile_hlsl(source: str, entry: str = "main", profile: str = "cs_5_0",
                 defines: Optional[Mapping[str, Union[str, int, float, None]]] = None) -> Shader:
    """Compiles HLSL source to DXBC.

    Args:
        source: HLSL text.
        entry: entry point function name.
        profile: ``vs_5_0``, ``ps_5_0``, ``cs_5_0`` (also ``_4_0``, ``_4_1``, ``_5_1``).
        defines: preprocessor macros, ``{"NAME": value}`` (value ``None`` defines it empty).

    Returns:
        A :class:`Shader` with ``.bytecode``.

    Raises:
        ShaderCompileError: the source did not compile; ``.messages`` holds the compiler's output
            with line numbers that refer to ``source``.
        InvalidArgumentError: a malformed profile or entry point.
    """
    from .errors import InvalidArgumentError

    if not isinstance(source, str):
        raise InvalidArgumentError("compile_hlsl: source must be a str")
    stage, _, model = profile.partition("_")
    if stage not in _PROFILES or model not in {"4_0", "4_1", "5_0", "5_1"}:
        raise InvalidArgumentError(f"compile_hlsl: unsupported profile {profile!r} (use e.g. 'cs_5_0', 'vs_5_0', 'ps_5_0')")
    if not entry.isidentifier():
        raise InvalidArgumentError(f"compile_hlsl: entry point {entry!r} is not an identifier")
    header = ""
    for name, value in sorted((defines or {}).items()):
        if not str(name).isidentifier():
            raise InvalidArgumentError(f"compile_hlsl: define name {name!r} is not an identifier")
        header += f"#define {name}" + ("" if value is None else f" {value}") + "\n"
    # vkd3d's preprocessor ignores '#line', so messages are renumbered below instead.
    header_lines = header.count("\n")
    text = header + source
    exe = find_compiler()
    version = compiler_version(exe)
    key = hashlib.sha256("\0".join([version, profile, entry, text]).encode()).hexdigest()
    cache = _cache_dir()
    cached = cache / f"{key}.dxbc"
    try:
        data = cached.read_bytes()
        if data[:4] == b"DXBC":
            return Shader(data, entry, profile)
    except OSError:
        pass
    with tempfile.TemporaryDirectory(prefix="dx12kit-hlsl-") as tmp:
        src_path = Path(tmp) / "shader.hlsl"
        out_path = Path(tmp) / "shader.dxbc"
        src_path.write_text(text)
        r = subprocess.run([exe, "-x", "hlsl", "-b", "dxbc-tpf", "-p", profile, "-e", entry, "-o", str(out_path), str(src_path)],
                           capture_output=True, text=True, timeout=120)
        messages = (r.stderr + r.stdout).replace(str(src_path), "shader.hlsl").strip()
        messages = _renumber(messages, header_lines)
        if r.returncode != 0 or not out_path.exists():
            raise ShaderCompileError(f"HLSL compilation failed ({profile}, entry '{entry}'):\n{messages}", messages)
        data = out_path.read_bytes()
    try:
        cache.mkdir(parents=True, exist_ok=True)
        tmp_file = cache / f".{key}.{os.getpid()}.{threading.get_ident()}.tmp"
        tmp_file.write_bytes(data)
        os.replace(tmp_file, cached)
    except OSError:
        pass  # a read-only cache directory only costs speed
    return Shader(data, entry, profile, messages)
