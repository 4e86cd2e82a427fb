#!/usr/bin/env bash
# make bench: what each opt-in view of `numalens top` costs per event on
# this host (a report, never pass/fail). For each view (--alloc-latency,
# --alloc-stacks, --page-lifetime) and the default programs alone, in an
# order that rotates every round, RUNS rounds (default 5): numalens top
# --self-cost with that view while nlwork faults in 128 MiB of anonymous
# memory twice (THP off); then the kernel's BPF run-time stats of each
# program (bpftool: run_time_ns / run_cnt) give ns per run, beside the
# default allocation program's (handle_page_alloc) in the same round. A
# view the kernel cannot load prints its reason (here: fentry refused and
# no kprobes makes --alloc-latency unavailable).
# Output: mean +- sd and [min..max] of ns/run per program over the rounds.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
NL=${NL:-$B/numalens}; WORK=$B/tests/nlwork
RUNS=${RUNS:-5}
OUT=$B/bench; mkdir -p "$OUT"
RAW=$OUT/optin_cost.raw; : > "$RAW"
THP=/sys/kernel/mm/transparent_hugepage/enabled
old_thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $THP 2>/dev/null)
[ -w $THP ] && echo never > $THP
trap '[ -n "$old_thp" ] && echo "$old_thp" > $THP; rm -f /tmp/nl-optin.$$.*' EXIT

# round VIEW R: one measured run of top with VIEW ("default" = none).
round() {
	local view=$1 r=$2 flag='' pid before
	[ "$view" != default ] && flag=--$view
	# other numalens instances may run on a shared host: ours are the
	# programs loaded after this list
	before=$(bpftool prog show -j 2>/dev/null | jq -c '[.[].id]')
	"$NL" top --json -d 1 -n 600 --self-cost $flag > /tmp/nl-optin.$$.json 2> /tmp/nl-optin.$$.err &
	pid=$!
	for i in $(seq 1 300); do [ -s /tmp/nl-optin.$$.json ] && break; sleep 0.1; done
	"$WORK" --anon 128 --repeat 2 > /dev/null
	# ns/run of every numalens program, while top still holds them
	bpftool prog show -j 2>/dev/null | jq -r --arg v "$view" --arg r "$r" --argjson old "$before" \
		'.[] | select(.id as $i | $old | index($i) | not)
		 | select(.name | test("^(handle_page_al|stk_page_alloc|life_alloc|life_free|lat_enter|lat_exit|lat_kenter|lat_kexit)"))
		 | select(.run_cnt != null and .run_cnt > 0)
		 | "COST view=\($v) run=\($r) prog=\(.name) runs=\(.run_cnt) ns=\(.run_time_ns)"' >> "$RAW"
	kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null
	grep -h 'unavailable' /tmp/nl-optin.$$.err | sed "s/^/NOTE view=$view /" | head -1 >> "$RAW"
}

views="default alloc-latency alloc-stacks page-lifetime"
for r in $(seq 1 "$RUNS"); do
	set -- $views
	# rotate: round r starts with view r mod 4
	for k in $(seq 1 $(( (r - 1) % 4 ))); do set -- "$@" "$1"; shift; done
	for v in "$@"; do round "$v" "$r"; done
done
echo "Opt-in views' cost per run on this host ($(uname -r), $RUNS rounds, nlwork --anon 128 --repeat 2, THP off, BPF stats on)"
sort -u "$RAW" | grep '^NOTE' | sed 's/^NOTE view=/  /' | sort -u
grep '^COST' "$RAW" | awk '
function field(k,   i, kv) { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] } return "" }
{ k = field("view") " " field("prog"); v = field("ns") / field("runs")
  if (!(k in n)) order[++nk] = k
  n[k]++; s[k] += v; q[k] += v * v; if (n[k] == 1 || v < lo[k]) lo[k] = v; if (n[k] == 1 || v > hi[k]) hi[k] = v }
END {
  printf "  %-16s %-18s %5s %18s %16s\n", "view", "program", "runs", "ns/run mean +- sd", "[min..max]"
  for (i = 1; i <= nk; i++) { k = order[i]; split(k, p, " "); m = s[k] / n[k]; v = q[k] / n[k] - m * m
    printf "  %-16s %-18s %5d %10.0f +- %5.0f %7.0f..%-7.0f\n", p[1], p[2], n[k], m, sqrt(v > 0 ? v : 0), lo[k], hi[k] } }'
echo "  (handle_page_alloc = the default allocation program, per allocation; stk_page_alloc and life_alloc run on every"
echo "   allocation, life_free on every free; lat_* on every allocator call, entry and exit. Raw: $RAW)"
