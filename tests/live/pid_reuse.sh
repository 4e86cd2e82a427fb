# A pid is reused (pids wrap: pid_max is 32768 by default). The second
# process must show its own name and its own figures: not the first's
# name, and not its counts minus the first's (which once hid it entirely).
# ns_last_pid hands out the first's pid again; on a busy host another fork
# may take it first, so it is tried a few times.
. "$(dirname "$0")/common.bash"
[ -w /proc/sys/kernel/ns_last_pid ] || skip "no writable /proc/sys/kernel/ns_last_pid"
cleanup_hook() { [ -n "${TOP_PID:-}" ] && kill "$TOP_PID" 2>/dev/null; }
A=nl-reuseA-$$ B=nl-reuseB-$$
start_top "$TMP/top.jsonl" 1 1000 -t 100000
[ -s "$TMP/top.jsonl" ] || wait_until 30 lines_ge "$TMP/top.jsonl" 1 || fail "top printed no snapshot: $(tail -1 "$TMP/top.jsonl.err")"
"$WORK" --comm "$A" --anon 64 > "$TMP/a.out" || fail "nlwork A failed"
pid=$(work_field "$TMP/a.out" pid)
# wait for the snapshot that saw A gone (listed as exited, or listed
# before and no longer): its entries are forgotten then, and B runs in the
# interval right after, whose previous reading still has A. Waiting for
# one more line raced with a starved top: that line could have been read
# before A ran, and B's exit then fell into the interval that held A.
a_gone() {
	head -n "$(wc -l < "$TMP/top.jsonl")" "$TMP/top.jsonl" > "$TMP/done.jsonl"
	"$JQ" "$TMP/done.jsonl" "processes[pid=$pid].comm" "processes[pid=$pid].alive" > "$TMP/alive"
	grep -qx "$A	false" "$TMP/alive" && return 0
	grep -qx "$A	true" "$TMP/alive" && [ "$(tail -1 "$TMP/alive")" = "missing	missing" ]
}
wait_until 60 a_gone || fail "no snapshot in 60 s saw $A (pid $pid) gone"
got=""
for try in 1 2 3 4 5 6 7 8; do
	echo $((pid - 1)) > /proc/sys/kernel/ns_last_pid
	"$WORK" --comm "$B" --anon 8 > "$TMP/b.out" || fail "nlwork B failed"
	[ "$(work_field "$TMP/b.out" pid)" = "$pid" ] && { got=$(work_field "$TMP/b.out" touched_pages); break; }
done
[ -n "$got" ] || skip "pid $pid was taken by another process 8 times"
stop_top "$TMP/top.jsonl"
# the rows for pid $pid, one per snapshot it appears in: comm, local and
# remote pages, tab-separated
"$JQ" "$TMP/top.jsonl" "processes[pid=$pid].comm" "processes[pid=$pid].alloc.pages_local" \
	"processes[pid=$pid].alloc.pages_remote" | grep -v missing > "$TMP/rows"
sed 's/^/  /' "$TMP/rows"
bp=$(awk -F '\t' -v b="$B" '$1 == b { s += $2 + $3 } END { print s + 0 }' "$TMP/rows")
grep -q "^$B	" "$TMP/rows" || fail "the process that reused pid $pid never appears under its own name ($B)"
[ "$bp" -ge "$got" ] || fail "$B (pid $pid): $bp pages counted over its snapshots, it touched $got"
echo "pid_reuse ok: $B has $bp pages (touched $got)"
