#!/usr/bin/env bash
# Builds dx12kit with AddressSanitizer + UndefinedBehaviorSanitizer (CMake option DX12KIT_SANITIZE)
# into its own build directory and install directory, and runs the device suite against it.
# The normal .venv install is left alone: the sanitized package goes to build/sanitize/site and is
# put first on PYTHONPATH. Needs scripts/bootstrap.sh to have run (the .venv with the build tools).
#
# CPython is not instrumented, so the ASan runtime is preloaded (with libstdc++, which must come
# up before it for pybind11's exceptions); leak checks are off (CPython keeps its arenas at exit).
# Any sanitizer report, in pytest or in a subprocess a test starts, fails this script. Extra
# arguments go to pytest.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PY="$ROOT/.venv/bin/python"
BUILD="$ROOT/build/sanitize"
SITE="$BUILD/site"
LOGS="$BUILD/reports"
log() { printf '[sanitizers] %s\n' "$*" >&2; }

start=$(date +%s)
log "building with DX12KIT_SANITIZE=ON into $BUILD"
export CCACHE_BASEDIR="$ROOT"
rm -rf "$SITE"
# --config-settings, not its short form -C: Debian 12's python3-venv gives a fresh venv pip 23.0, which
# has no -C (pip 23.1 added it; a fresh machine's cold run failed on it).
"$PY" -m pip install -q --no-build-isolation --no-deps --target "$SITE" \
  --config-settings=build-dir="$BUILD/cmake" --config-settings=cmake.define.DX12KIT_SANITIZE=ON \
  --config-settings=cmake.define.DX12KIT_BENCH=ON --config-settings=cmake.build-type=RelWithDebInfo \
  "--config-settings=cmake.define.CMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" "$ROOT"
# (-O1 -g1: line tables are enough for the reports' stack traces, and the build is about twice as
# fast as -O2 -g, the default of RelWithDebInfo)
built=$(date +%s)
log "build took $((built - start)) s"

ASAN_LIB=$(gcc -print-file-name=libasan.so)
STDCXX_LIB=$(gcc -print-file-name=libstdc++.so)
[ -f "$ASAN_LIB" ] || { log "libasan.so not found (gcc -print-file-name)"; exit 1; }
rm -rf "$LOGS"; mkdir -p "$LOGS"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$ROOT/.venv/run}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

# pytest captures only sys.stdout/sys.stderr (--capture=sys): a report the runtime writes to fd 2
# just before it ends the process reaches the log instead of dying with pytest's captured output.
# Subprocesses started by tests fail those tests by their exit status (halt_on_error).
# allocator_may_return_null: tests ask for absurd sizes on purpose; lavapipe's malloc then returns
# NULL (and dx12kit raises OutOfMemoryError) instead of ASan aborting the process.
status=0
set +e
env PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}" \
    LD_PRELOAD="$ASAN_LIB:$STDCXX_LIB" \
    ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    DX12KIT_EXPECT_PACKAGE_DIR="$SITE/dx12kit" DX12KIT_BENCH_DIR="$BUILD/cmake/bench" \
    "$PY" -m pytest tests/device -q -p no:cacheprovider --capture=sys "$@" 2>&1 | tee "$LOGS/pytest.log"
status=${PIPESTATUS[0]}
set -e
if grep -qE "runtime error:|ERROR: AddressSanitizer|SUMMARY: (Address|UndefinedBehavior)Sanitizer" "$LOGS/pytest.log"; then
  log "sanitizer reports found (see above / $LOGS/pytest.log)"
  status=1
fi
log "sanitized device suite took $(( $(date +%s) - built )) s (exit status $status)"
exit $status
