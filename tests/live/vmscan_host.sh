# Reclaim figures on the host kernel (6.18, cgroup v1 memory, no MGLRU):
# the vmscan programs load (the 6.18 variants: its reclaim tracepoints do
# not name the memcg), and limit reclaim is charged to the cgroup of the
# task that reclaims, as documented: with the limit on parent P and the
# task in child P/c, the child shows the reclaim and P has it through the
# recursive sum. 96 MiB of file written and read back under a 32 MiB limit
# must free at least 64 MiB and at most the 192 MiB that went through the
# page cache; freed <= scanned, total == anon + file. Removing the child
# (its map entries are evicted) leaves the parent's totals whole.
. "$(dirname "$0")/common.bash"
P=vmscan-live$$ C=vmscan-live$$/c
out=$("$NL" vmscan --json -n 1 -d 0.3 2> "$TMP/probe.err") || fail "numalens vmscan exited $?: $(cat "$TMP/probe.err")"
[ "$(echo "$out" | "$JQ" - available)" = true ] || fail "reclaim figures unavailable: $(echo "$out" | "$JQ" - missing)"
attr=$(echo "$out" | "$JQ" - memcg_attribution)
note "kernel $(uname -r): memcg_attribution=$attr"
mode=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_mode)
root=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_root)
[ "$mode" = v1-memory ] || skip "expects the hybrid host (v1 memory hierarchy), saw cgroup mode $mode"
[ "$attr" = reclaiming_task ] || skip "this kernel names the memcg at reclaim begin ($attr): the fallback is not in use"
mkdir -p "$root/$C" || fail "cannot create $root/$C"
DATA=$B/vmscan-live$$.dat
cleanup_hook() { rm -f "$DATA"; rmdir "$root/$C" "$root/$P" 2>/dev/null; }
echo $((32 << 20)) > "$root/$P/memory.limit_in_bytes" || fail "cannot set $P's memory.limit_in_bytes"
"$NL" vmscan --json -d 1 -n 0 -c "/$P" > "$TMP/vs.jsonl" 2> "$TMP/vs.err" &
VS=$!
for i in $(seq 1 100); do [ -s "$TMP/vs.jsonl" ] && break; sleep 0.1; done
[ -s "$TMP/vs.jsonl" ] || fail "numalens vmscan wrote nothing: $(cat "$TMP/vs.err")"
# one line on stderr once it counts (the first report comes a delay later)
grep -q '^numalens vmscan: attached to the reclaim tracepoints; first report in 1 s$' "$TMP/vs.err" ||
	fail "no 'attached' line on stderr: $(cat "$TMP/vs.err")"
# only the reclaim programs are loaded: the sched_switch, page-allocator,
# exit and NUMA-move programs of top would cost the host for nothing
if command -v bpftool > /dev/null; then
	progs=$(for f in /proc/$VS/fdinfo/*; do awk '/^prog_id:/ { print $2 }' "$f" 2>/dev/null; done | sort -un |
		while read -r id; do bpftool prog show id "$id" 2>/dev/null | awk 'NR == 1 { print $4 }'; done | tr '\n' ' ')
	note "programs numalens vmscan holds: $progs"
	case " $progs" in *" direct_end "*) ;; *) fail "numalens vmscan holds no reclaim program: $progs";; esac
	for p in handle_sched_switch handle_page_alloc handle_process_exit handle_move_numa handle_migrate_pages; do
		case " $progs" in *" $p "*) fail "numalens vmscan loaded $p, which its figures do not need: $progs";; esac
	done
fi
sh -c "echo \$\$ > '$root/$C/tasks' && exec '$WORK' --file 96 --file-path '$DATA'" > "$TMP/work.out" ||
	fail "nlwork in $C failed: $(cat "$TMP/work.out")"
more_lines "$TMP/vs.jsonl" 2 $VS	# a whole interval after the work
# the child goes: its BPF entries are evicted after the grace interval,
# and the parent must keep every page of it
n_before=$(wc -l < "$TMP/vs.jsonl")
rmdir "$root/$C" || fail "cannot remove $root/$C"
child_gone() { [ "$("$JQ" -L "$TMP/vs.jsonl" "cgroups[path=/$C].path")" = missing ]; }
wait_until 30 child_gone	# the grace interval; checked below
kill -INT $VS; wait $VS || fail "numalens vmscan exited $?: $(cat "$TMP/vs.err")"
q() { "$JQ" -l "$n_before" "$TMP/vs.jsonl" "$1"; }
cs=$(q "cgroups[path=/$C].scanned_pages_by_limit"); cf=$(q "cgroups[path=/$C].freed_pages_by_limit")
cff=$(q "cgroups[path=/$C].freed_file_pages_by_limit"); cfa=$(q "cgroups[path=/$C].freed_anon_pages_by_limit")
csa=$(q "cgroups[path=/$C].scanned_anon_pages_by_limit"); csf=$(q "cgroups[path=/$C].scanned_file_pages_by_limit")
pf=$(q "cgroups[path=/$P].freed_pages_by_limit"); ce=$(q "cgroups[path=/$C].episodes_by_limit")
note "child: scanned $cs (anon $csa file $csf) freed $cf (anon $cfa file $cff), episodes $ce; parent freed $pf"
pg=$(getconf PAGESIZE)
[ "$cs" = $((csa + csf)) ] || fail "scanned $cs != anon $csa + file $csf"
[ "$cf" = $((cfa + cff)) ] || fail "freed $cf != anon $cfa + file $cff"
[ "$cf" -le "$cs" ] || fail "freed $cf > scanned $cs"
ge_pct "$cf" $(( (96 - 32) * 1024 * 1024 / pg )) 100 ||
	fail "the child should show >= 64 MiB freed by limit reclaim (the task's cgroup stands in for the memcg at the limit), saw $cf pages"
[ "$cf" -le $(( 2 * 96 * 1024 * 1024 / pg )) ] || fail "freed $cf pages is more than the 192 MiB that went through the page cache"
[ "$pf" = "$cf" ] || fail "parent $P (limit holder, no other task) must equal its only child: $pf vs $cf"
[ "$ce" -gt 0 ] || fail "no limit reclaim episodes counted"
pf_end=$("$JQ" -L "$TMP/vs.jsonl" "cgroups[path=/$P].freed_pages_by_limit")
c_end=$("$JQ" -L "$TMP/vs.jsonl" "cgroups[path=/$C].path")
note "after rmdir of the child: parent freed $pf_end, child listed: $c_end"
[ "$c_end" = missing ] || fail "the removed child should be gone after the grace interval, saw $c_end"
[ "$pf_end" -ge "$pf" ] || fail "parent's freed pages went down after its child was removed: $pf -> $pf_end"
exit 0
