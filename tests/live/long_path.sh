# Cgroup paths longer than the snapshot's 511-byte label: two siblings that
# differ only past byte 511 must still get distinct labels (export series
# and JSON keys would collide otherwise), each ending in "...#<cgroup id>",
# and the figures of a task in one of them must land under its own label.
. "$(dirname "$0")/common.bash"
root=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_root)
[ -d "$root" ] || fail "cgroup root '$root' does not exist"
a=$(printf 'a%.0s' $(seq 1 250)); b=$(printf 'b%.0s' $(seq 1 250))
T=nllong$$
D="$T/$a/$b"
mkdir -p "$root/$D/x1" "$root/$D/x2" || fail "cannot create $root/$D/x{1,2}"
cleanup_hook() { rmdir "$root/$D/x1" "$root/$D/x2" "$root/$D" "$root/$T/$a" "$root/$T" 2>/dev/null; }
id1=$(stat -c %i "$root/$D/x1"); id2=$(stat -c %i "$root/$D/x2")
note "x1 path is $((${#D} + 4)) bytes long, ids $id1 $id2"
# start_top returns after the first snapshot: two more cover the work
start_top "$TMP/top.jsonl" 1 3
sh -c "echo \$\$ > '$root/$D/x1/cgroup.procs' && exec '$WORK' --cpu 0 --spin 0.5" > "$TMP/work.out" ||
	fail "nlwork in x1 failed: $(cat "$TMP/work.out")"
wait $TOP_PID || fail "numalens top exited $?: $(tail -2 "$TMP/top.jsonl.err")"
# the labels: JSON strings that end in ...#<id>
labels=$(tail -1 "$TMP/top.jsonl" | grep -o '"path":"[^"]*\.\.\.#[0-9]*"' | sed 's/"path":"//; s/"$//')
l1=$(echo "$labels" | grep "\.\.\.#$id1\$"); l2=$(echo "$labels" | grep "\.\.\.#$id2\$")
[ -n "$l1" ] && [ -n "$l2" ] || fail "no shortened labels ending in ...#$id1 and ...#$id2; saw: $(echo "$labels" | cut -c 1-40)"
[ "$l1" != "$l2" ] || fail "x1 and x2 share the label $l1"
[ ${#l1} -eq 511 ] || fail "label of x1 is ${#l1} bytes, expected 511"
case "$l1" in "/$T/$a/"*) ;; *) fail "label of x1 does not keep the path's head: $(echo "$l1" | cut -c 1-40)";; esac
r1=$("$JQ" -L "$TMP/top.jsonl" "cgroups[path=$l1].run_ns_total")
r2=$("$JQ" -L "$TMP/top.jsonl" "cgroups[path=$l2].run_ns_total")
note "x1 run_ns_total=$r1, x2 run_ns_total=$r2"
ge_pct "$r1" 400000000 100 || fail "x1 should have >= 0.4 s of run time under its own label, saw $r1"
[ "$r2" = 0 ] || fail "x2 ran nothing, saw run_ns_total=$r2"
exit 0
