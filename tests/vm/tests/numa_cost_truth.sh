# Ground truth for numalens' locality figures, on the costed machine
# (numa_cost=on: the plugin counts every vCPU's cache-line misses by the
# node of the memory, tests/vm/numa_cost/). Four walkers one after the
# other, each pinned to a CPU of its own (1-4; numalens and this shell on
# CPU 0),
# 2 threads (the kernel never rescans the local pages of a single-threaded
# task), 16 MiB rewritten at every cache line, bound with NUMA balancing on
# (MPOL_F_NUMA_BALANCING: hinting faults are taken, nothing can move), with
# a known share of it bound to another node: 0, 25, 50 and 100%.
# Prints per walker where its pages are (move_pages) and what numalens top
# measured (its remote share of page
# allocations, its fault locality mean over the walk); the host check
# (numa_cost_truth.host) compares both with the plugin's counts for the
# walker's CPU.
# vm: cpus=2,1,1,1 mem_per_node=512M numa_cost=on timeout=200 kernel_args=isolcpus=1-4
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
echo never > /sys/kernel/mm/transparent_hugepage/enabled
echo 1 > /proc/sys/kernel/numa_balancing
D=/sys/kernel/debug/sched/numa_balancing
echo 100 > $D/scan_delay_ms && echo 200 > $D/scan_period_min_ms || nl_fail "cannot tune $D"
WALK=${WALK:-6}

J=/tmp/truth.jsonl
nl_top $J 1 100000
# name cpu home remote_node pct
set -- a 1 0 0 0  b 2 1 3 25  c 3 2 0 50  d 4 3 1 100
pids=''
while [ $# -ge 5 ]; do
	split=''; [ "$5" -gt 0 ] && split="--split $4:$5"
	# --page-nodes: where the pages are, asked once (move_pages) when the
	# walk is over; asking every 0.5 s during it (--access-stats) put
	# that bookkeeping's own local misses beside the walk's
	nlwork --cpu "$2" --node "$3" $split --balancing --anon 16 --threads 2 --stride 64 \
		--walk "$WALK" --page-nodes > /tmp/$1.work 2>&1 &
	eval "pid_$1=$! cpu_$1=$2 home_$1=$3 pct_$1=$5"
	wait $! || nl_fail "walker $1 failed: $(cat /tmp/$1.work)"
	shift 5
done
nl_top_stop $J 1
cat /tmp/[abcd].work
for w in a b c d; do
	eval "pid=\$pid_$w cpu=\$cpu_$w home=\$home_$w pct=\$pct_$w"
	# anon_nodes=N0,N1,...: the walker's pages per node
	share=$(nl_work_field /tmp/$w.work anon_nodes | awk -F, -v h="$home" '{ for (i = 1; i <= NF; i++) { t += $i; if (i - 1 != h) r += $i } } END { printf "%.4f", t ? r / t : -1 }')
	loc=$(nljq "$J" "processes[pid=$pid].alloc.pages_local_total" | grep -v 'null\|missing' | tail -1)
	rem=$(nljq "$J" "processes[pid=$pid].alloc.pages_remote_total" | grep -v 'null\|missing' | tail -1)
	# the fault locality: the mean of the intervals that had one
	lm=$(nljq "$J" "processes[pid=$pid].locality.mean" | grep -v 'null\|missing' |
		awk '{ s += $1; n++ } END { if (n) printf "%.4f %d", s / n, n; else print "null 0" }')
	echo "TRUTH walker=$w vcpu=$cpu split_pct=$pct page_remote_share=$share" \
		"alloc_remote_share=$(nl_calc "${rem:-0} / (${loc:-0} + ${rem:-0} + 0.000001)") locality_mean=${lm% *} locality_intervals=${lm#* }"
done
