# numalens reclaim's figures in `numalens top --json` and `numalens export`
# on the host kernel (v1 memory hierarchy here: the madvise backend). A
# process in a test cgroup maps a 48 MiB file on disk and touches every
# page; an agent (high = usage - 4 MiB, low = usage - 8 MiB) pages them
# out, publishing its state in /run/numalens/reclaim/PID.json. With the
# agent stopped (SIGSTOP: alive, its file fixed), top's "reclaim_agent"
# of the cgroup and export's numalens_reclaim_agent_* series must show the same passes and pages
# (x page size) as the agent's own file, pages > 0 on the madvise
# backend, promtool must pass; after the agent exits its series are gone.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
command -v python3 > /dev/null || skip "python3 is needed to map a file"
CG=reclaim-export-live$$
probe=$("$NL" top --json -n 1 -d 0.2 2> "$TMP/probe.err") || fail "numalens top exited $?: $(cat "$TMP/probe.err")"
mode=$(echo "$probe" | "$JQ" - sources.cgroup_mode)
root=$(echo "$probe" | "$JQ" - sources.cgroup_root)
case $mode in
v1-memory|v2) ;;
*) skip "no memory cgroup hierarchy here (cgroup mode $mode)";;
esac
DATA=$B/$CG.dat
cleanup_hook() {
	[ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"
	[ -n "${AG:-}" ] && kill -CONT "$AG" && kill "$AG"
	# the mapping process is in the cgroup: rmdir fails (EBUSY) until it has
	# exited, which a fixed sleep only guessed at on a busy host
	[ -n "${MP:-}" ] && kill "$MP" && wait "$MP"
	rm -f "$DATA"; rmdir "$root/$CG"
}
mkdir "$root/$CG" || fail "cannot create $root/$CG"
dd if=/dev/urandom of="$DATA" bs=1M count=48 status=none || fail "cannot write $DATA"
sync "$DATA"
echo 1 > /proc/sys/vm/drop_caches 2>/dev/null || true
# the mapping process: page cache charged to the cgroup, mapped once
sh -c "echo \$\$ > '$root/$CG/cgroup.procs' && exec python3 -c '
import mmap, sys, time
f = open(sys.argv[1], \"rb\"); m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
s = sum(m[i] for i in range(0, len(m), 4096))
open(sys.argv[2], \"w\").write(\"ready\\n\"); time.sleep(120)' '$DATA' '$TMP/ready'" &
MP=$!
for i in $(seq 100); do [ -f "$TMP/ready" ] && break; sleep 0.2; done
[ -f "$TMP/ready" ] || fail "the mapping process did not get ready"

# watermarks from the usage now: the agent must free 8 MiB of the 48 it can
# (large steps: the first VMAs are shared libraries, which PAGEOUT skips)
U=$(cat "$root/$CG/memory.usage_in_bytes" "$root/$CG/memory.current" 2>/dev/null | head -1)
"$NL" reclaim --backend madvise --step 4096 --delay 0.3 --duration 60 --high $((U - (4 << 20))) --low $((U - (8 << 20))) \
	"/$CG" > "$TMP/agent.out" 2>&1 &
AG=$!
J=/run/numalens/reclaim/$AG.json
val() { # KEY: first number after "KEY": in the agent's file
	sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" "$J" 2>/dev/null | head -1
}
pages() { sed -n 's/.*"madvise":\[\([0-9,]*\)\].*/\1/p' "$J" 2>/dev/null | tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }'; }
for i in $(seq 100); do
	sleep 0.3
	[ "$(pages)" -gt 0 ] && [ "$(val passes)" -gt 0 ] && break
done
# freeze the agent (alive, so its file stays valid) for exact comparisons
sleep 0.5
kill -STOP "$AG"
passes=$(val passes); pg=$(pages)
note "agent file: passes $passes, madvise pages $pg; $(grep -c . "$TMP/agent.out") log lines"
[ "${pg:-0}" -gt 0 ] || fail "the agent freed nothing: $(tail -3 "$TMP/agent.out")"
[ "${passes:-0}" -gt 0 ] || fail "no pass in the agent's state"

# numalens top --json: the cgroup's reclaim_agent
"$NL" top --json -n 1 -d 0.3 > "$TMP/top.json" 2> "$TMP/top.err" || fail "top exited $?: $(cat "$TMP/top.err")"
tp=$("$JQ" "$TMP/top.json" "cgroups[path=/$CG].reclaim_agent.passes_total")
tb=$("$JQ" "$TMP/top.json" "cgroups[path=/$CG].reclaim_agent.backend")
tpid=$("$JQ" "$TMP/top.json" "cgroups[path=/$CG].reclaim_agent.pid")
tpg=0
for n in $("$JQ" "$TMP/top.json" "nodes[*].nid" 2>/dev/null || echo 0); do
	v=$("$JQ" "$TMP/top.json" "cgroups[path=/$CG].reclaim_agent.reclaimed_pages_total_by_node.madvise.$n")
	tpg=$((tpg + ${v:-0}))
done
note "top: reclaim_agent pid $tpid backend $tb passes_total $tp, madvise pages $tpg"
[ "$tpid" = "$AG" ] || fail "top's reclaim_agent pid '$tpid', expected $AG"
[ "$tb" = madvise ] || fail "top's reclaim_agent backend '$tb'"
[ "$tp" = "$passes" ] || fail "top's passes_total $tp != the agent's $passes: $(tail -5 "$TMP/agent.out"; cat $root/$CG/memory.usage_in_bytes)"
[ "$tpg" = "$pg" ] || fail "top's madvise pages $tpg != the agent's $pg"
"$NL" top -n 1 -d 0.3 > "$TMP/top.txt" 2>&1
grep -q "^/$CG .* $AG madvise" "$TMP/top.txt" || fail "top's RECLAIM AGENTS section lacks /$CG: $(grep -A3 'RECLAIM AGENTS' "$TMP/top.txt")"

# numalens export (default depth 0: the managed cgroup is exported anyway)
port=$(free_port) || fail "no free port"
start_export "$port" --delay 1
wait_export_snapshot "$port" 2
curl -s "http://127.0.0.1:$port/metrics" > "$TMP/m"
ep=$(awk -v k="numalens_reclaim_agent_passes_total{cgroup=\"/$CG\"}" '$1 == k { print $2 }' "$TMP/m")
eb=$(awk -v p="numalens_reclaim_agent_reclaimed_bytes_total{cgroup=\"/$CG\"," 'index($1, p) == 1 && $1 ~ /backend="madvise"/ { s += $2 } END { printf "%.0f\n", s }' "$TMP/m")
ps=$(getconf PAGESIZE)
note "export: passes_total $ep, madvise bytes $eb (= $((pg * ps)) expected)"
[ "$ep" = "$passes" ] || fail "exported passes_total '$ep' != the agent's $passes"
[ "$eb" = "$((pg * ps))" ] || fail "exported reclaimed bytes $eb != $pg pages x $ps"
grep -q "^numalens_reclaim_agent_info{cgroup=\"/$CG\",pid=\"$AG\",backend=\"madvise\"" "$TMP/m" ||
	fail "no numalens_reclaim_agent_info for /$CG: $(grep reclaim_agent_info "$TMP/m")"
grep -q "^numalens_reclaim_agent_draws_total{cgroup=\"/$CG\",node=\"[0-9]*\",source=\"agent\"} [1-9]" "$TMP/m" ||
	fail "no agent draws exported"
promtool_ok "$TMP/m" || fail "promtool check metrics: $(head -5 "$TMP/m.lint")"

# the agent exits: its file goes, and so do its series
kill -CONT "$AG"; kill "$AG"; wait "$AG"; AG=
[ -e "$J" ] && fail "$J left behind"
agent_series_gone() {
	curl -s "http://127.0.0.1:$port/metrics" > "$TMP/m2"
	! grep -q "^numalens_reclaim_agent_.*cgroup=\"/$CG\"" "$TMP/m2"
}
wait_until 30 agent_series_gone || fail "series of an exited agent still exported after 30 s"
exit 0
