# NUMA balancing seen by numalens. A 2-thread nlwork
# first-touches 64 MiB on node 3 (MPOL_BIND, from node 3's CPU), then resets
# its memory policy to default, moves to node 1's CPU and keeps rewriting its
# pages. Two threads, because the kernel never re-scans pages already on the
# node of a single-threaded process, so such a task's fault locality never
# gets a local sample.
#  on  (kernel.numa_balancing=1): the kernel migrates the pages to node 1
#      (>= 90% counted as migrate.numa_misplaced_ok), and the process's
#      locality moves from the low buckets (0-3) into the high ones (6-7):
#      an interval with mostly low-bucket time comes before one with >= 90%
#      high-bucket time;
#  off (kernel.numa_balancing=0): the same task's locality is unavailable
#      ("available": false, "mean": null), nothing migrates, pages stay on 3.
# The scanner is made quicker for the test (debugfs scan_delay_ms=100,
# scan_period_min_ms=200; defaults 1000/1000).
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
echo never > /sys/kernel/mm/transparent_hugepage/enabled
D=/sys/kernel/debug/sched/numa_balancing
echo 100 > $D/scan_delay_ms && echo 200 > $D/scan_period_min_ms || nl_fail "cannot tune $D"
cpu1=$(nl_first_cpu_of_node 1); cpu3=$(nl_first_cpu_of_node 3)
PAGES=$((64 * 256))

# start_work SECONDS OUT: the moving task, walking for SECONDS; sets PID.
start_work() {
	nlwork --cpu "$cpu3" --node 3 --anon 64 --threads 2 --after-cpu "$cpu1" \
		--after-default --walk "$1" > "$2.work" 2>&1 &
	PID=$!
}

# --- on ------------------------------------------------------------------
echo 1 > /proc/sys/kernel/numa_balancing
J=/tmp/on.jsonl
# Half-second intervals: with the quickened scanner the remote phase lasts
# about one scan period, and a 2 s interval let the local time after the
# migration outweigh it.
nl_top $J 0.5 40
start_work 16 $J
wait $PID || nl_fail "nlwork failed: $(cat $J.work)"
nl_top_wait $J
[ "$(nljq -L $J sources.numa_balancing)" = true ] || nl_fail "sources.numa_balancing with the sysctl at 1: expected true, saw $(nljq -L $J sources.numa_balancing)"
nljq $J seq "processes[pid=$PID].locality.buckets_ns" "processes[pid=$PID].locality.mean" \
	"processes[pid=$PID].migrate.numa_misplaced_ok" "processes[pid=$PID].rss_pages_by_node"
moved=$(nl_sum $J "processes[pid=$PID].migrate.numa_misplaced_ok")
nl_expect "pages migrated by NUMA balancing (numa_misplaced_ok, of $PAGES)" "$moved" -ge $((PAGES * 9 / 10))
# Per interval: low = share of locality time in buckets 0-3, high = 6-7.
nljq $J seq "processes[pid=$PID].locality.buckets_ns" | awk -F'\t' '
	$2 !~ /^\[/ { next }
	{ split(substr($2, 2, length($2) - 2), b, ",")
	  lo = b[1] + b[2] + b[3] + b[4]; hi = b[7] + b[8]; t = lo + hi + b[5] + b[6]
	  if (t == 0) next
	  if (!first_low && lo / t >= 0.5) first_low = $1
	  if (!first_high && hi / t >= 0.9) first_high = $1 }
	END { printf "%d %d\n", first_low, first_high }' > /tmp/on.order
read -r first_low first_high < /tmp/on.order
echo "first interval (seq) mostly in buckets 0-3: $first_low; first with >= 90% in 6-7: $first_high (0: none)"
[ "${first_low:-0}" -gt 0 ] || nl_fail "locality: expected an interval with >= 50% of its time in buckets 0-3 (memory remote), saw none"
[ "${first_high:-0}" -gt 0 ] || nl_fail "locality: expected an interval with >= 90% of its time in buckets 6-7 after migration, saw none"
nl_expect "interval of high locality comes after the low one" "$first_high" -gt "$first_low"
# the most seen: the interval the task exits in reads its numa_maps empty
last_rss=$(nljq $J "processes[pid=$PID].rss_pages_by_node.1" | grep -v 'null\|missing' | sort -n | tail -1)
nl_expect "pages on node 1 after migration (rss_pages_by_node, most seen, of $PAGES)" "$last_rss" -ge $((PAGES * 9 / 10))

# --- off -----------------------------------------------------------------
echo 0 > /proc/sys/kernel/numa_balancing
J=/tmp/off.jsonl
nl_top $J 1 8
start_work 5 $J
wait $PID || nl_fail "nlwork failed: $(cat $J.work)"
nl_top_wait $J
[ "$(nljq -L $J sources.numa_balancing)" = false ] || nl_fail "sources.numa_balancing with the sysctl at 0: expected false, saw $(nljq -L $J sources.numa_balancing)"
nljq $J seq "processes[pid=$PID].locality"
seen=$(nljq $J "processes[pid=$PID].locality.available" | grep -c 'true\|false')
nl_expect "intervals showing the task" "$seen" -ge 3
avail=$(nljq $J "processes[pid=$PID].locality.available" | grep -c true)
nl_expect "intervals with locality available while balancing is off" "$avail" -eq 0
means=$(nljq $J "processes[pid=$PID].locality.mean" | grep -v missing | grep -vc null)
nl_expect "intervals with a non-null locality mean while balancing is off" "$means" -eq 0
moved=$(nl_sum $J "processes[pid=$PID].migrate.numa_misplaced_ok")
[ "$moved" = null ] || nl_expect "pages migrated with balancing off" "$moved" -eq 0
last_rss=$(nljq $J "processes[pid=$PID].rss_pages_by_node.3" | grep -v 'null\|missing' | sort -n | tail -1)
nl_expect "pages still on node 3 with balancing off (of $PAGES)" "$last_rss" -ge $((PAGES * 9 / 10))
echo "numa_balancing ok"
