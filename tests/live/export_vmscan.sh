# numalens export's reclaim families on the host kernel: a cgroup under a
# 32 MiB memory limit writes and reads back 96 MiB of file (nlwork --file,
# on disk, so the page cache is reclaimable), with `numalens export` and
# `numalens vmscan --json` both watching. Once the exporter's figures stop
# moving, its freed bytes / page size for that cgroup must equal what
# `numalens vmscan` counted (two independent BPF loads of the same
# events), be >= 64 MiB (the overflow) and agree with the cgroup's own
# count: memory.stat pgsteal within 5% on v2; v1 has no pgsteal (and its
# pgpgout counts folios, not pages), so there at most the 192 MiB that
# went through the page cache. The duration histogram's _count equals the
# report's episodes and its _sum the report's elapsed time within 5% (each
# load times an episode from its own program runs, a few us apart); the
# node series hold at least the cgroup's pages; `promtool check metrics`
# passes.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
CG=vmexport-live$$
probe=$("$NL" top --json -n 1 -d 0.2 2> "$TMP/probe.err") || fail "numalens top exited $?: $(cat "$TMP/probe.err")"
mode=$(echo "$probe" | "$JQ" - sources.cgroup_mode)
root=$(echo "$probe" | "$JQ" - sources.cgroup_root)
case $mode in
v1-memory) limit_file=memory.limit_in_bytes;;
v2) limit_file=memory.max
    grep -qw memory "$root/cgroup.subtree_control" || skip "cgroup v2 at $root without the memory controller";;
*) skip "no memory cgroup hierarchy here (cgroup mode $mode)";;
esac
DATA=$B/$CG.dat
cleanup_hook() {
	[ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"
	[ -n "${VS:-}" ] && kill "$VS"
	rm -f "$DATA"; rmdir "$root/$CG"
}
mkdir "$root/$CG" || fail "cannot create $root/$CG"
echo $((32 << 20)) > "$root/$CG/$limit_file" || fail "cannot set $CG's $limit_file"

port=$(free_port) || fail "no free port"
start_export "$port" --delay 1 --cgroup-pattern "/$CG" --cgroup-reclaim-histograms
U=http://127.0.0.1:$port/metrics
"$NL" vmscan --json -d 1 -n 0 -c "/$CG" > "$TMP/vs.jsonl" 2> "$TMP/vs.err" &
VS=$!
for i in $(seq 1 100); do [ -s "$TMP/vs.jsonl" ] && break; sleep 0.1; done
[ -s "$TMP/vs.jsonl" ] || fail "numalens vmscan wrote nothing: $(cat "$TMP/vs.err")"
curl -s "$U" > "$TMP/m0"
grep -q '^numalens_source_available{source="vmscan"} 1$' "$TMP/m0" ||
	fail "the vmscan source is not available: $(grep 'source="vmscan"' "$TMP/m0")"

stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$root/$CG/memory.stat"; }
steal0=$(stat_of pgsteal)
sh -c "echo \$\$ > '$root/$CG/cgroup.procs' && exec '$WORK' --file 96 --file-path '$DATA'" > "$TMP/work.out" ||
	fail "nlwork in $CG failed: $(cat "$TMP/work.out")"
steal1=$(stat_of pgsteal)

# metric NAME LABELS: the value of NAME{cgroup="/$CG",LABELS} in $TMP/m
metric() { awk -v k="$1{cgroup=\"/$CG\",$2}" '$1 == k { print $2 }' "$TMP/m"; }
freed() {	# every lru of the limit context, in bytes
	awk -v p="numalens_cgroup_reclaim_freed_bytes_total{cgroup=\"/$CG\",context=\"limit\"," \
		'index($1, p) == 1 { s += $2 } END { printf "%.0f\n", s }' "$TMP/m"
}
# wait until two scrapes of different snapshots agree: the counters settled
prev=-1 prev_seq=-1
for i in $(seq 1 120); do
	curl -s "$U" > "$TMP/m"
	seq=$(sed -n 's/^numalens_snapshots_total //p' "$TMP/m")
	f=$(freed)
	[ "$seq" != "$prev_seq" ] && [ "$f" = "$prev" ] && [ "$f" != 0 ] && break
	[ "$seq" != "$prev_seq" ] && { prev=$f; prev_seq=$seq; }
	sleep 0.5
done
more_lines "$TMP/vs.jsonl" 2 $VS	# a whole vmscan report after the settled snapshot
kill -INT $VS; wait $VS || fail "numalens vmscan exited $?: $(cat "$TMP/vs.err")"; VS=
promtool_ok "$TMP/m" || fail "promtool check metrics: $(head -5 "$TMP/m.lint")"

pg=$(sed -n 's/^numalens_page_size_bytes //p' "$TMP/m")
fb=$(freed)
fa=$(metric numalens_cgroup_reclaim_freed_bytes_total 'context="limit",lru="anon"')
ff=$(metric numalens_cgroup_reclaim_freed_bytes_total 'context="limit",lru="file"')
sb=$(awk -v p="numalens_cgroup_reclaim_scanned_bytes_total{cgroup=\"/$CG\",context=\"limit\"," \
	'index($1, p) == 1 { s += $2 } END { printf "%.0f\n", s }' "$TMP/m")
cnt=$(metric numalens_cgroup_reclaim_duration_seconds_count 'context="limit"')
inf=$(metric numalens_cgroup_reclaim_duration_seconds_bucket 'context="limit",le="+Inf"')
sum=$(metric numalens_cgroup_reclaim_duration_seconds_sum 'context="limit"')
secs=$(metric numalens_cgroup_reclaim_seconds_total 'context="limit"')
node_f=$(awk '/^numalens_node_reclaim_freed_bytes_total\{.*context="limit"/ { s += $2 } END { printf "%.0f\n", s }' "$TMP/m")
root_f=$(awk '/^numalens_cgroup_reclaim_freed_bytes_total\{cgroup="\/",context="limit"/ { s += $2 } END { printf "%.0f\n", s }' "$TMP/m")
q() { "$JQ" -L "$TMP/vs.jsonl" "cgroups[path=/$CG].$1"; }
vf=$(q freed_pages_by_limit); ve=$(q episodes_by_limit); vt=$(q elapsed_ns_by_limit)
note "export: freed $fb B = $((fb / pg)) pages (anon $fa B, file $ff B), scanned $sb B, episodes $cnt, $secs s; node sum $node_f B, root $root_f B"
note "numalens vmscan: freed $vf pages, episodes $ve, elapsed $vt ns; memory.stat pgsteal ${steal0:+$((steal1 - steal0))}${steal0:-n/a (v1)}"

[ -n "$pg" ] && [ "$pg" -gt 0 ] || fail "no numalens_page_size_bytes"
[ "$fb" = $((fa + ff + $(metric numalens_cgroup_reclaim_freed_bytes_total 'context="limit",lru="unknown"'))) ] ||
	fail "freed lru series do not add up"
[ $((fb % pg)) = 0 ] || fail "freed bytes $fb are not whole pages of $pg"
[ "$((fb / pg))" = "$vf" ] || fail "export freed $((fb / pg)) pages, numalens vmscan $vf pages: they count the same events"
ge_pct "$((fb / pg))" $(( (96 - 32) * 1024 * 1024 / pg )) 100 || fail "expected >= 64 MiB freed by limit reclaim, saw $fb bytes"
[ "$fb" -le "$sb" ] || fail "freed $fb > scanned $sb"
if [ -n "$steal0" ]; then
	within_pct "$((fb / pg))" "$((steal1 - steal0))" 5 || fail "freed $((fb / pg)) pages vs memory.stat pgsteal +$((steal1 - steal0)): more than 5% apart"
else
	[ "$fb" -le $((2 * 96 << 20)) ] || fail "freed $fb bytes is more than the 192 MiB that went through the page cache"
fi
[ -n "$cnt" ] && [ "$cnt" = "$inf" ] || fail "histogram +Inf ($inf) != _count ($cnt)"
[ "$cnt" = "$ve" ] || fail "histogram _count $cnt != numalens vmscan episodes $ve"
[ "$cnt" -gt 0 ] || fail "no limit reclaim episodes"
[ "$sum" = "$secs" ] || fail "_sum $sum != reclaim_seconds_total $secs"
within_pct "$(awk -v s="$sum" 'BEGIN { printf "%.0f", s * 1e9 }')" "$vt" 5 ||
	fail "_sum $sum s vs numalens vmscan elapsed $vt ns: more than 5% apart"
# cumulative buckets, increasing le
awk -v p="numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/$CG\",context=\"limit\"," '
	index($1, p) == 1 { if ($2 < prev) bad = 1; prev = $2 }
	END { exit bad }' "$TMP/m" || fail "histogram buckets are not cumulative"
[ "$node_f" -ge "$fb" ] || fail "node series hold $node_f B of limit reclaim, less than the cgroup's $fb"
[ "$root_f" -ge "$fb" ] || fail "the root cgroup holds $root_f B, less than its child's $fb"
stop_export
[ "$EXPORT_RC" = 0 ] || fail "numalens export exit $EXPORT_RC: $(tail -3 "$TMP/export.err")"
exit 0
