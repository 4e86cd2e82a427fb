#!/usr/bin/env bash
# make bench, reclaim part: runs tests/bench/vm/reclaim_bench.sh in the
# 4-node VM (three arms x RUNS runs, see that file) and prints the seed's
# columns side by side, mean +- sd per arm. A report, never pass/fail.
# Then R19 (tests/bench/reclaim_r19.sh, build/bench/reclaim_r19.txt).
#   usage: tests/bench/reclaim.sh   (3 runs per arm, 128 MiB: set in the guest script)
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
OUT=$B/bench; mkdir -p "$OUT"
NL_VM_TESTS_DIR=tests/bench/vm bash tests/vm/run.sh reclaim_bench > "$OUT/reclaim_vm.log" 2>&1
res=$B/test-logs/vm/reclaim_bench.out
# R19 (S0 scaled: anon + file cache on uneven nodes), its own VM run and table
bash tests/bench/reclaim_r19.sh
grep -q '^RUN ' "$res" 2>/dev/null || { echo "reclaim bench: no results (see $OUT/reclaim_vm.log, $res)"; exit 0; }
{
echo "Reclaim (the seed's dd | tail run scaled: dd bs=1M count=128 | tail in a 16M memcg, zram swap, 4-node TCG guest)"
grep -E '^node |^lru_gen' "$res"
grep '^RUN ' "$res" | awk -v keys="elapsed_ms majfault stall_us events_max scan_anon scan_file agent_pages" \
	-f tests/bench/arm_stats.awk -f /dev/fd/3 3<<'AWK'
END {
  printf "%-9s %4s %16s %14s %16s %14s %10s %12s\n", "arm", "runs", "elapsed_s", "major_faults", "stall_s(PSI)", "events.max", "anon_scan%", "agent_pages"
  split("none rr lottery", arms, " ")
  for (j = 1; j <= 3; j++) { a = arms[j]; if (!n[a]) continue
    sh = (s[a, 5] + s[a, 6]) ? 100 * s[a, 5] / (s[a, 5] + s[a, 6]) : 0
    printf "%-9s %4d %7.2f +- %5.2f %7.0f +- %4.0f %7.2f +- %5.2f %7.0f +- %4.0f %9.1f%% %12.0f\n", a, n[a],
      mean(a, 1) / 1000, sd(a, 1) / 1000, mean(a, 2), sd(a, 2), mean(a, 3) / 1e6, sd(a, 3) / 1e6,
      mean(a, 4), sd(a, 4), sh, mean(a, 7) }
}
AWK
echo "(raw runs: $res)"
} | tee "$OUT/reclaim.txt"
