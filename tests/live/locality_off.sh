# With kernel.numa_balancing=0 no task's NUMA-hinting fault counters move,
# but they are neither cleared nor forgotten by fork. numalens must then put
# on-CPU time into no locality bucket: top --json shows empty buckets for a
# busy process whose counters were filled while balancing ran, and the
# exported locality histograms get no observations.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
SYSCTL=/proc/sys/kernel/numa_balancing
[ -w $SYSCTL ] || skip "kernel.numa_balancing is not writable here (kernel without NUMA balancing)"
OLD=$(cat $SYSCTL)
cleanup_hook() { echo "$OLD" > $SYSCTL; stop_export; kill ${WP:-} 2>/dev/null; }

# 1. balancing on: the walker takes hinting faults, so its counters fill.
echo 1 > $SYSCTL
"$WORK" --anon 64 --walk 300 --ready-file "$TMP/ready" > "$TMP/work.out" &
WP=$!
# the first scan comes after about a second of the task's own CPU time;
# wait for 3 s of it (its own clock, not ours: the machine may be busy)
cpu_s() { awk '{ print int(($14 + $15) / '"$(getconf CLK_TCK)"') }' /proc/$WP/stat 2>/dev/null || echo 0; }
for i in $(seq 1 1200); do [ "$(cpu_s)" -ge 3 ] && break; sleep 0.1; done
start_top "$TMP/on.jsonl" 1 3 -p $WP
wait $TOP_PID || fail "numalens top exited $?: $(cat "$TMP/on.jsonl.err")"
on=$("$JQ" -L "$TMP/on.jsonl" $(for b in 0 1 2 3 4 5 6 7; do echo "processes[pid=$WP].locality.buckets_ns_total[$b]"; done) | tr '\t' '+')
on=${on//missing/0}; on=$(( ${on//null/0} ))
note "balancing on: $on ns of the walker's run time binned"
[ "$on" -gt 0 ] || skip "no NUMA-hinting faults reached the walker with balancing on (kernel does not scan here)"

# 2. balancing off: its run time must reach no bucket, in top and in export.
echo 0 > $SYSCTL
start_top "$TMP/off.jsonl" 1 3 -p $WP
PORT=$(free_port) || fail "no free port"
start_export "$PORT" --delay 1
# two real intervals (snapshot 2 is the first), however slow the host
wait_export_snapshot "$PORT" 3
curl -s "http://127.0.0.1:$PORT/metrics" > "$TMP/m" || fail "scrape failed"
wait $TOP_PID || fail "numalens top exited $?: $(cat "$TMP/off.jsonl.err")"
run=$("$JQ" -s "$TMP/off.jsonl" "processes[pid=$WP].run_ns")  # summed over the intervals
off=$("$JQ" -s "$TMP/off.jsonl" $(for b in 0 1 2 3 4 5 6 7; do echo "processes[pid=$WP].locality.buckets_ns[$b]"; done) | tr '\t' '+')
off=${off//missing/0}; off=$(( ${off//null/0} ))
avail=$("$JQ" "$TMP/off.jsonl" "processes[pid=$WP].locality.available" | grep -c true)
note "balancing off: the walker ran $run ns, $off ns of it binned, intervals with locality available: $avail"
[ "$run" != null ] && [ "$run" -gt 0 ] || fail "the walker (pid $WP) got no run time in top --json: $(tail -2 "$TMP/off.jsonl.err")"
[ "$off" = 0 ] || fail "with numa_balancing=0, $off of the walker's $run ns went into locality buckets (want 0)"
[ "$avail" = 0 ] || fail "locality.available should be false with numa_balancing=0, was true in $avail intervals"
obs=$(awk '/^numalens_[a-z_]*fault_locality_ratio_count/ { s += $NF } END { print s + 0 }' "$TMP/m")
series=$(grep -c '^numalens_[a-z_]*fault_locality_ratio_count' "$TMP/m")
note "export: $series locality histogram series, $obs s observed in all"
[ "$obs" = 0 ] || fail "with numa_balancing=0 the exported locality histograms hold $obs s of observations (want 0): $(grep '^numalens_[a-z_]*fault_locality_ratio_count' "$TMP/m" | grep -v ' 0$' | head -3)"
exit 0
