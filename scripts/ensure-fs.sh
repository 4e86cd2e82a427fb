#!/usr/bin/env bash
# Mount bpffs and tracefs if they are not mounted (hosts that boot without
# them, see shared/PLATFORM.md). Root only; says what it did.
set -u
[ "$(id -u)" = 0 ] || { echo "ensure-fs: not root: run as root (sudo make run)" >&2; exit 1; }
if ! mountpoint -q /sys/fs/bpf; then mount -t bpf bpf /sys/fs/bpf && echo "ensure-fs: mounted bpffs on /sys/fs/bpf" >&2; fi
if ! mountpoint -q /sys/kernel/tracing; then mount -t tracefs nodev /sys/kernel/tracing && echo "ensure-fs: mounted tracefs on /sys/kernel/tracing" >&2; fi
exit 0
