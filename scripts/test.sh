#!/usr/bin/env bash
# Sets everything up (scripts/bootstrap.sh --test: system packages, HLSL compiler, .venv, build) and runs
# the test suite on the real D3D12 device (vkd3d over lavapipe on Linux). Extra arguments go to pytest.
# Before it: the C++ suite (native and under Wine), the installed C++ package (tests/cpp_consumer)
# and the installed-wheel suite; after it, the same two commands on Debian 13
# (scripts/test-debian13.sh). DX12KIT_SKIP_EXTRA_TESTS=1 skips those for a quick local run.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/bootstrap.sh" --test   # with the test toolchain (Wine, mingw-w64, doctest, gdb, debootstrap) and tools
cd "$ROOT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$ROOT/.venv/run}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
"$ROOT/scripts/test-cpp.sh"     # C++ suite natively, then cross-built for Windows and run under Wine
"$ROOT/scripts/test-cpp-package.sh"  # the C++ package installed into a fresh prefix; tests/cpp_consumer built against it and run (native, Wine)
"$ROOT/scripts/test-wheel.sh"   # the auditwheel-repaired wheel, installed into a fresh venv, runs tests/
"$ROOT/scripts/build-docs.sh"    # the documentation (docs/, API reference from the docstrings), warnings as errors
"$ROOT/scripts/check-typing.sh"   # mypy --strict on the package and its stubs; stubtest against the extension
"$ROOT/scripts/lint.sh"           # ruff (pyproject.toml [tool.ruff])
# The benchmarks run once each without timing (--benchmark-disable), so they cannot rot; each checks
# what it computed.
# scripts/with-backtraces.sh: a crashing test process prints the C backtraces of all its threads.
# DX12KIT_SOURCE_SUITE=0 skips this run (the Debian 13 step does: its installed-wheel suite runs the
# same tests/ there, and CI's time is finite).
if [ "${DX12KIT_SOURCE_SUITE:-1}" != 0 ]; then
  "$ROOT/scripts/with-backtraces.sh" .venv/bin/python -m pytest tests benchmarks --benchmark-disable "$@"
else
  echo "== tests and benchmarks from the source build: skipped (DX12KIT_SOURCE_SUITE=0; the installed-wheel suite ran tests/)"
fi
# The device suite once more in validation mode (every Device(validate=True), tests/conftest.py),
# so every test's states are also checked by dx12kit's validation.
# DX12KIT_VALIDATE_PASS=0 skips it (the Debian 13 step does: validation is dx12kit's own bookkeeping,
# the same on every platform, and the host runs it).
if [ "${DX12KIT_VALIDATE_PASS:-1}" != 0 ]; then
  echo "== tests/device again with --validate"
  "$ROOT/scripts/with-backtraces.sh" .venv/bin/python -m pytest tests/device --validate "$@"
else
  echo "== tests/device with --validate: skipped (DX12KIT_VALIDATE_PASS=0)"
fi
# Then the device suite once more against a build with AddressSanitizer + UBSan (its own build
# directory; any sanitizer report fails). DX12KIT_SANITIZERS=0 skips it (quick local runs).
if [ "${DX12KIT_SANITIZERS:-1}" != 0 ]; then
  "$ROOT/scripts/test-sanitizers.sh"
fi
# Last, the README's two commands on Debian 13 (glibc 2.41, Python 3.13, Mesa 25) in a debootstrap
# root cached under ~/.cache/dx12kit/debian13: a fresh clone runs demo.sh and test.sh there (the
# wheel built and tested with Debian 13's own Python). Skipped, saying so, without root/debootstrap.
"$ROOT/scripts/test-debian13.sh"
