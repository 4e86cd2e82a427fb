# top --page-lifetime on the host kernel. nlwork writes 64 MiB of anonymous
# pages (base pages, THP off), keeps them 0.3 s, unmaps them and lives on
# for 1 s; it measures the shortest and longest life its pages can have
# had. With every allocation timed (--page-lifetime=1), the movable
# histograms (local + remote) hold at least 95% of nlwork's pages in the
# log2 buckets between those two lives (freed at exit they would sit
# higher). Where the kernel cannot load the programs, JSON page_lifetime
# says why. Without the option there is no page_lifetime key.
. "$(dirname "$0")/common.bash"
thp_off
J=$TMP/top.jsonl
start_top "$J" 1 600 --page-lifetime=1
top_more_lines "$J" 1
"$WORK" --cpu 0 --anon 64 --lifetime 0.3 --hold 1 > "$TMP/work.out" || fail "nlwork failed"
top_more_lines "$J" 2
stop_top "$J"
PAGES=$(work_field "$TMP/work.out" touched_pages)
LO=$(work_field "$TMP/work.out" life_min_ns)
HI=$(work_field "$TMP/work.out" life_max_ns)
avail=$("$JQ" -L "$J" page_lifetime.available)
if [ "$avail" != true ]; then
	why=$("$JQ" -L "$J" page_lifetime.unavailable_reason)
	note "unavailable here: $why"
	case "$why" in null|missing|'') fail "page_lifetime unavailable without a reason ($avail)";; esac
else
	blo=$(awk -v v="$LO" 'BEGIN { b = 0; while (v >= 2) { v /= 2; b++ } print b }')
	bhi=$(awk -v v="$HI" 'BEGIN { b = 0; while (v >= 2) { v /= 2; b++ } print b }')
	inside=0
	for k in 2 6; do	# local movable, remote movable
		for b in $(seq "$blo" "$bhi"); do
			inside=$((inside + $("$JQ" -s "$J" "page_lifetime.hists[$k].buckets[$b]")))
		done
	done
	note "nlwork: $PAGES pages, life $LO..$HI ns (buckets $blo..$bhi); movable pages freed there: $inside"
	ge_pct "$inside" "$PAGES" 95 || fail "movable pages with a life in buckets $blo..$bhi: $inside < 95% of $PAGES"
fi
"$NL" top --json -n 1 -d 0.5 > "$TMP/plain.jsonl" 2>/dev/null || fail "top without --page-lifetime failed"
[ "$("$JQ" -L "$TMP/plain.jsonl" page_lifetime)" = missing ] || fail "page_lifetime present without --page-lifetime"
