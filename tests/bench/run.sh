#!/usr/bin/env bash
# make bench: numalens' own cost, as a report (never pass/fail).
#  1. Per BPF program: run count and ns per event, from the kernel's BPF
#     run-time stats (numalens enables them with BPF_ENABLE_STATS while it
#     runs), under a page-fault-heavy and a context-switch-heavy load.
#  2. Slowdown of a page-fault-heavy workload (nlwork touching anon memory
#     in base pages) with numalens attached against the same workload
#     without it, runs interleaved in one session, median of each arm.
# Targets on the 2-core dev machine: <= 150 ns/event for sched_switch and
# mm_page_alloc, <= 3% slowdown. Output: a table on stdout and in
# build/bench/report.txt.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
export PATH="$PWD/$B/test-tools/bin:$PATH"	# promtool (scripts/test-tools.sh)
NL=$B/numalens; WORK=$B/tests/nlwork; JQ=$B/vm/nljq
OUT=$B/bench; mkdir -p "$OUT"
REPORT=$OUT/report.txt
RUNS=${RUNS:-5}
[ "$(id -u)" = 0 ] || { echo "bench: needs root (BPF)" >&2; exit 1; }
for f in "$NL" "$WORK" "$JQ"; do [ -x "$f" ] || { echo "bench: $f missing: run make" >&2; exit 1; }; done
THP=/sys/kernel/mm/transparent_hugepage/enabled
old_thp=$(sed 's/.*\[\(.*\)\].*/\1/' $THP 2>/dev/null || echo "")
[ -n "$old_thp" ] && echo never > $THP
trap '[ -n "$old_thp" ] && echo "$old_thp" > $THP; kill $NLPID 2>/dev/null' EXIT
NLPID=

workload() { "$WORK" --cpu 0 --anon 256 --repeat 4 > /dev/null; }
elapsed() { local s e; s=$(date +%s%N); "$@"; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }

{
echo "numalens bench  $(date -u +%FT%TZ)  kernel $(uname -r)  cpus $(nproc)"
echo
echo "1. BPF cost per event (kernel BPF run-time stats; THP off, 256 MiB x4 anon touch, then 3 s of stress-ng --switch)"
"$NL" top --json -d 6 -n 1 > "$OUT/stats.jsonl" 2>/dev/null &
NLPID=$!
sleep 1
workload
# context switches in steady state: stress-ng's switch stressor
stress-ng --switch 1 -t 3 > /dev/null 2>&1 || echo "(stress-ng missing: no switch load)"
wait $NLPID; NLPID=
printf '%-24s %14s %16s %12s\n' PROGRAM RUN_CNT RUN_TIME_NS NS/EVENT
"$JQ" -L "$OUT/stats.jsonl" self.progs | tr '{' '\n' | sed -n 's/.*"name":"\([^"]*\)","run_cnt_total":\([0-9]*\),"run_time_ns_total":\([0-9]*\).*/\1 \2 \3/p' |
	while read -r name cnt ns; do
		per=$(awk -v n="$ns" -v c="$cnt" 'BEGIN { if (c) printf "%.1f", n / c; else print "-" }')
		printf '%-24s %14s %16s %12s\n' "$name" "$cnt" "$ns" "$per"
	done
echo
echo "2. Slowdown of a page-fault-heavy workload (nlwork --anon 256 --repeat 4, base pages), $RUNS runs per arm, interleaved"
base=(); with=()
for i in $(seq 1 "$RUNS"); do
	base+=("$(elapsed workload)")
	"$NL" top --json -d 60 -n 1 > /dev/null 2>&1 &
	NLPID=$!
	sleep 1	# attached
	with+=("$(elapsed workload)")
	kill -INT $NLPID; wait $NLPID 2>/dev/null; NLPID=
done
med() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mb=$(med "${base[@]}"); mw=$(med "${with[@]}")
printf '%-28s %s\n' "without numalens (us):" "${base[*]}"
printf '%-28s %s\n' "with numalens (us):" "${with[*]}"
awk -v b="$mb" -v w="$mw" 'BEGIN { printf "median %d us -> %d us: ratio %.3f (%+.1f%%)\n", b, w, w / b, (w / b - 1) * 100 }'
echo
bash tests/bench/export.sh

# 4. scx_cling in the 4-node guest: its own boot, its own table.
if [ "${BENCH_CLING:-1}" = 1 ]; then
	echo
	echo "4. scx_cling vs the default scheduler (4-node TCG guest, 4 cgroups x 3 memory-walking threads on 8 CPUs)"
	if NL_VM_TESTS_DIR=tests/bench/vm bash tests/vm/run.sh cling_bench > "$OUT/cling_vm.log" 2>&1 ||
	   grep -q '^BENCH' "$B/test-logs/vm/cling_bench.out" 2>/dev/null; then
		printf '%-10s %6s %16s %12s\n' ARM ROUND WORK_PAGES HOME_SHARE
		sed -n 's/^BENCH arm=\([^ ]*\) round=\([^ ]*\) work_pages=\([^ ]*\) home_share=\([^ ]*\).*/\1 \2 \3 \4/p' \
			"$B/test-logs/vm/cling_bench.out" | while read -r a r w h; do
			printf '%-10s %6s %16s %12s\n' "$a" "$r" "$w" "$h"
		done
		awk '/^BENCH/ { split($2, a, "="); split($4, w, "="); s[a[2]] += w[2] }
		     END { if (s["default"]) printf "scx_cling work / default: %.3f (%+.1f%%)\n", s["cling"] / s["default"], (s["cling"] / s["default"] - 1) * 100 }' \
			"$B/test-logs/vm/cling_bench.out"
	else
		echo "(the VM run failed: see $OUT/cling_vm.log)"
	fi
fi
} | tee "$REPORT"
echo "bench: report written to $REPORT"

# The reclaim agent in the VM (the seed's dd | tail and S0 runs scaled; own reports, build/bench/reclaim.txt, reclaim_r19.txt).
bash tests/bench/reclaim.sh
