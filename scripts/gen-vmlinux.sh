#!/usr/bin/env bash
# Regenerate vmlinux/ARCH/vmlinux.h.
#   usage: gen-vmlinux.sh ARCH CACHE_DIR [BTF_FILE]
# With BTF_FILE (e.g. /sys/kernel/btf/vmlinux of a sched_ext kernel) it is
# dumped with bpftool. Without, the header shipped by Debian's linux-bpf-dev
# of the newest kernel in trixie-backports (which has CONFIG_SCHED_CLASS_EXT)
# is used. The header must come from a sched_ext-capable kernel: scx_cling
# needs struct sched_ext_ops; CO-RE makes the objects load on older kernels.
set -euo pipefail
arch=${1:?arch}; cache=${2:?cache}; btf=${3:-}
out=vmlinux/$arch/vmlinux.h
mkdir -p "vmlinux/$arch" "$cache"
if [ -n "$btf" ]; then
	bpftool btf dump file "$btf" format c > "$out.tmp"
else
	(cd "$cache" && rm -f linux-bpf-dev_*.deb && apt-get download -qq -t trixie-backports linux-bpf-dev) ||
		{ echo "gen-vmlinux: cannot download linux-bpf-dev from trixie-backports: run 'make deps' as root first" >&2; exit 1; }
	tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
	dpkg-deb -x "$cache"/linux-bpf-dev_*.deb "$tmp"
	cp "$(find "$tmp" -name vmlinux.h | head -1)" "$out.tmp"
fi
grep -q 'struct sched_ext_ops {' "$out.tmp" || { rm -f "$out.tmp"; echo "gen-vmlinux: that BTF has no sched_ext (struct sched_ext_ops): use a kernel with CONFIG_SCHED_CLASS_EXT=y" >&2; exit 1; }
mv "$out.tmp" "$out"
echo "gen-vmlinux: wrote $out ($(wc -c < "$out") bytes)"
