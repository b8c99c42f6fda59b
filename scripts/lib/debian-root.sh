# Shared by the scripts that prepare a Debian root filesystem for chroot (scripts/test-debian13.sh,
# scripts/probes/cold-demo.sh): its apt sources and the host's network settings. Sourced, not run:
#   . "$ROOT/scripts/lib/debian-root.sh"
# The functions write into the root as root: through $SUDO when the caller sets it (e.g. "sudo -n"),
# directly otherwise. Each returns 0 when it did its work, and fails (set -e stops the caller) only
# when a copy or write fails: a setting the host does not have is simply not copied.
# shellcheck shell=bash

# debian_host_mirror: the Debian mirror this machine's own apt uses (its deb822 sources), else
# Debian's default.
debian_host_mirror() {
  local m
  m=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/* *$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}

# debian_root_apt_sources ROOT SUITE MIRROR: ROOT's apt sources (deb822) name SUITE, its updates
# and its security suite on MIRROR (MIRROR ends in /debian; security is its sibling
# /debian-security); the one-line sources.list debootstrap wrote is removed.
debian_root_apt_sources() {
  local r=$1 suite=$2 mirror=$3
  ${SUDO:-} rm -f "$r/etc/apt/sources.list"
  ${SUDO:-} tee "$r/etc/apt/sources.list.d/debian.sources" >/dev/null <<SOURCES
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
}

# debian_root_host_network ROOT: the host's settings for reaching the network and the package
# registries, as a cloud machine's image would carry them: resolver, CA bundle (this machine's TLS),
# pip's configuration, and the files of apt.conf.d that set Acquire:: options (proxies, a mirror's
# frozen Release dates) with apt's auth.conf.d.
debian_root_host_network() {
  local r=$1 f
  ${SUDO:-} cp /etc/resolv.conf "$r/etc/resolv.conf"
  if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    ${SUDO:-} cp /etc/ssl/certs/ca-certificates.crt "$r/etc/ssl/certs/ca-certificates.crt"
  fi
  if [ -f /etc/pip.conf ]; then ${SUDO:-} cp /etc/pip.conf "$r/etc/pip.conf"; fi
  for f in /etc/apt/apt.conf.d/*; do
    if [ -f "$f" ] && grep -q '^ *Acquire::' "$f"; then ${SUDO:-} cp "$f" "$r/etc/apt/apt.conf.d/"; fi
  done
  if [ -d /etc/apt/auth.conf.d ]; then ${SUDO:-} cp -r /etc/apt/auth.conf.d/. "$r/etc/apt/auth.conf.d/" 2>/dev/null || true; fi
  return 0
}
