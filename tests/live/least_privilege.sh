#!/usr/bin/env bash
# The smallest capability sets (docs/kernel.md, "Capabilities"): each
# command runs under setpriv with exactly its set, in the bounding,
# inheritable and ambient sets (so the effective set is that and nothing
# more), and does its work; with any one capability less it exits non-zero
# with one line naming the capability it lacks. As root (uid 0, as the
# systemd unit and the DaemonSet run it), and top and export once more as
# an unprivileged user (nobody), which needs CAP_DAC_READ_SEARCH on top.
# CAP_SYS_RESOURCE is in none of the sets: this sandbox's bounding set
# does not even hold it, and everything here runs without it.
source "$(dirname "$0")/common.bash"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"

# the sets, as setpriv writes them; check_kubernetes.sh compares
# EXPORT_CAPS with the DaemonSet, the systemd unit and docs/kernel.md
TOP_CAPS=-all,+bpf,+perfmon
EXPORT_CAPS=-all,+bpf,+perfmon
VMSCAN_CAPS=-all,+bpf,+perfmon
# as another user: tracefs (the classic tracepoints' ids) is root's, 0700
USER_CAPS=-all,+bpf,+perfmon,+dac_read_search
# reclaim: the lottery needs CAP_BPF + CAP_PERFMON; the backend's own
# kernel interface decides the rest (set below per hierarchy)
RECLAIM_CAPS=-all,+bpf,+perfmon

as_root() { local c=$1; shift; setpriv --inh-caps=$c --ambient-caps=$c --bounding-set=$c -- "$@"; }
as_user() { local c=$1; shift
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=$c --ambient-caps=$c --bounding-set=$c -- "$@"; }
# less SET CAP: SET without +CAP
less() { sed "s/,+$2//" <<< "$1"; }
capname() { echo "CAP_${1^^}"; }
caps_of() { tr ',' '\n' <<< "$1" | sed -n 's/^+//p'; }

CG=
WPID=
cleanup_hook() {
	[ -n "$WPID" ] && kill $WPID 2>/dev/null && wait $WPID 2>/dev/null
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	thp_restore
}

# a workload that allocates, so the figures below are real
"$WORK" --anon 64 --spin 300 > /dev/null &
WPID=$!
wait_until 30 is_comm $WPID nlwork || fail "nlwork did not start"

# top_ok RUNNER SET: top with SET sees nlwork run and its page allocations
top_ok() {
	local out=$TMP/top.json err=$TMP/top.err
	"$1" "$2" "$NL" top --json -n 2 -d 0.5 -p $WPID > "$out" 2> "$err" ||
		fail "top with $2 ($1): exit $?: $(cat "$err")"
	python3 - "$out" $WPID <<'EOF' || fail "top with $2 ($1): $(cat "$err")"
import json, sys
d = json.loads([l for l in open(sys.argv[1]) if l.strip()][-1])
p = [p for p in d["processes"] if p["pid"] == int(sys.argv[2])]
assert d["sources"]["sched"] and d["sources"]["alloc"], f"sources {d['sources']}"
assert p and p[0]["run_ns_total"] > 0, "nlwork not seen running"
EOF
	note "top with $2 ($1): nlwork ran $(python3 -c "import json,sys; d=json.loads([l for l in open('$out') if l.strip()][-1]); print([p['run_ns_total'] for p in d['processes'] if p['pid']==$WPID][0])") ns, page allocations counted"
}

# short_of RUNNER SET CAP CMD...: with SET less CAP, CMD exits non-zero
# with one line naming CAP
short_of() {
	local r=$1 set; set=$(less "$2" "$3"); shift 3
	local name; name=$(capname "$cap")
	"$r" "$set" "$@" > /dev/null 2> "$TMP/short.err"
	local rc=$?
	[ $rc != 0 ] || fail "$* with $set (no $name): exit 0"
	[ "$(grep -c . "$TMP/short.err")" = 1 ] || fail "$* without $name: want one line, got: $(cat "$TMP/short.err")"
	grep -q "$name" "$TMP/short.err" || fail "$* without $name: the line does not name it: $(cat "$TMP/short.err")"
	note "without $name: exit $rc: $(cat "$TMP/short.err")"
}

# --- top
top_ok as_root "$TOP_CAPS"
for cap in $(caps_of "$TOP_CAPS"); do short_of as_root "$TOP_CAPS" "$cap" "$NL" top --json -n 1; done
top_ok as_user "$USER_CAPS"
for cap in bpf perfmon; do short_of as_user "$USER_CAPS" "$cap" "$NL" top --json -n 1; done
# without CAP_DAC_READ_SEARCH an unprivileged user cannot read tracefs: top
# runs without the page allocations and says which capability that takes
as_user "$(less "$USER_CAPS" dac_read_search)" "$NL" top --json -n 1 > /dev/null 2> "$TMP/dac.err" ||
	fail "top as nobody without CAP_DAC_READ_SEARCH: $(cat "$TMP/dac.err")"
grep -q "page allocations: .*needs CAP_DAC_READ_SEARCH" "$TMP/dac.err" ||
	fail "top as nobody without CAP_DAC_READ_SEARCH does not name it: $(cat "$TMP/dac.err")"
note "as nobody without CAP_DAC_READ_SEARCH: $(cat "$TMP/dac.err")"

# --- export: a scrape with the workload's allocations in it
# stop_export PID: $! of a backgrounded as_root/as_user is the subshell
# running the function; numalens (exec'd by setpriv) is its child, which a
# kill of the subshell alone would leave running
stop_export() {
	pkill -P "$1" 2>/dev/null
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
export_ok() {
	local port; port=$(free_port) || skip "no free port"
	"$1" "$2" "$NL" export --listen 127.0.0.1:$port --delay 1 --top-procs 400 > "$TMP/exp.log" 2>&1 &
	local epid=$!
	wait_until 60 curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" ||
		{ stop_export $epid; fail "export with $2 ($1) did not answer: $(cat "$TMP/exp.log")"; }
	sleep 2
	curl -sf -o "$TMP/m" "http://127.0.0.1:$port/metrics" || { stop_export $epid; fail "scrape failed"; }
	stop_export $epid
	grep -q "pid=\"$WPID\"" "$TMP/m" || fail "export with $2 ($1): no series for nlwork (pid $WPID)"
	grep -q '^numalens_source_available{source="alloc"} 1' "$TMP/m" ||
		fail "export with $2 ($1): the allocation source is not up: $(grep "^numalens_source_available" "$TMP/m" | tr '\n' ' ')"
	note "export with $2 ($1): $(grep -c '^numalens_' "$TMP/m") series, nlwork's among them"
}
export_ok as_root "$EXPORT_CAPS"
for cap in $(caps_of "$EXPORT_CAPS"); do short_of as_root "$EXPORT_CAPS" "$cap" "$NL" export --listen 127.0.0.1:0; done
export_ok as_user "$USER_CAPS"

# --- vmscan
as_root "$VMSCAN_CAPS" "$NL" vmscan -n 1 -d 0.5 > "$TMP/vs.out" 2> "$TMP/vs.err" ||
	fail "vmscan with $VMSCAN_CAPS: $(cat "$TMP/vs.err")"
grep -q 'report 1' "$TMP/vs.out" || fail "vmscan with $VMSCAN_CAPS printed no report: $(head -3 "$TMP/vs.out")"
note "vmscan with $VMSCAN_CAPS: $(head -1 "$TMP/vs.out" | cut -c1-80)"
for cap in $(caps_of "$VMSCAN_CAPS"); do short_of as_root "$VMSCAN_CAPS" "$cap" "$NL" vmscan -n 1; done

# --- reclaim: a cgroup over its high watermark with clean page cache; the
# agent must bring it down with exactly the set its backend needs
R=$(memcg_root)
CG=$R/nl-lp-$$
mkdir "$CG" || fail "cannot make $CG"
if [ -e "$R/cgroup.controllers" ]; then
	# cgroup v2: the memcg backend writes memory.reclaim, a root-owned
	# file: no capability beyond the lottery's
	backend=memcg
	echo $((128 << 20)) > "$CG/memory.max"
else
	# v1 memory hierarchy: only madvise works here. CAP_SYS_ADMIN, which
	# pagemap's page frames demand, also passes the kernel's CAP_BPF and
	# CAP_PERFMON checks: those two add nothing then
	backend=madvise
	RECLAIM_CAPS=-all,+sys_admin,+sys_nice,+sys_ptrace
	echo $((128 << 20)) > "$CG/memory.limit_in_bytes"
fi
usage() { cat "$CG/memory.current" 2>/dev/null || cat "$CG/memory.usage_in_bytes"; }
F=$TMP/file
rm -f "$TMP/rdy"
(echo $BASHPID > "$CG/cgroup.procs"; exec "$WORK" --file 110 --file-path "$F" --passes 1 \
	--ready-file "$TMP/rdy" --hold 120 > /dev/null) &
HPID=$!
WPID="$WPID $HPID"
wait_until 60 test -f "$TMP/rdy" || fail "nlwork in $CG did not get ready"
sync "$F"
before=$(usage)
as_root "$RECLAIM_CAPS" "$NL" reclaim --backend $backend --duration 5 --high 60% --low 50% \
	"${CG#$R}" > /dev/null 2> "$TMP/rc.err" || fail "reclaim ($backend) with $RECLAIM_CAPS: $(cat "$TMP/rc.err")"
after=$(usage)
[ "$after" -lt $((before - (20 << 20))) ] ||
	fail "reclaim ($backend) with $RECLAIM_CAPS: usage $before -> $after bytes, not down by 20 MiB"
note "reclaim ($backend) with $RECLAIM_CAPS: usage $((before >> 20)) -> $((after >> 20)) MiB"
for cap in $(caps_of "$RECLAIM_CAPS"); do
	short_of as_root "$RECLAIM_CAPS" "$cap" "$NL" reclaim --backend $backend --duration 1 "${CG#$R}"
	# the backend's line lists what it needs, then what is lacking
	grep -q "lacking" "$TMP/short.err" && ! grep -q "lacking $(capname "$cap")\$" "$TMP/short.err" &&
		fail "without $(capname "$cap"): the line says another is lacking: $(cat "$TMP/short.err")"
done
echo "PASS: least privilege"
