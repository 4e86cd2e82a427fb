#!/usr/bin/env bash
# Install the Debian packages numalens needs, for one job only:
#   usage: setup.sh [run|test|bench]
#   run   build numalens and run it (what `make run` needs): the BPF and C
#         toolchain, bpftool >= 7.5, the deb-src line for the libraries
#         scripts/build-deps.sh builds from source (gmp and m4 for nettle),
#         libyaml and libxcrypt (the export's web configuration);
#   test  run adds the test toolchain (`make test`): cmocka, qemu 10.0
#         (bookworm-backports; glib's headers and the deb-src line for its
#         own source, whose qemu-plugin.h builds the numa_cost plugin) and the
#         initramfs tools, stress-ng, curl, tmux, numactl (processes under
#         a memory policy), debhelper and lintian
#         (`make deb` and its lintian check), podman and buildah (`make
#         image` and its check), python3-kubernetes and npm (the manifests'
#         checks), openssl and apache2-utils (the TLS test's certificates
#         and its bcrypt hash), and the trixie-backports
#         suite the guest kernel comes from. Prometheus is not installed as a
#         package (that would start a server): scripts/test-tools.sh unpacks
#         its binaries into the build tree instead;
#   bench test adds what `make bench` compares numalens with: bpftrace (the
#         peer one-liner), perf (sched pipe) and procps top.
# Idempotent: a second run with everything present does no network I/O.
# Installs on Debian 12 (bookworm) only; elsewhere it checks the build's
# tools and headers are there (exit 0) or names the missing ones (exit 1).
# The apt sources it adds are pinned by Debian at priority 100, so nothing
# is upgraded from them unless asked with -t.
set -euo pipefail

log() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

job=${1:-run}
case "$job" in run|test|bench) ;; *) die "unknown job '$job' (run, test or bench)";; esac
[ "$(id -u)" = 0 ] || die "run as root (apt-get needs it): sudo $0 $job"

# The package names and suites below are bookworm's; on another release they
# would pull in the wrong suites, so say what is supported instead of guessing.
os_id=; os_ver=; os_name=unknown
if [ -r /etc/os-release ]; then
	os_id=$(. /etc/os-release && echo "${ID:-}")
	os_ver=$(. /etc/os-release && echo "${VERSION_ID:-}")
	os_name=$(. /etc/os-release && echo "${PRETTY_NAME:-$ID $VERSION_ID}")
fi
# Elsewhere nothing is installed: when what the build runs is there, the
# build goes on with it (so `make` does not stop here again after the user
# installed it by hand); else one line names what is missing.
if ! { [ "$os_id" = debian ] && [ "$os_ver" = 12 ]; }; then
	need=()
	for c in "${CLANG:-clang-19}" "${LLVMSTRIP:-llvm-strip-19}" "${BPFTOOL:-bpftool}" gcc make pkg-config; do
		command -v "$c" >/dev/null 2>&1 || need+=("$c")
	done
	for h in libelf.h zlib.h ncursesw/curses.h; do
		[ -e "/usr/include/$h" ] || need+=("$h")
	done
	[ ${#need[@]} = 0 ] ||
		die "the automatic set-up installs packages on Debian 12 (bookworm) only, this is $os_name: install ${need[*]} by hand (CLANG=, LLVMSTRIP= and BPFTOOL= name other versions; bpftool >= 7.5), then run 'make' again"
	log "this is $os_name, not Debian 12: installing nothing, building with what is installed"
	[ "$job" = run ] || log "the VM tests also need qemu >= 10.0 with its plugin header, busybox-static, cmocka and tmux"
	exit 0
fi

SRC=/etc/apt/sources.list.d/numalens.list
# bpftool >= 7.5 comes from bookworm-backports; the libbpf/cJSON/libmicrohttpd
# sources from trixie (deb-src, source only); the guest kernel for the VM
# tests from trixie-backports.
src_lines=('deb http://deb.debian.org/debian bookworm-backports main'
	'deb-src http://deb.debian.org/debian trixie main')
# The test job's qemu comes from bookworm-backports too (10.0: its TCG
# plugins see guest physical addresses, which the numa_cost plugin needs
# and bookworm's 7.2 gets wrong), and its plugin header from the source
# package of that same version (deb-src bookworm-backports).
[ "$job" != run ] && src_lines+=('deb http://deb.debian.org/debian trixie-backports main'
	'deb-src http://deb.debian.org/debian bookworm-backports main')

PKGS_RUN="clang-19 llvm-19 libelf-dev zlib1g-dev pkg-config make gcc
  libncurses-dev dpkg-dev libgmp-dev m4 libyaml-dev libcrypt-dev"
PKGS_TEST="libcmocka-dev busybox-static cpio zstd xz-utils kmod
  curl iproute2 stress-ng tmux debhelper lintian numactl libglib2.0-dev
  podman buildah python3-kubernetes openssl apache2-utils"
PKGS_BENCH="bpftrace linux-perf procps"
PKGS_BPO="bpftool"	# from bookworm-backports
[ "$job" != run ] && PKGS_BPO="$PKGS_BPO qemu-system-x86"
pkgs="$PKGS_RUN $PKGS_BPO"
[ "$job" != run ] && pkgs="$pkgs $PKGS_TEST"
[ "$job" = bench ] && pkgs="$pkgs $PKGS_BENCH"
# npm fetches the Kubernetes schema validator (scripts/test-tools.sh);
# a node.js installed from elsewhere brings its own npm, which Debian's
# npm package would conflict with
[ "$job" != run ] && ! command -v npm >/dev/null && pkgs="$pkgs npm"

missing=()
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || { missing+=("$p"); continue; }
	# bookworm's own qemu 7.2 may be there already: the tests want 10.0
	if [ "$p" = qemu-system-x86 ] &&
	   ! dpkg --compare-versions "$(dpkg-query -W -f='${Version}' "$p")" ge 1:10.0; then missing+=("$p"); fi
done

# Add only the lines this job lacks; lines an earlier `test` set-up wrote stay.
updated=0
add=()
for l in "${src_lines[@]}"; do
	grep -qxF "$l" "$SRC" 2>/dev/null || add+=("$l")
done
if [ ${#add[@]} -gt 0 ]; then
	log "adding to $SRC: ${add[*]}"
	printf '%s\n' "${add[@]}" >> "$SRC"
	apt-get update -qq
	updated=1
fi

if [ ${#missing[@]} -gt 0 ]; then
	[ $updated = 1 ] || apt-get update -qq
	log "installing ($job): ${missing[*]}"
	main=(); bpo=()
	for p in "${missing[@]}"; do
		case " $PKGS_BPO " in *" $p "*) bpo+=("$p");; *) main+=("$p");; esac
	done
	export DEBIAN_FRONTEND=noninteractive
	[ ${#main[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${main[@]}" >/dev/null
	[ ${#bpo[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends -t bookworm-backports "${bpo[@]}" >/dev/null
fi

bpftool version >/dev/null 2>&1 || die "bpftool is not runnable after install"
log "toolchain ready ($job): $(clang-19 --version | head -1); $(bpftool version | head -1)"
