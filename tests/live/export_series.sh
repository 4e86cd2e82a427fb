# The worst-case series count docs/metrics.md gives (the formula users
# size Prometheus by) is what numalens export serves: on a generated
# snapshot of 300 cgroups x 3 nodes with 4 processes, and on this host's
# own (its nodes, zones and the BPF programs export lists). A family added
# without the formula updated fails here, not only in `make bench`.
. "$(dirname "$0")/common.bash"
cleanup_hook() {
	[ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID" 2>/dev/null && wait "$EXPORT_PID" 2>/dev/null
	[ -n "${AG:-}" ] && kill "$AG" 2>/dev/null && wait "$AG" 2>/dev/null
	[ -n "${CGDIR:-}" ] && rmdir "$CGDIR"
}
# docs/metrics.md: 101 + 2P + 49N + 2Z + C (4N + 60) + K (2N + 29)
formula() { local N=$1 Z=$2 C=$3 K=$4 P=$5; echo $(( 101 + 2 * P + 49 * N + 2 * Z + C * (4 * N + 60) + K * (2 * N + 29) )); }
# ... + 9 + 7N per cgroup a reclaim agent manages (a weight, 2 draw sources and 4 backends per node)
agent_series() { echo $(( 9 + 7 * $1 )); }
grep -q '101 + 2P + 49N + 2Z + C (4N + 60) + K (2N + 29)' docs/metrics.md ||
	fail "docs/metrics.md no longer gives the formula this test checks: update both"
serve() { # serve OUT ARGS...: one scrape of a fresh export into OUT
	local out=$1 port i; shift
	port=$(free_port) || fail "no free TCP port"
	"$NL" export --listen "127.0.0.1:$port" --delay 1 "$@" > /dev/null 2> "$TMP/export.err" &
	EXPORT_PID=$!
	for i in $(seq 1 300); do
		[ "$(curl -s -o "$out" -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 200 ] && break
		kill -0 "$EXPORT_PID" 2>/dev/null || fail "numalens export exited early: $(cat "$TMP/export.err")"
		sleep 0.2
	done
	kill "$EXPORT_PID"; wait "$EXPORT_PID" 2>/dev/null; EXPORT_PID=
	[ -s "$out" ] || fail "numalens export $* served nothing"
}
series() { grep -vc '^#' "$1"; }
progs() { grep -c '^numalens_bpf_program_runs_total' "$1"; }

serve "$TMP/syn" --synthetic 300x3 --cgroup-depth 2 --max-cgroups 0 --top-procs 4
want=$(formula 3 0 300 4 "$(progs "$TMP/syn")")
[ "$(series "$TMP/syn")" = "$want" ] || fail "300 cgroups x 3 nodes + 4 processes: served $(series "$TMP/syn") series, the formula says $want"
note "generated 300 x 3 + 4 processes: $want series = the formula"

# the first snapshot, served at once, is whole: its CPU busy ratio spans
# from start-up (one series per node with CPUs; it was missing, as /proc/stat
# had not ticked between two reads a few ms apart)
serve "$TMP/first" --delay 60
grep -qx 'numalens_snapshots_total 1' "$TMP/first" || fail "the first scrape was not of the first snapshot: $(grep '^numalens_snapshots_total' "$TMP/first")"
cpu_nodes=$(for n in /sys/devices/system/node/node[0-9]*; do [ -n "$(tr -d '\n' < "$n/cpulist")" ] && echo "${n##*node}"; done | wc -l)
busy=$(grep -c '^numalens_node_cpu_busy_ratio{' "$TMP/first")
[ "$busy" = "$cpu_nodes" ] || fail "first snapshot: $busy numalens_node_cpu_busy_ratio samples, $cpu_nodes nodes with CPUs"
note "first snapshot: a CPU busy ratio for each of the $cpu_nodes nodes with CPUs"

serve "$TMP/host"
N=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
Z=$(grep -c '^Node' /proc/zoneinfo)
want=$(formula "$N" "$Z" 1 0 "$(progs "$TMP/host")")
[ "$(series "$TMP/host")" = "$want" ] || fail "this host ($N nodes, $Z zones, root only): served $(series "$TMP/host") series, the formula says $want"
note "this host, defaults: $want series = the formula ($N nodes, $Z zones, $(progs "$TMP/host") programs)"

# a reclaim agent's series: one agent on an empty test cgroup (it stands by)
grep -q '9 + 7N per cgroup a `numalens reclaim` agent manages' docs/metrics.md ||
	fail "docs/metrics.md no longer gives the agent's series count this test checks: update both"
root=$(memcg_root)
CG=export-series-live$$
CGDIR=$root/$CG
mkdir "$CGDIR" || fail "cannot create $CGDIR"
"$NL" reclaim --high 64M --low 32M --delay 0.5 --duration 120 "/$CG" > /dev/null 2> "$TMP/agent.err" &
AG=$!
wait_until 60 test -s "/run/numalens/reclaim/$AG.json" ||
	fail "the reclaim agent published no state file: $(cat "$TMP/agent.err")"
serve "$TMP/agent" --cgroup-pattern "/$CG"
want=$(( $(formula "$N" "$Z" 2 0 "$(progs "$TMP/agent")") + $(agent_series "$N") ))
[ "$(series "$TMP/agent")" = "$want" ] || fail "this host with /$CG exported and an agent on it: served $(series "$TMP/agent") series, the formula says $want"
note "this host, one agent's cgroup exported: $want series = the formula"
exit 0
