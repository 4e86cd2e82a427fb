# numalens export with many cgroups whose paths are over the 511-byte label:
# the exporter drops each rendered snapshot's rows, which now own a copy of
# the full path (nl_cgroup_full_path); it leaked them once (RSS +11 MB per
# 50 scrapes with 300 such cgroups). 200 cgroups with 530-byte paths, a
# snapshot every 0.2 s and 120 scrapes: RSS over the last 20 scrapes must
# stay within 3 MiB of RSS over scrapes 11-30, and every series is valid.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
root=$("$NL" top --json -n 1 -d 0.2 | "$JQ" - sources.cgroup_root)
a=$(printf 'a%.0s' $(seq 1 250)); b=$(printf 'b%.0s' $(seq 1 250))
T=nlexlong$$
mkdir -p "$root/$T/$a/$b" || fail "cannot create $root/$T/..."
for i in $(seq 1 200); do mkdir "$root/$T/$a/$b/c$i"; done
cleanup_hook() {
	stop_export
	for i in $(seq 1 200); do rmdir "$root/$T/$a/$b/c$i"; done 2>/dev/null
	rmdir "$root/$T/$a/$b" "$root/$T/$a" "$root/$T" 2>/dev/null
}
port=$(free_port) || fail "no free port"
# a removed cgroup stays in the snapshot for its grace period: with the
# default 60 s, cgroups other work removes beside this test (the export
# soak removes 4 a second) would pile up over the first minute and grow
# RSS with no leak; 1 s keeps them out of the comparison
start_export "$port" --delay 0.2 --cgroup-pattern "/$T/*" --cgroup-grace 1
rss_kib() { awk '/^VmRSS:/ { print $2 }' /proc/"$EXPORT_PID"/status; }
# RSS after every scrape: one reading may land while a snapshot is being
# built beside the one being served (+3.6 MiB seen, gone at the next), so
# the median of scrapes 11-30 is compared with that of 101-120; a leak
# grows every scrape and moves the median with it
for i in $(seq 1 120); do
	curl -s -o "$TMP/m" "http://127.0.0.1:$port/metrics" || fail "scrape $i failed"
	echo "$i $(rss_kib)" >> "$TMP/rss"
	sleep 0.2
done
median() { awk -v lo="$1" -v hi="$2" '$1 >= lo && $1 <= hi { print $2 }' "$TMP/rss" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
r20=$(median 11 30) r120=$(median 101 120)
n=$(grep -c "^numalens_cgroup_cpu_seconds_total{cgroup=\"/$T/[^\"]*\.\.\.#" "$TMP/m")
note "long-path cgroup series (cpu seconds) $n; median RSS over scrapes 11-30 $r20 KiB, 101-120 $r120 KiB"
[ "$n" -ge 200 ] || fail "expected >= 200 long-path cgroup series, saw $n"
[ $((r120 - r20)) -le 3072 ] || fail "export RSS grew by $((r120 - r20)) KiB over 100 scrapes (long paths leak?)"
exit 0
