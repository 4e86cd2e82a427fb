# `numalens top --batch -n 2 -d 1` prints two text snapshots and exits 0;
# `--json -n 2` prints two JSON objects with the documented top-level keys
# and a node entry for every online node (docs/json.md).
. "$(dirname "$0")/common.bash"
"$NL" top --batch -n 2 -d 1 > "$TMP/batch.txt" 2> "$TMP/batch.err" || fail "--batch exited $?: $(cat "$TMP/batch.err")"
n=$(grep -c '^numalens top  seq' "$TMP/batch.txt")
[ "$n" = 2 ] || fail "expected 2 text snapshots, saw $n"
for h in '^NODES' '^PROCESSES' '^CGROUPS'; do
	[ "$(grep -c "$h" "$TMP/batch.txt")" = 2 ] || fail "expected section $h twice in --batch output"
done
grep -q ' numalens ' "$TMP/batch.txt" || fail "numalens itself should be listed as a process"

"$NL" top --json -n 2 -d 1 > "$TMP/top.jsonl" 2> "$TMP/json.err" || fail "--json exited $?: $(cat "$TMP/json.err")"
[ "$(wc -l < "$TMP/top.jsonl")" = 2 ] || fail "expected 2 JSON lines, saw $(wc -l < "$TMP/top.jsonl")"
seqs=$("$JQ" "$TMP/top.jsonl" seq | tr '\n' ' ')
[ "$seqs" = "1 2 " ] || fail "expected seq 1 then 2, saw $seqs"
for k in interval_ns kernel page_size sources.sched sources.alloc nodes processes cgroups self.drops; do
	v=$("$JQ" -L "$TMP/top.jsonl" "$k")
	[ "$v" != missing ] || fail "JSON key $k is missing"
done
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
for nid in $(ls -d /sys/devices/system/node/node[0-9]* | sed 's/.*node//'); do
	v=$("$JQ" -L "$TMP/top.jsonl" "nodes[nid=$nid].mem_total_bytes")
	[ "$v" != missing ] && [ "$v" -gt 0 ] || fail "node $nid: mem_total_bytes should be > 0, saw $v"
done
# interval_ns is the time the second snapshot covers: the gap between the
# two snapshots' timestamps, never shorter than the -d asked for (a busy
# host may make it longer: no upper bound on wall time here)
interval=$("$JQ" -L "$TMP/top.jsonl" interval_ns)
ts() { sed -n "${1}p" "$TMP/top.jsonl" | grep -o '"timestamp_ns":[0-9]*' | cut -d: -f2; }
gap=$(( $(ts 2) - $(ts 1) ))
within_pct "$interval" "$gap" 2 || fail "interval_ns should be the gap between the snapshots' timestamps ($gap ns), saw $interval"
[ "$interval" -ge 950000000 ] || fail "interval_ns should be >= the 1 s asked for, saw $interval"
note "2 text and 2 JSON snapshots, $nodes node(s), interval ${interval} ns"
# -p of a process that neither runs nor allocates: still shown, with its
# resident pages (it has no BPF figures to be listed by)
sleep 60 & SLP=$!
"$NL" top --json -n 1 -d 0.5 -p $SLP > "$TMP/idle.json" || fail "top -p $SLP exited $?"
kill $SLP
[ "$("$JQ" "$TMP/idle.json" "processes[pid=$SLP].comm")" = sleep ] ||
	fail "top -p of an idle process: not in processes ($(head -c 300 "$TMP/idle.json"))"
rss=$("$JQ" "$TMP/idle.json" "processes[pid=$SLP].rss_pages_by_node" | tr -c '0-9\n' ' ' |
	awk '{ for (i = 1; i <= NF; i += 2) s += $(i + 1) } END { print s + 0 }')
[ "$rss" -gt 0 ] || fail "top -p of an idle process: no resident pages ($rss)"
note "idle process $SLP with -p: shown, $rss resident pages"
# -p of a thread id: the figures are per process, so its process is shown
"$WORK" --threads 2 --spin 600 > /dev/null & WP=$!	# killed after top
for i in $(seq 1 50); do
	[ "$(ls /proc/$WP/task 2>/dev/null | wc -l)" -ge 3 ] && break
	sleep 0.1
done
TID=$(ls /proc/$WP/task | grep -v "^$WP\$" | head -1)
[ -n "$TID" ] || fail "nlwork --threads 2 started no thread"
# the CPU time the process got while top ran (its threads' schedstat), and
# how long top ran: on a busy host the spinners get less than 2 CPUs
c0=$(proc_cpu_ns $WP); t0=$(date +%s%N)
"$NL" top --json -n 1 -d 1 -p "$TID" > "$TMP/tid.json" 2> "$TMP/tid.err" || fail "top -p $TID exited $?: $(cat "$TMP/tid.err")"
c1=$(proc_cpu_ns $WP); t1=$(date +%s%N)
kill $WP 2>/dev/null; wait $WP 2>/dev/null
grep -q "is a thread of process $WP" "$TMP/tid.err" || fail "top -p $TID (a thread of $WP) did not say so: $(cat "$TMP/tid.err")"
run=$("$JQ" "$TMP/tid.json" "processes[pid=$WP].run_ns_total")
iv=$("$JQ" "$TMP/tid.json" interval_ns)
# its share of what it got while top ran (start-up included) that fell in
# the one interval: at least half of the pro-rata share
exp=$(awk -v c=$((c1 - c0)) -v i="$iv" -v w=$((t1 - t0)) 'BEGIN { printf "%.0f", c * i / w }')
note "thread $TID of $WP with -p: process shown, run_ns_total=$run; it got $((c1 - c0)) ns of CPU in the $((t1 - t0)) ns top ran (interval $iv ns: $exp ns pro rata)"
ge_pct "$run" "$exp" 50 || fail "top -p of a thread: its process should show >= 50% of the $exp ns of CPU it got pro rata in the interval, saw $run"
exit 0
