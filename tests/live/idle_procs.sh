# An idle process with resident memory is listed with its memory per node
# (a new user's "which big process sits on the wrong node"): it neither
# runs nor allocates while numalens watches, yet --json has it with its
# resident pages, --batch -s rss shows its RSS columns in size order, and
# --active leaves it out.
. "$(dirname "$0")/common.bash"
cleanup_hook() { [ -n "${WP:-}" ] && kill "$WP"; }
"$WORK" --anon 48 --ready-file "$TMP/ready" --hold 120 > /dev/null & WP=$!
for i in $(seq 1 300); do [ -s "$TMP/ready" ] && break; sleep 0.1; done
[ -s "$TMP/ready" ] || fail "nlwork did not get ready"
want=$((48 * 1024 * 1024 / $(getconf PAGESIZE)))

# what it got: resident pages by the kernel's count, before numalens starts
got=$(awk '{print $2}' /proc/$WP/statm)
ge_pct "$got" "$want" 95 || fail "nlwork holds $got pages, expected ~$want"

"$NL" top --json -n 2 -d 0.5 > "$TMP/j" 2> "$TMP/j.err" || fail "top --json exited $?: $(cat "$TMP/j.err")"
tail -1 "$TMP/j" > "$TMP/last.json"
[ "$("$JQ" "$TMP/last.json" "processes[pid=$WP].comm")" = nlwork ] ||
	fail "the idle nlwork ($WP) is not among the processes: $(head -c 200 "$TMP/last.json")"
rss=$("$JQ" "$TMP/last.json" "processes[pid=$WP].rss_pages_by_node" | tr -c '0-9\n' ' ' |
	awk '{ for (i = 1; i <= NF; i += 2) s += $(i + 1) } END { print s + 0 }')
within_pct "$rss" "$got" 5 || fail "idle nlwork: RSS per node sums to $rss pages, statm says $got"
run=$("$JQ" "$TMP/last.json" "processes[pid=$WP].cpu_pct")
note "idle nlwork $WP: listed, $rss resident pages over its nodes (statm $got), cpu_pct $run"

# -s rss: its row has RSS figures, and every row above it is at least as big
"$NL" top --batch --no-legend -n 1 -d 0.5 -s rss > "$TMP/b" 2>&1 || fail "top --batch -s rss failed"
awk -v pid="$WP" '
	/^PROCESSES/ { inp = 1; next }
	inp && /^ +PID / { for (i = 1; i <= NF; i++) if ($i ~ /^RSS_N/) cols[++nc] = i; next }
	inp && /^$/ { exit }
	inp && nc { s = 0; known = 0
		for (k = 1; k <= nc; k++) if ($(cols[k]) != "-") { s += $(cols[k]); known = 1 }
		if ($1 == pid) { found = 1; if (!known) { print "no RSS for " pid; exit 1 }
			if (s + 0.1 < prev_min) ok = 1; exit !(s <= prev_min + 0.1) }
		if (known && (prev_min == "" || s < prev_min)) prev_min = s }
	END { if (!found) { print "pid " pid " not listed"; exit 1 } }' "$TMP/b" ||
	fail "top -s rss: the idle nlwork is not in size order: $(grep -m3 -E "^ +($WP|PID) " "$TMP/b")"
note "-s rss: $(grep -m1 -E "^ +$WP " "$TMP/b" | cut -c1-60)"
# one row per process: an idle one is added only when BPF has none of it
dups=$(awk '/^PROCESSES/ { inp = 1; next } inp && /^$/ { exit } inp && $1 ~ /^[0-9]+$/ { print $1 }' "$TMP/b" | sort | uniq -d)
[ -z "$dups" ] || fail "processes listed twice: $dups"

"$NL" top --json --active -n 1 -d 0.5 > "$TMP/a" 2>&1 || fail "top --active exited $?"
[ "$("$JQ" "$TMP/a" "processes[pid=$WP].comm")" = missing ] || fail "--active still lists the idle nlwork"
exit 0
