# numalens export on the 4-node guest (kernel 7.3, cgroup v2): the BPF
# programs load and /metrics shows a workload's remote allocations by page
# node. nlwork runs in cgroup /export-vm on node 1's CPU with 160 MiB bound
# to node 3 (base pages, THP off): allocated_bytes_total{node="3"} and
# remote_allocated_bytes_total of that cgroup reach >= 95% of 160 MiB, its CPU
# time is on node 1, every node has its numastat series, the BPF
# hit/miss/foreign families move with numastat's, and SIGTERM exits 0.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150 kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
echo never > /sys/kernel/mm/transparent_hugepage/enabled
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
CG=/sys/fs/cgroup/export-vm
mkdir -p $CG || nl_fail "cannot create $CG"
U=http://127.0.0.1:10072
$NUMALENS export --listen 127.0.0.1:10072 --delay 1 --cgroup-pattern /export-vm > /tmp/export.err 2>&1 &
EPID=$!
nl_export_served $U/metrics /tmp/m0 $EPID
echo "export up after ~$((i / 2)) s: $(head -1 /tmp/export.err)"
cpu1=$(nl_first_cpu_of_node 1)
sh -c "echo \$\$ > $CG/cgroup.procs && exec nlwork --cpu $cpu1 --node 3 --anon 160 --spin-cpu 0.5" > /tmp/work.out 2>&1 ||
	nl_fail "nlwork failed: $(cat /tmp/work.out)"
cat /tmp/work.out
got=$(nl_work_field /tmp/work.out spin_cpu_ns)
nl_export_wait http://127.0.0.1:10072 2	# a whole snapshot after the workload
wget -q -O /tmp/m $U/metrics || nl_fail "scrape after the workload failed"
val() { awk -v k="$1 " 'index($0, k) == 1 { print $2 }' /tmp/m; }
want=$((160 * 1024 * 1024 * 95 / 100))
n3=$(val 'numalens_cgroup_allocated_bytes_total{cgroup="/export-vm",node="3"}')
rem=$(val 'numalens_cgroup_remote_allocated_bytes_total{cgroup="/export-vm"}')
c1=$(val 'numalens_cgroup_cpu_seconds_total{cgroup="/export-vm",node="1"}')
c0=$(val 'numalens_cgroup_cpu_seconds_total{cgroup="/export-vm",node="0"}')
nl_expect "bytes allocated on node 3 by /export-vm" "$n3" -ge $want
nl_expect "remote bytes allocated by /export-vm" "$rem" -ge $want
nl_expect "CPU seconds of /export-vm on node 1 (its spinner, pinned there, measured spin_cpu_ns=$got)" "$c1" -ge "$(nl_calc "$got * 0.9 / 1e9")"
nl_expect "CPU seconds of /export-vm on node 1 vs node 0" "$c1" -gt "${c0:-0}"
for n in 0 1 2 3; do
	v=$(val "numalens_node_other_node_total{node=\"$n\"}")
	[ -n "$v" ] || nl_fail "no numalens_node_other_node_total for node $n"
done
nl_expect "numastat other_node of node 3 (allocator calls)" "$(val 'numalens_node_other_node_total{node="3"}')" -ge $((want / 4096))
# hit/miss/foreign against the preferred node: the BPF families' deltas
# between the first scrape and this one agree with the numastat families'
# (one snapshot holds both, so the window is the same): per node within 1%
# where the node has >= 10,000 of a figure, summed over the nodes within 1%
# of the window's allocations (near-0 figures may differ by a few kernel
# allocations that name their node); the binding is a hit on node 3.
val0() { awk -v k="$1 " 'index($0, k) == 1 { print $2 }' /tmp/m0; }
dv() { echo $(( $(val "$1") - $(val0 "$1") )); }
all=0
for n in 0 1 2 3; do
	all=$((all + $(dv "numalens_node_numa_hit_total{node=\"$n\"}") + $(dv "numalens_node_numa_miss_total{node=\"$n\"}")))
done
echo "window: $all allocations (numastat numa_hit + numa_miss, all nodes)"
nl_expect "allocations between the scrapes" "$all" -ge $((want / 4096))
for f in hit:hits miss:misses foreign:foreign; do
	tk=0 tb=0
	for n in 0 1 2 3; do
		k=$(dv "numalens_node_numa_${f%%:*}_total{node=\"$n\"}")
		b=$(dv "numalens_node_preferred_${f#*:}_total{node=\"$n\"}")
		echo "node $n ${f%%:*}: numastat $k, BPF $b"
		tk=$((tk + k)) tb=$((tb + b))
		[ "$k" -ge 10000 ] && nl_within "node $n ${f%%:*}: numalens_node_preferred_${f#*:}_total vs numastat" "$b" "$k" 1
	done
	d=$((tb - tk)); [ $d -lt 0 ] && d=$((-d))
	[ $((d * 100)) -le "$all" ] ||
		nl_fail "all nodes ${f%%:*}: BPF $tb vs numastat $tk differ by $d, more than 1% of the window's $all allocations"
	echo "ok: all nodes ${f%%:*}: BPF $tb vs numastat $tk (differ by $d of $all)"
done
nl_expect "node 3's numastat hits (the binding, in pages)" "$(dv 'numalens_node_numa_hit_total{node="3"}')" -ge $((want / 4096))
h=$(val 'numalens_cgroup_preferred_node_hits_total{cgroup="/export-vm"}')
m=$(val 'numalens_cgroup_preferred_node_misses_total{cgroup="/export-vm"}')
echo "/export-vm: preferred-node hits $h, misses $m"
nl_expect "/export-vm's hits (bound to node 3, base pages)" "$h" -ge $((want / 4096))
nl_expect "/export-vm's hit share" "$(nl_calc "$h / ($h + $m)")" -ge 0.99
# zones: the BPF pages by zone, summed over the nodes, against the
# kernel's pgalloc_<zone> between the same two scrapes (within 1% for a zone
# with >= 10,000 pages in the window)
zn=0
for z in $(sed -n 's/^numalens_zone_pgalloc_pages_total{zone="\([^"]*\)"}.*/\1/p' /tmp/m); do
	k=$(dv "numalens_zone_pgalloc_pages_total{zone=\"$z\"}") b=0
	for n in 0 1 2 3; do b=$((b + $(dv "numalens_node_zone_pages_total{node=\"$n\",zone=\"$z\"}"))); done
	echo "zone $z: pgalloc $k, BPF $b pages"
	[ "$k" -ge 10000 ] || continue
	nl_within "zone $z: numalens_node_zone_pages_total (all nodes) vs numalens_zone_pgalloc_pages_total" "$b" "$k" 1
	zn=$((zn + 1))
done
nl_expect "zones with >= 10,000 pages checked" "$zn" -ge 1
buckets=$(grep -c '^numalens_cgroup_fault_locality_ratio_bucket{cgroup="/export-vm",' /tmp/m)
nl_expect "locality buckets of /export-vm (8 + +Inf)" "$buckets" -eq 9
wget -q -O /tmp/hz $U/healthz || nl_fail "/healthz: $(cat /tmp/hz)"
grep -q '^ok' /tmp/hz || nl_fail "/healthz says $(cat /tmp/hz)"
kill -TERM $EPID
wait $EPID; rc=$?
nl_expect "exit status after SIGTERM" "$rc" -eq 0
grep -q stopped /tmp/export.err || nl_fail "no 'stopped' line: $(cat /tmp/export.err)"
rmdir $CG
echo "export_nodes ok"
