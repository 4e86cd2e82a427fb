# BTF, checked the same way by every command: a --btf file that cannot be
# read or is not a kernel's BTF is a one-line usage error (exit 2); without
# the kernel's BTF (hidden here by a tmpfs over /sys/kernel/btf in a private
# mount namespace) top, export, vmscan and reclaim all say so in the same
# one line (exit 4) -- reclaim used to blame "the lottery BPF program"; with
# --btf and a copy of that BTF the CO-RE programs on classic tracepoints
# load, and scx_cling refuses --btf saying why.
. "$(dirname "$0")/common.bash"
command -v unshare > /dev/null || skip "unshare (util-linux) is not installed"
[ -r /sys/kernel/btf/vmlinux ] || skip "this kernel has no /sys/kernel/btf/vmlinux to hide"
cmds=("top -n 1 -d 0.3 --json" "export --listen 127.0.0.1:1" "vmscan -n 1 -d 0.3" "reclaim --dry-run --duration 1 /")
for c in "${cmds[@]}"; do
	for bad in /nonexistent /etc/passwd; do
		$NL $c --btf $bad > /dev/null 2> "$TMP/e"; rc=$?
		[ $rc = 2 ] || fail "$c --btf $bad: exit $rc, want 2 ($(cat "$TMP/e"))"
		[ "$(wc -l < "$TMP/e")" = 1 ] || fail "$c --btf $bad: not one line: $(cat "$TMP/e")"
		grep -q -- "--btf $bad" "$TMP/e" || fail "$c --btf $bad: the message does not name it: $(cat "$TMP/e")"
	done
done
note "--btf /etc/passwd: $(cat "$TMP/e")"
cp /sys/kernel/btf/vmlinux "$TMP/vmlinux.btf"
# no kernel BTF: one line, the same for every command
unset first
for c in "${cmds[@]}"; do
	unshare -m sh -c "mount -t tmpfs none /sys/kernel/btf && exec timeout 60 $NL $c" > /dev/null 2> "$TMP/e"; rc=$?
	[ $rc = 4 ] || fail "$c without kernel BTF: exit $rc, want 4 ($(cat "$TMP/e"))"
	[ "$(wc -l < "$TMP/e")" = 1 ] || fail "$c without kernel BTF: not one line: $(cat "$TMP/e")"
	msg=$(sed 's/^[^:]*: //' "$TMP/e")
	case "$msg" in *"has no BTF (/sys/kernel/btf/vmlinux)"*) ;; *) fail "$c without kernel BTF says: $(cat "$TMP/e")";; esac
	[ "$msg" = "${first:=$msg}" ] || fail "$c without kernel BTF: '$msg' differs from '$first'"
done
note "no kernel BTF, every command: $first"
# --btf given: what libbpf can relocate with it loads (the page allocator
# figures, on a classic tracepoint)
unshare -m sh -c "mount -t tmpfs none /sys/kernel/btf && exec timeout 60 $NL top --json -n 1 -d 0.3 --btf $TMP/vmlinux.btf" \
	> "$TMP/top.json" 2> "$TMP/e" || fail "top --btf <copy> without kernel BTF exited $?: $(cat "$TMP/e")"
[ "$("$JQ" "$TMP/top.json" sources.alloc)" = true ] || fail "top --btf <copy>: allocations not loaded: $(cat "$TMP/e")"
note "top --btf <copy> without kernel BTF: alloc=$("$JQ" "$TMP/top.json" sources.alloc) sched=$("$JQ" "$TMP/top.json" sources.sched)"
# and on a kernel with BTF, --btf of the kernel's own file works like none
$NL top --json -n 1 -d 0.3 --btf /sys/kernel/btf/vmlinux > "$TMP/top2.json" 2> "$TMP/e" || fail "top --btf /sys/kernel/btf/vmlinux exited $?: $(cat "$TMP/e")"
[ "$("$JQ" "$TMP/top2.json" sources.sched)" = true ] || fail "top --btf /sys/kernel/btf/vmlinux: no sched program"
if [ -x "$B/scx_cling" ]; then
	"$B/scx_cling" --btf "$TMP/vmlinux.btf" > /dev/null 2> "$TMP/e"; rc=$?
	[ $rc = 2 ] || fail "scx_cling --btf: exit $rc, want 2"
	grep -q "cannot use a BTF file" "$TMP/e" || fail "scx_cling --btf does not say why: $(cat "$TMP/e")"
	note "scx_cling --btf: $(head -1 "$TMP/e")"
fi
exit 0
