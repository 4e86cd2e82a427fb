# numalens inside a PID namespace (unshare --pid --fork --mount-proc): the
# namespace's busy worker is listed under its pid there, with the CPU time
# it measured itself (its own /proc stat, not a host task's figures); -p of
# that pid shows it; idle processes of the namespace are not given the
# figures of host tasks that happen to have the same pid; tasks the
# namespace cannot see are summed in other_pid_namespaces, never listed.
. "$(dirname "$0")/common.bash"
command -v unshare > /dev/null || skip "unshare (util-linux) is not installed"
unshare --pid --fork --mount-proc true 2> /dev/null || skip "cannot create a pid namespace here"
cat > "$TMP/inner.sh" << 'EOF'
# runs as pid 1 of the new namespace; $1 = numalens, $2 = nlwork, $3 = out dir
NL=$1 WORK=$2 OUT=$3
# idle processes whose pids host kernel threads also have
for i in 1 2 3 4 5 6 7; do sleep 300 & done
"$WORK" --spin 60 > /dev/null & W=$!
echo "$W" > "$OUT/w.pid"
sleep 0.5
ticks0=$(awk '{ print $14 + $15 }' /proc/$W/stat)
"$NL" top --json -n 3 -d 1 > "$OUT/all.jsonl" 2> "$OUT/all.err"
echo $? > "$OUT/all.rc"
"$NL" top --json -n 2 -d 1 -p "$W" > "$OUT/p.jsonl" 2> "$OUT/p.err"
echo $? > "$OUT/p.rc"
ticks1=$(awk '{ print $14 + $15 }' /proc/$W/stat)
echo $(( (ticks1 - ticks0) * 1000000000 / $(getconf CLK_TCK) )) > "$OUT/w.cpu_ns"
# every listed process as this namespace's /proc names it
for p in $(ls /proc | grep '^[0-9]*$'); do printf '%s %s\n' "$p" "$(cat /proc/$p/comm 2>/dev/null)"; done > "$OUT/procs.txt"
kill $(jobs -p) 2> /dev/null
exit 0
EOF
unshare --pid --fork --mount-proc bash "$TMP/inner.sh" "$(realpath "$NL")" "$(realpath "$WORK")" "$TMP" ||
	fail "the namespace's script failed"
[ "$(cat "$TMP/all.rc")" = 0 ] || fail "top in the namespace exited $(cat "$TMP/all.rc"): $(tail -2 "$TMP/all.err")"
[ "$(cat "$TMP/p.rc")" = 0 ] || fail "top -p in the namespace exited $(cat "$TMP/p.rc"): $(tail -2 "$TMP/p.err")"
W=$(cat "$TMP/w.pid"); wcpu=$(cat "$TMP/w.cpu_ns")
note "worker: pid $W in the namespace, $wcpu ns of CPU while the two tops ran"
# the worker under its namespace pid, with CPU time it really had
comm=$("$JQ" -L "$TMP/all.jsonl" "processes[pid=$W].comm")
run=$("$JQ" -L "$TMP/all.jsonl" "processes[pid=$W].run_ns_total")
[ "$comm" = nlwork ] || fail "pid $W in the namespace: comm '$comm', expected nlwork"
case "$run" in '' | missing | null) run=0;; esac
[ "$run" -gt 0 ] || fail "pid $W (the busy worker) has no run time in top's listing: '$run'"
[ "$run" -le $((wcpu + wcpu / 10 + 20000000)) ] || fail "pid $W: $run ns of run time, more than the $wcpu ns it had"
prun=$("$JQ" -L "$TMP/p.jsonl" "processes[pid=$W].run_ns_total")
case "$prun" in '' | missing | null) prun=0;; esac
[ "$prun" -gt 0 ] || fail "top -p $W: the busy worker shows no run time ('$prun')"
note "top: pid $W nlwork run_ns_total $run; top -p $W: $prun"
# no idle process of the namespace carries a host task's figures
n=0
while read -r pid pcomm; do
	[ -n "$pid" ] || continue
	r=$("$JQ" -L "$TMP/all.jsonl" "processes[pid=$pid].run_ns_total" 2> /dev/null) || continue
	case "$r" in '' | missing | null) continue;; esac
	n=$((n + 1))
	if [ "$pcomm" = sleep ] && [ "$r" -gt 5000000 ]; then
		fail "pid $pid (an idle sleep in the namespace) shows $r ns of run time: a host task's figures"
	fi
done < "$TMP/procs.txt"
note "$n of the namespace's processes listed; the idle sleeps show no host task's time"
o=$("$JQ" -L "$TMP/all.jsonl" other_pid_namespaces.run_ns_total)
case "$o" in '' | missing | null) o=0;; esac
[ "$o" -gt 0 ] || fail "other_pid_namespaces.run_ns_total is '$o': the host's tasks ran meanwhile"
note "other pid namespaces: run_ns_total $o"
exit 0
