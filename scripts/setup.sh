#!/usr/bin/env bash
# Install everything numalens needs on a fresh Debian 12 (bookworm) machine.
# Idempotent: a second run with everything present does no network I/O.
# Must run as root. Adds bookworm-backports and trixie-backports binary
# suites (Debian pins both at priority 100, so nothing is upgraded from them
# unless asked with -t) and a trixie deb-src line (source only).
set -euo pipefail

log() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get needs it): sudo $0"

SRC=/etc/apt/sources.list.d/numalens.list
want_sources='deb http://deb.debian.org/debian bookworm-backports main
deb http://deb.debian.org/debian trixie-backports main
deb-src http://deb.debian.org/debian trixie main'

# Binary packages from bookworm (default priority).
PKGS_MAIN="clang-19 llvm-19 libelf-dev zlib1g-dev pkg-config make gcc
  libncurses-dev libcmocka-dev libcjson-dev libmicrohttpd-dev
  qemu-system-x86 busybox-static cpio zstd xz-utils kmod
  prometheus curl iproute2 stress-ng dpkg-dev tmux"
# From bookworm-backports: bpftool >= 7.5 (skeletons for struct_ops).
PKGS_BPO="bpftool"

missing=()
for p in $PKGS_MAIN $PKGS_BPO; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

updated=0
if [ ! -f "$SRC" ] || [ "$(cat "$SRC")" != "$want_sources" ]; then
	log "adding Debian backports suites to $SRC"
	printf '%s\n' "$want_sources" > "$SRC"
	apt-get update -qq
	updated=1
fi

if [ ${#missing[@]} -gt 0 ]; then
	[ $updated = 1 ] || apt-get update -qq
	log "installing: ${missing[*]}"
	main=(); bpo=()
	for p in "${missing[@]}"; do
		case " $PKGS_BPO " in *" $p "*) bpo+=("$p");; *) main+=("$p");; esac
	done
	export DEBIAN_FRONTEND=noninteractive
	[ ${#main[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${main[@]}" >/dev/null
	[ ${#bpo[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends -t bookworm-backports "${bpo[@]}" >/dev/null
fi

# bpftool must be >= 7.5 (PLATFORM.md).
bpftool version >/dev/null 2>&1 || die "bpftool is not runnable after install"
log "toolchain ready: $(clang-19 --version | head -1); $(bpftool version | head -1)"
