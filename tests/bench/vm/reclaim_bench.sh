# Scaled-down reproduction of the 2007 background-reclaim benchmark (spec/
# seed_reclaim.md R20, S1: `dd bs=1M count=300 | tail` under a 16M memcg)
# with four arms: no agent, agent with a round-robin victim node, agent
# with the BPF lottery, and the lottery with the seed's buggy LRU mask
# (--anon-rule code: the inverted anon test, R2), all with the backend the
# agent picks (lru_gen here: cold pages of the drawn node). Here: dd bs=1M count=$MIB | tail (tail buffers the
# newline-free stream: anon growth far past the limit, swapped to zram),
# memory.max 16M, RUNS runs per arm, arms interleaved, their order rotated each run. The agent runs with
# the PSI back-off off (--pressure 0): S1 had none, and here the cgroup
# stalls from the first second, which would keep the agent paused. Its
# interval is 1 s: limit hits are answered by the hook at once, and on
# single-threaded TCG every tick (weights, tables, published state) takes
# CPU from the workload. One line per run:
#   RUN arm=.. run=.. elapsed_ms=.. majfault=.. stall_us=.. events_max=..
#       scan_anon=.. scan_file=.. agent_pages=.. hook_events=.. hook_steps=..
#       lat_p50_us=.. lat_p99_us=.. agent_cpu_ms=..  (hook: limit-reclaim
#       events and the agent's steps on their draws; latency from the event
#       to the step; the agent's own CPU time while the load ran)
# stall_us is the cgroup's PSI memory "some" total (time its tasks waited
# on memory: reclaim and swap-in), standing in for the seed's reclaim time.
# The second load, after dd | tail in each arm and run (its own cgroup and
# agent): a build-like loop with a real working set, file-backed on an ext4
# virtio disk: ITER times, re-read a hot set of headers (HOT_MIB in 8 files)
# and read the next 2 MiB of a cold stream of sources (2 * ITER MiB, read
# once), in a 16M memcg. An agent that evicts the hot set makes it come
# back from disk (workingset_refault_file of the memcg). One line per run:
#   BUILD arm=.. run=.. elapsed_ms=.. refault_file=.. events_max=..
#       stall_us=.. agent_pages=.. hook_events=.. hook_steps=..
#       guard_pauses=.. agent_cpu_ms=.. standby_s=..  (times the agent's
#       refault guard paused it; its own CPU time while the load ran; the
#       seconds it stood by, unable to help)
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=4800 modules=zram,virtio_blk,ext4 disk=256M
. /nl/lib.sh
nl_need_numalens
RUNS=${RUNS:-10}; MIB=${MIB:-128}; VERBOSE_AGENT=${VERBOSE_AGENT:-0}; HOT_MIB=${HOT_MIB:-8}; ITER=${ITER:-48}
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || nl_fail "zram"
nl_mount_disk
# the build load's tree, written outside any limit: headers and sources
mkdir -p /mnt/d/hot
for f in 1 2 3 4 5 6 7 8; do dd if=/dev/zero of=/mnt/d/hot/h$f bs=64K count=$((HOT_MIB * 2)) 2>/dev/null || nl_fail "writing the hot set"; done
dd if=/dev/zero of=/mnt/d/cold bs=1M count=$((2 * ITER)) 2>/dev/null || nl_fail "writing the cold stream"
sync
CG=/sys/fs/cgroup
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
psi_some() { sed -n 's/^some .*total=\([0-9]*\)/\1/p' "$1"; }
# cpu_ms PID: the process's CPU time so far, ms (the scheduler's sum in
# schedstat: utime + stime are tick samples, skewed by a TCG guest's ticks)
cpu_ms() { awk '{ print int($1 / 1000000) }' /proc/$1/schedstat 2>/dev/null || echo 0; }
for n in 0 1 2 3; do echo "node $n: $(awk '/MemTotal/ {print $4, $5}' /sys/devices/system/node/node$n/meminfo), cpus $(cat /sys/devices/system/node/node$n/cpulist)"; done
echo "lru_gen $(cat /sys/kernel/mm/lru_gen/enabled), swappiness $(cat /proc/sys/vm/swappiness), no mempolicy, no cpuset"
echo "build load: $ITER x (read ${HOT_MIB} MiB of headers in 8 files, then the next 2 MiB of a $((2 * ITER)) MiB source stream), ext4 virtio disk, memory.max 16M"

# start_agent ARM CGREL: an agent for the arm on CGREL, ticking (its state
# published) before the workload starts; sets AG (empty for "none")
start_agent() {
	AG=
	case $1 in
	rr) $NUMALENS reclaim --victim round-robin --step 256 --pressure 0 --delay 1 $2 > /tmp/ag.log 2>&1 & AG=$!;;
	lottery) $NUMALENS reclaim --step 256 --pressure 0 --delay 1 $2 > /tmp/ag.log 2>&1 & AG=$!;;
	lotbug) $NUMALENS reclaim --anon-rule code --step 256 --pressure 0 --delay 1 $2 > /tmp/ag.log 2>&1 & AG=$!;;
	esac
	[ -n "$AG" ] || return 0
	local i=0
	while [ ! -s /run/numalens/reclaim/$AG.json ]; do
		kill -0 $AG 2>/dev/null || nl_fail "numalens reclaim exited: $(tail -2 /tmp/ag.log | tr '\n' ' ')"
		i=$((i + 1)); [ $i -le 600 ] || nl_fail "numalens reclaim published nothing in 60 s"; sleep 0.1
	done
	CPU0=$(cpu_ms $AG)
}
# stop_agent: stop it; sets PAGES, HOOK ("events steps"), LAT ("p50 p99")
# GUARD (refault guard pauses) and AGCPU (its CPU time during the load, ms)
stop_agent() {
	PAGES=0; HOOK=; LAT=; GUARD=0; AGCPU=0; SB=0
	[ -n "$AG" ] || return 0
	AGCPU=$(( $(cpu_ms $AG) - CPU0 ))
	kill $AG; wait $AG 2>/dev/null
	[ "${VERBOSE_AGENT:-0}" = 1 ] && grep -v ' step node=' /tmp/ag.log | sed 's/^/  agent| /' | tail -25
	PAGES=$(sed -n 's/^reclaimed [a-z_]* pages: //p' /tmp/ag.log | tr ' ' '\n' | sed 's/^N[0-9]*=//' | awk '{ s += $1 } END { print s + 0 }')
	HOOK=$(sed -n 's/^hook: limit_events=\([0-9]*\) steps=\([0-9]*\) .*/\1 \2/p' /tmp/ag.log)
	LAT=$(sed -n 's/.*to the step: p50 \([0-9]*\) us, p99 \([0-9]*\) us/\1 \2/p' /tmp/ag.log)
	GUARD=$(sed -n 's/.* refault_guard_pauses=\([0-9]*\).*/\1/p' /tmp/ag.log | tail -1)
	SB=$(sed -n 's/^standby: .* seconds=\([0-9.]*\) .*/\1/p' /tmp/ag.log | tail -1)
}

# arms_of RUN: the four arms in run RUN's order, rotated by one each run,
# so that no arm always runs first (a guest's first run after boot, and
# each arm's place after the one before it, bias the figures otherwise)
arms_of() { echo none rr lottery lotbug none rr lottery lotbug | cut -d' ' -f$((($1 - 1) % 4 + 1))-$((($1 - 1) % 4 + 4)); }
for run in $(seq 1 $RUNS); do
	echo "order run=$run: $(arms_of $run)"
	for arm in $(arms_of $run); do
		c=$CG/rb-$arm-$run; mkdir $c; echo 16M > $c/memory.max
		start_agent $arm /rb-$arm-$run
		[ -n "$AG" ] && [ $run = 1 ] && echo "$arm: $(head -1 /tmp/ag.log)"
		sync; echo 3 > /proc/sys/vm/drop_caches
		sa0=$(stat_of /proc/vmstat pgscan_anon); sf0=$(stat_of /proc/vmstat pgscan_file)
		t0=$(nl_now_ms)
		sh -c "echo \$\$ > $c/cgroup.procs; exec sh -c 'dd if=/dev/zero bs=1M count=$MIB 2>/dev/null | tail > /dev/null'"
		t1=$(nl_now_ms)
		sa1=$(stat_of /proc/vmstat pgscan_anon); sf1=$(stat_of /proc/vmstat pgscan_file)
		stop_agent
		echo "RUN arm=$arm run=$run elapsed_ms=$((t1 - t0)) majfault=$(stat_of $c/memory.stat pgmajfault) stall_us=$(psi_some $c/memory.pressure) events_max=$(stat_of $c/memory.events max) scan_anon=$((sa1 - sa0)) scan_file=$((sf1 - sf0)) agent_pages=$PAGES hook_events=$(echo $HOOK | cut -d' ' -f1) hook_steps=$(echo $HOOK | cut -d' ' -f2) lat_p50_us=$(echo $LAT | cut -d' ' -f1) lat_p99_us=$(echo $LAT | cut -d' ' -f2) agent_cpu_ms=$AGCPU"
		rmdir $c
		# the build-like load
		c=$CG/rbb-$arm-$run; mkdir $c; echo 16M > $c/memory.max
		start_agent $arm /rbb-$arm-$run
		sync; echo 3 > /proc/sys/vm/drop_caches
		t0=$(nl_now_ms)
		sh -c "echo \$\$ > $c/cgroup.procs; i=0; while [ \$i -lt $ITER ]; do
			cat /mnt/d/hot/* > /dev/null; dd if=/mnt/d/cold bs=1M skip=\$((i * 2)) count=2 of=/dev/null 2>/dev/null; i=\$((i + 1)); done"
		t1=$(nl_now_ms)
		stop_agent
		echo "BUILD arm=$arm run=$run elapsed_ms=$((t1 - t0)) refault_file=$(stat_of $c/memory.stat workingset_refault_file) events_max=$(stat_of $c/memory.events max) stall_us=$(psi_some $c/memory.pressure) agent_pages=$PAGES hook_events=$(echo $HOOK | cut -d' ' -f1) hook_steps=$(echo $HOOK | cut -d' ' -f2) guard_pauses=${GUARD:-0} agent_cpu_ms=$AGCPU standby_s=${SB:-0}"
		rmdir $c
	done
done
echo "reclaim_bench done"
