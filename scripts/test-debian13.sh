#!/usr/bin/env bash
# The README's two commands on Debian 13 (trixie: glibc 2.41, Python 3.13, Mesa 25), in a root
# filesystem made with debootstrap, so that "runs on a fresh Debian (12 or newer)" stays true.
#
#   1. A bare root: `debootstrap --variant=minbase` plus what a Debian cloud image carries that
#      minbase lacks (python3 for cloud-init, sudo, ca-certificates, curl). Made once and cached,
#      never entered: $CACHE/bare.
#   2. The working root, $CACHE/root: a copy of the bare root. A warm run reuses the root an earlier
#      run prepared (its system packages, HLSL compiler prefix, pip and compiler caches, and the
#      clone with its .venv/ and build/, brought to this HEAD); DX12KIT_DEBIAN13_FRESH=1 starts
#      again from the bare root with a fresh clone (what a new machine's first run does by nature).
#      The root's apt sources, resolver and CA bundle are the host's settings.
#   3. Inside it, as root (the bootstrap uses sudo otherwise): the clone of this checkout's HEAD
#      runs `./scripts/demo.sh` (the demo PNG is checked against the one rendered on this machine)
#      and `./scripts/test.sh`: the C++ suite natively and under Debian 13's Wine, the wheel built
#      with Debian 13's own Python (3.13) and installed into a fresh venv there with its suite, the
#      docs. The whole Python suite runs there once, against the installed wheel; the source-tree
#      run of the same tests, the --validate and the sanitizer passes run on the host only
#      (DX12KIT_SOURCE_SUITE=0 DX12KIT_VALIDATE_PASS=0 DX12KIT_SANITIZERS=0 inside), which keeps a
#      warm CI run inside its 15 minutes.
#
# Mounts live in a private mount namespace (unshare -m): they vanish when this script ends, however
# it ends. Three caches outlive the working root, so that a fresh root (DX12KIT_DEBIAN13_FRESH=1)
# downloads and compiles no more than it must: $CACHE/caches/{pip,ccache,apt-archives}, mounted at
# the root's /root/.cache/pip, /root/.ccache and /var/cache/apt/archives. Needs root (or sudo), debootstrap, unshare and chroot; where any is missing this step
# says SKIPPED and why, loudly, and exits 0 (it never passes silently). DX12KIT_DEBIAN13=0 skips it
# on purpose (as does DX12KIT_SKIP_EXTRA_TESTS=1). Called by scripts/test.sh; extra arguments go to
# the inner test.sh (pytest).
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# DX12KIT_DEBIAN_SUITE=bookworm runs the same check in a fresh Debian 12 root (by hand: CI's host is
# Debian 12 already); its root is cached apart (…/dx12kit/bookworm).
SUITE=${DX12KIT_DEBIAN_SUITE:-trixie}
CACHE=${DX12KIT_DEBIAN13_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dx12kit/$([ "$SUITE" = trixie ] && echo debian13 || echo "$SUITE")}
BARE="$CACHE/bare"
R="$CACHE/root"
log() { printf '[debian13] %s\n' "$*" >&2; }
skip() { log "SKIPPED: $*"; log "(the Debian 13 check did NOT run; see scripts/test-debian13.sh)"; exit 0; }

[ "${DX12KIT_DEBIAN13:-1}" = 0 ] && skip "DX12KIT_DEBIAN13=0"
[ "${DX12KIT_SKIP_EXTRA_TESTS:-0}" = 1 ] && skip "DX12KIT_SKIP_EXTRA_TESTS=1"
SUDO=""
if [ "$(id -u)" != 0 ]; then
  # shellcheck disable=SC2015  # (skips when either fails)
  command -v sudo >/dev/null && sudo -n true 2>/dev/null || skip "needs root or passwordless sudo (debootstrap, chroot, mount)"
  SUDO="sudo -n"
fi
for t in unshare chroot; do command -v "$t" >/dev/null || skip "no $t"; done
if ! command -v debootstrap >/dev/null && [ ! -x /usr/sbin/debootstrap ]; then
  skip "debootstrap is not installed (scripts/bootstrap.sh installs it on Debian)"
fi
# shellcheck source=lib/debian-root.sh
. "$ROOT/scripts/lib/debian-root.sh"
MIRROR=$(debian_host_mirror)   # (the deb822 sources of this machine, else Debian's default)
start=$(date +%s)

# ---------------------------------------------------------------- 1. bare root (cached)
if [ ! -f "$BARE/.complete" ]; then
  log "creating the bare $SUITE root with debootstrap ($MIRROR) in $BARE"
  $SUDO rm -rf "$BARE"; mkdir -p "$CACHE"
  $SUDO debootstrap --variant=minbase --include=python3,sudo,ca-certificates,curl \
    "$SUITE" "$BARE" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1 \
    || { tail -n 20 "$CACHE/debootstrap.log" >&2; log "debootstrap failed"; exit 1; }
  $SUDO touch "$BARE/.complete"
fi
# ---------------------------------------------------------------- 2. working root
if [ "${DX12KIT_DEBIAN13_FRESH:-0}" = 1 ] || [ ! -f "$R/.complete" ]; then
  log "working root from the bare root (a fresh Debian 13 machine)"
  $SUDO rm -rf "$R"
  $SUDO cp -a "$BARE" "$R"
  debian_root_apt_sources "$R" "$SUITE" "$MIRROR"
  $SUDO touch "$R/.complete"
  fresh=1
else
  log "reusing the root an earlier run prepared ($R; DX12KIT_DEBIAN13_FRESH=1 starts from the bare root)"
  fresh=0
fi
prepared=$(date +%s)
# The host's network settings (resolver, CA bundle, pip's and apt's settings for this machine's
# package registries), as a cloud machine's image would carry them.
debian_root_host_network "$R"
# The clone: a fresh one of this checkout's HEAD (what CI tests), made by the host's git (a cloud
# image carries no git; the bootstrap installs it), whenever the root is new. A warm run brings the
# clone an earlier run left to this HEAD (fetch, hard reset, clean) and keeps its .venv/ and build/,
# as a developer's clone would: the bootstrap then decides from the sources what to rebuild.
CLONE="$R/root/dx12kit"
if [ "$fresh" = 1 ] || [ ! -d "$CLONE/.git" ]; then
  $SUDO rm -rf "$CLONE"
  $SUDO git clone -q --no-hardlinks "$ROOT" "$CLONE"
else
  $SUDO git -C "$CLONE" fetch -q "$ROOT" HEAD
  $SUDO git -C "$CLONE" reset -q --hard FETCH_HEAD
  $SUDO git -C "$CLONE" clean -q -ffdx -e /.venv -e /build
fi
log "clone at $(git -C "$CLONE" log -1 --format='%h %s' | cut -c1-80)"
if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ]; then
  log "note: uncommitted changes in $ROOT are not in the clone (HEAD is tested)"
fi
# The demo PNG rendered on this machine (Debian 12's stack when run from CI), to compare with Debian
# 13's: the same pixels are expected, byte for byte.
REF=""
if [ -x "$ROOT/.venv/bin/python" ]; then
  REF="$CACHE/host-demo.png"
  XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$ROOT/.venv/run} "$ROOT/.venv/bin/python" -m dx12kit demo --out "$REF" >/dev/null
fi

# Variables passed through (network and pip settings of this machine).
# DX12KIT_DEBIAN13_JOBS: the inner test.sh's DX12KIT_TEST_JOBS (scripts/test.sh passes 1 when this
# step runs beside other steps, 2 when it runs alone).
pass=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb
      DX12KIT_SANITIZERS=0 DX12KIT_VALIDATE_PASS=0 DX12KIT_SOURCE_SUITE=0 DX12KIT_DEBIAN13=0
      "DX12KIT_TEST_JOBS=${DX12KIT_DEBIAN13_JOBS:-2}")
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY PIP_INDEX_URL PIP_EXTRA_INDEX_URL \
         PIP_DEFAULT_TIMEOUT PIP_CERT SSL_CERT_FILE REQUESTS_CA_BUNDLE CURL_CA_BUNDLE PIP_DISABLE_PIP_VERSION_CHECK; do
  [ -n "${!v:-}" ] && pass+=("$v=${!v}")
done
inner_args=$(printf ' %q' "$@")

# ---------------------------------------------------------------- 3. the README's two commands
log "running ./scripts/demo.sh and ./scripts/test.sh in the $SUITE root"
set +e
# shellcheck disable=SC2016  # (the inner shells expand these)
$SUDO unshare -m --propagation private /bin/sh -c '
  set -e; R="$1"; C="$2"; shift 2
  mount -t proc proc "$R/proc"
  mount --rbind /dev "$R/dev"
  mount --rbind /sys "$R/sys"
  mount -t tmpfs tmpfs "$R/tmp"
  for c in pip:root/.cache/pip ccache:root/.ccache apt-archives:var/cache/apt/archives; do
    mkdir -p "$C/${c%%:*}" "$R/${c#*:}"; mount --bind "$C/${c%%:*}" "$R/${c#*:}"
  done
  exec chroot "$R" /usr/bin/env -i "$@"' sh "$R" "$CACHE/caches" "${pass[@]}" /bin/bash -c "
  set -euo pipefail
  cd /root/dx12kit
  echo '[debian13] inside:' \$(. /etc/os-release; echo \$PRETTY_NAME), glibc \$(ldd --version | head -n1 | awk '{print \$NF}'), \$(python3 --version) >&2
  t0=\$(date +%s)
  ./scripts/demo.sh
  t1=\$(date +%s)
  echo \"[debian13] demo.sh took \$((t1 - t0)) s\" >&2
  ./scripts/test.sh$inner_args
  echo \"[debian13] test.sh took \$(( \$(date +%s) - t1 )) s\" >&2
"
status=$?
set -e
end=$(date +%s)
if [ $status = 0 ] && [ -n "$REF" ]; then
  if cmp -s "$REF" "$R/root/dx12kit/dx12kit-demo.png"; then log "demo.png is byte-identical to this machine's"
  else log "demo.png differs from this machine's ($REF)"; status=1; fi
fi
log "Debian 13 check: $( [ $status = 0 ] && echo passed || echo FAILED ) in $((end - start)) s" \
    "($( [ $fresh = 1 ] && echo 'from the bare root' || echo 'reused root' ); root ready after $((prepared - start)) s)"
exit $status
