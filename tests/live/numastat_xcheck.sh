# Per-node BPF allocation events (kmem:mm_page_alloc) must agree with the
# sysfs numastat deltas within 1% over the intervals in which a workload of
# >= 100,000 allocations ran (numastat counts events, not pages). What the
# tracepoint cannot see (the bulk allocator) is reported apart, as
# nodes[].numastat_unattributed, and printed here.
#
# numastat and the BPF events are host-wide: on a busy host other processes
# allocate too, and the ones that use the bulk allocator (vmalloc, fork's
# stacks, page pools) count in numastat only. So the test checks
#  - the workload's own BPF events against the pages it measured it touched
#    (within 1%: page tables and libc add a few hundred);
#  - BPF never above numastat by more than 1% (it cannot see more calls than
#    the kernel counted);
#  - numastat minus BPF within 1% plus what the host allocated unseen without
#    the workload: the largest numastat_unattributed of an interval just
#    before it, times the number of workload intervals. The FAIL line says
#    which part of the bound was the host's.
. "$(dirname "$0")/common.bash"
thp_off
J=$TMP/top.jsonl
# sampling forced, one in 4096 (a node total made of a few dozen samples
# would miss the 1% bounds): the node figures are counted for every
# allocation whatever the sample period, so the bounds hold; the process's
# own events, an estimate, are checked within its reported error instead.
start_top "$J" 1 600 --alloc-sample 4096
top_more_lines "$J" 3	# control intervals: the host without the workload
ctl=$(wc -l < "$J")
"$WORK" --cpu 0 --anon 256 --repeat 2 --hold 1 > "$TMP/work.out" || fail "nlwork failed"
stop_top "$J"
PID=$(work_field "$TMP/work.out" pid)
touched=$(work_field "$TMP/work.out" touched_pages)
[ -n "$PID" ] || PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' "$TMP/work.out")
# the workload's own events, over every interval it was in
own=$("$JQ" -s "$J" "processes[pid=$PID].alloc.events_local" "processes[pid=$PID].alloc.events_remote" |
	awk '{ print $1 + $2 }')
note "nlwork pid $PID: touched $touched pages, BPF saw $own allocator calls from it"
fails=0
# an estimate at one in 4096: within 1% plus four of the standard errors
# numalens reports (one is sqrt(4095 / events), about 18% at 131,072
# events, so this bound is loose: it catches a lost or doubled count, the
# node totals below are the exact check)
pct=$(awk -v t="$touched" 'BEGIN { printf "%d", 1 + 400 * sqrt(4095 / (t > 0 ? t : 1)) + 0.5 }')
within_pct "$own" "$touched" "$pct" || { echo "FAIL: nlwork's own BPF events $own (sampled) vs the $touched pages it touched differ by more than $pct%"; fails=1; }
# the intervals the workload was in: the line with its pid, after the control
lines=$("$JQ" "$J" "processes[pid=$PID].pid" | awk -v c="$ctl" '$1 != "missing" && NR > c { printf "%d ", NR }')
[ -n "$lines" ] || fail "pid $PID is in no interval of numalens top"
nwl=$(echo $lines | wc -w)
for nid in $(ls -d /sys/devices/system/node/node[0-9]* | sed 's/.*node//'); do
	v=$("$JQ" "$J" "nodes[nid=$nid].numastat.local_node" "nodes[nid=$nid].numastat.other_node" \
		"nodes[nid=$nid].bpf.events_local" "nodes[nid=$nid].bpf.events_other" "nodes[nid=$nid].numastat_unattributed")
	# k b k_local b_local unattributed, summed over the workload's lines;
	# host = the largest unattributed of a control interval (not the first:
	# it spans top's start-up) times the number of workload intervals
	read -r k b k_local b_local unattr host <<< "$(echo "$v" | awk -v L=" $lines" -v c="$ctl" -v n="$nwl" '
		index(L, " " NR " ") { k += $1 + $2; b += $3 + $4; kl += $1; bl += $3; u += $5 }
		NR > 1 && NR <= c && $5 > m { m = $5 }
		END { printf "%d %d %d %d %d %d\n", k, b, kl, bl, u, m * n }')"
	note "node $nid over $nwl interval(s): numastat local+other $k, BPF events $b, unattributed (bulk etc.) $unattr; host's own unattributed for as long: <= $host"
	[ "$k" -ge 100000 ] || { echo "FAIL: node $nid: the workload's intervals have only $k allocations, need >= 100000"; fails=1; }
	[ "$b" -le $((k + k / 100)) ] || { echo "FAIL: node $nid: BPF $b events exceed numastat $k by more than 1%"; fails=1; }
	[ $((k - b)) -le $((k / 100 + host)) ] ||
		{ echo "FAIL: node $nid: numastat $k minus BPF $b = $((k - b)), more than 1% ($((k / 100))) plus the host's unseen allocations ($host, measured without the workload)"; fails=1; }
	[ $((k_local - b_local)) -le $((k_local / 100 + host)) ] && [ "$b_local" -le $((k_local + k_local / 100)) ] ||
		{ echo "FAIL: node $nid: local BPF $b_local vs numastat $k_local (allowed: 1% plus the host's $host unseen)"; fails=1; }
done
exit $fails
