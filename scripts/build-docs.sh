#!/usr/bin/env bash
# Builds the documentation (docs/: the how-tos and the API reference generated from the installed
# package's docstrings) with Sphinx, warnings as errors. Needs the .venv of scripts/bootstrap.sh.
# Output: build/docs/html (not in git). Called by scripts/test.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY="$ROOT/.venv/bin/python"
[ -x "$PY" ] || { echo "[build-docs] no .venv: run scripts/bootstrap.sh first" >&2; exit 1; }
# -W: warnings are errors; --keep-going: report all of them; -E: reread everything (the docstrings
# come from the installed extension, which Sphinx's change tracking does not see).
"$PY" -m sphinx -b html -W --keep-going -E -q -d "$ROOT/build/docs/doctrees" "$ROOT/docs" "$ROOT/build/docs/html"
echo "[build-docs] docs written to build/docs/html/index.html" >&2
