# scx_cling benchmark (make bench; a report, never pass/fail): a
# memory-bound multi-cgroup load, 4 cgroups x 3 threads (12 threads on 8
# CPUs), each cgroup's memory first touched on its own node, then unpinned.
# Arms, interleaved in one boot: the default scheduler and scx_cling with
# every cgroup a NUMA group. Per arm: work done (pages rewritten, summed
# over threads) and the share of the cgroups' CPU time on their home node
# (numalens). Prints "BENCH arm=... work=... home_share=..." lines.
# vm: nodes=4 cpus_per_node=2 mem_per_node=512M timeout=420
. /nl/lib.sh
taskset -p -c 0 $$ > /dev/null
WALK=${WALK:-16} MIB=64 ROUNDS=2

# arm NAME: one measured run; the cgroups are /cling_bench_<NAME><round>_<n>.
arm() {
	local a=$1 n pids='' J=/tmp/$1.jsonl cpus
	rm -f /tmp/$a.ready* /tmp/$a.work*
	for n in 0 1 2 3; do
		mkdir -p /sys/fs/cgroup/clb_${a}_$n
		cpus=$(nl_cpus_of_node $n)
		sh -c "echo \$\$ > /sys/fs/cgroup/clb_${a}_$n/cgroup.procs && exec nlwork --cpu $cpus --node $n --anon $MIB --threads 3 --after-cpu 0-7 --after-default --walk $WALK --ready-file /tmp/$a.ready$n" > /tmp/$a.work$n 2>&1 &
		pids="$pids $!"
	done
	for n in 0 1 2 3; do nl_wait_file /tmp/$a.ready$n 120; done
	nl_top $J 1 $((WALK - 4))
	nl_top_wait $J
	for n in $pids; do wait $n; done
	local work all=0 own=0 t o
	work=$(cat /tmp/$a.work* | sed -n 's/.* walked=//p' | tr ',' '\n' | awk '{s += $1} END {print s}')
	for n in 0 1 2 3; do
		t=$(nljq -L $J "cgroups[path=/clb_${a}_$n].run_ns_total")
		o=$(nljq -L $J "cgroups[path=/clb_${a}_$n].run_ns_total_by_node.$n")
		all=$(nl_calc "$all + $t"); own=$(nl_calc "$own + $o")
	done
	echo "BENCH arm=${a%%[0-9]*} round=${a##*[a-z]} work_pages=$work home_share=$(nl_calc "$own / ($all + 1)")"
}

for r in $(seq 1 $ROUNDS); do
	arm default$r
	scx_cling --all --ready-file /tmp/cling.ready > /tmp/cling$r.out 2>&1 &
	loader=$!
	nl_wait_file /tmp/cling.ready 30
	arm cling$r
	kill -INT $loader; wait $loader
	rm -f /tmp/cling.ready
done
