#!/usr/bin/env bash
# The C++ test suite (tests/cpp, doctest) without Python: built natively and run against vkd3d
# with ctest, then (scripts/test-windows.sh) cross-built with mingw-w64 and run under Wine.
# Called by scripts/test.sh after the bootstrap; DX12KIT_SKIP_EXTRA_TESTS=1 skips it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
log() { printf '[test-cpp] %s\n' "$*" >&2; }
if [ "${DX12KIT_SKIP_EXTRA_TESTS:-0}" = 1 ]; then log "skipped (DX12KIT_SKIP_EXTRA_TESTS=1)"; exit 0; fi
start=$(date +%s)
export PATH="$ROOT/.venv/bin:$PATH"   # cmake and ninja from the bootstrap's venv
export CCACHE_BASEDIR="$ROOT"

# The embedded DXBC must come from the HLSL beside it (the header records each source's SHA-256).
DATA="$ROOT/tests/cpp/data"
for src in "$DATA"/*.hlsl; do
  sum=$(sha256sum "$src" | cut -d' ' -f1)
  grep -q "^// $(basename "$src") sha256 $sum\$" "$DATA/Shaders.generated.hpp" || {
    log "$(basename "$src") changed since Shaders.generated.hpp was generated: run tests/cpp/data/regenerate.sh"; exit 1; }
done

# `scripts/bootstrap.sh --test` (scripts/test.sh) builds the suite in the module's build directory
# (DX12KIT_CPP_TESTS=ON), from the very objects of the extension: nothing is compiled twice. Without
# that build, a separate C++-only build directory is made here.
TAG=$("$ROOT/.venv/bin/python" -c "import sys, sysconfig; v = 'cp%d%d' % sys.version_info[:2]; \
print(f\"{v}-{v}{getattr(sys, 'abiflags', '')}-{sysconfig.get_platform().replace('-', '_').replace('.', '_')}\")" 2>/dev/null || true)
if [ -n "$TAG" ] && [ -f "$ROOT/build/$TAG/tests/cpp/CTestTestfile.cmake" ]; then
  BUILD="$ROOT/build/$TAG"
  log "running the suite built with the extension ($BUILD)"
  cmake --build "$BUILD"   # (up to date after the bootstrap: a check only)
else
  BUILD="$ROOT/build/cpp-tests"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDX12KIT_CPP_TESTS=ON >/dev/null
  cmake --build "$BUILD"
fi
(cd "$BUILD" && ctest --output-on-failure)
log "native C++ suite passed ($(( $(date +%s) - start )) s)"
"$ROOT/scripts/test-windows.sh"
