#!/usr/bin/env bash
# Print the .deb's Built-Using value: the Debian source packages whose code
# the static binaries embed (LGPL libraries among them, so their exact
# sources must stay findable), as "pkg (= version), ...".
#   usage: deb-built-using.sh CACHE_DIR
# The libraries linked from Debian's own -dev packages are asked of dpkg;
# the ones scripts/build-deps.sh builds from Debian source packages are
# named by the .dsc files it fetched into CACHE_DIR (the newest of each,
# as it builds the newest tarball). A library found neither way is left out
# with a warning on stderr, never guessed.
set -uo pipefail
cache=${1:?usage: deb-built-using.sh CACHE_DIR}
out=()
for dev in libgmp-dev libyaml-dev libcrypt-dev libelf-dev zlib1g-dev libncurses-dev; do
	v=$(dpkg-query -W -f='${source:Package} (= ${source:Version})' "$dev" 2>/dev/null) ||
		{ printf 'deb-built-using: %s is not installed; left out\n' "$dev" >&2; continue; }
	out+=("$v")
done
for src in libbpf cjson gnutls28 nettle libmicrohttpd; do
	d=$(ls "$cache/${src}"_*.dsc 2>/dev/null | sort -V | tail -1)
	if [ -z "$d" ]; then
		printf 'deb-built-using: no %s .dsc in %s; left out\n' "$src" "$cache" >&2
		continue
	fi
	v=$(basename "$d" .dsc); v=${v#"${src}"_}
	out+=("$src (= $v)")
done
(IFS=,; printf '%s\n' "${out[*]}" | sed 's/,/, /g')
