"""Fetches the HLSL compiler into the per-user prefix: ``python -m dx12kit setup``.

dx12kit compiles HLSL with vkd3d-shader's ``vkd3d-compiler`` 1.19 or newer (stores to
``RWStructuredBuffer``, which dx12kit's own shaders need, arrived in 1.19). Debian 12 and 13 ship
1.2 (no HLSL compiler), and the compiler in Debian unstable needs a newer glibc than theirs, so it
is never installed into the system. Instead, on a Debian-family machine (apt-get and dpkg present):

1. a private apt configuration (its own sources list naming suite ``sid`` on the mirror the
   machine's own apt sources use, its own lists, cache and status; the system's apt setup stays
   untouched) downloads ``vkd3d-compiler``, ``libvkd3d-shader1``, ``libc6`` and ``libtinfo6``;
2. each package is unpacked with ``dpkg -x`` into the prefix
   (``$XDG_DATA_HOME/dx12kit/vkd3d-compiler``, ``~/.local/share/...``; ``DX12KIT_COMPILER_PREFIX``
   overrides it);
3. a wrapper ``PREFIX/vkd3d-compiler`` runs the compiler through the prefix's own loader and
   libraries, and is checked to compile a small compute shader;
4. the prefix's ``libvkd3d-shader`` gets dx12kit's two-bit fix for vkd3d-shader 2.1's merge of
   conversions (casts and reinterpretations, ``asuint``/``asint``) of one value to different types
   (:func:`fix_conversion_merge`).

About 6 MB of downloads. ``scripts/bootstrap.sh`` runs this file directly (it needs only the
standard library), so the checkout and an installed wheel fetch the compiler the same way.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, List, Optional

__all__ = ["CompilerSetupError", "default_prefix", "fetch_compiler", "fix_conversion_merge", "conversion_merge_state"]

PACKAGES = ["vkd3d-compiler", "libvkd3d-shader1", "libc6", "libtinfo6"]
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
_LAYOUT = {"amd64": ("x86_64-linux-gnu", "ld-linux-x86-64.so.2"),
           "arm64": ("aarch64-linux-gnu", "ld-linux-aarch64.so.1")}
_TEST_SHADER = ("RWStructuredBuffer<uint> b : register(u0);\n"
                "[numthreads(1,1,1)] void main(uint3 i : SV_DispatchThreadID) { b[i.x] = 1; }\n")


class CompilerSetupError(RuntimeError):
    """The compiler could not be fetched; the message says why and what to do instead."""


def default_prefix() -> Path:
    """Where the compiler goes: ``DX12KIT_COMPILER_PREFIX``, else ``$XDG_DATA_HOME/dx12kit/vkd3d-compiler``."""
    env = os.environ.get("DX12KIT_COMPILER_PREFIX")
    if env:
        return Path(env)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "dx12kit" / "vkd3d-compiler"


def compiles_hlsl(exe: str) -> bool:
    """Whether `exe` (a vkd3d-compiler) turns a small cs_5_0 shader into DXBC."""
    try:
        r = subprocess.run([exe, "-x", "hlsl", "-b", "dxbc-tpf", "-p", "cs_5_0", "-e", "main", "-o", "-", "-"],
                           input=_TEST_SHADER.encode(), capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return r.returncode == 0 and r.stdout[:4] == b"DXBC"


# vkd3d-shader's HLSL expression vectorizer (hlsl_codegen.c, vectorize_exprs; 2.1 and the 1.x releases
# that have it) joins expressions of one operation on the same operands into one vector expression of
# the *first* expression's type: it compares operation and operands, not the result type. For a cast
# the result type is the whole meaning, so int(f) and uint(f) become one ftoi, float(i) and uint(i) one
# itof (the uint holds float bits), with implicit conversions (int used as float and as uint) alike.
# The same function keeps a set of operations it must never vectorize (not per-component), tested as
# one 64-bit mask of hlsl_ir_expr_op values: COS_REDUCED (9), SIN_REDUCED (35), DOT (43) and DP2ADD
# (57) in 2.1 (debug_hlsl_expr_op's name table: "cast" is 5). dx12kit adds CAST (5) to that mask in its
# own copy of the library: casts are then never joined (a vector cast written as one, int2(v.xy), stays
# one instruction). REINTERPRET (30 in the same table: asuint, asint, asfloat) has the same flaw: with
# asuint(f) and asint(f) of one value the two become one uint value and asint(f) < 0 folds to false;
# dx12kit adds REINTERPRET (30) too. The mask is found by its exact bytes (movabs rax, imm64), which
# occur once; a library with the CAST-only mask (dx12kit's earlier fix) is upgraded; any other library
# is left alone, and compile_hlsl's behaviour probe decides what happens then.
_MERGE_MASK = 0x0200080800000200
_CAST_BIT = 1 << 5
_REINTERPRET_BIT = 1 << 30
_FIXED_MASK = _MERGE_MASK | _CAST_BIT | _REINTERPRET_BIT
_MASK_OPCODE = b"\x48\xb8"   # movabs rax, imm64


def _shader_library(prefix: Path) -> Optional[Path]:
    for lib in sorted((prefix / "usr" / "lib").glob("*/libvkd3d-shader.so.1")):
        return lib.resolve()
    return None


def _mask_bytes(mask: int) -> bytes:
    return _MASK_OPCODE + mask.to_bytes(8, "little")


# The masks a 2.1 library can hold, oldest first: as shipped, dx12kit's CAST-only fix, the full fix.
_STATES = (("unfixed", _MERGE_MASK), ("cast-only", _MERGE_MASK | _CAST_BIT), ("fixed", _FIXED_MASK))


def conversion_merge_state(prefix: Optional[Path] = None) -> str:
    """For the prefix's libvkd3d-shader: ``"fixed"`` (CAST and REINTERPRET in the mask), ``"cast-only"``
    (dx12kit's earlier fix: CAST only), ``"unfixed"`` (the 2.1 mask as shipped), each found exactly once
    and the others absent, or ``"unknown"`` (another library, or none)."""
    lib = _shader_library(Path(prefix) if prefix else default_prefix())
    if lib is None:
        return "unknown"
    data = lib.read_bytes()
    counts = {name: data.count(_mask_bytes(mask)) for name, mask in _STATES}
    for name, n in counts.items():
        if n == 1 and sum(counts.values()) == 1:
            return name
    return "unknown"


def fix_conversion_merge(prefix: Optional[Path] = None) -> str:
    """Adds CAST and REINTERPRET to the vectorizer's never-vectorize mask in the prefix's
    libvkd3d-shader (see above; an unfixed or CAST-only library); returns the state after
    (:func:`conversion_merge_state`). The file is replaced atomically (a concurrent run of the compiler
    keeps the file it opened); a library without one of the known 2.1 masks is not touched."""
    prefix = Path(prefix) if prefix else default_prefix()
    state = conversion_merge_state(prefix)
    if state not in ("unfixed", "cast-only"):
        return state
    lib = _shader_library(prefix)
    assert lib is not None
    data = lib.read_bytes()
    fixed = data.replace(_mask_bytes(dict(_STATES)[state]), _mask_bytes(_FIXED_MASK))
    tmp = lib.with_name(f".{lib.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(fixed)
        os.chmod(tmp, lib.stat().st_mode & 0o7777)
        os.replace(tmp, lib)
    except OSError:
        tmp.unlink(missing_ok=True)
        return state
    return conversion_merge_state(prefix)


def debian_mirror() -> Optional[str]:
    """The first mirror URI of the machine's apt sources (deb822 ``debian.sources``, else
    ``sources.list``), or ``DX12KIT_DEBIAN_MIRROR`` when set."""
    env = os.environ.get("DX12KIT_DEBIAN_MIRROR")
    if env:
        return env
    deb822 = Path("/etc/apt/sources.list.d/debian.sources")
    if deb822.is_file():
        for line in deb822.read_text().splitlines():
            if line.startswith("URIs:") and line.split()[1:]:
                return line.split()[1]
    classic = Path("/etc/apt/sources.list")
    if classic.is_file():
        for line in classic.read_text().splitlines():
            fields = line.split()
            if fields and fields[0] == "deb":
                for f in fields[1:]:
                    if "://" in f:
                        return f
    return None


def _run(cmd: List[str], what: str) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise CompilerSetupError(f"{what} failed ({' '.join(cmd[:1])} exit {r.returncode}):\n{(r.stderr or r.stdout).strip()}")


def _reporter(progress: Any) -> Any:
    """The progress reporter of dx12kit/_progress.py (importable as a sibling when this file runs
    as a plain script from scripts/bootstrap.sh)."""
    try:
        from ._progress import reporter
    except ImportError:
        from _progress import reporter  # type: ignore[no-redef, import-not-found]
    return reporter(progress, "fetching the HLSL compiler", "step", 4 + len(PACKAGES), "fetch_compiler")


def fetch_compiler(prefix: Optional[Path] = None, log: Callable[[str], None] = print, progress: Any = None) -> Path:
    """Downloads vkd3d-compiler from Debian unstable into `prefix` (default :func:`default_prefix`)
    as described in the module docstring; returns the path of the wrapper to run.

    `progress`: None (a bar when stderr is a terminal), False, True (a bar) or a callable(done, total)
    called after each step: the package list, the download, each package unpacked, the fix, the check.

    Raises:
        CompilerSetupError: not a Debian-family machine, no mirror, a download failed, or the
            fetched compiler does not compile HLSL.
    """
    rep = _reporter(progress)
    try:
        return _fetch(Path(prefix) if prefix else default_prefix(), log, rep)
    finally:
        if rep is not None:
            rep.close()


def _fetch(prefix: Path, log: Callable[[str], None], rep: Any) -> Path:
    total = 4 + len(PACKAGES)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if rep is not None:
            rep.update(done, max(total, done))

    for tool in ("apt-get", "dpkg"):
        if not shutil.which(tool):
            raise CompilerSetupError(
                f"fetching the HLSL compiler needs Debian's {tool} (this is not a Debian-family system): install "
                "vkd3d-shader 1.19 or newer so that vkd3d-compiler is on PATH, or set DX12KIT_HLSL_COMPILER "
                "to a vkd3d-compiler executable")
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    if arch not in _LAYOUT:
        raise CompilerSetupError(f"no prebuilt compiler layout for architecture {arch!r}: install vkd3d-shader 1.19+ "
                                 "or set DX12KIT_HLSL_COMPILER")
    triplet, loader = _LAYOUT[arch]
    mirror = debian_mirror()
    if not mirror:
        raise CompilerSetupError("no Debian mirror in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list: "
                                 "set DX12KIT_DEBIAN_MIRROR to one (for example your distribution's Debian mirror)")
    if not Path(KEYRING).is_file():
        raise CompilerSetupError(f"{KEYRING} is missing (package debian-archive-keyring): it verifies the download")
    log(f"fetching vkd3d-compiler from Debian unstable ({mirror}) into {prefix} (a private prefix, not the system)")
    with tempfile.TemporaryDirectory(prefix="dx12kit-apt-") as tmp:
        apt = Path(tmp)
        for d in ("lists/partial", "cache/archives/partial", "etc/preferences.d", "dl"):
            (apt / d).mkdir(parents=True)
        (apt / "sources.list").write_text(f"deb [signed-by={KEYRING}] {mirror} sid main\n")
        (apt / "status").write_text("")
        opts = ["-o", f"Dir::Etc::SourceList={apt}/sources.list", "-o", "Dir::Etc::SourceParts=-",
                "-o", "Dir::Etc::Preferences=-", "-o", f"Dir::Etc::PreferencesParts={apt}/etc/preferences.d",
                "-o", f"Dir::State::Lists={apt}/lists", "-o", f"Dir::Cache={apt}/cache",
                "-o", f"Dir::State::status={apt}/status", "-o", f"APT::Architecture={arch}",
                "-o", "Debug::NoLocking=1",
                # the package descriptions' translations: not read here (sid's are several MB)
                "-o", "Acquire::Languages=none"]
        if os.geteuid() == 0:
            opts += ["-o", "APT::Sandbox::User=root"]
        _run(["apt-get", *opts, "update", "-qq"], "apt-get update (private configuration)")
        step()
        r = subprocess.run(["apt-get", *opts, "download", *PACKAGES], cwd=apt / "dl", capture_output=True, text=True)
        if r.returncode != 0:
            raise CompilerSetupError(f"apt-get download {' '.join(PACKAGES)} failed:\n{(r.stderr or r.stdout).strip()}")
        step()
        staging = Path(str(prefix) + ".tmp")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        debs = sorted((apt / "dl").glob("*.deb"))
        total = 4 + len(debs)
        for deb in debs:
            _run(["dpkg", "-x", str(deb), str(staging)], f"dpkg -x {deb.name}")
            step()
    wrapper = staging / "vkd3d-compiler"
    wrapper.write_text(
        "#!/bin/sh\n"
        "# Runs vkd3d-compiler through this prefix's own loader and libraries (written by dx12kit setup).\n"
        'case "$0" in */*) P=${0%/*} ;; *) P=. ;; esac\n'   # (no dirname: runs whatever PATH is)
        f'L="$P/usr/lib/{triplet}"\n'
        f'exec "$L/{loader}" --library-path "$L" "$P/usr/bin/vkd3d-compiler" "$@"\n')
    wrapper.chmod(0o755)
    log(f"libvkd3d-shader conversion-merge fix: {fix_conversion_merge(staging)}")
    step()
    if not compiles_hlsl(str(wrapper)):
        shutil.rmtree(staging, ignore_errors=True)
        raise CompilerSetupError("the fetched vkd3d-compiler does not compile HLSL")
    step()
    shutil.rmtree(prefix, ignore_errors=True)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    staging.rename(prefix)
    exe = prefix / "vkd3d-compiler"
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    log(f"HLSL compiler ready: {exe} ({version[0] if version else 'unknown version'})")
    return exe


def main(argv: Optional[List[str]] = None) -> int:
    """Command line of this file when run directly (scripts/bootstrap.sh): fetch into --prefix."""
    p = argparse.ArgumentParser(description="fetch vkd3d-compiler into a private prefix")
    p.add_argument("--prefix", type=Path, default=None)
    args = p.parse_args(argv)
    try:
        fetch_compiler(args.prefix, log=lambda m: print(f"[dx12kit setup] {m}", file=sys.stderr))
    except CompilerSetupError as e:
        print(f"[dx12kit setup] {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
