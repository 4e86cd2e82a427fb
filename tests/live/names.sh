# Process names the kernel accepts but no output format does: a name cut by
# the kernel inside a UTF-8 character, bytes that are not UTF-8, a terminal
# escape sequence, tabs and newlines (prctl(PR_SET_NAME) takes any bytes).
# Served with export --top-procs, /metrics passes promtool; top --json is
# valid UTF-8; the batch text carries no control character; each view
# shows the same cleaned name.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
command -v iconv > /dev/null || skip "iconv is not installed"
cleanup_hook() { kill ${WPIDS:-} 2>/dev/null; [ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"; }
port=$(free_port) || fail "no free port"
start_export "$port" --delay 1 --top-procs 40
# raw name -> the cleaned name every view must print (README "Names")
raw=($'inner-job-\xe5\x90\x8c\xe6\xad\xa5' $'w\xff\xfe\x80x' $'e\x1b[2Jx' $'t\tb\nc')
want=($'inner-job-\xe5\x90\x8c' $'w\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx' 'e\x1b[2Jx' 't\x09b\x0ac')
# the workers spin until the exit hook kills them: with a fixed 60 s they
# ended before the last view (top --batch) on a host at load 20, where
# starting the exporter and two tops took longer than that
WPIDS=
for r in "${raw[@]}"; do
	"$WORK" --comm "$r" --spin 3600 > /dev/null & WPIDS="$WPIDS $!"
done
# a label value escapes '\' once more
labs=()
for w in "${want[@]}"; do labs+=("$(printf '%s' "$w" | sed 's/\\/\\\\/g')"); done
# every scrape must pass promtool; the workers are among the K busiest once
# an interval has seen them run (on a busy host that may take a few)
for try in $(seq 1 15); do
	sleep 1
	curl -s "http://127.0.0.1:$port/metrics" > "$TMP/m" || fail "curl /metrics failed"
	promtool_ok "$TMP/m" || fail "promtool check metrics: $(head -3 "$TMP/m.lint")"
	iconv -f UTF-8 -t UTF-8 "$TMP/m" > /dev/null 2>&1 || fail "/metrics is not valid UTF-8"
	i=0; seen=0
	for p in $WPIDS; do
		grep -qF "pid=\"$p\",comm=\"${labs[$i]}\"" "$TMP/m" && seen=$((seen + 1))
		i=$((i + 1))
	done
	[ $seen = 4 ] && break
done
i=0
for p in $WPIDS; do
	grep -qF "pid=\"$p\",comm=\"${labs[$i]}\"" "$TMP/m" ||
		fail "no series with pid=\"$p\",comm=\"${labs[$i]}\" after $try scrapes; saw: $(grep -o "pid=\"$p\",comm=\"[^,]*" "$TMP/m" | head -1 | od -c | head -3)"
	i=$((i + 1))
done
note "/metrics: promtool ok, $(grep -c 'comm=' "$TMP/m") process series, the four names cleaned"
"$NL" top --json -n 1 -d 0.5 > "$TMP/top.json" 2> "$TMP/top.err" || fail "top --json exited $?: $(tail -1 "$TMP/top.err")"
iconv -f UTF-8 -t UTF-8 "$TMP/top.json" > /dev/null 2>&1 || fail "top --json output is not valid UTF-8"
i=0
for p in $WPIDS; do
	c=$("$JQ" "$TMP/top.json" "processes[pid=$p].comm")
	[ "$c" = "${want[$i]}" ] || fail "top --json comm of $p: '$(printf '%s' "$c" | od -c | head -2)', expected the cleaned ${want[$i]}"
	i=$((i + 1))
done
note "top --json: valid UTF-8, the same four names"
"$NL" top --batch -n 1 -d 0.5 > "$TMP/top.txt" 2>&1 || fail "top --batch exited $?"
for p in $WPIDS; do
	kill -0 "$p" 2>/dev/null || fail "worker $p ended before top --batch read it"
done
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$TMP/top.txt" && fail "top --batch wrote a control character: $(LC_ALL=C grep -n $'[\x01-\x08\x0b-\x1f\x7f]' "$TMP/top.txt" | head -1 | od -c | head -2)"
iconv -f UTF-8 -t UTF-8 "$TMP/top.txt" > /dev/null 2>&1 || fail "top --batch output is not valid UTF-8"
for w in "${want[@]}"; do
	grep -qF "$w" "$TMP/top.txt" || fail "top --batch does not show the cleaned name $w"
done
note "top --batch: no control character, the same four names"
exit 0
