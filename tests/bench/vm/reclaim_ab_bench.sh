# Before/after of a change to the reclaim agent on the bench's build-like
# load (reclaim_bench.sh's second load: 48 x (re-read a hot set of 8 MiB,
# read the next 2 MiB of a cold stream), 16M memcg, ext4 virtio disk), in
# one guest: arms no agent, a second build of numalens as
# /nl/bin/numalens-base (old) and build/numalens (new), the lottery agent
# as the bench runs it, order rotated each run. Not part of make bench:
#   NL_VM_EXTRA_BINS=/path/to/old/numalens-base NL_VM_TESTS_DIR=tests/bench/vm \
#     tests/vm/run.sh reclaim_ab_bench   (6 runs per arm)
# One line per run: BUILD arm=.. run=.. elapsed_ms=.. refault_file=..
# events_max=.. stall_us=.. agent_pages=.. steps=.. agent_cpu_ms=.. standby_s=..
# and, for an agent that has it, its last agent_cost: and standby: lines.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=2400 modules=zram,virtio_blk,ext4 disk=256M
. /nl/lib.sh
nl_need_numalens
RUNS=${RUNS:-6}; ITER=48; HOT_MIB=8
BASE=/nl/bin/numalens-base
[ -x $BASE ] || nl_fail "no $BASE"
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || nl_fail "zram"
nl_mount_disk
mkdir -p /mnt/d/hot
for f in 1 2 3 4 5 6 7 8; do dd if=/dev/zero of=/mnt/d/hot/h$f bs=64K count=$((HOT_MIB * 2)) 2>/dev/null; done
dd if=/dev/zero of=/mnt/d/cold bs=1M count=$((2 * ITER)) 2>/dev/null
sync
CG=/sys/fs/cgroup
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
psi_some() { sed -n 's/^some .*total=\([0-9]*\)/\1/p' "$1"; }
cpu_ms() { awk '{ print int($1 / 1000000) }' /proc/$1/schedstat 2>/dev/null || echo 0; }
arms_of() { echo none old new none old new | cut -d' ' -f$((($1 - 1) % 3 + 1))-$((($1 - 1) % 3 + 3)); }
for run in $(seq 1 $RUNS); do
 echo "order run=$run: $(arms_of $run)"
 for arm in $(arms_of $run); do
	c=$CG/ab-$arm-$run; mkdir $c; echo 16M > $c/memory.max
	AG=
	case $arm in
	# the baseline build may predate --delay: -i, its old spelling
	old) $BASE reclaim --step 256 --pressure 0 -i 1 /ab-$arm-$run > /tmp/ag.log 2>&1 & AG=$!;;
	new) $NUMALENS reclaim --step 256 --pressure 0 --delay 1 /ab-$arm-$run > /tmp/ag.log 2>&1 & AG=$!;;
	esac
	if [ -n "$AG" ]; then
		i=0; while [ ! -s /run/numalens/reclaim/$AG.json ]; do i=$((i + 1)); [ $i -le 600 ] || nl_fail "no json"; sleep 0.1; done
		CPU0=$(cpu_ms $AG)
	fi
	sync; echo 3 > /proc/sys/vm/drop_caches
	t0=$(nl_now_ms)
	sh -c "echo \$\$ > $c/cgroup.procs; i=0; while [ \$i -lt $ITER ]; do
		cat /mnt/d/hot/* > /dev/null; dd if=/mnt/d/cold bs=1M skip=\$((i * 2)) count=2 of=/dev/null 2>/dev/null; i=\$((i + 1)); done"
	t1=$(nl_now_ms)
	AGCPU=0; SB=0; PAGES=0; STEPS=0; COST=
	if [ -n "$AG" ]; then
		AGCPU=$(( $(cpu_ms $AG) - CPU0 ))
		kill $AG; wait $AG
		SB=$(sed -n 's/^standby: .* seconds=\([0-9.]*\) .*/\1/p' /tmp/ag.log | tail -1)
		PAGES=$(sed -n 's/^reclaimed [a-z_]* pages: //p' /tmp/ag.log | tr ' ' '\n' | sed 's/^N[0-9]*=//' | awk '{ s += $1 } END { print s + 0 }')
		STEPS=$(sed -n 's/^passes=[0-9]* steps=\([0-9]*\) .*/\1/p' /tmp/ag.log | tail -1)
		COST=$(grep '^agent_cost:' /tmp/ag.log | tail -1)
		SBL=$(grep '^standby:' /tmp/ag.log | tail -1)
		[ -n "$COST" ] && echo "  $COST" && echo "  $SBL"
	fi
	echo "BUILD arm=$arm run=$run elapsed_ms=$((t1 - t0)) refault_file=$(stat_of $c/memory.stat workingset_refault_file) events_max=$(stat_of $c/memory.events max) stall_us=$(psi_some $c/memory.pressure) agent_pages=$PAGES steps=${STEPS:-0} agent_cpu_ms=$AGCPU standby_s=${SB:-0}"
	rmdir $c
 done
done
echo done
