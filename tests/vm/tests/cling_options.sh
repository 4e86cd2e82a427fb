# scx_cling test 4 (issue 6): --cling-degree accepts 0..100 and nothing
# else, the old spellings (-d as the degree, --stats, -t) still work with a
# notice, bad options are rejected with one clear line and exit 2 before
# anything is loaded; another attached scheduler is refused (exit 1);
# --monitor (text and --json) reads a running scx_cling through its pinned maps (the export
# path) and refuses when none runs; SIGINT detaches cleanly.
# vm: nodes=4 cpus_per_node=2 mem_per_node=512M timeout=150
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"

# expect CODE PATTERN ARGS...: scx_cling ARGS exits CODE, stderr has PATTERN,
# stdout is empty, and the kernel still has no scheduler attached.
expect() {
	local code=$1 pat=$2 rc
	shift 2
	scx_cling "$@" > /tmp/o.out 2> /tmp/o.err; rc=$?
	[ $rc = "$code" ] || nl_fail "scx_cling $*: expected exit $code, saw $rc: $(head -1 /tmp/o.err)"
	grep -q -- "$pat" /tmp/o.err || nl_fail "scx_cling $*: expected '$pat' on stderr, saw: $(head -1 /tmp/o.err)"
	[ ! -s /tmp/o.out ] || nl_fail "scx_cling $* wrote to stdout: $(head -1 /tmp/o.out)"
	[ "$(cat /sys/kernel/sched_ext/state)" = disabled ] || nl_fail "scx_cling $* left sched_ext $(cat /sys/kernel/sched_ext/state)"
	echo "ok: scx_cling $* -> $rc: $(head -1 /tmp/o.err)"
}
for d in 101 -1 1000 2.5 abc 20x ''; do
	expect 2 "not an integer in 0..100" --cling-degree "$d"
done
expect 2 "decay-ms" --decay-ms 0
expect 2 "wait-bound-us" --wait-bound-us 5
expect 2 "delay" --delay 0
# -d was the cling degree and is now the interval: a value that fits both
# is refused while loading (read either way, it could silently change the
# scheduler), naming both spellings
expect 2 "write --cling-degree 50, or --delay 50" -d 50
expect 2 "starting with '/'" --group db1
expect 2 "exclude each other" --all --group /x
expect 2 "unexpected argument" extra
expect 2 "unrecognized option" --no-such-option
expect 1 "not running" --monitor

# The bounds themselves are accepted: attach, run 1 s, detach.
for d in 0 100; do
	scx_cling --cling-degree $d --all --duration 1 > /tmp/b.out 2>&1 || nl_fail "scx_cling --cling-degree $d: exit $?: $(tail -1 /tmp/b.out)"
	grep -q "degree $d" /tmp/b.out || nl_fail "scx_cling --cling-degree $d did not run with degree $d: $(head -1 /tmp/b.out)"
	grep -q 'detached' /tmp/b.out || nl_fail "scx_cling --cling-degree $d did not detach cleanly"
	echo "ok: --cling-degree $d accepted, attached and detached"
done
# The old spellings still run the scheduler as they did: -d with the old
# -s is the degree, --stats the interval, -t the run time; one notice each.
scx_cling -d 30 --stats 1 --all --ready-file /tmp/old.ready > /tmp/old.out 2> /tmp/old.err & old=$!
nl_wait_file /tmp/old.ready 30
i=0; until nl_blocks /tmp/old.out 1; do
	i=$((i + 1)); [ $i -le 600 ] || nl_fail "--stats 1: no statistics block in 60 s: $(head -3 /tmp/old.out)"
	kill -0 $old 2>/dev/null || nl_fail "scx_cling -d 30 --stats 1 exited: $(tail -2 /tmp/old.err)"
	sleep 0.1
done
kill -INT $old; wait $old || nl_fail "scx_cling -d 30 --stats 1 after SIGINT: exit $?: $(tail -1 /tmp/old.err)"
grep -q "degree 30" /tmp/old.out || nl_fail "scx_cling -d 30 --stats 1 did not run with degree 30: $(head -1 /tmp/old.out)"
scx_cling --all -t 1 > /tmp/old2.out 2>> /tmp/old.err || nl_fail "scx_cling --all -t 1: exit $?: $(tail -1 /tmp/old.err)"
grep -q 'detached' /tmp/old2.out || nl_fail "scx_cling -t 1 did not detach by itself: $(tail -1 /tmp/old2.out)"
for o in '-d as the cling degree is now --cling-degree' '--stats is now -d/--delay' '-t is now --duration'; do
	nl_expect "notices '$o'" "$(grep -cF -- "$o" /tmp/old.err)" -eq 1
done
echo "ok: old spellings ran with degree 30 and said so: $(tr '\n' ' ' < /tmp/old.err)"

# Another scheduler attached: a clear refusal, exit 1.
scx_smoke -t 20 -r /tmp/smoke.ready > /tmp/smoke.out 2>&1 &
smoke=$!
nl_wait_file /tmp/smoke.ready 20
scx_cling --all > /tmp/o.out 2> /tmp/o.err; rc=$?
[ $rc = 1 ] || nl_fail "scx_cling with scx_smoke attached: expected exit 1, saw $rc"
grep -q "another sched_ext scheduler is attached" /tmp/o.err || nl_fail "scx_cling with scx_smoke attached said: $(cat /tmp/o.err)"
echo "ok: refused while scx_smoke runs: $(cat /tmp/o.err)"
kill -TERM $smoke; wait $smoke
nl_wait_disabled() { local i=0; while [ "$(cat /sys/kernel/sched_ext/state)" != disabled ]; do i=$((i + 1)); [ $i -lt 100 ] || nl_fail "sched_ext not disabled"; sleep 0.1; done; }
nl_wait_disabled

# --monitor through the pins while scx_cling runs; SIGINT detaches.
mkdir -p /sys/fs/cgroup/cling_o1
scx_cling --group /cling_o1 --ready-file /tmp/cling.ready > /tmp/cling.out 2>&1 &
loader=$!
nl_wait_file /tmp/cling.ready 30
sh -c 'echo $$ > /sys/fs/cgroup/cling_o1/cgroup.procs; exec nlwork --anon 16 --threads 2 --spin 2' > /dev/null
[ -e /sys/fs/bpf/scx_cling/nodes ] || nl_fail "no pinned maps under /sys/fs/bpf/scx_cling: $(ls /sys/fs/bpf/scx_cling 2>&1)"
mon_done() { nl_blocks /tmp/mon.out 2; }
nl_monitor /tmp/mon.out /tmp/mon.err mon_done --tasks
head -12 /tmp/mon.out
grep -q '^node queued' /tmp/mon.out || nl_fail "--monitor printed no node table: $(head -2 /tmp/mon.out /tmp/mon.err)"
grep -q '^group /cling_o1 home=' /tmp/mon.out || nl_fail "--monitor did not show the group /cling_o1"
n=$(awk '$1 ~ /^[0-3]$/ && NF >= 10' /tmp/mon.out | head -4 | wc -l)
nl_expect "node rows in the first --monitor block" "$n" -eq 4
# --json: one JSON object per block, the same figures.
monj_done() { [ "$(wc -l < /tmp/monj.out)" -ge 1 ]; }	# one object per line
nl_monitor /tmp/monj.out /tmp/monj.err monj_done --json --tasks
head -c 300 /tmp/monj.out; echo
nljq -l 1 /tmp/monj.out restarts > /dev/null || nl_fail "--monitor --json: line 1 is not JSON: $(head -c 200 /tmp/monj.out)"
nl_expect "--json: node 3 online CPUs" "$(nljq -l 1 /tmp/monj.out 'nodes[node=3].cpus')" -eq 2
nl_expect "--json: /cling_o1 home (-1: its tasks are gone)" "$(nljq -l 1 /tmp/monj.out 'groups[group=/cling_o1].home')" -ge -1
[ "$(nljq -l 1 /tmp/monj.out tasks)" != missing ] || nl_fail "--json --tasks: no tasks array"
kill -INT $loader; wait $loader; rc=$?
[ $rc = 0 ] || nl_fail "scx_cling after SIGINT: expected exit 0, saw $rc: $(tail -1 /tmp/cling.out)"
nl_wait_disabled
[ ! -e /sys/fs/bpf/scx_cling ] || nl_fail "pins left after detach: $(ls /sys/fs/bpf/scx_cling)"
expect 1 "not running" --monitor

# The kernel ejects the scheduler (SysRq-S): the loader prints the exit
# kind, reason and message and exits 1.
if [ -w /proc/sysrq-trigger ]; then
	rm -f /tmp/cling.ready
	scx_cling --all --ready-file /tmp/cling.ready > /tmp/ej.out 2> /tmp/ej.err &
	loader=$!
	nl_wait_file /tmp/cling.ready 30
	echo S > /proc/sysrq-trigger
	wait $loader; rc=$?
	cat /tmp/ej.err
	[ $rc = 1 ] || nl_fail "scx_cling ejected by SysRq-S: expected exit 1, saw $rc: $(cat /tmp/ej.err)"
	grep -q 'ejected the scheduler: kind=[0-9]* .*reason="[^"]' /tmp/ej.err ||
		nl_fail "scx_cling ejected by SysRq-S did not print kind and reason: $(cat /tmp/ej.err)"
	nl_wait_disabled
	[ ! -e /sys/fs/bpf/scx_cling ] || nl_fail "pins left after ejection"
	echo "ok: ejection reported: $(head -1 /tmp/ej.err)"
else
	echo "note: no /proc/sysrq-trigger in the guest: ejection not exercised"
fi
echo "cling_options ok"
