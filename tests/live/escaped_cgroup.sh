# A cgroup whose name holds a terminal escape, a tab and a byte that is not
# UTF-8 (mkdir takes any bytes): `top -c` with that very path lists the
# process in it (it is matched by the cgroup's real path, while the process
# carries the cleaned label "...#<id>"), in the batch text and in --json, and
# the batch header echoes the path cleaned, never the raw escape.
. "$(dirname "$0")/common.bash"
root=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_root)
[ -d "$root" ] || fail "cgroup root '$root' does not exist"
name=$'nl-esc-\x1b[31mRED\tTAB\xff'$$
mkdir "$root/$name" || skip "cannot create a cgroup under $root"
cleanup_hook() {
	[ -n "${SLP:-}" ] && kill $SLP 2>/dev/null && wait $SLP 2>/dev/null
	rmdir "$root/$name" 2>/dev/null
}
sh -c "echo \$\$ > '$root/$name/cgroup.procs' && exec sleep 60" & SLP=$!
wait_until 30 is_comm $SLP sleep || fail "the sleeper did not exec sleep within 30 s"
"$NL" top --batch -n 1 -d 0.3 -c "/$name" > "$TMP/top.txt" 2> "$TMP/top.err" || fail "top --batch -c exited $?: $(cat -v "$TMP/top.err")"
LC_ALL=C grep -q $'\x1b' "$TMP/top.txt" && fail "a raw ESC reached the batch text: $(cat -v "$TMP/top.txt" | grep -m1 PROCESSES)"
grep -q "^PROCESSES  1 of [0-9]* shown, sorted by CPU%, cgroup /nl-esc-\\\\x1b\[31mRED\\\\x09TAB" "$TMP/top.txt" ||
	fail "batch header: expected 1 process shown and the path cleaned: $(grep -m1 PROCESSES "$TMP/top.txt")"
grep -q "^ *$SLP sleep " "$TMP/top.txt" || fail "top --batch -c <escaped path> does not list the sleeper $SLP: $(grep -A3 PROCESSES "$TMP/top.txt")"
note "batch: $(grep -m1 "^PROCESSES" "$TMP/top.txt")"
"$NL" top --json -n 1 -d 0.3 -c "/$name" > "$TMP/top.json" || fail "top --json -c exited $?"
[ "$("$JQ" "$TMP/top.json" "processes[pid=$SLP].comm")" = sleep ] ||
	fail "top --json -c <escaped path> does not list the sleeper $SLP"
note "json: the sleeper is listed under $("$JQ" "$TMP/top.json" "processes[pid=$SLP].cgroup")"
exit 0
