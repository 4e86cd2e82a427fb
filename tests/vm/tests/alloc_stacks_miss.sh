# top --alloc-stacks: allocations that miss their preferred node,
# attributed to their kernel stacks. Node 2 is nearest to node 1 (distance
# 15, the others 20), so node 2's fallback is node 1. A filler on node 2's
# CPU, bound there, takes all of node 2's free memory but 12 MiB and holds
# it; then nlwork on node 1's CPU, preferring node 2 (MPOL_PREFERRED),
# writes 40 MiB (base pages, THP off): the first few MiB land on node 2
# (remote hits), the rest falls back to node 1, the CPU's own node: misses
# that are not remote, so only the miss test of the sampler can see them.
# With every remote or miss allocation counted (--alloc-stacks=1), the top
# site is the page-fault path (handle_mm_fault), movable, order 0, miss and
# not remote, with between 95% of the pages nlwork found on node 1
# (move_pages) and those plus 512 of its own (stack, libc); and within 5%
# of the guest's numa_miss delta over nlwork's run. nlwork's remote hits on
# node 2 are a site of their own, remote and not a miss.
# vm: cpus=1,1,1,1 mem=256M,256M,128M,256M dist=10,20,20,20/20,10,15,20/20,15,10,20/20,20,20,10 timeout=300 kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
echo never > /sys/kernel/mm/transparent_hugepage/enabled
cpu1=$(nl_first_cpu_of_node 1)
cpu2=$(nl_first_cpu_of_node 2)

# numa_miss summed over the nodes
misses() {
	cat /sys/devices/system/node/node*/numastat | awk '$1 == "numa_miss" { s += $2 } END { print s }'
}

free2=$(awk '/MemFree/ { print int($4 / 1024) }' /sys/devices/system/node/node2/meminfo)
fill=$((free2 - 12))
nl_expect "node 2's free memory (MiB) before the filler" "$fill" -ge 32
nlwork --cpu "$cpu2" --node 2 --anon $fill --ready-file /tmp/fill.ready --hold 600 > /tmp/fill.work 2>&1 &
FILL=$!
nl_wait_file /tmp/fill.ready 120
echo "node 2: $free2 MiB free, the filler holds $fill MiB; now $(awk '/MemFree/ { print int($4 / 1024) }' /sys/devices/system/node/node2/meminfo) MiB free"

J=/tmp/miss.jsonl
nl_top $J 1 600 --alloc-stacks=1 --self-cost
m0=$(misses)
nlwork --cpu "$cpu1" --node 2 --preferred --anon 40 --page-nodes --hold 1 > $J.work 2>&1 &
PID=$!
wait $PID || nl_fail "nlwork failed: $(cat $J.work)"
m1=$(misses)
cat $J.work
nl_top_until_gone $J $PID
kill $FILL; wait $FILL
nodes=$(nl_work_field $J.work anon_nodes)
on1=$(echo "$nodes" | cut -d, -f2)
on2=$(echo "$nodes" | cut -d, -f3)
dmiss=$((m1 - m0))
echo "nlwork's pages by node: $nodes; numa_miss delta over its run: $dmiss"
# the test is only worth something if most pages did miss to node 1
nl_expect "nlwork's pages that fell back to node 1 (of 10240)" "${on1:-0}" -ge 6000
[ "$(nljq -L $J alloc_stacks.available)" = true ] ||
	nl_fail "alloc_stacks unavailable: $(nljq -L $J alloc_stacks.unavailable_reason)"
echo "allocations remote miss sampled lost_no_stack lost_keys_full sites:" \
	$(nljq -L $J alloc_stacks.allocations alloc_stacks.remote alloc_stacks.miss alloc_stacks.sampled \
	  alloc_stacks.lost_no_stack alloc_stacks.lost_keys_full alloc_stacks.sites)
for i in 0 1 2; do
	echo "site $i (events remote miss class order frames):"
	nljq -L $J "alloc_stacks.top[$i].events" "alloc_stacks.top[$i].remote" "alloc_stacks.top[$i].miss" \
		"alloc_stacks.top[$i].class" "alloc_stacks.top[$i].order" "alloc_stacks.top[$i].frames" |
		tr ',\t' '\n\n' | head -20 | sed 's/^/    /'
done

# is I WHAT FIELD VALUE: fail unless site I's FIELD reads VALUE.
is() {
	local v
	v=$(nljq -L $J "alloc_stacks.top[$1].$3")
	[ "$v" = "$4" ] || nl_fail "$2: expected $4, saw $v"
	echo "ok: $2 = $v"
}
nljq -L $J "alloc_stacks.top[0].frames" | grep -q 'handle_mm_fault' ||
	nl_fail "the top site is not the page-fault path: $(nljq -L $J 'alloc_stacks.top[0].frames')"
is 0 "top site miss (preferred node 2, pages on node 1)" miss true
is 0 "top site remote (node 1's CPU, pages on node 1)" remote false
is 0 "top site class" class movable
is 0 "top site order" order 0
top=$(nljq -L $J "alloc_stacks.top[0].events")
nl_expect "top site's events (nlwork found $on1 of its pages on node 1)" "$top" -ge $((on1 * 95 / 100))
nl_expect "top site's events (at most nlwork's node-1 pages and 512 more of its own)" "$top" -le $((on1 + 512))
nl_within "top site's events against the guest's numa_miss delta over nlwork's run" "$top" "$dmiss" 5
# the remote hits on node 2: a site of their own among the top three
found=0
for i in 1 2; do
	[ "$(nljq -L $J "alloc_stacks.top[$i].remote") $(nljq -L $J "alloc_stacks.top[$i].miss")" = "true false" ] || continue
	nljq -L $J "alloc_stacks.top[$i].frames" | grep -q 'handle_mm_fault' || continue
	found=1
	nl_expect "remote-hit site's events (nlwork found $on2 pages on node 2)" "$(nljq -L $J "alloc_stacks.top[$i].events")" -ge $((on2 * 95 / 100))
done
[ "${on2:-0}" -lt 100 ] || [ $found = 1 ] || nl_fail "no page-fault site remote and not a miss among the top three (nlwork had $on2 pages on node 2)"
echo "alloc_stacks_miss ok"
