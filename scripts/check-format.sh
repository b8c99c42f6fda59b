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

# Which clang-format: CLANG_FORMAT if set (any version, on purpose); else clang-format-14; else
# `clang-format` if it is version 14. Without a 14: on Debian 12 (where CI runs and .clang-format's
# version is packaged: scripts/bootstrap.sh --test installs clang-format-14) that is an error;
# elsewhere (Debian 13 packages clang-format 19 only, which lays some constructs out differently)
# the check says SKIPPED and why, whatever other clang-format is installed, and exits 0.
if [ -n "${CLANG_FORMAT:-}" ]; then
  CF=$CLANG_FORMAT
else
  CF=$(command -v clang-format-14 || true)
  if [ -z "$CF" ]; then
    other=$(command -v clang-format || true)
    ver=""
    if [ -n "$other" ]; then
      ver=$( { "$other" --version 2>/dev/null || true; } | sed -nE 's/.*version ([0-9]+).*/\1/p')
    fi
    if [ "$ver" = 14 ]; then
      CF=$other
    else
      # shellcheck source=/dev/null
      codename=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || true)
      if [ -n "$other" ]; then found="$other is clang-format ${ver:-of unknown version}"
      else found="no clang-format installed"; fi
      if [ "$codename" = bookworm ]; then
        log "clang-format 14 not found ($found): apt-get install clang-format-14 (scripts/bootstrap.sh --test does)"
        exit 1
      fi
      log "SKIPPED: clang-format 14, which .clang-format is tuned for, is not installed on ${codename:-this system} ($found);" \
          "the layout is checked on Debian 12 (CI). CLANG_FORMAT=PATH runs the check with another version anyway."
      exit 0
    fi
  fi
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
