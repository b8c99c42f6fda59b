#!/usr/bin/env bash
# Sets everything up (scripts/bootstrap.sh) and runs the demo: a compute pass generates an image, a
# render pass draws it with a sampler, and the result is written as a PNG (path printed).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/bootstrap.sh"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$ROOT/.venv/run}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
"$ROOT/.venv/bin/python" -m dx12kit info
exec "$ROOT/.venv/bin/python" -m dx12kit demo --out "${1:-$ROOT/dx12kit-demo.png}"
