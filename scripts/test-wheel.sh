#!/usr/bin/env bash
# The wheel as a user gets it: scripts/build-wheel.sh writes dist/dx12kit-*.whl (auditwheel-repaired,
# vkd3d bundled, the Vulkan loader and driver the system's), then a fresh virtual environment
# outside the repository installs it with its test extras, checks that the extension loads the
# bundled vkd3d (private copies without the executable-stack flag, which glibc 2.41+ refuses),
# that `python -m dx12kit setup` finds the compiler and that a missing compiler gives
# the clear message, and runs the test suite (tests/) against the installed package: the suite is
# read from the checkout, dx12kit is imported from the venv's site-packages (tests/conftest.py
# checks that through DX12KIT_EXPECT_INSTALLED). Called by scripts/test.sh after the bootstrap;
# DX12KIT_SKIP_EXTRA_TESTS=1 skips it. Extra arguments go to pytest.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
log() { printf '[test-wheel] %s\n' "$*" >&2; }
if [ "${DX12KIT_SKIP_EXTRA_TESTS:-0}" = 1 ]; then log "skipped (DX12KIT_SKIP_EXTRA_TESTS=1)"; exit 0; fi
start=$(date +%s)
wheel=$("$ROOT/scripts/build-wheel.sh" | tail -n1)
built=$(date +%s)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dx12kit-wheel-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
VENV="$WORK/venv"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q "$wheel[test]" mypy > "$WORK/pip.log" 2>&1 \
  || { cat "$WORK/pip.log" >&2; log "pip install of the wheel failed"; exit 1; }
installed=$(date +%s)
log "wheel built in $(( built - start )) s, installed into a fresh venv in $(( installed - built )) s"

cd "$WORK"   # nothing from the checkout on sys.path
PY="$VENV/bin/python"
so=$("$PY" -c "import dx12kit.dx12core as m; print(m.__file__)")
case "$so" in "$VENV"/*) ;; *) log "dx12kit.dx12core was imported from $so, not the venv"; exit 1 ;; esac
deps=$(ldd "$so")   # (not piped into grep -q: an early exit would SIGPIPE ldd under pipefail)
grep -q "libvkd3d\.so\.1 => $VENV/.*/dx12kit/_libs/" <<<"$deps" \
  || { log "the extension does not load the bundled libvkd3d:"; echo "$deps" >&2; exit 1; }
"$PY" -m dx12kit setup
# Without any compiler: the error names the fix (an empty data home, a PATH with no vkd3d-compiler).
EMPTY="$WORK/empty"; mkdir -p "$EMPTY/bin"; ln -s "$(command -v python3)" "$EMPTY/bin/python3"
msg=$(env -u DX12KIT_HLSL_COMPILER -u DX12KIT_COMPILER_PREFIX XDG_DATA_HOME="$EMPTY" PATH="$EMPTY/bin" \
      "$PY" -c "import dx12kit
try:
    dx12kit.compile_hlsl('[numthreads(1,1,1)] void main() {}')
except dx12kit.Dx12Error as e:
    print(e)" 2>&1)
case "$msg" in *"python -m dx12kit setup"*) ;; *) log "missing-compiler message lacks the fix: $msg"; exit 1 ;; esac

export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$WORK/run}; mkdir -p -m 700 "$XDG_RUNTIME_DIR"
DX12KIT_EXPECT_INSTALLED="$VENV" "$ROOT/scripts/with-backtraces.sh" "$PY" -m pytest "$ROOT/tests" -p no:cacheprovider -q "$@"
log "installed-wheel suite passed ($(( $(date +%s) - installed )) s; $(( $(date +%s) - start )) s in all)"
