#!/usr/bin/env bash
# make bench, reclaim part: runs tests/bench/vm/reclaim_bench.sh in the
# 4-node VM (four arms x RUNS runs, interleaved, see that file) and prints
# the seed's columns side by side, mean +- sd per arm, the paired
# difference against no agent, the seed's own figures and a plain line for
# every arm worse than no agent. A report, never pass/fail.
# Then R19 (tests/bench/reclaim_r19.sh, build/bench/reclaim_r19.txt).
#   usage: tests/bench/reclaim.sh   (10 runs per arm, MIB=128: the guest scripts' defaults; five runs could not tell a difference below ~15% apart from the guest's noise)
#   REPORT_ONLY=1: print the tables from the last runs' results without
#   running the guests again (e.g. after running both in parallel:
#   NL_VM_TESTS_DIR=tests/bench/vm tests/vm/run.sh -j 2 reclaim_bench r19_bench)
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
OUT=$B/bench; mkdir -p "$OUT"
[ "${REPORT_ONLY:-0}" = 1 ] || NL_VM_TESTS_DIR=tests/bench/vm bash tests/vm/run.sh reclaim_bench > "$OUT/reclaim_vm.log" 2>&1
res=$B/test-logs/vm/reclaim_bench.out
# R19 (S0 scaled: anon + file cache on uneven nodes), its own VM run and table
bash tests/bench/reclaim_r19.sh
grep -q '^RUN ' "$res" 2>/dev/null || { echo "reclaim bench: no results (see $OUT/reclaim_vm.log, $res)"; exit 0; }
{
echo "Reclaim (seed 001's dd | tail scaled: dd bs=1M count=128 | tail in a 16M memcg, zram swap, 4-node TCG guest)"
grep -E '^node |^lru_gen|^(rr|lottery|lotbug): ' "$res"
grep '^RUN ' "$res" | awk -v keys="elapsed_ms majfault stall_us events_max scan_anon scan_file agent_pages hook_events hook_steps lat_p50_us lat_p99_us agent_cpu_ms" \
	-f tests/bench/arm_stats.awk -f /dev/fd/3 3<<'AWK'
END {
  printf "%-8s %4s %16s %7s %14s %16s %14s %10s %11s %12s %17s %12s\n", "arm", "runs", "elapsed_s", "median", "major_faults", "stall_s(PSI)", "events.max", "anon_scan%", "agent_pages", "hook_ev/steps", "hook_lat_ms p50/p99", "agent_cpu_s"
  split("none rr lottery lotbug", arms, " ")
  for (j = 1; j <= 4; j++) { a = arms[j]; if (!n[a]) continue
    sh = (s[a, 5] + s[a, 6]) ? 100 * s[a, 5] / (s[a, 5] + s[a, 6]) : 0
    printf "%-8s %4d %7.2f +- %5.2f %7.2f %7.0f +- %4.0f %7.2f +- %5.2f %7.0f +- %4.0f %9.1f%% %11.0f %6.0f/%-6.0f %8.1f/%-8.1f %12.2f\n", a, n[a],
      mean(a, 1) / 1000, sd(a, 1) / 1000, median(a, 1) / 1000, mean(a, 2), sd(a, 2), mean(a, 3) / 1e6, sd(a, 3) / 1e6,
      mean(a, 4), sd(a, 4), sh, mean(a, 7), mean(a, 8), mean(a, 9), mean(a, 10) / 1000, mean(a, 11) / 1000, mean(a, 12) / 1000 }
  if (!n["none"]) exit
  printf "paired difference against no agent (mean +- sd over the runs, and as %% of no agent):\n"
  for (j = 2; j <= 4; j++) { a = arms[j]; if (!pn(a)) continue
    printf "  %-8s elapsed %+6.2f +- %4.2f s (%+6.1f%%)  major faults %+7.0f +- %5.0f (%+6.1f%%)  memory.events max %+6.0f +- %4.0f (%+6.1f%%)\n", a,
      pmean(a, 1) / 1000, psd(a, 1) / 1000, ppct(a, 1), pmean(a, 2), psd(a, 2), ppct(a, 2), pmean(a, 4), psd(a, 4), ppct(a, 4) }
  printf "(lotbug reclaims nothing here, so its elapsed difference is the co-tenant noise of this host)\n"
  printf "seed 001 (2007, 300 MiB, v1 memcg, 3 runs): tail elapsed 93.0 -> 50.0 s (-46%%), dd 15.97 -> 6.24 s, failcnt 8804 -> 1589 (-82%%), tail major faults 20320 -> 21957 (+8%%)\n"
  target_lines(1, 4, 2, "has more major faults than no agent", "major faults")
}
AWK
echo "(lotbug: the lottery with the seed's inverted anon test, --anon-rule code; raw runs: $res)"
grep -q '^BUILD ' "$res" && {
echo
echo "Reclaim, second load (build-like, file-backed: a hot set of headers re-read while a cold source stream is read once, 16M memcg, ext4 virtio disk; same arms and runs, interleaved with the one above)"
grep -E '^build load' "$res"
grep '^BUILD ' "$res" | awk -v keys="elapsed_ms refault_file events_max stall_us agent_pages hook_events hook_steps guard_pauses agent_cpu_ms standby_s" \
	-f tests/bench/arm_stats.awk -f /dev/fd/3 3<<'AWK'
END {
  printf "%-8s %4s %16s %7s %18s %14s %16s %11s %12s %7s %11s %9s\n", "arm", "runs", "elapsed_s", "median", "hot refaults", "events.max", "stall_s(PSI)", "agent_pages", "hook_ev/steps", "guarded", "agent_cpu_s", "standby_s"
  split("none rr lottery lotbug", arms, " ")
  for (j = 1; j <= 4; j++) { a = arms[j]; if (!n[a]) continue
    printf "%-8s %4d %7.2f +- %5.2f %7.2f %8.0f +- %6.0f %7.0f +- %4.0f %7.2f +- %5.2f %11.0f %6.0f/%-6.0f %7.1f %11.2f %9.1f\n", a, n[a],
      mean(a, 1) / 1000, sd(a, 1) / 1000, median(a, 1) / 1000, mean(a, 2), sd(a, 2), mean(a, 3), sd(a, 3),
      mean(a, 4) / 1e6, sd(a, 4) / 1e6, mean(a, 5), mean(a, 6), mean(a, 7), mean(a, 8), mean(a, 9) / 1000, mean(a, 10) }
  if (!n["none"]) exit
  printf "paired difference against no agent (mean +- sd over the runs, and as %% of no agent):\n"
  for (j = 2; j <= 4; j++) { a = arms[j]; if (!pn(a)) continue
    printf "  %-8s elapsed %+6.2f +- %4.2f s (%+6.1f%%)  refaults %+7.0f +- %5.0f (%+6.1f%%)  memory.events max %+6.0f +- %4.0f (%+6.1f%%)\n", a,
      pmean(a, 1) / 1000, psd(a, 1) / 1000, ppct(a, 1), pmean(a, 2), psd(a, 2), ppct(a, 2), pmean(a, 3), psd(a, 3), ppct(a, 3) }
  target_lines(1, 3, 2, "makes the hot set come back from disk more than no agent (refaulted pages)", "hot refaults")
  for (j = 2; j <= 4; j++) { a = arms[j]; if (!pn(a)) continue
    verdict(a, 4, "PSI stall")
    if (pmean(a, 4) > psd(a, 4) && pmean(a, 4) > 0) printf "%s makes the load wait on memory longer than no agent: %+.2f s per run\n", a, pmean(a, 4) / 1e6 }
}
AWK
}
} | tee "$OUT/reclaim.txt"
