# numalens reclaim's weights take their scanned/rotated input from the
# vmscan figures (spec/seed_reclaim.md §2.2; README "numalens reclaim"):
# a cgroup under limit reclaim (48M memory.max; clean page cache: a cold
# 32M file read once on node 0, and on node 2 a stream of three 16M files
# read in turn beside a 12M file mapped and touched in a loop) runs an
# agent in --dry-run; its --status block must say scan source=vmscan, show
# scanned pages on node 2 and weights no higher than the R4 prior computed
# from the same memory.numa_stat. Classic LRU: the mapped hot pages that
# reclaim finds referenced are rotated, and node 2's weight must be below
# the prior's by more than the 1-page rounding that (s - r) / (s + 1)
# gives when nothing rotates. MGLRU: aging protects the hot pages before
# eviction sees them, so rotated (+ refill) can stay 0 and the weight may
# equal the prior (README "rotated under MGLRU"); it is only reported.
# vm: nodes=4 cpus_per_node=1 mem_per_node=384M timeout=170 modules=virtio_blk,ext4 disk=256M
. /nl/lib.sh
nl_need_numalens
CG=/sys/fs/cgroup
[ -f /sys/kernel/mm/lru_gen/enabled ] || nl_fail "no /sys/kernel/mm/lru_gen (CONFIG_LRU_GEN expected)"
# page cache needs a real file system (/tmp is tmpfs: shmem, not file LRU)
nl_mount_disk
D=/mnt/d
for lru in n y; do
	echo $lru > /sys/kernel/mm/lru_gen/enabled
	S=rscan$lru
	# clean page cache only: files written and synced outside the cgroup
	# and dropped, then read inside it (dirty pages under a memcg limit
	# would wait for writeback and OOM-kill the readers under TCG)
	for f in cold:32 hot:12 s1:16 s2:16 s3:16; do
		dd if=/dev/zero of=$D/$S.${f%%:*} bs=1M count=${f#*:} 2>/dev/null || nl_fail "dd $f"
	done
	sync; echo 1 > /proc/sys/vm/drop_caches
	mkdir $CG/$S && echo 48M > $CG/$S/memory.max
	# cold: read once on node 0. On node 2: hot, mapped and touched in a
	# loop (its pages are referenced when reclaim meets them: rotated),
	# and a stream of reads that keeps the cgroup at its limit
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; taskset -c 0 cat $D/$S.cold > /dev/null; touch /tmp/$S.rdy; exec sleep 600" &
	P1=$!
	i=0; while [ ! -f /tmp/$S.rdy ]; do i=$((i + 1)); [ $i -gt 600 ] && nl_fail "cold read not done"; sleep 0.1; done
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; exec nlwork --cpu 2 --file 12 --file-path $D/$S.hot --file-exists --passes 100000000" &
	P2=$!
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; while :; do for f in s1 s2 s3; do taskset -c 2 cat $D/$S.\$f > /dev/null; done; done" &
	P3=$!
	# under MGLRU the default backend is lru_gen, which leaves a node whose
	# page cache is mostly read(2) to the kernel (reclaim_unmapped tests
	# that): node 2 here. madvise counts the mapped pages it can free.
	BK=; [ $lru = y ] && BK="--backend madvise"
	$NUMALENS reclaim --dry-run $BK --high 8M --low 4M --delay 0.5 --duration 40 /$S > /tmp/$S.log 2>&1 &
	AG=$!
	# wait on the agent's published status (cheap), then ask --status
	ge32='\(3[2-9]\|[4-9][0-9]\|[0-9][0-9][0-9][0-9]*\)'
	if [ $lru = n ]; then rot=$ge32; what="scanned and >= 32 rotated"; else rot='[0-9]*'; what=scanned; fi
	ok=0
	for t in $(seq 120); do
		sleep 0.25
		# node 2 with >= 32 scanned file pages, classic: and >= 32 rotated
		grep -q "N2=anon:[0-9]*/[0-9]*,file:$ge32/$rot " /run/numalens/reclaim/$AG.status 2>/dev/null &&
			{ ok=1; break; }
	done
	$NUMALENS reclaim --status $BK /$S > /tmp/$S.st 2>&1 || nl_fail "[$lru] --status exit $?: $(tail -2 /tmp/$S.st)"
	sed -n '/^running agent/,$p' /tmp/$S.st > /tmp/$S.run
	kill $P2 $P3 $P1 2>/dev/null; wait $P2 $P3 $P1 2>/dev/null
	kill $AG; wait $AG
	cat /tmp/$S.run
	grep -q '^scan source=vmscan' /tmp/$S.run || nl_fail "[$lru] the running agent's scan source is not vmscan: $(cat /tmp/$S.st)"
	nl_expect "[$lru] node 2 with >= 32 $what file pages in the agent's status" "$ok" -eq 1
	w=$(sed -n 's/^scan_weight=.* N2=\([0-9]*\).*/\1/p' /tmp/$S.run | head -1)
	wp=$(sed -n 's/^scan_weight_prior=.* N2=\([0-9]*\).*/\1/p' /tmp/$S.run | head -1)
	echo "[$lru] node 2 weight $w, with the R4 prior $wp"
	if [ $lru = n ]; then
		# rotated pages lower the factor: by more than one page's rounding
		nl_expect "[$lru] node 2 weight from vmscan figures, below the prior's less 1" "${w:-0}" -lt "$(( ${wp:-0} - 1 ))"
	else
		nl_expect "[$lru] node 2 weight from vmscan figures, at most the prior's" "${w:-0}" -le "${wp:-0}"
		nl_expect "[$lru] node 2 weight (not empty)" "${w:-0}" -gt 0
	fi
	rmdir $CG/$S
	rm -f /tmp/$S.* $D/$S.*
done
echo "reclaim_scanfeed ok"
