# scx_cling test 3 (issue 6), pause: four NUMA groups all homed on node 0
# (memory first touched there), 8 busy threads on 8 CPUs. Cling must pause
# for node 0 (the busy rule) so that every CPU stays busy, each thread gets
# >= 50% of its fair share of CPU time and the total work is >= 80% of the same load
# under the default scheduler (the unconstrained run, same boot). The busy
# flag must be seen set during the load and cleared after it ends.
# Work is counted in pages rewritten (nlwork --walk), never in wall time.
# The walk runs until the test has read the window's end (--stop-file): a
# walk of fixed length ended inside the window on a slow host and left
# every CPU idle for its rest (the default scheduler's CPUs read 0.57 busy).
# The default decay (6 s); --wait-bound-us 10000 (under TCG a vCPU can wait
# tens of ms for its turn).
# The tools (this shell, scx_cling's loader) run on a fifth node, CPUs 8-9,
# that the groups never use (as in cling_converge): on node 0 they took
# CPU time from the groups and made scx_cling's busy judgement of node 0
# depend on how fast the host ran them.
# The threads' own schedstat (how long they ran, how long they waited
# runnable for a CPU) is reported beside the busy fractions, not asserted.
# vm: nodes=5 cpus_per_node=2 mem_per_node=384M timeout=170 alone=1
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
taskset -p -c 8,9 $$ > /dev/null
MIB=8 SETTLE=7 WINDOW=12

# cpu_times: "cpuN idle_ms uptime_ms" for the groups' CPUs (0-7), not the
# tools' node. Idle time is measured (nohz: clock reads at idle entry and
# exit); busy time in /proc/stat is counted in ticks, and a vCPU the host
# starves takes fewer ticks than the time that passes: with the host
# loaded, 8 threads on 8 CPUs under the default scheduler read as 0.57
# busy. So busy = 1 - idle / elapsed (the guest's clock).
cpu_times() {
	awk -v up="$(cut -d' ' -f1 /proc/uptime)" '/^cpu[0-7] / {printf "%s %d %d\n", $1, ($5 + $6) * 10, up * 1000}' /proc/stat
}

# sched_times PREFIX: "run_ns wait_ns" summed over the groups' threads
# (/proc/TID/schedstat: time on a CPU, time runnable waiting for one).
sched_times() {
	local t
	for t in $(cat /sys/fs/cgroup/${1}[0-3]/cgroup.threads); do cat /proc/$t/schedstat 2>/dev/null; done |
		awk '{r += $1; w += $2} END {printf "%.0f %.0f\n", r, w}'
}

# thread_times PREFIX: "tid run_ns" for each of the groups' threads.
thread_times() {
	local t
	for t in $(cat /sys/fs/cgroup/${1}[0-3]/cgroup.threads); do
		echo "$t $(cut -d' ' -f1 /proc/$t/schedstat 2>/dev/null)"
	done
}

# run_load PREFIX: 4 cgroups x 2 threads, memory on node 0; prints the
# per-thread walked pages (one per line) into /tmp/PREFIX.walked and the
# per-CPU busy fraction during the walk into /tmp/PREFIX.busy.
run_load() {
	local p=$1 n pids='' cpus0
	cpus0=$(nl_cpus_of_node 0)
	rm -f /tmp/$p.ready* /tmp/$p.stop /tmp/$p.go
	for n in 0 1 2 3; do
		mkdir -p /sys/fs/cgroup/${p}$n
		sh -c "echo \$\$ > /sys/fs/cgroup/${p}$n/cgroup.procs && exec nlwork --cpu $cpus0 --node 0 --anon $MIB --threads 2 --after-cpu 0-7 --after-default --wait-file /tmp/$p.go --walk 600 --stop-file /tmp/$p.stop --ready-file /tmp/$p.ready$n" > /tmp/$p.work$n 2>&1 &
		pids="$pids $!"
	done
	for n in 0 1 2 3; do nl_wait_file /tmp/$p.ready$n 60; done
	touch /tmp/$p.go	# the four groups' walks start together
	# CPU busy fractions once the policy had SETTLE s to react (the
	# first decay period must pass before any node can be busy, CLG-5).
	sleep $SETTLE
	cpu_times > /tmp/$p.t0; sched_times $p > /tmp/$p.s0; thread_times $p > /tmp/$p.r0
	sleep $WINDOW
	cpu_times > /tmp/$p.t1; sched_times $p > /tmp/$p.s1; thread_times $p > /tmp/$p.r1
	touch /tmp/$p.stop
	for n in $pids; do wait $n || nl_fail "nlwork ($p) failed: $(cat /tmp/$p.work*)"; done
	cat /tmp/$p.work* | sed -n 's/.* walked=\([^ ]*\).*/\1/p' | tr ',' '\n' > /tmp/$p.walked
	paste -d' ' /tmp/$p.t0 /tmp/$p.t1 | awk '{ d = $6 - $3; i = $5 - $2; printf "%s %.3f\n", $1, d ? 1 - i / d : 0 }' > /tmp/$p.busy
	# each thread's run time in the window, the 8 walkers (each nlwork's
	# main thread only waits): what the guest's scheduler gave each
	awk 'NR == FNR { r[$1] = $2; next } ($1 in r) && $2 != "" { print $2 - r[$1] }' /tmp/$p.r0 /tmp/$p.r1 |
		sort -n | tail -8 > /tmp/$p.cpu
	paste -d' ' /tmp/$p.s0 /tmp/$p.s1 | awk '{ r = $3 - $1; w = $4 - $2; printf "%.3f run_ns=%.0f wait_ns=%.0f\n", r + w ? r / (r + w) : 0, r, w }' > /tmp/$p.ran
}

run_load cling_b
scx_cling --group '/cling_p*' --wait-bound-us 10000 --delay 1 --ready-file /tmp/cling.ready > /tmp/cling.out 2>&1 &
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
echo "threads' run / (run + runnable wait), default (reported): $(cat /tmp/cling_b.ran)"
echo "threads' run / (run + runnable wait), scx_cling (reported): $(cat /tmp/cling_p.ran)"
echo "walked pages per thread, default: $(tr '\n' ' ' < /tmp/cling_b.walked)"
echo "walked pages per thread, scx_cling: $(tr '\n' ' ' < /tmp/cling_p.walked)"
nb=$(wc -l < /tmp/cling_p.walked)
nl_expect "threads that reported work under scx_cling" "$nb" -eq 8
base=$(awk '{s += $1} END {print s}' /tmp/cling_b.walked)
tot=$(awk '{s += $1} END {print s}' /tmp/cling_p.walked)
min=$(sort -n /tmp/cling_p.walked | head -1)
# Two runs one after the other: the host's speed may differ between them
# (0.87-2.5 seen), which this bar does not correct for. A reference walker
# on CPU 9 beside each run did not either: under single-threaded TCG its
# share of the host was 0.3 of a group thread's in one run, 0.9 in the
# other.
nl_expect "total work under scx_cling / default scheduler" "$(nl_calc "$tot / $base")" -ge 0.80
# Each thread's share is judged by the CPU time the guest's scheduler gave
# it in the window, not by its pages: a vCPU the host starves walks fewer
# pages in the same guest time (a CI run: one thread 0.22 of the fair
# share in pages under the default scheduler and under scx_cling alike,
# with every thread running 99.5% of the time).
echo "run time per thread in the window (ns), default: $(tr '\n' ' ' < /tmp/cling_b.cpu)"
echo "run time per thread in the window (ns), scx_cling: $(tr '\n' ' ' < /tmp/cling_p.cpu)"
echo "least thread's pages / fair share (reported): default $(nl_calc "$(sort -n /tmp/cling_b.walked | head -1) * 8 / $base"), scx_cling $(nl_calc "$min * 8 / $tot")"
nl_expect "walker threads with run time in the window under scx_cling" "$(wc -l < /tmp/cling_p.cpu)" -eq 8
ctot=$(awk '{s += $1} END {print s}' /tmp/cling_p.cpu)
cmin=$(head -1 /tmp/cling_p.cpu)
nl_expect "least thread's run time / fair share (total/8) under scx_cling" "$(nl_calc "$cmin * 8 / $ctot")" -ge 0.50
low=$(sort -k2 -n /tmp/cling_p.busy | head -1)
# Every CPU stays busy: 0.997-1.000 at a host load of 15-17 (the default
# scheduler 0.999-1.000). A cling that held the groups on node 0 would leave
# the CPUs of nodes 1-3 idle. (0.69-0.97 in CI before the walk outlasted the
# window and busy was read from ticks; with no pause at all, --cling-degree
# 100, the wait bound alone kept them at 0.92-1.00, and the busy-flag
# checks below fail.)
nl_expect "least busy CPU under scx_cling ($low)" "${low#* }" -ge 0.90
# The busy flag: set for node 0 during the load, cleared after it.
seen=$(awk '/^scx_cling [0-9]/ {b++} b <= '"$ended"' && $1 == "0" && NF >= 10 && $9 > 0 {n++} END {print n + 0}' /tmp/cling.out)
nl_expect "statistics blocks during the load with node 0 busy for some group" "$seen" -ge 1
grep -q '^group /cling_p[0-3] .*n0\[[^]]* BUSY\]' /tmp/cling.out || nl_fail "no group line showed node 0 BUSY"
nl_expect "groups with node 0 busy after the load ended (last block)" "$last" -eq 0
echo "cling_pause ok"
