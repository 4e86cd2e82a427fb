# On the 7.3 guest (pure cgroup v2): the programs that translate pids for a
# PID namespace and record cgroup ancestry load and work there too.
# 1. numalens in a PID namespace (unshare -p -f --mount-proc) lists its
#    busy worker under the namespace's pid with run time.
# 2. 40 cgroups under /churn, each created, given an nlwork that touches
#    8 MiB and removed at once: /churn holds >= 95% of the pages the
#    children say they touched (folded into the root before).
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=300
. /nl/lib.sh
nl_need_numalens
unshare -p -f --mount-proc sh -c '
	nlwork --spin 120 > /dev/null & W=$!
	echo $W > /tmp/ns.w
	'"$NUMALENS"' top --json -n 2 -d 1 -p $W > /tmp/ns.jsonl 2> /tmp/ns.err
	kill $W 2> /dev/null; true' || nl_fail "the PID namespace run failed: $(cat /tmp/ns.err)"
W=$(cat /tmp/ns.w)
r=$(nljq -L /tmp/ns.jsonl "processes[pid=$W].run_ns_total")
c=$(nljq -L /tmp/ns.jsonl "processes[pid=$W].comm")
[ "$c" = nlwork ] || nl_fail "in the PID namespace, pid $W: comm '$c', expected nlwork ($(cat /tmp/ns.err))"
nl_expect "run time of the namespace's worker (pid $W there)" "$r" -gt 0
mkdir /sys/fs/cgroup/churn || nl_fail "cannot create /churn"
J=/tmp/churn.jsonl
nl_top $J 1 200
touched=0
i=0
while [ $i -lt 40 ]; do
	i=$((i + 1))
	mkdir /sys/fs/cgroup/churn/c$i || nl_fail "cannot create /churn/c$i"
	out=$(sh -c "echo \$\$ > /sys/fs/cgroup/churn/c$i/cgroup.procs && exec nlwork --anon 8 --hold 0.03") ||
		nl_fail "nlwork in c$i: $out"
	t=$(echo "$out" | sed -n 's/.*touched_pages=\([0-9]*\).*/\1/p')
	touched=$((touched + t))
	rmdir /sys/fs/cgroup/churn/c$i || { sleep 0.1; rmdir /sys/fs/cgroup/churn/c$i; } || nl_fail "cannot remove c$i"
done
# two more intervals: the last children are counted and retired (written
# intervals, not a fixed 2.5 s a starved top could outlast)
nl_top_stop $J 2
got=$(nljq -L $J "cgroups[path=/churn].alloc.pages_local_total" "cgroups[path=/churn].alloc.pages_remote_total" | awk -F'\t' '{ print $1 + $2 }')
echo "children touched $touched pages; /churn holds $got"
nl_expect "pages /churn holds, of the $touched its short-lived children touched" "$got" -ge "$(nl_calc "$touched * 0.95")"
echo "pidns_churn ok"
