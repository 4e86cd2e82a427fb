#!/usr/bin/env bash
# Put node_exporter where the cost bench finds it, for the scale of a scrape
# of the exporter everybody already runs, without installing Debian's
# prometheus-node-exporter package: like the prometheus package, it enables
# and starts a server (:9100) on the machine. The .deb is downloaded once
# into CACHE_DIR and its binary unpacked into OUT_DIR/bin.
#   usage: bench-tools.sh CACHE_DIR OUT_DIR
# An installed node_exporter (prometheus-node-exporter) is used as it is.
set -euo pipefail
cache=${1:?cache dir}; out=${2:?out dir}
die() { printf 'bench-tools: error: %s\n' "$*" >&2; exit 1; }
mkdir -p "$cache/debs" "$out/bin"
command -v prometheus-node-exporter > /dev/null && exit 0
[ -x "$out/bin/prometheus-node-exporter" ] && exit 0
deb=$(ls "$cache"/debs/prometheus-node-exporter_*.deb 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$deb" ]; then
	printf 'bench-tools: downloading the prometheus-node-exporter package (unpacked, not installed)\n' >&2
	(cd "$cache/debs" && apt-get download -qq prometheus-node-exporter > /dev/null 2>&1) ||
		die "apt-get download prometheus-node-exporter failed: run 'make bench-deps' as root once (it runs apt-get update)"
	deb=$(ls "$cache"/debs/prometheus-node-exporter_*.deb | sort -V | tail -1)
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
install -m 0755 "$tmp/usr/bin/prometheus-node-exporter" "$out/bin/"
printf 'bench-tools: node_exporter in %s/bin/prometheus-node-exporter\n' "$out" >&2
