# numalens top and export on nodes without CPUs and under CPU hotplug:
# node 0 has CPUs 0-1, node 1 CPU 2, node 2 only memory.
#  1. The memory-only node: top --json says nr_cpus 0 and cpu_busy_pct null
#     (never 0 or NaN) while the nodes with CPUs have a number; export has
#     numalens_node_cpus 0 and no busy sample for it.
#  2. CPU 2 offline: node 1 now has no online CPU. The second snapshot after
#     the write (the one in progress may have read /sys already: so within
#     one interval) shows node 1 with nr_cpus 0 and a null busy %, in top
#     and in export; CPU 2 online again: back to 1 CPU within one interval
#     and a number within two (a ratio needs two readings with the CPU).
# vm: cpus=2,1,0 mem=256M,256M,256M timeout=240
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
[ -z "$(nl_cpus_of_node 2)" ] || nl_fail "node 2 should have no CPU, has $(nl_cpus_of_node 2)"
[ "$(nl_cpus_of_node 1)" = 2 ] || nl_fail "node 1 CPUs: expected 2, saw '$(nl_cpus_of_node 1)'"
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
U=http://127.0.0.1:10075
J=/tmp/top.jsonl
nl_top $J 1 600
taskset -c 0 "$NUMALENS" export --listen 127.0.0.1:10075 --delay 1 > /tmp/export.err 2>&1 &
EPID=$!
nl_export_served $U/metrics /dev/null $EPID
# busy CPU 2 throughout, so node 1's busy % is clearly a figure while online
nlwork --cpu 2 --spin 120 > /tmp/spin.out 2>&1 &
SPIN=$!

# wait_lines N: until top has written N lines.
wait_lines() {
	local i=0
	while [ "$(wc -l < $J)" -lt "$1" ]; do
		i=$((i + 1)); [ $i -le 600 ] || nl_fail "numalens top wrote no line $1 in 60 s"
		kill -0 $NL_TOP_PID 2>/dev/null || nl_fail "numalens top exited: $(tail -2 $J.err | tr '\n' ' ')"
		sleep 0.1
	done
}
# node_at LINE NID: "nr_cpus busy" of node NID in top's line LINE.
node_at() { nljq -l "$1" $J "nodes[nid=$2].nr_cpus" "nodes[nid=$2].cpu_busy_pct"; }
# scrape_after N: a scrape of a snapshot taken N snapshots from now.
scrape_after() {
	nl_export_wait $U "$1"
	wget -q -O /tmp/m $U/metrics || nl_fail "scrape failed"
}
val() { awk -v k="$1 " 'index($0, k) == 1 { print $2 }' /tmp/m; }

# --- 1. the memory-only node ------------------------------------------------
s=$(wc -l < $J)
wait_lines $((s + 2))
set -- $(node_at $((s + 2)) 2)
echo "top: node 2 nr_cpus=$1 cpu_busy_pct=$2"
[ "$1 $2" = "0 null" ] || nl_fail "top: memory-only node 2: expected nr_cpus 0 and busy null, saw '$1 $2'"
set -- $(node_at $((s + 2)) 0)
case "$2" in null|missing|nan|NaN) nl_fail "top: node 0 (CPUs 0-1) has no busy figure: '$2'";; esac
[ "$1" = 2 ] || nl_fail "top: node 0 nr_cpus: expected 2, saw $1"
scrape_after 1
nl_expect "export: numalens_node_cpus of node 2" "$(val 'numalens_node_cpus{node="2"}')" -eq 0
grep -q '^numalens_node_cpu_busy_ratio{node="2"}' /tmp/m && nl_fail "export: a busy sample for memory-only node 2"
grep -q '^numalens_node_cpu_busy_ratio{node="0"}' /tmp/m || nl_fail "export: no busy sample for node 0"
grep -qi 'nan' /tmp/m && nl_fail "export: NaN in /metrics: $(grep -i nan /tmp/m | head -1)"

# --- 2. hotplug: node 1's only CPU goes away, then comes back ---------------
# check_node1 WHEN CPUS BUSY_IS_NULL: top's second line after now and an
# export snapshot two ahead show node 1 with CPUS CPUs, busy null or not.
check_node1() {
	local s e b
	s=$(wc -l < $J)
	wait_lines $((s + 2))
	set -- "$1" "$2" "$3" $(node_at $((s + 2)) 1)
	echo "top, $1: node 1 nr_cpus=$4 cpu_busy_pct=$5 (line $((s + 2)))"
	[ "$4" = "$2" ] || nl_fail "top, $1: node 1 nr_cpus: expected $2 within one interval, saw $4"
	if [ "$3" = null ]; then
		[ "$5" = null ] || nl_fail "top, $1: node 1 busy: expected null, saw $5"
	else
		# a busy ratio needs two readings of /proc/stat with the CPU in
		# them: the first snapshot after it came back may have only one
		# (its predecessor read /proc/stat before the write), so the
		# figure is due one interval later than the CPU count
		wait_lines $((s + 3))
		set -- "$1" "$2" "$3" $(node_at $((s + 3)) 1)
		echo "top, $1: node 1 nr_cpus=$4 cpu_busy_pct=$5 (line $((s + 3)))"
		[ "$4" = "$2" ] || nl_fail "top, $1: node 1 nr_cpus: expected $2, saw $4"
		case "$5" in null|missing) nl_fail "top, $1: node 1 busy: expected a figure within two intervals, saw $5";; esac
	fi
	scrape_after 2
	e=$(val 'numalens_node_cpus{node="1"}')
	b=$(val 'numalens_node_cpu_busy_ratio{node="1"}')
	echo "export, $1: node 1 cpus=$e busy_ratio=${b:-absent}"
	nl_expect "export, $1: numalens_node_cpus of node 1" "$e" -eq "$2"
	if [ "$3" = null ]; then
		[ -z "$b" ] || nl_fail "export, $1: node 1 busy sample $b while it has no online CPU"
	else
		[ -n "$b" ] || nl_fail "export, $1: no busy sample for node 1"
	fi
}
echo 0 > /sys/devices/system/cpu/cpu2/online || nl_fail "cpu2 offline failed"
check_node1 "CPU 2 offline" 0 null
echo 1 > /sys/devices/system/cpu/cpu2/online || nl_fail "cpu2 online failed"
check_node1 "CPU 2 online again" 1 figure
kill $SPIN 2>/dev/null
nl_top_stop $J 0
kill -TERM $EPID; wait $EPID || nl_fail "numalens export exited $? on SIGTERM: $(tail -1 /tmp/export.err)"
echo "nodes_hotplug ok"
