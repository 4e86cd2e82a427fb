# scx_cling with CPU-less (memory-only) nodes: nodes 0 and 1 have 2 CPUs
# each, nodes 2 and 3 only memory. By the SLIT, node 2 is nearest node 1 and
# node 3 nearest node 0. Two NUMA groups, 2 busy threads each, with their
# memory bound to node 2 and node 3. Neither memory node can be a home: the
# groups are homed on node 1 and node 0 (the nearest nodes with CPUs), run
# there (sampled CPU of each thread), and get the CPU time they could get
# (their own cpu.stat usage against 2 CPUs for the window's length):
# a home on a memory-only node left them waiting in a queue no CPU serves
# (about 5% of it); under TCG on a busy host they get 40-100%, so the bar is 25%.
# vm: cpus=2,2,0,0 mem=256M,256M,256M,256M dist=10,20,30,15/20,10,15,30/30,15,10,40/15,30,40,10 timeout=240
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
taskset -p -c 0 $$ > /dev/null
WALK=40
cat /sys/devices/system/node/node*/distance
for n in 2 3; do
	[ -z "$(nl_cpus_of_node $n)" ] || nl_fail "node $n should have no CPU, has $(nl_cpus_of_node $n)"
done
usage_us() { sed -n 's/^usage_usec //p' /sys/fs/cgroup/$1/cpu.stat; }

scx_cling --group '/cling_m*' --stats 2 --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
nl_wait_file /tmp/cling.ready 60
for n in 2 3; do
	mkdir -p /sys/fs/cgroup/cling_m$n
	sh -c "echo \$\$ > /sys/fs/cgroup/cling_m$n/cgroup.procs && exec nlwork --cpu 0-3 --node $n --anon 24 --threads 2 --after-cpu 0-3 --after-default --walk $WALK --ready-file /tmp/m.ready$n" > /tmp/m.work$n 2>&1 &
done
for n in 2 3; do nl_wait_file /tmp/m.ready$n 60; done
sleep 4
a2=$(usage_us cling_m2); a3=$(usage_us cling_m3); t0=$(nl_now_ms)
# Where each group's threads run: sample their CPUs (field 39 of stat).
: > /tmp/m.where
for i in $(seq 1 30); do
	for n in 2 3; do
		for p in $(cat /sys/fs/cgroup/cling_m$n/cgroup.threads); do
			[ "$(sed 's/.*) //' /proc/$p/stat 2>/dev/null | cut -d' ' -f1)" = R ] || continue
			echo "$n $(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f37)" >> /tmp/m.where
		done
	done
	sleep 0.5
done
b2=$(usage_us cling_m2); b3=$(usage_us cling_m3); t1=$(nl_now_ms)
kill -TERM $loader; wait $loader; rc=$?
grep -v '^[0-9]\{3,\} ' /tmp/cling.out | tail -12
cat /tmp/cling.err
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -1 /tmp/cling.err)"
# Homes: the nearest node with CPUs.
grep -q '^group /cling_m2 home=1 ' /tmp/cling.out || nl_fail "/cling_m2 (memory on node 2): expected home=1, saw $(grep '^group /cling_m2' /tmp/cling.out | tail -1 | cut -d' ' -f3)"
grep -q '^group /cling_m3 home=0 ' /tmp/cling.out || nl_fail "/cling_m3 (memory on node 3): expected home=0, saw $(grep '^group /cling_m3' /tmp/cling.out | tail -1 | cut -d' ' -f3)"
! grep '^group /cling_m' /tmp/cling.out | grep -q 'home=[23] ' || nl_fail "a memory-only node was a home: $(grep 'home=[23] ' /tmp/cling.out | head -1 | cut -c1-80)"
# CPU time: each group could get 2 of the 4 CPUs.
could=$(nl_calc "($t1 - $t0) * 1000 * 2")
for n in 2 3; do
	eval "got=\$(nl_calc \"\$b$n - \$a$n\")"
	echo "/cling_m$n: $got us CPU of $could us it could get"
	nl_expect "/cling_m$n CPU time / what 2 CPUs give" "$(nl_calc "$got / $could")" -ge 0.25
done
# Where: node 1 = CPUs 2-3 for /cling_m2, node 0 = CPUs 0-1 for /cling_m3.
s2=$(awk '$1 == 2 {n++; if ($2 == 2 || $2 == 3) h++} END {printf "%.3f", n ? h / n : 0}' /tmp/m.where)
s3=$(awk '$1 == 3 {n++; if ($2 == 0 || $2 == 1) h++} END {printf "%.3f", n ? h / n : 0}' /tmp/m.where)
echo "running samples: $(grep -c '^2 ' /tmp/m.where) of /cling_m2, $(grep -c '^3 ' /tmp/m.where) of /cling_m3"
nl_expect "/cling_m2 samples on node 1 (nearest to node 2)" "$s2" -ge 0.8
nl_expect "/cling_m3 samples on node 0 (nearest to node 3)" "$s3" -ge 0.8
echo "cling_cpuless ok"
