# scx_cling and restricted affinity: 2 nodes x 2 CPUs. Two NUMA groups in
# cpusets of node 1's CPUs (2-3), one busy thread each. /cling_cs1 has its
# memory on node 1: it clings there (its attempts on node 1 > 0; tasks
# with fewer allowed CPUs than the machine were never clinging before).
# /cling_cs2 has its memory on node 0, outside its cpuset: its home is
# ignored (home_ignored on node 0 > 0), never enforced, and it still gets
# the CPU time it could get: its cpu.stat usage against that usage plus
# the time the cpuset's CPUs sat idle (held back for its home, it would
# leave one of them idle; a loaded host slows the guest, not this ratio).
# vm: cpus=2,2 mem=256M,256M timeout=200
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
taskset -p -c 0 $$ > /dev/null
usage_us() { sed -n 's/^usage_usec //p' /sys/fs/cgroup/$1/cpu.stat; }
c1=$(nl_cpus_of_node 1)
[ "$c1" = 2-3 ] || nl_fail "node 1's CPUs: expected 2-3 (cpus=2,2), saw $c1"
# idle_us: idle (and iowait) time of node 1's CPUs, 2-3 (the header's
# cpus=2,2; /proc/stat, USER_HZ 100).
idle_us() { awk '/^cpu[23] / {s += $5 + $6} END {printf "%d\n", s * 10000}' /proc/stat; }

scx_cling --group '/cling_cs*' --delay 2 --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
nl_wait_file /tmp/cling.ready 60
for g in 1 2; do
	mkdir -p /sys/fs/cgroup/cling_cs$g
	echo "$c1" > /sys/fs/cgroup/cling_cs$g/cpuset.cpus || nl_fail "cpuset.cpus $c1 refused"
	node=$((2 - g))	# cs1: memory on node 1, cs2: on node 0
	sh -c "echo \$\$ > /sys/fs/cgroup/cling_cs$g/cgroup.procs && exec nlwork --node $node --anon 16 --threads 1 --after-default --walk 600 --stop-file /tmp/cs.stop --ready-file /tmp/cs.ready$g" > /tmp/cs.work$g 2>&1 &
done
for g in 1 2; do nl_wait_file /tmp/cs.ready$g 60; done
echo "cpuset of /cling_cs1: $(cat /sys/fs/cgroup/cling_cs1/cpuset.cpus.effective), threads allowed: $(grep Cpus_allowed_list /proc/$(head -1 /sys/fs/cgroup/cling_cs1/cgroup.threads)/status)"
# The window starts once a statistics block shows /cling_cs1 homed on node 1.
i=0
until grep -q '^group /cling_cs1 home=1 ' /tmp/cling.out; do
	i=$((i + 1)); [ $i -le 600 ] || nl_fail "/cling_cs1 not homed on node 1 within 60 s: $(grep '^group /cling_cs1' /tmp/cling.out | tail -1 | cut -c1-60)"
	sleep 0.1
done
a2=$(usage_us cling_cs2); i0=$(idle_us)
sleep 8
b2=$(usage_us cling_cs2); i1=$(idle_us)
touch /tmp/cs.stop	# the walks ran all through the window, however slow the guest
kill -TERM $loader; wait $loader; rc=$?
grep -v '^[0-9]\{3,\} ' /tmp/cling.out | tail -6
cat /tmp/cling.err
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -1 /tmp/cling.err)"
g1=$(grep '^group /cling_cs1 ' /tmp/cling.out | tail -1)
echo "$g1" | grep -q 'home=1 ' || nl_fail "/cling_cs1: expected home=1, saw: $(echo "$g1" | cut -d' ' -f3)"
t=$(echo "$g1" | sed -n 's/.* n1\[pages=[0-9]* fail=[0-9]* total=\([0-9]*\).*/\1/p')
nl_expect "/cling_cs1 weighted attempts on node 1 (clings in its cpuset)" "$t" -gt 0
a=$(awk 'NF >= 12 && $1 == "1" {v = $6} END {print v}' /tmp/cling.out)
nl_expect "node 1 attempts" "$a" -gt 0
ig=$(awk 'NF >= 12 && $1 == "0" {v = $12} END {print v}' /tmp/cling.out)
nl_expect "node 0 home_ignored (/cling_cs2's home outside its cpuset)" "$ig" -gt 0
got=$(nl_calc "$b2 - $a2")
idle=$(nl_calc "$i1 - $i0")
echo "/cling_cs2: $got us CPU; CPUs $c1 idle meanwhile: $idle us"
nl_expect "/cling_cs2 CPU time / (its CPU time + CPUs $c1 idle time)" "$(nl_calc "$got / ($got + $idle + 1)")" -ge 0.75
echo "cling_cpuset ok"
