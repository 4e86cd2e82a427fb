# Scaled-down reproduction of the 2007 background-reclaim benchmark (spec/
# seed_reclaim.md R20, S1: `dd bs=1M count=300 | tail` under a 16M memcg)
# with four arms: no agent, agent with a round-robin victim node, agent
# with the BPF lottery, and the lottery with the seed's buggy LRU mask
# (--anon-rule code: the inverted anon test, R2), all with the backend the
# agent picks (lru_gen here: cold pages of the drawn node). Here: dd bs=1M count=$MIB | tail (tail buffers the
# newline-free stream: anon growth far past the limit, swapped to zram),
# memory.max 16M, RUNS runs per arm, arms interleaved. The agent runs with
# the PSI back-off off (--pressure 0): S1 had none, and here the cgroup
# stalls from the first second, which would keep the agent paused. Its
# interval is 1 s: limit hits are answered by the hook at once, and on
# single-threaded TCG every tick (weights, tables, published state) takes
# CPU from the workload. One line per run:
#   RUN arm=.. run=.. elapsed_ms=.. majfault=.. stall_us=.. events_max=..
#       scan_anon=.. scan_file=.. agent_pages=.. hook_events=.. hook_steps=..
#       lat_p50_us=.. lat_p99_us=..  (hook: limit-reclaim events and the
#       agent's steps on their draws; latency from the event to the step)
# stall_us is the cgroup's PSI memory "some" total (time its tasks waited
# on memory: reclaim and swap-in), standing in for the seed's reclaim time
# until the vmscan begin/end figures (issue 5) are connected.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=1800 modules=zram
. /nl/lib.sh
nl_need_numalens
RUNS=${RUNS:-5}; MIB=${MIB:-128}; VERBOSE_AGENT=${VERBOSE_AGENT:-0}
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || nl_fail "zram"
CG=/sys/fs/cgroup
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
psi_some() { sed -n 's/^some .*total=\([0-9]*\)/\1/p' "$1"; }
for n in 0 1 2 3; do echo "node $n: $(awk '/MemTotal/ {print $4, $5}' /sys/devices/system/node/node$n/meminfo), cpus $(cat /sys/devices/system/node/node$n/cpulist)"; done
echo "lru_gen $(cat /sys/kernel/mm/lru_gen/enabled), swappiness $(cat /proc/sys/vm/swappiness), no mempolicy, no cpuset"
for run in $(seq 1 $RUNS); do
	for arm in none rr lottery lotbug; do
		c=$CG/rb-$arm-$run; mkdir $c; echo 16M > $c/memory.max
		AG=
		case $arm in
		rr) $NUMALENS reclaim --victim round-robin --step 256 --pressure 0 -i 1 /rb-$arm-$run > /tmp/ag.log 2>&1 & AG=$!;;
		lottery) $NUMALENS reclaim --step 256 --pressure 0 -i 1 /rb-$arm-$run > /tmp/ag.log 2>&1 & AG=$!;;
		lotbug) $NUMALENS reclaim --anon-rule code --step 256 --pressure 0 -i 1 /rb-$arm-$run > /tmp/ag.log 2>&1 & AG=$!;;
		esac
		# ticking (its state published) before the workload starts
		if [ -n "$AG" ]; then
			i=0; while [ ! -s /run/numalens/reclaim/$AG.json ]; do
				kill -0 $AG 2>/dev/null || nl_fail "numalens reclaim exited: $(tail -2 /tmp/ag.log | tr '\n' ' ')"
				i=$((i + 1)); [ $i -le 600 ] || nl_fail "numalens reclaim published nothing in 60 s"; sleep 0.1
			done
			[ $run = 1 ] && echo "$arm: $(head -1 /tmp/ag.log)"
		fi
		sync; echo 3 > /proc/sys/vm/drop_caches
		sa0=$(stat_of /proc/vmstat pgscan_anon); sf0=$(stat_of /proc/vmstat pgscan_file)
		t0=$(nl_now_ms)
		sh -c "echo \$\$ > $c/cgroup.procs; exec sh -c 'dd if=/dev/zero bs=1M count=$MIB 2>/dev/null | tail > /dev/null'"
		t1=$(nl_now_ms)
		sa1=$(stat_of /proc/vmstat pgscan_anon); sf1=$(stat_of /proc/vmstat pgscan_file)
		pages=0; hook=; lat=
		if [ -n "$AG" ]; then
			kill $AG; wait $AG 2>/dev/null
			[ "${VERBOSE_AGENT:-0}" = 1 ] && grep -v ' step node=' /tmp/ag.log | sed 's/^/  agent| /' | tail -25
			pages=$(sed -n 's/^reclaimed [a-z_]* pages: //p' /tmp/ag.log | tr ' ' '\n' | sed 's/^N[0-9]*=//' | awk '{ s += $1 } END { print s + 0 }')
			hook=$(sed -n 's/^hook: limit_events=\([0-9]*\) steps=\([0-9]*\) .*/\1 \2/p' /tmp/ag.log)
			lat=$(sed -n 's/.*to the step: p50 \([0-9]*\) us, p99 \([0-9]*\) us/\1 \2/p' /tmp/ag.log)
		fi
		echo "RUN arm=$arm run=$run elapsed_ms=$((t1 - t0)) majfault=$(stat_of $c/memory.stat pgmajfault) stall_us=$(psi_some $c/memory.pressure) events_max=$(stat_of $c/memory.events max) scan_anon=$((sa1 - sa0)) scan_file=$((sf1 - sf0)) agent_pages=$pages hook_events=$(echo $hook | cut -d' ' -f1) hook_steps=$(echo $hook | cut -d' ' -f2) lat_p50_us=$(echo $lat | cut -d' ' -f1) lat_p99_us=$(echo $lat | cut -d' ' -f2)"
		rmdir $c
	done
done
echo "reclaim_bench done"
