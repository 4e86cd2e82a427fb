# The hook's draw acts: a managed memcg (memory.max 64M) holding 56 MiB of
# anon on nodes 0-2 is pushed over its limit every 3 s by a short-lived
# 12 MiB allocation on node 3. Each push makes the kernel enter limit
# reclaim for it (mm_vmscan_memcg_reclaim_begin), where the BPF lottery
# draws a node; the agent, woken by the ring buffer, reclaims from that
# node at once. The watermarks are set so background passes never run
# (high = 100% of the limit): every step here is a hook step.
#  - every limit event the BPF side counted for the memcg reached the
#    agent (its hook events), and each batch of them got a step;
#  - >= 90% of the pages each hook step freed (memory.numa_stat deltas
#    around the step) came from the node that the draw it names picked,
#    for every step no kernel limit-reclaim run overlapped (the agent
#    waits up to 20 ms for the run that fired the event, and tells which
#    steps another run overlapped, or started within 1 s of a step that
#    did: their deltas hold the kernel's pages);
#  - hook-to-step latencies are reported (p50/p99).
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=200 modules=zram
. /nl/lib.sh
nl_need_numalens
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 ||
	nl_fail "zram swap setup failed"
CG=/sys/fs/cgroup
mkdir $CG/rhook && echo 64M > $CG/rhook/memory.max || nl_fail "cannot make /rhook"
PIDS=""
hold() {
	sh -c "echo \$\$ > $CG/rhook/cgroup.procs; exec nlwork --node $1 --anon $2 --ready-file /tmp/rdy.$1 --hold 600" > /dev/null &
	PIDS="$PIDS $!"
}
hold 0 20; hold 1 12; hold 2 24
for n in 0 1 2; do nl_wait_file /tmp/rdy.$n 60; done
# until memory.numa_stat shows what they hold (98%: its figures reach the
# file at the kernel's periodic flush)
nl_anon_settle $CG/rhook 0:20 1:12 2:24
$NUMALENS reclaim -v --step 1024 --high 100% --low 99% --delay 1 --duration 120 /rhook > /tmp/h.log 2>&1 &
AG=$!
# ready once it published its first interval
nl_wait_file /run/numalens/reclaim/$AG.json 60
# A push 1-2 MiB over the limit mostly makes one kernel limit-reclaim run
# (a bigger one makes two, and the agent's step for the first then
# overlaps the second), so most steps are clean.
for k in 1 2 3 4 5 6 7 8; do
	# a push over the limit, on node 3 (away from the held nodes)
	need=$(( (67108864 - $(cat $CG/rhook/memory.current)) / 1048576 + 1 ))
	sh -c "echo \$\$ > $CG/rhook/cgroup.procs; exec nlwork --node 3 --anon $need --hold 1" > /dev/null 2>&1
	sleep 1
done
kill -TERM $AG
wait $AG || nl_fail "numalens reclaim exit $?: $(tail -3 /tmp/h.log)"
grep -v 'step node=' /tmp/h.log; grep 'hook draw=' /tmp/h.log | head -20
for p in $PIDS; do kill $p; done
nsteps=$(grep -c 'hook draw=.* step node=' /tmp/h.log)
nl_expect "hook-driven steps" "$nsteps" -ge 3
# "draws limit: N0=3 N1=2 ... zero-weight=2": draws per node, then the
# events with no victim (the weights' verdict: nothing to step on)
bpf_ev=$(awk '/^draws limit:/ { for (i = 3; i <= NF; i++) { split($i, a, "="); s += a[2] } } END { print s + 0 }' /tmp/h.log)
bpf_ok=$(awk '/^draws limit:/ { for (i = 3; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, a, "="); s += a[2] } } END { print s + 0 }' /tmp/h.log)
ag_ev=$(sed -n 's/^hook: limit_events=\([0-9]*\) .*/\1/p' /tmp/h.log)
nl_expect "limit events the BPF hook counted" "$bpf_ev" -ge 3
nl_expect "of them, reached the agent" "$ag_ev" -eq "$bpf_ev"
# every batch of draws got its step: the events the step lines name add up
named=$(awk '/hook draw=.* step node=/ { e = $0; sub(/.*events=/, "", e); s += e + 0 } END { print s + 0 }' /tmp/h.log)
nl_expect "draws answered by a step (sum of events= over the step lines)" "$named" -eq "$bpf_ok"
# A step that a kernel limit-reclaim run of the memcg overlapped (the agent
# says so: "hook draw=ID overlapped ...") has the kernel's pages in its
# deltas too; every other step's deltas are its own.
bad=$(awk '/hook draw=[0-9]* overlapped/ { d = $0; sub(/.*hook draw=/, "", d); split(d, x, " "); ov[x[1]] = 1; next }
	/hook draw=.* step node=/ { d = $0; sub(/.*hook draw=/, "", d); split(d, x, " "); id[++n] = x[1]; line[n] = $0
	f = $0; sub(/.*freed=/, "", f); split(f, a, " "); fr[n] = a[1]
	o = $0; sub(/.*pages \(/, "", o); split(o, b, " "); on[n] = b[1] }
	END { for (i = 1; i <= n; i++) if (!ov[id[i]] && fr[i] >= 64 && on[i] * 10 < fr[i] * 9) print line[i] }' /tmp/h.log | head -3)
[ -z "$bad" ] || nl_fail "hook step with < 90% of its pages from the drawn node: $bad"
clean=$(sed -n 's/^hook: .* clean_steps=\([0-9]*\) clean_pages=\([0-9]*\) clean_on_drawn_node_pages=\([0-9]*\).*/\1 \2 \3/p' /tmp/h.log)
echo "steps no kernel run overlapped, their pages, of them on the drawn node: $clean"
nl_expect "hook steps no kernel run overlapped" "$(echo $clean | cut -d' ' -f1)" -ge 3
nl_expect "their pages from the drawn node (>= 90%), x10" "$(( $(echo $clean | cut -d' ' -f3) * 10 ))" -ge "$(( $(echo $clean | cut -d' ' -f2) * 9 ))"
freed=$(awk '/hook draw=.* step node=/ { f = $0; sub(/.*freed=/, "", f); split(f, a, " "); s += a[1] } END { print s + 0 }' /tmp/h.log)
nl_expect "pages the hook steps freed" "$freed" -ge 1024
grep -q 'latency from the limit-reclaim event to the step: p50 [0-9]* us, p99 [0-9]* us' /tmp/h.log ||
	nl_fail "no hook latency line"
echo "reclaim_hook ok"
