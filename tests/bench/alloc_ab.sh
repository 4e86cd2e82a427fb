#!/usr/bin/env bash
# Two numalens builds' allocation hooks, paired: each build attached alone
# (`numalens top --batch -d 1`), the two alternating in rotating order,
# ROUNDS rounds of the page-fault load (nlwork --anon 256 --repeat 4, THP
# off); BPF run-time stats give ns/event of handle_page_alloc and
# handle_lru_insertion per round, and the ratio after/before of the same
# round. A report for cost work (the host swings 2x between minutes, so
# only builds measured in the same rounds compare), never pass/fail.
# TOGETHER=1 attaches both builds at once instead, the first to attach
# alternating per round, so both programs run on the very same events
# (the second on a hook rides on the lines the first missed on: compare
# rounds of the same position when they differ much).
#   sudo [TOGETHER=1] bash tests/bench/alloc_ab.sh BEFORE_NUMALENS AFTER_NUMALENS [ROUNDS]
set -u
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: alloc_ab.sh BEFORE_NUMALENS AFTER_NUMALENS [ROUNDS]" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "alloc_ab: needs root (BPF)" >&2; exit 1; }
BIN=("$1" "$2"); NAME=(before after); ROUNDS=${3:-6}
WORK=${B:-build}/tests/nlwork
[ -x "$WORK" ] || { echo "alloc_ab: $WORK missing: run make tests-build" >&2; exit 1; }
TMP=$(mktemp -d /tmp/nl-alloc-ab.XXXXXX)
THP=/sys/kernel/mm/transparent_hugepage/enabled
old_thp=$(sed 's/.*\[\(.*\)\].*/\1/' $THP)
old_stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
PID= PID2=
cleanup() {
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	[ -n "$PID2" ] && kill "$PID2" 2>/dev/null && wait "$PID2" 2>/dev/null
	echo "$old_stats" > /proc/sys/kernel/bpf_stats_enabled
	echo "$old_thp" > $THP
	rm -rf "$TMP"
}
trap cleanup EXIT
echo never > $THP
echo 1 > /proc/sys/kernel/bpf_stats_enabled
# stats IDS...: "NAME RUN_CNT RUN_TIME_NS" of the allocation programs
stats() {
	local id
	for id in "$@"; do
		bpftool prog show id "$id" | awk 'NR == 1 && $4 ~ /page_alloc|lru_insertion/ {
			for (i = 1; i <= NF; i++) { if ($i == "run_cnt") c = $(i + 1); if ($i == "run_time_ns") t = $(i + 1) }
			print $4, c, t }'
	done
}
# start_build A OUT: build A's top in the background (pid in $STARTED),
# back once it has printed its first screen
start_build() {
	"${BIN[$1]}" top --batch -d 1 > "$2" 2>&1 & STARTED=$!
	for i in $(seq 1 300); do grep -q '^numalens top' "$2" && break; sleep 0.2; done
}
progs_of() { grep -h '^prog_id:' /proc/$1/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u; }
if [ "${TOGETHER:-0}" = 1 ]; then
	for r in $(seq 1 "$ROUNDS"); do
		f=$(( r % 2 ))
		start_build $f "$TMP/top$f"; PID=$STARTED
		start_build $(( 1 - f )) "$TMP/top$(( 1 - f ))"; PID2=$STARTED
		pids=($PID $PID2); [ $f = 0 ] || pids=($PID2 $PID)	# by build
		for a in 0 1; do progs_of ${pids[$a]} > "$TMP/ids$a"; stats $(cat "$TMP/ids$a") > "$TMP/s0_$a"; done
		"$WORK" --anon 256 --repeat 4 > /dev/null
		for a in 0 1; do
			stats $(cat "$TMP/ids$a") > "$TMP/s1_$a"
			paste "$TMP/s0_$a" "$TMP/s1_$a" | awk -v r="$r" -v a="${NAME[$a]}" -v pos=$(( a == f ? 1 : 2 )) '{ c = $5 - $2
				printf "AB round=%d build=%s pos=%d prog=%s events=%d ns=%.0f\n", r, a, pos, $1, c, c ? ($6 - $3) / c : 0 }'
		done
		kill $PID $PID2; wait $PID $PID2 2>/dev/null; PID= PID2=
	done | tee "$TMP/raw"
else
for r in $(seq 1 "$ROUNDS"); do
	for k in 0 1; do
		a=$(( (r + k) % 2 ))
		"${BIN[$a]}" top --batch -d 1 > "$TMP/top" 2>&1 & PID=$!
		for i in $(seq 1 300); do grep -q '^numalens top' "$TMP/top" && break; sleep 0.2; done
		ids=$(grep -h '^prog_id:' /proc/$PID/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u)
		stats $ids > "$TMP/s0"; "$WORK" --anon 256 --repeat 4 > /dev/null; stats $ids > "$TMP/s1"
		paste "$TMP/s0" "$TMP/s1" | awk -v r="$r" -v a="${NAME[$a]}" '{ c = $5 - $2
			printf "AB round=%d build=%s prog=%s events=%d ns=%.0f\n", r, a, $1, c, c ? ($6 - $3) / c : 0 }'
		kill "$PID"; wait "$PID" 2>/dev/null; PID=
	done
done | tee "$TMP/raw"
fi
# the ratio after/before of each round, then per program its median and range
awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
       v[f["prog"], f["build"], f["round"]] = f["ns"]; p[f["prog"]] = 1; if (f["round"] > n) n = f["round"] }
     END { for (q in p) for (r = 1; r <= n; r++) if (v[q, "before", r] > 0)
		printf "%s %.2f\n", q, v[q, "after", r] / v[q, "before", r] }' "$TMP/raw" |
	sort -k1,1 -k2,2n | awk '{ x[$1, ++m[$1]] = $2 }
	END { for (q in m) printf "%s: after/before per round, median %.2f [%.2f..%.2f] over %d rounds\n",
		q, x[q, int((m[q] + 1) / 2)], x[q, 1], x[q, m[q]], m[q] }'
# together, the first program on the hook pays misses the second rides
# on: each build's median per position too
if [ "${TOGETHER:-0}" = 1 ]; then awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	print f["prog"], f["build"], f["pos"], f["ns"] }' "$TMP/raw" | sort -k1,3 -k4,4n |
	awk '{ k = $1 " " $2 " first-on-hook=" ($3 == 1 ? "yes" : "no"); x[k, ++m[k]] = $4 }
	END { for (k in m) printf "%s: median %d ns [%d..%d] over %d rounds\n", k, x[k, int((m[k] + 1) / 2)], x[k, 1], x[k, m[k]], m[k] }' | sort
fi
