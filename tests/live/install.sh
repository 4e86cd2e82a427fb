#!/usr/bin/env bash
# `make install` into a scratch DESTDIR puts the binaries, man pages,
# completion, unit, dashboard and docs there; `make uninstall` with the
# same PREFIX and DESTDIR takes every one of them away again: no file or
# link is left, nor numalens' own directories.
. "$(dirname "$0")/common.bash"

root=$TMP/root
for prefix in /usr/local /usr; do
	rm -rf "$root"
	make -s install B="$B" DESTDIR="$root" PREFIX=$prefix > "$TMP/make" 2>&1 ||
		fail "make install PREFIX=$prefix failed: $(tail -5 "$TMP/make")"
	for f in sbin/numalens sbin/scx_cling share/man/man8/numalens.8 share/man/man8/numalens-top.8 \
		share/man/man8/scx_cling.8 share/bash-completion/completions/numalens \
		share/bash-completion/completions/scx_cling lib/systemd/system/numalens-export.service \
		share/numalens/dashboards/numalens.json share/doc/numalens/README.md \
		share/doc/numalens/docs/troubleshooting.md; do
		[ -e "$root$prefix/$f" ] || fail "make install PREFIX=$prefix did not install $prefix/$f"
	done
	n=$(find "$root" \( -type f -o -type l \) | wc -l)
	note "PREFIX=$prefix: $n files and links installed"

	make -s uninstall B="$B" DESTDIR="$root" PREFIX=$prefix > "$TMP/make" 2>&1 ||
		fail "make uninstall PREFIX=$prefix failed: $(tail -5 "$TMP/make")"
	left=$(find "$root" \( -type f -o -type l \) | sed "s|^$root||")
	[ -z "$left" ] || fail "make uninstall PREFIX=$prefix left files behind: $(head -5 <<< "$left" | tr '\n' ' ')"
	for d in share/numalens share/doc/numalens; do
		[ ! -e "$root$prefix/$d" ] || fail "make uninstall PREFIX=$prefix left the directory $prefix/$d"
	done
	note "PREFIX=$prefix: make uninstall removed all $n"
done
exit 0
