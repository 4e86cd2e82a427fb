# Helpers of the export live tests; sourced after common.bash.
# Names, ports and files carry "export" so parallel runs on the host stay apart.

# free_port: in common.bash

# start_export PORT [args]: numalens export on 127.0.0.1:PORT in the
# background (EXPORT_PID), then wait until /metrics answers 200.
start_export() {
	local port=$1; shift
	"$NL" export --listen "127.0.0.1:$port" "$@" > "$TMP/export.out" 2> "$TMP/export.err" &
	EXPORT_PID=$!
	local i
	for i in $(seq 1 100); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 200 ] && return 0
		kill -0 "$EXPORT_PID" 2>/dev/null || fail "numalens export exited early: $(cat "$TMP/export.err")"
		sleep 0.2
	done
	fail "numalens export did not serve /metrics within 20 s: $(cat "$TMP/export.err")"
}

# export_snapshot_ge PORT N: true when the export on PORT serves snapshot N
# or later (its /healthz names the snapshot it serves)
export_snapshot_ge() {
	local s
	s=$(curl -s "http://127.0.0.1:$1/healthz" | sed -n 's/.*snapshot \([0-9]*\) taken.*/\1/p')
	[ -n "$s" ] && [ "$s" -ge "$2" ]
}

# wait_export_snapshot PORT N: wait (up to 60 s) for snapshot N: after the
# start-up one, snapshot 2 holds a real interval
wait_export_snapshot() {
	wait_until 60 export_snapshot_ge "$1" "$2" ||
		fail "numalens export on port $1 did not reach snapshot $2 in 60 s: $(curl -s "http://127.0.0.1:$1/healthz")"
}

# stop_export: SIGTERM and wait; the exit status goes to EXPORT_RC.
stop_export() {
	EXPORT_RC=0
	[ -n "${EXPORT_PID:-}" ] || return 0
	kill -TERM "$EXPORT_PID" 2>/dev/null
	wait "$EXPORT_PID" || EXPORT_RC=$?
	EXPORT_PID=
}

# promtool_ok FILE: promtool check metrics passes on FILE (lint problems
# are printed; the exit status is promtool's).
promtool_ok() {
	promtool check metrics < "$1" > "$1.lint" 2>&1
}

# a test killed by the runner's timeout still runs its EXIT trap (cleanup:
# prometheus, sysctls, cgroups)
trap 'exit 143' TERM INT

command -v promtool >/dev/null || skip "promtool is not found ('sudo make test-deps' unpacks it into build/test-tools)"
command -v curl >/dev/null || skip "curl is not installed"
