# BPF run-time stats cost every BPF program on the host two clock reads
# per run, so numalens turns them on only with --self-cost: without it
# numalens holds no BPF_ENABLE_STATS fd (an anon inode "bpf-stats") and,
# unless the sysctl is on, the snapshot says the stats are off; with it
# numalens holds the fd and its sched_switch program shows run time.
. "$(dirname "$0")/common.bash"
# holds_stats PID: true while PID has a BPF_ENABLE_STATS fd open
holds_stats() { ls -l /proc/"$1"/fd 2>/dev/null | grep -q 'anon_inode:bpf-stats'; }
# first_snapshot_holds OUT ARGS...: run top --json for 3 intervals, say
# "yes" or "no" for the stats fd once the first snapshot is out
first_snapshot_holds() {
	local out=$1 i held=no; shift
	"$NL" top --json -d 1 -n 3 "$@" > "$out" 2> "$out.err" &
	local pid=$!
	for i in $(seq 1 300); do [ -s "$out" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	holds_stats $pid && held=yes
	wait $pid || fail "top --json $* exited $?: $(cat "$out.err")"
	echo $held
}
off=$(first_snapshot_holds "$TMP/off.jsonl")
[ "$off" = no ] || fail "without --self-cost numalens should hold no BPF stats fd"
on=$(first_snapshot_holds "$TMP/on.jsonl" --self-cost)
[ "$on" = yes ] || fail "with --self-cost numalens should hold a BPF stats fd"
[ "$("$JQ" -L "$TMP/on.jsonl" self.bpf_stats_enabled)" = true ] || fail "with --self-cost self.bpf_stats_enabled should be true"
if [ "$(cat /proc/sys/kernel/bpf_stats_enabled)" = 0 ]; then
	v=$("$JQ" -L "$TMP/off.jsonl" self.bpf_stats_enabled)
	[ "$v" = false ] || fail "without --self-cost (sysctl off) self.bpf_stats_enabled should be false, saw $v"
fi
ns=$("$JQ" -L "$TMP/on.jsonl" "self.progs[name=handle_sched_switch].run_time_ns_total")
cnt=$("$JQ" -L "$TMP/on.jsonl" "self.progs[name=handle_sched_switch].run_cnt_total")
[ "$ns" != missing ] && [ "$ns" -gt 0 ] && [ "$cnt" -gt 0 ] ||
	fail "with --self-cost handle_sched_switch should show run time, saw run_cnt=$cnt run_time_ns=$ns"
note "no stats fd without --self-cost; with it handle_sched_switch ran $cnt times, $ns ns"
exit 0
