# numalens reclaim's weights take their scanned/rotated input from the
# vmscan figures (spec/seed_reclaim.md §2.2; README "numalens reclaim"):
# a cgroup under limit reclaim (a cold 32M file on node 0, a file rewritten in
# a loop on node 1, a stream of new files on node 2, 48M memory.max) runs
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
	mkdir $CG/$S && echo 48M > $CG/$S/memory.max
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; exec nlwork --node 0 --file 32 --file-path $D/$S.cold --ready-file /tmp/$S.rdy --hold 600" > /dev/null &
	P1=$!
	i=0; while [ ! -f /tmp/$S.rdy ]; do i=$((i + 1)); [ $i -gt 600 ] && nl_fail "cold workload not ready"; sleep 0.1; done
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; while :; do nlwork --cpu 1 --node 1 --file 12 --file-path $D/$S.hot > /dev/null; done" &
	P2=$!
	sh -c "echo \$\$ > $CG/$S/cgroup.procs; i=0; while :; do i=\$((i + 1)); nlwork --cpu 2 --node 2 --file 16 --file-path $D/$S.s\$i > /dev/null; rm -f $D/$S.s\$i; done" &
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
