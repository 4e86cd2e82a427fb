# Per-zone page counts (nodes[].bpf.pages_by_zone, summed over nodes) must
# agree with the kernel's pgalloc_<zone> deltas (/proc/vmstat, base pages)
# within 1% over the intervals in which a workload of >= 100,000 pages ran.
# pgalloc counts the bulk allocator too, which fires no mm_page_alloc: as in
# numastat_xcheck.sh, what the host allocated unseen in control intervals
# just before the workload (the largest pgalloc - BPF of one, times the
# workload's intervals) is allowed on top of the 1%.
. "$(dirname "$0")/common.bash"
thp_off
J=$TMP/top.jsonl
# sampling forced, one in 4096 (a zone total made of a few dozen samples
# would miss the 1% bound): the zone figures are counted for every
# allocation whatever the sample period, so the bound holds.
start_top "$J" 1 600 --alloc-sample 4096
top_more_lines "$J" 3	# control intervals
ctl=$(wc -l < "$J")
"$WORK" --cpu 0 --anon 256 --repeat 2 --hold 1 > "$TMP/work.out" || fail "nlwork failed"
stop_top "$J"
PID=$(work_field "$TMP/work.out" pid)
lines=$("$JQ" "$J" "processes[pid=$PID].pid" | awk -v c="$ctl" '$1 != "missing" && NR > c { printf "%d ", NR }')
[ -n "$lines" ] || fail "pid $PID is in no interval of numalens top"
nwl=$(echo $lines | wc -w)
zones=$(tail -1 "$J" | python3 -c 'import json, sys; print(" ".join(json.loads(sys.stdin.read()).get("pgalloc", {})))')
[ -n "$zones" ] || fail "no pgalloc zones in the snapshot (nodes[].bpf.pages_by_zone missing)"
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | sed 's/.*node//')
fails=0 checked=0
for z in $zones; do
	paths="pgalloc.$z"
	for nid in $nodes; do paths="$paths nodes[nid=$nid].bpf.pages_by_zone.$z"; done
	# k (kernel) and b (BPF, summed over nodes) over the workload's lines;
	# host = the largest k - b of a control interval (not the first)
	read -r k b host <<< "$("$JQ" "$J" $paths | awk -v L=" $lines" -v c="$ctl" -v n="$nwl" '
		{ s = 0; for (i = 2; i <= NF; i++) s += $i; d = $1 - s }
		index(L, " " NR " ") { k += $1; b += s }
		NR > 1 && NR <= c && d > m { m = d }
		END { printf "%d %d %d\n", k, b, m * n }')"
	note "zone $z over $nwl interval(s): pgalloc $k pages, BPF $b; host's unseen for as long: <= $host"
	[ "$k" -ge 100000 ] || continue
	checked=$((checked + 1))
	[ "$b" -le $((k + k / 100)) ] || { echo "FAIL: zone $z: BPF $b pages exceed pgalloc $k by more than 1%"; fails=1; }
	[ $((k - b)) -le $((k / 100 + host)) ] ||
		{ echo "FAIL: zone $z: pgalloc $k minus BPF $b = $((k - b)), more than 1% ($((k / 100))) plus the host's unseen ($host)"; fails=1; }
done
[ "$checked" -gt 0 ] || fail "no zone had >= 100000 pages allocated in the workload's intervals"
exit $fails
