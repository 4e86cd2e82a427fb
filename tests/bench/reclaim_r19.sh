#!/usr/bin/env bash
# make bench, reclaim part 2 (called by tests/bench/reclaim.sh): the seed's
# R19 / S0 run scaled down (spec/seed_reclaim.md §3.2): runs
# tests/bench/vm/r19_bench.sh in the 4-node VM (three arms x 3 runs, the
# workload is described there) and prints the §3.2 columns side by side,
# mean +- sd per arm, and each agent arm's change of the means against no
# agent beside the seed's before -> patched deltas. A report, never
# pass/fail. Output also in build/bench/reclaim_r19.txt.
#   usage: tests/bench/reclaim_r19.sh
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
OUT=$B/bench; mkdir -p "$OUT"
NL_VM_TESTS_DIR=tests/bench/vm bash tests/vm/run.sh r19_bench > "$OUT/reclaim_r19_vm.log" 2>&1
res=$B/test-logs/vm/r19_bench.out
grep -q '^R19 ' "$res" 2>/dev/null || { echo "S0 bench: no results (see $OUT/reclaim_r19_vm.log, $res)"; exit 0; }
{
echo "Reclaim (the seed's S0 run scaled: 100 MiB of anon + file cache unevenly on 4 nodes in a 64M memcg, repeated passes, zram swap, ext2 disk, 4-node TCG guest)"
grep -E '^lru_gen|^layout|^numa_stat' "$res"
grep '^R19 ' "$res" | awk -v keys="elapsed_ms majfault reclaim_ns events_max scan_anon scan_file agent_pageout pageout_n2 agent_memcg" \
	-f tests/bench/arm_stats.awk -f /dev/fd/3 3<<'AWK'
END {
  printf "%-9s %4s %15s %15s %16s %14s %10s %13s %9s %11s\n", "arm", "runs", "elapsed_s", "major_faults", "reclaim_s(limit)", "events.max", "anon_scan%", "agent_pageout", "of_it_N2", "agent_memcg"
  split("none rr lottery", arms, " ")
  for (j = 1; j <= 3; j++) { a = arms[j]; if (!n[a]) continue
    sh = (s[a, 5] + s[a, 6]) ? 100 * s[a, 5] / (s[a, 5] + s[a, 6]) : 0
    n2 = s[a, 7] ? 100 * s[a, 8] / s[a, 7] : 0
    printf "%-9s %4d %6.2f +- %5.2f %7.0f +- %5.0f %7.2f +- %5.2f %7.0f +- %4.0f %9.1f%% %13.0f %8.1f%% %11.0f\n", a, n[a],
      mean(a, 1) / 1000, sd(a, 1) / 1000, mean(a, 2), sd(a, 2), mean(a, 3) / 1e9, sd(a, 3) / 1e9,
      mean(a, 4), sd(a, 4), sh, mean(a, 7), n2, mean(a, 9) }
  if (!n["none"]) exit
  printf "change of the means against no agent (the seed's S0 figures, before -> patched: elapsed -7..-13%%, major faults -42..-66%%, reclaim time -44..-49%%):\n"
  for (j = 2; j <= 3; j++) { a = arms[j]; if (!n[a]) continue
    printf "  %-8s elapsed %+6.1f%%  major faults %+6.1f%%  reclaim time %+6.1f%%  memory.events max %+6.1f%%\n", a,
      pct(mean(a, 1), mean("none", 1)), pct(mean(a, 2), mean("none", 2)), pct(mean(a, 3), mean("none", 3)),
      pct(mean(a, 4), mean("none", 4)) }
}
AWK
echo "anon_scan%: scanned_anon / scanned by limit reclaim (vmscan); agent_pageout: pages the agent's MADV_PAGEOUT"
echo "freed (vmscan, mean per run), of_it_N2: the share on node 2 (hot anon only, no file); agent_memcg: memory.reclaim fallback"
echo "(raw runs: $res)"
} | tee "$OUT/reclaim_r19.txt"
