# Locality honesty under sched_ext. Tasks on a sched_ext scheduler take no
# NUMA hinting faults (the scanner runs from the fair class's tick), so
# their fault counters freeze at whatever they were. A 2-thread nlwork
# first-touches 64 MiB on node 1, then runs on node 0's CPUs and keeps
# rewriting its pages with NUMA balancing on (quickened scanner):
#  - default scheduler: numalens bins its CPU time by fault locality (some
#    interval shows it available, with bucket time > 0);
#  - scx_cling attached while it runs: once the faults already armed are
#    taken, its counters stop moving, and numalens reports its locality
#    unavailable ("unavailable_reason": "sched_ext", sources.sched_ext
#    true) with 0 ns in every bucket, while it keeps running. Without the
#    check, the frozen counters kept its time landing in the old buckets.
# vm: nodes=2 cpus_per_node=2 mem_per_node=512M timeout=300
. /nl/lib.sh
nl_need_numalens
[ -x /nl/bin/scx_cling ] || nl_fail "scx_cling missing in the guest"
echo never > /sys/kernel/mm/transparent_hugepage/enabled
D=/sys/kernel/debug/sched/numa_balancing
echo 100 > $D/scan_delay_ms && echo 200 > $D/scan_period_min_ms || nl_fail "cannot tune $D"
echo 1 > /proc/sys/kernel/numa_balancing
cpu1=$(nl_first_cpu_of_node 1)
J=/tmp/loc.jsonl
nl_top $J 1 100000
nlwork --cpu "$cpu1" --node 1 --anon 64 --threads 2 --after-cpu "$(nl_cpus_of_node 0)" \
	--after-default --walk 240 > /tmp/work.out 2>&1 &
PID=$!
# Default scheduler: wait for an interval that bins the task's time.
i=0
until nljq $J "processes[pid=$PID].locality.available" | grep -q true; do
	i=$((i + 1)); [ $i -le 600 ] || nl_fail "no interval with the task's locality available under the default scheduler in 120 s"
	kill -0 $PID 2>/dev/null || nl_fail "nlwork exited early: $(cat /tmp/work.out)"
	sleep 0.2
done
echo "default scheduler: locality available in $(nljq $J "processes[pid=$PID].locality.available" | grep -c true) interval(s)"
scx_cling --ready-file /tmp/cling.ready > /tmp/cling.out 2> /tmp/cling.err &
loader=$!
nl_wait_file /tmp/cling.ready 120
attach_seq=$(nljq -L $J seq)
# Twelve intervals under scx_cling.
nl_top_stop $J 12
kill -0 $PID 2>/dev/null || nl_fail "nlwork exited before the end of the window: $(cat /tmp/work.out)"
kill -TERM $loader; wait $loader || nl_fail "scx_cling exit $?: $(tail -1 /tmp/cling.err)"
kill $PID 2>/dev/null; wait $PID 2>/dev/null
# seq, sched_ext, the task's run_ns, bucket sum, available, reason
nljq $J seq sources.sched_ext "processes[pid=$PID].run_ns" "processes[pid=$PID].locality.buckets_ns" \
	"processes[pid=$PID].locality.available" "processes[pid=$PID].locality.unavailable_reason" |
	awk -F'\t' '{ b = $4; gsub(/[][]/, "", b); n = split(b, v, ","); s = 0
		for (k = 1; k <= n; k++) s += v[k]
		print $1, $2, $3, s, $5, $6 }' > /tmp/rows
cat /tmp/rows
# The intervals after scx_cling attached may still bin faults armed
# before (and slices gathered before, folded late) until the task has
# taken them all: two or three on a quiet host, five beside a busy CI
# one. Judge every interval from the first that calls its locality
# unavailable, which must come within eight.
first=$(awk -v a="$attach_seq" '$1 > a && $6 == "sched_ext" { print $1; exit }' /tmp/rows)
[ -n "$first" ] || nl_fail "no interval under scx_cling called the task's locality unavailable"
nl_expect "intervals from attaching to the first that calls locality unavailable" "$((first - attach_seq))" -le 8
awk -v f="$first" '$1 >= f' /tmp/rows > /tmp/after
rows=$(wc -l < /tmp/after)
nl_expect "intervals judged under scx_cling" "$rows" -ge 4
ran=$(awk '$3 + 0 > 0' /tmp/after | wc -l)
nl_expect "of them, intervals in which the task ran" "$ran" -ge 4
obs=$(awk '{ s += $4 } END { print s + 0 }' /tmp/after)
nl_expect "locality histogram time of the task under scx_cling (ns)" "$obs" -eq 0
avail=$(awk '$5 == "true"' /tmp/after | wc -l)
nl_expect "intervals with its locality available under scx_cling" "$avail" -eq 0
src=$(awk '$2 != "true"' /tmp/after | wc -l)
nl_expect "of them, intervals without sources.sched_ext true" "$src" -eq 0
why=$(awk '$3 + 0 > 0 && $6 != "sched_ext"' /tmp/after | wc -l)
nl_expect "intervals whose unavailable_reason is not sched_ext" "$why" -eq 0
echo "cling_locality ok"
