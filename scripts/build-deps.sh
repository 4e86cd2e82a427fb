#!/usr/bin/env bash
# Build the static libraries numalens links that bookworm lacks, from
# Debian's source packages (deb-src trixie, added by scripts/setup.sh):
#  - libbpf >= 1.5: bookworm's libbpf-dev is 1.1 (1.4.6 in backports), too
#    old for the skeletons bpftool 7.5 emits (shared/PLATFORM.md);
#  - cJSON: Debian ships only libcjson.so, and the VM guest needs static
#    binaries.
#  - GnuTLS (the HTTPS of numalens export): Debian's libgnutls.a needs
#    p11-kit, which ships no static library, so we build GnuTLS without
#    PKCS#11 (and with its own copies of libtasn1 and libunistring, no IDN,
#    no compression); trixie's GnuTLS wants nettle >= 3.10, bookworm has
#    3.8, so nettle is built from trixie's source too (gmp: libgmp-dev);
#  - libmicrohttpd (numalens export), built against that GnuTLS, so the
#    exporter serves HTTPS from the same static binary.
#   usage: build-deps.sh CACHE_DIR OUT_DIR
# Produces OUT_DIR/lib/{libbpf.a,libcjson.a,libmicrohttpd.a,libgnutls.a,
# libnettle.a,libhogweed.a} and OUT_DIR/include/{bpf,cjson,microhttpd.h,
# gnutls,nettle}.
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
		# (apt-get fails when a signature file the .dsc lists is gone from
		# the mirror although the tarball came: judge by the tarball)
		(cd "$cache" && apt-get source --download-only -qq "$1" >/dev/null 2>&1) ||
			ls "$cache/$1"_*.orig.tar.* >/dev/null 2>&1 ||
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

if [ ! -f "$out/lib/libnettle.a" ] || [ ! -f "$out/lib/libhogweed.a" ] || [ ! -f "$out/include/nettle/nettle-meta.h" ]; then
	t=$(fetch_src nettle)
	mkdir "$work/nettle" && tar -xf "$t" -C "$work/nettle"
	src=$(ls -d "$work"/nettle/nettle-*)
	(cd "$src" && ./configure -q --prefix="$out" --libdir="$out/lib" --disable-shared \
		--enable-static --disable-documentation --disable-openssl >/dev/null &&
	 make -s -j"$(nproc)" >/dev/null 2>&1 && make -s install-headers install-static >/dev/null 2>&1) ||
		die "building nettle failed (configure/make in $src; it needs libgmp-dev and m4)"
	printf 'build-deps: nettle built\n' >&2
fi

# The stamp file says the GnuTLS in OUT_DIR is the one built here (a
# libgnutls.a from elsewhere would not link statically).
if [ ! -f "$out/lib/libgnutls.a" ] || [ ! -f "$out/lib/.gnutls-static" ]; then
	t=$(fetch_src gnutls28)
	mkdir "$work/gnutls" && tar -xf "$t" -C "$work/gnutls"
	src=$(ls -d "$work"/gnutls/gnutls-*)
	(cd "$src" && PKG_CONFIG_PATH="$out/lib/pkgconfig" \
		NETTLE_CFLAGS="-I$out/include" NETTLE_LIBS="-L$out/lib -lnettle" \
		HOGWEED_CFLAGS="-I$out/include" HOGWEED_LIBS="-L$out/lib -lhogweed -lgmp" \
		./configure -q --prefix="$work/gdest" --disable-shared --enable-static \
		--without-p11-kit --with-included-libtasn1 --with-included-unistring \
		--without-idn --without-tpm --without-tpm2 --without-zlib --without-brotli \
		--without-zstd --without-leancrypto --disable-nls --disable-tools \
		--disable-doc --disable-manpages --disable-tests --disable-cxx \
		--disable-libdane --disable-ktls --disable-gcc-warnings \
		--with-default-trust-store-file= >/dev/null &&
	 make -s -j"$(nproc)" -C gl >/dev/null 2>&1 && make -s -j"$(nproc)" -C lib >/dev/null 2>&1 &&
	 make -s -C lib install >/dev/null 2>&1) ||
		die "building GnuTLS failed (configure/make in $src)"
	cp "$work/gdest/lib/libgnutls.a" "$out/lib/"
	rm -rf "$out/include/gnutls" && cp -r "$work/gdest/include/gnutls" "$out/include/"
	mkdir -p "$out/lib/pkgconfig" && cp "$work/gdest/lib/pkgconfig/gnutls.pc" "$out/lib/pkgconfig/"
	sed -i "s|^prefix=.*|prefix=$out|" "$out/lib/pkgconfig/gnutls.pc"
	touch "$out/lib/.gnutls-static"
	rm -f "$out/lib/.mhd-https"
	printf 'build-deps: GnuTLS built (static, no PKCS#11)\n' >&2
fi

# An older build tree holds a libmicrohttpd without HTTPS: rebuild it once.
if [ ! -f "$out/lib/libmicrohttpd.a" ] || [ ! -f "$out/include/microhttpd.h" ] || [ ! -f "$out/lib/.mhd-https" ]; then
	t=$(fetch_src libmicrohttpd)
	mkdir "$work/mhd" && tar -xf "$t" -C "$work/mhd"
	src=$(ls -d "$work"/mhd/libmicrohttpd-*)
	(cd "$src" && PKG_CONFIG_PATH="$out/lib/pkgconfig" \
		GNUTLS_CFLAGS="-I$out/include" GNUTLS_LIBS="-L$out/lib -lgnutls -lhogweed -lnettle -lgmp -lpthread" \
		./configure -q --prefix="$work/mdest" --enable-static --disable-shared \
		--enable-https --with-gnutls --disable-curl --disable-doc --disable-examples \
		--disable-tools >/dev/null &&
	 grep -q '^#define HTTPS_SUPPORT 1' MHD_config.h &&
	 make -s -j"$(nproc)" >/dev/null 2>&1 && make -s install >/dev/null 2>&1) ||
		die "building libmicrohttpd with HTTPS failed (configure/make in $src)"
	cp "$work/mdest/lib/libmicrohttpd.a" "$out/lib/"
	cp "$work/mdest/include/microhttpd.h" "$out/include/"
	touch "$out/lib/.mhd-https"
	printf 'build-deps: libmicrohttpd built (HTTPS through GnuTLS)\n' >&2
fi
