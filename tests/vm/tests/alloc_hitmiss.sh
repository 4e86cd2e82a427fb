# Hit, miss and foreign against the preferred node, as numastat counts
# them (numa_hit / numa_miss / numa_foreign, allocation events), from the
# BPF counts with the preferred node taken from the task's mempolicy.
# nlwork runs on node 1's CPU (base pages: THP off):
#  A. bound to node 3 (MPOL_BIND): every page a hit on node 3, though
#     remote to the CPU;
#  B. preferring node 2 (MPOL_PREFERRED) for more anonymous memory than
#     node 2 has free: the rest spills to other nodes, each a miss there
#     and a foreign on node 2.
#  C. B again with top counting one allocation in 4096 by process and
#     cgroup: the node figures count every allocation at any period, so
#     they keep the same bounds.
# In all, the BPF hit/miss/foreign events agree with the guest's numastat
# deltas over the intervals nlwork ran in (>= 100,000 allocations): per
# node within 1% where the node has a share of its own, summed over the
# nodes within 1% of the window's allocations.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=320 kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null	# keep the shell (and its children) on node 0
echo never > /sys/kernel/mm/transparent_hugepage/enabled
cpu1=$(nl_first_cpu_of_node 1)

# run_case OUT NLWORK_ARGS...: numalens top around nlwork on node 1; sets PID.
run_case() {
	local out=$1
	shift
	nl_top "$out" 1 600 ${TOP_ARGS:-}
	nlwork --cpu "$cpu1" "$@" --hold 1.5 > "$out.work" 2>&1 &
	PID=$!
	wait $PID || nl_fail "nlwork $* failed: $(cat "$out.work")"
	cat "$out.work"
	nl_top_until_gone "$out" $PID
}

# check_nodes OUT CASE: per node (those with >= 10,000 of a figure: within
# 1% of it) and summed over the nodes (within 1% of every allocation of the
# window: a figure that is near 0, like A's misses, may differ by a few
# kernel allocations that name their node, which the task policy cannot
# tell), BPF hit/miss/foreign vs numastat
check_nodes() {
	local f k b tk tb all=0 c=$2
	# the 24 sums in one nljq (a call per figure parsed the file 32 times
	# under TCG), in the order of the loops below: per figure, per node,
	# the numastat one, then the BPF one
	set -- $(nljq -s "$1" $(for f in hit miss foreign; do for nid in 0 1 2 3; do
		echo "nodes[nid=$nid].numastat.numa_$f nodes[nid=$nid].bpf.events_$f"; done; done))
	[ $# = 24 ] || nl_fail "$c: nljq gave $# sums for the nodes' 24 figures"
	all=$(($1 + $3 + $5 + $7 + $9 + ${11} + ${13} + ${15}))
	echo "$c: $all allocations (numa_hit + numa_miss, all nodes) in the window"
	nl_expect "$c: allocations in the window" "$all" -ge 100000
	for f in hit miss foreign; do
		tk=0 tb=0
		for nid in 0 1 2 3; do
			k=$1 b=$2; shift 2
			echo "node $nid $f: numastat $k, BPF $b"
			tk=$((tk + k)) tb=$((tb + b))
			[ "$k" -ge 10000 ] && nl_within "$c: node $nid numa_$f, BPF vs numastat" "$b" "$k" 1
		done
		d=$((tb - tk)); [ $d -lt 0 ] && d=$((-d))
		[ $((d * 100)) -le "$all" ] ||
			nl_fail "$c: all nodes numa_$f: BPF $tb vs numastat $tk differ by $d, more than 1% of the window's $all allocations"
		echo "ok: $c: all nodes numa_$f: BPF $tb vs numastat $tk (differ by $d of $all)"
	done
}

# --- A: bind to node 3 ---------------------------------------------------
J=/tmp/bind.jsonl
run_case $J --node 3 --anon 200 --repeat 2
hit=$(nl_sum $J "processes[pid=$PID].alloc.events_hit")
miss=$(nl_sum $J "processes[pid=$PID].alloc.events_miss")
echo "A: nlwork hit=$hit miss=$miss"
nl_expect "A: nlwork's hits (200 MiB x 2 of base pages)" "$hit" -ge 102400
nl_expect "A: nlwork's hit share" "$(nl_calc "$hit / ($hit + $miss)")" -ge 0.99
check_nodes $J A

# --- B: prefer node 2, more than it holds ----------------------------------
free2=$(awk '/MemFree/ { print int($4 / 1024) }' /sys/devices/system/node/node2/meminfo)
mib=$((free2 + 160))
J=/tmp/pref.jsonl
run_case $J --node 2 --preferred --anon $mib
hit=$(nl_sum $J "processes[pid=$PID].alloc.events_hit")
miss=$(nl_sum $J "processes[pid=$PID].alloc.events_miss")
echo "B: node 2 had $free2 MiB free, nlwork took $mib MiB: hit=$hit miss=$miss"
nl_expect "B: nlwork's misses (the part past node 2's free memory)" "$miss" -ge 20000
nl_expect "B: nlwork's events" "$((hit + miss))" -ge 100000
check_nodes $J B
f2=$(nl_sum $J "nodes[nid=2].bpf.events_foreign")
nl_expect "B: node 2's foreign covers nlwork's misses" "$(nl_calc "$f2 / $miss")" -ge 0.99

# --- C: B with sampling forced ----------------------------------------------
free2=$(awk '/MemFree/ { print int($4 / 1024) }' /sys/devices/system/node/node2/meminfo)
J=/tmp/sampled.jsonl
TOP_ARGS="--alloc-sample 4096" run_case $J --node 2 --preferred --anon $((free2 + 160))
period=$(nljq "$J" sources.alloc_sample_period | sort -u | tr '\n' ' ')
[ "$period" = "4096 " ] || nl_fail "C: expected sources.alloc_sample_period 4096 in every snapshot, saw: $period"
check_nodes $J C
echo "alloc_hitmiss ok"
