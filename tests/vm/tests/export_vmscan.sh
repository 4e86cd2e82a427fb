# numalens export's reclaim families on the 4-node guest (kernel 7.3,
# cgroup v2, MGLRU; the reclaim tracepoints name the memcg): cgroup
# /vmexport-vm with memory.max 32M writes and reads back a 64 MiB file on
# an ext2 virtio disk, memory bound to node 2. From /metrics:
#  - limit: freed bytes / 4096 of that cgroup within 5% of memory.stat
#    pgsteal's delta and >= 24 MiB; freed <= scanned; >= 95% of the
#    node families' limit-freed bytes on node 2; the episode histogram
#    has episodes, +Inf == _count, _sum == reclaim_seconds_total;
#  - proactive: 8M written to memory.reclaim shows as context="proactive"
#    freed bytes within 5% of pgsteal_proactive's delta, and the limit
#    figure does not move.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=160 modules=virtio_blk,ext4 disk=160M kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
nl_mount_disk
CG=/sys/fs/cgroup/vmexport-vm
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p $CG && echo 32M > $CG/memory.max || nl_fail "cannot create $CG with memory.max"
ms() { awk -v k="$1" '$1 == k { print $2 }' $CG/memory.stat; }
U=http://127.0.0.1:10072/metrics
taskset -c 0 $NUMALENS export --listen 127.0.0.1:10072 --delay 1 --cgroup-pattern /vmexport-vm --cgroup-reclaim-histograms > /tmp/export.err 2>&1 &
EPID=$!
nl_export_served $U /tmp/m0 $EPID
grep -q '^numalens_source_available{source="vmscan"} 1' /tmp/m0 || nl_fail "vmscan source unavailable: $(cat /tmp/export.err)"

# sum_of PREFIX: sum of the samples of /tmp/m whose series starts with PREFIX
sum_of() { awk -v p="$1" 'index($1, p) == 1 { s += $2 } END { printf "%.0f\n", s }' /tmp/m; }
val() { awk -v k="$1" '$1 == k { print $2 }' /tmp/m; }
L='{cgroup="/vmexport-vm",context="limit",'
# settle: scrape until two snapshots agree on the cgroup's freed bytes
settle() {
	local prev=-1 pseq=-1 seq f i
	for i in $(seq 1 40); do
		wget -q -O /tmp/m $U || nl_fail "scrape failed"
		seq=$(val numalens_snapshots_total); f=$(sum_of "numalens_cgroup_reclaim_freed_bytes_total$1")
		[ "$seq" != "$pseq" ] && [ "$f" = "$prev" ] && [ "$f" != 0 ] && return 0
		[ "$seq" != "$pseq" ] && { prev=$f; pseq=$seq; }
		sleep 0.5
	done
}

# --- limit reclaim -------------------------------------------------------------
st0=$(ms pgsteal)
sh -c "echo \$\$ > $CG/cgroup.procs && exec nlwork --cpu 2 --node 2 --file 64 --file-path /mnt/d/f" > /tmp/work.out 2>&1 ||
	nl_fail "nlwork failed: $(cat /tmp/work.out)"
nl_memcg_settle $CG
st1=$(ms pgsteal)
settle "$L"
lf=$(sum_of "numalens_cgroup_reclaim_freed_bytes_total$L")
ls=$(sum_of "numalens_cgroup_reclaim_scanned_bytes_total$L")
n2=$(sum_of 'numalens_node_reclaim_freed_bytes_total{node="2",context="limit",')
nall=$(awk '/^numalens_node_reclaim_freed_bytes_total\{.*context="limit"/ { s += $2 } END { printf "%.0f\n", s }' /tmp/m)
cnt=$(val "numalens_cgroup_reclaim_duration_seconds_count{cgroup=\"/vmexport-vm\",context=\"limit\"}")
inf=$(val "numalens_cgroup_reclaim_duration_seconds_bucket${L}le=\"+Inf\"}")
hsum=$(val "numalens_cgroup_reclaim_duration_seconds_sum{cgroup=\"/vmexport-vm\",context=\"limit\"}")
secs=$(val "numalens_cgroup_reclaim_seconds_total{cgroup=\"/vmexport-vm\",context=\"limit\"}")
echo "memory.stat pgsteal +$((st1 - st0)); export limit: freed $lf B ($((lf / 4096)) pages) scanned $ls B, node 2 $n2 of $nall B, episodes $cnt, $secs s"
grep "^numalens_cgroup_reclaim_duration_seconds_bucket$L" /tmp/m
nl_expect "limit: freed bytes (>= 24 MiB)" "$lf" -ge $((24 << 20))
nl_within "limit: exported freed pages vs memory.stat pgsteal delta" "$((lf / 4096))" "$((st1 - st0))" 5
nl_expect "limit: freed <= scanned" "$lf" -le "$ls"
nl_expect "limit: share of the nodes' limit-freed bytes on node 2" "$(nl_calc "$n2 / $nall")" -ge 0.95
nl_expect "limit: episodes (histogram _count)" "$cnt" -gt 0
nl_expect "limit: +Inf bucket" "$inf" -eq "$cnt"
[ "$hsum" = "$secs" ] || nl_fail "limit: histogram _sum $hsum != reclaim_seconds_total $secs"

# --- proactive reclaim (memory.reclaim) -----------------------------------------
P='{cgroup="/vmexport-vm",context="proactive",'
# 6.12 has no pgsteal_proactive: it counts memory.reclaim's pages as
# pgsteal_direct (nothing else reclaims directly in this window: the limit
# figures are checked unchanged or bounded below).
PRO=pgsteal_proactive
grep -q '^pgsteal_proactive ' "$CG/memory.stat" || PRO=pgsteal_direct
sp0=$(ms $PRO)
echo 8M > $CG/memory.reclaim || nl_fail "writing 8M to memory.reclaim failed"
nl_memcg_settle $CG
sp1=$(ms $PRO)
settle "$P"
pf=$(sum_of "numalens_cgroup_reclaim_freed_bytes_total$P")
lf2=$(sum_of "numalens_cgroup_reclaim_freed_bytes_total$L")
echo "memory.stat $PRO +$((sp1 - sp0)); export proactive freed $pf B, limit $lf2 B"
nl_within "proactive: exported freed pages vs $PRO delta" "$((pf / 4096))" "$((sp1 - sp0))" 5
nl_expect "limit freed bytes after memory.reclaim" "$lf2" -eq "$lf"
nl_expect "proactive episodes" "$(val "numalens_cgroup_reclaim_duration_seconds_count{cgroup=\"/vmexport-vm\",context=\"proactive\"}")" -ge 1
kill -TERM $EPID
wait $EPID; rc=$?
nl_expect "exit status after SIGTERM" "$rc" -eq 0
echo "export_vmscan ok"
