#!/usr/bin/env bash
# Sets everything up (scripts/bootstrap.sh: system packages, HLSL compiler, .venv, build) and runs
# the test suite on the real D3D12 device (vkd3d over lavapipe on Linux). Extra arguments go to pytest.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/bootstrap.sh"
cd "$ROOT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$ROOT/.venv/run}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
# The benchmarks run once each without timing (--benchmark-disable), so they cannot rot.
.venv/bin/python -m pytest tests benchmarks --benchmark-disable "$@"
# The device suite once more in validation mode (every Device(validate=True), tests/conftest.py),
# so every test's states are also checked by dx12kit's validation.
echo "== tests/device again with --validate"
exec .venv/bin/python -m pytest tests/device --validate "$@"
