# numalens reclaim's weights take their scanned/rotated input from the
# vmscan figures (spec/seed_reclaim.md §2.2; README "numalens reclaim"):
# a cgroup under limit reclaim (48M memory.max; clean page cache: a cold
# 32M file read once on node 0, a 12M file re-read in a loop on node 1, a
# stream of three 16M files read in turn on node 2) runs
# an agent in --dry-run; its --status block must say scan source=vmscan,
# show nodes with scanned pages, and weights that differ from the R4
# prior computed from the same memory.numa_stat. Both LRU modes.
# vm: nodes=4 cpus_per_node=1 mem_per_node=384M timeout=170 modules=virtio_blk,ext4 disk=256M
. /nl/lib.sh
nl_need_numalens
CG=/sys/fs/cgroup
[ -f /sys/kernel/mm/lru_gen/enabled ] || nl_fail "no /sys/kernel/mm/lru_gen (CONFIG_LRU_GEN expected)"
# page cache needs a real file system (/tmp is tmpfs: shmem, not file LRU)
[ -b /dev/vda ] || nl_fail "no /dev/vda: the harness did not attach the disk (disk=)"
mke2fs -q /dev/vda || nl_fail "mke2fs /dev/vda failed"
mkdir -p /mnt/d
mount -t ext4 /dev/vda /mnt/d 2>/dev/null || mount -t ext2 /dev/vda /mnt/d || nl_fail "mount /dev/vda failed"
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
	# cold: read once on node 0; hot: re-read in a loop on node 1 (its
	# pages are referenced again and again); a stream of reads on node 2
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; taskset -c 0 cat $D/$S.cold > /dev/null; touch /tmp/$S.rdy; exec sleep 600" &
	P1=$!
	i=0; while [ ! -f /tmp/$S.rdy ]; do i=$((i + 1)); [ $i -gt 600 ] && nl_fail "cold read not done"; sleep 0.1; done
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; while :; do taskset -c 1 cat $D/$S.hot > /dev/null; done" &
	P2=$!
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; while :; do for f in s1 s2 s3; do taskset -c 2 cat $D/$S.\$f > /dev/null; done; done" &
	P3=$!
	$NUMALENS reclaim --dry-run --high 8M --low 4M -i 0.5 -d 40 /$S > /tmp/$S.log 2>&1 &
	AG=$!
	# wait on the agent's published status (cheap), then ask --status
	ok=0
	for t in $(seq 120); do
		sleep 0.25
		grep -q 'N[0-9]=anon:[0-9]*/[0-9]*,file:\(3[2-9]\|[4-9][0-9]\|[0-9][0-9][0-9]\)' /run/numalens/reclaim/$AG.status 2>/dev/null && { ok=1; break; }
	done
	$NUMALENS reclaim --status /$S > /tmp/$S.st 2>&1 || nl_fail "[$lru] --status exit $?: $(tail -2 /tmp/$S.st)"
	sed -n '/^running agent/,$p' /tmp/$S.st > /tmp/$S.run
	kill $P2 $P3 $P1 2>/dev/null; wait $P2 $P3 $P1 2>/dev/null
	kill $AG; wait $AG
	cat /tmp/$S.run
	grep -q '^scan source=vmscan' /tmp/$S.run || nl_fail "[$lru] the running agent's scan source is not vmscan: $(cat /tmp/$S.st)"
	nl_expect "[$lru] a node with >= 32 recent scanned file pages in the agent's status" "$ok" -eq 1
	w=$(sed -n 's/^scan_weight=\([0-9]*\).*/\1/p' /tmp/$S.run | head -1)
	wp=$(sed -n 's/^scan_weight_prior=\([0-9]*\).*/\1/p' /tmp/$S.run | head -1)
	echo "[$lru] scan_weight $w, with the R4 prior on every node $wp"
	nl_expect "[$lru] scan_weight from vmscan figures below the prior's" "${w:-0}" -lt "${wp:-0}"
	rmdir $CG/$S
	rm -f /tmp/$S.* $D/$S.*
done
echo "reclaim_scanfeed ok"
