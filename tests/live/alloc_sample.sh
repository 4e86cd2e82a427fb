# Sampled allocation counting: with one allocation in N counted (each
# standing for N), a workload's allocated pages and its anon pages must
# still come out within 2% of the pages it touched (524,288 base pages:
# at N = 16 one standard deviation is 0.5%), the error numalens reports
# beside them must match its own formula, and --exact must count every
# one. export serves the period in force.
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

PORT=$(free_port)
start_export "$PORT" --alloc-sample 64 -d 1
got=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '$1 == "numalens_alloc_sample_period" { print $2 }')
[ "$got" = 64 ] || fail "export --alloc-sample 64 served numalens_alloc_sample_period '$got'"
"$NL" top --alloc-sample 0 -n 1 2> "$TMP/bad.err" && fail "--alloc-sample 0 was accepted"
grep -q "auto or a whole number" "$TMP/bad.err" || fail "--alloc-sample 0: unexpected message: $(cat "$TMP/bad.err")"
exit 0
