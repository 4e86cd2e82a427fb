#!/usr/bin/env bash
# make bench, reclaim part 2 (called by tests/bench/reclaim.sh): the seed's
# R19 / S0 run scaled down (spec/seed_reclaim.md §3.2): runs
# tests/bench/vm/r19_bench.sh in the 4-node VM (four arms x RUNS runs, the
# workload is described there) and prints the §3.2 columns side by side,
# mean +- sd per arm, and each agent arm's change of the means against no
# agent beside the seed's before -> patched deltas. A report, never
# pass/fail. Output also in build/bench/reclaim_r19.txt.
#   usage: tests/bench/reclaim_r19.sh
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
OUT=$B/bench; mkdir -p "$OUT"
[ "${REPORT_ONLY:-0}" = 1 ] || NL_VM_TESTS_DIR=tests/bench/vm bash tests/vm/run.sh r19_bench > "$OUT/reclaim_r19_vm.log" 2>&1
res=$B/test-logs/vm/r19_bench.out
grep -q '^R19 ' "$res" 2>/dev/null || { echo "S0 bench: no results (see $OUT/reclaim_r19_vm.log, $res)"; exit 0; }
{
echo "Reclaim (the seed's S0 run scaled: 100 MiB of anon + file cache unevenly on 4 nodes in a 64M memcg, repeated passes, zram swap, ext2 disk, 4-node TCG guest)"
grep -E '^lru_gen|^layout|^numa_stat' "$res"
grep '^R19 ' "$res" | awk -v keys="elapsed_ms majfault reclaim_ns events_max scan_anon scan_file agent_pageout pageout_n2 agent_memcg agent_pages refault_anon refault_file" \
	-f tests/bench/arm_stats.awk -f /dev/fd/3 3<<'AWK'
END {
  printf "%-8s %4s %15s %15s %16s %14s %10s %12s %16s\n", "arm", "runs", "elapsed_s", "major_faults", "reclaim_s(limit)", "events.max", "anon_scan%", "agent_pages", "refaults anon/file"
  split("none rr lottery lotbug", arms, " ")
  for (j = 1; j <= 4; j++) { a = arms[j]; if (!n[a]) continue
    sh = (s[a, 5] + s[a, 6]) ? 100 * s[a, 5] / (s[a, 5] + s[a, 6]) : 0
    printf "%-8s %4d %6.2f +- %5.2f %7.0f +- %5.0f %7.2f +- %5.2f %7.0f +- %4.0f %9.1f%% %12.0f %8.0f/%-8.0f\n", a, n[a],
      mean(a, 1) / 1000, sd(a, 1) / 1000, mean(a, 2), sd(a, 2), mean(a, 3) / 1e9, sd(a, 3) / 1e9,
      mean(a, 4), sd(a, 4), sh, mean(a, 10), mean(a, 11), mean(a, 12) }
  if (!n["none"]) exit
  printf "paired difference against no agent (mean +- sd over the runs, %% of no agent); the seed's S0 build (2011), before -> patched: elapsed -7..-13%%, major faults -42..-66%%, reclaim time -44..-49%%:\n"
  for (j = 2; j <= 4; j++) { a = arms[j]; if (!pn(a)) continue
    printf "  %-8s elapsed %+6.2f +- %4.2f s (%+6.1f%%)  major faults %+6.0f +- %5.0f (%+6.1f%%)  reclaim time %+6.2f +- %4.2f s (%+6.1f%%)  events.max %+6.1f%%\n", a,
      pmean(a, 1) / 1000, psd(a, 1) / 1000, ppct(a, 1), pmean(a, 2), psd(a, 2), ppct(a, 2),
      pmean(a, 3) / 1e9, psd(a, 3) / 1e9, ppct(a, 3), ppct(a, 4)
    verdict(a, 2, "major faults"); verdict(a, 3, "limit-reclaim time"); verdict(a, 1, "elapsed time")
    if (pmean(a, 2) > 0) printf "%s has more major faults than no agent: %+.0f per run\n", a, pmean(a, 2)
    if (pmean(a, 3) > 0) printf "%s spends more time in limit reclaim than no agent: %+.2f s per run\n", a, pmean(a, 3) / 1e9
    if (pmean(a, 1) > psd(a, 1) && pmean(a, 1) > 0) printf "%s is slower than no agent: %+.2f s per run\n", a, pmean(a, 1) / 1000
  }
  vs("lottery", "rr")
}
# vs(a, b): arm a minus arm b over the runs that have both (paired within a
# run), for major faults, limit-reclaim time and agent pages
function vs(a, b,   r, c, k, d, m, t, kk, mm, ms) {
  split("2 3 10", kk, " ")
  c = 0; for (r = 1; r <= maxrun; r++) if (have[a, r] && have[b, r]) c++
  if (!c) return
  printf "%s against %s (paired, %d runs):", a, b, c
  for (k = 1; k <= 3; k++) {
    m = 0; t = 0
    for (r = 1; r <= maxrun; r++) if (have[a, r] && have[b, r]) m += val[a, r, kk[k]] - val[b, r, kk[k]]
    m /= c
    for (r = 1; r <= maxrun; r++) if (have[a, r] && have[b, r]) { d = val[a, r, kk[k]] - val[b, r, kk[k]] - m; t += d * d }
    t = sqrt(t / c)
    if (k == 1) { mm = m; ms = t }
    if (kk[k] == 3) printf " reclaim time %+.2f +- %.2f s;", m / 1e9, t / 1e9
    else printf " %s %+.0f +- %.0f%s", kk[k] == 2 ? "major faults" : "agent pages", m, t, k < 3 ? ";" : ""
  }
  printf " (major faults %s, %s one sd)\n", (mm < 0 ? "fewer" : "not fewer"), ((mm < 0 ? -mm : mm) > ms ? "beyond" : "within")
}
AWK
echo "anon_scan%: scanned_anon / scanned by limit reclaim (vmscan); agent_pages: the agent's own count (numa_stat drops over its steps); refaults: evicted pages that came back (memory.stat workingset_refault_anon/file)"
echo "(raw runs: $res)"
} | tee "$OUT/reclaim_r19.txt"
