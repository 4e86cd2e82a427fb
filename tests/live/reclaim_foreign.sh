# numalens reclaim never frees pages charged to a cgroup it was not given.
# A task in cgroup "own" maps a file whose page cache "other" read first
# (so it is charged to "other"): PAGEOUT alone would free those pages, since
# they are mapped once. The madvise backend checks each page's memcg
# (/proc/kpagecgroup) and must leave them: the file stays resident and
# "other"'s usage does not drop, while the agent frees own's file pages.
. "$(dirname "$0")/common.bash"
root=$(memcg_root)
[ -r /proc/kpagecgroup ] || skip "no /proc/kpagecgroup (CONFIG_MEMCG off)"
command -v fincore > /dev/null || skip "fincore (util-linux) missing"
OWN=$root/rfor-own-$$ OTHER=$root/rfor-other-$$
F=/var/tmp/nl-rfor-$$
mkdir "$OWN" "$OTHER" || skip "cannot create cgroups under $root"
WPID=""
cleanup_hook() { kill $WPID 2>/dev/null; wait $WPID 2>/dev/null; rmdir "$OWN" "$OTHER"; rm -f "$F" "$F.g"; }
usage() { cat "$1"/memory.usage_in_bytes "$1"/memory.current 2>/dev/null | head -1; }
resident() { fincore -n -b -o RES "$F" | awk '{ print int($1 / 4096) }'; }

# a 16 MiB file on disk, dropped from the page cache, then read by "other"
cold_file "$F" 16
(echo $BASHPID > "$OTHER/cgroup.procs"; exec cat "$F" > /dev/null) || fail "read in other failed"
r0=$(resident)
[ "$r0" -ge 3900 ] || fail "file not cached after the read in other: $r0 of 4096 pages"
# "own": a task mapping that file (read once, then held), started first so
# that its pages come first in a step, and a task mapping its own file G,
# read first here (charged to own): what the agent may free
hold_file "$OWN" "$F" 16
cold_file "$F.g" 16
hold_file "$OWN" "$F.g" 16
o0=$(usage "$OTHER")
"$NL" reclaim -v --backend madvise --high 2M --low 1M --delay 0.2 --duration 3 "/$(basename "$OWN")" > "$TMP/log" 2>&1 ||
	fail "numalens reclaim exited $?: $(tail -3 "$TMP/log")"
grep -q 'backend madvise' "$TMP/log" || fail "madvise backend not in use: $(head -3 "$TMP/log")"
steps=$(grep -c ' step node=' "$TMP/log")
[ "$steps" -ge 1 ] || fail "the agent took no step (usage over high?): $(tail -3 "$TMP/log")"
r1=$(resident); o1=$(usage "$OTHER")
note "agent steps $steps; file resident $r0 -> $r1 pages; other's usage $o0 -> $o1 bytes"
[ "$r1" -ge $((r0 * 95 / 100)) ] || fail "the agent paged out other's page cache: resident $r0 -> $r1 pages"
[ "$o1" -ge $((o0 * 95 / 100)) ] || fail "other's usage dropped: $o0 -> $o1 bytes"
freed=$(sed -n 's/^reclaimed madvise pages: N0=\([0-9]*\).*/\1/p' "$TMP/log" | tail -1)
note "the agent freed ${freed:-0} pages of own's file on node 0"
[ "${freed:-0}" -ge 256 ] || fail "the agent freed none of own's own file pages: $(grep -v ' step ' "$TMP/log" | tail -4)"
exit 0
