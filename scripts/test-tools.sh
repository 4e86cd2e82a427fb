#!/usr/bin/env bash
# Put Prometheus' own binaries (prometheus, promtool) where the tests find
# them, without installing Debian's prometheus package: that package enables
# and starts a server on :9090, which a machine set up to run our tests
# should not get. The .deb is downloaded once into CACHE_DIR and unpacked
# into OUT_DIR/bin.
#   usage: test-tools.sh CACHE_DIR OUT_DIR
# An installed prometheus package is used as it is.
# Also the Kubernetes schema validator of tests/unit/check_kubernetes.sh:
# the npm packages kubernetes-models and @kubernetes-models/prometheus-operator
# (versions pinned below) in OUT_DIR/k8s, npm's cache in CACHE_DIR/npm.
set -euo pipefail
cache=${1:?cache dir}; out=${2:?out dir}
die() { printf 'test-tools: error: %s\n' "$*" >&2; exit 1; }
mkdir -p "$cache/debs" "$out/bin"

K8S_MODELS="kubernetes-models@5.1.0 @kubernetes-models/prometheus-operator@6.0.0"
if [ ! -f "$out/k8s/.installed" ] || [ "$(cat "$out/k8s/.installed")" != "$K8S_MODELS" ]; then
	command -v npm >/dev/null || die "no npm: run 'make test-deps' as root once (it installs npm)"
	mkdir -p "$out/k8s" "$cache/npm"
	npm_cache=$(cd "$cache/npm" && pwd)
	# their metadata asks for node 22; they run on bookworm's 18 and on 20
	# shellcheck disable=SC2086
	(cd "$out/k8s" && npm install --no-audit --no-fund --engine-strict=false \
		--cache "$npm_cache" $K8S_MODELS > npm.log 2>&1) ||
		die "npm install $K8S_MODELS failed: $(tail -3 "$out/k8s/npm.log")"
	echo "$K8S_MODELS" > "$out/k8s/.installed"
	printf 'test-tools: %s in %s/k8s\n' "$K8S_MODELS" "$out" >&2
fi

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
