# Page cache read with read(2) is left to the kernel under lru_gen. Aging
# finds accesses through page-table accessed bits, so unmapped page cache
# stays in the generation it came in however often it is read: lru_gen
# cannot tell its hot pages from its cold ones. One cgroup holds 32 MiB
# of a file read with read(2) on node 1 (never mapped) and 24 MiB of a
# file read once through a mapping that stays mapped, on node 2 (cold).
# Asked to go from ~56 MiB down to 24 MiB, the agent must take the mapped
# cold pages of node 2 and keep at least 90% of the read(2) pages of
# node 1 (the workload's own pages, memory.numa_stat). The agent before
# this rule counted every page cache page and reclaimed node 1 as well.
# A second agent that finds only the read(2) pages (usage above --high, no
# node to draw) must look again once per interval, not every 50 ms.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=300 modules=zram,virtio_blk,ext4 disk=128M
. /nl/lib.sh
nl_need_numalens
nl_mount_disk
# with THP "always" khugepaged collapses the read-only file mapping into
# huge pages that nobody maps until the next access (seen here: 24 MiB of
# FileHugePages, file_mapped 0), which would make the cold set unmapped
echo madvise > /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
CG=/sys/fs/cgroup
mkdir $CG/runm || nl_fail "cannot make /runm"
# file pages of the cgroup on node N, in pages (numa_stat key K)
pages_of() { awk -v k="$1" -v n="N$2=" '$1 == k { for (i = 2; i <= NF; i++) if (index($i, n) == 1) print int(substr($i, length(n) + 1) / 4096) }' $CG/runm/memory.numa_stat; }
sh -c "echo \$\$ > $CG/runm/cgroup.procs; exec nlwork --cpu $(nl_first_cpu_of_node 1) --node 1 --file 32 --file-path /mnt/d/u --ready-file /tmp/rdy.u --hold 600" > /tmp/u.out 2>&1 &
U=$!
sh -c "echo \$\$ > $CG/runm/cgroup.procs; exec nlwork --cpu $(nl_first_cpu_of_node 2) --node 2 --file 24 --file-path /mnt/d/m --passes 1 --ready-file /tmp/rdy.m --hold 600" > /tmp/m.out 2>&1 &
M=$!
nl_wait_file /tmp/rdy.u 120 || nl_fail "read(2) set not ready: $(cat /tmp/u.out)"
nl_wait_file /tmp/rdy.m 120 || nl_fail "mapped set not ready: $(cat /tmp/m.out)"
sync	# clean pages: what is reclaimed is the agent's choice, not writeback's
# memcg statistics reach memory.numa_stat in batches: wait for the mapping
i=0; while [ "$(pages_of file_mapped 2)" -lt 5000 ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
u0=$(pages_of file 1); m0=$(pages_of file 2); mm0=$(pages_of file_mapped 2)
echo "before: node 1 file=$u0 pages (mapped $(pages_of file_mapped 1)), node 2 file=$m0 pages (mapped $mm0), usage=$(cat $CG/runm/memory.current)"
[ "$u0" -ge 7000 ] && [ "$mm0" -ge 5000 ] || nl_fail "the sets are not where they should be: node 1 file $u0, node 2 mapped $mm0 pages; mapped set's process: $(kill -0 $M 2>&1 && tr '\n' ' ' < /proc/$M/smaps_rollup | tr -s ' '); $(cat /tmp/m.out)"
$NUMALENS reclaim -v --step 1024 --high 30M --low 24M --cold-ms 500 --delay 0.5 --duration 25 /runm > /tmp/r.log 2>&1 ||
	nl_fail "numalens reclaim exit $?: $(tail -3 /tmp/r.log)"
grep -v ' step node=' /tmp/r.log; grep ' step node=' /tmp/r.log | head -5
u1=$(pages_of file 1); m1=$(pages_of file 2)
echo "after: node 1 file=$u1 pages, node 2 file=$m1 pages, usage=$(cat $CG/runm/memory.current)"
grep -q 'backend lru_gen' /tmp/r.log || nl_fail "lru_gen backend not in use: $(head -3 /tmp/r.log)"
nl_expect "mapped cold pages reclaimed from node 2" "$((m0 - m1))" -ge 3000
nl_expect "read(2) pages kept on node 1 (>= 90% of $u0)" "$((u1 * 10))" -ge "$((u0 * 9))"
# A second agent finds only the read(2) pages: usage stays above --high
# with no node to draw from from its start. It must look again once per
# interval (-i 0.5 over 10 s: about 20 passes), not at every 50 ms look
# of its usage watch (before: about one pass per 50-80 ms here)
$NUMALENS reclaim --high 30M --low 24M --delay 0.5 --duration 10 /runm > /tmp/r2.log 2>&1 ||
	nl_fail "numalens reclaim (2) exit $?: $(tail -3 /tmp/r2.log)"
grep -E '^passes=|no victim' /tmp/r2.log
passes=$(sed -n 's/^passes=\([0-9]*\) .*/\1/p' /tmp/r2.log | tail -1)
nl_expect "passes with no node to draw (about one per interval)" "${passes:-missing}" -le 40
nl_expect "read(2) pages still kept on node 1" "$(($(pages_of file 1) * 10))" -ge "$((u0 * 9))"
kill $U $M 2>/dev/null; wait
echo "reclaim_unmapped ok"
