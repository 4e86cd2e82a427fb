#!/usr/bin/env bash
# make bench, section 2: numalens export's render time, response size and
# RSS for a synthetic 2,000 cgroups x 4 nodes (--synthetic: the real HTTP
# server and renderer, a generated snapshot), and the RSS of a real
# exporter on this host. A report, never pass/fail; targets on the 2-core
# dev machine: <= 20 ms per render, <= 64 MiB RSS.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
NL=$B/numalens
N=${SCRAPES:-50}
TMP=$(mktemp -d /tmp/nl-bench-export.XXXXXX)
EPID=
trap '[ -n "$EPID" ] && kill $EPID 2>/dev/null; rm -rf "$TMP"' EXIT

free_port() {
	local p
	while :; do
		p=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
		ss -Htln "sport = :$p" | grep -q . || { echo "$p"; return; }
	done
}
# serve PORT ARGS...: start the exporter, wait for /metrics
serve() {
	local port=$1 i; shift
	"$NL" export --listen "127.0.0.1:$port" "$@" > /dev/null 2> "$TMP/err" &
	EPID=$!
	for i in $(seq 1 100); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 200 ] && return 0
		sleep 0.2
	done
	echo "export did not start: $(cat "$TMP/err")"; return 1
}
wait_curls() { local p; for p in $(jobs -p); do [ "$p" = "$EPID" ] || wait "$p"; done; }
kib() { awk -v k="^$2:" '$0 ~ k { print $2 }' /proc/"$1"/status; }
stats() { sort -n | awk '{ v[NR] = $1; s += $1 } END { printf "%.2f %.2f %.2f", v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], v[NR] }'; }

echo "2. numalens export: synthetic 2000 cgroups x 4 nodes, all exported (every cgroup, top 10 processes)"
"$B/tests/bench_export_render" 2000 4 "$N" | sed 's/^/   /'
port=$(free_port)
serve "$port" --synthetic 2000x4 --delay 1 --cgroup-depth 2 --max-cgroups 0 --top-procs 10 || exit 0
U=http://127.0.0.1:$port/metrics
curl -s "$U" > "$TMP/m"
size=$(wc -c < "$TMP/m"); lines=$(grep -vc '^#' "$TMP/m")
gz=$(curl -s -H 'Accept-Encoding: gzip' "$U" | wc -c)
t0=$(date +%s%N); curl -s -o /dev/null "$U?[1-20]"; t1=$(date +%s%N)
printf '   %-36s %s\n' "served /metrics:" "$size bytes, $lines series; gzip $gz bytes"
# README "numalens export", worst case per host: N nodes, C cgroups (the
# root among them), K processes, P BPF programs (the synthetic snapshot
# has 2), reclaim families included (episode histograms for the root only,
# the default)
# (the synthetic snapshot has no zones: Z = 0)
worst_case() { local N=$1 C=$2 K=$3 P=$4 Z=0; echo $(( 101 + 2 * P + 49 * N + 2 * Z + C * (4 * N + 60) + K * (2 * N + 29) )); }
want=$(worst_case 4 2000 10 2)
if [ "$lines" = "$want" ]; then verdict="= served"; else verdict="!= served $lines: update README or the renderer"; fi
printf '   %-36s %s\n' "README worst-case series formula:" "$want $verdict"
printf '   %-36s %s\n' "scrape incl. HTTP + curl, mean ms:" "$(( (t1 - t0) / 20000000 ))"
printf '   %-36s %s\n' "exporter RSS KiB after 20 scrapes:" "$(kib $EPID VmRSS) (peak $(kib $EPID VmHWM))   (target <= 65536)"
for i in $(seq 1 50); do curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$U" & done; wait_curls
printf '   %-36s %s\n' "... after 50 concurrent scrapes:" "$(kib $EPID VmRSS) (peak $(kib $EPID VmHWM))"
kill $EPID; wait $EPID 2>/dev/null; EPID=
echo
echo "   real exporter on this host (BPF loaded, --cgroup-depth 8 --top-procs 10), 20 scrapes"
port=$(free_port)
serve "$port" --delay 1 --cgroup-depth 8 --top-procs 10 || exit 0
curl -s -o /dev/null "http://127.0.0.1:$port/metrics?[1-20]"
curl -s "http://127.0.0.1:$port/metrics" > "$TMP/m"
printf '   %-36s %s\n' "response:" "$(wc -c < "$TMP/m") bytes, $(grep -vc '^#' "$TMP/m") series, $(sed -n 's/^numalens_cgroups_exported //p' "$TMP/m") cgroups"
printf '   %-36s %s\n' "render time ms:" "$(sed -n 's/^numalens_scrape_duration_seconds //p' "$TMP/m" | awk '{ print $1 * 1000 }')"
printf '   %-36s %s\n' "exporter RSS KiB (now / peak):" "$(kib $EPID VmRSS) / $(kib $EPID VmHWM)"
