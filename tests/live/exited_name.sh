# A process that lives less than one interval is gone from /proc when top
# meets its counts: its name must come from the exit record (the sched
# program's exit ring), and its figures must be the ones it measured.
# The workload names itself, allocates 8 MiB and exits between two
# snapshots; top --json lists it, not alive, under its own name, with at
# least the pages it touched.
. "$(dirname "$0")/common.bash"
cleanup_hook() { [ -n "${TOP_PID:-}" ] && kill "$TOP_PID" 2>/dev/null; }
NAME=nl-brief-$$
start_top "$TMP/top.jsonl" 1 1000 -t 100000
[ -s "$TMP/top.jsonl" ] || wait_until 30 lines_ge "$TMP/top.jsonl" 1 || fail "top printed no snapshot: $(tail -1 "$TMP/top.jsonl.err")"
"$WORK" --comm "$NAME" --anon 8 > "$TMP/w.out" || fail "nlwork failed"
pid=$(work_field "$TMP/w.out" pid)
got=$(work_field "$TMP/w.out" touched_pages)
stop_top "$TMP/top.jsonl"
# the process's row, from the last snapshot that has it
field() { "$JQ" "$TMP/top.jsonl" "processes[pid=$pid].$1" 2>/dev/null | grep -v '^null$\|^missing$' | tail -1; }
alive=$(field alive) comm=$(field comm)
pages=$(field alloc.pages_local_total) rpages=$(field alloc.pages_remote_total)
note "pid $pid: alive=$alive comm=$comm pages=$pages+$rpages (it touched $got)"
[ -n "$comm" ] || fail "process $pid ($NAME) is not in any snapshot"
[ "$alive" = false ] || fail "process $pid should be listed as exited, alive=$alive"
[ "$comm" = "$NAME" ] || fail "exited process $pid is named '$comm', not '$NAME' (its exit record was lost)"
[ $((pages + rpages)) -ge "$got" ] || fail "process $pid: $((pages + rpages)) pages counted, it touched $got"
echo "exited_name ok"
