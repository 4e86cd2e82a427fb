# Where the lottery should beat round-robin: cold pages spread very
# unevenly over the nodes. One cgroup (memory.max 256M: no limit reclaim,
# only the agent's) holds 48 MiB of anon touched once on node 0 (cold),
# and on node 1 16 MiB of anon rewritten all the time (hot) beside 4 MiB
# touched once (cold); zram swap, lru_gen. The agent is asked to take
# 24 MiB (--high 4 MiB below usage, --low 28 MiB below). The lottery's
# tickets follow the old-generation pages (nearly all on node 0 once aged);
# round-robin steps on node 1 every other time, where a step finds at most
# 4 MiB and then has to age the hot set. Per run, rotated arms rr and
# lottery in fresh cgroups:
#   SKEW arm=.. run=.. steps=.. zero_steps=.. (steps that freed nothing)
#        secs_to_low=.. steps_to_low=.. (from the first "reclaiming to low"
#        to the first "<= low") pages_n0=.. pages_n1=.. hot_majfault=..
#        (the cgroup's pgmajfault: only the hot set is touched again)
#        no_progress=.. (passes stopped on no progress)
# No no-agent arm: without the agent nothing is reclaimed here.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=1500 modules=zram
. /nl/lib.sh
nl_need_numalens
RUNS=${RUNS:-5}
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || nl_fail "zram"
CG=/sys/fs/cgroup
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
arms_of() { [ $(($1 % 2)) = 1 ] && echo rr lottery || echo lottery rr; }
for run in $(seq 1 $RUNS); do
	echo "order run=$run: $(arms_of $run)"
	for arm in $(arms_of $run); do
		c=$CG/sk-$arm-$run; mkdir $c; echo 256M > $c/memory.max
		rm -f /tmp/sk-rdy* /tmp/sk-go
		sh -c "echo \$\$ > $c/cgroup.procs; exec nlwork --cpu $(nl_first_cpu_of_node 0) --node 0 --anon 48 --ready-file /tmp/sk-rdy0 --hold 600" > /tmp/sk0.out 2>&1 & W0=$!
		sh -c "echo \$\$ > $c/cgroup.procs; exec nlwork --cpu $(nl_first_cpu_of_node 1) --node 1 --anon 4 --ready-file /tmp/sk-rdy1 --hold 600" > /tmp/sk1.out 2>&1 & W1=$!
		sh -c "echo \$\$ > $c/cgroup.procs; exec nlwork --cpu $(nl_first_cpu_of_node 1) --node 1 --anon 16 --passes 100000000 --ready-file /tmp/sk-rdyh --wait-file /tmp/sk-go" > /tmp/skh.out 2>&1 & WH=$!
		for f in 0 1 h; do nl_wait_file /tmp/sk-rdy$f 120 || nl_fail "worker $f not ready"; done
		touch /tmp/sk-go
		sleep 2
		u=$(($(cat $c/memory.current) / 1048576))
		[ $arm = rr ] && V="--victim round-robin" || V="--victim lottery"
		m0=$(stat_of $c/memory.stat pgmajfault)
		$NUMALENS reclaim $V -v --step 256 --pressure 0 --cold-ms 500 --high $((u - 4))M --low $((u - 28))M --delay 0.5 --duration 20 /sk-$arm-$run > /tmp/sk-ag.log 2>&1 ||
			nl_fail "agent exit $?: $(tail -2 /tmp/sk-ag.log)"
		m1=$(stat_of $c/memory.stat pgmajfault)
		kill $W0 $W1 $WH 2>/dev/null; wait $W0 $W1 $WH 2>/dev/null
		# first "reclaiming to low" to first "<= low": seconds and steps
		t=$(awk '/reclaiming to low/ && !s { s = $1 } /<= low: idle/ && !e { e = $1; n = $(NF - 3); gsub(/[(]/, "", n) } END { print s, e, n }' /tmp/sk-ag.log)
		set -- $t
		secs=$(awk -v a="${1:-x}" -v b="${2:-x}" 'BEGIN { if (a == "x" || b == "x") { print "-1"; exit }
			split(substr(a, 12, 12), p, ":"); split(substr(b, 12, 12), q, ":")
			printf "%.2f", (q[1] * 3600 + q[2] * 60 + q[3]) - (p[1] * 3600 + p[2] * 60 + p[3]) }')
		steps=$(sed -n 's/^passes=[0-9]* steps=\([0-9]*\) no_progress_stops=\([0-9]*\).*/\1 \2/p' /tmp/sk-ag.log | tail -1)
		pg=$(sed -n 's/^reclaimed lru_gen pages: //p' /tmp/sk-ag.log | tail -1)
		sed -n 's/^draws agent: /  draws: /p; s/^tickets /  tickets: /p' /tmp/sk-ag.log | tail -2
		zero=$(grep -c ' step node=.* freed=0 pages' /tmp/sk-ag.log)
		echo "SKEW arm=$arm run=$run steps=$(echo $steps | cut -d' ' -f1) zero_steps=$zero secs_to_low=$secs steps_to_low=${3:-0} pages_n0=$(echo "$pg" | sed -n 's/.*N0=\([0-9]*\).*/\1/p') pages_n1=$(echo "$pg" | sed -n 's/.*N1=\([0-9]*\).*/\1/p') hot_majfault=$((m1 - m0)) no_progress=$(echo $steps | cut -d' ' -f2)"
		rmdir $c 2>/dev/null
	done
done
echo "reclaim_skew_bench done"
