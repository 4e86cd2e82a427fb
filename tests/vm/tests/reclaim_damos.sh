# The DAMOS backend on the guest kernel (CONFIG_DAMON_PADDR, _SYSFS): a
# paddr scheme over the drawn node's physical range with a memcg filter
# pages out the cgroup's memory on that node: the agent reports the damos
# backend, frees pages, and >= 90% of the pages freed in each step (memory.
# numa_stat deltas) come from the drawn node; other cgroups keep theirs.
# The step bound (R16): DAMOS charges its size quota before the memcg
# filter, so older kernels needed a node-wide quota and a step paged out
# all of the cgroup's pages on the node (16-24 MiB for a 4 MiB step); 7.3
# has quotas/fail_charge_num/_denom, set to 0/1 so only paged-out bytes
# are charged: then every step frees at most --step pages, plus the rest of
# the last folio the quota reached (DAMOS pages out a whole folio, and the
# guest's anon is THP-backed: up to 511 pages more; CI saw 1536 for 1024),
# plus 10% for concurrent numa_stat changes, so reaching low takes several
# steps.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150 modules=zram
. /nl/lib.sh
nl_need_numalens
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 ||
	nl_fail "zram swap setup failed"
CG=/sys/fs/cgroup
# DAMON_STAT (enabled by default in this kernel) holds DAMON exclusively
p=/sys/module/damon_stat/parameters/enabled
if [ -f $p ]; then
	$NUMALENS reclaim --backend damos --status / > /tmp/probe.log 2>&1
	grep -q 'DAMON_STAT holds DAMON exclusively' /tmp/probe.log ||
		nl_fail "with DAMON_STAT on, expected the probe to say so, saw: $(cat /tmp/probe.log)"
	echo N > $p
fi
mkdir $CG/rdamos $CG/rother
PIDS=""
hold() {
	sh -c "echo \$\$ > $CG/$1/cgroup.procs; exec nlwork --node $2 --anon $3 --ready-file /tmp/rdy.$1.$2 --hold 600" > /dev/null &
	PIDS="$PIDS $!"
}
hold rdamos 0 24; hold rdamos 2 16; hold rother 0 16
i=0; while [ "$(ls /tmp/rdy.* 2>/dev/null | wc -l)" -lt 3 ]; do i=$((i + 1)); [ $i -gt 600 ] && nl_fail "workload not ready"; sleep 0.1; done
other0=$(cat $CG/rother/memory.current)
$NUMALENS reclaim -v --backend damos --step 1024 --high 30M --low 24M --delay 0.5 --duration 30 /rdamos > /tmp/d.log 2>&1 ||
	nl_fail "numalens reclaim exit $?: $(tail -3 /tmp/d.log)"
cat /tmp/d.log
grep -q 'backend damos' /tmp/d.log || nl_fail "damos backend not in use: $(grep -m1 'unavailable' /tmp/d.log)"
tot=$(sed -n 's/^reclaimed damos pages: //p' /tmp/d.log | tail -1)
[ -n "$tot" ] || nl_fail "DAMOS freed nothing: $(grep -m2 'backend damos' /tmp/d.log | tail -1)"
bad=$(awk '/ step node=/ { f = $0; sub(/.*freed=/, "", f); split(f, a, " "); fr = a[1];
	o = $0; sub(/.*pages \(/, "", o); split(o, b, " "); on = b[1];
	if (fr > 0 && on * 10 < fr * 9) print }' /tmp/d.log | head -3)
[ -z "$bad" ] || nl_fail "step with < 90% from the drawn node: $bad"
grep -q '^damos step bound: yes' /tmp/d.log || nl_fail "no bounded DAMOS step: $(grep 'damos step bound' /tmp/d.log)"
max=$(awk '/ step node=/ { f = $0; sub(/.*freed=/, "", f); split(f, a, " "); if (a[1] > m) m = a[1] } END { print m + 0 }' /tmp/d.log)
nl_expect "largest DAMOS step (pages; --step 1024, + one 2 MiB THP, + 10%)" "$max" -le $((1024 + 512 + 102))
nfree=$(awk '/ step node=/ { f = $0; sub(/.*freed=/, "", f); split(f, a, " "); if (a[1] > 0) n++ } END { print n + 0 }' /tmp/d.log)
nl_expect "DAMOS steps that freed pages (16 MiB over low, 4 MiB steps)" "$nfree" -ge 3
other1=$(cat $CG/rother/memory.current)
nl_within "other cgroup's usage (untouched)" "$other1" "$other0" 5
for p in $PIDS; do kill $p; done
echo "reclaim_damos ok"
