#!/usr/bin/env bash
# Build the guest initramfs (cpio newc, uncompressed) on the fly.
#   usage: tests/vm/initramfs.sh OUT.cpio KERNEL_DIR [BINARY...]
# KERNEL_DIR is kernel.sh's output (modules/ go to /nl/modules). Each
# BINARY (static executables: numalens, nlwork, ...) goes to /nl/bin, a
# BPF object (*.bpf.o, for the verifier budget test) to /nl/bpf; a
# missing one is skipped with a note (tests that need it say so). Also
# packed: busybox-static (/bin, with its applet links), the tmux-256color
# terminfo entry (from ncurses-base), tests/vm/guest/init
# as /init, tests/vm/guest/lib.sh as /nl/lib.sh, tests/vm/tests/*.sh (or
# $NL_VM_TESTS_DIR/*.sh) as /nl/tests/. Exit 0 with OUT written; 1 with a message on stderr.
set -euo pipefail
out=${1:?out}; kdir=${2:?kernel dir}; shift 2
here=$(cd "$(dirname "$0")" && pwd)
die() { printf 'initramfs: error: %s\n' "$*" >&2; exit 1; }

bb=''
for c in /bin/busybox "$(command -v busybox || true)"; do
	# a static executable has no program interpreter (readelf: binutils)
	if [ -x "$c" ] && ! readelf -l "$c" | grep -q 'INTERP'; then bb=$c; break; fi
done
[ -n "$bb" ] || die "no static busybox: install busybox-static (make deps)"
command -v cpio >/dev/null || die "no cpio: install cpio (make deps)"

root=$(mktemp -d); trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc,nl/bin,nl/bpf,nl/tests,nl/modules}
cp "$bb" "$root/bin/busybox"
for a in $("$bb" --list); do
	[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
done
cp "$here/guest/init" "$root/init" && chmod 755 "$root/init"
cp "$here/guest/lib.sh" "$root/nl/lib.sh"
cp "${NL_VM_TESTS_DIR:-$here/tests}"/*.sh "$root/nl/tests/" 2>/dev/null || true
if [ -d "$kdir/modules" ]; then cp "$kdir"/modules/* "$root/nl/modules/"; fi
for b in "$@"; do
	if [ "${b%.bpf.o}" != "$b" ] && [ -f "$b" ]; then cp "$b" "$root/nl/bpf/"
	elif [ -x "$b" ]; then
		cp "$b" "$root/nl/bin/"
		# without debug info (symbols kept): 6 of 22 MB the guest unpacks
		strip -g "$root/nl/bin/$(basename "$b")" 2>/dev/null || true
	else printf 'initramfs: note: %s not built, not in the guest\n' "$b" >&2; fi
done
# The terminal description the full-screen tests run under (the guest's
# static ncurses reads terminfo at run time; the host replays what it drew
# into tmux, which this entry describes).
for ti in /lib/terminfo/t/tmux-256color /usr/share/terminfo/t/tmux-256color; do
	if [ -f "$ti" ]; then
		mkdir -p "$root/lib/terminfo/t" && cp "$ti" "$root/lib/terminfo/t/"
		break
	fi
done
# /dev/console for init's first output (devtmpfs comes later); needs root.
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
mkdir -p "$(dirname "$out")"
# Uncompressed: qemu copies it into guest memory as it is, while every guest
# would inflate a gzip one under TCG (about 2.5 s of CPU per boot, of 11).
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
