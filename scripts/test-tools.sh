#!/usr/bin/env bash
# Put Prometheus' own binaries (prometheus, promtool) where the tests find
# them, without installing Debian's prometheus package: that package enables
# and starts a server on :9090, which a machine set up to run our tests
# should not get. The .deb is downloaded once into CACHE_DIR and unpacked
# into OUT_DIR/bin.
#   usage: test-tools.sh CACHE_DIR OUT_DIR
# An installed prometheus package is used as it is.
set -euo pipefail
cache=${1:?cache dir}; out=${2:?out dir}
die() { printf 'test-tools: error: %s\n' "$*" >&2; exit 1; }
mkdir -p "$cache/debs" "$out/bin"
if command -v promtool >/dev/null && command -v prometheus >/dev/null; then exit 0; fi
[ -x "$out/bin/promtool" ] && [ -x "$out/bin/prometheus" ] && exit 0
deb=$(ls "$cache"/debs/prometheus_*.deb 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$deb" ]; then
	printf 'test-tools: downloading the prometheus package (unpacked, not installed)\n' >&2
	(cd "$cache/debs" && apt-get download -qq prometheus >/dev/null 2>&1) ||
		die "apt-get download prometheus failed: run 'make test' as root once (it runs apt-get update)"
	deb=$(ls "$cache"/debs/prometheus_*.deb | sort -V | tail -1)
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
install -m 0755 "$tmp/usr/bin/prometheus" "$tmp/usr/bin/promtool" "$out/bin/"
printf 'test-tools: prometheus and promtool in %s/bin\n' "$out" >&2
