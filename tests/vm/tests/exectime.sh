# Execution time per node and the cgroup hierarchy: a busy
# nlwork pinned to node 2's CPU, in cgroup /a/b, gets >= 95% of its run time
# on node 2 (processes[].run_ns_by_node), cgroup /a/b shows that time, and
# its parent /a (hierarchical: own tasks plus descendants) shows the same.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=120 kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
cpu2=$(nl_first_cpu_of_node 2)
mkdir -p /sys/fs/cgroup/a/b || nl_fail "cannot create cgroup /a/b"
SPIN=6	# long enough that the fork-and-exec moments on CPU 0 (0.16 s in a starved guest) stay under 5%
J=/tmp/exec.jsonl
nl_top $J 1 600
# Spin on node 2's CPU in /a/b. The child is born in /a/b (this shell, on
# CPU 0, joins it for the fork and leaves): time a child spent in the root
# before moving itself would be the process's but not /a/b's, and on a busy
# host a starved guest counted 0.4 s of it. It runs on CPU 0 until nlwork
# pins itself to node 2 (no taskset): the fork-and-exec moments, which a
# starved guest also inflates, then stay off node 2, whose time is compared.
echo $$ > /sys/fs/cgroup/a/b/cgroup.procs
nlwork --cpu $cpu2 --spin $SPIN > /tmp/exec.work 2>&1 &
PID=$!
echo $$ > /sys/fs/cgroup/cgroup.procs
wait $PID || nl_fail "nlwork failed: $(cat /tmp/exec.work)"
cat /tmp/exec.work
got=$(nl_work_field /tmp/exec.work cpu_ns)
nl_top_until_gone $J $PID	# the window ends with an interval without nlwork
[ "$(nljq -L $J "processes[pid=$PID].pid")" = missing ] ||
	nl_fail "the window did not outlast nlwork (pid $PID still in the last interval): raise -n"
p=$(nl_sum $J "processes[pid=$PID].run_ns")
p2=$(nl_sum $J "processes[pid=$PID].run_ns_by_node.2")
b=$(nl_sum $J "cgroups[path=/a/b].run_ns")
b2=$(nl_sum $J "cgroups[path=/a/b].run_ns_by_node.2")
a=$(nl_sum $J "cgroups[path=/a].run_ns")
a2=$(nl_sum $J "cgroups[path=/a].run_ns_by_node.2")
echo "process run_ns=$p on node 2=$p2; /a/b run_ns=$b node 2=$b2; /a run_ns=$a node 2=$a2"
nl_expect "nlwork run time seen (ns; it measured cpu_ns=$got, spinning ${SPIN}s)" "$p" -ge "$(nl_calc "$got * 0.9")"
# its spinning time, measured by the spinner itself after pinning, on node
# 2 (not a share of all its time: the fork-and-exec before the pinning, on
# CPU 0, took 2.2 s of a starved guest's CPU clock beside 4 guests and
# stress-ng, a share of 0.748)
spun=$(nl_work_field /tmp/exec.work spin_cpu_ns)
nl_expect "nlwork's run time on node 2 vs the $spun ns its spin measured" "$(nl_calc "$p2 / $spun")" -ge 0.95
nl_within "cgroup /a/b node-2 time vs nlwork's node-2 time" "$b2" "$p2" 1
nl_within "parent /a node-2 time vs child /a/b (hierarchy)" "$a2" "$b2" 1
nl_within "parent /a run time vs child /a/b (hierarchy)" "$a" "$b" 1
# While alive, the process is shown in its cgroup.
bad=$(nljq $J "processes[pid=$PID].alive" "processes[pid=$PID].cgroup" | awk -F'\t' '$1 == "true" && $2 != "/a/b"' | head -1)
[ -z "$bad" ] || nl_fail "processes[].cgroup of nlwork while alive: expected /a/b, saw '$(echo "$bad" | cut -f2)'"
aid=$(nljq -L $J "cgroups[path=/a].id")
bpar=$(nljq -L $J "cgroups[path=/a/b].parent_id")
[ "$aid" = "$bpar" ] || nl_fail "cgroup /a/b parent_id: expected /a's id $aid, saw $bpar"
echo "exectime ok"
