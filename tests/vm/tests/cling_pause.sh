# scx_cling test 3 (issue 6), pause: four NUMA groups all homed on node 0
# (memory first touched there), 8 busy threads on 8 CPUs. Cling must pause
# for node 0 (the busy rule) so that every CPU stays busy, each thread gets
# >= 50% of its fair share and the total work is >= 80% of the same load
# under the default scheduler (the unconstrained run, same boot). The busy
# flag must be seen set during the load and cleared after it ends.
# Work is counted in pages rewritten (nlwork --walk), never in wall time.
# The default decay (6 s); --wait-bound-us 10000 (under TCG a vCPU can wait
# tens of ms for its turn).
# vm: nodes=4 cpus_per_node=2 mem_per_node=512M timeout=170 alone=1
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
taskset -p -c 0 $$ > /dev/null
WALK=24 MIB=8 SETTLE=7

# cpu_busy: "cpu idle total" lines from /proc/stat (jiffies).
cpu_times() { awk '/^cpu[0-9]/ {t = 0; for (i = 2; i <= NF; i++) t += $i; print $1, $5 + $6, t}' /proc/stat; }

# run_load PREFIX: 4 cgroups x 2 threads, memory on node 0; prints the
# per-thread walked pages (one per line) into /tmp/PREFIX.walked and the
# per-CPU busy fraction during the walk into /tmp/PREFIX.busy.
run_load() {
	local p=$1 n pids='' cpus0
	cpus0=$(nl_cpus_of_node 0)
	rm -f /tmp/$p.ready*
	for n in 0 1 2 3; do
		mkdir -p /sys/fs/cgroup/${p}$n
		sh -c "echo \$\$ > /sys/fs/cgroup/${p}$n/cgroup.procs && exec nlwork --cpu $cpus0 --node 0 --anon $MIB --threads 2 --after-cpu 0-7 --after-default --walk $WALK --ready-file /tmp/$p.ready$n" > /tmp/$p.work$n 2>&1 &
		pids="$pids $!"
	done
	for n in 0 1 2 3; do nl_wait_file /tmp/$p.ready$n 60; done
	# CPU busy fractions once the policy had SETTLE s to react (the
	# first decay period must pass before any node can be busy, CLG-5).
	sleep $SETTLE
	cpu_times > /tmp/$p.t0
	sleep $((WALK - SETTLE - 3))
	cpu_times > /tmp/$p.t1
	for n in $pids; do wait $n || nl_fail "nlwork ($p) failed: $(cat /tmp/$p.work*)"; done
	cat /tmp/$p.work* | sed -n 's/.* walked=//p' | tr ',' '\n' > /tmp/$p.walked
	paste -d' ' /tmp/$p.t0 /tmp/$p.t1 | awk '{ d = $6 - $3; i = $5 - $2; printf "%s %.3f\n", $1, d ? 1 - i / d : 0 }' > /tmp/$p.busy
}

run_load cling_b
scx_cling --group '/cling_p*' --wait-bound-us 10000 --stats 1 --ready-file /tmp/cling.ready > /tmp/cling.out 2>&1 &
loader=$!
nl_wait_file /tmp/cling.ready 30
run_load cling_p
ended=$(grep -c '^scx_cling [0-9]' /tmp/cling.out)
# After the load: the busy flag must clear by decay (6 s periods, the default).
i=0
while [ $i -lt 100 ]; do
	sleep 0.5
	i=$((i + 1))
	last=$(awk '/^scx_cling [0-9]/ {b++} b > '"$ended"' && $1 == "0" && NF >= 10 {v = $9} END {print v}' /tmp/cling.out)
	[ "$last" = 0 ] && break
done
kill -TERM $loader; wait $loader; rc=$?
grep -v '^tid\|^[0-9]\{3,\} ' /tmp/cling.out | awk '/^scx_cling [0-9]/ {b++} b % 4 == 1 || /detached|error/' | tail -40
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -2 /tmp/cling.out | tr '\n' ' ')"

echo "busy fraction per CPU, default scheduler: $(tr '\n' ' ' < /tmp/cling_b.busy)"
echo "busy fraction per CPU, scx_cling:         $(tr '\n' ' ' < /tmp/cling_p.busy)"
echo "walked pages per thread, default: $(tr '\n' ' ' < /tmp/cling_b.walked)"
echo "walked pages per thread, scx_cling: $(tr '\n' ' ' < /tmp/cling_p.walked)"
nb=$(wc -l < /tmp/cling_p.walked)
nl_expect "threads that reported work under scx_cling" "$nb" -eq 8
base=$(awk '{s += $1} END {print s}' /tmp/cling_b.walked)
tot=$(awk '{s += $1} END {print s}' /tmp/cling_p.walked)
min=$(sort -n /tmp/cling_p.walked | head -1)
nl_expect "total work under scx_cling / default scheduler" "$(nl_calc "$tot / $base")" -ge 0.80
nl_expect "least thread's work / fair share (total/8) under scx_cling" "$(nl_calc "$min * 8 / $tot")" -ge 0.50
low=$(sort -k2 -n /tmp/cling_p.busy | head -1)
# 0.70, not more: a cling that never paused leaves the CPUs of nodes 1-3
# near 0, while the same build gave its least busy CPU 0.78 in one CI run
# and 0.89-0.95 in others (TCG vCPUs on a shared host)
nl_expect "least busy CPU under scx_cling ($low)" "${low#* }" -ge 0.70
# The busy flag: set for node 0 during the load, cleared after it.
seen=$(awk '/^scx_cling [0-9]/ {b++} b <= '"$ended"' && $1 == "0" && NF >= 10 && $9 > 0 {n++} END {print n + 0}' /tmp/cling.out)
nl_expect "--stats blocks during the load with node 0 busy for some group" "$seen" -ge 1
grep -q '^group /cling_p[0-3] .*n0\[[^]]* BUSY\]' /tmp/cling.out || nl_fail "no group line showed node 0 BUSY"
nl_expect "groups with node 0 busy after the load ended (last block)" "$last" -eq 0
echo "cling_pause ok"
