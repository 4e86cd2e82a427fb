# numalens export under abuse, all on loopback: 50 concurrent scrapes,
# clients that send half a request and stall, malformed requests, unknown
# paths, scrapes while cgroups come and go; every /metrics response stays
# valid (promtool) and RSS does not grow without bound over 1,000 scrapes.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
root=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_root)
[ -d "$root" ] || fail "cgroup root '$root' does not exist"
CG=export-robust-$$
cleanup_hook() {
	for fd in $STALLED; do eval "exec $fd>&-"; done
	[ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"
	for d in "$root/$CG"/* "$root/$CG"; do [ -d "$d" ] && rmdir "$d"; done
}
STALLED=
mkdir "$root/$CG" || fail "cannot create $root/$CG"
port=$(free_port) || fail "no free port"
start_export "$port" --delay 0.5 --cgroup-depth 3 --cgroup-grace 1 --top-procs 10
U=http://127.0.0.1:$port
rss_kib() { awk '/^VmRSS:/ { print $2 }' /proc/"$EXPORT_PID"/status; }
valid() { # valid FILE WHAT: complete, promtool-clean, no series twice
	grep -q '^numalens_scrape_duration_seconds ' "$1" || fail "$2: truncated response ($(wc -c < "$1") bytes)"
	promtool_ok "$1" || fail "$2: promtool: $(head -3 "$1.lint")"
	local dup
	# the series is the line without its value: a label value may hold
	# spaces (a cgroup named "a b"), so not the first field
	dup=$(grep -v '^#' "$1" | sed 's/ [^ ]*$//' | sort | uniq -d | head -2)
	[ -z "$dup" ] || fail "$2: duplicate series (Prometheus rejects the scrape): $dup"
}

# 1. stalled half requests first, so everything below runs beside them
for i in 1 2 3 4 5 6 7 8; do
	exec {fd}<>"/dev/tcp/127.0.0.1/$port" || fail "cannot connect"
	printf 'GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ' >&"$fd"
	STALLED="$STALLED $fd"
done
note "8 connections hold half a request"

# 2. 50 concurrent scrapes, while the stalled ones wait
for i in $(seq 1 50); do
	curl -s -m 20 -o "$TMP/c$i" -w '%{http_code}\n' "$U/metrics" > "$TMP/c$i.code" &
done
wait_curls() { local p; for p in $(jobs -p); do [ "$p" = "$EXPORT_PID" ] || wait "$p"; done; }
wait_curls
for i in $(seq 1 50); do
	[ "$(cat "$TMP/c$i.code")" = 200 ] || fail "concurrent scrape $i: HTTP $(cat "$TMP/c$i.code")"
	valid "$TMP/c$i" "concurrent scrape $i"
done
note "50 concurrent scrapes: all 200 and valid"

# 3. malformed requests and unknown paths
raw() { # raw REQUEST: print the status line the server answers with
	local fd line
	exec {fd}<>"/dev/tcp/127.0.0.1/$port" || return 1
	printf '%b' "$1" >&"$fd"
	IFS= read -r -t 10 line <&"$fd"
	exec {fd}>&-
	printf '%s\n' "${line%$'\r'}"
}
s=$(raw 'GARBAGE\r\n\r\n'); note "garbage -> $s"
case $s in "HTTP/1."*" 4"*|"") ;; *) fail "garbage request answered '$s'";; esac
s=$(raw 'GET /metrics HTTP/1.1\r\n\r\n'); note "HTTP/1.1 without Host -> $s"
case $s in "HTTP/1.1 400"*) ;; *) fail "missing Host answered '$s'";; esac
long=$(head -c 40000 /dev/zero | tr '\0' a)
s=$(raw "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: $long\r\n\r\n"); note "40 kB header -> $s"
case $s in "HTTP/1.1 4"*|"") ;; *) fail "oversized header answered '$s'";; esac
s=$(raw 'GET /../../etc/passwd HTTP/1.0\r\n\r\n'); note "path traversal -> $s"
case $s in *" 404"*|*" 400"*) ;; *) fail "/../../etc/passwd answered '$s'";; esac
s=$(raw 'DELETE /metrics HTTP/1.0\r\n\r\n'); note "DELETE -> $s"
case $s in *" 405"*) ;; *) fail "DELETE answered '$s'";; esac
for p in /metric /metrics/ /favicon.ico /metrics%0a /healthz/x; do
	c=$(curl -s -o /dev/null -w '%{http_code}' "$U$p")
	[ "$c" = 404 ] || [ "$c" = 400 ] || fail "$p answered $c, want 404"
done
curl -s "$U/metrics" > "$TMP/after_bad"; valid "$TMP/after_bad" "scrape after malformed requests"

# 4. scrapes while cgroups are created and removed
# every 5th step recreates a name removed a moment ago (a restarted
# service): the removed one is still in its grace period
for i in $(seq 1 30); do
	mkdir "$root/$CG/c$i" 2>/dev/null
	[ $i -gt 3 ] && rmdir "$root/$CG/c$((i - 3))" 2>/dev/null
	[ $((i % 5)) = 0 ] && [ $i -gt 5 ] && { sleep 0.6; mkdir "$root/$CG/c$((i - 3))"; sleep 0.6; rmdir "$root/$CG/c$((i - 3))"; }
	curl -s -m 20 "$U/metrics" > "$TMP/churn$i"
	valid "$TMP/churn$i" "scrape $i during cgroup churn"
	sleep 0.1
done
for i in 28 29 30; do rmdir "$root/$CG/c$i"; done
seen=$(cat "$TMP"/churn* | grep -o "cgroup=\"/$CG/c[0-9]*\"" | sort -u | wc -l)
note "cgroup churn: 30 scrapes valid, $seen churned cgroups seen as label values"
[ "$seen" -ge 5 ] || fail "churned cgroups barely visible ($seen): was the cgroup filter applied?"
# after the grace period their series are gone, the parent keeps counting
churn_gone() {
	curl -s "$U/metrics" > "$TMP/after_churn"
	! grep -q "cgroup=\"/$CG/c" "$TMP/after_churn"
}
wait_until 30 churn_gone ||
	fail "$(grep -c "cgroup=\"/$CG/c" "$TMP/after_churn") series of removed cgroups still exported 30 s after the churn"
valid "$TMP/after_churn" "scrape after churn"
grep -q "cgroup=\"/$CG\"" "$TMP/after_churn" || fail "parent /$CG vanished"

# 5. the stalled clients are dropped by the idle timeout (10 s), not held
# forever: each read waits up to 30 s for the server to close (a busy host
# may be late), returning as soon as it does
closed=0
for fd in $STALLED; do
	# EOF (status 1) or an error status line: closed; a timeout (> 128): still held
	line=
	IFS= read -r -t 30 line <&"$fd"; rc=$?
	if [ $rc = 1 ] || { [ $rc = 0 ] && [ "${line#HTTP/1.1 4}" != "$line" ]; }; then
		closed=$((closed + 1))
	fi
	eval "exec $fd>&-"
done
STALLED=
note "stalled connections closed by the server: $closed of 8"
[ $closed = 8 ] || fail "only $closed of 8 stalled connections were closed"

# 6. memory over 1,000 scrapes (curl reuses one connection per glob)
curl -s -o /dev/null "$U/metrics?[1-200]" || fail "200 scrapes failed"
r200=$(rss_kib)
curl -s -o /dev/null "$U/metrics?[1-800]" || fail "800 scrapes failed"
r1000=$(rss_kib)
note "RSS after 200 scrapes: ${r200} KiB, after 1000: ${r1000} KiB"
# allow 25 % + 4 MiB for allocator noise; a per-scrape leak of the ~50 kB
# response would add ~40 MiB over the 800 scrapes
[ "$r1000" -le $(( r200 * 5 / 4 + 4096 )) ] || fail "RSS grew from $r200 to $r1000 KiB over 800 scrapes"
curl -s "$U/metrics" > "$TMP/last"; valid "$TMP/last" "scrape 1001"
exit 0
