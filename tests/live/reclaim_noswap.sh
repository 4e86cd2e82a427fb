# Without swap the madvise backend skips anonymous VMAs: PAGEOUT cannot free
# their pages, and taking them first filled every step. Cgroup "own" holds a
# task with 16 MiB of anon (first in cgroup.procs) and a task mapping a
# 16 MiB file it read itself; over its high mark, the agent must free the
# file's pages.
. "$(dirname "$0")/common.bash"
[ "$(wc -l < /proc/swaps)" -le 1 ] || skip "this host has swap (the test needs none)"
root=$(memcg_root)
OWN=$root/rnoswap-$$
F=/var/tmp/nl-rnoswap-$$
mkdir "$OWN" || skip "cannot create a cgroup under $root"
cleanup_hook() { kill $WPID 2>/dev/null; wait $WPID 2>/dev/null; rmdir "$OWN"; rm -f "$F"; }
(echo $BASHPID > "$OWN/cgroup.procs"; exec "$WORK" --anon 16 --ready-file "$TMP/rdy" --hold 60 > /dev/null) &
WPID=$!
for i in $(seq 100); do [ -f "$TMP/rdy" ] && break; sleep 0.1; done
[ -f "$TMP/rdy" ] || fail "anon holder not ready"
cold_file "$F" 16
hold_file "$OWN" "$F" 16
"$NL" reclaim -v --backend madvise --high 8M --low 4M --delay 0.2 --duration 3 "/$(basename "$OWN")" > "$TMP/log" 2>&1 ||
	fail "numalens reclaim exited $?: $(tail -3 "$TMP/log")"
freed=$(sed -n 's/^reclaimed madvise pages: N0=\([0-9]*\).*/\1/p' "$TMP/log" | tail -1)
note "steps $(grep -c ' step node=' "$TMP/log"), file pages freed ${freed:-0} (of 4096)"
[ "${freed:-0}" -ge 2048 ] || fail "the agent freed ${freed:-0} pages: the anon task's pages filled the steps? $(grep -v ' step ' "$TMP/log" | tail -3)"
exit 0
