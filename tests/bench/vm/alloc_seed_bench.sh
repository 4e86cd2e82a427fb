# Seed 004's benchmark shapes (make bench; a report, never pass/fail),
# scaled to a 4-node TCG guest of 256 MiB per node, each arm RUNS times
# (default 5), arms interleaved within each round:
#  pft     two fault clients (threads) on node 1's CPU writing 2 x 32 MiB,
#          bound to node 1 (local) or node 3 (remote);
#  stream  one process on node 1's CPU touching 96 MiB (below one node) or
#          320 MiB (above one node) with the default policy;
#  file    a 320 MiB file on a virtio disk (ext4), page cache dropped,
#          read with read(2) from node 1's CPU with the default or the
#          interleave policy;
#  shm     64 MiB of MAP_SHARED anon, System V shared memory or a tmpfs
#          file, from node 1's CPU, default policy.
# One `numalens top --json -d 1` watches the whole bench; each run's
# intervals (from the first written after it started to the first after it
# ended) give numalens' figures, summed over every node (BPF events local /
# other and hit / miss) beside the kernel's numastat deltas of the same
# intervals, and the run's own process: its remote share and class split
# (anon / file / shmem / unclassified) of the pages it allocated. The
# workload measures its own CPU time (pages per CPU second). The guest
# emulates NUMA with no latency difference between nodes, so the seed's
# bandwidth and fault-rate gaps cannot appear; the checks are on the
# tool's figures. Prints "SEED arm=SHAPE_ARM run=R key=value ..." lines;
# tests/bench/alloc_seed.sh makes the table.
# vm: nodes=4 cpus_per_node=1 mem_per_node=256M timeout=3000 modules=virtio_blk,ext4 disk=448M
. /nl/lib.sh
taskset -p -c 0 $$ > /dev/null
RUNS=${RUNS:-5}
echo never > /sys/kernel/mm/transparent_hugepage/enabled
cpu1=$(nl_first_cpu_of_node 1)
[ -b /dev/vda ] || nl_fail "no /dev/vda (disk=)"
mke2fs -q -t ext4 /dev/vda > /dev/null 2>&1 || mke2fs -q /dev/vda > /dev/null 2>&1 || nl_fail "mke2fs /dev/vda"
mkdir -p /mnt/d /mnt/t
mount -t ext4 /dev/vda /mnt/d 2>/dev/null || mount -t ext2 /dev/vda /mnt/d || nl_fail "mount /dev/vda"
mount -t tmpfs -o size=200M tmpfs /mnt/t || nl_fail "mount tmpfs"
nlwork --file 320 --file-path /mnt/d/set > /dev/null || nl_fail "writing the file set"
sync

J=/tmp/seed.jsonl
nl_top $J 1 100000

# lines_after N: wait (at most 120 s) until $J has more than N lines.
lines_after() {
	local i=0
	while [ "$(wc -l < $J)" -le "$1" ]; do
		i=$((i + 1)); [ $i -le 1200 ] || nl_fail "numalens wrote no interval in 120 s"
		sleep 0.1
	done
}

# sum PATH...: each PATH summed over the slice /tmp/slice.jsonl, in one
# pass (tab-separated); a path with no number prints 0.
sum() {
	nljq -s /tmp/slice.jsonl "$@" | tr '\t' '\n' | sed 's/^null$/0/; s/^missing$/0/'
}

# measure ARM RUN NLWORK-ARGS...: one run, one SEED line.
measure() {
	local arm=$1 run=$2 l0 l1 pid out=/tmp/work.out
	shift 2
	# every run from the same memory state: the page cache an earlier
	# run (or the set-up writing the file set) left made a 96 MiB run spill
	# 23% remote
	sync; echo 3 > /proc/sys/vm/drop_caches
	l0=$(wc -l < $J)
	lines_after "$l0"		# start on an interval boundary
	l0=$(wc -l < $J)
	nlwork "$@" > $out 2>&1 || nl_fail "nlwork $*: $(cat $out)"
	lines_after "$(wc -l < $J)"	# the interval holding the end is out
	l1=$(wc -l < $J)
	sed -n "$((l0 + 1)),${l1}p" $J > /tmp/slice.jsonl
	pid=$(nl_work_field $out pid)
	local nl_l=0 nl_o=0 nl_h=0 nl_m=0 ns_l=0 ns_o=0 ns_h=0 ns_m=0 n v
	for n in 0 1 2 3; do
		set -- $(sum "nodes[nid=$n].bpf.events_local" "nodes[nid=$n].bpf.events_other" \
			"nodes[nid=$n].bpf.events_hit" "nodes[nid=$n].bpf.events_miss" \
			"nodes[nid=$n].numastat.local_node" "nodes[nid=$n].numastat.other_node" \
			"nodes[nid=$n].numastat.numa_hit" "nodes[nid=$n].numastat.numa_miss")
		nl_l=$((nl_l + $1)); nl_o=$((nl_o + $2)); nl_h=$((nl_h + $3)); nl_m=$((nl_m + $4))
		ns_l=$((ns_l + $5)); ns_o=$((ns_o + $6)); ns_h=$((ns_h + $7)); ns_m=$((ns_m + $8))
	done
	set -- $(sum "processes[pid=$pid].alloc.pages_local" "processes[pid=$pid].alloc.pages_remote" \
		"processes[pid=$pid].alloc.pages_by_class.anon" "processes[pid=$pid].alloc.pages_by_class.file" \
		"processes[pid=$pid].alloc.pages_by_class.shmem" "processes[pid=$pid].alloc.pages_by_class.unclassified")
	local pl=$1 pr=$2 an=$3 fl=$4 sh=$5 un=$6 tot
	tot=$((pl + pr))
	echo "SEED arm=$arm run=$run pages=$(nl_work_field $out touched_pages) cpu_ms=$(( $(nl_work_field $out cpu_ns) / 1000000 ))" \
		"rate=$(nl_calc "$(nl_work_field $out touched_pages) / ($(nl_work_field $out cpu_ns) / 1e9 + 1e-9)")" \
		"nl_events=$((nl_l + nl_o)) ns_events=$((ns_l + ns_o))" \
		"nl_remote_pct=$(nl_calc "100 * $nl_o / ($nl_l + $nl_o + 1e-9)") ns_remote_pct=$(nl_calc "100 * $ns_o / ($ns_l + $ns_o + 1e-9)")" \
		"nl_miss_pct=$(nl_calc "100 * $nl_m / ($nl_h + $nl_m + 1e-9)") ns_miss_pct=$(nl_calc "100 * $ns_m / ($ns_h + $ns_m + 1e-9)")" \
		"proc_pages=$tot proc_remote_pct=$(nl_calc "100 * $pr / ($tot + 1e-9)")" \
		"anon_pct=$(nl_calc "100 * $an / ($tot + 1e-9)") file_pct=$(nl_calc "100 * $fl / ($tot + 1e-9)")" \
		"shmem_pct=$(nl_calc "100 * $sh / ($tot + 1e-9)") unclass_pct=$(nl_calc "100 * $un / ($tot + 1e-9)")"
}

echo "seed bench: $RUNS rounds; node size $(awk '/MemTotal/ {print int($4 / 1024)}' /sys/devices/system/node/node1/meminfo) MiB; THP never"
for r in $(seq 1 "$RUNS"); do
	# the arm that goes first alternates per round
	if [ $((r % 2)) = 1 ]; then a=local b=remote; else a=remote b=local; fi
	for arm in $a $b; do
		node=1; [ $arm = remote ] && node=3
		measure pft_$arm $r --cpu "$cpu1" --node $node --threads 2 --anon 64
	done
	if [ $((r % 2)) = 1 ]; then a=96 b=320; else a=320 b=96; fi
	for mib in $a $b; do
		arm=small; [ $mib = 320 ] && arm=big
		measure stream_$arm $r --cpu "$cpu1" --anon $mib
	done
	if [ $((r % 2)) = 1 ]; then a=default b=interleave; else a=interleave b=default; fi
	for arm in $a $b; do
		if [ $arm = interleave ]; then
			measure file_$arm $r --cpu "$cpu1" --file 320 --file-path /mnt/d/set --read --interleave
		else
			measure file_$arm $r --cpu "$cpu1" --file 320 --file-path /mnt/d/set --read
		fi
	done
	measure shm_mapshared $r --cpu "$cpu1" --shmem 64
	measure shm_sysv $r --cpu "$cpu1" --sysv 64
	measure shm_tmpfs $r --cpu "$cpu1" --file 64 --file-path /mnt/t/f
	rm -f /mnt/t/f
done
nl_top_stop $J 0
echo "seed bench done"
