# Sampled allocation counting: with one allocation in N counted (each
# standing for N), a workload's allocated pages and its anon pages must
# still come out within 2% of the pages it touched (524,288 base pages:
# at N = 16 one standard deviation is 0.5%), the error numalens reports
# beside them must match its own formula, and --exact must count every
# one. export serves the period in force.
# The node totals count every allocation at any period: a top at one in
# 4096 beside a top with --exact, both around one workload, must give the
# same node totals (each against the numastat it read, within 1%), while
# the root cgroup's figures carry the error for 4096.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
thp_off
cleanup_hook() { thp_restore; [ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID" 2>/dev/null; }
MIB=256 REPEAT=8

# run_arm NAME ARGS...: top beside one workload; prints "total anon"
run_arm() {
	local name=$1; shift
	start_top "$TMP/$name.jsonl" 1 600 "$@"
	top_started "$TMP/$name.jsonl"
	"$WORK" --anon $MIB --repeat $REPEAT > "$TMP/$name.out" || fail "nlwork failed: $(cat "$TMP/$name.out")"
	stop_top "$TMP/$name.jsonl"
	PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' "$TMP/$name.out")
	"$JQ" -s "$TMP/$name.jsonl" "processes[pid=$PID].alloc.pages_local" "processes[pid=$PID].alloc.pages_remote" \
		"processes[pid=$PID].alloc.pages_by_class.anon" | awk -F'\t' '{ print $1 + $2, $3 }'
}

want=$(( MIB * 256 * REPEAT ))
read -r total anon <<< "$(run_arm sampled --alloc-sample 16)"
note "--alloc-sample 16: $total pages allocated, $anon anon; touched $want"
within_pct "$total" "$want" 2 || fail "sampled estimate $total is more than 2% off the $want pages touched"
within_pct "$anon" "$want" 2 || fail "sampled anon estimate $anon is more than 2% off the $want pages touched"
periods=$("$JQ" "$TMP/sampled.jsonl" sources.alloc_sample_period | sort -u | tr '\n' ' ')
[ "$periods" = "16 " ] || fail "expected sources.alloc_sample_period 16 in every snapshot, saw: $periods"
# the reported error: sqrt(15 / events) for each interval the process allocated in
PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' "$TMP/sampled.out")
bad=$(python3 - "$TMP/sampled.jsonl" "$PID" <<'PY'
import json, math, sys
bad = seen = 0
for line in open(sys.argv[1]):
    for p in json.loads(line).get("processes", []):
        if p["pid"] != int(sys.argv[2]):
            continue
        a = p["alloc"]; e = a["events_local"] + a["events_remote"] + a["fail_events"]
        if e > 0:
            seen += 1
            bad += abs(a["rel_error"] - math.sqrt(15 / e)) > 1e-6
print(bad if seen else "none")
PY
)
[ "$bad" = 0 ] || fail "alloc.rel_error differs from sqrt(15 / events) in $bad intervals (or none seen: $bad)"

read -r total anon <<< "$(run_arm exact --exact)"
note "--exact: $total pages allocated, $anon anon; touched $want"
within_pct "$total" "$want" 1 || fail "exact count $total is more than 1% off the $want pages touched"
periods=$("$JQ" "$TMP/exact.jsonl" sources.alloc_sample_period | sort -u | tr '\n' ' ')
[ "$periods" = "1 " ] || fail "expected sources.alloc_sample_period 1 with --exact, saw: $periods"

# node_vs_numastat FILE SKIP: BPF node events and numastat local+other,
# summed over every node and every interval after the first SKIP
node_vs_numastat() {
	python3 - "$1" "$2" <<'PY'
import json, sys
b = k = 0
for i, line in enumerate(open(sys.argv[1])):
    if i < int(sys.argv[2]):
        continue
    for n in json.loads(line).get("nodes", []):
        b += n["bpf"]["events_local"] + n["bpf"]["events_other"]
        k += n["numastat"]["local_node"] + n["numastat"]["other_node"]
print(b, k)
PY
}
start_top "$TMP/pexact.jsonl" 1 600 --exact; EXACT_PID=$TOP_PID
top_started "$TMP/pexact.jsonl"
start_top "$TMP/psampled.jsonl" 1 600 --alloc-sample 4096
top_started "$TMP/psampled.jsonl"
# the intervals of the exact top that saw the other load its programs
# (vmalloc's pages come from the bulk allocator, which fires no event) are
# left out, with one more for the interval under way
skip=$(( $(wc -l < "$TMP/pexact.jsonl") + 1 ))
"$WORK" --anon $MIB --repeat $REPEAT > "$TMP/pair.out" || fail "nlwork failed: $(cat "$TMP/pair.out")"
# both stopped together, so that their windows differ by less than an
# interval at either end (the host's own allocations in the difference)
more_lines "$TMP/psampled.jsonl" 2 "$TOP_PID"
more_lines "$TMP/pexact.jsonl" 2 "$EXACT_PID"
kill -INT "$TOP_PID" "$EXACT_PID" 2>/dev/null
wait "$TOP_PID" || fail "numalens top --alloc-sample 4096 exited $?: $(tail -2 "$TMP/psampled.jsonl.err")"
wait "$EXACT_PID" || fail "numalens top --exact exited $?: $(tail -2 "$TMP/pexact.jsonl.err")"
read -r be ke <<< "$(node_vs_numastat "$TMP/pexact.jsonl" "$skip")"
read -r bs ks <<< "$(node_vs_numastat "$TMP/psampled.jsonl" 1)"
note "node events against numastat: --exact $be of $ke, --alloc-sample 4096 $bs of $ks"
[ "$ks" -ge "$want" ] || fail "the sampled top's intervals hold $ks numastat allocations, fewer than the $want the workload made"
python3 -c "import sys; be, ke, bs, ks = map(float, sys.argv[1:]); sys.exit(abs(bs / ks - be / ke) > 0.01)" "$be" "$ke" "$bs" "$ks" ||
	fail "node totals at one in 4096 ($bs of numastat's $ks) and with --exact ($be of $ke) differ by more than 1% of numastat"
# the root cgroup's figures are the estimates, with their error
bad=$(python3 - "$TMP/psampled.jsonl" <<'PY'
import json, math, sys
bad = seen = 0
for line in open(sys.argv[1]):
    for c in json.loads(line).get("cgroups", []):
        a = c.get("alloc") or {}
        e = a.get("events_local", 0) + a.get("events_remote", 0) + a.get("fail_events", 0)
        if c.get("path") == "/" and e > 0:
            seen += 1
            bad += abs(a["rel_error"] - math.sqrt(4095 / e)) > 1e-6
print(bad if seen else "none")
PY
)
[ "$bad" = 0 ] || fail "the root cgroup's alloc.rel_error at one in 4096 differs from sqrt(4095 / events) in $bad intervals (or none seen: $bad)"

PORT=$(free_port)
start_export "$PORT" --alloc-sample 64 -d 1
got=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '$1 == "numalens_alloc_sample_period" { print $2 }')
[ "$got" = 64 ] || fail "export --alloc-sample 64 served numalens_alloc_sample_period '$got'"
"$NL" top --alloc-sample 0 -n 1 2> "$TMP/bad.err" && fail "--alloc-sample 0 was accepted"
grep -q "auto or a whole number" "$TMP/bad.err" || fail "--alloc-sample 0: unexpected message: $(cat "$TMP/bad.err")"
exit 0
