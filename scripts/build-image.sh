#!/usr/bin/env bash
# Build the OCI image of numalens (packaging/Containerfile) with podman, or
# buildah when podman is missing, from the static binaries in BUILD_DIR.
#   usage: build-image.sh BUILD_DIR
# Tags localhost/numalens:VERSION and :latest in the local store and writes
# BUILD_DIR/image/numalens-VERSION.oci.tar (an OCI archive to push or load
# elsewhere: 'podman load -i', 'skopeo copy oci-archive:...').
set -euo pipefail
b=${1:?build dir}
die() { printf 'build-image: error: %s\n' "$*" >&2; exit 1; }
cd "$(dirname "$0")/.."
for f in "$b/numalens" "$b/scx_cling"; do [ -x "$f" ] || die "$f is not built: run 'make' first"; done
# a dynamically linked binary would start in the scratch image and then
# fail to find its loader: refuse it here
for f in "$b/numalens" "$b/scx_cling"; do
	if readelf -l "$f" 2>/dev/null | grep -q 'Requesting program interpreter'; then
		die "$f is dynamically linked; the image holds no libc: build with the default LDFLAGS (-static)"
	fi
done
if command -v podman >/dev/null; then tool=podman
elif command -v buildah >/dev/null; then tool=buildah
else die "neither podman nor buildah is installed: apt-get install podman (or run 'make test-deps')"
fi
version=$(sed -n 's/^#define NL_VERSION "\(.*\)"/\1/p' tools/core/version.h)
[ -n "$version" ] || die "no NL_VERSION in tools/core/version.h"
revision=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
created=$(date -u +%Y-%m-%dT%H:%M:%SZ)
ctx="$b/image/context"
rm -rf "$ctx" && mkdir -p "$ctx"
# stripped copies: the debug info is half the size and of no use in a pod
strip -o "$ctx/numalens" "$b/numalens"
strip -o "$ctx/scx_cling" "$b/scx_cling"
args=(--format oci --layers=false -f packaging/Containerfile --build-arg "VERSION=$version"
      --build-arg "REVISION=$revision" --build-arg "CREATED=$created"
      -t "localhost/numalens:$version" -t localhost/numalens:latest)
# the image this build replaces under the same tag, removed once untagged
old=$("$tool" inspect --type image --format '{{.Id}}' "localhost/numalens:$version" 2>/dev/null || true)
if [ "$tool" = podman ]; then
	podman build -q "${args[@]}" "$ctx" >/dev/null
	podman save --format oci-archive -o "$b/image/numalens-$version.oci.tar.tmp" "localhost/numalens:$version"
else
	buildah bud -q "${args[@]}" "$ctx" >/dev/null
	buildah push -q "localhost/numalens:$version" "oci-archive:$b/image/numalens-$version.oci.tar.tmp"
fi
mv "$b/image/numalens-$version.oci.tar.tmp" "$b/image/numalens-$version.oci.tar"
new=$("$tool" inspect --type image --format '{{.Id}}' "localhost/numalens:$version")
[ -n "$old" ] && [ "$old" != "$new" ] && "$tool" rmi "$old" >/dev/null 2>&1 || true
printf 'build-image: localhost/numalens:%s (%s), archive %s\n' "$version" "$tool" "$b/image/numalens-$version.oci.tar"
