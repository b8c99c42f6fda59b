#!/usr/bin/env bash
# Windows: cross-builds the core and the C++ test suite with mingw-w64
# (cmake/toolchains/mingw-w64-x86_64.cmake) and runs it under Wine (Wine 8.0's d3d12 is vkd3d 1.6
# over lavapipe; Debian 13's Wine 10.0 a newer one). Tests that hit a known Wine defect are expected
# to fail where that Wine has it, as its reproduction shows (tests/cpp/wine_repros/README.md). Needs the packages scripts/bootstrap.sh installs.
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
# Which known Wine defects (tests/cpp/wine_repros/README.md) this Wine has: each reproduction runs
# first and its own verdict decides (Wine 8.0 has W1, Wine 10.0 fixed it); the suite expects the
# marked tests to fail exactly where their defect printed WRONG (DX12KIT_WINE_DEFECTS).
xvfb-run -a sh -c '
  cd "$1"
  defects=""
  for entry in W1:descriptor_table; do
    id=${entry%%:*}; out=$("$2" "tests/cpp/wine_repro_${entry#*:}.exe" 2>&1) || true
    case "$out" in
      *": WRONG"*) defects="$defects $id"; echo "[test-windows] Wine defect $id present: $out" >&2 ;;
      *": right"*) echo "[test-windows] Wine defect $id absent on this Wine: $out" >&2 ;;
      *) echo "[test-windows] the reproduction of $id gave no verdict: $out" >&2; "$WINESERVER" -w; exit 1 ;;
    esac
  done
  export DX12KIT_WINE_DEFECTS="$defects"
  # The first Wine program of a new prefix also starts the prefix set-up (wineboot, services); wait for
  # every Wine process to end before the suite, so that set-up cannot end a test program mid-run
  # (seen once on a cold machine: the reproduction "Subprocess killed" after printing its verdict).
  "$WINESERVER" -w
  ctest --output-on-failure; rc=$?; "$WINESERVER" -w; exit $rc' sh "$BUILD" "$ROOT/cmake/toolchains/wine-run.sh"
log "Wine suite passed ($(( $(date +%s) - built )) s under Wine, $(( $(date +%s) - start )) s in all)"
