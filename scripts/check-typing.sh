#!/usr/bin/env bash
# The typing checks: mypy --strict on the type stubs (python/dx12kit/dx12core/*.pyi,
# alloc.pyi) and on the package, then stubtest: the stubs against the built extension (allowlist:
# scripts/stubtest-allowlist.txt, each entry with its reason). tests/typing/ is checked by tests/test_typing.py.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY="$ROOT/.venv/bin/python"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
echo "== mypy --strict: the package and its stubs (python/dx12kit)"
(cd "$ROOT/python" && "$PY" -m mypy --strict --cache-dir "$cache/mypy" -p dx12kit)
echo "== stubtest: dx12kit.dx12core and dx12kit.alloc against the built extension"
# MYPYPATH: the stubs of this checkout (the installed copy is the same once built).
(cd "$cache" && MYPYPATH="$ROOT/python" "$PY" -m mypy.stubtest \
    --allowlist "$ROOT/scripts/stubtest-allowlist.txt" dx12kit.dx12core dx12kit.alloc)
