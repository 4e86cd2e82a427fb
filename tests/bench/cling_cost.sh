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
#          what each is); ROUNDS default 5; WALK seconds per arm, default 10;
#          (seed8-1 .. seed16-3: seed 003's table, summed up at the end);
#          ARMS underscore-separated (default default_cling_fifo);
#          NOBAL=1 (default) adds the default scheduler with NUMA balancing
#          off as an arm; NL_VM_EXTRA_BINS=DIR/scx_cling_before adds that
#          build of scx_cling as the arm "before"
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}; OUT=$B/bench; mkdir -p "$OUT"
LOADS=${LOADS:-groups wake split cpuonly small} ROUNDS=${ROUNDS:-5} WALK=${WALK:-10} NOBAL=${NOBAL:-1}
ARMS=${ARMS:-default_cling_fifo}
# snapshots BASE LOG PID: while PID runs, copy BASE.cost (the plugin's
# counts, rewritten every second) to LOG.snap.ARM.start|end as soon as the
# guest's output BASE.out says "BENCHMARK arm_start|arm_end ARM": each
# arm's misses, to within the second the counts are written in.
snapshots() {
	local seen=0 n line
	while kill -0 "$3" 2>/dev/null; do
		n=$(grep -c '^BENCHMARK arm_' "$1.out" 2>/dev/null); n=${n:-0}
		while [ "$seen" -lt "$n" ]; do
			seen=$((seen + 1))
			line=$(grep '^BENCHMARK arm_' "$1.out" | sed -n "${seen}p" | tr -d '\r')
			set -- "$1" "$2" "$3" $line
			cp "$1.cost" "$2.snap.$6.${5#arm_}" 2>/dev/null
			set -- "$1" "$2" "$3"
		done
		sleep 0.2
	done
}

# plugin_table LOG: per arm, from the snapshots: the remote share of all
# vCPUs' cache-line misses during the arm and the seconds of memory
# latency charged (summed over vCPUs), mean +- sd over the rounds.
plugin_table() {
	local f a
	for f in "$1".snap.*.start; do
		[ -f "$f" ] || continue
		a=${f#"$1".snap.}; a=${a%.start}
		[ -f "$1.snap.$a.end" ] || continue
		awk -v arm="$a" '
			FNR == 1 { k++ }
			$1 == "vcpu" { for (i = 3; i < NF; i += 2) v[k, $i] += $(i + 1) }
			END { l = v[2, "local_miss"] - v[1, "local_miss"]; r = v[2, "remote_miss"] - v[1, "remote_miss"]
			      c = v[2, "charged_ns"] - v[1, "charged_ns"]
			      sub(/[0-9]+$/, "", arm)
			      printf "PLUGIN %s %.4f %.2f\n", arm, r / (l + r + 1), c / 1e9 }' "$f" "$1.snap.$a.end"
	done | awk '
		{ n[$2]++; s[$2] += $3; q[$2] += $3 * $3; c[$2] += $4; cq[$2] += $4 * $4 }
		END { print "the costed machine'"'"'s own counts per arm (all vCPUs, snapshots at the arm'"'"'s start and end):"
		      for (a in n) { m = s[a] / n[a]; mc = c[a] / n[a]
			printf "  %-8s %d runs: remote share of cache-line misses %.4f +- %.4f, memory latency charged %.1f +- %.1f s\n",
				a, n[a], m, sqrt(q[a] / n[a] - m * m > 0 ? q[a] / n[a] - m * m : 0), mc, sqrt(cq[a] / n[a] - mc * mc > 0 ? cq[a] / n[a] - mc * mc : 0) } }'
}

for load in $LOADS; do
	echo "== scx_cling on the costed 4-node guest, load $load ($ROUNDS rounds, ${WALK} s walks; $(date -u +%FT%TZ))"
	log=$OUT/cling_cost_$load
	# the last load's output and counts must not be read as this one's
	rm -f "$log".snap.* "$B/test-logs/vm/cling_bench.out" "$B/test-logs/vm/cling_bench.cost"
	NL_VM_NUMA_COST=on NL_VM_GUEST_ENV="LOAD=$load,ROUNDS=$ROUNDS,WALK=$WALK,NOBAL=$NOBAL,ARMS=$ARMS" NL_VM_TESTS_DIR=tests/bench/vm \
		bash tests/vm/run.sh -j 1 cling_bench > "$log.run" 2>&1 &
	vm=$!
	snapshots "$B/test-logs/vm/cling_bench" "$log" "$vm"
	if wait $vm || grep -q '^BENCH arm' "$B/test-logs/vm/cling_bench.out" 2>/dev/null; then
		cp "$B/test-logs/vm/cling_bench.out" "$log.out"
		cp "$B/test-logs/vm/cling_bench.cost" "$log.cost" 2>/dev/null
		NL_BENCH_COSTED=1 bash tests/bench/cling_report.sh "$log.out" | tee "$log.txt"
		plugin_table "$log" | tee -a "$log.txt"
	else
		echo "(the VM run failed: see $log.run)"
		tail -5 "$log.run"
	fi
done

# seed 003's table: each seed load's paired work (scx_cling against the
# default scheduler) beside the seed's own row (v4/v5 of its cover letter)
seed_table() {
	local load f w v s e
	echo "== seed 003's table on the costed machine (scx_cling against the default scheduler, paired per round)"
	printf '%-10s %-26s %-48s %s\n' load "seed's shape" "work (pages walked)" "seed (avg eps, v4/v5)"
	for load in $LOADS; do
		case $load in seed*) ;; *) continue ;; esac
		f=$OUT/cling_cost_$load.txt
		w=$(grep -m1 '^paired (scx_cling - default,' "$f" 2>/dev/null | sed -n 's/.*work \([^ ]*\) +- \([^ ]*\) pages (\([^)]*\)).*/\3 (+- \2 pages)/p')
		v=$(grep -m1 '^scx_cling did' "$f" 2>/dev/null | grep -o '[a-z]* one sd' | head -1)
		case $load in
		seed8-1) s="4 instances x 24 threads"; e="+4.83%" ;; seed8-2) s="4 instances x 48 threads"; e="+6.34%" ;;
		seed8-3) s="4 instances x 72 threads"; e="+5.17%" ;; seed16-1) s="8 instances x 24 threads"; e="+2.06%" ;;
		seed16-2) s="8 instances x 48 threads"; e="+3.10%" ;; seed16-3) s="8 instances x 72 threads"; e="+2.63%" ;;
		esac
		printf '%-10s %-26s %-48s %s\n' "$load" "$s" "${w:-no result}${v:+, $v}" "$e"
	done
}
case " $LOADS " in *" seed"*) seed_table | tee "$OUT/cling_cost_seed_table.txt" ;; esac
