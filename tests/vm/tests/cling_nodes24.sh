# scx_cling on 24 nodes x 1 CPU (one node per CCD on a 2-socket EPYC looks
# like this): it attaches (no node limit below 64), counts 24 nodes with
# one CPU each, and a NUMA group whose memory sits on node 23 is homed
# there and converges: most samples of its busy thread's CPU are CPU 23.
# --wait-bound-us 10000 (under TCG a vCPU can wait tens of ms for its turn:
# at a host load of 16 the default 5 ms let the thread off CPU 23 in 19%
# of the samples).
# vm: cpus=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 mem=256M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M timeout=600
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
n=$(ls -d /sys/devices/system/node/node* | wc -l)
nl_expect "guest nodes" "$n" -eq 24
taskset -p -c 0 $$ > /dev/null
scx_cling --group /cling_n23 --cling-degree 100 --wait-bound-us 10000 --delay 2 --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
# 24 emulated CPUs on one host thread: loading and attaching are slow.
nl_cling_wait $loader /tmp/cling.ready /tmp/cling.err 300
mkdir -p /sys/fs/cgroup/cling_n23
sh -c "echo \$\$ > /sys/fs/cgroup/cling_n23/cgroup.procs && exec nlwork --cpu 23 --node 23 --anon 16 --threads 1 --after-cpu 0-23 --after-default --walk 600 --stop-file /tmp/w.stop --ready-file /tmp/w.ready" > /tmp/w.out 2>&1 &
nl_wait_file /tmp/w.ready 120
# Sampling starts once a statistics block (every 2 s) shows the group homed
# and its running thread has been seen on CPU 23 (cling moved it home).
# running_on CPU: a running thread of the group last ran on CPU.
running_on() {
	local p
	for p in $(cat /sys/fs/cgroup/cling_n23/cgroup.threads); do
		sed 's/.*) //' /proc/$p/stat 2>/dev/null | awk -v c="$1" '$1 == "R" && $37 == c {ok = 1} END {exit !ok}' && return 0
	done
	return 1
}
i=0
until grep -q '^group /cling_n23 home=23 ' /tmp/cling.out && running_on 23; do
	i=$((i + 1)); [ $i -le 1200 ] || nl_fail "/cling_n23 not homed on node 23 and running there within 120 s: $(grep '^group' /tmp/cling.out | tail -1 | cut -c1-60)"
	sleep 0.1
done
: > /tmp/where
for i in $(seq 1 30); do
	# one awk per sample (a sed and a cut per thread cost seconds under TCG)
	(cd /proc && awk '{sub(/.*\) /, ""); if ($1 == "R") print $37}' $(sed 's|$|/stat|' /sys/fs/cgroup/cling_n23/cgroup.threads)) >> /tmp/where
	sleep 0.3
done
touch /tmp/w.stop	# the walk ran all through the sampling, however slow the guest
kill -TERM $loader; wait $loader; rc=$?
head -1 /tmp/cling.out
grep '^scx_cling [0-9]' /tmp/cling.out | tail -1
cat /tmp/cling.err
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -1 /tmp/cling.err)"
grep -q 'attached (24 nodes' /tmp/cling.out || nl_fail "scx_cling did not attach with 24 nodes: $(head -1 /tmp/cling.out)"
c=$(awk 'NF >= 12 && $1 ~ /^[0-9]+$/ && $1 < 24 {c[$1] = $11} END {for (n in c) s += c[n]; print s + 0}' /tmp/cling.out)
nl_expect "online CPUs counted over the 24 nodes" "$c" -eq 24
grep -q '^group /cling_n23 home=23 ' /tmp/cling.out || nl_fail "/cling_n23 not homed on node 23: $(grep '^group' /tmp/cling.out | tail -1 | cut -c1-60)"
s=$(awk '{n++; if ($1 == 23) h++} END {printf "%.3f", n ? h / n : 0}' /tmp/where)
echo "running samples: $(wc -l < /tmp/where), on CPU 23: $s"
nl_expect "share of the group's running samples on node 23" "$s" -ge 0.8
echo "cling_nodes24 ok"
