#!/usr/bin/env bash
# Windows: cross-builds the core and the C++ test suite with mingw-w64
# (cmake/toolchains/mingw-w64-x86_64.cmake) and runs it under Wine (Wine 8.0's d3d12 is vkd3d 1.6
# over lavapipe). Tests that hit a known Wine defect are expected to fail there
# (tests/cpp/wine_repros/README.md). Needs the packages scripts/bootstrap.sh installs.
#
# Wine hygiene: a private WINEPREFIX in the build dir (created on first use, ~10 s), WINEDEBUG=-all,
# every Wine process inside one `xvfb-run -a` (without a display Wine's DXGI cannot create a
# device), any leftover wineserver of the prefix killed first (one started without a display
# poisons later runs) and waited for at the end.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
log() { printf '[test-windows] %s\n' "$*" >&2; }
if [ "${DX12KIT_SKIP_EXTRA_TESTS:-0}" = 1 ]; then log "skipped (DX12KIT_SKIP_EXTRA_TESTS=1)"; exit 0; fi
start=$(date +%s)
export PATH="$ROOT/.venv/bin:$PATH"
export CCACHE_BASEDIR="$ROOT"
BUILD="$ROOT/build/mingw"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDX12KIT_CPP_TESTS=ON \
      -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/mingw-w64-x86_64.cmake" >/dev/null
cmake --build "$BUILD"
built=$(date +%s)
log "cross build done ($(( built - start )) s)"

export WINEPREFIX="$BUILD/wineprefix" WINEDEBUG=-all
WINESERVER=$(command -v wineserver || echo /usr/lib/wine/wineserver)
export WINESERVER
"$WINESERVER" -k >/dev/null 2>&1 || true
xvfb-run -a sh -c 'cd "$1" && ctest --output-on-failure; rc=$?; "$WINESERVER" -w; exit $rc' sh "$BUILD"
log "Wine suite passed ($(( $(date +%s) - built )) s under Wine, $(( $(date +%s) - start )) s in all)"
