# numalens export on the host kernel: /metrics passes promtool, /, /healthz,
# gzip, 404/405, one-line errors for a taken port and bad addresses, and
# SIGTERM detaches (exit 0, the BPF links it held are gone).
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
cleanup_hook() { [ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"; }
port=$(free_port) || fail "no free port"
start_export "$port" --delay 1 --cgroup-depth 2 --top-procs 5
U=http://127.0.0.1:$port

wait_export_snapshot "$port" 2	# a real interval, not only the start-up snapshot
curl -s -D "$TMP/h" "$U/metrics" > "$TMP/m" || fail "curl /metrics failed"
promtool_ok "$TMP/m" || fail "promtool check metrics: $(head -5 "$TMP/m.lint")"
grep -qi '^content-type: text/plain; version=0.0.4' "$TMP/h" || fail "Content-Type: $(grep -i content-type "$TMP/h")"
grep -qi '^content-encoding' "$TMP/h" && fail "gzip without Accept-Encoding"
for m in numalens_cgroup_cpu_seconds_total numalens_cgroup_fault_locality_ratio_bucket \
	numalens_node_numa_hit_total numalens_bpf_program_runs_total numalens_scrape_duration_seconds \
	numalens_process_cpu_seconds_total numalens_node_preferred_hits_total numalens_node_preferred_foreign_total \
	numalens_cgroup_preferred_node_misses_total numalens_process_preferred_node_hits_total \
	numalens_node_zone_pages_total numalens_zone_pgalloc_pages_total; do
	grep -q "^$m{\?" "$TMP/m" || fail "no $m in /metrics"
done
# the root cgroup is the host: it ran for some of the last seconds
cpu=$(awk '/^numalens_cgroup_cpu_seconds_total\{cgroup="\/",/ { s += $2 } END { print s + 0 }' "$TMP/m")
note "root cgroup cpu seconds: $cpu, $(wc -l < "$TMP/m") lines, $(wc -c < "$TMP/m") bytes"
awk -v c="$cpu" 'BEGIN { exit !(c > 0) }' || fail "root cgroup has no CPU time"
# locality histogram: +Inf == _count
inf=$(sed -n 's/^numalens_cgroup_fault_locality_ratio_bucket{cgroup="\/",le="+Inf"} //p' "$TMP/m")
cnt=$(sed -n 's/^numalens_cgroup_fault_locality_ratio_count{cgroup="\/"} //p' "$TMP/m")
[ -n "$inf" ] && [ "$inf" = "$cnt" ] || fail "+Inf ($inf) != _count ($cnt)"

# gzip on request, same content
curl -s -D "$TMP/hz" -H 'Accept-Encoding: gzip' "$U/metrics" > "$TMP/mz"
grep -qi '^content-encoding: gzip' "$TMP/hz" || fail "no gzip with Accept-Encoding: gzip"
gunzip -c < "$TMP/mz" > "$TMP/mz.txt" || fail "the gzip body does not decompress"
promtool_ok "$TMP/mz.txt" || fail "gzip body fails promtool: $(head -3 "$TMP/mz.txt.lint")"
note "gzip: $(wc -c < "$TMP/mz") bytes for $(wc -c < "$TMP/mz.txt")"

# / and /healthz
curl -s "$U/" > "$TMP/index"
grep -q 'href="/metrics"' "$TMP/index" || fail "/ has no link to /metrics"
grep -qF "$(uname -r)" "$TMP/index" || fail "/ does not show the kernel release"
[ "$(curl -s -o "$TMP/hz" -w '%{http_code}' "$U/healthz")" = 200 ] || fail "/healthz: $(cat "$TMP/hz")"
grep -q '^ok' "$TMP/hz" || fail "/healthz says: $(cat "$TMP/hz")"
# unknown paths and methods
[ "$(curl -s -o /dev/null -w '%{http_code}' "$U/metricsx")" = 404 ] || fail "unknown path is not 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x=1 "$U/metrics")" = 405 ] || fail "POST is not 405"
[ "$(curl -s -o /dev/null -w '%{http_code}' -I "$U/metrics")" = 200 ] || fail "HEAD is not 200"

# the same port again: one line, exit 2, and fast (no BPF load first)
"$NL" export --listen "127.0.0.1:$port" > /dev/null 2> "$TMP/taken.err"; rc=$?
[ $rc = 2 ] || fail "taken port: exit $rc, want 2 ($(cat "$TMP/taken.err"))"
[ "$(wc -l < "$TMP/taken.err")" = 1 ] || fail "taken port: not one line: $(cat "$TMP/taken.err")"
grep -q 'already in use' "$TMP/taken.err" || fail "taken port message: $(cat "$TMP/taken.err")"
note "taken port: $(cat "$TMP/taken.err")"
for bad in 999.1.1.1:80 127.0.0.1:99999 nonsense 127.0.0.1: '::1:80' "[]:$port" "[127.0.0.1]:$port" 192.0.2.7:$port; do
	"$NL" export --listen "$bad" > /dev/null 2> "$TMP/bad.err"; rc=$?
	[ $rc = 2 ] || fail "--listen '$bad': exit $rc, want 2 ($(cat "$TMP/bad.err"))"
	[ "$(wc -l < "$TMP/bad.err")" = 1 ] || fail "--listen '$bad': not one line: $(cat "$TMP/bad.err")"
	note "--listen '$bad': $(cat "$TMP/bad.err")"
done

# keep-alive: a scraper's second request reuses its connection (one
# TCP handshake per scraper, not one per scrape)
curl -sv -o /dev/null -o /dev/null "http://127.0.0.1:$port/metrics" "http://127.0.0.1:$port/metrics" 2> "$TMP/ka.err" ||
	fail "two scrapes on one curl failed: $(tail -2 "$TMP/ka.err")"
grep -qi 'Re-using existing connection' "$TMP/ka.err" || fail "the second scrape did not reuse the connection: $(grep -i 'connection' "$TMP/ka.err" | head -3)"
note "keep-alive: the second scrape reused the connection"

# SIGTERM: clean exit 0, and the BPF links that process held (link ids
# from its fds) no longer exist
pid=$EXPORT_PID
ids=$(grep -h '^link_id:' /proc/"$pid"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u)
[ -n "$ids" ] || fail "numalens export holds no BPF link fds"
stop_export
[ "$EXPORT_RC" = 0 ] || fail "exit $EXPORT_RC after SIGTERM: $(tail -3 "$TMP/export.err")"
grep -q 'stopped' "$TMP/export.err" || fail "no 'stopped' line: $(cat "$TMP/export.err")"
for id in $ids; do
	bpftool link show id "$id" > /dev/null 2>&1 && fail "BPF link $id still exists after exit"
done
note "SIGTERM: exit 0, links $(echo $ids) released"
# a --cgroup-pattern that matches nothing is warned about (a typo would
# look like a quiet cgroup), one that matches is not
"$NL" export --listen 127.0.0.1:0 --cgroup-pattern "/nl-no-such-$$-*" --cgroup-pattern '/*' \
	> /dev/null 2> "$TMP/pat.err" & P=$!
for i in $(seq 1 100); do grep -q serving "$TMP/pat.err" && break; sleep 0.1; done
kill -TERM $P; wait $P
grep -q "pattern '/nl-no-such-$$-\*' matches no cgroup" "$TMP/pat.err" || fail "no warning for an unmatched pattern: $(cat "$TMP/pat.err")"
grep -q "pattern '/\*' matches no" "$TMP/pat.err" && fail "warned about a pattern that matches"
note "unmatched pattern: $(grep 'matches no' "$TMP/pat.err")"
exit 0
