#!/usr/bin/env bash
# make bench-seeds, seed 004 part: tests/bench/vm/seed_cost_bench.sh in a
# 2-node guest whose memory costs by distance (the numa_cost plugin), then
# per shape and arm mean +- sd over the rounds, and the paired differences
# per round (fair -> local: the seed's comparison; remote -> local: its
# bound) beside the seed's own figures. A report, never pass/fail; run it
# on a quiet host (the guest's vCPU threads share the host's CPUs, and a
# TCG guest's CPU time is the host's wall time while the vCPU runs).
#   usage: tests/bench/seed_cost.sh   (env: RUNS, WALK, B;
#          REPORT_ONLY=1: the table of the last run)
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
OUT=$B/bench; mkdir -p "$OUT"
RUNS=${RUNS:-5} WALK=${WALK:-4}
if [ "${REPORT_ONLY:-0}" != 1 ]; then
	echo "== seed 004's throughput runs on the costed 2-node guest ($RUNS rounds; $(date -u +%FT%TZ))" >&2
	NL_VM_NUMA_COST=on NL_VM_TESTS_DIR=tests/bench/vm NL_VM_GUEST_ENV="RUNS=$RUNS,WALK=$WALK" \
		bash tests/vm/run.sh seed_cost_bench > "$OUT/seed_cost_vm.log" 2>&1
fi
res=$B/test-logs/vm/seed_cost_bench.out
grep -q '^SEEDCOST ' "$res" 2>/dev/null || { echo "seed cost bench: no results (see $OUT/seed_cost_vm.log, $res)"; exit 0; }
echo "Seed 004's throughput runs on the costed machine: 2 nodes x 2 CPUs, distance 20, a cache-line miss"
echo "500 ns local / 1,000 ns remote (2 MiB 16-way cache per vCPU), multi-threaded TCG, THP never"
grep '^seed cost bench:' "$res"
grep '^SEEDCOST ' "$res" | awk -f /dev/fd/3 3<<'AWK'
function field(k,   i, kv) {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] }
	return ""
}
{
	s = field("shape"); a = field("arm"); r = field("run") + 0; v = field("rate") + 0
	if (!((s, a) in n)) { if (!(s in seen)) { seen[s] = 1; order[++ns] = s } }
	n[s, a]++; t[s, a] += v; q[s, a] += v * v; val[s, a, r] = v; have[s, a, r] = 1
	if (r > maxrun) maxrun = r
}
function mean(s, a) { return n[s, a] ? t[s, a] / n[s, a] : 0 }
function sd(s, a,   m, x) { m = mean(s, a); x = n[s, a] ? q[s, a] / n[s, a] - m * m : 0; return sqrt(x > 0 ? x : 0) }
# paired: (b - a) / a per round, in percent
function cmp(s, a, b, seed,   r, c, d, tt, t2, m, x, sdv, verdict) {
	c = 0; tt = 0; t2 = 0
	for (r = 1; r <= maxrun; r++) if (have[s, a, r] && have[s, b, r] && val[s, a, r] > 0) {
		d = 100 * (val[s, b, r] - val[s, a, r]) / val[s, a, r]; c++; tt += d; t2 += d * d }
	if (!c) return
	m = tt / c; x = t2 / c - m * m; sdv = sqrt(x > 0 ? x : 0)
	verdict = (sdv >= (m < 0 ? -m : m)) ? "within one sd" : (m > 0 ? "beyond one sd" : "WORSE, beyond one sd")
	printf "  %-8s %-16s %+7.1f%% +- %5.1f (%d paired rounds, %s)   seed: %s\n", s, a " -> " b, m, sdv, c, verdict, seed
}
END {
	unit["pft1"] = "faults/cpu-s"; unit["pft2"] = "faults/cpu-s"; unit["stream"] = "pages/cpu-s"
	printf "%-8s %-14s %-22s %-22s %-22s\n", "shape", "unit", "local", "fair (21% remote)", "remote"
	for (i = 1; i <= ns; i++) { s = order[i]
		printf "%-8s %-14s %-22s %-22s %-22s\n", s, unit[s],
			sprintf("%.0f +- %.0f", mean(s, "local"), sd(s, "local")),
			sprintf("%.0f +- %.0f", mean(s, "fair"), sd(s, "fair")),
			sprintf("%.0f +- %.0f", mean(s, "remote"), sd(s, "remote")) }
	print "\npaired, per round (second arm against the first):"
	cmp("pft1", "fair", "local", "Faults/cpu +10.27% (1 client; local-v2r6 against vanilla 3.13-rc3)")
	cmp("pft2", "fair", "local", "Faults/cpu +10.28% (2 clients)")
	cmp("stream", "fair", "local", "STREAM local +3.6% (Copy) .. +9.2% (Triad)")
	cmp("pft1", "remote", "local", "(no seed figure: every page remote)")
	cmp("pft2", "remote", "local", "(no seed figure)")
	cmp("stream", "remote", "local", "(no seed figure)")
}
AWK
echo "(raw runs: $res)"
