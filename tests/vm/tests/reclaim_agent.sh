# numalens reclaim in the guest, with zram swap, in both LRU modes:
#  1. per-step targeting (R16): a cgroup holding anon spread unevenly over
#     nodes 0-2 is reclaimed to its low watermark by the madvise backend;
#     in every step >= 90% of the pages freed (memory.numa_stat deltas)
#     come from the node the BPF lottery drew, draws favour the fuller
#     nodes, and the agent's per-node totals match our own numa_stat deltas.
#     The holders run a copy of nlwork whose page cache is on node 0: that
#     text, mapped by all three and never freed by PAGEOUT, must not fill
#     the node-0 steps (it did in CI when the boot put /nl/bin there).
#  2. growth (R17): two cgroups with the same memory.max and the same growing
#     workload, run side by side; with the agent on, usage settles at or
#     below high after each growth step, and memory.events max stays lower
#     than in the cgroup without the agent.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=175 modules=zram alone=1
. /nl/lib.sh
nl_need_numalens
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 ||
	nl_fail "zram swap setup failed"
[ -f /sys/kernel/mm/lru_gen/enabled ] || nl_fail "no /sys/kernel/mm/lru_gen (CONFIG_LRU_GEN expected)"
CG=/sys/fs/cgroup
PIDS=""
# /tmp/nlwork0: nlwork copied by a task whose cpuset allows node 0 only
echo +cpuset > $CG/cgroup.subtree_control && mkdir $CG/pin0 && echo 0 > $CG/pin0/cpuset.mems ||
	nl_fail "cannot make a cpuset cgroup on node 0"
sh -c "echo \$\$ > $CG/pin0/cgroup.procs; exec cp /nl/bin/nlwork /tmp/nlwork0" || nl_fail "cannot copy nlwork"
rmdir $CG/pin0

# hold NAME NODE MIB: an nlwork in cgroup NAME holding MIB of anon on NODE.
hold() {
	sh -c "echo \$\$ > $CG/$1/cgroup.procs; exec /tmp/nlwork0 --node $2 --anon $3 --ready-file /tmp/rdy.$1.$2.$3.\$\$ --hold 600" > /dev/null &
	PIDS="$PIDS $!"
}
waitready() { # NAME COUNT
	local i=0
	while [ "$(ls /tmp/rdy.$1.* 2>/dev/null | wc -l)" -lt "$2" ]; do
		i=$((i + 1)); [ $i -gt 600 ] && nl_fail "workload in $1 not ready after 60 s"; sleep 0.1
	done
}
killall_holds() { for p in $PIDS; do kill $p 2>/dev/null; done; for p in $PIDS; do wait $p 2>/dev/null; done; PIDS=""; }
node_pages() { # NAME NODE: pages of all four LRUs on NODE
	awk -v n="N$2=" '$1 ~ /^(in)?active_(anon|file)$/ { for (i = 2; i <= NF; i++) if (index($i, n) == 1) s += substr($i, length(n) + 1) }
		END { printf "%d\n", s / 4096 }' "$CG/$1/memory.numa_stat"
}

for lru in y n; do
	echo $lru > /sys/kernel/mm/lru_gen/enabled
	# --- 1. per-step targeting -------------------------------------------
	S=rstep$lru
	mkdir $CG/$S && echo 256M > $CG/$S/memory.max
	hold $S 0 24; hold $S 1 8; hold $S 2 16
	waitready $S 3
	text0=$(awk '/nlwork0/ { for (i = 2; i <= NF; i++) if ($i ~ /^N0=/) s += substr($i, 4) } END { print s + 0 }' \
		/proc/${PIDS##* }/numa_maps)
	nl_expect "[$lru] pages of the nlwork0 text on node 0" "$text0" -ge 150
	# a baseline read at once once missed a whole THP (CI: 509 vs 1030)
	nl_memcg_settle $CG/$S
	for n in 0 1 2 3; do eval b$n=$(node_pages $S $n); done
	$NUMALENS reclaim -v --backend madvise --step 256 --high 30M --low 20M --delay 0.2 --duration 12 /$S > /tmp/$S.log 2>&1 ||
		nl_fail "[$lru] numalens reclaim exit $?: $(tail -3 /tmp/$S.log)"
	grep -v ' step node=' /tmp/$S.log; grep ' step node=' /tmp/$S.log | head -3
	grep -q 'backend madvise' /tmp/$S.log || nl_fail "[$lru] backend not reported: $(head -2 /tmp/$S.log)"
	usage=$(cat $CG/$S/memory.current)
	# low, plus slack for what no backend frees (kernel memory, refaults)
	nl_expect "[$lru] usage after the agent (bytes, low 20M)" "$usage" -le $((24 << 20))
	steps=$(grep -c ' step node=' /tmp/$S.log)
	nl_expect "[$lru] reclaim steps logged" "$steps" -ge 5
	# every step that freed pages: >= 90% on the drawn node
	bad=$(awk '/ step node=/ { f = $0; sub(/.*freed=/, "", f); split(f, a, " "); fr = a[1];
		o = $0; sub(/.*pages \(/, "", o); split(o, b, " "); on = b[1];
		if (fr > 0 && on * 10 < fr * 9) print }' /tmp/$S.log | head -3)
	[ -z "$bad" ] || nl_fail "[$lru] step with < 90% from the drawn node: $bad"
	# Reported, not asserted: over ~15 steps the draws per node are no
	# order by size, since a node whose step freed nothing (node 0 holds
	# the holders' program text, which madvise cannot free) loses its
	# tickets until its figures change (a CI run: node0 3, node1 4, node2
	# 8). The lottery's proportions are checked over 100,000 draws by the
	# live lottery_dist test and in the guest by reclaim_lottery.
	echo "[$lru] steps: node0 $(grep -c ' step node=0 ' /tmp/$S.log), node1 $(grep -c ' step node=1 ' /tmp/$S.log), node2 $(grep -c ' step node=2 ' /tmp/$S.log)"
	# agent's per-node totals vs our own memory.numa_stat deltas
	tot=$(sed -n 's/^reclaimed madvise pages: //p' /tmp/$S.log | tail -1)
	nl_memcg_settle $CG/$S
	for n in 0 1 2; do
		a=$(echo "$tot" | tr ' ' '\n' | sed -n "s/^N$n=//p"); eval b=\$b$n
		d=$((b - $(node_pages $S $n)))
		echo "[$lru] node $n: agent freed $a pages, numa_stat delta $d"
		nl_within "[$lru] node $n agent pages vs numa_stat delta" "${a:-0}" "$d" 10
	done
	grep '^scan_weight=' /tmp/$S.log | tail -1
	killall_holds
	rmdir $CG/$S

	# --- 2. growth, agent on vs off ---------------------------------------
	A=ragent$lru; B=rnone$lru
	for c in $A $B; do mkdir $CG/$c && echo 48M > $CG/$c/memory.max; done
	$NUMALENS reclaim --backend madvise --step 512 --high 60% --low 45% --delay 0.2 --duration 60 /$A > /tmp/$A.log 2>&1 &
	AG=$!
	# ready once it published its first interval
	nl_wait_file /run/numalens/reclaim/$AG.json 60
	# --high 60% of 48M in bytes, as the agent computes it (28.8 MiB: the
	# shell's "48 * 60 / 100 << 20" truncated it to 28 MiB, and a CI run
	# failed on a usage the agent rightly left at 28.77 MiB)
	HIGH=$(( (48 << 20) * 60 / 100 ))
	peak=0
	for i in 1 2 3 4 5 6 7; do
		for c in $A $B; do hold $c $((i % 3)) 8; done
		waitready $A $i; waitready $B $i
		# give the agent time to bring usage back under high
		j=0; while [ $(cat $CG/$A/memory.current) -gt $HIGH ] && [ $j -lt 40 ]; do sleep 0.25; j=$((j + 1)); done
		u=$(cat $CG/$A/memory.current); [ $u -gt $peak ] && peak=$u
	done
	ea=$(awk '$1 == "max" {print $2}' $CG/$A/memory.events); eb=$(awk '$1 == "max" {print $2}' $CG/$B/memory.events)
	grep -v ' step node=' /tmp/$A.log | tail -12
	echo "[$lru] growth: settled usage peak $peak bytes (high $HIGH); memory.events max: agent $ea, none $eb"
	nl_expect "[$lru] settled usage with the agent (bytes)" "$peak" -le $HIGH
	nl_expect "[$lru] memory.events max without the agent" "$eb" -gt 0
	nl_expect "[$lru] memory.events max with the agent (< without: $eb)" "$ea" -lt "$eb"
	kill $AG; wait $AG 2>/dev/null
	killall_holds
	rmdir $CG/$A $CG/$B
	rm -f /tmp/rdy.*
done
echo "reclaim_agent ok"
