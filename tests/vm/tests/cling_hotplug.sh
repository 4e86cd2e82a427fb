# scx_cling and CPU hotplug: 2 nodes x 4 CPUs, a NUMA group (4 busy
# threads, memory on node 1). CPUs 4-7 (all of node 1) go offline one
# every 100 ms while the group runs, stay offline 5 s, and come back.
# scx_cling must stay attached throughout (no ejection: it follows the
# events), home the group on node 0 while node 1 has no CPU, give the group
# the CPU time it could get there (its own cpu.stat usage against what
# node 0's CPUs gave it plus what they left idle: what other tasks took is
# not the group's, and a loaded host slows the guest's CPUs, not this
# ratio), and take it home to node 1 afterwards.
# Then one CPU offline and online again with --restart-on-hotplug (the
# kernel ends the scheduler at each event): the loader re-attaches by
# itself each time, attaching its loaded object again (and, with
# --reload-on-restart, loading a fresh copy); the time without scx_cling
# is measured and printed for both.
# --cling-degree 100 (never busy) keeps the home on the memory's node.
# vm: cpus=4,4 mem=384M,384M timeout=420
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
CG=/sys/fs/cgroup/cling_h
mkdir -p $CG
taskset -p -c 0 $$ > /dev/null

# offline_node1 / online_node1: CPUs 4..7 one every 100 ms.
offline_node1() { for c in 4 5 6 7; do echo 0 > /sys/devices/system/cpu/cpu$c/online || nl_fail "cpu$c offline failed"; sleep 0.1; done; }
online_node1() { for c in 4 5 6 7; do echo 1 > /sys/devices/system/cpu/cpu$c/online || nl_fail "cpu$c online failed"; sleep 0.1; done; }
usage_us() { sed -n 's/^usage_usec //p' $CG/cpu.stat; }
# idle_us: idle (and iowait) time of CPUs 0-3, node 0's (/proc/stat, USER_HZ 100).
idle_us() { awk '/^cpu[0-3] / {s += $5 + $6} END {printf "%d\n", s * 10000}' /proc/stat; }
attached() { [ "$(cat /sys/kernel/sched_ext/state)" = enabled ] && [ "$(cat /sys/kernel/sched_ext/root/ops 2>/dev/null)" = scx_cling ]; }
# If the guest hangs (a hotplug/attach deadlock), show the blocked tasks.
( sleep 360; echo "watchdog: blocked tasks:"; echo w > /proc/sysrq-trigger; dmesg | tail -60 ) &

# --- scx_cling follows hotplug -------------------------------------------
# The loader first: under TCG the verifier shares the one host thread with
# every busy vCPU, and beside 4 busy threads a load took 20-30 s.
scx_cling --group /cling_h --cling-degree 100 --delay 1 --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
nl_wait_file /tmp/cling.ready 60
sh -c "echo \$\$ > $CG/cgroup.procs && exec nlwork --cpu 4-7 --node 1 --anon 16 --threads 4 --after-cpu 0-7 --after-default --walk 200 --ready-file /tmp/h.ready" > /tmp/h.work 2>&1 &
work=$!
nl_wait_file /tmp/h.ready 60
# A statistics block that lists the group homed on node 1 (at most 30 s: a
# starved guest can take a few seconds for its first blocks).
i=0
until grep -q "^group /cling_h home=1 " /tmp/cling.out; do
	i=$((i + 1)); [ $i -le 300 ] || nl_fail "before hotplug: group not homed on node 1 (its memory): $(grep '^group' /tmp/cling.out | tail -1)"
	sleep 0.1
done
offline_node1
mark_off=$(grep -c '^scx_cling [0-9]' /tmp/cling.out)
# The window starts once a statistics block shows the group homed on node 0.
i=0
until awk -v m="$mark_off" '/^scx_cling [0-9]/ {b++} b > m' /tmp/cling.out | grep -q '^group /cling_h home=0 '; do
	i=$((i + 1)); [ $i -le 600 ] || nl_fail "node 1 offline: no statistics block homed the group on node 0 within 60 s: $(grep '^group' /tmp/cling.out | tail -1)"
	sleep 0.1
done
u0=$(usage_us); i0=$(idle_us)
sleep 4
u1=$(usage_us); i1=$(idle_us)
attached || nl_fail "scx_cling not attached while node 1 is offline: state=$(cat /sys/kernel/sched_ext/state) $(tail -2 /tmp/cling.err | tr '\n' ' ')"
online_node1
# Home again: wait for a statistics block that shows it (at most 30 s).
mark_on=$(grep -c '^scx_cling [0-9]' /tmp/cling.out)
i=0
while [ $i -lt 300 ]; do
	awk -v m="$mark_on" '/^scx_cling [0-9]/ {b++} b > m' /tmp/cling.out | grep -q '^group /cling_h home=1 ' && break
	i=$((i + 1)); sleep 0.1
done
attached || nl_fail "scx_cling not attached after the CPUs came back: $(tail -2 /tmp/cling.err | tr '\n' ' ')"
kill -TERM $loader; wait $loader; rc=$?
awk '/^scx_cling [0-9]/ {b++} b % 3 == 1' /tmp/cling.out | grep -v '^[0-9]\{3,\} ' | tail -24
cat /tmp/cling.err
[ $rc = 0 ] || nl_fail "scx_cling exit $rc after the hotplug run: $(tail -1 /tmp/cling.err)"
# While node 1 was offline: home node 0, node 1 counted with 0 CPUs.
off=$(awk -v m="$mark_off" '/^scx_cling [0-9]/ {b++} b > m && b <= m + 4' /tmp/cling.out)
echo "$off" | grep -q "^group /cling_h home=0 " || nl_fail "group not homed on node 0 while node 1 had no CPU: $(echo "$off" | grep '^group' | tail -1)"
c1=$(echo "$off" | awk '$1 == "1" && NF >= 12 {v = $11} END {print v}')
nl_expect "node 1 online CPUs in the statistics while offline" "$c1" -eq 0
# The group's CPU time while node 1 was offline: 4 threads on node 0's 4
# CPUs. What it could have had: what it got plus what those CPUs left idle.
got=$(nl_calc "$u1 - $u0")
idle=$(nl_calc "$i1 - $i0")
echo "group CPU time with node 1 offline: $got us; node 0's CPUs idle meanwhile: $idle us"
# Held in a queue no CPU serves, it would get a few % while node 0 idled.
nl_expect "group CPU time / (its CPU time + node 0's idle time) while node 1 was offline" "$(nl_calc "$got / ($got + $idle + 1)")" -ge 0.75
# Home again after.
last=$(grep '^group /cling_h ' /tmp/cling.out | tail -1)
echo "$last" | grep -q "home=1 " || nl_fail "group not home on node 1 after the CPUs came back: $last"
h=$(sed -n 's/.* hotplug=\([0-9]*\) .*/\1/p' /tmp/cling.out | tail -1)
nl_expect "hotplug events counted" "$h" -ge 8
r=$(sed -n 's/.* restarts=\([0-9]*\) .*/\1/p' /tmp/cling.out | tail -1)
nl_expect "restarts while following hotplug" "$r" -eq 0
! dmesg | grep -q 'scx_cling.*\(errored\|exiting scheduler\)' || nl_fail "dmesg: $(dmesg | grep sched_ext | tail -2 | tr '\n' ' ')"

# The group's work has done its part: the restarts below are the loader's
# (and each --reload-on-restart load would share the host with 4 busy vCPUs).
kill $work; wait $work 2>/dev/null

# --- --restart-on-hotplug: the kernel ends it, the loader re-attaches ----
# One event at a time: CPU 7 offline, then online again. First as it runs
# by default (the loaded object attached again), then with
# --reload-on-restart (a fresh load each time), to compare their cost.
# wait_reattached N: until the loader reports its N-th re-attach (120 s).
wait_reattached() {
	local i=0
	while [ "$(grep -c 're-attached' /tmp/r.err)" -lt "$1" ] || ! attached; do
		i=$((i + 1)); [ $i -le 1200 ] || nl_fail "no re-attach $1 within 120 s: $(tail -2 /tmp/r.err | tr '\n' ' ')"
		kill -0 $loader 2>/dev/null || nl_fail "the loader exited instead of re-attaching: $(tail -2 /tmp/r.err | tr '\n' ' ')"
		sleep 0.1
	done
}
# restarts [OPTION]: the offline/online pair under scx_cling --restart-on-hotplug OPTION.
restarts() {
	rm -f /tmp/cling.ready
	scx_cling --group /cling_h --restart-on-hotplug $1 --delay 1 --ready-file /tmp/cling.ready > /tmp/r.out 2> /tmp/r.err &
	loader=$!
	nl_wait_file /tmp/cling.ready 60
	echo 0 > /sys/devices/system/cpu/cpu7/online || nl_fail "cpu7 offline failed"
	wait_reattached 1
	echo 1 > /sys/devices/system/cpu/cpu7/online || nl_fail "cpu7 online failed"
	wait_reattached 2
	sleep 2
	attached || nl_fail "not attached after the restarts ($1): $(tail -3 /tmp/r.err | tr '\n' ' ')"
	kill -TERM $loader; wait $loader; rc=$?
	cat /tmp/r.err
	[ $rc = 0 ] || nl_fail "scx_cling --restart-on-hotplug $1 exit $rc: $(tail -1 /tmp/r.err)"
	n=$(grep -c 'asked for a restart' /tmp/r.err)
	nl_expect "restart requests seen" "$n" -eq 2
	r=$(sed -n 's/.* restarts=\([0-9]*\) .*/\1/p' /tmp/r.out | tail -1)
	nl_expect "restarts in the statistics" "$r" -eq 2
	echo "restart cost ${1:-(default)} (ms without scx_cling): $(sed -n 's/.*, \([0-9]*\) ms without scx_cling.*/\1/p' /tmp/r.err | tr '\n' ' ')"
}
restarts ""
n=$(grep -c 'the loaded BPF object attached again' /tmp/r.err)
nl_expect "re-attaches that reused the loaded object" "$n" -eq 2
restarts --reload-on-restart
n=$(grep -c 'of it loading the BPF object' /tmp/r.err)
nl_expect "re-attaches that loaded the object anew (--reload-on-restart)" "$n" -eq 2
echo "cling_hotplug ok"
