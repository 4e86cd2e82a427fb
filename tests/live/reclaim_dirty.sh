# Dirty file pages: the PAGEOUT path does not write file pages back, so
# advising them only unmapped them from the task (its mapping torn down,
# nothing freed) and the agent blamed missing swap. The madvise backend now
# skips dirty and writeback file pages (/proc/kpageflags) and says so. A
# task in cgroup "own" writes a 24 MiB file (dirty in the page cache, not
# synced) and maps it; over its high mark, the agent must not unmap those
# pages (memory.stat mapped_file stays) and must log the skip.
. "$(dirname "$0")/common.bash"
root=$(memcg_root)
OWN=$root/rdirty-$$
F=/var/tmp/nl-rdirty-$$
mkdir "$OWN" || skip "cannot create a cgroup under $root"
cleanup_hook() { kill $WPID 2>/dev/null; wait $WPID 2>/dev/null; rmdir "$OWN"; rm -f "$F"; }
(echo $BASHPID > "$OWN/cgroup.procs"; exec "$WORK" --file 24 --file-path "$F" --passes 1 \
	--ready-file "$TMP/rdy" --hold 60 > /dev/null) &
WPID=$!
for i in $(seq 100); do [ -f "$TMP/rdy" ] && break; sleep 0.1; done
[ -f "$TMP/rdy" ] || fail "file writer not ready"
ms() { awk -v k="$1" '$1 == k { print $2 }' "$OWN/memory.stat"; }
dirty=$(ms dirty); mapped0=$(ms mapped_file)
[ -z "$mapped0" ] && mapped0=$(awk '$1 == "file_mapped" { print $2 }' "$OWN/memory.stat")
[ "${dirty:-0}" -ge $((16 << 20)) ] || skip "only ${dirty:-0} bytes dirty: the flusher wrote the file back already"
"$NL" reclaim --backend madvise --high 16M --low 8M --delay 0.2 --duration 2 "/$(basename "$OWN")" > "$TMP/log" 2>&1 ||
	fail "numalens reclaim exited $?: $(tail -3 "$TMP/log")"
mapped1=$(ms mapped_file)
[ -z "$mapped1" ] && mapped1=$(awk '$1 == "file_mapped" { print $2 }' "$OWN/memory.stat")
note "dirty $dirty B; mapped file $mapped0 -> $mapped1 B"
note "$(grep -m1 'skipped' "$TMP/log" | cut -c 1-160)"
grep -q 'skipped [0-9]* KiB of dirty or writeback file pages' "$TMP/log" ||
	fail "no note about the dirty pages: $(grep -v '^cgroup\|^scan\|^tickets\|^draws' "$TMP/log" | tail -3)"
within_pct "$mapped1" "$mapped0" 5 || fail "the agent unmapped dirty file pages it cannot free: mapped $mapped0 -> $mapped1"
# written back, the same pages are freed, in whole folios: the page cache
# may hold them in large folios (1 MiB on the 6.18 host's file system), and
# a step of 32 pages that advised part of one split it and freed nothing
sync
cache0=$(ms cache); [ -z "$cache0" ] && cache0=$(ms file)
"$NL" reclaim -v --backend madvise --high 16M --low 8M --delay 0.2 --duration 2 "/$(basename "$OWN")" > "$TMP/log2" 2>&1 ||
	fail "numalens reclaim (after sync) exited $?: $(tail -3 "$TMP/log2")"
cache1=$(ms cache); [ -z "$cache1" ] && cache1=$(ms file)
freed=$(sed -n 's/^reclaimed madvise pages: N0=\([0-9]*\).*/\1/p' "$TMP/log2" | tail -1)
note "after sync: cache $cache0 -> $cache1 B, agent freed ${freed:-0} pages; $(grep -m1 ' step node=' "$TMP/log2" | sed 's/.* step //')"
[ "${freed:-0}" -ge 2048 ] || fail "after sync the agent freed ${freed:-0} pages of the 6144-page file (partial large folios?)"
exit 0
