# scx_cling test 1 (issue 6): the scheduler stays attached for 60 s under a
# fork/exec/thread-churn load, with /sys/kernel/sched_ext/state "enabled"
# at every check, schedules on every node, and detaches cleanly on SIGTERM
# (loader exit 0, state back to "disabled", no ejection in dmesg).
# vm: nodes=4 cpus_per_node=2 mem_per_node=512M timeout=170
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest (make failed? see build/test-logs/vm/build.log)"
SECS=${CLING_STRESS_SECS:-60}
mkdir -p /sys/fs/cgroup/cling_s1 /sys/fs/cgroup/cling_s2
scx_cling --group '/cling_s*' --decay-ms 1000 --delay 10 --ready-file /tmp/cling.ready > /tmp/cling.out 2>&1 &
loader=$!
nl_wait_file /tmp/cling.ready 30
# The churn: fork+exec loops, short-lived thread bursts that touch memory,
# half of it in two NUMA-group cgroups, half outside any group.
CHURN='while [ ! -e /tmp/cling.stop ]; do /bin/true; /bin/echo x > /dev/null; done'
THREADS='while [ ! -e /tmp/cling.stop ]; do nlwork --threads 6 --spin 0.05 --anon 8 > /dev/null || echo "nlwork failed" >> /tmp/cling.err; done'
sh -c "echo \$\$ > /sys/fs/cgroup/cling_s1/cgroup.procs; $CHURN" & LOADS=$!
sh -c "echo \$\$ > /sys/fs/cgroup/cling_s2/cgroup.procs; $THREADS" & LOADS="$LOADS $!"
sh -c "$CHURN" & LOADS="$LOADS $!"
sh -c "$THREADS" & LOADS="$LOADS $!"
i=0 bad=0
while [ $i -lt $SECS ]; do
	sleep 2
	i=$((i + 2))
	st=$(cat /sys/kernel/sched_ext/state)
	[ "$st" = enabled ] || { bad=1; echo "t=${i}s state=$st"; break; }
	kill -0 $loader 2>/dev/null || { bad=1; echo "t=${i}s loader gone"; break; }
done
touch /tmp/cling.stop
for p in $LOADS; do wait $p; done	# the loops end at their next turn
wait_rc=0
kill -TERM $loader
wait $loader; rc=$?
cat /tmp/cling.out
dmesg | grep sched_ext | tail -5
[ $bad = 0 ] || nl_fail "scx_cling did not stay enabled for ${SECS}s: $(tail -2 /tmp/cling.out | tr '\n' ' ')"
[ $rc = 0 ] || nl_fail "scx_cling exit status after SIGTERM: expected 0, saw $rc: $(tail -1 /tmp/cling.out)"
[ ! -s /tmp/cling.err ] || nl_fail "workload failed under scx_cling: $(head -1 /tmp/cling.err)"
st=$(cat /sys/kernel/sched_ext/state)
[ "$st" = disabled ] || nl_fail "sched_ext state after detach: expected disabled, saw '$st'"
grep -q 'scx_cling: detached' /tmp/cling.out || nl_fail "loader did not report a clean detach"
! dmesg | grep -q 'sched_ext: BPF scheduler "scx_cling" errored' || nl_fail "dmesg: $(dmesg | grep -A2 errored | tr '\n' ' ')"
dmesg | grep -q 'sched_ext: BPF scheduler "scx_cling" enabled' || nl_fail "dmesg has no 'scx_cling enabled'"
# Every node dispatched work (the last statistics block's local column).
for n in 0 1 2 3; do
	l=$(awk -v n=$n '$1 == n && NF >= 10 {v = $3} END {print v + 0}' /tmp/cling.out)
	nl_expect "node $n local dispatches" "$l" -gt 0
done
# The groups were seen and their tasks placed on their homes.
g=$(sed -n 's/.* groups=\([0-9]*\)$/\1/p' /tmp/cling.out | tail -1)
nl_expect "NUMA groups in the last statistics block" "$g" -ge 1
a=$(awk 'NF >= 10 && $1 ~ /^[0-3]$/ {a[$1] = $6} END {print a[0] + a[1] + a[2] + a[3]}' /tmp/cling.out)
nl_expect "home placements (attempts) of group tasks" "$a" -gt 0
[ ! -e /sys/fs/bpf/scx_cling/info ] || nl_fail "pins left in /sys/fs/bpf/scx_cling after detach"
echo "cling_stress ok"
