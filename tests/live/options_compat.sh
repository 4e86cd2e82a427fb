# One option grammar (docs/options.md) on the host: the new spellings
# (export -d/-j, reclaim --delay/--duration/-j, scx_cling --delay) work,
# and the old ones (export -i/--interval, reclaim -i and -d as the run
# time, scx_cling -s/--stats, --monitor SECONDS, -t, -d as the degree)
# still do, each saying once, in one line on stderr, what to write
# instead; a reused -d that could mean either is refused with exit 2.
. "$(dirname "$0")/common.bash"
CLING=${CLING:-build/scx_cling}
[ -x "$CLING" ] || fail "$CLING not built (make)"

# notices FILE: the rename lines of FILE
notices() { grep -c 'the old spelling goes away in the next release' "$1"; }
# said FILE TEXT: FILE has TEXT in exactly one line
said() { [ "$(grep -cF -- "$2" "$1")" = 1 ] || fail "expected one line with '$2' in: $(cat "$1")"; }

# --- export: -i/--interval -> -d/--delay; -j prints the start-up facts
# export_json OUT ERR ARGS...: run export until its JSON line is out, stop it
export_json() {
	local out=$1 err=$2 i; shift 2
	"$NL" export -l 127.0.0.1:0 -j "$@" > "$out" 2> "$err" & local ep=$!
	for i in $(seq 300); do [ -s "$out" ] && break; kill -0 $ep 2>/dev/null || break; sleep 0.1; done
	kill -TERM $ep 2>/dev/null; wait $ep; local rc=$?
	[ $rc = 0 ] || fail "export $* exited $rc: $(cat "$err")"
	[ "$(wc -l < "$out")" = 1 ] || fail "export -j $*: expected one JSON line on stdout, saw: $(head -c 300 "$out")"
}
export_json "$TMP/e1" "$TMP/e1.err" --synthetic 4x2 -i 2 -i 2
said "$TMP/e1.err" "numalens export: -i is now -d/--delay; the old spelling goes away in the next release"
[ "$(notices "$TMP/e1.err")" = 1 ] || fail "export -i twice: expected one notice: $(cat "$TMP/e1.err")"
[ "$("$JQ" "$TMP/e1" interval_seconds)" = 2 ] || fail "export -i 2: interval_seconds is $("$JQ" "$TMP/e1" interval_seconds)"
note "ok: export -i 2 -> interval 2 s, one notice"
export_json "$TMP/e2" "$TMP/e2.err" --synthetic 4x2 --interval=3
said "$TMP/e2.err" "numalens export: --interval is now -d/--delay"
[ "$("$JQ" "$TMP/e2" interval_seconds)" = 3 ] || fail "export --interval=3: interval_seconds is $("$JQ" "$TMP/e2" interval_seconds)"
note "ok: export --interval=3 -> interval 3 s, one notice"
# the new spelling, with BPF: the facts name what is attached
export_json "$TMP/e3" "$TMP/e3.err" -d 1.5
[ "$(notices "$TMP/e3.err")" = 0 ] || fail "export -d printed a rename notice: $(cat "$TMP/e3.err")"
[ "$("$JQ" "$TMP/e3" interval_seconds)" = 1.5 ] || fail "export -d 1.5: interval_seconds is $("$JQ" "$TMP/e3" interval_seconds)"
port=$("$JQ" "$TMP/e3" port)
grep -q "serving http://127.0.0.1:$port/metrics" "$TMP/e3.err" || fail "export -j port $port is not the one it served on: $(cat "$TMP/e3.err")"
[ "$("$JQ" "$TMP/e3" programs.sched)" = true ] || [ -n "$("$JQ" "$TMP/e3" running_without)" ] ||
	fail "export -j: sched not attached and nothing said missing: $(cat "$TMP/e3")"
[ "$("$JQ" "$TMP/e3" synthetic)" = false ] || fail "export -j: synthetic is not false without --synthetic"
[ "$("$JQ" "$TMP/e3" links)" -ge 1 ] || fail "export -j: no BPF link attached: $(cat "$TMP/e3")"
note "ok: export -j -d 1.5: port $port, links $("$JQ" "$TMP/e3" links), hierarchy $("$JQ" "$TMP/e3" cgroup_hierarchy)"

# --- reclaim: -i -> -d/--delay, -d (run time) -> --duration, -j
root=$(memcg_root)
CG=$root/nl-opts-$$
mkdir "$CG" || skip "cannot create a cgroup under $root"
cleanup_hook() { rmdir "$CG" 2>/dev/null; }
rel=/$(basename "$CG")
"$NL" reclaim --dry-run --high 8M --low 4M -i 0.2 -d 1 "$rel" > "$TMP/r1" 2> "$TMP/r1.err" ||
	fail "reclaim -i 0.2 -d 1 exited $?: $(cat "$TMP/r1.err")"
said "$TMP/r1.err" "numalens reclaim: -i is now -d/--delay"
said "$TMP/r1.err" "numalens reclaim: -d as the run time is now --duration"
[ "$(notices "$TMP/r1.err")" = 2 ] || fail "reclaim -i -d: expected two notices: $(cat "$TMP/r1.err")"
note "ok: reclaim -i 0.2 -d 1 ran for its second and said both renames"
# -d alone: the run time or the interval? refused, naming both
"$NL" reclaim --dry-run --high 8M --low 4M -d 10 "$rel" > "$TMP/r2" 2> "$TMP/r2.err"; rc=$?
[ $rc = 2 ] || fail "reclaim -d 10 alone: expected exit 2, saw $rc: $(cat "$TMP/r2.err")"
said "$TMP/r2.err" "write --duration 10 to stop after 10 s, or --delay 10 to check every 10 s"
[ "$(wc -l < "$TMP/r2.err")" = 1 ] || fail "reclaim -d 10: expected one line: $(cat "$TMP/r2.err")"
note "ok: reclaim -d 10 alone -> 2: $(cat "$TMP/r2.err")"
# with --duration, -d is the interval; -j prints JSON Lines
"$NL" reclaim --dry-run --high 8M --low 4M -j -d 0.25 --duration 1.5 "$rel" > "$TMP/r3" 2> "$TMP/r3.err" ||
	fail "reclaim -j -d 0.25 --duration 1.5 exited $?: $(cat "$TMP/r3.err")"
[ "$(notices "$TMP/r3.err")" = 0 ] || fail "reclaim new spellings printed a notice: $(cat "$TMP/r3.err")"
n=$(wc -l < "$TMP/r3")
for i in $(seq 1 "$n"); do "$JQ" -l "$i" "$TMP/r3" type > /dev/null || fail "reclaim -j: line $i is not JSON: $(sed -n "${i}p" "$TMP/r3")"; done
[ "$("$JQ" -l 1 "$TMP/r3" type)" = start ] || fail "reclaim -j: line 1 is not the start: $(head -1 "$TMP/r3")"
[ "$("$JQ" -l 1 "$TMP/r3" interval_seconds)" = 0.25 ] || fail "reclaim -j -d 0.25: start says interval $("$JQ" -l 1 "$TMP/r3" interval_seconds)"
[ "$("$JQ" -l "$n" "$TMP/r3" type)" = end ] || fail "reclaim -j: the last line is not the end: $(tail -1 "$TMP/r3")"
states=$(grep -c '"type":"state"' "$TMP/r3")
[ "$states" -ge 2 ] || fail "reclaim -j -d 0.25 for 1.5 s: $states state lines, expected about 6"
[ "$("$JQ" -l 2 "$TMP/r3" "state.cgroups[path=$rel].path")" = "$rel" ] || fail "reclaim -j: the state does not name $rel: $(sed -n 2p "$TMP/r3" | head -c 300)"
note "ok: reclaim -j: $n JSON lines, $states states, start .. end"
# a reader that goes away ends the agent (its next line fails with EPIPE),
# as it ends top and vmscan; timeout only bounds a failure
timeout 30 "$NL" reclaim --dry-run --high 8M --low 4M -j --delay 0.25 "$rel" 2> "$TMP/r5.err" | head -1 > "$TMP/r5"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || fail "reclaim -j | head -1: the agent exited $rc (124: it outlived its reader): $(cat "$TMP/r5.err")"
note "ok: reclaim -j | head -1: the agent ended with its reader"
"$NL" reclaim --status -j "$rel" > "$TMP/r4" 2> "$TMP/r4.err" || fail "reclaim --status -j exited $?: $(cat "$TMP/r4.err")"
[ "$(wc -l < "$TMP/r4")" = 1 ] || fail "reclaim --status -j: expected one line: $(head -c 300 "$TMP/r4")"
[ "$("$JQ" "$TMP/r4" "computed.cgroups[path=$rel].path")" = "$rel" ] || fail "reclaim --status -j: no $rel: $(head -c 300 "$TMP/r4")"
note "ok: reclaim --status -j: one object"

# --- scx_cling: options are read before anything loads, so the host
# without sched_ext still shows the notices (then exit 4, or 1 for
# --monitor with nothing running)
cling() { # cling CODE ARGS...: scx_cling exits CODE; stderr in $TMP/c.err
	local code=$1; shift
	"$CLING" "$@" > "$TMP/c.out" 2> "$TMP/c.err"; local rc=$?
	[ $rc = "$code" ] || fail "scx_cling $* exited $rc, expected $code: $(cat "$TMP/c.err")"
}
if [ ! -e /sys/kernel/sched_ext ]; then
	cling 4 --all -s 2 -d 30 -t 5
	said "$TMP/c.err" "scx_cling: -s is now -d/--delay"
	said "$TMP/c.err" "scx_cling: -d as the cling degree is now --cling-degree"
	said "$TMP/c.err" "scx_cling: -t is now --duration"
	note "ok: scx_cling --all -s 2 -d 30 -t 5: three notices, then $(tail -1 "$TMP/c.err")"
else
	note "this kernel has sched_ext: the old spellings are checked against --monitor only"
fi
cling 1 --monitor 1 --pin-dir "$TMP/none"
said "$TMP/c.err" "scx_cling: --monitor SECONDS is now --monitor --delay SECONDS"
cling 1 --monitor=2 --pin-dir "$TMP/none"
said "$TMP/c.err" "scx_cling: --monitor SECONDS is now --monitor --delay SECONDS"
cling 1 -m -d 2 --pin-dir "$TMP/none"
[ "$(notices "$TMP/c.err")" = 0 ] || fail "scx_cling -m -d 2 printed a notice: $(cat "$TMP/c.err")"
note "ok: scx_cling --monitor 1 / --monitor=2 noticed, -m -d 2 not"
# an old line with both letters keeps its meaning: the old --monitor
# SECONDS gives the interval, so -d is the degree it always was
cling 1 --monitor 5 -d 30 --pin-dir "$TMP/none"
said "$TMP/c.err" "scx_cling: -d as the cling degree is now --cling-degree"
cling 1 -m5 -d 30 --pin-dir "$TMP/none"
said "$TMP/c.err" "scx_cling: -d as the cling degree is now --cling-degree"
note "ok: scx_cling --monitor 5 -d 30 and -m5 -d 30 read the old way"
cling 2 -d 50
said "$TMP/c.err" "write --cling-degree 50, or --delay 50"
note "ok: scx_cling -d 50 -> 2: $(head -1 "$TMP/c.err")"
exit 0
