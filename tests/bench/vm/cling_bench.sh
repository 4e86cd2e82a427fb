# scx_cling benchmark (make bench, make bench-cling; a report, never
# pass/fail): memory-bound cgroups (LOAD below; by default 4 cgroups x 3
# threads, 12 threads on 8 CPUs), each cgroup's memory first touched on its
# own node, then unpinned; all walk together (released by one file once
# all have touched).
# Arms, interleaved in one boot: the default scheduler, scx_cling with
# every cgroup a NUMA group, and sched_ext with no policy (scx_smoke's one
# global FIFO), ROUNDS paired rounds (default 5), the arm that goes first
# rotating per round. Per arm: work done (pages
# rewritten, summed over threads: the real throughput), the share of that
# work done on a CPU of the cgroup's home node (where its memory was first
# touched) and the share of the walked pages that sat on another node than
# the CPU walking them, both as the workload itself saw them (nlwork
# --access-stats: getcpu for its CPU's node at each pass, move_pages for
# its pages' nodes every 0.5 s), and the CPU time the walks got (work per
# CPU-second: the placement's effect apart from how many CPUs an arm kept
# busy). Prints "BENCH arm=... run=... work_pages=... home_share=...
# remote_share=... walk_cpu_s=... work_per_cpu_s=... cpu_only_s=... matrix=..." lines (matrix: the walked
# pages by CPU node (rows, '/') x page node (columns, ','), summed over the
# groups) and once "BENCHDIST node0=d,d,.. node1=..", the guest's node
# distances, from which tests/bench/cling_report.sh models a memory cost.
# The guest's nodes are two pairs (distance 16 within a pair, 22 across),
# as on a two-socket machine with two nodes per socket, so that the model
# tells a near remote node from a far one.
# vm: cpus=2,2,2,2 mem_per_node=512M dist=10,16,22,22/16,10,22,22/22,22,10,16/22,22,16,10 timeout=1500
# LOAD (NL_VM_GUEST_ENV=LOAD=...) picks the groups, each "name node threads
# MiB [nlwork options]" (memory first touched on that node's CPUs):
#   groups   4 groups x 3 threads, 64 MiB each (more threads than a node's
#            CPUs; the default)
#   wake     the same, 8 MiB each, a 2 ms sleep after every pass (groups
#            that wake often)
#   split    4 x 3 threads, 64 MiB, half of it on the node's pair (a group
#            whose memory is split over two nodes)
#   cpuonly  3 memory groups (nodes 0-2) and a CPU-only group of 3
#            spinners with no memory to speak of (its CPU seconds are
#            reported as cpu_only_s)
#   small    8 groups x 1 thread, 16 MiB each, two per node
#   seedG-T  seed 003's table scaled to this guest: G groups (8 or 16: the
#            seed's 4 or 8 instances on 2 nodes, i.e. 2 or 4 groups per node)
#            of T threads, 16 MiB each, spread over the nodes in turn. The
#            seed's 24 / 48 / 72 threads per instance on 48-CPU nodes are
#            1 / 2 / 3 threads per CPU with 2 instances per node; here T =
#            1 / 2 / 3 on 2-CPU nodes gives the same load (seed8-T for the
#            seed's 4 instances, seed16-T for its 8).
# With NL_VM_NUMA_COST=on (make bench-cling) the guest's memory costs by
# distance (tests/vm/numa_cost/), so the work done is the measurement.
. /nl/lib.sh
taskset -p -c 0 $$ > /dev/null
WALK=${WALK:-16} ROUNDS=${ROUNDS:-5} LOAD=${LOAD:-groups}
case $LOAD in
groups) GROUPS_="g0 0 3 64|g1 1 3 64|g2 2 3 64|g3 3 3 64" ;;
wake) GROUPS_="g0 0 3 8 --nap 0.002|g1 1 3 8 --nap 0.002|g2 2 3 8 --nap 0.002|g3 3 3 8 --nap 0.002" ;;
split) GROUPS_="g0 0 3 64 --split 1:50|g1 1 3 64 --split 0:50|g2 2 3 64 --split 3:50|g3 3 3 64 --split 2:50" ;;
cpuonly) GROUPS_="g0 0 3 64|g1 1 3 64|g2 2 3 64" ;;
small) GROUPS_="g0 0 1 16|g1 1 1 16|g2 2 1 16|g3 3 1 16|g4 0 1 16|g5 1 1 16|g6 2 1 16|g7 3 1 16" ;;
seed8-[123]|seed16-[123])
	g=${LOAD#seed}; t=${g#*-}; g=${g%-*}; GROUPS_=''
	for i in $(seq 0 $((g - 1))); do GROUPS_="$GROUPS_${GROUPS_:+|}g$i $((i % 4)) $t 16"; done ;;
*) nl_fail "LOAD=$LOAD: one of groups, wake, split, cpuonly, small, seed8-T, seed16-T (T = 1, 2 or 3)" ;;
esac
echo "BENCHLOAD load=$LOAD walk_s=$WALK groups=$(echo "$GROUPS_" | tr ' |' '_,')"

# arm NAME: one measured run; the cgroups are /clb_<NAME>_<group>.
arm() {
	local a=$1 pids='' cpus g name node thr mib opts spin=''
	rm -f /tmp/$a.ready* /tmp/$a.work* /tmp/$a.go /tmp/$a.cpu
	local IFS_=$IFS; IFS='|'; set -- $GROUPS_; IFS=$IFS_
	for g in "$@"; do
		set -- $g; name=$1 node=$2 thr=$3 mib=$4; shift 4; opts="$*"
		mkdir -p /sys/fs/cgroup/clb_${a}_$name
		cpus=$(nl_cpus_of_node $node)
		sh -c "echo \$\$ > /sys/fs/cgroup/clb_${a}_$name/cgroup.procs && exec nlwork --cpu $cpus --node $node --anon $mib $opts --threads $thr --after-cpu 0-7 --after-default --walk $WALK --access-stats --ready-file /tmp/$a.ready$name --wait-file /tmp/$a.go" > /tmp/$a.work$name 2>&1 &
		pids="$pids $!"
	done
	for g in /tmp/$a.work*; do nl_wait_file "/tmp/$a.ready${g#/tmp/$a.work}" 120; done
	if [ "$LOAD" = cpuonly ]; then
		# the CPU-only group starts with the walk, on any CPU
		mkdir -p /sys/fs/cgroup/clb_${a}_c3
		sh -c "echo \$\$ > /sys/fs/cgroup/clb_${a}_c3/cgroup.procs && exec nlwork --cpu 0-7 --spin $WALK --threads 3" > /tmp/$a.cpu 2>&1 &
		spin=$!
	fi
	# All walk together: started one after another, the first
	# walked for seconds beside idle nodes on a slow guest.
	# the host snapshots the costed machine's counts at these two lines
	echo "BENCHMARK arm_start $a"
	touch /tmp/$a.go
	for n in $pids $spin; do wait $n; done
	echo "BENCHMARK arm_end $a"
	local work remote home wcpu cpuonly=0
	work=$(cat /tmp/$a.work* | sed -n 's/.* walked=\([^ ]*\).*/\1/p' | tr ',' '\n' | awk '{s += $1} END {print s}')
	remote=$(cat /tmp/$a.work* | sed -n 's/.* walked_remote=\([^ ]*\).*/\1/p' | tr ',' '\n' | awk '{s += $1} END {print s}')
	home=$(cat /tmp/$a.work* | sed -n 's/.* walked_home=\([^ ]*\).*/\1/p' | tr ',' '\n' | awk '{s += $1} END {print s}')
	wcpu=$(cat /tmp/$a.work* | sed -n 's/.* walk_cpu_ns=\([^ ]*\).*/\1/p' | tr ',' '\n' | awk '{s += $1} END {printf "%.3f", s / 1e9}')
	[ -s /tmp/$a.cpu ] && cpuonly=$(nl_calc "$(nl_work_field /tmp/$a.cpu spin_cpu_ns) / 1e9")
	# the groups' matrices summed cell by cell
	matrix=$(cat /tmp/$a.work* | sed -n 's/.* walked_matrix=\([^ ]*\).*/\1/p' | awk '
		{ r = split($0, row, "/"); for (i = 1; i <= r; i++) { c = split(row[i], v, ","); for (j = 1; j <= c; j++) m[i, j] += v[j] }
		  if (r > nr) nr = r; if (c > nc) nc = c }
		END { for (i = 1; i <= nr; i++) { for (j = 1; j <= nc; j++) printf "%.0f%s", m[i, j], j < nc ? "," : ""; if (i < nr) printf "/" } }')
	echo "BENCH arm=${a%%[0-9]*} run=${a##*[a-z]} work_pages=$work home_share=$(nl_calc "$home / ($work + 1)") remote_share=$(nl_calc "$remote / ($work + 1)") walk_cpu_s=$wcpu work_per_cpu_s=$(nl_calc "$work / ($wcpu + 0.000001)") cpu_only_s=$cpuonly matrix=${matrix:--}"
}

# the SLIT as the guest kernel has it, for the report's memory-cost model
dist=''
for d in /sys/devices/system/node/node[0-9]*; do dist="$dist ${d##*/}=$(tr ' ' ',' < $d/distance)"; done
echo "BENCHDIST$dist"

# cling_arm R [BIN NAME]: the scx_cling arm of round R (BIN, default
# scx_cling, as arm NAME, default cling).
cling_arm() {
	local bin=${2:-scx_cling} nm=${3:-cling} every=--delay
	# a "before" build may predate --delay (its old spelling was --stats)
	$bin --help 2>/dev/null | grep -q -- '--delay=' || every=--stats
	$bin --all $every 4 --ready-file /tmp/cling.ready > /tmp/$nm$1.out 2>&1 &
	loader=$!
	nl_wait_file /tmp/cling.ready 60
	arm $nm$1
	kill -INT $loader; wait $loader
	rm -f /tmp/cling.ready
	# The scheduler's own counters (attempts, failures, busy nodes, each
	# group's home), prefixed so that the report skips them.
	grep -E '^(scx_cling [0-9]|[0-9]+ +[0-9]|group /clb)' /tmp/$nm$1.out | sed "s/^/stats$nm$1: /"
}

# fifo_arm R: sched_ext with no policy at all (scx_smoke: one global FIFO
# queue, default slice), so the report can tell what sched_ext itself costs
# in this guest from what the cling policy costs or gains.
fifo_arm() {
	scx_smoke -t 100000 -r /tmp/fifo.ready > /tmp/fifo$1.out 2>&1 &
	loader=$!
	nl_wait_file /tmp/fifo.ready 60
	arm fifo$1
	kill -INT $loader; wait $loader
	rm -f /tmp/fifo.ready
}
before_arm() { cling_arm "$1" scx_cling_before before; }

# The arms of each round, the first one rotating per round; a fourth arm,
# "before", when the guest has another scx_cling build as
# /nl/bin/scx_cling_before (to compare two versions of the policy in one
# boot; docs/dev/benchmark-lab-notes.md shows how to put it there).
# NOBAL=1 adds "nobal": the default scheduler with kernel.numa_balancing=0,
# which tells what NUMA balancing costs or gains the default arm (sched_ext
# tasks take no hinting faults at all).
# ARMS (underscore-separated, as guest variables allow) picks others.
arms=$(echo "${ARMS:-default_cling_fifo}" | tr '_' ' ')
[ "${NOBAL:-0}" = 1 ] && arms="$arms nobal"
[ -x /nl/bin/scx_cling_before ] && arms="$arms before"
set -- $arms
for r in $(seq 1 $ROUNDS); do
	k=$(( (r - 1) % $# ))
	for i in $(seq 0 $(( $# - 1 ))); do
		j=$(( (k + i) % $# + 1 ))
		eval "a=\${$j}"
		case $a in
		default) arm default$r ;;
		nobal) echo 0 > /proc/sys/kernel/numa_balancing; arm nobal$r; echo 1 > /proc/sys/kernel/numa_balancing ;;
		cling) cling_arm $r ;;
		fifo) fifo_arm $r ;;
		before) before_arm $r ;;
		esac
	done
done
