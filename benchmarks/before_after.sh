#!/usr/bin/env bash
# Instructions per iteration of dx12kit's C++ recording loops beside raw D3D12, for COMMIT ("before")
# and the current build ("after"), in one session: benchmarks/callgrind_before_after.py's table.
#
#   benchmarks/before_after.sh COMMIT [callgrind_before_after.py options, e.g. --kinds draw,dispatch]
#
# Needs the current checkout built with the benchmark module (scripts/bootstrap.sh --test) and
# valgrind. COMMIT is checked out as a detached worktree in $DX12KIT_BEFORE_TREE (default
# /tmp/dx12kit-before-<commit>) and only its Python extension and benchmark module are built, with
# this checkout's .venv Python and ccache, into $DX12KIT_BEFORE_BUILD (default <tree>-build); its
# package is assembled in <build>/pkg/dx12kit (the Python sources of COMMIT plus the built dx12core).
# Remove the worktree afterwards with `git worktree remove <tree>`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
COMMIT=${1:?usage: benchmarks/before_after.sh COMMIT [options for callgrind_before_after.py]}
shift
SHORT=$(git -C "$ROOT" rev-parse --short "$COMMIT")
TREE=${DX12KIT_BEFORE_TREE:-/tmp/dx12kit-before-$SHORT}
BUILD=${DX12KIT_BEFORE_BUILD:-$TREE-build}
PY="$ROOT/.venv/bin/python"
[ -x "$PY" ] || { echo "before_after.sh: $PY missing: run scripts/bootstrap.sh --test first" >&2; exit 2; }
export PATH="$ROOT/.venv/bin:$PATH"   # cmake and ninja come from the venv (pip), not from apt
if [ ! -d "$TREE" ]; then
  git -C "$ROOT" worktree add --detach "$TREE" "$COMMIT"
fi
[ "$(git -C "$TREE" rev-parse HEAD)" = "$(git -C "$ROOT" rev-parse "$COMMIT^{commit}")" ] \
  || { echo "before_after.sh: $TREE is not at $COMMIT" >&2; exit 2; }
export CCACHE_BASEDIR="$TREE"
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$TREE" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDX12KIT_PYTHON=ON -DDX12KIT_BENCH=ON \
    -DDX12KIT_INSTALL=OFF -DPython_EXECUTABLE="$PY" -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)" >/dev/null
fi
ninja -C "$BUILD" dx12core dx12kit_bench
PKG="$BUILD/pkg"
rm -rf "$PKG" && mkdir -p "$PKG"
cp -r "$TREE/python/dx12kit" "$PKG/dx12kit"
ln -s "$(ls "$BUILD"/cpp/dx12core.*.so)" "$PKG/dx12kit/"
"$PY" -c "import sys; sys.path.insert(0, '$PKG'); import dx12kit, dx12kit.dx12core; assert dx12kit.__file__.startswith('$PKG'), dx12kit.__file__"
exec "$PY" "$ROOT/benchmarks/callgrind_before_after.py" --tree "before ($SHORT)=$PKG:$BUILD/bench" --tree "after=:" "$@"
