# Per-node BPF allocation events (kmem:mm_page_alloc) must agree with the
# sysfs numastat deltas within 1% over a window dominated by a workload of
# >= 100,000 allocations (numastat counts events, not pages). What the
# tracepoint cannot see (the bulk allocator) is reported apart, as
# nodes[].numastat_unattributed, and printed here.
. "$(dirname "$0")/common.bash"
THP=/sys/kernel/mm/transparent_hugepage/enabled
old_thp=$(sed 's/.*\[\(.*\)\].*/\1/' $THP 2>/dev/null || echo "")
# base pages only, so 512 MiB is 131072 allocator calls
[ -n "$old_thp" ] && echo never > $THP
cleanup_hook() { [ -n "$old_thp" ] && echo "$old_thp" > $THP; }
start_top "$TMP/top.jsonl" 1 5
sleep 1.2
"$WORK" --cpu 0 --anon 256 --repeat 2 --hold 1 > "$TMP/work.out" || fail "nlwork failed"
wait $TOP_PID || fail "numalens exited $?: $(cat "$TMP/top.jsonl.err")"
fails=0
for nid in $(ls -d /sys/devices/system/node/node[0-9]* | sed 's/.*node//'); do
	v=$("$JQ" -s "$TMP/top.jsonl" "nodes[nid=$nid].numastat.local_node" "nodes[nid=$nid].numastat.other_node" \
		"nodes[nid=$nid].bpf.events_local" "nodes[nid=$nid].bpf.events_other" "nodes[nid=$nid].numastat_unattributed")
	read -r k_local k_other b_local b_other unattr <<< "$v"
	k=$((k_local + k_other)); b=$((b_local + b_other))
	note "node $nid: numastat local+other $k, BPF events $b, unattributed (bulk etc.) $unattr"
	[ "$k" -ge 100000 ] || { echo "FAIL: node $nid: window has only $k allocations, need >= 100000"; fails=1; }
	within_pct "$b" "$k" 1 || { echo "FAIL: node $nid: BPF $b vs numastat $k differ by more than 1%"; fails=1; }
	within_pct "$b_local" "$k_local" 1 || { echo "FAIL: node $nid: local BPF $b_local vs numastat $k_local"; fails=1; }
done
exit $fails
