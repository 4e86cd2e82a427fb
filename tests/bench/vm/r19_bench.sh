# Scaled-down stand-in for the seed's S0 benchmark (spec/seed_reclaim.md
# R19, §3.1-3.2: a kernel build, `make -j 8`, in a 500M memcg on 4 fake NUMA
# nodes; anon and page cache on every node, reclaim forced all the time).
# What made S0 stress reclaim: a working set (compiler heaps = hot anon,
# sources/headers/objects = page cache, re-read) well above the limit, and
# spread unevenly over the nodes so that a victim node chosen blindly
# (round-robin) often holds only hot anon. Here, per node (Kame's own
# example in S0:L1382-1393 has the same shape: node 2 anon only):
#   node 0: file 24 MiB + anon 8 MiB     node 2: anon 16 MiB, no file
#   node 1: file 24 MiB + anon 8 MiB     node 3: file 16 MiB + anon 4 MiB
# = 100 MiB (64 file, 36 anon) in a memory.max 64M cgroup. One nlwork per
# node, pinned to that node's CPU and bound to it (MPOL_BIND), writes its
# file on an ext2 virtio disk, touches its anon, then makes PASSES passes
# over both (anon rewritten, file read through a mapping: evicted pages
# come back as major faults). Swap on zram, MGLRU (the 7.3 default).
# Arms, interleaved (order rotated each run), RUNS runs each: no agent, agent with the round-robin
# victim, agent with the BPF lottery, the lottery with the seed's inverted
# anon test (--anon-rule code, "lotbug"); the backend the agent picks
# (lru_gen in this guest: cold pages of the drawn node), --high 90% --low 80%
# so the agent reclaims just ahead of the limit, PSI back-off off as in
# reclaim_bench.sh, interval 1 s as there). Before each run: sync, drop_caches (S0's script).
# Reclaim time and scanning are `numalens vmscan --json` figures for the
# run's cgroup (limit context = the seed's *_by_limit); one vmscan runs for
# the whole bench and every run's cgroup stays until the end so its totals
# are in the last report. One line per run:
#   R19 arm=.. run=.. elapsed_ms=.. majfault=.. events_max=..
#       reclaim_ns=.. scan_anon=.. scan_file=.. freed=.. agent_pages=..
#       agent_pageout=.. agent_memcg=.. pageout_n0..3=..
#       refault_anon=.. refault_file=..  (memory.stat workingset_refault_*:
#       evicted pages that came back, by type)
# agent_pages is the agent's own count (memory.numa_stat drops over its
# steps: the limit reclaim running meanwhile is in it too); agent_pageout
# (per node: pageout_nN) is what vmscan saw the agent's MADV_PAGEOUT free
# (charged to the agent's own cgroup /r19ag/ARM-RUN), agent_memcg what memory.reclaim freed (the agent's fallback).
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=6000 modules=zram,virtio_blk,ext4 disk=256M
. /nl/lib.sh
nl_need_numalens
RUNS=${RUNS:-10}; PASSES=${PASSES:-12}; VERBOSE_AGENT=${VERBOSE_AGENT:-0}
# the agents' watermarks (edit here, e.g. "--high 80% --low 60%" to reclaim
# further ahead: the guest gets no environment from the host)
WM=${WM:---high 90% --low 80%}
# THP "madvise": with "always" (this guest's default) khugepaged collapses
# the read-only file mappings into huge pages that nobody maps until the
# next pass, so the mapped page cache standing in for S0's headers turns
# into unmapped page cache (which the agent leaves to the kernel under
# lru_gen); S0's 2011 kernel had no file THP. Both were measured
# (docs/reclaim.md).
echo madvise > /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
FILE_MIB="24 24 0 16"; ANON_MIB="8 8 16 4"
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || nl_fail "zram"
nl_mount_disk
P=/sys/fs/cgroup/r19
mkdir $P && echo +memory > $P/cgroup.subtree_control || nl_fail "cannot create $P"
AGCG=/sys/fs/cgroup/r19ag; mkdir $AGCG || nl_fail "cannot create $AGCG"
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
echo "lru_gen $(cat /sys/kernel/mm/lru_gen/enabled), swappiness $(cat /proc/sys/vm/swappiness), THP $(cat /sys/kernel/mm/transparent_hugepage/enabled), memory.max 64M, passes $PASSES, agents $WM"
echo "layout MiB file N0..3: $FILE_MIB; anon N0..3: $ANON_MIB"

VS=/tmp/r19-vs.jsonl
taskset -c 0 "$NUMALENS" vmscan --json -d 60 -n 0 > $VS 2> $VS.err &
VS_PID=$!
i=0; while [ ! -s $VS ]; do
	kill -0 $VS_PID 2>/dev/null || nl_fail "numalens vmscan exited: $(tail -2 $VS.err | tr '\n' ' ')"
	i=$((i + 1)); [ $i -le 600 ] || nl_fail "numalens vmscan wrote nothing in 60 s"; sleep 0.1
done

# work CG: the four per-node nlwork processes in CG, waited for.
work() {
	local n f a cmd=
	for n in 0 1 2 3; do
		f=$(echo $FILE_MIB | cut -d' ' -f$((n + 1))); a=$(echo $ANON_MIB | cut -d' ' -f$((n + 1)))
		cmd="$cmd nlwork --cpu $(nl_first_cpu_of_node $n) --node $n --anon $a"
		[ "$f" -gt 0 ] && cmd="$cmd --file $f --file-path /mnt/d/f$n"
		cmd="$cmd --passes $PASSES --ready-file /tmp/r19-rdy$n --wait-file /tmp/r19-go > /tmp/r19-w$n.out 2>&1 &"
	done
	rm -f /tmp/r19-rdy* /tmp/r19-go
	sh -c "echo \$\$ > $1/cgroup.procs; $cmd wait" &
	for n in 0 1 2 3; do nl_wait_file /tmp/r19-rdy$n 120; done
	# the spread as it stands when the passes start (first run only)
	[ "$2" = 1 ] && awk '$1 == "anon" || $1 == "file" { printf "numa_stat at start of passes ('"$3"'): %s", $1
		for (i = 2; i <= NF; i++) { split($i, a, "="); printf " %s=%dM", a[1], a[2] / 1048576 } print "" }' $1/memory.numa_stat
	touch /tmp/r19-go
	wait $!
}

: > /tmp/r19-runs
# arms_of RUN: the four arms in run RUN's order, rotated by one each run,
# so that no arm always runs first (a guest's first run after boot, and
# each arm's place after the one before it, bias the figures otherwise)
arms_of() { echo none rr lottery lotbug none rr lottery lotbug | cut -d' ' -f$((($1 - 1) % 4 + 1))-$((($1 - 1) % 4 + 4)); }
for run in $(seq 1 $RUNS); do
	echo "order run=$run: $(arms_of $run)"
	for arm in $(arms_of $run); do
		c=$P/$arm-$run; mkdir $c; echo 64M > $c/memory.max
		AG=
		case $arm in
		rr) V="--victim round-robin";; lottery) V="--victim lottery";; lotbug) V="--victim lottery --anon-rule code";;
		esac
		if [ $arm != none ]; then
			# in a cgroup of its own: vmscan charges MADV_PAGEOUT to
			# the task that calls it, so its pages show there
			mkdir $AGCG/$arm-$run
			sh -c "echo \$\$ > $AGCG/$arm-$run/cgroup.procs; exec $NUMALENS reclaim $V \
				--step 256 --pressure 0 $WM -i 1 /r19/$arm-$run" > /tmp/r19-ag.log 2>&1 & AG=$!
			# ticking (its state published) before the workload starts:
			# the collector start takes seconds under TCG
			i=0; while [ ! -s /run/numalens/reclaim/$AG.json ]; do
				kill -0 $AG 2>/dev/null || nl_fail "numalens reclaim exited: $(tail -2 /tmp/r19-ag.log | tr '\n' ' ')"
				i=$((i + 1)); [ $i -le 600 ] || nl_fail "numalens reclaim published nothing in 60 s"; sleep 0.1
			done
		fi
		sync; echo 3 > /proc/sys/vm/drop_caches
		t0=$(nl_now_ms)
		work $c $run $arm
		t1=$(nl_now_ms)
		for n in 0 1 2 3; do grep -q '^nlwork pid' /tmp/r19-w$n.out || nl_fail "nlwork on node $n: $(cat /tmp/r19-w$n.out)"; done
		pages=0
		if [ -n "$AG" ]; then
			kill $AG; wait $AG 2>/dev/null
			pages=$(sed -n 's/^reclaimed [a-z_]* pages: //p' /tmp/r19-ag.log | tr ' ' '\n' | sed 's/^N[0-9]*=//' | awk '{ s += $1 } END { print s + 0 }')
			[ "$VERBOSE_AGENT" = 1 ] && grep -v ' step node=' /tmp/r19-ag.log | sed 's/^/  agent| /' | tail -25
			sed -n 's/^reclaimed \([a-z_]*\) pages: /  agent pages (\1) by node: /p' /tmp/r19-ag.log | tail -2
			sed -n 's/^draws \(agent\|limit\): /  agent draws (\1) by node: /p' /tmp/r19-ag.log | tail -2
		fi
		echo "$arm $run $((t1 - t0)) $(stat_of $c/memory.stat pgmajfault) $(stat_of $c/memory.events max) $pages $(stat_of $c/memory.stat workingset_refault_anon) $(stat_of $c/memory.stat workingset_refault_file)" | tee -a /tmp/r19-runs
		rm -f /mnt/d/f*
	done
done
kill -INT $VS_PID; wait $VS_PID || nl_fail "numalens vmscan exited $?: $(tail -2 $VS.err | tr '\n' ' ')"
while read arm run ms maj ev pages rfa rff; do
	W=/r19/$arm-$run A=/r19ag/$arm-$run
	set -- $(nljq -L $VS "cgroups[path=$W].elapsed_ns_by_limit" "cgroups[path=$W].scanned_anon_pages_by_limit" \
		"cgroups[path=$W].scanned_file_pages_by_limit" "cgroups[path=$W].freed_pages_by_limit" \
		"cgroups[path=$A].pageout_freed_pages_by_proactive" "cgroups[path=$W].freed_pages_by_proactive" \
		"cgroups[path=$A].nodes[nid=0].pageout_freed_pages_by_proactive" "cgroups[path=$A].nodes[nid=1].pageout_freed_pages_by_proactive" \
		"cgroups[path=$A].nodes[nid=2].pageout_freed_pages_by_proactive" "cgroups[path=$A].nodes[nid=3].pageout_freed_pages_by_proactive" | sed 's/missing/0/g')
	echo "R19 arm=$arm run=$run elapsed_ms=$ms majfault=$maj events_max=$ev reclaim_ns=${1:-0} scan_anon=${2:-0} scan_file=${3:-0} freed=${4:-0} agent_pages=$pages agent_pageout=${5:-0} agent_memcg=${6:-0} pageout_n0=${7:-0} pageout_n1=${8:-0} pageout_n2=${9:-0} pageout_n3=${10:-0} refault_anon=${rfa:-0} refault_file=${rff:-0}"
done < /tmp/r19-runs
echo "r19_bench done"
