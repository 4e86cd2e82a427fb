# scx_cling: a NUMA group with next to no memory gets no home. Two groups
# under --all: /cling_m holds 16 MiB first touched on node 1; /cling_c is
# three spinners with only their stacks (well under the 4 MiB minimum).
# While both run, the statistics must show /cling_m homed on node 1 and /cling_c
# with no home (-1): before, the CPU-only group clung to the node of its
# few pages and queued behind the group living there.
# vm: nodes=4 cpus_per_node=2 mem_per_node=512M timeout=150
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
taskset -p -c 0 $$ > /dev/null
mkdir -p /sys/fs/cgroup/cling_m /sys/fs/cgroup/cling_c
scx_cling --all --delay 2 --ready-file /tmp/cling.ready > /tmp/cling.out 2>&1 &
loader=$!
nl_wait_file /tmp/cling.ready 60
cpus1=$(nl_cpus_of_node 1)
sh -c "echo \$\$ > /sys/fs/cgroup/cling_m/cgroup.procs && exec nlwork --cpu $cpus1 --node 1 --anon 16 --threads 2 --after-cpu 0-7 --after-default --walk 12 --ready-file /tmp/m.ready" > /tmp/m.out 2>&1 &
m=$!
sh -c "echo \$\$ > /sys/fs/cgroup/cling_c/cgroup.procs && exec nlwork --cpu 0-7 --spin 12 --threads 3" > /tmp/c.out 2>&1 &
c=$!
nl_wait_file /tmp/m.ready 60
# two stats blocks after the memory group is ready: its pages are read
# every second, and each block shows the homes as they are then
n=$(grep -c '^scx_cling [0-9]' /tmp/cling.out)
i=0
while [ "$(grep -c '^scx_cling [0-9]' /tmp/cling.out)" -lt $((n + 2)) ]; do
	i=$((i + 1)); [ $i -le 300 ] || nl_fail "scx_cling printed no 2 more stats blocks in 30 s"
	sleep 0.1
done
mhome=$(grep '^group /cling_m ' /tmp/cling.out | tail -1 | sed -n 's/.* home=\(-\?[0-9]*\).*/\1/p')
chome=$(grep '^group /cling_c ' /tmp/cling.out | tail -1 | sed -n 's/.* home=\(-\?[0-9]*\).*/\1/p')
grep '^group /cling_' /tmp/cling.out | tail -2
wait $m $c
kill -INT $loader; wait $loader
nl_expect "home of /cling_m (16 MiB on node 1)" "${mhome:-missing}" -eq 1
nl_expect "home of /cling_c (spinners, no memory)" "${chome:-missing}" -eq -1
