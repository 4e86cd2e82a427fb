# numa_maps walks every page table of a process: top reuses a process's
# last reading while little can have moved its pages (nothing migrated,
# pages allocated since plus the change of its resident size by statm
# within 1/256 of it, < 5 s old), and reads it again as soon as one of
# these is over. Here a process maps 32 MiB of a file that is already in
# the page cache: its resident size grows without one page being
# allocated, so only the statm rule can notice it.
# Its RSS per node must follow (within 5% of statm) after it grew, and the
# host's idle processes must be reused meanwhile (self.numa_maps_reused).
. "$(dirname "$0")/common.bash"
cleanup_hook() {
	[ -n "${TOP_PID:-}" ] && kill "$TOP_PID" 2>/dev/null
	[ -n "${WP:-}" ] && kill "$WP" 2>/dev/null && wait "$WP" 2>/dev/null
	rm -f "$TMP/f"
}
dd if=/dev/zero of="$TMP/f" bs=1M count=32 status=none || fail "cannot write $TMP/f"
cat "$TMP/f" > /dev/null		# in the page cache: mapping it allocates nothing
"$WORK" --file 32 --file-path "$TMP/f" --file-exists --passes 1 --wait-file "$TMP/go" \
	--ready-file "$TMP/ready" --hold 120 > "$TMP/w.out" 2>&1 & WP=$!
wait_until 60 test -f "$TMP/ready" || fail "nlwork did not get ready: $(cat "$TMP/w.out")"
before=$(awk '{print $2}' /proc/$WP/statm)
start_top "$TMP/top.jsonl" 0.5 1000 -p $WP
top_started "$TMP/top.jsonl"
top_more_lines "$TMP/top.jsonl" 2
touch "$TMP/go"
# the passes map and read the file: wait until statm shows it
wait_until 60 sh -c "[ \$(awk '{print \$2}' /proc/$WP/statm) -ge $((before + 7000)) ]" ||
	fail "nlwork's resident size did not grow by the 32 MiB mapped (statm $(awk '{print $2}' /proc/$WP/statm), before $before)"
after=$(awk '{print $2}' /proc/$WP/statm)
stop_top "$TMP/top.jsonl" 2
tail -1 "$TMP/top.jsonl" > "$TMP/last.json"
sum=$("$JQ" "$TMP/last.json" "processes[pid=$WP].rss_pages_by_node" | tr -c '0-9\n' ' ' |
	awk '{ for (i = 1; i <= NF; i += 2) s += $(i + 1) } END { print s + 0 }')
note "nlwork $WP: statm $before pages before mapping, $after after; top's last RSS per node sums to $sum"
within_pct "$sum" "$after" 5 || fail "after mapping 32 MiB of cached file, top shows $sum resident pages, statm says $after (a stale reading reused?)"
reused=$(grep -o '"numa_maps_reused":[0-9]*' "$TMP/top.jsonl" | cut -d: -f2 | sort -n | tail -1)
read=$(grep -o '"numa_maps_read":[0-9]*' "$TMP/top.jsonl" | cut -d: -f2 | sort -n | tail -1)
note "per interval at most: $read numa_maps read, $reused reused"
[ "${reused:-0}" -ge 1 ] || fail "no numa_maps reading was ever reused (self.numa_maps_reused stayed 0)"
exit 0
