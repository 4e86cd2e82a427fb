#!/usr/bin/env bash
# Build the static libraries numalens links that bookworm lacks, from
# Debian's source packages (deb-src trixie, added by scripts/setup.sh):
#  - libbpf >= 1.5: bookworm's libbpf-dev is 1.1 (1.4.6 in backports), too
#    old for the skeletons bpftool 7.5 emits (shared/PLATFORM.md);
#  - cJSON: Debian ships only libcjson.so, and the VM guest needs static
#    binaries.
#  - libmicrohttpd (numalens export): Debian's libmicrohttpd.a is built
#    with HTTPS, so a static link drags in gnutls and p11-kit, which has no
#    static library; we build it without HTTPS (the exporter serves plain
#    HTTP, like every Prometheus exporter behind its own TLS proxy).
#   usage: build-deps.sh CACHE_DIR OUT_DIR
# Produces OUT_DIR/lib/{libbpf.a,libcjson.a,libmicrohttpd.a} and
# OUT_DIR/include/{bpf,cjson,microhttpd.h}.
# Source tarballs stay in CACHE_DIR, so a rebuild needs no network.
set -euo pipefail
cache=${1:?cache dir}; out=${2:?out dir}
die() { printf 'build-deps: error: %s\n' "$*" >&2; exit 1; }
mkdir -p "$cache" "$out/lib" "$out/include"
cache=$(cd "$cache" && pwd); out=$(cd "$out" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# fetch_src PKG: print the newest cached orig tarball of PKG, fetching it once.
fetch_src() {
	local t
	# (not the detached signature some packages ship beside the tarball)
	t=$(ls "$cache/$1"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | sort -V | tail -1 || true)
	if [ -z "$t" ]; then
		printf 'build-deps: fetching the %s source package\n' "$1" >&2
		(cd "$cache" && apt-get source --download-only -qq "$1" >/dev/null 2>&1) ||
			die "apt-get source $1 failed: on Debian 12 run 'make deps' as root (it adds the deb-src line); elsewhere put the $1 source tarball in $cache as $1_VERSION.orig.tar.gz (libbpf >= 1.5)"
		t=$(ls "$cache/$1"_*.orig.tar.* | grep -v '\.asc$' | sort -V | tail -1)
	fi
	printf '%s\n' "$t"
}

if [ ! -f "$out/lib/libbpf.a" ] || [ ! -f "$out/include/bpf/libbpf.h" ]; then
	t=$(fetch_src libbpf)
	ver=$(basename "$t" | sed -E 's/libbpf_([0-9.]+)\.orig.*/\1/')
	case "$ver" in 0.*|1.[0-4]|1.[0-4].*) die "libbpf $ver is older than 1.5";; esac
	mkdir "$work/libbpf" && tar -xf "$t" -C "$work/libbpf"
	make -s -C "$(ls -d "$work"/libbpf/libbpf-*/src)" BUILD_STATIC_ONLY=1 \
		OBJDIR="$work/lobj" DESTDIR="$work/ldest" PREFIX= LIBDIR=/lib \
		INCLUDEDIR=/include install >/dev/null
	cp "$work/ldest/lib/libbpf.a" "$out/lib/"
	rm -rf "$out/include/bpf" && cp -r "$work/ldest/include/bpf" "$out/include/"
	printf 'build-deps: libbpf %s built\n' "$ver" >&2
fi

if [ ! -f "$out/lib/libcjson.a" ] || [ ! -f "$out/include/cjson/cJSON.h" ]; then
	t=$(fetch_src cjson)
	mkdir "$work/cjson" && tar -xf "$t" -C "$work/cjson"
	src=$(ls -d "$work"/cjson/cJSON-*)
	cc -O2 -fPIC -c "$src/cJSON.c" -o "$work/cJSON.o"
	ar rcs "$out/lib/libcjson.a" "$work/cJSON.o"
	mkdir -p "$out/include/cjson" && cp "$src/cJSON.h" "$out/include/cjson/"
	printf 'build-deps: cJSON built\n' >&2
fi

if [ ! -f "$out/lib/libmicrohttpd.a" ] || [ ! -f "$out/include/microhttpd.h" ]; then
	t=$(fetch_src libmicrohttpd)
	mkdir "$work/mhd" && tar -xf "$t" -C "$work/mhd"
	src=$(ls -d "$work"/mhd/libmicrohttpd-*)
	(cd "$src" && ./configure -q --prefix="$work/mdest" --enable-static --disable-shared \
		--disable-https --without-gnutls --disable-curl --disable-doc --disable-examples \
		--disable-tools >/dev/null &&
	 make -s -j"$(nproc)" >/dev/null 2>&1 && make -s install >/dev/null 2>&1) ||
		die "building libmicrohttpd failed (configure/make in $src)"
	cp "$work/mdest/lib/libmicrohttpd.a" "$out/lib/"
	cp "$work/mdest/include/microhttpd.h" "$out/include/"
	printf 'build-deps: libmicrohttpd built (no HTTPS)\n' >&2
fi
