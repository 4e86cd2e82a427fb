#!/usr/bin/env bash
# The scx_cling bench table from the guest's "BENCH arm=default|cling|fifo|before
# run=R work_pages=W home_share=H remote_share=S" lines (tests/bench/vm/
# cling_bench.sh): per arm mean +- sd over the runs, the paired difference
# of scx_cling against the default scheduler (same round, same boot), a
# plain verdict on throughput, a WORSE line for a home share or remote
# share worse beyond one sd, and the seed's own figures beside ours.
# With the guest's node distances (the BENCHDIST line) and each run's
# matrix of walked pages (CPU node x page node), also a MODEL of the memory
# cost: sum over the cells of pages x distance / 10 (a local access = 1),
# in total and per page walked. Under TCG remote memory costs no more than
# local, so the model is what the placement would cost on a machine whose
# latencies scale with the SLIT, never a measurement.
#   usage: tests/bench/cling_report.sh FILE
set -u
f=${1:?usage: cling_report.sh FILE}
here=$(dirname "$0")
# with_model: the BENCH lines with model_cost= and model_per_page= added
# (-1 when the run has no matrix or the output no distances)
with_model() {
	awk '
	FNR == NR { if ($1 == "BENCHDIST") for (i = 2; i <= NF; i++) {
			split($i, kv, "="); c = substr(kv[1], 5) + 0; nd = split(kv[2], d, ",")
			for (j = 1; j <= nd; j++) dist[c, j - 1] = d[j]
			ndist++ }
		next }
	/^BENCH arm=/ {
		cost = 0; pages = 0; ok = ndist > 0; m = ""
		for (i = 2; i <= NF; i++) if (substr($i, 1, 7) == "matrix=") m = substr($i, 8)
		if (m == "" || m == "-") ok = 0
		r = split(m, row, "/")
		for (c = 0; ok && c < r; c++) {
			nc = split(row[c + 1], v, ",")
			for (p = 0; p < nc; p++) {
				if (v[p + 1] == 0) continue
				if (!((c, p) in dist)) { ok = 0; break }
				cost += v[p + 1] * dist[c, p] / 10; pages += v[p + 1]
			}
		}
		if (ok && pages > 0) printf "%s model_cost=%.0f model_per_page=%.4f\n", $0, cost, cost / pages
		else printf "%s model_cost=-1 model_per_page=-1\n", $0
	}' "$f" "$f"
}
with_model | sed 's/arm=default/arm=none/' |
awk -v keys="work_pages home_share remote_share model_cost model_per_page work_per_cpu_s cpu_only_s" -f "$here/arm_stats.awk" -f /dev/fd/3 3<<'AWK'
function model_row(a, label) {
	if (!n[a]) return
	if (mean(a, 5) < 0) { printf "%-18s (no matrix in this output: nlwork without walked_matrix)\n", label; return }
	printf "%-18s %5d %14.0f +- %7.0f %8.4f +- %6.4f\n", label, n[a], mean(a, 4), sd(a, 4), mean(a, 5), sd(a, 5)
}
END {
	if (!n["none"] || !n["cling"]) { print "(no paired runs in the bench output)"; exit }
	printf "%-18s %5s %24s %16s %16s\n", "arm", "runs", "work (pages walked)", "home CPU share", "remote accesses"
	printf "%-18s %5d %14.0f +- %7.0f %8.3f +- %5.3f %8.3f +- %5.3f\n", "default scheduler", n["none"],
	       mean("none", 1), sd("none", 1), mean("none", 2), sd("none", 2), mean("none", 3), sd("none", 3)
	printf "%-18s %5d %14.0f +- %7.0f %8.3f +- %5.3f %8.3f +- %5.3f\n", "scx_cling --all", n["cling"],
	       mean("cling", 1), sd("cling", 1), mean("cling", 2), sd("cling", 2), mean("cling", 3), sd("cling", 3)
	if (n["fifo"])
		printf "%-18s %5d %14.0f +- %7.0f %8.3f +- %5.3f %8.3f +- %5.3f\n", "sched_ext FIFO", n["fifo"],
		       mean("fifo", 1), sd("fifo", 1), mean("fifo", 2), sd("fifo", 2), mean("fifo", 3), sd("fifo", 3)
	if (n["nobal"])
		printf "%-18s %5d %14.0f +- %7.0f %8.3f +- %5.3f %8.3f +- %5.3f\n", "default, no NUMA bal", n["nobal"],
		       mean("nobal", 1), sd("nobal", 1), mean("nobal", 2), sd("nobal", 2), mean("nobal", 3), sd("nobal", 3)
	if (n["before"])
		printf "%-18s %5d %14.0f +- %7.0f %8.3f +- %5.3f %8.3f +- %5.3f\n", "scx_cling before", n["before"],
		       mean("before", 1), sd("before", 1), mean("before", 2), sd("before", 2), mean("before", 3), sd("before", 3)
	printf "paired (scx_cling - default, %d rounds): work %+.0f +- %.0f pages (%+.2f%%), home share %+.3f +- %.3f, remote share %+.3f +- %.3f\n",
	       pn("cling"), pmean("cling", 1), psd("cling", 1), ppct("cling", 1),
	       pmean("cling", 2), psd("cling", 2), pmean("cling", 3), psd("cling", 3)
	if (n["fifo"])
		printf "paired (sched_ext FIFO - default, %d rounds): work %+.0f +- %.0f pages (%+.2f%%), home share %+.3f +- %.3f, remote share %+.3f +- %.3f\n",
		       pn("fifo"), pmean("fifo", 1), psd("fifo", 1), ppct("fifo", 1),
		       pmean("fifo", 2), psd("fifo", 2), pmean("fifo", 3), psd("fifo", 3)
	if (n["nobal"])
		printf "paired (default without NUMA balancing - default, %d rounds): work %+.0f +- %.0f pages (%+.2f%%), work per CPU-second %+.2f%%\n",
		       pn("nobal"), pmean("nobal", 1), psd("nobal", 1), ppct("nobal", 1), ppct("nobal", 6)
	if (n["before"])
		printf "paired (scx_cling before - default, %d rounds): work %+.0f +- %.0f pages (%+.2f%%), home share %+.3f +- %.3f, remote share %+.3f +- %.3f\n",
		       pn("before"), pmean("before", 1), psd("before", 1), ppct("before", 1),
		       pmean("before", 2), psd("before", 2), pmean("before", 3), psd("before", 3)
	if (pmean("cling", 1) < -psd("cling", 1))
		printf "WORSE: scx_cling did less work than the default scheduler (%+.2f%%, beyond one sd of the paired difference)\n", ppct("cling", 1)
	else if (pmean("cling", 1) < 0)
		printf "scx_cling did slightly less work than the default scheduler (%+.2f%%), within one sd: no measurable gain\n", ppct("cling", 1)
	else if (pmean("cling", 1) > psd("cling", 1))
		printf "scx_cling did more work than the default scheduler (%+.2f%%, beyond one sd)\n", ppct("cling", 1)
	else
		printf "scx_cling did about as much work as the default scheduler (%+.2f%%, within one sd)\n", ppct("cling", 1)
	if (mean("none", 6) > 0) {
		printf "work per CPU-second of the walks (pages): default %.0f +- %.0f, scx_cling %.0f +- %.0f", mean("none", 6), sd("none", 6), mean("cling", 6), sd("cling", 6)
		if (n["fifo"]) printf ", sched_ext FIFO %.0f +- %.0f", mean("fifo", 6), sd("fifo", 6)
		printf "\npaired (scx_cling - default, %d rounds): work per CPU-second %+.0f +- %.0f (%+.2f%%)\n", pn("cling"), pmean("cling", 6), psd("cling", 6), ppct("cling", 6)
		if (n["fifo"])
			printf "paired (sched_ext FIFO - default, %d rounds): work per CPU-second %+.0f +- %.0f (%+.2f%%)\n", pn("fifo"), pmean("fifo", 6), psd("fifo", 6), ppct("fifo", 6)
	}
	if (mean("none", 7) > 0 || mean("cling", 7) > 0)
		printf "CPU-only group, CPU seconds it got: default %.2f +- %.2f, scx_cling %.2f +- %.2f (paired %+.2f%%)\n", mean("none", 7), sd("none", 7), mean("cling", 7), sd("cling", 7), ppct("cling", 7)
	# the goals: >= 10% more work than the default scheduler beyond one sd
	# where cling is meant to help, and no load worse than -3%
	if (ppct("cling", 1) >= 10 && pmean("cling", 1) > psd("cling", 1))
		printf "GOAL met: scx_cling did %+.2f%% work (>= +10%%, beyond one sd)\n", ppct("cling", 1)
	else if (ppct("cling", 1) < -3)
		printf "GOAL missed: scx_cling did %+.2f%% work, worse than the -3%% floor\n", ppct("cling", 1)
	else
		printf "GOAL: scx_cling did %+.2f%% work (not the +10%% beyond one sd that a load cling is for should show; not below -3%%)\n", ppct("cling", 1)
	if (pmean("cling", 2) < -psd("cling", 2))
		printf "WORSE: scx_cling ran less of the work on its home node than the default scheduler (%+.3f, beyond one sd)\n", pmean("cling", 2)
	else if (pmean("cling", 2) > psd("cling", 2))
		printf "scx_cling ran more of the work on its home node than the default scheduler (%+.3f, beyond one sd)\n", pmean("cling", 2)
	if (pmean("cling", 3) > psd("cling", 3))
		printf "WORSE: more of scx_cling's accesses were remote than under the default scheduler (%+.3f, beyond one sd): without NUMA hinting faults under sched_ext, balancing never moves pages after the tasks\n", pmean("cling", 3)
	else if (pmean("cling", 3) < -psd("cling", 3))
		printf "fewer of scx_cling's accesses were remote than under the default scheduler (%+.3f, beyond one sd)\n", pmean("cling", 3)
	if (ENVIRON["NL_BENCH_COSTED"] == "1")
		print "MODEL memory cost (on the costed machine the work above is the measurement; this is the same model for comparison): walked pages x node distance / 10, local = 1"
	else
		print "MODEL memory cost (not measured: TCG gives remote memory no extra latency): walked pages x node distance / 10, local = 1"
	if (mean("none", 5) < 0)
		print "  not available: this bench output has no walked-page matrix or no node distances (an older bench)"
	else {
		printf "%-18s %5s %24s %18s\n", "arm", "runs", "modelled cost (total)", "per page walked"
		model_row("none", "default scheduler"); model_row("cling", "scx_cling --all")
		model_row("fifo", "sched_ext FIFO"); model_row("before", "scx_cling before")
	}
	if (mean("none", 5) >= 0 && mean("cling", 5) >= 0) {
		printf "MODEL paired (scx_cling - default, %d rounds): cost per page walked %+.4f +- %.4f (%+.2f%%), total %+.0f +- %.0f\n",
		       pn("cling"), pmean("cling", 5), psd("cling", 5), ppct("cling", 5), pmean("cling", 4), psd("cling", 4)
		if (pmean("cling", 5) > psd("cling", 5))
			printf "MODEL: WORSE: scx_cling's pages cost more per access than the default scheduler's (beyond one sd)\n"
		else if (pmean("cling", 5) < -psd("cling", 5))
			printf "MODEL: scx_cling's pages cost less per access than the default scheduler's (beyond one sd)\n"
		else
			printf "MODEL: scx_cling's cost per access is within one sd of the default scheduler's\n"
	}
	print "seed's cling table (2 nodes, CPU and memory shares per group; no distances given), as the same MODEL at distance 20:"
	print "  without cling, each group 60/40 on CPU and memory: remote 0.6x0.4 + 0.4x0.6 = 0.48 if independent, cost 1.48 per access;"
	print "  cling without pause: ng_A, ng_B 1.00, ng_C, ng_D 40/60 CPU on 10/90 memory, 0.42 remote, 1.42: 1.21 over the four;"
	print "  cling + pause (its goal), every group 100% on its node: 1.00."
	print "seed (2-node, 96 CPUs, sysbench oltp_read_write on X mysqld in X cgroups, 20 min, avg eps; v4/v5):"
	print "  4 inst: +4.83% / +6.34% / +5.17% (24/48/72 threads); 8 inst: +2.06% / +3.10% / +2.63%;"
	print "  v1-v3: +0.67% to +6.19%. The seed gives no locality or remote-access figures."
}
AWK
# scx_cling against the default scheduler with NUMA balancing off, same
# round: the default arm pays for NUMA balancing, sched_ext tasks never do
if grep -q '^BENCH arm=nobal' "$f"; then
	grep -E '^BENCH arm=(nobal|cling) ' "$f" | sed 's/arm=nobal/arm=none/' |
	awk -v keys="work_pages home_share remote_share" -f "$here/arm_stats.awk" -f /dev/fd/3 3<<'AWK'
END {
	if (!pn("cling")) exit
	printf "paired (scx_cling - default without NUMA balancing, %d rounds): work %+.0f +- %.0f pages (%+.2f%%), remote share %+.3f +- %.3f\n",
	       pn("cling"), pmean("cling", 1), psd("cling", 1), ppct("cling", 1), pmean("cling", 3), psd("cling", 3)
	if (pmean("cling", 1) < -psd("cling", 1))
		printf "WORSE: scx_cling did less work than the default scheduler without NUMA balancing (%+.2f%%, beyond one sd)\n", ppct("cling", 1)
	else
		printf "scx_cling did %s work than the default scheduler without NUMA balancing (%+.2f%%, %s one sd)\n", pmean("cling", 1) < 0 ? "less" : "more", ppct("cling", 1), (pmean("cling", 1) > psd("cling", 1) || -pmean("cling", 1) > psd("cling", 1)) ? "beyond" : "within"
}
AWK
fi
# The policy's own share: scx_cling against sched_ext with no policy, same
# round (what sched_ext costs in this guest is then not counted against cling)
grep -q '^BENCH arm=fifo' "$f" || exit 0
grep -E '^BENCH arm=(fifo|cling) ' "$f" | sed 's/arm=fifo/arm=none/' |
awk -v keys="work_pages home_share remote_share" -f "$here/arm_stats.awk" -f /dev/fd/3 3<<'AWK'
END {
	if (!pn("cling")) exit
	printf "paired (scx_cling - sched_ext FIFO, %d rounds): work %+.0f +- %.0f pages (%+.2f%%), home share %+.3f +- %.3f, remote share %+.3f +- %.3f\n",
	       pn("cling"), pmean("cling", 1), psd("cling", 1), ppct("cling", 1),
	       pmean("cling", 2), psd("cling", 2), pmean("cling", 3), psd("cling", 3)
	if (pmean("cling", 1) < -psd("cling", 1))
		printf "WORSE: the cling policy did less work than sched_ext with no policy (%+.2f%%, beyond one sd): the policy's own cost\n", ppct("cling", 1)
	else
		printf "the cling policy did %s work than sched_ext with no policy (%+.2f%%, %s one sd)\n", pmean("cling", 1) < 0 ? "less" : "more", ppct("cling", 1), (pmean("cling", 1) > psd("cling", 1) || -pmean("cling", 1) > psd("cling", 1)) ? "beyond" : "within"
}
AWK
