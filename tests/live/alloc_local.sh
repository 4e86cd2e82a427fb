# A workload pinned to one CPU touches N MiB; numalens top --json must show
# >= 90% of those pages as allocated by its pid, and its run time on that
# CPU's node.
. "$(dirname "$0")/common.bash"
MIB=128
CPU=$(( $(nproc) > 1 ? 1 : 0 ))
NODE=$(cpu_node $CPU)
start_top "$TMP/top.jsonl" 1 600
top_started "$TMP/top.jsonl"
"$WORK" --cpu $CPU --anon $MIB --spin-cpu 1 --hold 3 > "$TMP/work.out" || fail "nlwork failed: $(cat "$TMP/work.out")"
stop_top "$TMP/top.jsonl"
PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' "$TMP/work.out")
[ -n "$PID" ] || fail "no pid from nlwork: $(cat "$TMP/work.out")"
pages=$("$JQ" -s "$TMP/top.jsonl" "processes[pid=$PID].alloc.pages_local" "processes[pid=$PID].alloc.pages_remote")
local_p=$(echo "$pages" | cut -f1); remote_p=$(echo "$pages" | cut -f2)
[ "$local_p" != null ] || fail "pid $PID never appeared in numalens top --json"
want=$(work_field "$TMP/work.out" touched_pages)
total=$(( local_p + remote_p ))
note "pid $PID: $total pages allocated (local $local_p, remote $remote_p); touched $want"
ge_pct "$total" "$want" 90 || fail "expected >= 90% of $want pages for pid $PID, saw $total"
run=$("$JQ" -s "$TMP/top.jsonl" "processes[pid=$PID].run_ns" "processes[pid=$PID].run_ns_by_node.$NODE")
all=$(echo "$run" | cut -f1); on=$(echo "$run" | cut -f2)
note "run time: $on of $all ns on node $NODE"
ge_pct "$on" "$all" 95 || fail "expected >= 95% of run time on node $NODE, saw $on of $all ns"
got=$(work_field "$TMP/work.out" cpu_ns)
note "the workload measured cpu_ns=$got"
ge_pct "$all" "$got" 90 || fail "expected >= 90% of the $got ns of CPU time the workload measured, saw $all ns"
exit 0
