# Crash safety of the DAMOS backend: an agent killed with SIGKILL during a
# DAMOS step leaves its kdamond running the pageout scheme. The next agent
# recognises it as a numalens agent's (its record under /run/numalens names
# a process that is gone), removes it, says so, and uses DAMOS itself; when
# it ends no kdamond is left. A kdamond someone else made (no record) is
# never touched: the agent says DAMON is in use and leaves it running.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=200 modules=zram
. /nl/lib.sh
nl_need_numalens
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 ||
	nl_fail "zram swap setup failed"
CG=/sys/fs/cgroup
D=/sys/kernel/mm/damon/admin/kdamonds
p=/sys/module/damon_stat/parameters/enabled
[ -f $p ] && echo N > $p
[ "$(cat $D/nr_kdamonds)" = 0 ] || nl_fail "a kdamond exists before the test"
mkdir $CG/rorph
PIDS=""
for n in 0 2; do
	sh -c "echo \$\$ > $CG/rorph/cgroup.procs; exec nlwork --node $n --anon 40 --ready-file /tmp/rdy.$n --hold 600" > /dev/null &
	PIDS="$PIDS $!"
done
for n in 0 2; do nl_wait_file /tmp/rdy.$n 60; done
# 1. kill the agent while kdamond 0 is on (a step runs)
$NUMALENS reclaim -v --backend damos --step 256 --high 40M --low 8M --delay 0.2 --duration 60 /rorph > /tmp/a1.log 2>&1 &
A1=$!
i=0
until [ "$(cat $D/0/state 2>/dev/null)" = on ]; do
	i=$((i + 1)); [ $i -gt 600 ] && nl_fail "no DAMOS step started: $(tail -3 /tmp/a1.log)"; sleep 0.05
done
kill -9 $A1; wait $A1 2>/dev/null
echo "killed agent $A1 during a step: nr_kdamonds=$(cat $D/nr_kdamonds) state=$(cat $D/0/state)"
ls -l /run/numalens/; cat /run/numalens/damon-0.state
[ "$(cat $D/nr_kdamonds)" = 1 ] || nl_fail "the killed agent left no kdamond (nothing to test)"
grep -q "pid=$A1 " /run/numalens/damon-0.state || nl_fail "no record of the killed agent's kdamond"
# 2. the next agent cleans it up and uses DAMOS
before=$(cat $CG/rorph/memory.current)
$NUMALENS reclaim -v --backend damos --step 1024 --high 40M --low 32M --delay 0.5 --duration 20 /rorph > /tmp/a2.log 2>&1 ||
	nl_fail "second agent exit $?: $(grep -v 'step node=' /tmp/a2.log | tail -3)"
grep -v 'step node=' /tmp/a2.log | head -8
grep -q "removed DAMON kdamond 0 left by a numalens agent that is gone (pid $A1)" /tmp/a2.log ||
	nl_fail "the orphan was not recognised: $(head -3 /tmp/a2.log)"
grep -q 'backend damos' /tmp/a2.log || nl_fail "damos not in use after the cleanup"
tot=$(sed -n 's/^reclaimed damos pages: //p' /tmp/a2.log | tr ' ' '\n' | awk -F= '{ s += $2 } END { print s + 0 }')
nl_expect "pages the second agent freed through DAMOS" "$tot" -ge 1024
nl_expect "kdamonds left after the second agent" "$(cat $D/nr_kdamonds)" -eq 0
[ ! -e /run/numalens/damon-0.state ] || nl_fail "record left behind: $(cat /run/numalens/damon-0.state)"
# 3. a foreign kdamond (no record) is left alone
echo 1 > $D/nr_kdamonds && echo 1 > $D/0/contexts/nr_contexts || nl_fail "cannot make a foreign kdamond"
$NUMALENS reclaim --backend damos --high 40M --low 32M --duration 2 /rorph > /tmp/a3.log 2>&1
grep -q 'DAMON is in use by someone else' /tmp/a3.log || nl_fail "foreign kdamond not refused: $(head -3 /tmp/a3.log)"
nl_expect "foreign kdamond still there" "$(cat $D/nr_kdamonds)" -eq 1
nl_expect "its context still there" "$(cat $D/0/contexts/nr_contexts)" -eq 1
echo 0 > $D/nr_kdamonds
for p in $PIDS; do kill $p; done
echo "reclaim_damos_orphan ok"
