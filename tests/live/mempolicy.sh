# The memory policy of each process (numa_maps' policy column) in top's
# JSON: processes started under numactl --membind, --interleave, --preferred
# and --localalloc, and one without, each walking its memory until top has
# read its numa_maps, must show the policy numactl gave them, with no
# mapping of their own that differs (mempolicy_vma null, in the same
# interval).
. "$(dirname "$0")/common.bash"
command -v numactl > /dev/null || skip "numactl is not installed"
cleanup_hook() {
	[ -n "${TOP_PID:-}" ] && kill "$TOP_PID" 2>/dev/null
	for p in ${PIDS:-}; do kill "$p" 2>/dev/null; done
}
online=$(cat /sys/devices/system/node/online)	# the kernel's list format, as numa_maps prints it
last=$(ls -d /sys/devices/system/node/node[0-9]* | sed 's/.*node//' | sort -n | tail -1)
J=$TMP/top.jsonl
start_top "$J" 1 600
top_started "$J"
# case: numactl arguments : the policy numa_maps must show
cases="--membind=$last:bind:$last --interleave=all:interleave:$online --preferred=$last:prefer:$last --localalloc:local none:default"
# Top reads a process's policy from its numa_maps, and only while the
# process lives: after each interval, for the busiest and largest live
# processes. A workload that runs for a fixed time can end before any of
# those reads (a loaded host stretches how long top takes to attach and
# to go through its reads, and how long the workload takes to start), and
# an exiting one shows no mappings: its rows then carry a null policy (seen
# at loads of 20-22). So each one walks its memory until top has shown its
# policy in an interval that ended after the memory was touched under it.
PIDS=""
for c in $cases; do
	args=${c%%:*}
	[ "$args" = none ] && args=""
	# numactl execs nlwork: $! is the workload's pid
	numactl $args "$WORK" --anon 16 --walk 600 --stop-file "$TMP/stop" \
		--ready-file "$TMP/ready.$args" > "$TMP/w.$args.out" 2>&1 &
	PIDS="$PIDS $!"
done
for c in $cases; do
	args=${c%%:*}
	[ "$args" = none ] && args=""
	wait_until 120 test -f "$TMP/ready.$args" ||
		fail "nlwork under numactl ${args:-(none)} not ready in 120 s: $(cat "$TMP/w.$args.out")"
done
from=$(( $(wc -l < "$J") + 1 ))
# policies_seen: every workload has a non-null policy in a line from $from on
policies_seen() {
	local p
	sed -n "$from,\$p" "$J" > "$TMP/after.jsonl"
	for p in $PIDS; do
		"$JQ" "$TMP/after.jsonl" "processes[pid=$p].mempolicy" | grep -qv '^null$\|^missing$' || return 1
	done
}
wait_until 120 policies_seen || note "after 120 s top has not shown every workload's policy"
touch "$TMP/stop"
for p in $PIDS; do wait "$p" || fail "nlwork under numactl failed: $(cat "$TMP"/w.*.out)"; done
PIDS=""
stop_top "$J"
sed -n "$from,\$p" "$J" > "$TMP/after.jsonl"
for c in $cases; do
	args=${c%%:*} want=${c#*:}
	[ "$args" = none ] && args=""
	pid=$(work_field "$TMP/w.$args.out" pid)
	# the last interval in which its numa_maps was read (an exiting
	# process shows none)
	"$JQ" "$TMP/after.jsonl" "processes[pid=$pid].mempolicy" > "$TMP/pol"
	"$JQ" "$TMP/after.jsonl" "processes[pid=$pid].mempolicy_vma" > "$TMP/vma"
	last_read=$(paste "$TMP/pol" "$TMP/vma" | awk -F '\t' '$1 != "null" && $1 != "missing"' | tail -1)
	got=${last_read%%$'\t'*} vma=${last_read#*$'\t'}
	note "numactl ${args:-(none)}: pid $pid mempolicy '$got', mempolicy_vma $vma"
	[ "$got" = "$want" ] || fail "numactl ${args:-(none)}: pid $pid shows mempolicy '$got', want '$want' (keys: $("$JQ" -L "$J" "processes[pid=$pid]" | head -c 300))"
	[ "$vma" = null ] || fail "numactl ${args:-(none)}: pid $pid shows mempolicy_vma '$vma', want null"
done
