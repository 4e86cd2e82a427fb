# Allocation locality on real NUMA. nlwork runs on node
# 1's CPU and allocates 2 x 200 MiB of anonymous memory (base pages: THP off,
# so every page is one allocator call):
#  A. bound to node 3 (MPOL_BIND): >= 99% of its pages are remote, on node
#     3, allocated from node 1;
#  B. bound to node 1: <= 1% remote.
# In both, the BPF counts agree within 1% with the guest's numastat deltas
# (nodes[].bpf vs nodes[].numastat, summed over the intervals; numastat
# counts allocation events, the same unit as BPF events_*), and the
# process's own BPF events agree with numastat within 1% too.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150 kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null	# keep the shell (and its children) on node 0
echo never > /sys/kernel/mm/transparent_hugepage/enabled
cpu1=$(nl_first_cpu_of_node 1)
MIB=200 REP=2
EVENTS=$((MIB * REP * 256))	# base pages allocated by nlwork

# run_case NODE OUT: numalens top around nlwork on node 1 bound to NODE;
# sets PID.
run_case() {
	nl_top "$2" 1 600
	nlwork --cpu "$cpu1" --node "$1" --anon $MIB --repeat $REP --hold 1.5 > "$2.work" 2>&1 &
	PID=$!
	wait $PID || nl_fail "nlwork --node $1 failed: $(cat "$2.work")"
	cat "$2.work"
	nl_top_until_gone "$2" $PID
	[ "$(nljq -L "$2" "processes[pid=$PID].pid")" = missing ] ||
		nl_fail "the window did not outlast nlwork (pid $PID still in the last interval): raise -n"
}

# --- A: node 1 CPU, memory bound to node 3 -------------------------------
J=/tmp/remote.jsonl
run_case 3 $J
p_rem=$(nl_sum $J "processes[pid=$PID].alloc.pages_remote")
p_loc=$(nl_sum $J "processes[pid=$PID].alloc.pages_local")
p_n3=$(nl_sum $J "processes[pid=$PID].alloc.pages_by_node.3")
e_rem=$(nl_sum $J "processes[pid=$PID].alloc.events_remote")
k3_other=$(nl_sum $J "nodes[nid=3].numastat.other_node")
k3_local=$(nl_sum $J "nodes[nid=3].numastat.local_node")
b3_other=$(nl_sum $J "nodes[nid=3].bpf.events_other")
b3_local=$(nl_sum $J "nodes[nid=3].bpf.events_local")
b1_from=$(nl_sum $J "nodes[nid=1].bpf.events_from_remote")
echo "A: process pages remote=$p_rem local=$p_loc on-node3=$p_n3 events_remote=$e_rem"
echo "A: node 3 numastat other=$k3_other local=$k3_local; BPF other=$b3_other local=$b3_local; node 1 BPF from_remote=$b1_from"
nl_expect "A: numastat other_node on node 3 covers the workload (events)" "$k3_other" -ge $EVENTS
nl_expect "A: remote share of nlwork's pages (node 1 -> node 3)" "$(nl_calc "$p_rem / ($p_rem + $p_loc)")" -ge 0.99
nl_expect "A: share of nlwork's pages on node 3" "$(nl_calc "$p_n3 / ($p_rem + $p_loc)")" -ge 0.99
nl_expect "A: node 1's BPF events_from_remote / nlwork's remote events" "$(nl_calc "$b1_from / $e_rem")" -ge 0.99
nl_within "A: node 3 other_node, BPF events_other vs numastat" "$b3_other" "$k3_other" 1
nl_within "A: node 3 local+other, BPF vs numastat" "$((b3_other + b3_local))" "$((k3_other + k3_local))" 1
nl_within "A: nlwork's BPF remote events vs node 3 numastat other_node" "$e_rem" "$k3_other" 1

# --- B: node 1 CPU, memory bound to node 1 -------------------------------
J=/tmp/local.jsonl
run_case 1 $J
p_rem=$(nl_sum $J "processes[pid=$PID].alloc.pages_remote")
p_loc=$(nl_sum $J "processes[pid=$PID].alloc.pages_local")
e_loc=$(nl_sum $J "processes[pid=$PID].alloc.events_local")
k1_other=$(nl_sum $J "nodes[nid=1].numastat.other_node")
k1_local=$(nl_sum $J "nodes[nid=1].numastat.local_node")
b1_other=$(nl_sum $J "nodes[nid=1].bpf.events_other")
b1_local=$(nl_sum $J "nodes[nid=1].bpf.events_local")
echo "B: process pages remote=$p_rem local=$p_loc events_local=$e_loc"
echo "B: node 1 numastat local=$k1_local other=$k1_other; BPF local=$b1_local other=$b1_other"
nl_expect "B: numastat local_node on node 1 covers the workload (events)" "$k1_local" -ge $EVENTS
nl_expect "B: remote share of nlwork's pages" "$(nl_calc "$p_rem / ($p_rem + $p_loc)")" -le 0.01
nl_within "B: node 1 local_node, BPF events_local vs numastat" "$b1_local" "$k1_local" 1
nl_within "B: node 1 local+other, BPF vs numastat" "$((b1_other + b1_local))" "$((k1_other + k1_local))" 1
nl_within "B: nlwork's BPF local events vs node 1 numastat local_node" "$e_loc" "$k1_local" 1
echo "alloc_remote ok"
