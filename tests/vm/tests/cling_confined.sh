# scx_cling and a group held to its home node by affinity: 2 nodes x 2
# CPUs, one NUMA group with its memory on node 1 and 3 busy threads pinned
# to node 1's 2 CPUs, node 0 idle. A thread waiting in node 1's queue had
# no CPU it may use elsewhere, so its wait is no failure of cling: node 1
# must show attempts and no failure, and never turn busy for the group
# (its home stays node 1). Counting such waits made the home busy within
# a second (a third of the queued attempts failed), and the group then
# clung nowhere until decay cleared it; the bench's groups, pinned to their
# node while they first touch their memory, lost their home that way.
# Default wait bound (5 ms) and steal delay.
# vm: cpus=2,2 mem=256M,256M timeout=200
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
taskset -p -c 0 $$ > /dev/null
c1=$(nl_cpus_of_node 1)

scx_cling --group '/cling_k*' --delay 1 --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
nl_wait_file /tmp/cling.ready 60
mkdir -p /sys/fs/cgroup/cling_k1
sh -c "echo \$\$ > /sys/fs/cgroup/cling_k1/cgroup.procs && exec nlwork --cpu $c1 --node 1 --anon 16 --threads 3 --walk 14 --ready-file /tmp/k.ready" > /tmp/k.work 2>&1 &
work=$!
nl_wait_file /tmp/k.ready 60
sleep 12
kill -TERM $loader; wait $loader; rc=$?
wait $work || nl_fail "nlwork failed: $(cat /tmp/k.work)"
grep -v '^[0-9]\{3,\} \|^tid' /tmp/cling.out | tail -5
cat /tmp/cling.err
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -1 /tmp/cling.err)"
g=$(grep '^group /cling_k1 ' /tmp/cling.out | tail -1)
echo "$g" | grep -q 'home=1 ' || nl_fail "/cling_k1: expected home=1, saw: $(echo "$g" | cut -d' ' -f3)"
busy=$(grep -c '^group /cling_k1 .*BUSY' /tmp/cling.out)
nl_expect "stats blocks with node 1 busy for /cling_k1" "$busy" -eq 0
a=$(awk 'NF >= 12 && $1 == "1" {v = $6} END {print v}' /tmp/cling.out)
nl_expect "node 1 attempts" "$a" -gt 0
f=$(awk 'NF >= 12 && $1 == "1" {v = $7} END {print v}' /tmp/cling.out)
nl_expect "node 1 failures (no CPU elsewhere the threads may use)" "$f" -eq 0
echo "cling_confined ok"
