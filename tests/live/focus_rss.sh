# The process a user looks at gets its RSS per node whatever its rank:
# numa_maps is read for the busiest and largest --rss-procs processes only
# (it is costly for big ones), so a small idle process showed "-" under
# -p, in the detail window and under a name filter. With --rss-procs 1 a
# sleeping shell is neither the busiest nor the largest, yet -p shows its
# resident pages, within 5% of what statm says.
. "$(dirname "$0")/common.bash"
cleanup_hook() { [ -n "${SLP:-}" ] && kill "$SLP" 2>/dev/null && wait "$SLP" 2>/dev/null; }
sleep 600 & SLP=$!
wait_until 30 is_comm $SLP sleep || fail "the sleeper did not exec sleep within 30 s (comm: $(cat /proc/$SLP/comm 2>/dev/null))"
got=$(awk '{print $2}' /proc/$SLP/statm)
"$NL" top --json -n 2 -d 0.5 --rss-procs 1 -p $SLP > "$TMP/j" 2> "$TMP/j.err" || fail "top --json -p exited $?: $(cat "$TMP/j.err")"
tail -1 "$TMP/j" > "$TMP/last.json"
[ "$("$JQ" "$TMP/last.json" "processes[pid=$SLP].comm")" = sleep ] || fail "the sleeper ($SLP) is not listed: $(head -c 300 "$TMP/last.json")"
rss=$("$JQ" "$TMP/last.json" "processes[pid=$SLP].rss_pages_by_node")
[ "$rss" != null ] || fail "-p of a small idle process with --rss-procs 1: no RSS per node (rss_pages_by_node null)"
sum=$(echo "$rss" | tr -c '0-9\n' ' ' | awk '{ for (i = 1; i <= NF; i += 2) s += $(i + 1) } END { print s + 0 }')
within_pct "$sum" "$got" 5 || fail "the sleeper's RSS per node sums to $sum pages, statm says $got"
note "sleep $SLP under -p with --rss-procs 1: $sum resident pages over its nodes (statm $got)"
# --rss-procs 0: no process is read by rank, the one under -p still is
"$NL" top --json -n 2 -d 0.5 --rss-procs 0 > "$TMP/z" 2> "$TMP/z.err" || fail "top --json --rss-procs 0 exited $?: $(cat "$TMP/z.err")"
"$JQ" -L "$TMP/z" processes > "$TMP/z.procs"
read_by_rank=$(grep -o '"rss_pages_by_node":{' "$TMP/z.procs" | wc -l)
[ "$read_by_rank" = 0 ] || fail "--rss-procs 0 should read no numa_maps by rank, $read_by_rank processes have RSS per node"
grep -q '"rss_pages_by_node":null' "$TMP/z.procs" || fail "--rss-procs 0: no process listed with rss_pages_by_node null: $(head -c 300 "$TMP/z.procs")"
"$NL" top --json -n 2 -d 0.5 --rss-procs 0 -p $SLP > "$TMP/z" 2> "$TMP/z.err" || fail "top --json --rss-procs 0 -p exited $?: $(cat "$TMP/z.err")"
[ "$("$JQ" -L "$TMP/z" "processes[pid=$SLP].rss_pages_by_node")" != null ] || fail "--rss-procs 0 -p $SLP: the watched process has no RSS per node"
note "--rss-procs 0: no process read by rank, the -p one still read"
exit 0
