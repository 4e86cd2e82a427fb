# numalens reclaim on the host kernel: bad input gets one line and exit 2,
# no root exit 3; --status prints the seed's scan_weight line for a real
# memcg; --dry-run logs a decision per pass and reclaims nothing.
. "$(dirname "$0")/common.bash"
expect() { # expect CODE PATTERN CMD...
	local code=$1 pat=$2; shift 2
	"$@" > "$TMP/out" 2> "$TMP/err"; local rc=$?
	[ $rc = "$code" ] || fail "'$*' exited $rc, expected $code (stderr: $(cat "$TMP/err"))"
	grep -q -- "$pat" "$TMP/err" || fail "'$*': expected '$pat' in: $(cat "$TMP/err")"
	note "ok: $* -> $rc: $(head -1 "$TMP/err")"
}
expect 2 "give at least one cgroup" "$NL" reclaim
expect 2 "starting with '/'" "$NL" reclaim reclaim-x
expect 2 "neither a size" "$NL" reclaim --high 120% /
expect 2 "neither a size" "$NL" reclaim --low abc /
expect 2 "auto, lru_gen, damos, madvise or memcg" "$NL" reclaim --backend foo /
expect 2 "lottery or round-robin" "$NL" reclaim --victim best /
expect 2 "LO,HI" "$NL" reclaim --balance 120,80 /
expect 2 "no hex or exponent" "$NL" reclaim --high 0x10M /
expect 2 "no hex or exponent" "$NL" reclaim --low 1e-300% /
expect 2 "from 0.01 to" "$NL" reclaim --rate-limit 1e-300 /
expect 2 "no cgroup under" "$NL" reclaim --dry-run '/reclaim-no-such-dir'
# the root cgroup is the whole host: never a target (--status may read it)
expect 2 "/ is the root cgroup, the whole host" "$NL" reclaim --dry-run --duration 1 /
expect 2 "/ is the root cgroup" "$NL" reclaim --dry-run --duration 1 //
# only '*' and '?' make a pattern: a path with a '[' but neither must
# exist (it used to be waited for as a glob, exit 0); echoed cleaned
expect 2 'no cgroup under .* matches /reclaim-nope\\x1b\[31mX:' "$NL" reclaim --dry-run --duration 1 $'/reclaim-nope\x1b[31mX'
LC_ALL=C grep -q $'\x1b' "$TMP/err" && fail "a raw ESC of the argument reached stderr: $(cat -v "$TMP/err")"
if command -v setpriv > /dev/null; then
	expect 3 "needs CAP_BPF and CAP_PERFMON" setpriv --reuid=65534 --regid=65534 --clear-groups "$NL" reclaim --status /
fi
"$NL" reclaim --help | grep -q -- '--dry-run' || fail "reclaim --help should describe --dry-run"

# a real memcg with page cache: status and a dry run
root=$(memcg_root)
CG=$root/reclaim-live-$$
mkdir "$CG" || skip "cannot create a cgroup under $root"
# ${X:-}: under set -u an unset name aborts the whole exit trap, rmdir and
# all (a failure before the workload started left $CG behind)
cleanup_hook() {
	[ -n "${WPID:-}" ] && kill "$WPID" 2>/dev/null && wait "$WPID" 2>/dev/null
	rmdir "$CG" "${LATE:-}" "${LATE_ESC:-}" "${BS:-}" "${NOLIM:-}" 2>/dev/null; rm -f "$TMP/f"
}
if [ -f "$CG/memory.limit_in_bytes" ]; then echo $((64 << 20)) > "$CG/memory.limit_in_bytes"; else echo $((64 << 20)) > "$CG/memory.max"; fi
# a pattern that matches nothing yet is waited for, and a cgroup made
# later is picked up at the next interval
LATE=$root/reclaim-late-$$ LATE_ESC=$root/reclaim-late-$$$'-\x1b[31m' BS=
"$NL" reclaim --dry-run --delay 0.5 --duration 6 "/reclaim-late-$$*" > "$TMP/late.out" 2> "$TMP/late.err" &
LPID=$!
for i in $(seq 100); do grep -q "waiting" "$TMP/late.err" && break; sleep 0.1; done
grep -q "matches /reclaim-late-$$\* yet: waiting" "$TMP/late.err" || fail "a pattern matching nothing yet: expected 'yet: waiting' on stderr, saw: $(cat "$TMP/late.err")"
mkdir "$LATE" "$LATE_ESC"
wait $LPID; rc=$?
rmdir "$LATE" "$LATE_ESC"
[ $rc = 0 ] || fail "reclaim waiting for a pattern exited $rc: $(cat "$TMP/late.err")"
grep -q "managing cgroup /reclaim-late-$$\$" "$TMP/late.out" || fail "a cgroup made after start was not picked up: $(cat "$TMP/late.out")"
# the line that announces a new cgroup shows its name cleaned, as the
# others do: the name's ESC byte never reaches the agent's log
LC_ALL=C grep -q $'\x1b' "$TMP/late.out" && fail "a raw ESC byte of a new cgroup's name reached the log: $(cat -v "$TMP/late.out" | grep -m1 managing)"
grep -q "managing cgroup /reclaim-late-$$-\\\\x1b\[31m#[0-9]" "$TMP/late.out" || fail "the escape-named cgroup made after start is not announced cleaned: $(cat -v "$TMP/late.out" | grep managing)"
note "ok: a pattern matching nothing at start waits, and picks up /reclaim-late-$$ made later"

# a plain path is taken as written, whatever glob(3) would make of it:
# systemd names cgroups with backslash escapes ("system-systemd\x2dfsck.slice")
BS=$root/reclaim-bs\\x2d$$
mkdir "$BS" || fail "cannot create $BS"
"$NL" reclaim --status "/reclaim-bs\\x2d$$" > "$TMP/bs" 2>&1 || fail "--status of an existing cgroup named with a backslash: $(head -1 "$TMP/bs")"
grep -q "^cgroup /reclaim-bs\\\\x2d$$ id=" "$TMP/bs" || fail "--status of /reclaim-bs\\x2d$$ lacks its line: $(head -2 "$TMP/bs")"
rmdir "$BS"
note "ok: a plain path with a backslash (/reclaim-bs\\x2d$$) is found as written"

# no memory limit with the default percent watermarks: nothing to act on,
# said at once (it ran its whole -d doing nothing, exit 0); bytes are fine
NOLIM=$root/reclaim-nolim-$$
mkdir "$NOLIM" || fail "cannot create $NOLIM"
expect 2 "has no memory limit, so a percent watermark" "$NL" reclaim --dry-run --duration 1 "/reclaim-nolim-$$"
"$NL" reclaim --dry-run --duration 0.3 --high 1M --low 512K "/reclaim-nolim-$$" > "$TMP/nolim" 2>&1 ||
	fail "bytes watermarks on a cgroup without a limit exited $?: $(tail -2 "$TMP/nolim")"
rmdir "$NOLIM"
# --high in bytes with the default --low 70% of this 64M limit: never acts
expect 2 "is not below --high" "$NL" reclaim --dry-run --duration 1 --high 16M "/$(basename "$CG")"
(echo $BASHPID > "$CG/cgroup.procs"; exec "$WORK" --file 24 --file-path "$TMP/f" --anon 4 --ready-file "$TMP/rdy" --hold 60 > /dev/null) &
WPID=$!
for i in $(seq 100); do [ -f "$TMP/rdy" ] && break; sleep 0.1; done
[ -f "$TMP/rdy" ] || fail "workload not ready"
"$NL" reclaim --status "/$(basename "$CG")" > "$TMP/status" 2>&1 || fail "--status failed: $(cat "$TMP/status")"
grep -q '^scan_weight=[0-9]* N0=[0-9]*' "$TMP/status" || fail "--status lacks the scan_weight line: $(cat "$TMP/status")"
w=$(sed -n 's/^scan_weight=\([0-9]*\).*/\1/p' "$TMP/status")
[ "$w" -gt 0 ] || fail "scan_weight 0 for a memcg holding 24 MiB of page cache"
# the computed state is the one an agent started now would take: above
# high (24 MiB held, high 8M) it would reclaim; below high it stands by
"$NL" reclaim --status --high 8M --low 4M "/$(basename "$CG")" 2>&1 | grep -q "^cgroup /$(basename "$CG") .* state=reclaiming " ||
	fail "--status above high should say state=reclaiming: $("$NL" reclaim --status --high 8M --low 4M "/$(basename "$CG")" 2>&1 | grep '^cgroup')"
"$NL" reclaim --status --high 60M --low 50M "/$(basename "$CG")" 2>&1 | grep -q "^cgroup /$(basename "$CG") .* state=idle " ||
	fail "--status below high should say state=idle"
u0=$(cat "$CG"/memory.usage_in_bytes "$CG"/memory.current 2>/dev/null | head -1)
"$NL" reclaim --dry-run --delay 0.2 --duration 3.5 --high 8M --low 4M "/$(basename "$CG")" > "$TMP/dry" 2>&1 || fail "dry run failed: $(tail -2 "$TMP/dry")"
cat "$TMP/dry"
# each decision line starts with its time in ISO 8601 (UTC, milliseconds)
n=$(grep -c '^[0-9]\{4\}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]\{3\}Z dry-run .* would reclaim [0-9]* KiB from node [0-9]* via' "$TMP/dry")
# a pass every 0.2 s decides again (usage never falls in a dry run); the
# decisions are said once a second, with how many went unsaid since
[ "$n" -ge 2 ] || fail "dry run: expected a decision line a second (>= 2 in 3.5 s), each starting with an ISO 8601 time, saw $n"
[ "$n" -le 5 ] || fail "dry run: $n decision lines in 3.5 s: at most one a second (no flood)"
grep -q ' [1-9][0-9]* more decisions since the last line)' "$TMP/dry" || fail "dry run: no line counts the decisions it did not say"
u1=$(cat "$CG"/memory.usage_in_bytes "$CG"/memory.current 2>/dev/null | head -1)
within_pct "$u1" "$u0" 10 || fail "dry run changed usage: $u0 -> $u1"
grep -q 'reclaimed .* pages' "$TMP/dry" && fail "dry run reclaimed pages"

# published state (one file per agent, reclaim_read.h), then the cgroup
# disappears while the agent runs: one line saying so, the agent carries
# on and exits 0. It runs until its state drops the cgroup (or 30 s), then
# SIGINT: a fixed -d 2.5 ended before a busy host got to the rmdir.
"$NL" reclaim --delay 0.2 --duration 60 --high 8M --low 4M "/reclaim-live-$$*" > "$TMP/gone" 2>&1 &
AG=$!
J=/run/numalens/reclaim/$AG.json
wait_until 30 grep -q '"path":"/'"$(basename "$CG")"'"' "$J"
grep -q '"path":"/'"$(basename "$CG")"'"' "$J" || fail "agent state $J lacks the cgroup: $(head -c 300 "$J" 2>&1)"
grep -q '"draws_by_node":{"limit":\[[0-9]' "$J" || fail "agent state lacks draws: $(head -c 300 "$J")"
[ -f "/run/numalens/reclaim/$AG.status" ] || fail "no status file beside $J"
# a second agent on a cgroup the first manages would fight it: refused,
# naming the first one's pid
expect 2 "cgroup /$(basename "$CG") is already managed by the reclaim agent with pid $AG" \
	"$NL" reclaim --dry-run --duration 1 --high 8M --low 4M "/$(basename "$CG")"
kill "$WPID"; wait "$WPID" 2>/dev/null
rmdir "$CG" || fail "cannot remove $CG"
dropped() { ! grep -q '"path":"/'"$(basename "$CG")"'"' "$J" 2>/dev/null || ! kill -0 $AG 2>/dev/null; }
wait_until 30 dropped
kill -INT $AG 2>/dev/null; wait $AG; rc=$?
cat "$TMP/gone"
[ $rc = 0 ] || fail "agent exit $rc after its cgroup went away"
grep -q 'disappeared' "$TMP/gone" || fail "no 'disappeared' line after rmdir: $(tail -3 "$TMP/gone")"
[ -e "$J" ] && fail "the agent left $J behind at exit"
cleanup_hook() { :; }

# the limit-reclaim hook: a memcg writing past its limit makes BPF draw
# (6.18: memcg found from the charging task; 7.x: from the tracepoint)
L=$root/reclaim-live-lim-$$
mkdir "$L" || fail "cannot create $L"
cleanup_hook() { rmdir "$L" 2>/dev/null; rm -f "$TMP/f2"; }
if [ -f "$L/memory.limit_in_bytes" ]; then echo $((16 << 20)) > "$L/memory.limit_in_bytes"; else echo $((16 << 20)) > "$L/memory.max"; fi
"$NL" reclaim --dry-run --delay 0.5 --duration 300 --high 12M --low 8M "/$(basename "$L")" > "$TMP/lim" 2>&1 &
AG=$!
J=/run/numalens/reclaim/$AG.json
wait_until 30 grep -q 'limit-reclaim hook' "$TMP/lim"	# started, its hook attached
# bursts until the published state counts a limit-path draw (at most 20):
# a burst can fall before the agent's first table that sees the page
# cache an earlier one left (no eligible node then); a fixed two bursts in
# a 5 s run drew nothing once while another job booted guests
limit_drawn() { grep -q '"draws_by_node":{"limit":\[[0-9]*[1-9]' "$J" 2>/dev/null; }
for i in $(seq 1 20); do
	(echo $BASHPID > "$L/cgroup.procs"; exec "$WORK" --file 40 --file-path "$TMP/f2" > /dev/null)
	wait_until 3 limit_drawn && break
done
kill -INT $AG 2>/dev/null; wait $AG
grep -q 'limit-reclaim hook attached' "$TMP/lim" || fail "limit hook not attached: $(head -1 "$TMP/lim")"
n=$(grep -c 'limit reclaim: BPF lottery drew node' "$TMP/lim")
note "limit-path draws: $n; $(grep 'draws limit' "$TMP/lim")"
[ "$n" -ge 1 ] || fail "no limit-path draw while writing 40 MiB in a 16M memcg: $(grep 'draws limit' "$TMP/lim")"
# now, not in the hook: the hooks below replace it
rmdir "$L" || fail "cannot remove $L after its workload ended"

# a pattern over short-lived cgroups: more than NL_RA_MAX_CG (64) come and
# go one after another; the entries of those that went are reused, so the
# last one is still managed
"$NL" reclaim --dry-run --delay 0.05 --high 1M --low 512K "/reclaim-churn-$$-*" > "$TMP/churn" 2>&1 &
AG=$!
# each step waits until the agent's published state shows the cgroup
managed() { grep -q "\"path\":\"/reclaim-churn-$$-$1\"" "/run/numalens/reclaim/$AG.json" 2>/dev/null; }
mkdir "$root/reclaim-churn-$$-first"
wait_until 30 managed first || fail "the agent did not take /reclaim-churn-$$-first within 30 s"
for i in $(seq 1 70); do mkdir "$root/reclaim-churn-$$-$i"; sleep 0.1; rmdir "$root/reclaim-churn-$$-$i"; done
mkdir "$root/reclaim-churn-$$-last"
wait_until 30 managed last
kill $AG; wait $AG
rmdir "$root/reclaim-churn-$$-first" "$root/reclaim-churn-$$-last"
grep -q "more than 64 cgroups match" "$TMP/churn" && fail "entries of removed cgroups are not reused: $(grep -m1 'more than' "$TMP/churn")"
grep -q "managing cgroup /reclaim-churn-$$-last" "$TMP/churn" || fail "the 72nd cgroup of the pattern is not managed"
note "72 cgroups through one pattern: $(grep -c 'managing cgroup' "$TMP/churn") managed, none refused"
# more cgroups match than the agent has room for: said once, not once per
# interval and cgroup (a pattern over 1000 cgroups flooded the log)
cleanup_hook() { for i in $(seq 1 70); do rmdir "$root/reclaim-many-$$-$i"; done 2>/dev/null; }
for i in $(seq 1 70); do mkdir "$root/reclaim-many-$$-$i" || fail "cannot create cgroup $i of 70"; done
"$NL" reclaim --dry-run --delay 0.1 --duration 3 --high 1M --low 512K "/reclaim-many-$$-*" > "$TMP/many" 2> "$TMP/many.err" ||
	fail "reclaim over 70 cgroups exited $?: $(tail -2 "$TMP/many.err")"
for i in $(seq 1 70); do rmdir "$root/reclaim-many-$$-$i"; done
n=$(grep -c "more than 64 cgroups match" "$TMP/many.err")
[ "$n" = 1 ] || fail "70 cgroups for 64 entries: expected one 'more than 64' line, saw $n: $(head -3 "$TMP/many.err")"
grep -q "more than 64 cgroups match: 6 ignored" "$TMP/many.err" || fail "the line does not say 6 were ignored: $(cat "$TMP/many.err")"
note "70 cgroups for 64 entries: one line, $(cat "$TMP/many.err")"
# SIGTERM as soon as the agent catches it (SigCgt in /proc/PID/status has
# bit 14): the handler is installed before the BPF load (~20 ms), so the
# agent ends cleanly (exit 0) even then. A fixed delay raced with exec.
TERMCG=$root/reclaim-term-$$
mkdir "$TERMCG" || fail "cannot create $TERMCG"
cleanup_hook() { rmdir "$TERMCG" 2>/dev/null; }
for try in 1 2 3; do
	"$NL" reclaim --dry-run --duration 5 --high 1M --low 512K "/reclaim-term-$$" > /dev/null 2>&1 & AG=$!
	cgt=0
	for i in $(seq 1 2000); do
		# the forked shell catches SIGTERM too until it execs numalens:
		# read the mask only once the process is numalens
		[ "$(cat /proc/$AG/comm 2>/dev/null)" = numalens ] || continue
		cgt=$(awk '$1 == "SigCgt:" { print $2 }' /proc/$AG/status 2>/dev/null)
		[ -n "$cgt" ] && (( 0x$cgt & 0x4000 )) && break
	done
	kill -TERM $AG; wait $AG; rc=$?
	[ $rc = 0 ] || fail "SIGTERM once SIGTERM is caught (SigCgt $cgt): exit $rc, expected 0"
done
rmdir "$TERMCG"
note "SIGTERM during start-up: exit 0"

# a cgroup whose name holds a terminal escape and bytes that are not UTF-8
# (anyone who can create a cgroup a pattern matches can name it): status
# and log lines show it cleaned, with its id, never the raw bytes
E=$root/$'reclaim-esc-\x1b[31m\xff'$$
mkdir "$E" || fail "cannot create a cgroup with an escape in its name"
cleanup_hook() { rmdir "$E" 2>/dev/null; }
"$NL" reclaim --status "/reclaim-esc-*" > "$TMP/esc" 2>&1 || fail "--status of an odd name failed: $(tail -1 "$TMP/esc")"
"$NL" reclaim --dry-run --duration 0.5 --high 1M --low 512K "/reclaim-esc-*" >> "$TMP/esc" 2>&1
LC_ALL=C grep -q $'\x1b' "$TMP/esc" && fail "a raw ESC byte reached the output: $(cat -v "$TMP/esc" | head -3)"
iconv -f UTF-8 -t UTF-8 "$TMP/esc" > /dev/null 2>&1 || fail "the output is not valid UTF-8"
grep -q 'reclaim-esc-\\x1b\[31m' "$TMP/esc" || fail "the cleaned name (\\x1b) is not shown: $(head -2 "$TMP/esc")"
note "a cgroup named with an escape shows as $(grep -o '/reclaim-esc-[^ ]*' "$TMP/esc" | head -1)"
rmdir "$E"
exit 0
