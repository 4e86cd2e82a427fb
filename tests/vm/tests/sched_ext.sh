# sched_ext smoke: the tests' own trivial scheduler
# (tests/vm/scx_smoke) attaches, schedules real work while
# /sys/kernel/sched_ext/state reads "enabled", and detaches back to
# "disabled". Runs on the 4 nodes x 2 CPUs scheduler topology.
# vm: nodes=4 cpus_per_node=2 mem_per_node=512M timeout=90
. /nl/lib.sh

[ -x /nl/bin/scx_smoke ] || nl_fail "scx_smoke missing in the guest (make vm-bins failed? see build/test-logs/vm/build.log)"
n=$(nproc)
nl_expect "guest CPUs (4 nodes x 2)" "$n" -eq 8
st=$(cat /sys/kernel/sched_ext/state)
[ "$st" = disabled ] || nl_fail "sched_ext state before: expected disabled, saw '$st'"

scx_smoke -t 30 -r /tmp/scx.ready > /tmp/scx.out 2>&1 &
loader=$!
nl_wait_file /tmp/scx.ready 20
st=$(cat /sys/kernel/sched_ext/state)
[ "$st" = enabled ] || nl_fail "sched_ext state while attached: expected enabled, saw '$st'"
ops=$(cat /sys/kernel/sched_ext/root/ops 2>/dev/null)
[ -z "$ops" ] || [ "$ops" = scx_smoke ] || nl_fail "sched_ext root/ops: expected scx_smoke, saw '$ops'"
# Real work under the BPF scheduler: 8 spinning threads each get 0.25 s of
# CPU time (a task the scheduler never runs stalls here; 120 s is a hang
# cap, not a speed bound: the guest's speed depends on the host's load).
start=$(nl_now_ms)
timeout 120 nlwork --threads 8 --spin-cpu 0.25 > /tmp/work.out ||
	nl_fail "nlwork under scx_smoke failed or stalled (exit $?, 120 s cap): $(cat /tmp/work.out)"
echo "8 x 0.25 s of CPU under scx_smoke in $(( $(nl_now_ms) - start )) ms: $(cat /tmp/work.out)"
nl_expect "CPU time the 8 spinners got under scx_smoke (ns)" "$(nl_work_field /tmp/work.out spin_cpu_ns)" -ge 2000000000
kill -TERM $loader
wait $loader
rc=$?
cat /tmp/scx.out
[ $rc = 0 ] || nl_fail "scx_smoke loader: expected exit 0, saw $rc: $(tail -1 /tmp/scx.out)"
v() { sed -n "s/^$1=//p" /tmp/scx.out; }
[ "$(v state_attached)" = enabled ] || nl_fail "loader state_attached: expected enabled, saw '$(v state_attached)'"
[ "$(v state_detached)" = disabled ] || nl_fail "loader state_detached: expected disabled, saw '$(v state_detached)'"
nl_expect "ops.init called" "$(v init_called)" -eq 1
nl_expect "ops.enqueue calls while attached" "$(v nr_enqueued)" -ge 8
nl_expect "ops.exit called" "$(v exit_called)" -eq 1
st=$(cat /sys/kernel/sched_ext/state)
[ "$st" = disabled ] || nl_fail "sched_ext state after: expected disabled, saw '$st'"
dmesg | grep -q 'sched_ext: BPF scheduler "scx_smoke" enabled' ||
	nl_fail "dmesg: expected 'BPF scheduler \"scx_smoke\" enabled', saw: $(dmesg | grep sched_ext | tail -2 | tr '\n' ' ')"
dmesg | grep 'sched_ext' | tail -3
echo "sched_ext ok"
