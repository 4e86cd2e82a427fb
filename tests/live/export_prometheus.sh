# A real Prometheus (Debian's package) scrapes numalens export every second
# on loopback; its HTTP API must show up == 1, the CPU seconds and pages of
# a workload we ran in a known cgroup, and a histogram_quantile over the
# locality histogram within [0, 1]. NUMA balancing is turned on for the run
# (and restored) so the histogram can fill; if it stays empty the test says
# so and checks the histogram's shape instead.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
command -v prometheus >/dev/null || skip "prometheus is not found ('sudo make test-deps' unpacks it into build/test-tools)"
root=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_root)
[ -d "$root" ] || fail "cgroup root '$root' does not exist"
CG=export-prom-$$
nb_old=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo)
cleanup_hook() {
	[ -n "${PROM_PID:-}" ] && kill "$PROM_PID" && wait "$PROM_PID"
	[ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"
	[ -n "$nb_old" ] && echo "$nb_old" > /proc/sys/kernel/numa_balancing
	rmdir "$root/$CG" 2>/dev/null
}
mkdir "$root/$CG" || fail "cannot create cgroup $root/$CG"
[ -n "$nb_old" ] && echo 1 > /proc/sys/kernel/numa_balancing

eport=$(free_port) || fail "no free port"
start_export "$eport" --delay 1 --cgroup-pattern "/$CG" --cgroup-grace 120
pport=$(free_port) || fail "no free port"
while [ "$pport" = "$eport" ]; do pport=$(free_port); done
cat > "$TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: numalens-export-test
    static_configs:
      - targets: ['127.0.0.1:$eport']
YML
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$pport" > "$TMP/prom.log" 2>&1 &
PROM_PID=$!
P=http://127.0.0.1:$pport

# query PROMQL: print the first result's value ("" if none)
query() {
	curl -s --get --data-urlencode "query=$1" "$P/api/v1/query" > "$TMP/q.json" || return 0
	local v
	v=$("$JQ" "$TMP/q.json" 'data.result[0].value[1]')
	[ "$v" = missing ] || echo "$v"
}
# wait_for PROMQL AWK_COND SECONDS: poll until the value satisfies COND (v)
wait_for() {
	local i v
	for i in $(seq 1 "$3"); do
		v=$(query "$1")
		[ -n "$v" ] && awk -v v="$v" "BEGIN { exit !($2) }" && { echo "$v"; return 0; }
		kill -0 "$PROM_PID" 2>/dev/null || fail "prometheus exited: $(tail -3 "$TMP/prom.log")"
		sleep 1
	done
	echo "${v:-none}"
	return 1
}

up=$(wait_for 'up{job="numalens-export-test"}' 'v == 1' 60) ||
	fail "up != 1 after 60 s (saw $up): $(tail -3 "$TMP/prom.log")"
note "up == 1"

# the workload: 2 s of spinning and 64 MiB of anonymous memory in $CG;
# bash's time gives the CPU time it really got on this shared host
TIMEFORMAT='%U %S'
{ time sh -c "echo \$\$ > '$root/$CG/cgroup.procs' && exec '$WORK' --anon 64 --spin 2" > "$TMP/work.out"; } 2> "$TMP/work.time" ||
	fail "nlwork failed: $(cat "$TMP/work.out")"
cpu=$(awk '{ print $1 + $2 }' "$TMP/work.time")
pages=$(( 64 * 1024 * 1024 / $(getconf PAGESIZE) ))
note "workload: cpu ${cpu}s, $pages pages touched"

# its CPU seconds, summed over nodes, within 10 % (+0.1 s) of what it got
lo=$(awk -v c="$cpu" 'BEGIN { print c * 0.9 - 0.1 }')
hi=$(awk -v c="$cpu" 'BEGIN { print c * 1.1 + 0.1 }')
# why_short: the exporter's own view of the cgroup and its losses, so a
# shortfall says whether the BPF side dropped or the collector evicted
why_short() {
	local alive=exited
	kill -0 "$EXPORT_PID" 2>/dev/null && alive="pid $EXPORT_PID alive"
	echo -n "$alive; /metrics HTTP $(curl -s -o /dev/null -w '%{http_code}' -m 10 "http://127.0.0.1:$eport/metrics"); "
	curl -s -m 10 "http://127.0.0.1:$eport/metrics" |
		grep -E "^numalens_(cgroup_cpu_seconds_total\{cgroup=\"/$CG\"|map_drops_total|evicted_)" | tr '\n' ';'
	echo -n " healthz: $(curl -s -m 10 "http://127.0.0.1:$eport/healthz" | head -c 200);"
	echo -n " prometheus target: $(curl -s -m 10 "$P/api/v1/targets" | grep -o '"lastError":"[^"]*"\|"health":"[^"]*"\|"lastScrapeDuration":[0-9.e-]*' | tr '\n' ' ')"
	echo -n " export stderr: $(tail -c 300 "$TMP/export.err" | tr '\n' ' ')"
}
got=$(wait_for "sum(numalens_cgroup_cpu_seconds_total{cgroup=\"/$CG\"})" "v >= $lo" 30) ||
	fail "cpu seconds of /$CG in Prometheus: $got, want >= $lo (workload got ${cpu}s); exporter: $(why_short)"
awk -v v="$got" -v h="$hi" 'BEGIN { exit !(v <= h) }' || fail "cpu seconds of /$CG: $got > $hi"
note "Prometheus: sum(numalens_cgroup_cpu_seconds_total{cgroup=\"/$CG\"}) = $got (want $lo..$hi)"
# its allocations: at least 90 % of the pages it touched, in bytes
want=$(( pages * $(getconf PAGESIZE) * 9 / 10 ))
got=$(wait_for "sum(numalens_cgroup_allocated_bytes_total{cgroup=\"/$CG\"})" "v >= $want" 30) ||
	fail "allocated bytes of /$CG: $got, want >= $want"
note "Prometheus: allocated bytes of /$CG = $got (>= $want)"

# locality: histogram_quantile over the cumulative histogram of the host
q='histogram_quantile(0.5, sum by (le) (numalens_cgroup_fault_locality_ratio_bucket{cgroup="/"}))'
cnt=$(query 'numalens_cgroup_fault_locality_ratio_count{cgroup="/"}')
if awk -v c="${cnt:-0}" 'BEGIN { exit !(c > 0) }'; then
	v=$(wait_for "$q" 'v >= 0 && v <= 1' 20) || fail "$q = $v, not in [0, 1]"
	note "Prometheus: $q = $v over ${cnt} CPU-seconds"
else
	note "locality histogram empty here (count ${cnt:-none}: no NUMA hinting faults on this host); checking its shape"
	n=$(curl -s --get --data-urlencode 'query=count(numalens_cgroup_fault_locality_ratio_bucket{cgroup="/"})' \
		"$P/api/v1/query" | "$JQ" - 'data.result[0].value[1]')
	[ "$n" = 9 ] || fail "locality histogram of / has $n buckets in Prometheus, want 9 (8 + +Inf)"
	v=$(query "$q")
	[ "$v" = NaN ] || fail "$q on an empty histogram = $v, want NaN (unavailable, never 0)"
	note "Prometheus: 9 buckets, $q = NaN"
fi
exit 0
