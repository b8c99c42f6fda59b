#!/usr/bin/env bash
# The C++ package as an engine uses it: `cmake --install` of the core (headers, static library,
# CMake package; cmake/Package.cmake) into a fresh prefix, then tests/cpp_consumer/ (a separate CMake
# project: find_package(dx12kit CONFIG REQUIRED), dx12kit::core) configured, built against that
# prefix alone and run on the real device. Natively (vkd3d), then cross-built with mingw-w64 and run
# under Wine (as scripts/test-windows.sh does; skipped, saying so, when the mingw-w64 compiler is absent).
# It reuses the build directories of scripts/test-cpp.sh and scripts/test-windows.sh (same options, so
# after them nothing is rebuilt) and ccache; the prefixes and consumer builds are under build/cpp-package/.
# Called by scripts/test.sh after scripts/test-cpp.sh; DX12KIT_SKIP_EXTRA_TESTS=1 skips it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
log() { printf '[test-cpp-package] %s\n' "$*" >&2; }
if [ "${DX12KIT_SKIP_EXTRA_TESTS:-0}" = 1 ]; then log "skipped (DX12KIT_SKIP_EXTRA_TESTS=1)"; exit 0; fi
start=$(date +%s)
export PATH="$ROOT/.venv/bin:$PATH"   # cmake and ninja from the bootstrap's venv
export CCACHE_BASEDIR="$ROOT"         # the consumer and its prefix live under $ROOT: cache hits across runs
OUT="$ROOT/build/cpp-package"
LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# install_and_check <build dir> <prefix>: installs the core into an empty prefix and checks the tree.
install_and_check() {
  local build=$1 prefix=$2
  cmake --build "$build" --target dx12kit_core
  rm -rf "$prefix"
  cmake --install "$build" --prefix "$prefix" >/dev/null
  local cfg
  cfg=$(dirname "$(find "$prefix" -name dx12kitConfig.cmake | head -n1)")
  for f in dx12kitConfig.cmake dx12kitConfigVersion.cmake dx12kitTargets.cmake; do
    [ -f "$cfg/$f" ] || { log "FAIL: $f not installed (under $prefix)"; exit 1; }
  done
  [ -f "$prefix/include/dx12kit/gpu/Device.hpp" ] || { log "FAIL: headers not installed under $prefix/include/dx12kit"; exit 1; }
  [ -n "$(find "$prefix" -name libdx12kit.a -o -name dx12kit.lib)" ] || { log "FAIL: no dx12kit library under $prefix"; exit 1; }
  # An installed package must not point back into the source or build tree (it would work here only).
  if grep -rlF "$ROOT" "$cfg" | grep -q .; then
    log "FAIL: the installed CMake package names paths of the build machine's tree:"; grep -rnF "$ROOT" "$cfg" >&2; exit 1
  fi
  # The public headers include each other and the platform's only: no header may include one that is not installed.
  local missing
  missing=$(grep -rhoE '#\s*include\s*"dx12kit/[^"]+"|#\s*include\s*<dx12kit/[^>]+>' "$prefix/include/dx12kit" \
            | sed -E 's/.*[<"](dx12kit\/[^>"]+)[>"]/\1/' | sort -u | while read -r h; do [ -f "$prefix/include/$h" ] || echo "$h"; done)
  [ -z "$missing" ] || { log "FAIL: installed headers include headers that are not installed: $missing"; exit 1; }
}

# ---- native (vkd3d)
BUILD="$ROOT/build/cpp-tests"   # scripts/test-cpp.sh's build directory and options
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDX12KIT_CPP_TESTS=ON >/dev/null
install_and_check "$BUILD" "$OUT/native/prefix"
rm -rf "$OUT/native/consumer"
cmake -S "$ROOT/tests/cpp_consumer" -B "$OUT/native/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" \
      -DCMAKE_PREFIX_PATH="$OUT/native/prefix" >/dev/null
cmake --build "$OUT/native/consumer"
"$OUT/native/consumer/dx12kit_consumer"
log "native: installed package consumed and run ($(( $(date +%s) - start )) s)"

# ---- Windows (mingw-w64 cross build, run under Wine)
if ! command -v x86_64-w64-mingw32-g++-posix >/dev/null; then
  log "Windows: SKIPPED (x86_64-w64-mingw32-g++-posix not installed; scripts/bootstrap.sh installs it)"; exit 0
fi
wstart=$(date +%s)
TOOLCHAIN="$ROOT/cmake/toolchains/mingw-w64-x86_64.cmake"
BUILD="$ROOT/build/mingw"       # scripts/test-windows.sh's build directory and options
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDX12KIT_CPP_TESTS=ON \
      -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" >/dev/null
install_and_check "$BUILD" "$OUT/mingw/prefix"
rm -rf "$OUT/mingw/consumer"
# The toolchain confines find_package to the mingw sysroot (CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY):
# the package is named by its folder instead.
cmake -S "$ROOT/tests/cpp_consumer" -B "$OUT/mingw/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" \
      -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -Ddx12kit_DIR="$(dirname "$(find "$OUT/mingw/prefix" -name dx12kitConfig.cmake)")" >/dev/null
cmake --build "$OUT/mingw/consumer"
# Wine hygiene as in scripts/test-windows.sh: its prefix, no debug output, one xvfb-run around every
# Wine process (Wine's DXGI needs a display), no leftover wineserver before, all waited for after.
export WINEPREFIX="$BUILD/wineprefix" WINEDEBUG=-all
WINESERVER=$(command -v wineserver || echo /usr/lib/wine/wineserver)
export WINESERVER
"$WINESERVER" -k >/dev/null 2>&1 || true
xvfb-run -a sh -c '"$1" "$2"; rc=$?; "$WINESERVER" -w; exit $rc' sh \
  "$ROOT/cmake/toolchains/wine-run.sh" "$OUT/mingw/consumer/dx12kit_consumer.exe"
log "Windows: installed package consumed and run under Wine ($(( $(date +%s) - wstart )) s; $(( $(date +%s) - start )) s in all)"
