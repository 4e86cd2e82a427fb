# numalens export on the 4-node guest (kernel 7.3, cgroup v2): the BPF
# programs load and /metrics shows a workload's remote allocations by page
# node. nlwork runs in cgroup /export-vm on node 1's CPU with 64 MiB bound
# to node 3 (base pages, THP off): allocated_bytes_total{node="3"} and
# remote_allocated_bytes_total of that cgroup reach >= 95% of 64 MiB, its CPU
# time is on node 1, every node has its numastat series, and SIGTERM exits 0.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150 kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
echo never > /sys/kernel/mm/transparent_hugepage/enabled
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
CG=/sys/fs/cgroup/export-vm
mkdir -p $CG || nl_fail "cannot create $CG"
U=http://127.0.0.1:10072
$NUMALENS export --listen 127.0.0.1:10072 --interval 1 --cgroup-pattern /export-vm > /tmp/export.err 2>&1 &
EPID=$!
i=0
until wget -q -O /tmp/m0 $U/metrics 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 120 ] || nl_fail "numalens export did not serve /metrics: $(cat /tmp/export.err)"
	kill -0 $EPID 2>/dev/null || nl_fail "numalens export exited: $(cat /tmp/export.err)"
	sleep 0.5
done
echo "export up after ~$((i / 2)) s: $(head -1 /tmp/export.err)"
cpu1=$(nl_first_cpu_of_node 1)
sh -c "echo \$\$ > $CG/cgroup.procs && exec nlwork --cpu $cpu1 --node 3 --anon 64 --spin-cpu 0.5" > /tmp/work.out 2>&1 ||
	nl_fail "nlwork failed: $(cat /tmp/work.out)"
cat /tmp/work.out
got=$(nl_work_field /tmp/work.out spin_cpu_ns)
nl_export_wait http://127.0.0.1:10072 2	# a whole snapshot after the workload
wget -q -O /tmp/m $U/metrics || nl_fail "scrape after the workload failed"
val() { awk -v k="$1 " 'index($0, k) == 1 { print $2 }' /tmp/m; }
want=$((64 * 1024 * 1024 * 95 / 100))
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
