# Cold pages only: a cgroup holds a hot 16 MiB set that a task keeps
# rewriting and a cold 64 MiB set, both on node 1. The agent, asked to
# bring usage from ~80 MiB down to 48 MiB, must take the cold pages: the
# hot set's task may re-fault (major faults: swap-ins from zram) fewer
# than 10% of its 4096 pages. The backend in use is the kernel's first
# cold-page one (lru_gen: MGLRU eviction of the oldest generations of the
# memcg on the drawn node) and the agent says so. With a backend that
# advises whatever is resident on the node (madvise without page_idle,
# the agent's choice before) the hot set is paged out and re-faulted.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=300 modules=zram
. /nl/lib.sh
nl_need_numalens
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 ||
	nl_fail "zram swap setup failed"
CG=/sys/fs/cgroup
mkdir $CG/rcold && echo 256M > $CG/rcold/memory.max || nl_fail "cannot make /rcold"
sh -c "echo \$\$ > $CG/rcold/cgroup.procs; exec nlwork --node 1 --anon 64 --ready-file /tmp/rdy.cold --hold 600" > /dev/null &
COLD=$!
nl_wait_file /tmp/rdy.cold 60 || nl_fail "cold set not ready"
sh -c "echo \$\$ > $CG/rcold/cgroup.procs; exec nlwork --node 1 --anon 16 --ready-file /tmp/rdy.hot --walk 600" > /tmp/hot.out 2>&1 &
HOT=$!
nl_wait_file /tmp/rdy.hot 60 || nl_fail "hot set not ready"
nl_anon_settle $CG/rcold 1:80
majflt() { awk '{ print $12 }' /proc/$1/stat; }
pages_n1() { awk '$1 == "anon" { for (i = 2; i <= NF; i++) if ($i ~ /^N1=/) print int(substr($i, 4) / 4096) }' $CG/rcold/memory.numa_stat; }
h0=$(majflt $HOT); u0=$(pages_n1)
echo "before: hot majflt=$h0, anon on node 1=$u0 pages, usage=$(cat $CG/rcold/memory.current)"
# --duration 12: the agent is at low and idle about 2 s after its start (1.9 s at a
# host load of 11); an idle agent reclaims nothing until usage passes high
$NUMALENS reclaim -v --step 1024 --high 56M --low 48M --delay 0.5 --duration 12 /rcold > /tmp/c.log 2>&1 ||
	nl_fail "numalens reclaim exit $?: $(tail -3 /tmp/c.log)"
grep -v ' step node=' /tmp/c.log; grep ' step node=' /tmp/c.log | head -5
h1=$(majflt $HOT); u1=$(pages_n1)
echo "after: hot majflt=$h1, anon on node 1=$u1 pages, usage=$(cat $CG/rcold/memory.current)"
grep -q 'backend lru_gen' /tmp/c.log || nl_fail "lru_gen backend not in use: $(head -3 /tmp/c.log)"
nl_expect "pages reclaimed from node 1 (usage ~80 MiB to low 48 MiB)" "$((u0 - u1))" -ge 6144
nl_expect "hot-set major faults (< 10% of its 4096 pages)" "$((h1 - h0))" -lt 410
# the same cgroup, the old behaviour: advise whatever is on the node.
# Reported only, so on request (NL_VM_GUEST_ENV=COMPARE=1): its 20-30 s
# prove nothing here, and the madvise backend's own checks are
# reclaim_agent's.
if [ "${COMPARE:-0}" = 1 ]; then
kill $COLD; wait $COLD 2>/dev/null
sh -c "echo \$\$ > $CG/rcold/cgroup.procs; exec nlwork --node 1 --anon 64 --ready-file /tmp/rdy.cold2 --hold 600" > /dev/null &
COLD=$!
nl_wait_file /tmp/rdy.cold2 60 || nl_fail "cold set (2) not ready"
# (the hot set may still be partly in swap: only the new cold set is sure)
nl_anon_settle $CG/rcold 1:64
h2=$(majflt $HOT)
$NUMALENS reclaim --backend madvise --step 1024 --high 56M --low 48M --delay 0.5 --duration 15 /rcold > /tmp/m.log 2>&1
h3=$(majflt $HOT)
# Reported, not asserted: which VMAs madvise advises first decides whether
# it reaches the hot set before the low watermark (a CI run: 2 faults; the
# author's runs: 42,464 and 56,415), so it cannot prove the measure either way.
echo "for comparison, madvise of whatever is resident (no page_idle here): hot-set major faults $((h3 - h2))"
fi
kill $COLD $HOT
echo "reclaim_cold ok"
