#!/usr/bin/env bash
# Cold ./scripts/demo.sh in a fresh copy of a bare Debian root (the one scripts/test-debian13.sh caches;
# DX12KIT_DEBIAN_SUITE=bookworm makes the Debian 12 one), with no caches (apt, pip, ccache) mounted:
# what a new machine's first run does. The bare root is copied, never entered. Needs root.
#   scripts/probes/cold-demo.sh [SRC_CHECKOUT [WORK_ROOT [LOG]]]
# The bootstrap's log lines give wall and CPU seconds per phase; the last lines the total (`times`).
# DX12KIT_COLD_SCRIPT=test.sh runs the cold ./scripts/test.sh instead (the whole CI run).
# On a shared machine compare CPU seconds: idle wall ~ max(CPU / 2 for the build, the serial phases).
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
SRC=${1:-$(cd "$(dirname "$0")/../.." && pwd)}; R=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/dx12kit/cold-demo-root}; LOG=${3:-/dev/null}
BARE=${DX12KIT_BARE_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/dx12kit/bookworm/bare}
[ -f "$BARE/.complete" ] || { echo "no bare root at $BARE (DX12KIT_DEBIAN_SUITE=bookworm scripts/test-debian13.sh makes it)" >&2; exit 1; }
MIRROR=http://deb.debian.org/debian; SUITE=bookworm
rm -rf "$R"; cp -a "$BARE" "$R"; rm -f "$R/.complete"
# shellcheck source=../lib/debian-root.sh
. "$(dirname "$0")/../lib/debian-root.sh"
debian_root_apt_sources "$R" "$SUITE" "$MIRROR"
debian_root_host_network "$R"
git clone -q --no-hardlinks "$SRC" "$R/root/dx12kit"
git -C "$R/root/dx12kit" log -1 --format='%h %s' | cut -c1-100
pass=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb
      PIP_DEFAULT_TIMEOUT=180 PIP_CERT=/etc/ssl/certs/ca-certificates.crt COLD_SCRIPT="${DX12KIT_COLD_SCRIPT:-demo.sh}")
# EXTRA_ENV: more VAR=VALUE words for the inner environment (split on white space).
# shellcheck disable=SC2206
pass+=(${EXTRA_ENV:-})
echo "load at start: $(cat /proc/loadavg)" | tee "$LOG"
# shellcheck disable=SC2016  # (the inner shells expand these)
unshare -m --propagation private /bin/sh -c '
  set -e; R="$1"; shift
  mount --bind "$R" "$R"   # the root a mount point, as on a machine (unshare inside needs it: test.sh'"'"'s Debian 13 step)
  mount -t proc proc "$R/proc"; mount --rbind /dev "$R/dev"; mount --rbind /sys "$R/sys"; mount -t tmpfs tmpfs "$R/tmp"
  exec chroot "$R" /usr/bin/env -i "$@"' sh "$R" "${pass[@]}" /bin/bash -c '
  cd /root/dx12kit; t0=$(date +%s)
  ./scripts/$COLD_SCRIPT; rc=$?
  echo "[cold] $COLD_SCRIPT exit $rc after $(( $(date +%s) - t0 )) s"; times' 2>&1 | tee -a "$LOG"
echo "load at end: $(cat /proc/loadavg)" | tee -a "$LOG"
