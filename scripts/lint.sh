#!/usr/bin/env bash
# Lint checks CI runs (scripts/test.sh): ruff on the Python code (the rules in pyproject.toml's
# [tool.ruff]: bugs such as undefined names and unused imports, not layout), and the C++ layout
# (scripts/check-format.sh: clang-format 14 with the checked-in .clang-format).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
echo "== ruff check (pyproject.toml [tool.ruff])"
.venv/bin/ruff check python tests benchmarks scripts examples
echo "== clang-format (.clang-format)"
"$ROOT/scripts/check-format.sh"
