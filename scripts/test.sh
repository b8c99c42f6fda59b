#!/usr/bin/env bash
# Sets everything up (`scripts/bootstrap.sh --test`: system packages incl. the test toolchain, HLSL
# compiler, .venv with the test tools, the build with the benchmark module and the C++ suite) and
# runs every check on the real D3D12 device (vkd3d over lavapipe on Linux). Extra arguments go to pytest.
#
# The steps (none is skipped unless its switch below says so):
#   wheel      scripts/build-wheel.sh: the wheel, from the bootstrap's build directory (no recompile)
#   cpp        scripts/test-cpp.sh: the C++ suite natively (built by the bootstrap with the extension's
#              objects), then cross-built for Windows and run under Wine; then
#              scripts/test-cpp-package.sh: the C++ package installed into a fresh prefix, tests/cpp_consumer
#              built against it and run (native, Wine; it reuses the mingw build dir, hence one step)
#   wheel-suite scripts/test-wheel.sh: the wheel installed offline into a fresh venv, tests/ against it
#   docs       scripts/build-docs.sh: the documentation, warnings as errors
#   typing     scripts/check-typing.sh: mypy --strict on the package and its stubs; stubtest
#   lint       scripts/lint.sh: ruff
#   suite      tests/ and benchmarks/ from the source build (each benchmark once, untimed:
#              --benchmark-disable), under scripts/with-backtraces.sh (a crash prints every thread's
#              C backtrace). DX12KIT_SOURCE_SUITE=0 skips it (the Debian 13 step does: its
#              installed-wheel suite runs the same tests/ there).
#   validate   tests/device again with --validate (every Device(validate=True), tests/conftest.py).
#              DX12KIT_VALIDATE_PASS=0 skips it (the Debian 13 step does: validation is dx12kit's own
#              bookkeeping, the same on every platform).
#   sanitizers scripts/test-sanitizers.sh: tests/device against an ASan+UBSan build. DX12KIT_SANITIZERS=0
#              skips it.
#   debian13   scripts/test-debian13.sh: the README's two commands on Debian 13 (glibc 2.41, Python
#              3.13, Mesa 25) in a debootstrap root cached under ~/.cache/dx12kit/debian13 (skipped,
#              saying so, without root/debootstrap).
# DX12KIT_SKIP_EXTRA_TESTS=1 skips wheel, cpp, wheel-suite and debian13 (a quick local run).
#
# After the bootstrap and the wheel build, the steps are independent and run side by side,
# DX12KIT_TEST_JOBS at a time (default 2: the test suites keep about one core busy each, and a
# 2-core machine has two), longest first; each step's output goes to build/test-logs/STEP.log and
# is printed whole when the step ends. DX12KIT_TEST_JOBS=1 runs them one after another with their
# output live. At the end: a table of each step's wall time and result; the exit status is 1 if
# any step failed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
JOBS=${DX12KIT_TEST_JOBS:-2}
LOGS="$ROOT/build/test-logs"
T0=$(date +%s)
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
declare -A SECS=() RESULT=()
ORDER=()

fmt() { printf '%d:%02d' $(( $1 / 60 )) $(( $1 % 60 )); }
summary() {
  local total=$(( $(date +%s) - T0 ))
  echo
  echo "== test.sh: steps (wall time; DX12KIT_TEST_JOBS=$JOBS; load average at start $LOAD0, at end $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'))"
  printf '   %-12s %8s  %s\n' step time result
  for s in "${ORDER[@]}"; do printf '   %-12s %8s  %s\n' "$s" "$(fmt "${SECS[$s]:-0}")" "${RESULT[$s]:-not run}"; done
  printf '   %-12s %8s\n' total "$(fmt "$total")"
}

# run_now STEP CMD...: a step in the foreground, its output live (and in its log).
run_now() {
  local step=$1; shift
  ORDER+=("$step")
  local t=$(date +%s) rc=0
  echo "== [$step] $*"
  "$@" 2>&1 | tee "$LOGS/$step.log" || rc=${PIPESTATUS[0]}
  SECS[$step]=$(( $(date +%s) - t ))
  if [ "$rc" = 0 ]; then RESULT[$step]=passed; else RESULT[$step]="FAILED (exit $rc)"; fi
  return "$rc"
}

mkdir -p "$LOGS"
# The bootstrap and the wheel come first, one after the other (the wheel is packed from the
# bootstrap's build directory, which nothing else may touch meanwhile).
if ! run_now bootstrap "$ROOT/scripts/bootstrap.sh" --test; then summary; exit 1; fi
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$ROOT/.venv/run}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

EXTRA=1
[ "${DX12KIT_SKIP_EXTRA_TESTS:-0}" = 1 ] && EXTRA=0
WHEEL=""
if [ $EXTRA = 1 ]; then
  if run_now wheel bash -c '"$1/scripts/build-wheel.sh" > "$2"' sh "$ROOT" "$LOGS/wheel.path"; then
    WHEEL=$(tail -n1 "$LOGS/wheel.path")
  fi
fi

# The independent steps, longest first (measured on the 2-core machine: Debian 13 and the
# sanitizers take longest; lint the least).
PYTEST_ARGS=("$@")
STEPS=()
[ $EXTRA = 1 ] && STEPS+=(debian13)
[ "${DX12KIT_SANITIZERS:-1}" != 0 ] && STEPS+=(sanitizers)
[ "${DX12KIT_SOURCE_SUITE:-1}" != 0 ] && STEPS+=(suite)
[ $EXTRA = 1 ] && [ -n "$WHEEL" ] && STEPS+=(wheel-suite)
[ "${DX12KIT_VALIDATE_PASS:-1}" != 0 ] && STEPS+=(validate)
[ $EXTRA = 1 ] && STEPS+=(cpp)
STEPS+=(typing docs lint)

step_cmd() {
  case "$1" in
    debian13)    DX12KIT_DEBIAN13_JOBS=$([ "$JOBS" -le 1 ] && echo 2 || echo 1) "$ROOT/scripts/test-debian13.sh" "${PYTEST_ARGS[@]}" ;;
    sanitizers)  "$ROOT/scripts/test-sanitizers.sh" "${PYTEST_ARGS[@]}" ;;
    suite)       "$ROOT/scripts/with-backtraces.sh" .venv/bin/python -m pytest tests benchmarks --benchmark-disable "${PYTEST_ARGS[@]}" ;;
    wheel-suite) DX12KIT_WHEEL="$WHEEL" "$ROOT/scripts/test-wheel.sh" "${PYTEST_ARGS[@]}" ;;
    validate)    "$ROOT/scripts/with-backtraces.sh" .venv/bin/python -m pytest tests/device --validate "${PYTEST_ARGS[@]}" ;;
    cpp)         "$ROOT/scripts/test-cpp.sh" && "$ROOT/scripts/test-cpp-package.sh" ;;
    typing)      "$ROOT/scripts/check-typing.sh" ;;
    docs)        "$ROOT/scripts/build-docs.sh" ;;
    lint)        "$ROOT/scripts/lint.sh" ;;
  esac
}

FAILED=0
if [ "$JOBS" -le 1 ]; then
  for s in "${STEPS[@]}"; do run_now "$s" step_cmd "$s" || FAILED=1; done
else
  # A small scheduler: up to JOBS steps at once, each in the background (its own process group) with
  # its own log; a step's exit status goes to LOGS/STEP.rc when it ends. If this script is stopped,
  # the steps still running are stopped with it.
  declare -A PID=() START=()
  trap 'for p in "${PID[@]}"; do kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null; done' EXIT
  queue=("${STEPS[@]}")
  while [ ${#queue[@]} -gt 0 ] || [ ${#PID[@]} -gt 0 ]; do
    while [ ${#queue[@]} -gt 0 ] && [ ${#PID[@]} -lt "$JOBS" ]; do
      s=${queue[0]}; queue=("${queue[@]:1}")
      ORDER+=("$s"); START[$s]=$(date +%s); rm -f "$LOGS/$s.rc"
      echo "== [$s] started ($(fmt $(( START[$s] - T0 ))) into the run)"
      set -m
      ( rc=0; step_cmd "$s" > "$LOGS/$s.log" 2>&1 < /dev/null || rc=$?; echo "$rc" > "$LOGS/$s.rc" ) &
      PID[$s]=$!
      set +m
    done
    sleep 2
    for s in "${!PID[@]}"; do
      [ -f "$LOGS/$s.rc" ] || continue
      wait "${PID[$s]}" 2>/dev/null || true
      unset "PID[$s]"
      rc=$(cat "$LOGS/$s.rc")
      SECS[$s]=$(( $(date +%s) - START[$s] ))
      echo "== [$s] ended after $(fmt "${SECS[$s]}") (exit $rc); its output:"
      sed "s/^/[$s] /" "$LOGS/$s.log"
      if [ "$rc" = 0 ]; then RESULT[$s]=passed; else RESULT[$s]="FAILED (exit $rc)"; FAILED=1; fi
    done
  done
  trap - EXIT
fi
summary
exit $FAILED
