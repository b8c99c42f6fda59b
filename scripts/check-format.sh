#!/usr/bin/env bash
# C++ layout check: clang-format with the checked-in .clang-format over the project's own C++
# (cpp/, tests/cpp/, tests/cpp_consumer/), skipping generated files (*.generated.hpp: embedded DXBC,
# written by scripts/gen-builtin-shaders.sh and tests/cpp/data/regenerate.sh) and external/.
#   scripts/check-format.sh          report every file clang-format would change (exit 1 if any)
#   scripts/check-format.sh --fix    reformat those files in place (the one mechanical reformat commit: run
#                                    it, check that a second run changes nothing, build, commit)
# .clang-format was tuned against clang-format 14 (Debian 12's `clang-format`); other versions lay
# out some constructs differently, so the check insists on 14 unless CLANG_FORMAT names another.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
log() { printf '[check-format] %s\n' "$*" >&2; }

if [ -n "${CLANG_FORMAT:-}" ]; then
  CF=$CLANG_FORMAT
else
  CF=$(command -v clang-format-14 || true)
  if [ -z "$CF" ]; then
    codename=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || true)
    if [ "$codename" != bookworm ] && ! command -v clang-format >/dev/null; then
      # Debian 13 packages clang-format 19 only, which lays some constructs out differently.
      log "SKIPPED: clang-format 14 is not packaged on ${codename:-this system}; the layout is checked on Debian 12 (CI)"
      exit 0
    fi
    CF=$(command -v clang-format || true)
    [ -n "$CF" ] || { log "clang-format not found (Debian 12: apt-get install clang-format-14)"; exit 1; }
  fi
  ver=$("$CF" --version | sed -nE 's/.*version ([0-9]+).*/\1/p')
  [ "$ver" = 14 ] || { log "$CF is clang-format $ver; .clang-format is tuned for 14 (set CLANG_FORMAT=$CF to use it anyway)"; exit 1; }
fi

# The files: tracked ones in a git checkout, else every one on disk.
list() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -- cpp tests/cpp tests/cpp_consumer
  else
    find cpp tests/cpp tests/cpp_consumer -type f
  fi | grep -E '\.(cpp|hpp|h)$' | grep -vE '\.generated\.hpp$|(^|/)external/' | sort
}
mapfile -t files < <(list)
[ ${#files[@]} -gt 0 ] || { log "no C++ files found under cpp/ and tests/"; exit 1; }

if [ "${1:-}" = --fix ]; then
  printf '%s\0' "${files[@]}" | xargs -0 "$CF" -i --style=file
  log "reformatted ${#files[@]} files with $("$CF" --version)"
  exit 0
fi

# One clang-format run over every file (--dry-run -Werror: each place it would change is an error,
# "file:line:col: error: code should be clang-formatted"); the report names the files and shows the first places.
report=$(mktemp)
trap 'rm -f "$report"' EXIT
if "$CF" --dry-run -Werror --style=file "${files[@]}" 2>"$report"; then
  log "${#files[@]} files formatted as .clang-format says"
  exit 0
fi
mapfile -t bad < <(sed -nE 's/^([^:]+):[0-9]+:[0-9]+: error: .*/\1/p' "$report" | uniq | sort -u)
head -n 30 "$report" >&2
log "${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says ($(grep -c ': error: ' "$report") places):"
printf '  %s\n' "${bad[@]}" >&2
log "fix: scripts/check-format.sh --fix"
exit 1
