#!/usr/bin/env bash
# scx_cling on the costed machine (make bench-cling; a report, never
# pass/fail): tests/bench/vm/cling_bench.sh in a 4-node guest whose memory
# costs by NUMA distance (the numa_cost plugin: a cache-line miss costs
# 500 ns x SLIT/10, multi-threaded TCG), once per load, arms default /
# scx_cling / sched_ext FIFO interleaved, ROUNDS paired rounds; then
# tests/bench/cling_report.sh's table per load. Run it on a quiet host: the
# guest's 8 vCPU threads share the host's CPUs, and anything else running
# takes their time.
#   usage: tests/bench/cling_cost.sh   (env: LOADS, ROUNDS, WALK, B)
#   LOADS  default "groups wake split cpuonly small" (cling_bench.sh says
#          what each is); ROUNDS default 5; WALK seconds per arm, default 10
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}; OUT=$B/bench; mkdir -p "$OUT"
LOADS=${LOADS:-groups wake split cpuonly small} ROUNDS=${ROUNDS:-5} WALK=${WALK:-10}
for load in $LOADS; do
	echo "== scx_cling on the costed 4-node guest, load $load ($ROUNDS rounds, ${WALK} s walks; $(date -u +%FT%TZ))"
	log=$OUT/cling_cost_$load
	if NL_VM_NUMA_COST=on NL_VM_GUEST_ENV="LOAD=$load,ROUNDS=$ROUNDS,WALK=$WALK" NL_VM_TESTS_DIR=tests/bench/vm \
		bash tests/vm/run.sh -j 1 cling_bench > "$log.run" 2>&1 ||
	   grep -q '^BENCH arm' "$B/test-logs/vm/cling_bench.out" 2>/dev/null; then
		cp "$B/test-logs/vm/cling_bench.out" "$log.out"
		cp "$B/test-logs/vm/cling_bench.cost" "$log.cost" 2>/dev/null
		NL_BENCH_COSTED=1 bash tests/bench/cling_report.sh "$log.out" | tee "$log.txt"
	else
		echo "(the VM run failed: see $log.run)"
		tail -5 "$log.run"
	fi
done
