# Cgroup paths longer than the snapshot's 511-byte label: two siblings that
# differ only past byte 511 must still get distinct labels (export series
# and JSON keys would collide otherwise), each ending in "...#<cgroup id>",
# and the figures of a task in one of them must land under its own label.
# A cut never splits a UTF-8 character (the JSON must stay valid); filters
# (-c) match the full path; a process in such a cgroup keeps its name.
. "$(dirname "$0")/common.bash"
root=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_root)
[ -d "$root" ] || fail "cgroup root '$root' does not exist"
a=$(printf 'a%.0s' $(seq 1 250)); b=$(printf 'b%.0s' $(seq 1 250))
T=nllong$$
D="$T/$a/$b"
mkdir -p "$root/$D/x1" "$root/$D/x2" || fail "cannot create $root/$D/x{1,2}"
# three names of 3-byte characters shifted by 0, 1, 2 bytes: whatever the
# cut offset, one of them has it inside a character
eur=$(printf '\342\202\254%.0s' $(seq 1 84))
for pad in "" x xx; do mkdir "$root/$T/$a/$pad$eur" || fail "cannot create a cgroup named in UTF-8"; done
# a name that is not UTF-8 at all: shown with U+FFFD (README "Names") and its id
bad=$(printf 'bad\377x')
mkdir "$root/$T/$bad" || fail "cannot create a cgroup with a non-UTF-8 name"
idbad=$(stat -c %i "$root/$T/$bad")
cleanup_hook() {
	# a killed task leaves its cgroup only once it has exited
	[ -n "${SLP:-}" ] && kill $SLP 2>/dev/null && wait $SLP 2>/dev/null
	rmdir "$root/$D/x1" "$root/$D/x2" "$root/$D" "$root/$T/$a/"*"$eur" "$root/$T/$a" "$root/$T/$bad" "$root/$T" 2>/dev/null
}
id1=$(stat -c %i "$root/$D/x1"); id2=$(stat -c %i "$root/$D/x2")
note "x1 path is $((${#D} + 4)) bytes long, ids $id1 $id2"
# the spinner runs until it has 0.5 s of its own CPU time, however long
# that takes on a busy host; top stops one interval after it ended
start_top "$TMP/top.jsonl" 1 600
top_started "$TMP/top.jsonl"	# attached before the spinner runs
sh -c "echo \$\$ > '$root/$D/x1/cgroup.procs' && exec '$WORK' --cpu 0 --spin-cpu 0.5" > "$TMP/work.out" ||
	fail "nlwork in x1 failed: $(cat "$TMP/work.out")"
stop_top "$TMP/top.jsonl"
got=$(work_field "$TMP/work.out" cpu_ns)
# the labels: JSON strings that end in ...#<id>
labels=$(tail -1 "$TMP/top.jsonl" | grep -o '"path":"[^"]*\.\.\.#[0-9]*"' | sed 's/"path":"//; s/"$//')
l1=$(echo "$labels" | grep "\.\.\.#$id1\$"); l2=$(echo "$labels" | grep "\.\.\.#$id2\$")
[ -n "$l1" ] && [ -n "$l2" ] || fail "no shortened labels ending in ...#$id1 and ...#$id2; saw: $(echo "$labels" | cut -c 1-40)"
[ "$l1" != "$l2" ] || fail "x1 and x2 share the label $l1"
[ ${#l1} -eq 511 ] || fail "label of x1 is ${#l1} bytes, expected 511"
case "$l1" in "/$T/$a/"*) ;; *) fail "label of x1 does not keep the path's head: $(echo "$l1" | cut -c 1-40)";; esac
r1=$("$JQ" -L "$TMP/top.jsonl" "cgroups[path=$l1].run_ns_total")
r2=$("$JQ" -L "$TMP/top.jsonl" "cgroups[path=$l2].run_ns_total")
note "x1 run_ns_total=$r1, x2 run_ns_total=$r2; the workload in x1 measured cpu_ns=$got"
ge_pct "$r1" "$got" 90 || fail "x1 should have >= 90% of the $got ns of CPU time its workload measured, under its own label, saw $r1"
[ "$r2" = 0 ] || fail "x2 ran nothing, saw run_ns_total=$r2"
iconv -f UTF-8 -t UTF-8 "$TMP/top.jsonl" > /dev/null 2>&1 || fail "top --json output is not valid UTF-8 (a label cut inside a character)"
fffd=$'\xef\xbf\xbd'
grep -q "\"path\":\"/$T/bad${fffd}x#$idbad\"" "$TMP/top.jsonl" || fail "no label /$T/bad<U+FFFD>x#$idbad for the non-UTF-8 name"
note "labels of the UTF-8 named cgroups and of bad\\377x (/$T/bad<U+FFFD>x#$idbad): valid UTF-8"
# -c of the long parent: both children shown (the filter takes full paths)
"$NL" vmscan --all -n 1 -d 0.3 -c "/$D" > "$TMP/vs.txt" 2>&1 || fail "vmscan -c /<long parent> exited $?: $(tail -2 "$TMP/vs.txt")"
grep -q "not in the hierarchy" "$TMP/vs.txt" && fail "vmscan -c of an existing long path: $(grep -m1 'not in' "$TMP/vs.txt" | cut -c 1-80)"
grep -q "\.\.\.#$id1" "$TMP/vs.txt" && grep -q "\.\.\.#$id2" "$TMP/vs.txt" ||
	fail "vmscan --all -c /<long parent> does not list both children"
note "vmscan --all -c /<long parent>: both children listed"
# a process in a cgroup whose path is over 255 bytes: named, with its cgroup
sh -c "echo \$\$ > '$root/$D/x2/cgroup.procs' && exec sleep 60" & SLP=$!
wait_until 30 is_comm $SLP sleep || fail "the sleeper in x2 did not exec sleep within 30 s (comm: $(cat /proc/$SLP/comm 2>/dev/null))"
"$NL" top --json -n 1 -d 0.3 -p $SLP > "$TMP/p.json" || fail "top -p exited $?"
comm=$("$JQ" "$TMP/p.json" "processes[pid=$SLP].comm")
pcg=$("$JQ" "$TMP/p.json" "processes[pid=$SLP].cgroup")
[ "$comm" = sleep ] || fail "process in a long-path cgroup: comm '$comm', expected sleep"
case "$pcg" in *"...#$id2") ;; *) fail "process in a long-path cgroup: cgroup label '$(echo "$pcg" | tail -c 30)' does not end in ...#$id2";; esac
note "process in x2: comm $comm, cgroup label ...${pcg: -12}"
# -c of that long path finds the process: it is matched by its cgroup's
# full path, not by the cut label it carries
"$NL" top --json -n 1 -d 0.3 -c "/$D/x2" > "$TMP/c.json" || fail "top -c /<long path> exited $?"
[ "$("$JQ" "$TMP/c.json" "processes[pid=$SLP].comm")" = sleep ] ||
	fail "top -c /<long path>/x2 does not list the sleeper $SLP in it: $(head -c 300 "$TMP/c.json")"
note "top -c /<long path>/x2 lists the sleeper"
exit 0
