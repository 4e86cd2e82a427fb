# scx_cling test 2 (issue 6), convergence: four NUMA-group cgroups, each
# with 2 CPU-bound threads whose memory was first touched on a distinct
# node (then unpinned, default policy). Under scx_cling each cgroup runs
# >= 90% of its CPU time on its home node, measured independently by
# numalens (cgroups[].run_ns_by_node). The same workload under the default
# scheduler, in the same run, is reported beside it (not asserted).
# The tools (numalens top, scx_cling's loader, this shell) run on a fifth
# node, CPUs 8-9, that the groups never use: under TCG numalens alone can
# take a CPU, and on a full node scx_cling rightly marks a group's home
# busy and stops clinging (cling_pause tests that), which is not what this
# test is about. The groups' threads may run on any CPU of nodes 0-3.
# A busy host can take part of a home node's CPUs away from its group (the
# kthreads and interrupts run somewhere, and under TCG a loaded host
# slows some vCPUs more than others); scx_cling then rightly lets the group
# run elsewhere rather than wait. So a group below 90% passes only if its
# off-home time is covered by what tasks outside the four groups ran on its
# home node (numalens' nodes[].bpf.run_ns) plus 10% of its run time, and
# never below 50%: a group homed wrongly, or not clinging at all, fails
# both.
# --wait-bound-us 100000 --steal-after-us 200000: under single-threaded
# TCG the vCPUs take turns in one host thread (a busy one may run up to
# QEMU's 100 ms round-robin kick before the next), and beside a host load
# that thread waits too, so a queued task can wait tens of ms of guest time
# while a CPU elsewhere idles: a failure by the scheduler's rule, though no
# CPU was contended. With a 10 ms bound a run beside `stress-ng --cpu 2` counted
# 2-6 such failures in 11-17 attempts per node, three of the four homes
# turned busy (ratios 23-35%, over the degree), clinging paused, and
# /cling_c1 ran 71% at home (pausing is cling_pause's test, not this one's).
# vm: nodes=5 cpus_per_node=2 mem_per_node=256M timeout=170 alone=1
. /nl/lib.sh
nl_need_numalens
taskset -p -c 8,9 $$ > /dev/null
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
WALK=14 MIB=24

# run_phase PREFIX: start the 4 groups' workloads, measure the walk with
# numalens top; prints "share_<n>=<fraction>" lines into /tmp/PREFIX.share.
run_phase() {
	local p=$1 n cpus J=/tmp/$1.jsonl pids='' first
	rm -f /tmp/$p.ready*
	# numalens first: its start-up (BPF load) must not land in the window.
	"$NUMALENS" top --json -d 1 -n $((WALK + 12)) > $J 2> $J.err &
	local top=$!
	while [ ! -s $J ]; do sleep 0.2; kill -0 $top 2>/dev/null || nl_fail "numalens top died: $(tail -1 $J.err)"; done
	for n in 0 1 2 3; do
		mkdir -p /sys/fs/cgroup/${p}$n
		cpus=$(nl_cpus_of_node $n)
		sh -c "echo \$\$ > /sys/fs/cgroup/${p}$n/cgroup.procs && exec nlwork --cpu $cpus --node $n --anon $MIB --threads 2 --after-cpu 0-7 --after-default --walk $WALK --ready-file /tmp/$p.ready$n" > /tmp/$p.work$n 2>&1 &
		pids="$pids $!"
	done
	for n in 0 1 2 3; do nl_wait_file /tmp/$p.ready$n 60; done
	# The window: from the first interval that ends after the walk started
	# to the last one that ends before it stops.
	first=$(( $(wc -l < $J) + 1 ))
	sleep $((WALK - 2))
	local last=$(wc -l < $J)
	kill -INT $top; wait $top
	echo "numalens: intervals $first..$last of $J"
	for n in $pids; do wait $n || nl_fail "nlwork ($p) failed: $(cat /tmp/$p.work* | grep -v '^nlwork pid' | head -1)"; done
	sed -n "$((first + 1)),${last}p" $J > $J.win
	# Deltas of the monotonic totals over the window: group g's run time,
	# then its run time on each node, from the window's first and last
	# intervals; and the CPU time on each node of everything (summed over
	# the window). Three nljq calls, not 104 (each parses the whole file
	# under TCG: seconds of this alone=1 guest); the arithmetic is
	# nl_calc's, rounded to 6 digits at the same steps.
	local paths='' g m
	for g in 0 1 2 3; do
		paths="$paths cgroups[path=/${p}$g].run_ns_total"
		for m in 0 1 2 3; do paths="$paths cgroups[path=/${p}$g].run_ns_total_by_node.$m"; done
	done
	{ nljq -l $first $J $paths; nljq -l $last $J $paths
	  nljq -s $J.win "nodes[nid=0].bpf.run_ns" "nodes[nid=1].bpf.run_ns" "nodes[nid=2].bpf.run_ns" "nodes[nid=3].bpf.run_ns"; } |
		awk -F'\t' 'function r(x) { return sprintf("%.6g", x) }
		NR == 1 { for (i = 1; i <= NF; i++) f[i] = $i; next }
		NR == 2 { for (i = 1; i <= NF; i++) l[i] = $i; next }
		NR == 3 {
			for (n = 0; n < 4; n++) {
				# field of group g: 5g+1 its total, 5g+2+m its time on node m
				all = r(l[5 * n + 1] - f[5 * n + 1]); own = r(l[5 * n + 2 + n] - f[5 * n + 2 + n])
				node = $(n + 1); groups = 0
				for (g = 0; g < 4; g++) groups = r(groups + l[5 * g + 2 + n] - f[5 * g + 2 + n])
				printf "share_%d=%s run_ns=%s home_ns=%s node_ns=%s outside_ns=%s\n", n, r(own / (all + 1)), all, own, node, r(node - groups)
			}
		}' >> /tmp/$p.share
}

scx_cling --group '/cling_c*' --wait-bound-us 100000 --steal-after-us 200000 --delay 5 --tasks --ready-file /tmp/cling.ready > /tmp/cling.out 2>&1 &
loader=$!
nl_wait_file /tmp/cling.ready 30
run_phase cling_c
kill -TERM $loader; wait $loader; rc=$?
grep -v '^[0-9]\{2,\} ' /tmp/cling.out | tail -40
[ $rc = 0 ] || nl_fail "scx_cling exit $rc: $(tail -2 /tmp/cling.out | tr '\n' ' ')"

# Default scheduler, same workload, fresh cgroups.
run_phase cling_d
echo "home-node share of CPU time per cgroup:"
echo "  scx_cling:         $(sed 's/ run_ns.*//' /tmp/cling_c.share | tr '\n' ' ')"
echo "  default scheduler: $(sed 's/ run_ns.*//' /tmp/cling_d.share | tr '\n' ' ')"
cat /tmp/cling_c.share /tmp/cling_d.share
# home_blocks N: checks every stats block of /cling_cN printed while its
# memory was there (>= 100 pages on node N; a block printed after the
# workload freed it shows a page or two anywhere) and prints "HOMED PAUSED"
# (how many showed home N, how many showed node N busy), or "bad: <why>".
# The home is node N unless N is busy for the group: the busy rule (a
# failure ratio over the degree on the busiest node) then skips it, and the
# home is the next node with at least 1/8 of the pages, here none (-1).
# Whether a home turns busy depends on how promptly the host runs the home
# node's vCPUs: a stalled vCPU leaves its queued task waiting past the
# bound while another node's CPU sits idle, and a quiet CI run once showed
# /cling_c0 busy (failure ratio 28-31%) in both of its blocks. A busy home
# may still read N for a moment: the group's home is recomputed at its next
# placement; a block before the group's first placement shows none (-1).
home_blocks() {
	grep "^group /cling_c$1 " /tmp/cling.out | grep " n$1\[pages=[0-9]\{3,\} " | awk -v n=$1 '
	bad { next }
	{
		home = ""; sum = 0; split("", pg); split("", busy)
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^home=/) home = substr($i, 6) + 0
			if ($i ~ /^n[0-9]+\[pages=/) {
				m = substr($i, 2, index($i, "[") - 2) + 0
				pg[m] = substr($i, index($i, "=") + 1) + 0; sum += pg[m]
				last = m
			}
			if ($i == "BUSY]") busy[last] = 1
		}
		for (m in pg) if (pg[m] > pg[n]) { bad = "node " m " holds more pages than node " n ": " $0; next }
		if (!(n in busy)) {
			# a block printed before any placement of the group since
			# the loader wrote its pages shows no home yet (-1): the
			# home is worked out at a placement; skipped while no
			# block has shown one
			if (home == -1 && !homed && !paused) { early++; next }
			if (home != n) { bad = "node " n " not busy, home " home ": " $0; next }
			homed++; next
		}
		alt = -1
		for (m in pg) if (m != n && !(m in busy) && pg[m] * 8 >= sum && (alt < 0 || pg[m] > pg[alt])) alt = m
		if (home != n && home != alt) { bad = "node " n " busy, home " home " (want " alt "): " $0; next }
		paused++
	}
	END {
		if (bad) print "bad: " bad
		else if (NR == 0) print "bad: no block while its memory was on node " n
		else if (!homed && !paused) print "bad: no block showed a home in " early " block(s)"
		else print homed + 0, paused + 0
	}'
}
homed_all=0
for n in 0 1 2 3; do
	r=$(home_blocks $n)
	case "$r" in bad*) nl_fail "group /cling_c$n: expected home node $n (its memory) unless busy; $r";; esac
	echo "/cling_c$n: home $n in ${r% *} blocks, node $n busy (cling paused) in ${r#* }"
	homed_all=$((homed_all + ${r% *}))
	line=$(grep "^share_$n=" /tmp/cling_c.share)
	v() { echo "$line" | sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }
	s=$(v share_$n)
	nl_expect "/cling_c$n CPU time on home node $n under scx_cling" "$s" -ge 0.50
	nl_cmp "$s" -ge 0.90 && continue
	off=$(nl_calc "$(v run_ns) - $(v home_ns)")
	nl_expect "/cling_c$n off-home CPU time (ns) at $s on home node, against outside load on node $n + 10% of its run time" \
		"$off" -le "$(nl_calc "$(v outside_ns) + 0.10 * $(v run_ns)")"
done
# Busy in every block of all four groups would leave the home rule untested.
nl_expect "stats blocks of the four groups showing their memory's node as home" "$homed_all" -gt 0
echo "cling_converge ok"
