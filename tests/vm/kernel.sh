#!/usr/bin/env bash
# Get the guest kernel for the VM tests: the newest Debian amd64 kernel that
# apt knows (trixie-backports today) whose config has CONFIG_SCHED_CLASS_EXT=y,
# plus the modules the tests need, with their dependencies.
#   usage: tests/vm/kernel.sh CACHE_DIR OUT_DIR [SERIES]
# SERIES (e.g. 6.12) asks instead for the newest Debian kernel of that series
# apt knows (Debian 12's linux-image-6.12.*-amd64-unsigned, which holds the
# image, config and modules in one package), sched_ext or not; it must have
# BTF (CONFIG_DEBUG_INFO_BTF=y).
# Downloads (apt-get download, no install) go to CACHE_DIR/vm-kernel and are
# reused: a second run needs no network. OUT_DIR receives
#   vmlinuz, config, release (the kernel release string),
#   modules/*.ko (decompressed) and modules/load.order (one module a line,
#   dependencies first, as "name file.ko dep1 dep2 ...").
# Exit 0 with OUT_DIR ready; 1 with one line "kernel: error: ..." on stderr
# saying why no suitable kernel could be had.
# Modules: NL_VM_MODULES (default "zram virtio_blk ext4 loop").
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin	# modinfo (kmod)
cache=${1:?cache dir}; out=${2:?out dir}; series=${3:-}
mods_wanted=${NL_VM_MODULES:-zram virtio_blk ext4 loop}
log() { printf 'kernel: %s\n' "$*" >&2; }
die() { printf 'kernel: error: %s\n' "$*" >&2; exit 1; }
mkdir -p "$cache/vm-kernel" "$out"
kc=$(cd "$cache/vm-kernel" && pwd)

# candidates: kernel ABI names ("7.3.4+deb13-amd64"), newest first, from apt's
# lists (offline) and from debs already in the cache.
candidates() {
	{
		apt-cache search --names-only '^linux-binary-unsigned-[0-9]' 2>/dev/null |
			awk '{print $1}' | sed -n 's/^linux-binary-unsigned-\([0-9.]*+deb[0-9]*-amd64\)$/\1/p'
		ls "$kc" 2>/dev/null | sed -n 's/^linux-binary-unsigned-\([0-9.]*+deb[0-9]*-amd64\)_.*\.deb$/\1/p'
	} | sort -uV | tac
}

# fetch PKG: print the cached .deb of PKG, downloading it once with apt.
fetch() {
	local f
	f=$(ls "$kc/$1"_*.deb 2>/dev/null | sort -V | tail -1 || true)
	if [ -z "$f" ]; then
		log "downloading $1 (once; cached in $kc)"
		(cd "$kc" && apt-get download -qq "$1" >/dev/null 2>&1) || return 1
		f=$(ls "$kc/$1"_*.deb | sort -V | tail -1)
	fi
	printf '%s\n' "$f"
}

# deb_file DEB NAME: print file NAME of the kernel's module dir
# ({,usr/}lib/modules/RELEASE/NAME) inside DEB to stdout.
deb_file() {
	dpkg-deb --fsys-tarfile "$1" | tar -xO --wildcards "./lib/modules/*/$2" "./usr/lib/modules/*/$2" 2>/dev/null || true
}

# boot_file DEB NAME: print ./boot/NAME (a glob) of DEB to stdout (where
# Debian 12's image packages keep vmlinuz and config).
boot_file() {
	dpkg-deb --fsys-tarfile "$1" | tar -xO --wildcards "./boot/$2" 2>/dev/null || true
}

# series_candidates SERIES: ABI names of SERIES ("6.12.107+deb12-amd64"),
# newest first, from the image packages apt knows and those in the cache.
series_candidates() {
	local re; re=$(printf '%s' "$1" | sed 's/\./\\./g')
	{
		apt-cache search --names-only "^linux-image-$re\.[0-9]+\+deb[0-9]+-amd64-unsigned\$" 2>/dev/null |
			awk '{print $1}' | sed -n 's/^linux-image-\(.*-amd64\)-unsigned$/\1/p'
		ls "$kc" 2>/dev/null | sed -n "s/^linux-image-\($re\.[0-9]*+deb[0-9]*-amd64\)-unsigned_.*\.deb\$/\1/p"
	} | sort -uV | tac
}

# stamp_of BASE IMG MODS: what an extracted kernel was made from. The
# leading word changes when the extraction itself changes (softdep: soft
# module dependencies are followed), so old extractions are redone.
stamp_of() {
	echo "softdep2 $abi $(basename "$1") $(basename "$2") $(basename "$3") $mods_wanted"
}

# Candidates newest first: linux-base-ABI holds the config (1 MB), so check
# it before the 14 MB image (linux-binary-unsigned-ABI).
abi=''
tried=0
if [ -n "$series" ]; then
	# a named series: one package (about 100 MB, once) holds it all
	abi=$(series_candidates "$series" | head -1)
	[ -n "$abi" ] || die "no Debian $series kernel (linux-image-$series.*-amd64-unsigned) in apt's lists or $kc: run 'make deps' as root (apt-get update), and check the network"
	img=$(fetch "linux-image-$abi-unsigned") || die "cannot download linux-image-$abi-unsigned (network? 'make deps' as root?)"
	base=$img; modsdeb=$img
	# ready from an earlier run: reading the config means decompressing
	# the whole package (a minute on a busy host)
	if [ -f "$out/stamp" ] && [ -f "$out/vmlinuz" ] &&
	   [ "$(cat "$out/stamp")" = "$(stamp_of "$img" "$img" "$img")" ]; then
		exit 0
	fi
	cfg=$(boot_file "$img" "config-$abi")
	grep -qx 'CONFIG_DEBUG_INFO_BTF=y' <<< "$cfg" || die "linux-image-$abi-unsigned has no CONFIG_DEBUG_INFO_BTF=y: numalens' CO-RE objects need BTF"
fi
for c in $( [ -n "$series" ] || candidates); do
	[ $tried -lt 3 ] || break
	tried=$((tried + 1))
	if ! base=$(fetch "linux-base-$c"); then log "cannot download linux-base-$c"; continue; fi
	cfg=$(deb_file "$base" config)
	if grep -qx 'CONFIG_SCHED_CLASS_EXT=y' <<< "$cfg"; then abi=$c; break; fi
	if grep -q '^CONFIG_' <<< "$cfg"; then
		log "linux-$c has no CONFIG_SCHED_CLASS_EXT=y; trying an older one"
	else
		log "linux-base-$c holds no kernel config; trying an older one"
	fi
done
[ -n "$abi" ] || die "no Debian kernel with CONFIG_SCHED_CLASS_EXT=y could be had (candidates from apt and the cache: $(candidates | tr "\n" " " | grep . || echo none)); run 'make deps' as root (adds trixie-backports and runs apt-get update), and check the network"

if [ -z "$series" ]; then
	img=$(fetch "linux-binary-unsigned-$abi") || die "cannot download linux-binary-unsigned-$abi (network? 'make deps' as root?)"
	modsdeb=$(fetch "linux-modules-$abi") || die "cannot download linux-modules-$abi (network? 'make deps' as root?)"
fi

stamp=$(stamp_of "$base" "$img" "$modsdeb")
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] && [ -f "$out/vmlinuz" ]; then
	exit 0
fi
log "extracting $abi into $out"
rm -rf "$out/modules" "$out/vmlinuz" "$out/config" "$out/stamp"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

deb_file "$base" config > "$out/config"
deb_file "$img" 'vmlinuz*' > "$out/vmlinuz"
[ -s "$out/config" ] || boot_file "$base" "config-$abi" > "$out/config"
[ -s "$out/vmlinuz" ] || boot_file "$img" "vmlinuz-$abi" > "$out/vmlinuz"
[ -s "$out/vmlinuz" ] || die "no vmlinuz in $img"
release=$abi
printf '%s\n' "$release" > "$out/release"
deb_file "$base" modules.builtin > "$work/modules.builtin"

# Modules: the package has no modules.dep (depmod makes it at install), so
# unpack the module tree and follow each module's "depends=" (modinfo).
log "unpacking $(basename "$modsdeb") to resolve module dependencies"
dpkg-deb --fsys-tarfile "$modsdeb" | tar -x -C "$work" --wildcards './lib/modules/*' './usr/lib/modules/*' 2>/dev/null || true
mdir=$(ls -d "$work"/lib/modules/"$release" "$work"/usr/lib/modules/"$release" 2>/dev/null | head -1 || true)
[ -n "$mdir" ] && [ -d "$mdir/kernel" ] || die "no kernel/ module tree for $release in $modsdeb"
declare -A path_of=()
# (parameter expansion, not basename: a fork for each of the ~4,200
# modules took 74-93 s of a fresh clone's CI run, 200 s on a loaded host)
while IFS= read -r f; do
	n=${f##*/}; n=${n%%.ko*}; path_of[${n//-/_}]=$f
done < <(find "$mdir" -name '*.ko*')

declare -A seen=() deps_of=()
order=()
# resolve NAME: append NAME's dependencies, then NAME, to order (once each).
resolve() {
	local n=${1//-/_} d
	[ -z "${seen[$n]:-}" ] || return 0
	seen[$n]=1
	deps_of[$n]=$(modinfo -F depends "${path_of[$n]}" | tr ',' ' ')
	for d in ${deps_of[$n]}; do
		[ -n "${path_of[${d//-/_}]:-}" ] || die "module $n needs $d, which is not in linux-modules-$abi"
		resolve "$d"
	done
	# A soft dependency is not in "depends=" but the module fails without
	# it: 6.12's ext4 and jbd2 ask for "crypto-crc32c" (softdep pre:), and
	# with no crc32c driver loaded, mount says ENOENT. Such a name is a
	# crypto alias: load the generic driver, the one every CPU can run.
	for d in $(modinfo -F softdep "${path_of[$n]}" | tr ' ' '\n' | sed -n 's/^crypto-//p'); do
		d=${d//-/_}
		[ -n "${path_of[${d}_generic]:-}" ] && d=${d}_generic
		[ -n "${path_of[$d]:-}" ] || continue
		resolve "$d"
		deps_of[$n]="${deps_of[$n]} $d"
	done
	order+=("${path_of[$n]}")
}
for m in $mods_wanted; do
	if [ -z "${path_of[${m//-/_}]:-}" ]; then
		pat=$(printf '%s' "$m" | sed 's/[-_]/[-_]/g')
		if grep -qE "(^|/)${pat}\.ko" "$work/modules.builtin" 2>/dev/null; then
			log "module $m is built in"; continue
		fi
		die "module $m not found in $(basename "$modsdeb")"
	fi
	resolve "$m"
done

mkdir -p "$out/modules"
: > "$out/modules/load.order"
if [ ${#order[@]} -gt 0 ]; then
	for f in "${order[@]}"; do
		base=$(basename "$f"); name=${base%%.ko*}
		case "$base" in
		*.ko.xz) xz -dc "$f" > "$out/modules/$name.ko";;
		*.ko.zst) zstd -qdc "$f" > "$out/modules/$name.ko";;
		*.ko.gz) gzip -dc "$f" > "$out/modules/$name.ko";;
		*.ko) cp "$f" "$out/modules/$name.ko";;
		*) die "unknown module file $base";;
		esac
		n=${name//-/_}
		printf '%s %s.ko %s\n' "$n" "$name" "$(echo ${deps_of[$n]:-} | tr '-' '_')" >> "$out/modules/load.order"
	done
fi
printf '%s\n' "$stamp" > "$out/stamp"
log "kernel $release ready: $(wc -l < "$out/modules/load.order") modules ($(awk '{print $1}' "$out/modules/load.order" | tr '\n' ' '))"
