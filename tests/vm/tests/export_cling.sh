# scx_cling's statistics in `numalens export`: with scx_cling
# running and one NUMA group /cling_e1 holding its memory on node 2 while
# one of its tasks wakes 200 times, /metrics shows numalens_scx_cling_running 1, the
# group's home node 2 (label: its cgroup path), attempts on node 2 counted
# and equal, node by node, to what scx_cling's own --monitor reads from the
# same pinned maps (the export reads no second copy). After scx_cling
# detaches, the exporter says running 0 and drops the other scx_cling series.
# vm: nodes=4 cpus_per_node=2 mem_per_node=512M timeout=150
. /nl/lib.sh
nl_need_numalens
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
# a NUMA group needs memory.numa_stat: the memory controller on
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/cling_e1 || nl_fail "cannot create /cling_e1"
U=http://127.0.0.1:10072/metrics
val() { awk -v k="$1" '$1 == k { print $2 }' /tmp/m; }

scx_cling --group /cling_e1 --ready-file /tmp/cling.ready > /tmp/cling.out 2>&1 &
loader=$!
nl_wait_file /tmp/cling.ready 30
$NUMALENS export --listen 127.0.0.1:10072 --delay 1 > /tmp/export.err 2>&1 &
EPID=$!
nl_export_served $U /tmp/m $EPID
cpu0=$(nl_first_cpu_of_node 0)
# The group's memory: 32 MiB bound to node 2, touched from node 0's CPU,
# held (until the checks are done) while a shell of the same cgroup wakes
# 200 times from short sleeps. Before each sleep it pins itself to node 0
# and unpins again (two taskset children it waits for), so each wakeup
# places a group task that comes from another node: an attempt on its
# home, node 2 (a task already at home that runs again at once makes
# none, so without the re-pinning a loaded host's test saw one to three
# attempts, one failure of which unhomed the group). The memory stays
# until the scrape: once it is freed, the next decay (every 6 s) homes the
# group by what is left, which a slow guest's scrape could see.
sh -c "echo \$\$ > /sys/fs/cgroup/cling_e1/cgroup.procs; exec nlwork --cpu $cpu0 --node 2 --anon 32 --after-cpu 0-7 --after-default --hold 300 --ready-file /tmp/hold.ready" > /tmp/work.out 2>&1 &
holder=$!
nl_wait_file /tmp/hold.ready 60
sh -c 'echo $$ > /sys/fs/cgroup/cling_e1/cgroup.procs; i=0; while [ $i -lt 200 ]; do taskset -p -c '$cpu0' $$ > /dev/null; taskset -p -c 0-7 $$ > /dev/null; sleep 0.01; i=$((i + 1)); done'
# The wakeups are over, the holder sleeps: counters are still. Scrape
# after a fresh snapshot, and read the same pins through scx_cling --monitor.
nl_export_wait http://127.0.0.1:10072 2
wget -q -O /tmp/m $U || nl_fail "scrape failed"
grep '^numalens_scx_cling_' /tmp/m | grep -v '{node="[01]"}' | grep -v 'node="[013]"}' | head -40
[ "$(val numalens_scx_cling_running)" = 1 ] || nl_fail "numalens_scx_cling_running with scx_cling attached: '$(val numalens_scx_cling_running)'"
home=$(val 'numalens_scx_cling_group_home_node{cgroup="/cling_e1"}')
[ "$home" = 2 ] || nl_fail "home node of /cling_e1 (memory on node 2): expected 2, saw '$home'"
att=$(val 'numalens_scx_cling_attempts_total{node="2"}')
nl_expect "attempts on node 2 (the group's home)" "${att:-0}" -gt 0
mon_done() { nl_blocks /tmp/mon.out 2; }
nl_monitor /tmp/mon.out /tmp/mon.err mon_done
sed -n '/^node queued/,/^$/p' /tmp/mon.out | head -6
col=$(awk '/^node queued/ { for (i = 1; i <= NF; i++) if ($i == "attempts") print i; exit }' /tmp/mon.out)
[ -n "$col" ] || nl_fail "no attempts column in scx_cling --monitor: $(head -3 /tmp/mon.out)"
for n in 0 1 2 3; do
	m=$(awk -v c="$col" -v n="$n" '$1 == n && NF >= c { print $c; exit }' /tmp/mon.out)
	e=$(val "numalens_scx_cling_attempts_total{node=\"$n\"}")
	[ "$m" = "$e" ] || nl_fail "node $n attempts: scx_cling --monitor $m, numalens export $e (one source, no work running)"
done
echo "ok: attempts per node equal in --monitor and /metrics"
kill $holder; wait $holder 2>/dev/null

kill -INT $loader; wait $loader || nl_fail "scx_cling exit $? after SIGINT: $(tail -2 /tmp/cling.out)"
nl_export_wait http://127.0.0.1:10072 2
wget -q -O /tmp/m $U || nl_fail "scrape after detach failed"
[ "$(val numalens_scx_cling_running)" = 0 ] || nl_fail "numalens_scx_cling_running after detach: '$(val numalens_scx_cling_running)'"
n=$(grep -c '^numalens_scx_cling_' /tmp/m)
nl_expect "scx_cling series after detach (running only)" "$n" -eq 1
kill -TERM $EPID; wait $EPID || nl_fail "numalens export exit $? on SIGTERM"
echo "export_cling ok"
