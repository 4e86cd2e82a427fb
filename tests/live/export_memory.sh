# numalens export's memory at 2,000 cgroups x 4 nodes (--synthetic: the
# real HTTP server and renderer on a generated snapshot, no BPF): over 20
# snapshots, each scraped with and without gzip while the next is built,
# the peak RSS (VmHWM) stays within 64 MiB, and a plain scrape is the
# whole text: its bytes are its Content-Length and it ends with the last
# family. A memory bound, not a time: on a slow host the exporter only
# renders fewer snapshots.
. "$(dirname "$0")/common.bash"
# (not export_common.bash: this test needs no promtool)
cleanup_hook() { [ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"; }
port=$(free_port) || fail "no free TCP port"
"$NL" export --listen "127.0.0.1:$port" --synthetic 2000x4 --delay 1 --cgroup-depth 2 --max-cgroups 0 \
	--top-procs 10 > /dev/null 2> "$TMP/export.err" &
EXPORT_PID=$!
for i in $(seq 1 300); do
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 200 ] && break
	kill -0 "$EXPORT_PID" 2>/dev/null || fail "numalens export exited early: $(cat "$TMP/export.err")"
	sleep 0.2
done
U=http://127.0.0.1:$port/metrics
for i in $(seq 1 20); do
	curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$U" &
	curl -s -D "$TMP/h" -o "$TMP/plain" "$U" || fail "plain scrape $i failed"
	wait $!
	len=$(tr -d '\r' < "$TMP/h" | awk 'tolower($1) == "content-length:" { print $2 }')
	got=$(wc -c < "$TMP/plain")
	[ "$len" = "$got" ] || fail "plain scrape $i: $got bytes for Content-Length $len"
	tail -1 "$TMP/plain" | grep -q '^numalens_scrape_duration_seconds ' || fail "plain scrape $i is cut short"
	sleep 0.5
done
hwm=$(awk '/^VmHWM:/ { print $2 }' /proc/"$EXPORT_PID"/status)
note "20 snapshots of 2,000 cgroups x 4 nodes scraped: $got bytes of text, peak RSS $hwm KiB"
[ "$hwm" -le 65536 ] || fail "peak RSS $hwm KiB, over 64 MiB"
exit 0
