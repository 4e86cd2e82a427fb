# scx_cling with CPU-less (memory-only) nodes: nodes 0 and 1 have 2 CPUs
# each, nodes 2 and 3 only memory. By the SLIT, node 2 is nearest node 1 and
# node 3 nearest node 0. Two NUMA groups, 2 busy threads each, with their
# memory bound to node 2 and node 3. Neither memory node can be a home: the
# groups are homed on node 1 and node 0 (the nearest nodes with CPUs), run
# there (sampled CPU of each thread), and get the CPU time they could get
# there: their own cpu.stat usage against that usage plus the time their
# home node's 2 CPUs sat idle (what other tasks took there is not theirs,
# and a loaded host slows the guest, not this ratio). A home on a
# memory-only node left them waiting in a queue no CPU serves, their
# nearest node idle (a few % of the ratio).
# vm: cpus=2,2,0,0 mem=256M,256M,256M,256M dist=10,20,30,15/20,10,15,30/30,15,10,40/15,30,40,10 timeout=240
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
taskset -p -c 0 $$ > /dev/null
cat /sys/devices/system/node/node*/distance
for n in 2 3; do
	[ -z "$(nl_cpus_of_node $n)" ] || nl_fail "node $n should have no CPU, has $(nl_cpus_of_node $n)"
done
usage_us() { sed -n 's/^usage_usec //p' /sys/fs/cgroup/$1/cpu.stat; }
# idle_us A B: idle (and iowait) time of CPUs A and B (/proc/stat, USER_HZ 100).
idle_us() { awk -v a="cpu$1" -v b="cpu$2" '$1 == a || $1 == b {s += $5 + $6} END {printf "%d\n", s * 10000}' /proc/stat; }
[ "$(nl_cpus_of_node 0) $(nl_cpus_of_node 1)" = "0-1 2-3" ] || nl_fail "CPUs of nodes 0 and 1: expected 0-1 2-3, saw $(nl_cpus_of_node 0) $(nl_cpus_of_node 1)"

scx_cling --group '/cling_m*' --delay 2 --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
nl_wait_file /tmp/cling.ready 60
for n in 2 3; do
	mkdir -p /sys/fs/cgroup/cling_m$n
	sh -c "echo \$\$ > /sys/fs/cgroup/cling_m$n/cgroup.procs && exec nlwork --cpu 0-3 --node $n --anon 24 --threads 2 --after-cpu 0-3 --after-default --walk 600 --stop-file /tmp/m.stop --ready-file /tmp/m.ready$n" > /tmp/m.work$n 2>&1 &
done
for n in 2 3; do nl_wait_file /tmp/m.ready$n 60; done
# The window starts once a statistics block (every 2 s) shows both homes.
i=0
until grep -q '^group /cling_m2 home=1 ' /tmp/cling.out && grep -q '^group /cling_m3 home=0 ' /tmp/cling.out; do
	i=$((i + 1)); [ $i -le 600 ] || nl_fail "groups not homed on nodes 1 and 0 within 60 s: $(grep '^group' /tmp/cling.out | tail -2 | cut -d' ' -f1-3 | tr '\n' ' ')"
	sleep 0.1
done
a2=$(usage_us cling_m2); a3=$(usage_us cling_m3); i2=$(idle_us 2 3); i3=$(idle_us 0 1)
# Where each group's threads run: sample their CPUs (field 39 of stat).
: > /tmp/m.where
for i in $(seq 1 30); do
	# one awk per group and sample (a sed and a cut per thread cost
	# seconds under TCG)
	for n in 2 3; do
		(cd /proc && awk -v n=$n '{sub(/.*\) /, ""); if ($1 == "R") print n, $37}' $(sed 's|$|/stat|' /sys/fs/cgroup/cling_m$n/cgroup.threads)) >> /tmp/m.where
	done
	sleep 0.5
done
b2=$(usage_us cling_m2); b3=$(usage_us cling_m3); j2=$(idle_us 2 3); j3=$(idle_us 0 1)
touch /tmp/m.stop	# the walks ran all through the window, however slow the guest
kill -TERM $loader; wait $loader; rc=$?
grep -v '^[0-9]\{3,\} ' /tmp/cling.out | tail -12
cat /tmp/cling.err
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -1 /tmp/cling.err)"
# Homes: the nearest node with CPUs.
grep -q '^group /cling_m2 home=1 ' /tmp/cling.out || nl_fail "/cling_m2 (memory on node 2): expected home=1, saw $(grep '^group /cling_m2' /tmp/cling.out | tail -1 | cut -d' ' -f3)"
grep -q '^group /cling_m3 home=0 ' /tmp/cling.out || nl_fail "/cling_m3 (memory on node 3): expected home=0, saw $(grep '^group /cling_m3' /tmp/cling.out | tail -1 | cut -d' ' -f3)"
! grep '^group /cling_m' /tmp/cling.out | grep -q 'home=[23] ' || nl_fail "a memory-only node was a home: $(grep 'home=[23] ' /tmp/cling.out | head -1 | cut -c1-80)"
# CPU time: each group against what it got plus its home's idle time.
for n in 2 3; do
	eval "got=\$(nl_calc \"\$b$n - \$a$n\"); idle=\$(nl_calc \"\$j$n - \$i$n\")"
	echo "/cling_m$n: $got us CPU; its home's 2 CPUs idle meanwhile: $idle us"
	nl_expect "/cling_m$n CPU time / (its CPU time + its home's idle time)" "$(nl_calc "$got / ($got + $idle + 1)")" -ge 0.75
done
# Where: node 1 = CPUs 2-3 for /cling_m2, node 0 = CPUs 0-1 for /cling_m3.
s2=$(awk '$1 == 2 {n++; if ($2 == 2 || $2 == 3) h++} END {printf "%.3f", n ? h / n : 0}' /tmp/m.where)
s3=$(awk '$1 == 3 {n++; if ($2 == 0 || $2 == 1) h++} END {printf "%.3f", n ? h / n : 0}' /tmp/m.where)
echo "running samples: $(grep -c '^2 ' /tmp/m.where) of /cling_m2, $(grep -c '^3 ' /tmp/m.where) of /cling_m3"
nl_expect "/cling_m2 samples on node 1 (nearest to node 2)" "$s2" -ge 0.8
nl_expect "/cling_m3 samples on node 0 (nearest to node 3)" "$s3" -ge 0.8
echo "cling_cpuless ok"
