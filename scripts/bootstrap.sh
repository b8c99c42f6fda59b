#!/usr/bin/env bash
# dx12kit bootstrap: everything a fresh Debian machine needs to build (and, with --test, test) dx12kit.
#
#   1. System packages: vkd3d (D3D12 over Vulkan), the Vulkan loader, Mesa's lavapipe, the compiler
#      toolchain. With --test (or DX12KIT_TEST_DEPS=1; scripts/test.sh passes it) also the test
#      toolchain: doctest, mingw-w64 and Wine with Xvfb (the Windows build), gdb, debootstrap.
#   2. An HLSL -> DXBC compiler: the system's vkd3d-compiler if it compiles HLSL, otherwise
#      vkd3d-compiler from Debian unstable unpacked into a private prefix (never installed into
#      the system: it needs a newer glibc, which is unpacked beside it and used through its own
#      loader). The prefix is the per-user location an installed dx12kit looks in; the fetch is
#      python/dx12kit/_compiler_setup.py, which `python -m dx12kit setup` runs for wheel users.
#   3. A virtual environment at .venv/ with the build dependencies (requirements-build.txt; with
#      --test also the test, docs, typing and lint tools of requirements-dev.txt), and dx12kit built
#      and installed into it. With --test the build also makes the benchmark module and the C++ test
#      suite in the same build directory (scripts/test-cpp.sh runs it from there: one build, shared).
#
# 2. runs in the background from the start and 3. beside the system packages (python3-venv is
# installed first): on a fresh machine only 1. and the build are on the critical path. Each log line
# gives the wall and CPU seconds so far (the CPU figure is the one to compare on a shared machine).
# Idempotent: each step checks whether it is already done. Safe to run again and again.
# DX12KIT_BUILD_JOBS=N sets the build's parallelism (default: Ninja's, cores + 2).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TEST_DEPS=${DX12KIT_TEST_DEPS:-0}
for a in "$@"; do
  case "$a" in
    --test) TEST_DEPS=1 ;;
    *) echo "usage: $0 [--test]" >&2; exit 2 ;;
  esac
done
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
PREFIX=${DX12KIT_COMPILER_PREFIX:-$DATA_HOME/dx12kit/vkd3d-compiler}
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "[bootstrap] not root and no sudo: install the packages listed in SYS_PKGS in $0 as root, then rerun" >&2
    exit 1
  fi
  SUDO="sudo"
fi
# A prebuilt compiler can be fetched for these architectures (python/dx12kit/_compiler_setup.py).
case "$(dpkg --print-architecture)" in
  amd64|arm64) CAN_FETCH=1 ;;
  *) CAN_FETCH="" ;;
esac

BOOT_T0=$(date +%s)
# Each line says the wall seconds since the start and the CPU seconds (user+sys, this shell and the
# commands it waited for) so far: on a shared machine the CPU figure is the comparable one.
# Cleanups run at exit, every one of them, in the order registered (on_exit adds one; a later `trap
# ... EXIT` would replace the earlier ones, so only cleanup() is ever the EXIT trap). Each runs even
# when an earlier one fails.
CLEANUPS=()
on_exit() { CLEANUPS+=("$1"); }
cleanup() {
  local c
  for c in "${CLEANUPS[@]}"; do eval "$c" || true; done
}
trap cleanup EXIT
CPU_TMP=$(mktemp)
# shellcheck disable=SC2016  # (expanded when the cleanup runs)
on_exit 'rm -f "$CPU_TMP"*'
# (`times` in this shell, not in a $(...) subshell, which has its own, empty, accounts.)
log() {
  local f="$CPU_TMP.$BASHPID"   # (per process: the background steps log too)
  times > "$f"
  printf '[bootstrap +%ss cpu %ss] %s\n' "$(( $(date +%s) - BOOT_T0 ))" \
    "$(awk '{for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }} END {printf "%.1f", t}' "$f")" "$*" >&2
}

# ---------------------------------------------------------------- 1. system packages (list; installed below)
SYS_PKGS=(libvkd3d-dev libvkd3d-utils1 libvkd3d-shader1 libvulkan-dev mesa-vulkan-drivers
          pkg-config g++ python3-dev python3-venv ca-certificates ccache)
# The test toolchain (scripts/test.sh): not needed to build dx12kit or run the demo.
TEST_PKGS=(# the Debian 13 check clones the checkout (git pulls perl: ~16 MB the demo does not need)
           git
           # C++ tests (doctest), the mingw-w64 cross build and its tests under Wine (scripts/test-windows.sh)
           doctest-dev g++-mingw-w64-x86-64-posix mingw-w64-x86-64-dev wine64 xvfb xauth
           # backtraces of every thread when a test process crashes (scripts/with-backtraces.sh)
           gdb
           # the Debian 13 check (scripts/test-debian13.sh: a debootstrap root)
           debootstrap)
# The C++ layout check (scripts/check-format.sh, in scripts/lint.sh) needs clang-format 14, the version
# .clang-format is tuned for: Debian 12's. Debian 13 packages 19 only, so there the check says SKIPPED
# (the layout is checked on Debian 12, where CI runs).
# shellcheck source=/dev/null
[ "$( (. /etc/os-release && echo "${VERSION_CODENAME:-}") 2>/dev/null || true)" = bookworm ] && TEST_PKGS+=(clang-format-14)
[ "$TEST_DEPS" = 1 ] && SYS_PKGS+=("${TEST_PKGS[@]}")
# The steps overlap where one does not need the other (the wall time of a first run: a fresh
# machine spends it mostly waiting for downloads and for the disk):
#   - the HLSL compiler fetch (2.) needs only python3, apt-get and dpkg: it starts at once, in the
#     background, and the bootstrap waits for it at the end (the demo compiles shaders; the build
#     does not);
#   - the Python environment (3.) needs python3-venv only: that package is installed first, and
#     the venv and its packages are made in the background while apt installs the rest (the build
#     waits for both).
BG_LOGS=$(mktemp -d)
declare -A BG_PID=()
# shellcheck disable=SC2016  # (expanded when the cleanup runs: the steps still running then)
on_exit '[ ${#BG_PID[@]} = 0 ] || kill "${BG_PID[@]}" 2>/dev/null; rm -rf "$BG_LOGS"'
# run_bg NAME FUNCTION: runs FUNCTION in the background, its output into $BG_LOGS/NAME.log.
run_bg() { "$2" > "$BG_LOGS/$1.log" 2>&1 & BG_PID[$1]=$!; }
# join NAME: waits for it, prints its output; fails as it failed.
join() {
  [ -n "${BG_PID[$1]:-}" ] || return 0
  local rc=0; wait "${BG_PID[$1]}" || rc=$?
  cat "$BG_LOGS/$1.log" >&2; unset "BG_PID[$1]"
  [ "$rc" = 0 ] || { log "$1 failed (exit $rc)"; exit "$rc"; }
}

# ---------------------------------------------------------------- 2. HLSL compiler
hlsl_ok() {  # $@ = command prefix that runs vkd3d-compiler
  local tmp; tmp=$(mktemp -d)
  printf 'RWStructuredBuffer<uint> b : register(u0);\n[numthreads(1,1,1)] void main(uint3 i : SV_DispatchThreadID) { b[i.x] = 1; }\n' > "$tmp/t.hlsl"
  if "$@" -x hlsl -b dxbc-tpf -p cs_5_0 -e main -o "$tmp/t.dxbc" "$tmp/t.hlsl" >/dev/null 2>&1 \
     && [ -s "$tmp/t.dxbc" ]; then rm -rf "$tmp"; return 0; fi
  rm -rf "$tmp"; return 1
}
fetch_compiler() {
  # The same code as `python -m dx12kit setup` (standard library only, so it runs before the
  # build): private apt configuration, Debian unstable packages unpacked into $PREFIX.
  log "fetching the HLSL compiler"
  python3 "$ROOT/python/dx12kit/_compiler_setup.py" --prefix "$PREFIX"
  log "HLSL compiler fetched"
}
COMPILER_LATER=""
if [ -n "${DX12KIT_HLSL_COMPILER:-}" ]; then
  log "DX12KIT_HLSL_COMPILER is set ($DX12KIT_HLSL_COMPILER); not providing a compiler"
elif [ -x "$PREFIX/vkd3d-compiler" ] && hlsl_ok "$PREFIX/vkd3d-compiler"; then
  log "HLSL compiler present: $PREFIX/vkd3d-compiler"
elif command -v vkd3d-compiler >/dev/null && hlsl_ok vkd3d-compiler; then
  log "system vkd3d-compiler compiles HLSL"
else
  [ -n "$CAN_FETCH" ] || { log "no HLSL compiler: install vkd3d-shader 1.19+ or set DX12KIT_HLSL_COMPILER"; exit 1; }
  if command -v python3 >/dev/null; then run_bg compiler fetch_compiler
  else COMPILER_LATER=1; fi   # (no python3 yet: after the system packages)
fi

# ---------------------------------------------------------------- 3. Python environment (a function: run in the background)
VENV="$ROOT/.venv"
PY=${PYTHON:-python3}
python_env() {
  if [ ! -x "$VENV/bin/python" ]; then
    log "creating $VENV"
    "$PY" -m venv "$VENV"
  fi
  # The demo needs the build dependencies only; the tests add their tools (requirements-dev.txt
  # includes requirements-build.txt). Installed into .venv once per content of the files.
  local REQS=("$ROOT/requirements-build.txt") REQ STAMP want
  [ "$TEST_DEPS" = 1 ] && REQS+=("$ROOT/requirements-dev.txt")
  for REQ in "${REQS[@]}"; do
    STAMP="$VENV/.$(basename "$REQ" .txt).sha"
    want=$(cat "$ROOT/requirements-build.txt" "$REQ" | sha256sum | cut -d' ' -f1)
    if [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
      log "installing Python packages ($(basename "$REQ"))"
      # (the venv's own pip: no upgrade, which would cost a download and an install; every option used
      # here exists in the pip of Debian 12's python3-venv, 23.0)
      "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQ"
      echo "$want" > "$STAMP"
    fi
  done
  log "Python environment ready"
}

# ---------------------------------------------------------------- 1. system packages
missing=()
for p in "${SYS_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# --force-unsafe-io: dpkg skips its fsync after each unpacked file (most of a first install's time
# on a busy disk; Debian's own container images set it). A power cut during the install can leave
# files of the packages being installed empty: `apt-get install --reinstall` repairs them.
apt_install() {
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o DPkg::Options::=--force-unsafe-io "$@" >/dev/null
}
if [ ${#missing[@]} -gt 0 ]; then
  log "installing system packages: ${missing[*]}"
  $SUDO apt-get update -qq
  rest=()
  for p in "${missing[@]}"; do [ "$p" = python3-venv ] || rest+=("$p"); done
  if [ ${#rest[@]} != ${#missing[@]} ]; then
    apt_install python3-venv
    log "python3-venv installed; the Python environment is made beside the other packages"
  fi
  run_bg python python_env
  [ ${#rest[@]} = 0 ] || apt_install "${rest[@]}"
  log "system packages installed"
else
  log "system packages present"
  python_env
fi
if [ -n "$COMPILER_LATER" ]; then run_bg compiler fetch_compiler; fi
join python

# Build and install dx12kit itself (incremental: scikit-build-core keeps build/ between runs).
# The sum covers every file the build reads (the CMake project, cpp/ incl. cpp/bench/, python/, and
# benchmarks/baseline/, compiled into the benchmark module); outside a git checkout (or without
# git, which the demo does not install) every file under those paths is summed instead.
srcsum=$( (cd "$ROOT" && { git ls-files -co --exclude-standard -- pyproject.toml CMakeLists.txt cmake cpp python external benchmarks/baseline 2>/dev/null \
                  || find pyproject.toml CMakeLists.txt cmake cpp python external benchmarks/baseline -type f ! -name '*.pyc' 2>/dev/null || true; } \
         | sort | while IFS= read -r f; do [ -f "$f" ] && cat "$f"; echo "$f"; done) | sha256sum | cut -d' ' -f1)
BSTAMP="$VENV/.dx12kit-build.sha"
# What the build makes besides the product: with --test the benchmark module (DX12KIT_BENCH: into the
# build tree only, build/<tag>/bench/, found by benchmarks/_native.py) and the C++ test suite
# (DX12KIT_CPP_TESTS: build/<tag>/tests/cpp, run by scripts/test-cpp.sh with ctest); neither is
# installed, so the installed package is the product either way. A build with them serves the demo
# too: the demo's run keeps it rather than reconfiguring the build without them.
# The options are written to $VENV/.dx12kit-build-options, which scripts/build-wheel.sh passes
# again: the wheel comes from the same configured build directory, with nothing recompiled.
if [ "$TEST_DEPS" = 1 ]; then EXTRAS=ON; else EXTRAS=OFF; fi
built=$(cat "$BSTAMP" 2>/dev/null || true)
if [ "$built" = "$srcsum extras=ON" ] || [ "$built" = "$srcsum extras=$EXTRAS" ]; then
  log "dx12kit build is up to date"
else
  if [ -n "$built" ]; then log "dx12kit build is stale (sources or build options changed since it was built): building"
  else log "building dx12kit"; fi
  export CCACHE_BASEDIR="$ROOT"   # paths relative to the checkout: other worktrees hit the cache
  # (Ninja runs cores+2 jobs by default; DX12KIT_BUILD_JOBS overrides that.)
  [ -n "${DX12KIT_BUILD_JOBS:-}" ] && export CMAKE_BUILD_PARALLEL_LEVEL=$DX12KIT_BUILD_JOBS
  opts=("--config-settings=cmake.define.DX12KIT_BENCH=$EXTRAS" "--config-settings=cmake.define.DX12KIT_CPP_TESTS=$EXTRAS")
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps "${opts[@]}" "$ROOT"
  printf '%s\n' "${opts[@]}" > "$VENV/.dx12kit-build-options"
  echo "$srcsum extras=$EXTRAS" > "$BSTAMP"
fi
join compiler
# "Up to date" and "loads" are separate questions: a build that is current but cannot be loaded is
# not rebuilt again and again (a rebuild would not change why the loader refuses it); the loader's
# reason is printed instead.
if ! err=$("$VENV/bin/python" -c "import dx12kit.dx12core" 2>&1); then
  log "dx12kit is built from the current sources but cannot load:"
  printf '%s\n' "$err" | tail -n 3 >&2
  log "(fix the cause above; rm $BSTAMP forces a rebuild)"
  exit 1
fi
log "ready ($([ "$TEST_DEPS" = 1 ] && echo 'with the test toolchain' || echo 'for the demo; scripts/test.sh adds the test toolchain'))"
