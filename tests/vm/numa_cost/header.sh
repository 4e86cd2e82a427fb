#!/usr/bin/env bash
# qemu-plugin.h for the qemu that runs the VM tests. Debian ships the
# plugin API header in no binary package, so it is taken from Debian's
# source package of exactly the installed qemu's version (deb-src
# bookworm-backports, which scripts/setup.sh adds), downloaded once into
# CACHE/qemu-src/ and unpacked into OUT/qemu-plugin.h.
#   usage: header.sh CACHE OUT
# Exit 1 with one "numa_cost: error: ..." line when it cannot be had.
set -euo pipefail
cache=${1:?cache dir}; out=${2:?out dir}
die() { printf 'numa_cost: error: %s\n' "$*" >&2; exit 1; }

command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 is not installed: run 'make test-deps' as root"
# "QEMU emulator version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)"
ver=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not a Debian package here: put qemu-plugin.h of its version in $out by hand"
[ -f "$out/qemu-plugin.h" ] && [ "$(cat "$out/qemu-plugin.h.version" 2>/dev/null)" = "$ver" ] && exit 0

src=$(mkdir -p "$cache" && cd "$cache" && pwd)/qemu-src/${ver//:/_}
upstream=${ver#*:}; upstream=${upstream%-*}	# 10.0.2+ds
tarball=$src/qemu_$upstream.orig.tar.xz
if [ ! -f "$tarball" ]; then
	mkdir -p "$src"
	printf 'numa_cost: downloading the qemu %s source package for qemu-plugin.h (once, into %s)\n' "$ver" "$src" >&2
	# Only the upstream tarball is needed: the mirror has served it while
	# the .dsc of a backport answered 404, which fails apt-get as a whole.
	(cd "$src" && apt-get source --download-only -qq "qemu=$ver" > "$src/apt.log" 2>&1) || true
	[ -f "$tarball" ] ||
		die "apt-get source qemu=$ver brought no $tarball ($src/apt.log): 'make test-deps' adds the deb-src line (bookworm-backports) and runs apt-get update"
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h' ||
	die "no include/qemu/qemu-plugin.h in $tarball"
mkdir -p "$out"
install -m 0644 "$tmp"/*/include/qemu/qemu-plugin.h "$out/qemu-plugin.h"
printf '%s\n' "$ver" > "$out/qemu-plugin.h.version"
