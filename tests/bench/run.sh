#!/usr/bin/env bash
# make bench: numalens' own cost, as a report (never pass/fail).
#  1. tests/bench/cost.sh: ns/event of numalens' BPF programs against empty
#     programs on the same tracepoints and a bpftrace one-liner (all
#     attached at once); slowdown of a page-fault and a context-switch
#     workload for none / numalens top / numalens export / bpftrace, arms
#     rotating, paired per run; own CPU of `numalens top` against procps
#     top; export's render time, scrape latency and peak RSS. One table
#     with the goals, and a MISSED line per goal not met.
#     Then (startup_cost.sh) the CPU time of top's and export's start-up.
#  2. (export.sh) export at 2,000 cgroups x 4 nodes in more detail.
#  3. scx_cling in the VM; then the reclaim agent's own reports.
#  4. the opt-in views' cost per run on the host (optin_cost.sh) and seed
#     004's shapes in the VM, numalens beside numastat (alloc_seed.sh).
# Output: on stdout and in build/bench/report.txt (raw records of 1 in
# build/bench/cost.raw). RUNS (default 7) sets the rounds of 1.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
export PATH="$PWD/$B/test-tools/bin:$PATH"	# promtool (scripts/test-tools.sh)
OUT=$B/bench; mkdir -p "$OUT"
REPORT=$OUT/report.txt
[ "$(id -u)" = 0 ] || { echo "bench: needs root (BPF)" >&2; exit 1; }

{
echo "numalens bench  $(date -u +%FT%TZ)  kernel $(uname -r)  cpus $(nproc)"
echo
bash tests/bench/cost.sh
echo
RUNS=${STARTUP_RUNS:-7} bash tests/bench/startup_cost.sh
echo
bash tests/bench/export.sh

# 4. scx_cling in the 4-node guest: its own boot, its own table.
if [ "${BENCH_CLING:-1}" = 1 ]; then
	echo
	echo "3. scx_cling vs the default scheduler (4-node TCG guest, 4 cgroups x 3 memory-walking threads on 8 CPUs)"
	if NL_VM_TESTS_DIR=tests/bench/vm bash tests/vm/run.sh cling_bench > "$OUT/cling_vm.log" 2>&1 ||
	   grep -q '^BENCH' "$B/test-logs/vm/cling_bench.out" 2>/dev/null; then
		bash tests/bench/cling_report.sh "$B/test-logs/vm/cling_bench.out"
	else
		echo "(the VM run failed: see $OUT/cling_vm.log)"
	fi
fi

echo
echo "4. opt-in views of numalens top"
bash tests/bench/optin_cost.sh
if [ "${BENCH_SEED:-1}" = 1 ]; then
	echo
	bash tests/bench/alloc_seed.sh
fi
} | tee "$REPORT"
echo "bench: report written to $REPORT"

# The reclaim agent in the VM (the seed's dd | tail and S0 runs scaled; own reports, build/bench/reclaim.txt, reclaim_r19.txt).
bash tests/bench/reclaim.sh
