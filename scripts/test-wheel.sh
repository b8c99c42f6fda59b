#!/usr/bin/env bash
# The wheel as a user gets it: scripts/build-wheel.sh writes dist/dx12kit-*.whl (auditwheel-repaired,
# vkd3d and the HLSL compiler bundled, the Vulkan loader and driver the system's), then a fresh
# virtual environment outside the repository installs it with its test extras **with the network
# off** (a private network namespace, `unshare -n`; the dependencies' wheels come from the cache
# ~/.cache/dx12kit/wheels, filled online only when it lacks one), checks that the extension loads
# the bundled vkd3d (private copies without the executable-stack flag, which glibc 2.41+ refuses),
# that the bundled compiler is the one found and compiles with no set-up step (no per-user prefix,
# nothing on PATH), that a wheel without it gives the clear message, and runs the test suite (tests/)
# against the installed package, still offline and with an empty data home (so the per-user
# compiler prefix is not there: every compilation uses the bundled compiler): the suite is read from
# the checkout, dx12kit is imported from the venv's site-packages (tests/conftest.py checks that
# through DX12KIT_EXPECT_INSTALLED). Called by scripts/test.sh after the bootstrap;
# DX12KIT_SKIP_EXTRA_TESTS=1 skips it. Extra arguments go to pytest.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
log() { printf '[test-wheel] %s\n' "$*" >&2; }
if [ "${DX12KIT_SKIP_EXTRA_TESTS:-0}" = 1 ]; then log "skipped (DX12KIT_SKIP_EXTRA_TESTS=1)"; exit 0; fi
start=$(date +%s)
# DX12KIT_WHEEL: a wheel scripts/build-wheel.sh already wrote (scripts/test.sh builds it first).
if [ -n "${DX12KIT_WHEEL:-}" ]; then wheel=$DX12KIT_WHEEL
else wheel=$("$ROOT/scripts/build-wheel.sh" | tail -n1); fi
built=$(date +%s)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dx12kit-wheel-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
log "wheel: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB"

# offline CMD...: runs CMD in a new network namespace (no interface but a loopback), as root or, for
# another user, in a user namespace; where neither is allowed it says so and runs CMD with pip's
# index off only (PIP_NO_INDEX is set for every pip below anyway).
if unshare -n true 2>/dev/null; then NETNS=(unshare -n)
elif unshare -rn true 2>/dev/null; then NETNS=(unshare -rn)
else NETNS=(); log "WARNING: cannot make a network namespace here (unshare -n / -rn refused): the network stays on, pip's index off"; fi
offline() { "${NETNS[@]}" sh -c 'ip link set lo up 2>/dev/null; exec "$@"' sh "$@"; }

VENV="$WORK/venv"
python3 -m venv "$VENV"
PY="$VENV/bin/python"
# The dependencies' wheels (numpy, pillow, the test extras, mypy for tests/test_typing.py): from the
# cache, fetched online first only when the offline install finds one missing (new requirements).
WHEELS=${DX12KIT_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dx12kit/wheels}
mkdir -p "$WHEELS"
install() { offline env PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 "$PY" -m pip install -q --find-links "$WHEELS" "$wheel[test]" mypy; }
if ! install > "$WORK/pip.log" 2>&1; then
  log "filling the wheel cache $WHEELS (online: the cache lacks a dependency)"
  "$PY" -m pip download -q --disable-pip-version-check -d "$WHEELS" "$wheel[test]" mypy > "$WORK/pip-download.log" 2>&1 \
    || { cat "$WORK/pip-download.log" >&2; log "pip download of the dependencies failed"; exit 1; }
  rm -f "$WHEELS"/dx12kit-*.whl
  install > "$WORK/pip.log" 2>&1 || { cat "$WORK/pip.log" >&2; log "offline pip install of the wheel failed"; exit 1; }
fi
installed=$(date +%s)
log "wheel built in $(( built - start )) s, installed offline into a fresh venv in $(( installed - built )) s"

cd "$WORK"   # nothing from the checkout on sys.path
so=$("$PY" -c "import dx12kit.dx12core as m; print(m.__file__)")
case "$so" in "$VENV"/*) ;; *) log "dx12kit.dx12core was imported from $so, not the venv"; exit 1 ;; esac
deps=$(ldd "$so")   # (not piped into grep -q: an early exit would SIGPIPE ldd under pipefail)
grep -q "libvkd3d\.so\.1 => $VENV/.*/dx12kit/_libs/" <<<"$deps" \
  || { log "the extension does not load the bundled libvkd3d:"; echo "$deps" >&2; exit 1; }
PKG=$(dirname "$so")
# No set-up step: with no per-user prefix (an empty data home) and nothing on PATH, offline, the
# bundled compiler is found and compiles; `python -m dx12kit setup` reports it.
EMPTY="$WORK/empty"; mkdir -p "$EMPTY/bin" "$EMPTY/data"; ln -s "$(command -v python3)" "$EMPTY/bin/python3"
BARE=(env -u DX12KIT_HLSL_COMPILER -u DX12KIT_COMPILER_PREFIX XDG_DATA_HOME="$EMPTY/data" PATH="$EMPTY/bin"
      DX12KIT_SHADER_CACHE="$WORK/shader-cache")
out=$(offline env XDG_DATA_HOME="$EMPTY/data" "$PY" -m dx12kit setup 2>&1) || true
case "$out" in *"HLSL compiler found: $PKG/_compiler/vkd3d-compiler"*) ;;
  *) log "python -m dx12kit setup did not report the bundled compiler: $out"; exit 1 ;; esac
msg=$(offline "${BARE[@]}" "$PY" -c "import dx12kit
s = dx12kit.compile_hlsl('RWStructuredBuffer<uint> b : register(u0); [numthreads(1,1,1)] void main() { b[0] = 1; }')
print(dx12kit.find_compiler(), bytes(s.bytecode)[:4])" 2>&1) || true
case "$msg" in "$PKG/_compiler/vkd3d-compiler b'DXBC'") log "the bundled compiler compiles with no set-up step" ;;
  *) log "compile_hlsl with the bundled compiler alone failed: $msg"; exit 1 ;; esac
# A wheel without the bundled compiler (another architecture's): the error names the fix.
mv "$PKG/_compiler" "$PKG/_compiler.off"
msg=$("${BARE[@]}" "$PY" -c "import dx12kit
try:
    dx12kit.compile_hlsl('[numthreads(1,1,1)] void main() {}')
except dx12kit.Dx12Error as e:
    print(e)" 2>&1) || true
mv "$PKG/_compiler.off" "$PKG/_compiler"
case "$msg" in *"python -m dx12kit setup"*) ;; *) log "missing-compiler message lacks the fix: $msg"; exit 1 ;; esac

export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$WORK/run}; mkdir -p -m 700 "$XDG_RUNTIME_DIR"
offline env XDG_DATA_HOME="$EMPTY/data" DX12KIT_EXPECT_INSTALLED="$VENV" \
  "$ROOT/scripts/with-backtraces.sh" "$PY" -m pytest "$ROOT/tests" -p no:cacheprovider -q "$@"
log "installed-wheel suite passed offline ($(( $(date +%s) - installed )) s; $(( $(date +%s) - start )) s in all)"
