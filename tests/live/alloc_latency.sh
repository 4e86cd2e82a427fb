# top --alloc-latency on the host kernel. Where the kernel lets the
# latency program load, nlwork's 64 MiB of anonymous pages (base pages, THP
# off) are timed one by one (--alloc-latency=1): the movable histograms
# (local + remote) hold at least 95% of the pages it touched. Where it
# cannot (fentry refused and no kprobes), JSON alloc_latency says why in
# every snapshot and the default figures are still there (nlwork's own
# allocations counted). Without the option there is no alloc_latency key.
. "$(dirname "$0")/common.bash"
thp_off
J=$TMP/top.jsonl
start_top "$J" 1 600 --alloc-latency=1
top_more_lines "$J" 1
"$WORK" --cpu 0 --anon 64 --hold 1 > "$TMP/work.out" || fail "nlwork failed"
stop_top "$J"
PID=$(work_field "$TMP/work.out" pid)
PAGES=$(work_field "$TMP/work.out" touched_pages)
avail=$("$JQ" -L "$J" alloc_latency.available)
if [ "$avail" = true ]; then
	mv=0
	for k in 2 5; do mv=$((mv + $("$JQ" -s "$J" "alloc_latency.hists[$k].count"))); done
	note "hook $("$JQ" -L "$J" alloc_latency.hook): movable calls timed $mv, nlwork touched $PAGES pages"
	[ "$mv" -ge $((PAGES * 95 / 100)) ] || fail "movable calls timed $mv < 95% of nlwork's $PAGES pages"
else
	why=$("$JQ" -L "$J" alloc_latency.unavailable_reason)
	note "unavailable here: $why"
	case "$why" in null|missing|'') fail "alloc_latency unavailable without a reason ($avail)";; esac
	n=$("$JQ" -s "$J" "processes[pid=$PID].alloc.pages_local" "processes[pid=$PID].alloc.pages_remote" | awk '{ print $1 + $2 }')
	[ "$n" -ge $((PAGES * 95 / 100)) ] || fail "nlwork's pages counted $n < 95% of $PAGES: the default figures suffered"
fi
"$NL" top --json -n 1 -d 0.5 > "$TMP/plain.jsonl" 2>/dev/null || fail "top without --alloc-latency failed"
[ "$("$JQ" -L "$TMP/plain.jsonl" alloc_latency)" = missing ] || fail "alloc_latency present without --alloc-latency"
