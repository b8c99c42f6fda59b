#!/usr/bin/env python3
"""Puts the HLSL compiler into a built wheel: dx12kit/_compiler/ (a step of scripts/build-wheel.sh).

The compiler is vkd3d-shader's ``vkd3d-compiler`` from Debian unstable with the libraries it runs
with: libvkd3d-shader (with dx12kit's conversion-merge fix, python/dx12kit/_compiler_setup.py),
libtinfo and its own glibc (libc, libm and the loader ld-linux), which is newer than the glibc of
the machines dx12kit supports and is therefore never loaded into any other process: the wrapper
``_compiler/vkd3d-compiler`` runs the compiler through the bundled loader, as the per-user prefix
of ``python -m dx12kit setup`` does. The layout is that prefix's (usr/bin, usr/lib/<triplet>,
usr/share/doc/<package>/copyright from each .deb), so the same code reads both.

Added after ``auditwheel repair`` on purpose: auditwheel would judge the wheel's manylinux tag by
the bundled glibc's symbol versions, which the extension never sees. Files are copied from PREFIX
(the prefix the bootstrap fills), only those the compiler loads, plus the licence files and a
NOTICE naming the packages, their versions, where their sources are, and the one change dx12kit
makes to libvkd3d-shader. The wheel's RECORD gets an entry (sha256, size) for each added file.

    bundle-compiler.py WHEEL PREFIX      (rewrites WHEEL in place; prints the added size in KiB)
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python" / "dx12kit"))
import _compiler_setup as cs  # noqa: E402  (standard library only; not the installed package)

# What the compiler loads (DT_NEEDED closure of usr/bin/vkd3d-compiler), by soname.
LIBS = ["libvkd3d-shader.so.1", "libtinfo.so.6", "libc.so.6", "libm.so.6"]
# The .debs they come from (their usr/share/doc/<package>/copyright is bundled).
PACKAGES = ["vkd3d-compiler", "libvkd3d-shader1", "libc6", "libtinfo6"]
SOURCES = {"vkd3d-compiler": "vkd3d", "libvkd3d-shader1": "vkd3d", "libc6": "glibc", "libtinfo6": "ncurses"}
LICENCES = {"vkd3d": "LGPL-2.1-or-later", "glibc": "LGPL-2.1-or-later (and others, see copyright)",
            "ncurses": "MIT/X11-style (see copyright)"}
DEST = "dx12kit/_compiler"


def _version(doc: Path) -> str:
    """The Debian version from the package's changelog.Debian.gz (its first line)."""
    for name in ("changelog.Debian.gz", "changelog.gz"):
        f = doc / name
        if f.is_file():
            with gzip.open(f, "rt", errors="replace") as fh:
                m = re.match(r"\S+ \(([^)]+)\)", fh.readline())
                if m:
                    return m.group(1)
    return "unknown"


def stage(prefix: Path, out: Path) -> None:
    """Copies the compiler's files from `prefix` into `out` (the _compiler folder)."""
    triplets = [d for d in (prefix / "usr" / "lib").iterdir() if (d / "libvkd3d-shader.so.1").exists()]
    if len(triplets) != 1:
        raise SystemExit(f"[bundle-compiler] {prefix}: expected one usr/lib/<triplet>/libvkd3d-shader.so.1")
    triplet = triplets[0].name
    loader = {t: ld for t, ld in cs._LAYOUT.values()}.get(triplet)
    if loader is None:
        raise SystemExit(f"[bundle-compiler] no loader known for {triplet}")
    lib = out / "usr" / "lib" / triplet
    (out / "usr" / "bin").mkdir(parents=True)
    lib.mkdir(parents=True)
    shutil.copy2(prefix / "usr" / "bin" / "vkd3d-compiler", out / "usr" / "bin" / "vkd3d-compiler")
    for name in [loader, *LIBS]:   # (symlinks resolved: a wheel holds regular files only)
        shutil.copyfile(prefix / "usr" / "lib" / triplet / name, lib / name)
    (lib / loader).chmod(0o755)
    # The wrapper: the prefix's, but with no external command (dirname), so that it runs whatever PATH is.
    (out / "vkd3d-compiler").write_text(
        "#!/bin/sh\n"
        "# Runs the bundled vkd3d-compiler through the bundled loader and libraries (see NOTICE).\n"
        'case "$0" in */*) P=${0%/*} ;; *) P=. ;; esac\n'
        f'L="$P/usr/lib/{triplet}"\n'
        f'exec "$L/{loader}" --library-path "$L" "$P/usr/bin/vkd3d-compiler" "$@"\n')
    (out / "vkd3d-compiler").chmod(0o755)
    state = cs.fix_conversion_merge(out)
    if state != "fixed":
        raise SystemExit(f"[bundle-compiler] libvkd3d-shader in {prefix} is not the known vkd3d-shader 2.1 build "
                         f"(conversion-merge state {state!r}): refusing to bundle it")
    notice = ["dx12kit bundles vkd3d-shader's HLSL compiler and the libraries it runs with, unmodified",
              "Debian binaries (Debian unstable, amd64/arm64), except as noted below.", ""]
    for pkg in PACKAGES:
        doc = prefix / "usr" / "share" / "doc" / pkg
        if not (doc / "copyright").is_file():
            raise SystemExit(f"[bundle-compiler] {doc}/copyright is missing: the licence must ship with the binary")
        (out / "usr" / "share" / "doc" / pkg).mkdir(parents=True)
        shutil.copyfile(doc / "copyright", out / "usr" / "share" / "doc" / pkg / "copyright")
        src, ver = SOURCES[pkg], _version(doc)
        notice.append(f"- {pkg} {ver} (source package {src}, {LICENCES[src]}):"
                      f" usr/share/doc/{pkg}/copyright; source: https://sources.debian.org/src/{src}/{ver}/")
    notice += ["",
               f"Modified: usr/lib/{triplet}/libvkd3d-shader.so.1. dx12kit changes one 64-bit constant in it (the",
               "set of HLSL expression operations vkd3d-shader's vectorizer must never merge gains CAST and",
               "REINTERPRET), so that conversions of one value to different types stay apart; see",
               "dx12kit/_compiler_setup.py (fix_conversion_merge), which applies the same change to the original",
               "library from the Debian package above.",
               "",
               "The wrapper vkd3d-compiler runs usr/bin/vkd3d-compiler through the bundled loader and libraries;",
               "they are never loaded into the Python process."]
    (out / "NOTICE").write_text("\n".join(notice) + "\n")
    if not cs.compiles_hlsl(str(out / "vkd3d-compiler")):
        raise SystemExit("[bundle-compiler] the staged compiler does not compile HLSL")


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def add_to_wheel(wheel: Path, tree: Path) -> int:
    """Rewrites `wheel` with every file under `tree` added at DEST; returns the bytes added."""
    before = wheel.stat().st_size
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
        names = zin.namelist()
        if any(n.startswith(DEST + "/") for n in names):
            raise SystemExit(f"[bundle-compiler] {wheel.name} already has {DEST}/")
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        lines = zin.read(record).decode().splitlines()
        for info in zin.infolist():
            if info.filename != record:
                zout.writestr(info, zin.read(info.filename))
        for f in sorted(p for p in tree.rglob("*") if p.is_file()):
            arc = f"{DEST}/{f.relative_to(tree).as_posix()}"
            data = f.read_bytes()
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if f.stat().st_mode & stat.S_IXUSR else 0o644
            info.external_attr = (stat.S_IFREG | mode) << 16   # pip keeps the executable bit
            zout.writestr(info, data)
            lines.append(f"{arc},{_record_hash(data)},{len(data)}")
        lines = [ln for ln in lines if not ln.startswith(record + ",")] + [f"{record},,"]
        zout.writestr(zin.getinfo(record), "\n".join(lines) + "\n")
    os.replace(tmp, wheel)
    return wheel.stat().st_size - before


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    wheel, prefix = Path(sys.argv[1]), Path(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="dx12kit-bundle-") as tmp:
        out = Path(tmp) / "_compiler"
        stage(prefix, out)
        added = add_to_wheel(wheel, out)
    version = subprocess.run([str(prefix / "vkd3d-compiler"), "--version"], capture_output=True, text=True).stdout.strip()
    print(f"[bundle-compiler] added {DEST}/ ({version.splitlines()[0] if version else 'vkd3d-compiler'}): "
          f"+{added // 1024} KiB compressed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
