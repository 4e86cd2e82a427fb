# top --page-lifetime on the host kernel. nlwork writes 64 MiB of anonymous
# pages (base pages, THP off), keeps them 0.3 s, unmaps them and lives on
# for 1 s; it measures the shortest and longest life its pages can have
# had. With every allocation timed (--page-lifetime=1), the movable
# histograms (local + remote) hold at least 95% of nlwork's pages (less
# those the map of pages in flight had no room for) in the log2 buckets
# between those two lives (freed at exit they would sit
# higher). Where the kernel cannot load the programs, JSON page_lifetime
# says why. Without the option there is no page_lifetime key.
. "$(dirname "$0")/common.bash"
thp_off
J=$TMP/top.jsonl
# The map of pages in flight holds 65,536; with every allocation timed, a
# host that allocates fast beside the test (a CI run's VM guests touching
# their RAM) fills it with long lives, and the inserts of nlwork's pages
# are refused (page_lifetime.not_kept, host-wide): those pages are in no
# histogram, by design. So the check covers the pages the map could keep,
# 95% of PAGES - not_kept, and the run is tried again (up to 3 times)
# while the map refused more than half as many samples as nlwork has pages.
for try in 1 2 3; do
	start_top "$J" 1 600 --page-lifetime=1
	top_more_lines "$J" 1
	"$WORK" --cpu 0 --anon 64 --lifetime 0.3 --hold 1 > "$TMP/work.out" || fail "nlwork failed"
	top_more_lines "$J" 2
	stop_top "$J"
	PAGES=$(work_field "$TMP/work.out" touched_pages)
	avail=$("$JQ" -L "$J" page_lifetime.available)
	[ "$avail" = true ] || break
	refused=$("$JQ" -s "$J" page_lifetime.not_kept)
	[ $((refused * 2)) -le "$PAGES" ] && break
	note "try $try: the map of pages in flight refused $refused samples host-wide while nlwork ran"
done
LO=$(work_field "$TMP/work.out" life_min_ns)
HI=$(work_field "$TMP/work.out" life_max_ns)
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
	kept=$((PAGES > refused ? PAGES - refused : 0))
	note "nlwork: $PAGES pages, life $LO..$HI ns (buckets $blo..$bhi); movable pages freed there: $inside; samples the map refused host-wide meanwhile: $refused"
	ge_pct "$inside" "$kept" 95 ||
		fail "movable pages with a life in buckets $blo..$bhi: $inside < 95% of $PAGES pages less the $refused samples the map refused"
fi
"$NL" top --json -n 1 -d 0.5 > "$TMP/plain.jsonl" 2>/dev/null || fail "top without --page-lifetime failed"
[ "$("$JQ" -L "$TMP/plain.jsonl" page_lifetime)" = missing ] || fail "page_lifetime present without --page-lifetime"
