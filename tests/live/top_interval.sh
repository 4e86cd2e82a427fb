# An interval that ran late (here: top stopped with SIGSTOP for 10 s) is
# followed by full intervals: the next deadline counts from when top woke,
# so no interval is shorter than the delay to catch up (they took one
# collection's time each, back to back, and the rates were noisy). The
# delay is longer than a collection takes on a busy host (1-2 s). A busy
# host only makes intervals longer, so the lower bound holds there too.
. "$(dirname "$0")/common.bash"
"$NL" top --json -d 3 -n 6 > "$TMP/top.jsonl" 2> "$TMP/top.err" & TP=$!
cleanup_hook() { kill -CONT $TP 2>/dev/null; kill $TP 2>/dev/null; }
wait_until 60 lines_ge "$TMP/top.jsonl" 2 || fail "top wrote no 2 intervals within 60 s: $(cat "$TMP/top.err")"
kill -STOP $TP; sleep 10; kill -CONT $TP
wait $TP || fail "top exited $?: $(cat "$TMP/top.err")"
iv=$(for i in $(seq 1 6); do sed -n "${i}p" "$TMP/top.jsonl" | "$JQ" - interval_ns; done | tr '\n' ' ')
note "intervals (ns): $iv"
long=0
for n in $iv; do
	[ "$n" -ge 2700000000 ] || fail "an interval of $n ns after a late one: shorter than the 3 s delay (intervals: $iv)"
	[ "$n" -ge 9000000000 ] && long=$((long + 1))
done
[ $long -ge 1 ] || fail "no interval covers the 10 s stop (intervals: $iv)"
exit 0
