# scx_cling resumes cling to a busy home once nothing elsewhere is spare:
# 2 nodes x 2 CPUs. /cling_ra (memory on node 0, 3 threads) runs alone
# until its waits at node 0, with node 1 idle, make node 0 busy for it.
# Then /cling_rb fills node 1 (4 threads pinned there, ready beforehand,
# released at once: its CPUs always busy and work queued). Pausing cling
# then spares no one a wait: the thread of /cling_ra running on node 1
# must go home, its attempts at node 0 succeed and the busy flag clears
# within 12 s. Decay alone would need log2(failures) periods of 6 s: with
# the 8 failures this test requires when node 1 fills up, 18 s or more,
# while /cling_ra ran on node 1's CPUs against node 0's memory.
# vm: cpus=2,2 mem=256M,256M timeout=240
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
taskset -p -c 0 $$ > /dev/null
c0=$(nl_cpus_of_node 0) c1=$(nl_cpus_of_node 1)

# ra_field F: field F (fail, total) of /cling_ra on node 0 in the last
# stats block; ra_busy: 1 if that block shows node 0 busy for it.
ra_line() { grep '^group /cling_ra ' /tmp/cling.out | tail -1; }
ra_field() { ra_line | sed -n "s/.* n0\[pages=[0-9]* fail=\([0-9]*\) total=\([0-9]*\).*/\\$1/p"; }
ra_busy() { ra_line | grep -q 'n0\[[^]]*BUSY' && echo 1 || echo 0; }

scx_cling --group '/cling_r*' --stats 1 --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
nl_wait_file /tmp/cling.ready 60
mkdir -p /sys/fs/cgroup/cling_ra /sys/fs/cgroup/cling_rb
# /cling_rb first: its pages touched and its threads waiting (asleep)
# for /tmp/rb.go, so that node 1 fills up the moment it is released.
sh -c "echo \$\$ > /sys/fs/cgroup/cling_rb/cgroup.procs && exec nlwork --cpu $c1 --node 1 --anon 16 --threads 4 --walk 40 --ready-file /tmp/rb.ready --wait-file /tmp/rb.go" > /tmp/rb.work 2>&1 &
rb=$!
nl_wait_file /tmp/rb.ready 60
sh -c "echo \$\$ > /sys/fs/cgroup/cling_ra/cgroup.procs && exec nlwork --cpu $c0 --node 0 --anon 16 --threads 3 --after-cpu 0-3 --after-default --walk 90 --ready-file /tmp/ra.ready" > /tmp/ra.work 2>&1 &
ra=$!
nl_wait_file /tmp/ra.ready 60
i=0
while [ "$(ra_busy)" = 0 ] || [ "$(ra_field 1)" -lt 8192 ]; do
	i=$((i + 1))
	[ $i -le 120 ] || { grep '^group /cling_ra ' /tmp/cling.out | cut -c1-120 | tail -20;
		nl_fail "setup: node 0 never turned busy for /cling_ra with 8 failures: $(ra_line)"; }
	sleep 0.5
done
touch /tmp/rb.go
t0=$(nl_now_ms)
echo "node 1 filled up: $(ra_line | sed 's/ n1\[.*//')"
a0=$(awk 'NF >= 12 && $1 == "0" {v = $6} END {print v}' /tmp/cling.out)
cleared=
while [ $(( $(nl_now_ms) - t0 )) -lt 12000 ]; do
	sleep 0.5
	if [ "$(ra_busy)" = 0 ]; then cleared=$(( $(nl_now_ms) - t0 )); break; fi
done
a1=$(awk 'NF >= 12 && $1 == "0" {v = $6} END {print v}' /tmp/cling.out)
echo "after: $(ra_line | sed 's/ n1\[.*//')"
kill $ra $rb 2>/dev/null; wait $ra $rb 2>/dev/null
kill -TERM $loader; wait $loader; rc=$?
cat /tmp/cling.err
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -1 /tmp/cling.err)"
[ -n "$cleared" ] || nl_fail "node 0 still busy for /cling_ra 12 s after node 1 filled up: $(ra_line | sed 's/ n1\[.*//')"
echo "ok: node 0 busy for /cling_ra cleared $cleared ms after node 1 filled up"
nl_expect "node 0 attempts while node 1 was full" "$(nl_calc "$a1 - $a0")" -gt 0
echo "cling_resume ok"
