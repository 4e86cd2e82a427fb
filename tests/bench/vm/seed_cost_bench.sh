# Seed 004's throughput runs on the costed machine (make bench-seeds; a
# report, never pass/fail): a 2-node guest, 2 CPUs per node, distance 20,
# whose memory costs by distance (NL_VM_NUMA_COST=on: a cache-line miss
# costs 500 ns local, 1,000 ns remote). The seed compared its kernel with
# the fair zone allocator (about 21% of allocations on the other node:
# 20.0 M misses against 73.8 M hits) with one that allocates locally; the
# arms here are that placement, forced per mapping so every run gets it:
#   local   every page on the CPU's node (node 0),
#   fair    the last 21% of each mapping on node 1 (nlwork --split),
#   remote  every page on node 1 (the bound of the effect).
# Shapes, each arm in every round, the arm order rotating per round:
#   pft C     C fault clients (threads, C = 1 and 2) on node 0's CPUs, each
#             faulting 32 MiB in and unmapping it, 3 times: faults per
#             CPU-second of the process (the seed's Faults/cpu);
#   stream    one thread on node 0's CPU rewriting every cache line of
#             32 MiB for WALK seconds: pages per CPU-second of the walk
#             (the seed's STREAM bandwidth; one kernel, a store to every
#             line, where STREAM has four).
# Prints "SEEDCOST shape=S arm=A run=R rate=X" lines; tests/bench/seed_cost.sh
# makes the table.
# vm: cpus=2,2 mem_per_node=512M dist=10,20/20,10 timeout=1500
. /nl/lib.sh
RUNS=${RUNS:-5} WALK=${WALK:-4}
echo never > /sys/kernel/mm/transparent_hugepage/enabled
# the shell and numalens-free housekeeping on node 1's second CPU, away
# from the measured ones
taskset -p -c 3 $$ > /dev/null
cpus0=$(nl_cpus_of_node 0)
cpu0=${cpus0%%[,-]*}

# place ARM: nlwork's placement options for an arm
place() {
	case $1 in
	local) echo "--node 0" ;;
	fair) echo "--node 0 --split 1:21" ;;
	remote) echo "--node 1" ;;
	esac
}

# run SHAPE ARM R NLWORK-ARGS...: one run, one SEEDCOST line.
run() {
	local shape=$1 arm=$2 r=$3 out=/tmp/seed.out rate
	shift 3
	nlwork "$@" > $out 2>&1 || nl_fail "nlwork $*: $(cat $out)"
	case $shape in
	stream) rate=$(nl_calc "$(nl_work_field $out walked) / ($(nl_work_field $out walk_cpu_ns) / 1e9 + 1e-9)") ;;
	*) rate=$(nl_calc "$(nl_work_field $out touched_pages) / ($(nl_work_field $out cpu_ns) / 1e9 + 1e-9)") ;;
	esac
	echo "SEEDCOST shape=$shape arm=$arm run=$r rate=$rate"
}

echo "seed cost bench: $RUNS rounds, node 0 CPUs $cpus0, walks $WALK s, THP never"
set -- local fair remote
for r in $(seq 1 "$RUNS"); do
	k=$(( (r - 1) % 3 ))
	for i in 0 1 2; do
		j=$(( (k + i) % 3 + 1 ))
		eval "a=\${$j}"
		run pft1 $a $r --cpu "$cpu0" $(place $a) --anon 32 --repeat 3
		run pft2 $a $r --cpu "$cpus0" $(place $a) --threads 2 --anon 64 --repeat 3
		run stream $a $r --cpu "$cpu0" $(place $a) --anon 32 --stride 64 --walk "$WALK"
	done
done
echo "seed cost bench done"
