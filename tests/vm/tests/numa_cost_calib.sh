# The costed machine's calibration (tests/vm/numa_cost/): a memory-bound
# walker pinned to node 0's CPU rewrites every cache line of 8 MiB (4 times
# the modelled cache) bound to node 0 (local), node 1 (near, distance 16)
# and node 2 (far, 22), twice each, interleaved; its throughput (pages
# rewritten per second of its walk) must follow the distances' inverse,
# local : near : far = 1 : 10/16 : 10/22, within 15%.
# A 1 MiB set walked at every cache line fits the modelled 2 MiB cache, so
# it must cost nothing extra, near or far. That is judged from the plugin's
# own counts, not from the walk's speed (a TCG guest's clock is the host's,
# and a cache-sized walk is TCG-bound, so its speed follows whatever else the
# host runs: one CI run had far 17% faster than local): the walker runs
# alone on CPU 3, and numa_cost_calib.host holds that vCPU's misses to a
# small share of the lines it walked.
# vm: cpus=1,1,1,1 mem_per_node=512M dist=10,16,22,22/16,10,22,22/22,22,10,16/22,22,16,10 numa_cost=on timeout=150 alone=1
. /nl/lib.sh
taskset -p -c 1 $$ > /dev/null
WALK=${WALK:-4}

# walk NODE MIB [STRIDE [CPU]]: pages rewritten per second by a walker on
# CPU (0 by default) over MIB bound to NODE (after one pass to fault the
# pages in)
walk() {
	nlwork --cpu "${4:-0}" --node "$1" --anon "$2" ${3:+--stride $3} --walk "$WALK" > /tmp/w.out 2>&1 ||
		nl_fail "nlwork on node $1: $(cat /tmp/w.out)"
	nl_calc "$(nl_work_field /tmp/w.out walked) / $WALK"
}
l=0; n=0; f=0
for r in 1 2; do
	a=$(walk 0 8 64); b=$(walk 1 8 64); c=$(walk 2 8 64)
	echo "round $r: local $a near $b far $c pages/s"
	l=$(nl_calc "$l + $a"); n=$(nl_calc "$n + $b"); f=$(nl_calc "$f + $c")
done
near=$(nl_calc "$n / $l"); far=$(nl_calc "$f / $l")
echo "CALIB near/local=$near far/local=$far (want 0.625 and 0.4545)"
# the cache-sized set on CPU 3 (node 3), local and far (node 0, distance 22)
cl=0; cf=0
for r in 1 2 3; do
	a=$(walk 3 1 64 3); c=$(walk 0 1 64 3)
	cl=$(nl_calc "$cl + $a"); cf=$(nl_calc "$cf + $c")
done
echo "CALIB cache-sized far/local=$(nl_calc "$cf / $cl") ($cf / $cl pages/s, shown only)"
# what the host check needs: every 64-byte line the CPU 3 walks rewrote
echo "CACHE vcpu=3 lines_walked=$(nl_calc "($cl + $cf) * $WALK * 64")"
nl_within "near/local throughput against 10/16" "$near" 0.625 15
nl_within "far/local throughput against 10/22" "$far" 0.4545 15
