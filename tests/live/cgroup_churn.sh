# Short-lived cgroups keep their parent: 200 cgroups under one parent, each
# created, given a process that allocates 8 MiB, and removed within about
# 50 ms, mostly between two of numalens' walks of the hierarchy. The
# parent's allocation totals must hold >= 95% of the pages the children
# say they touched (their own count, nlwork's touched_pages); before, the
# cgroups the walk never saw were folded into the root.
. "$(dirname "$0")/common.bash"
root=$(memcg_root)
[ -n "$root" ] && [ -d "$root" ] || skip "no memory cgroup hierarchy is mounted"
P=nl-churn$$
mkdir "$root/$P" || fail "cannot create $root/$P"
cleanup_hook() {
	[ -n "${TOP_PID:-}" ] && kill "$TOP_PID"
	rmdir "$root/$P"/c* "$root/$P" 2> /dev/null
}
start_top "$TMP/top.jsonl" 1 600
top_started "$TMP/top.jsonl"	# one interval: the parent is in the tree
touched=0
for i in $(seq 1 200); do
	mkdir "$root/$P/c$i" || fail "cannot create $root/$P/c$i"
	out=$(sh -c "echo \$\$ > '$root/$P/c$i/cgroup.procs' && exec '$WORK' --anon 8 --hold 0.03") ||
		fail "nlwork in c$i failed: $out"
	t=$(echo "$out" | sed -n 's/.*touched_pages=\([0-9]*\).*/\1/p')
	[ -n "$t" ] || fail "nlwork said no touched_pages: $out"
	touched=$((touched + t))
	rmdir "$root/$P/c$i" 2> /dev/null || { sleep 0.05; rmdir "$root/$P/c$i"; } || fail "cannot remove $root/$P/c$i"
done
top_more_lines "$TMP/top.jsonl" 2	# the last children are counted and retired
kill -INT "$TOP_PID"; wait "$TOP_PID"; TOP_PID=
l=$("$JQ" -L "$TMP/top.jsonl" "cgroups[path=/$P].alloc.pages_local_total" "cgroups[path=/$P].alloc.pages_remote_total")
got=$(echo "$l" | awk -F'\t' '{ print $1 + $2 }')
r=$("$JQ" -L "$TMP/top.jsonl" "cgroups[path=/].alloc.pages_local_total")
note "children touched $touched pages (their own count); /$P holds $got pages ($(awk -v a="$got" -v b="$touched" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')%), / holds $r"
ge_pct "$got" "$touched" 95 || fail "/$P holds $got pages, under 95% of the $touched its children touched"
exit 0
