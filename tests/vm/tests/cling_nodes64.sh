# scx_cling on 64 nodes (the most it supports): 2 nodes with one CPU each
# and 62 memory-only nodes, so TCG can boot it. The verifier accepts the
# object built for 64 nodes, it attaches, counts the 2 online CPUs and
# 64 nodes, and detaches cleanly on SIGTERM. --verbose reports what the
# verifier processed per program (its budget is 1,000,000 instructions).
# vm: cpus=1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 mem=192M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M,32M timeout=600
. /nl/lib.sh
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
n=$(ls -d /sys/devices/system/node/node* | wc -l)
nl_expect "guest nodes" "$n" -eq 64
scx_cling --verbose --delay 2 --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
nl_cling_wait $loader /tmp/cling.ready /tmp/cling.err 300
grep -q scx_cling /sys/kernel/sched_ext/root/ops || nl_fail "ops: $(cat /sys/kernel/sched_ext/root/ops)"
# Until a first statistics block (every 2 s) is complete: the next one began.
i=0
while [ "$(grep -c '^scx_cling [0-9]' /tmp/cling.out)" -lt 2 ]; do
	i=$((i + 1)); [ $i -le 1200 ] || nl_fail "no complete statistics block within 120 s: $(tail -1 /tmp/cling.out | cut -c1-60)"
	kill -0 $loader 2>/dev/null || nl_fail "scx_cling exited: $(tail -1 /tmp/cling.err)"
	sleep 0.1
done
kill -TERM $loader; wait $loader; rc=$?
head -1 /tmp/cling.out
grep '^scx_cling: verifier:' /tmp/cling.err
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -1 /tmp/cling.err)"
grep -q 'attached (64 nodes' /tmp/cling.out || nl_fail "scx_cling did not attach with 64 nodes: $(head -1 /tmp/cling.out)"
c=$(awk 'NF >= 12 && $1 ~ /^[0-9]+$/ && $1 < 64 {c[$1] = $11} END {for (n in c) s += c[n]; print s + 0}' /tmp/cling.out)
nl_expect "online CPUs counted over the 64 nodes" "$c" -eq 2
echo "cling_nodes64 ok"
