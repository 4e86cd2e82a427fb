#!/usr/bin/env bash
# Build the numalens .deb with Debian's own tools (dpkg-buildpackage and
# debhelper) from this checkout, all under BUILD/deb:
#   usage: build-deb.sh BUILD
# The debian/ directory is packaging/debian, copied next to a generated
# changelog into BUILD/deb/numalens-VERSION/; its rules call this checkout's
# Makefile (NL_TOP) to build and `make install` into the package, so the
# .deb holds exactly what `make install PREFIX=/usr` installs. The .deb,
# .buildinfo and .changes land in BUILD/deb/.
set -euo pipefail

die() { printf 'make deb: %s\n' "$*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: build-deb.sh BUILD}
case "$build" in /*) ;; *) build=$top/$build;; esac
for t in dpkg-buildpackage dh; do
	command -v $t >/dev/null || die "$t is missing: run 'sudo make test-deps' (it installs debhelper and lintian)"
done

version=$(sed -n 's/^#define NL_VERSION "\(.*\)"/\1/p' "$top/tools/core/version.h")
[ -n "$version" ] || die "no NL_VERSION in tools/core/version.h"
out=$build/deb
src=$out/numalens-$version
rm -rf "$src" "$out"/numalens_"$version"*
mkdir -p "$src"
cp -r "$top/packaging/debian" "$src/debian"

# The changelog's date is the last commit's, so two builds of one commit
# give the same package.
when=$(git -C "$top" log -1 --format=%cD 2>/dev/null || date -R)
commit=$(git -C "$top" log -1 --format=%h 2>/dev/null || echo unknown)
cat > "$src/debian/changelog" <<CHANGELOG
numalens ($version) unstable; urgency=medium

  * Built from the numalens tree at commit $commit.

 -- numalens maintainers <maintainers@numalens.invalid>  $when
CHANGELOG

# the source packages the static binaries embed (debian/control's Built-Using)
cache=${CACHE:-cache}
case "$cache" in /*) ;; *) cache=$top/$cache;; esac
built_using=$(bash "$top/scripts/deb-built-using.sh" "$cache" 2>"$out/built-using.log")

cd "$src"
NL_BUILT_USING=$built_using NL_TOP=$top NL_B=$build dpkg-buildpackage -b -us -uc >"$out/build.log" 2>&1 ||
	{ tail -20 "$out/build.log" >&2; die "dpkg-buildpackage failed (log: $out/build.log)"; }
deb=$out/numalens_${version}_amd64.deb
[ -f "$deb" ] || die "dpkg-buildpackage made no $deb"
echo "make deb: $deb"
