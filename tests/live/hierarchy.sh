# cgroups are hierarchical (counts reach every ancestor, a parent never loses a removed child's): a task in A/B shows
# its run time and allocations in B and in A; removing B does not make A's
# totals go down.
. "$(dirname "$0")/common.bash"
mode=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_mode)
root=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_root)
[ -d "$root" ] || fail "cgroup root '$root' does not exist"
A=nltest$$; B=$A/child
mkdir -p "$root/$B" || fail "cannot create $root/$B"
cleanup_hook() { rmdir "$root/$B" "$root/$A" 2>/dev/null; }
start_top "$TMP/top.jsonl" 1 60
top_started "$TMP/top.jsonl"
sh -c "echo \$\$ > '$root/$B/cgroup.procs' && exec '$WORK' --cpu 0 --anon 64 --spin-cpu 1" > "$TMP/work.out" ||
	fail "nlwork in $B failed: $(cat "$TMP/work.out")"
got=$(work_field "$TMP/work.out" cpu_ns)
top_more_lines "$TMP/top.jsonl" 2	# an interval with B's final totals (see stop_top)
rmdir "$root/$B" || fail "cannot remove $root/$B"
top_more_lines "$TMP/top.jsonl" 2	# B shown once more as removed, then gone
rmdir "$root/$A" || fail "cannot remove $root/$A"
# Stop once an interval after the rmdir was written (at most 15 s): a fixed
# interval count raced with a slow workload on a loaded host.
n0=$(wc -l < "$TMP/top.jsonl")
for i in $(seq 1 150); do
	[ "$(wc -l < "$TMP/top.jsonl")" -ge $((n0 + 2)) ] && break
	kill -0 $TOP_PID 2>/dev/null || break
	sleep 0.1
done
kill -INT $TOP_PID 2>/dev/null
wait $TOP_PID || fail "numalens exited $?"
# last line with B present, and the last line overall
lineB=$(grep -n "\"path\":\"/$B\"" "$TMP/top.jsonl" | tail -1 | cut -d: -f1)
[ -n "$lineB" ] || fail "cgroup /$B never appeared ($mode hierarchy at $root)"
rB=$("$JQ" -l "$lineB" "$TMP/top.jsonl" "cgroups[path=/$B].run_ns_total")
pB=$("$JQ" -l "$lineB" "$TMP/top.jsonl" "cgroups[path=/$B].alloc.pages_local_total")
rA=$("$JQ" -l "$lineB" "$TMP/top.jsonl" "cgroups[path=/$A].run_ns_total")
pA=$("$JQ" -l "$lineB" "$TMP/top.jsonl" "cgroups[path=/$A].alloc.pages_local_total")
unseen=$("$JQ" -l "$lineB" "$TMP/top.jsonl" self.drops.slice_unseen)
note "B run_ns_total=$rB pages=$pB; A run_ns_total=$rA pages=$pA; the workload in B measured cpu_ns=$got; slices missed (all tasks): $unseen"
# on failure: B's total in each interval, to tell a late interval from lost counts
series() { for l in $(seq 1 "$lineB"); do "$JQ" -l "$l" "$TMP/top.jsonl" "cgroups[path=/$B].run_ns_total" 2>/dev/null | tr '\n' ' '; done; }
ge_pct "$rB" "$got" 90 || fail "B should have >= 90% of the $got ns of CPU time its workload measured, saw $rB (B's total by interval: $(series); slices whose switch was missed: $unseen)"
[ "$rA" -ge "$rB" ] || fail "A ($rA ns) must include its child B ($rB ns)"
[ "$pA" -ge "$pB" ] || fail "A ($pA pages) must include its child B ($pB pages)"
want=$(( 64 * 1024 * 1024 / $(getconf PAGESIZE) ))
ge_pct "$pB" "$want" 90 || fail "B should show >= 90% of $want pages, saw $pB"
# the last interval that still lists A: after B's rmdir, and after A's own
# (a removed cgroup is shown once more, removed=true, with its last totals)
lineA=$(grep -n "\"path\":\"/$A\"" "$TMP/top.jsonl" | tail -1 | cut -d: -f1)
rA_end=$("$JQ" -l "$lineA" "$TMP/top.jsonl" "cgroups[path=/$A].run_ns_total")
pA_end=$("$JQ" -l "$lineA" "$TMP/top.jsonl" "cgroups[path=/$A].alloc.pages_local_total")
gone=$("$JQ" -l "$lineA" "$TMP/top.jsonl" "cgroups[path=/$A].removed")
note "after rmdir of B and A: A run_ns_total=$rA_end pages=$pA_end removed=$gone"
[ "$gone" = true ] || fail "A should be listed once as removed after its rmdir, saw removed=$gone"
[ "$rA_end" -ge "$rA" ] || fail "A's run time went down after B was removed: $rA -> $rA_end"
[ "$pA_end" -ge "$pA" ] || fail "A's pages went down after B was removed: $pA -> $pA_end"
exit 0
