# Past the supported node count every command says in one line what the
# limit is and exits 2, before loading anything. The host's possible node
# list is replaced in a private mount namespace (a file bind-mounted over
# /sys/devices/system/node/possible) by node ids 0-64 (65 nodes); 0-63
# (64 nodes) is accepted.
. "$(dirname "$0")/common.bash"
[ "$(id -u)" = 0 ] || skip "needs root (mount namespace)"
command -v unshare >/dev/null || skip "unshare (util-linux) missing"
unshare -m --propagation private true 2>/dev/null || skip "cannot create a mount namespace here"
# fake POSSIBLE CMD...: run CMD with node/possible reading POSSIBLE
fake() {
	local possible=$1; shift
	echo "$possible" > "$TMP/possible"
	unshare -m --propagation private sh -c '
		mount --bind "$0" /sys/devices/system/node/possible || exit 99
		exec "$@"' "$TMP/possible" "$@"
}
for cmd in "top --batch -n 1" "top --json -n 1" "export --listen 127.0.0.1:10079" "vmscan -n 1" "reclaim --status /"; do
	fake 0-64 "$NL" $cmd > "$TMP/out" 2> "$TMP/err"; rc=$?
	[ $rc != 99 ] || skip "cannot bind-mount over /sys/devices/system/node/possible"
	[ $rc = 2 ] || fail "'numalens $cmd' with 65 possible nodes exited $rc, expected 2 (stderr: $(cat "$TMP/err"))"
	[ "$(wc -l < "$TMP/err")" = 1 ] || fail "'numalens $cmd': expected one line on stderr, saw: $(cat "$TMP/err")"
	grep -q "node ids up to 64; numalens supports at most 64 nodes" "$TMP/err" ||
		fail "'numalens $cmd': the line should name the limit: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "'numalens $cmd' printed on stdout: $(head -2 "$TMP/out")"
	note "ok: numalens $cmd -> 2: $(cat "$TMP/err")"
done
# 64 possible nodes pass the check (the command then goes on; one
# interval of top is enough to see it did not refuse)
# interval of top is enough to see it did not refuse, and the on-CPU time
# map sized for 64 nodes loads)
fake 0-63 "$NL" top --json -n 1 -d 0.5 > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc = 0 ] || fail "64 possible nodes: top exited $rc: $(cat "$TMP/err")"
grep -q '"sched":true' "$TMP/out" || fail "64 possible nodes: the sched program did not load: $(grep -o '"missing":"[^"]*"' "$TMP/out")"
note "ok: 64 possible nodes accepted, sched program loaded"
exit 0
