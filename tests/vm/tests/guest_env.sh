# Guest environment check: the harness gives every test 4 NUMA nodes, the
# filesystems numalens needs, cgroup v2 controllers, a sched_ext kernel,
# working module loading and the workload helper.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=60 modules=zram
. /nl/lib.sh

n=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
nl_expect "NUMA nodes" "$n" -eq 4
for i in 0 1 2 3; do
	c=$(nl_cpus_of_node $i)
	[ "$c" = "$i" ] || nl_fail "node $i CPUs: expected $i, saw '$c'"
done
for fs in "/sys/kernel/debug debugfs" "/sys/kernel/tracing tracefs" \
	"/sys/fs/bpf bpf" "/sys/fs/cgroup cgroup2"; do
	set -- $fs
	grep -q " $1 $2 " /proc/mounts || nl_fail "mount: expected $2 on $1, saw: $(grep " $1 " /proc/mounts)"
done
ctl=$(cat /sys/fs/cgroup/cgroup.subtree_control)
for c in cpu memory cpuset; do
	case " $ctl " in *" $c "*) ;; *) nl_fail "cgroup subtree_control: expected $c, saw '$ctl'";; esac
done
st=$(cat /sys/kernel/sched_ext/state 2>/dev/null)
[ "$st" = disabled ] || nl_fail "sched_ext state: expected disabled, saw '$st'"
[ -d /sys/module/zram ] || nl_fail "zram: expected loaded (nl.modules=zram), saw no /sys/module/zram"
[ -w /proc/sys/kernel/numa_balancing ] || nl_fail "kernel.numa_balancing: expected writable"

# The workload helper binds memory to node 3 from node 0's CPU: all of its
# allocations count as numa_hit and other_node on node 3. numastat counts
# allocation events, not pages (a THP is one event): 16 MiB is >= 8 events.
[ -x /nl/bin/nlwork ] || nl_fail "nlwork missing in the guest"
hit0=$(nl_numastat 3 numa_hit); other0=$(nl_numastat 3 other_node)
nlwork --cpu 0 --node 3 --anon 16 || nl_fail "nlwork --cpu 0 --node 3 --anon 16 failed"
hit1=$(nl_numastat 3 numa_hit); other1=$(nl_numastat 3 other_node)
nl_expect "node 3 numa_hit delta after 16 MiB bound there (events)" "$((hit1 - hit0))" -ge 8
nl_expect "node 3 other_node delta (CPU on node 0)" "$((other1 - other0))" -ge 8
nlwork --node 7 --anon 1 2>/dev/null && nl_fail "nlwork --node 7: expected failure (no node 7), saw success"
echo "guest_env ok"
