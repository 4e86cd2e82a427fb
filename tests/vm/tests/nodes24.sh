# numalens on 24 nodes x 1 CPU (one node per CCD on a 2-socket EPYC looks
# like this; numalens once stopped at 16 nodes). Node N holds CPU N.
#  1. top --json: every interval lists 24 nodes with one CPU each; nlwork on
#     CPU 23 with 24 MiB bound to node 23 (base pages, THP off) is seen
#     allocating >= 95% of them on node 23, locally, and running on node 23
#     (run_ns_by_node.23 >= 90% of its run_ns), and one that spins on CPU
#     21 and then walks its pages on CPU 22 has its run time split between
#     nodes 21 and 22 (a thread's slices are folded when it changes node);
#     per-node pages add up to the total (local + remote) for the process
#     and for the root cgroup; no event is dropped for its node id.
#  2. export: 24 nodes in numalens_node_cpus, and the cgroup's per-node
#     allocated bytes add up to its allocated bytes by class (within 1%),
#     >= 95% of 24 MiB on node 23.
#  3. vmscan --json: the cgroup's nodes[] has 24 entries; memory.reclaim
#     (swap on zram) frees its anon pages on node 23, and its per-node freed
#     pages add up to its total freed pages.
# vm: cpus=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 mem=256M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M,64M timeout=600 modules=zram
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
echo never > /sys/kernel/mm/transparent_hugepage/enabled
n=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
nl_expect "guest nodes" "$n" -eq 24
[ "$(nl_cpus_of_node 23)" = 23 ] || nl_fail "node 23 CPUs: expected 23, saw '$(nl_cpus_of_node 23)'"
MIB=24 PAGES=$((24 * 256))
WANT=$((PAGES * 95 / 100))
CG=/sys/fs/cgroup/n24 W=/n24
mkdir -p $CG || nl_fail "cannot create $CG"

# --- 1. top -------------------------------------------------------------------
J=/tmp/top.jsonl
nl_top $J 1 600
nlwork --cpu 21 --anon 4 --spin-cpu 0.3 --after-cpu 22 --walk 2 > /tmp/mv.out 2>&1 &
MV=$!
nlwork --cpu 23 --node 23 --anon $MIB --spin-cpu 0.3 --hold 1 > /tmp/w.out 2>&1 &
PID=$!
wait $PID || nl_fail "nlwork failed: $(cat /tmp/w.out)"
wait $MV || nl_fail "nlwork (moving) failed: $(cat /tmp/mv.out)"
cat /tmp/w.out /tmp/mv.out
i=0	# both gone from the latest interval, then the window ends
while [ "$(nljq -L $J "processes[pid=$MV].pid" 2>/dev/null)" != missing ]; do
	i=$((i + 1))
	[ $i -le 1200 ] || nl_fail "numalens top still listed pid $MV after 1,200 polls (120 s): $(wc -l < $J) intervals written"
	sleep 0.1
done
nl_top_until_gone $J $PID
lines=$(wc -l < $J)
bad=$(nljq $J "nodes[23].nid" "nodes[24].nid" "nodes[23].nr_cpus" | grep -vc "^23	missing	1$")
nl_expect "intervals of $lines without exactly 24 nodes (node 23 with 1 CPU)" "$bad" -eq 0
tot=$(( $(nl_sum $J "processes[pid=$PID].alloc.pages_local") + $(nl_sum $J "processes[pid=$PID].alloc.pages_remote") ))
on23=$(nl_sum $J "processes[pid=$PID].alloc.pages_by_node.23")
loc=$(nl_sum $J "processes[pid=$PID].alloc.pages_local")
# one nljq for the 24 nodes' sums (a call per node: 24 parses of the
# whole file under TCG)
sum=0
for v in $(nljq -s $J $(for i in $(seq 0 23); do echo "processes[pid=$PID].alloc.pages_by_node.$i"; done)); do
	[ "$v" = null ] || sum=$((sum + v))
done
run=$(nl_sum $J "processes[pid=$PID].run_ns")
run23=$(nl_sum $J "processes[pid=$PID].run_ns_by_node.23")
echo "top: nlwork pages total=$tot on node 23=$on23 local=$loc sum over nodes=$sum; run_ns=$run on node 23=$run23"
nl_expect "top: nlwork's pages on node 23" "$on23" -ge $WANT
nl_expect "top: nlwork's local pages (CPU 23, node 23)" "$loc" -ge $WANT
nl_expect "top: nlwork's per-node pages summed vs its total" "$sum" -eq "$tot"
nl_expect "top: nlwork's run time on node 23 / its run time" "$(nl_calc "$run23 / $run")" -ge 0.9
# a process that moved from node 21 to node 22: its run time on each
mrun=$(nl_sum $J "processes[pid=$MV].run_ns")
m21=$(nl_sum $J "processes[pid=$MV].run_ns_by_node.21")
m22=$(nl_sum $J "processes[pid=$MV].run_ns_by_node.22")
echo "top: the moving nlwork ran $mrun ns: $m21 on node 21, $m22 on node 22"
spun=$(nl_work_field /tmp/mv.out spin_cpu_ns)
nl_expect "top: moving nlwork's run time on node 21 (it measured spin_cpu_ns=$spun there)" "$m21" -ge "$(nl_calc "$spun * 0.9")"
nl_expect "top: moving nlwork's run time on node 22 (walk there)" "$m22" -gt 0
nl_expect "top: moving nlwork's run time on nodes 21 + 22 / its run time" "$(nl_calc "($m21 + $m22) / $mrun")" -ge 0.9
rtot=$(( $(nl_sum $J "cgroups[path=/].alloc.pages_local") + $(nl_sum $J "cgroups[path=/].alloc.pages_remote") ))
rsum=0
for v in $(nljq -s $J $(for i in $(seq 0 23); do echo "cgroups[path=/].alloc.pages_by_node.$i"; done)); do
	[ "$v" = null ] || rsum=$((rsum + v))
done
nl_expect "top: root cgroup's per-node pages summed vs its total ($rtot)" "$rsum" -eq "$rtot"
nl_expect "top: events dropped for their node id" "$(nl_sum $J self.drops.node_range)" -eq 0

# --- 2. export ----------------------------------------------------------------
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
U=http://127.0.0.1:10074
taskset -c 0 "$NUMALENS" export --listen 127.0.0.1:10074 --delay 1 --cgroup-pattern $W > /tmp/export.err 2>&1 &
EPID=$!
nl_export_served $U/metrics /tmp/m0 $EPID
sh -c "echo \$\$ > $CG/cgroup.procs && exec nlwork --cpu 23 --node 23 --anon $MIB --ready-file /tmp/w.ready --hold 600" > /tmp/w2.out 2>&1 &
WPID=$!
nl_wait_file /tmp/w.ready 120
nl_export_wait $U 2
wget -q -O /tmp/m $U/metrics || nl_fail "scrape failed"
kill -TERM $EPID; wait $EPID || nl_fail "numalens export exited $? on SIGTERM: $(tail -1 /tmp/export.err)"
ncpu=$(grep -c '^numalens_node_cpus{node="' /tmp/m)
nl_expect "export: nodes in numalens_node_cpus" "$ncpu" -eq 24
by_node=$(awk -v k="numalens_cgroup_allocated_bytes_total{cgroup=\"$W\",node=\"" 'index($0, k) == 1 { s += $2 } END { printf "%d\n", s }' /tmp/m)
by_class=$(awk -v k="numalens_cgroup_class_allocated_bytes_total{cgroup=\"$W\"," 'index($0, k) == 1 { s += $2 } END { printf "%d\n", s }' /tmp/m)
n23=$(awk -v k="numalens_cgroup_allocated_bytes_total{cgroup=\"$W\",node=\"23\"} " 'index($0, k) == 1 { print $2 }' /tmp/m)
echo "export: $W allocated bytes by node (sum) $by_node, by class (sum) $by_class, on node 23 $n23"
nl_expect "export: $W bytes allocated on node 23" "${n23:-0}" -ge $((WANT * 4096))
nl_within "export: $W per-node allocated bytes summed vs by class" "$by_node" "$by_class" 1

# --- 3. vmscan ----------------------------------------------------------------
echo 64M > /sys/block/zram0/disksize || nl_fail "zram0 disksize"
mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || nl_fail "swapon /dev/zram0 failed"
V=/tmp/vs.jsonl
taskset -c 0 "$NUMALENS" vmscan --json -d 1 -n 0 -c $W > $V 2> $V.err &
VPID=$!
i=0
while [ ! -s $V ]; do
	kill -0 $VPID 2>/dev/null || nl_fail "numalens vmscan exited early: $(tail -2 $V.err | tr '\n' ' ')"
	i=$((i + 1)); [ $i -le 600 ] || nl_fail "numalens vmscan wrote nothing in 60 s"
	sleep 0.1
done
echo 16M > $CG/memory.reclaim || echo "memory.reclaim: could not free all 16M"
nl_memcg_settle $CG
kill -INT $VPID; wait $VPID || nl_fail "numalens vmscan exited $?: $(tail -2 $V.err | tr '\n' ' ')"
kill $WPID 2>/dev/null
last() { nljq -L $V "cgroups[path=$W].$1"; }
[ "$(last 'nodes[23].nid')" = 23 ] && [ "$(last 'nodes[24].nid')" = missing ] ||
	nl_fail "vmscan: $W nodes[] should hold 24 nodes, ends at $(last 'nodes[23].nid')/$(last 'nodes[24].nid')"
[ "$(nljq -L $V 'nodes[23].nid')" = 23 ] || nl_fail "vmscan: top-level nodes[] lacks node 23"
f=$(last freed_pages_by_proactive)
f23=$(last "nodes[nid=23].freed_pages_by_proactive")
fs=0
for i in $(seq 0 23); do fs=$((fs + $(last "nodes[nid=$i].freed_pages_by_proactive"))); done
echo "vmscan: $W proactive freed $f, on node 23 $f23, per-node sum $fs"
nl_expect "vmscan: pages freed by memory.reclaim (16M asked)" "$f" -ge 2048
nl_expect "vmscan: per-node freed summed vs total" "$fs" -eq "$f"
nl_expect "vmscan: share of freed pages on node 23 (memory bound there)" "$(nl_calc "$f23 / $f")" -ge 0.9
echo "nodes24 ok"
