# Old page cache the weights leave out must not decide which generations
# count. Under lru_gen a node's page cache counts only when at least half
# of it is mapped, and while any node holds counted pages in MGLRU's old
# generations only old pages count. The 2011 run's cgroup showed the bug:
# its page cache read ahead but not yet mapped sits in the oldest
# generation (new file pages go there), its mapped pages were just used
# (young), so "some old pages exist" held while none of them counted, and
# the agent found no node in every pass. Here: 16 MiB read with read(2)
# on node 0 (old, unmapped), 8 MiB mapped and touched on node 1, aged once
# so that its pages are in the youngest generation (what stayed old there
# is evicted). The agent (default
# rule: no anon, page cache plentiful) must give node 1 tickets and draw
# it; before, it found no node.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=300 modules=virtio_blk,ext4 disk=64M
. /nl/lib.sh
nl_need_numalens
nl_mount_disk
# the mapping must stay mapped page cache, not a huge page nobody maps
echo madvise > /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
[ -f /sys/kernel/debug/lru_gen ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
[ -w /sys/kernel/debug/lru_gen ] || nl_fail "no /sys/kernel/debug/lru_gen (MGLRU expected)"
CG=/sys/fs/cgroup
mkdir $CG/ros || nl_fail "cannot make /ros"
pages_of() { awk -v k="$1" -v n="N$2=" '$1 == k { for (i = 2; i <= NF; i++) if (index($i, n) == 1) print int(substr($i, length(n) + 1) / 4096) }' $CG/ros/memory.numa_stat; }
sh -c "echo \$\$ > $CG/ros/cgroup.procs; exec nlwork --cpu $(nl_first_cpu_of_node 0) --node 0 --file 16 --file-path /mnt/d/u --ready-file /tmp/rdy.u --hold 600" > /tmp/u.out 2>&1 &
sh -c "echo \$\$ > $CG/ros/cgroup.procs; exec nlwork --cpu $(nl_first_cpu_of_node 1) --node 1 --file 8 --file-path /mnt/d/m --passes 1 --ready-file /tmp/rdy.m --hold 600" > /tmp/m.out 2>&1 &
nl_wait_file /tmp/rdy.u 120 || nl_fail "read(2) set not ready: $(cat /tmp/u.out)"
nl_wait_file /tmp/rdy.m 120 || nl_fail "mapped set not ready: $(cat /tmp/m.out)"
sync
i=0; while [ "$(pages_of file_mapped 1)" -lt 1500 ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
# age node 1 once (walking page tables: its pages were just touched through
# the mapping, so they move to the youngest generation)
id=$(awk '$1 == "memcg" && $3 == "/ros" { print $2 }' /sys/kernel/debug/lru_gen)
maxseq() { awk -v id="$id" -v n="$1" '$1 == "memcg" { in_cg = ($2 == id) } in_cg && $1 == "node" { in_n = ($2 == n) }
	in_cg && in_n && NF == 4 && $1 ~ /^[0-9]+$/ { s = $1 } END { print s }' /sys/kernel/debug/lru_gen; }
[ -n "$id" ] || nl_fail "/ros not in /sys/kernel/debug/lru_gen"
echo "+ $id 1 $(maxseq 1) 0 1" > /sys/kernel/debug/lru_gen || nl_fail "aging node 1 refused"
# and evict what the aging left old there (a few hundred pages it did not
# see used), so that node 1 holds young pages only
echo "- $id 1 $(($(maxseq 1) - 2)) 0 100000" > /sys/kernel/debug/lru_gen || nl_fail "evicting node 1's old generations refused"
sleep 1
echo "before: node 0 file=$(pages_of file 0) (inactive $(pages_of inactive_file 0), mapped $(pages_of file_mapped 0)); node 1 file=$(pages_of file 1) (active $(pages_of active_file 1), inactive $(pages_of inactive_file 1), mapped $(pages_of file_mapped 1)) pages"
nl_expect "node 0: read(2) pages in old generations" "$(pages_of inactive_file 0)" -ge 3000
nl_expect "node 1: mapped pages in young generations" "$(pages_of active_file 1)" -ge 1500
nl_expect "node 1: pages in old generations" "$(pages_of inactive_file 1)" -le 16
$NUMALENS reclaim --dry-run --high 4M --low 2M --delay 0.2 --duration 5 /ros > /tmp/d.log 2>&1 || nl_fail "dry run exit $?: $(tail -3 /tmp/d.log)"
grep -E '^tickets|^draws agent|^scan_weight=' /tmp/d.log
grep -q 'backend lru_gen' /tmp/d.log || nl_fail "lru_gen backend not in use: $(head -2 /tmp/d.log)"
t1=$(sed -n 's/^tickets //p' /tmp/d.log | tail -1 | tr ' ' '\n' | sed -n 's/^N1=\[\([0-9]*\),\([0-9]*\))/\1 \2/p' | awk '{ print $2 - $1 } END { if (!NR) print 0 }')
d1=$(sed -n 's/^draws agent: //p' /tmp/d.log | tail -1 | tr ' ' '\n' | sed -n 's/^N1=//p')
nl_expect "node 1 tickets (mapped page cache, young)" "$t1" -gt 0
nl_expect "draws on node 1" "${d1:-0}" -gt 0
kill %1 %2 2>/dev/null; wait
echo "reclaim_old_switch ok"
