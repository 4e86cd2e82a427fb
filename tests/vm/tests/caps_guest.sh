# The capability sets of docs/kernel.md on a sched_ext kernel with cgroup v2
# (the host has neither): each command runs under nlcaps with exactly its
# set (root's uid, every other capability out of the bounding set) and
# works; one capability less gives one line naming it and a non-zero exit.
#  1. scx_cling with CAP_SYS_ADMIN alone attaches (sched_ext state
#     "enabled") and detaches with exit 0; with CAP_BPF + CAP_PERFMON but
#     no CAP_SYS_ADMIN it exits 3 naming CAP_SYS_ADMIN.
#  2. numalens reclaim, memcg backend (memory.reclaim), with CAP_BPF +
#     CAP_PERFMON brings a cgroup's anon (zram swap) down to its low
#     watermark; without CAP_PERFMON it exits 3 naming it.
#  3. numalens top starts with CAP_BPF + CAP_PERFMON, allocations counted.
# On a kernel without sched_ext (Debian's 6.12) part 1 is left out.
# vm: nodes=2 cpus_per_node=1 mem_per_node=512M timeout=170 modules=zram kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
[ -x /nl/bin/nlcaps ] || nl_fail "nlcaps missing in the guest"

# 1. scx_cling
if [ -e /sys/kernel/sched_ext/state ]; then
	st=$(cat /sys/kernel/sched_ext/state)
	[ "$st" = disabled ] || nl_fail "sched_ext state before: expected disabled, saw '$st'"
	nlcaps sys_admin -- scx_cling --duration 8 > /tmp/cl.out 2>&1 &
	cl=$!
	i=0
	until [ "$(cat /sys/kernel/sched_ext/state)" = enabled ]; do
		i=$((i + 1)); [ $i -le 600 ] || nl_fail "scx_cling with CAP_SYS_ADMIN alone did not attach in 60 s: $(tail -2 /tmp/cl.out)"
		kill -0 $cl 2>/dev/null || nl_fail "scx_cling with CAP_SYS_ADMIN alone exited: $(tail -2 /tmp/cl.out)"
		sleep 0.1
	done
	echo "ok: scx_cling attached with CAP_SYS_ADMIN only"
	wait $cl
	rc=$?
	[ $rc = 0 ] || nl_fail "scx_cling with CAP_SYS_ADMIN alone: exit $rc: $(tail -2 /tmp/cl.out)"
	nlcaps bpf,perfmon -- scx_cling --duration 2 > /dev/null 2> /tmp/cl.err
	rc=$?
	[ $rc = 3 ] || nl_fail "scx_cling without CAP_SYS_ADMIN: expected exit 3, saw $rc: $(cat /tmp/cl.err)"
	[ "$(grep -c . /tmp/cl.err)" = 1 ] && grep -q CAP_SYS_ADMIN /tmp/cl.err ||
		nl_fail "scx_cling without CAP_SYS_ADMIN: expected one line naming it, saw: $(cat /tmp/cl.err)"
	echo "ok: without CAP_SYS_ADMIN: $(cat /tmp/cl.err)"
else
	echo "no sched_ext on this kernel: scx_cling left out"
fi

# 2. reclaim, memcg backend
echo 256M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 ||
	nl_fail "zram swap setup failed"
CG=/sys/fs/cgroup
echo +memory > $CG/cgroup.subtree_control 2>/dev/null
mkdir $CG/lp && echo 128M > $CG/lp/memory.max || nl_fail "cannot make cgroup lp"
sh -c "echo \$\$ > $CG/lp/cgroup.procs; exec nlwork --anon 110 --ready-file /tmp/lp.rdy --hold 120" > /dev/null &
w=$!
nl_wait_file /tmp/lp.rdy 60
before=$(cat $CG/lp/memory.current)
nlcaps bpf,perfmon -- numalens reclaim --backend memcg --duration 6 --high 60% --low 50% /lp > /dev/null 2> /tmp/rc.err ||
	nl_fail "reclaim (memcg) with CAP_BPF + CAP_PERFMON: exit $?: $(cat /tmp/rc.err)"
after=$(cat $CG/lp/memory.current)
echo "reclaim (memcg) with CAP_BPF + CAP_PERFMON: memory.current $before -> $after bytes"
nl_expect "bytes reclaimed with CAP_BPF + CAP_PERFMON" "$((before - after))" -ge $((20 << 20))
for c in bpf perfmon; do
	keep=$( [ $c = bpf ] && echo perfmon || echo bpf )
	nlcaps $keep -- numalens reclaim --backend memcg --duration 1 /lp > /dev/null 2> /tmp/rc1.err
	rc=$?
	name=CAP_$(echo $c | tr a-z A-Z)
	[ $rc = 3 ] || nl_fail "reclaim without $name: expected exit 3, saw $rc: $(cat /tmp/rc1.err)"
	[ "$(grep -c . /tmp/rc1.err)" = 1 ] && grep -q "$name" /tmp/rc1.err ||
		nl_fail "reclaim without $name: expected one line naming it, saw: $(cat /tmp/rc1.err)"
	echo "ok: reclaim without $name: $(cat /tmp/rc1.err)"
done
kill $w; wait $w 2>/dev/null

# 3. top and export
nlcaps bpf,perfmon -- numalens top --json -n 1 > /tmp/top.json 2> /tmp/top.err ||
	nl_fail "top with CAP_BPF + CAP_PERFMON: $(cat /tmp/top.err)"
grep -q '"alloc":true' /tmp/top.json || nl_fail "top with CAP_BPF + CAP_PERFMON: no allocation source: $(cat /tmp/top.err)"
echo "ok: top with CAP_BPF + CAP_PERFMON: $(grep -o '"sources":{[^}]*' /tmp/top.json | cut -c1-120)"
echo "capabilities ok"
