# BPF run-time stats cost every BPF program on the host two clock reads
# per run, so numalens turns them on only with --self-cost: without it the
# snapshot says they are off (and numalens holds no BPF_ENABLE_STATS fd);
# with it they are on and numalens' sched_switch program shows run time.
. "$(dirname "$0")/common.bash"
[ "$(cat /proc/sys/kernel/bpf_stats_enabled)" = 0 ] ||
	skip "kernel.bpf_stats_enabled=1 on this host: the stats are on whatever numalens asks"
"$NL" top --json -n 2 -d 1 > "$TMP/off.jsonl" 2> "$TMP/off.err" || fail "top --json exited $?: $(cat "$TMP/off.err")"
off=$("$JQ" -L "$TMP/off.jsonl" self.bpf_stats_enabled)
[ "$off" = false ] || fail "without --self-cost the BPF stats should be off, self.bpf_stats_enabled=$off"
"$NL" top --json -n 2 -d 1 --self-cost > "$TMP/on.jsonl" 2> "$TMP/on.err" || fail "top --self-cost exited $?: $(cat "$TMP/on.err")"
on=$("$JQ" -L "$TMP/on.jsonl" self.bpf_stats_enabled)
[ "$on" = true ] || fail "with --self-cost the BPF stats should be on, self.bpf_stats_enabled=$on"
ns=$("$JQ" -L "$TMP/on.jsonl" "self.progs[name=handle_sched_switch].run_time_ns_total")
cnt=$("$JQ" -L "$TMP/on.jsonl" "self.progs[name=handle_sched_switch].run_cnt_total")
[ "$ns" != missing ] && [ "$ns" -gt 0 ] && [ "$cnt" -gt 0 ] ||
	fail "with --self-cost handle_sched_switch should show run time, saw run_cnt=$cnt run_time_ns=$ns"
note "off without --self-cost; with it handle_sched_switch ran $cnt times, $ns ns"
exit 0
