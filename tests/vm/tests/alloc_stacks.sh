# top --alloc-stacks: allocations that land off the CPU's node, attributed
# to their kernel stacks. nlwork on node 1's CPU writes 64 MiB bound to
# node 3 (base pages, THP off): with every remote allocation counted
# (--alloc-stacks=1), the top site is the anonymous page-fault path
# (handle_mm_fault on the stack, movable, order 0, remote and no miss,
# since the bind policy prefers node 3), it holds between 95% and 100% of
# the pages nlwork touched plus a little of its own (stack, libc), and at
# least 80% of every remote allocation sampled. With one in 8 sampled,
# the top site holds nlwork's pages / 8 within 25%.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=400 kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
echo never > /sys/kernel/mm/transparent_hugepage/enabled
cpu1=$(nl_first_cpu_of_node 1)

# run_case OUT N: top --alloc-stacks=N around nlwork; sets PAGES.
run_case() {
	nl_top "$1" 1 600 --alloc-stacks="$2" --self-cost
	nlwork --cpu "$cpu1" --node 3 --anon 64 --hold 1 > "$1.work" 2>&1 &
	PID=$!
	wait $PID || nl_fail "nlwork failed: $(cat "$1.work")"
	cat "$1.work"
	nl_top_until_gone "$1" $PID
	PAGES=$(nl_work_field "$1.work" touched_pages)
	[ "$(nljq -L "$1" alloc_stacks.available)" = true ] ||
		nl_fail "alloc_stacks unavailable: $(nljq -L "$1" alloc_stacks.unavailable_reason)"
	# few nljq passes: each one is slow in a guest on a loaded host
	echo "allocations remote miss sampled lost_no_stack lost_keys_full sites bpf_ns_per_allocation:" \
		$(nljq -L "$1" alloc_stacks.allocations alloc_stacks.remote alloc_stacks.miss alloc_stacks.sampled \
		  alloc_stacks.lost_no_stack alloc_stacks.lost_keys_full alloc_stacks.sites alloc_stacks.bpf_ns_per_allocation)
	for i in 0 1 2; do
		echo "site $i (events share remote miss class order gfp_flags frames):"
		nljq -L "$1" "alloc_stacks.top[$i].events" "alloc_stacks.top[$i].share" "alloc_stacks.top[$i].remote" \
			"alloc_stacks.top[$i].miss" "alloc_stacks.top[$i].class" "alloc_stacks.top[$i].order" \
			"alloc_stacks.top[$i].gfp_flags" "alloc_stacks.top[$i].frames" | tr ',\t' '\n\n' | head -22 | sed 's/^/    /'
	done
}

J=/tmp/stk1.jsonl
run_case $J 1
top=$(nljq -L $J "alloc_stacks.top[0].events")
sampled=$(nljq -L $J alloc_stacks.sampled)
nljq -L $J "alloc_stacks.top[0].frames" | grep -q 'handle_mm_fault' ||
	nl_fail "the top site is not the page-fault path: $(nljq -L $J 'alloc_stacks.top[0].frames')"
# is WHAT FIELD VALUE: fail unless the top site's FIELD reads VALUE.
is() {
	local v
	v=$(nljq -L $J "alloc_stacks.top[0].$2")
	[ "$v" = "$3" ] || nl_fail "$1: expected $3, saw $v"
	echo "ok: $1 = $v"
}
is "top site class" class movable
is "top site order" order 0
is "top site remote" remote true
is "top site miss (bind prefers node 3, where the pages went)" miss false
nl_expect "top site's events (nlwork touched $PAGES pages on node 3 from node 1)" "$top" -ge $((PAGES * 95 / 100))
nl_expect "top site's events (at most nlwork's pages and 512 more of its own)" "$top" -le $((PAGES + 512))
nl_expect "top site's share of the remote allocations sampled (x100)" "$(nl_calc "$top * 100 / $sampled")" -ge 80
# remote or miss, both counted: the union is between the larger and the sum
remote=$(nljq -L $J alloc_stacks.remote)
nl_expect "sampled with --alloc-stacks=1 (every remote one)" "$sampled" -ge "$remote"
nl_expect "sampled with --alloc-stacks=1 (no more than remote + miss)" "$sampled" -le $((remote + $(nljq -L $J alloc_stacks.miss)))

J=/tmp/stk8.jsonl
run_case $J 8
top=$(nljq -L $J "alloc_stacks.top[0].events")
nljq -L $J "alloc_stacks.top[0].frames" | grep -q 'handle_mm_fault' ||
	nl_fail "one in 8: the top site is not the page-fault path"
nl_within "one in 8: top site's events x 8 against nlwork's pages" $((top * 8)) "$PAGES" 25
echo "alloc_stacks ok"
