# numalens top as a new user meets it: --version, the batch legend printed
# once (and --no-legend), a terminal that cannot address the cursor falling
# back to text snapshots with one notice, errors that start with the
# subcommand, and reclaim --status refusing a --dry-run it would ignore.
. "$(dirname "$0")/common.bash"

v=$("$NL" top --version) || fail "top --version exited $?"
[[ $v == "numalens "[0-9]* ]] || fail "top --version printed '$v'"
note "top --version: $v"

"$NL" top --batch -n 2 -d 0.3 -t 2 > "$TMP/b" 2> "$TMP/b.err" || fail "top --batch failed: $(cat "$TMP/b.err")"
legends=$(grep -c '^LEGEND' "$TMP/b"); snaps=$(grep -c '^numalens top  seq' "$TMP/b")
[ "$snaps" = 2 ] || fail "expected 2 snapshots, saw $snaps"
[ "$legends" = 1 ] || fail "expected the legend once in 2 snapshots, saw it $legends times"
[ "$(grep -c 'CPU% = on-CPU time' "$TMP/b")" = 1 ] || fail "the units of CPU% are repeated"
head -1 "$TMP/b" | grep -q '^LEGEND' || fail "the legend does not come first: $(head -1 "$TMP/b")"
note "batch: $snaps snapshots, legend $legends time(s), $(wc -l < "$TMP/b") lines"

"$NL" top --batch --no-legend -n 1 -d 0.3 -t 2 > "$TMP/n" 2>&1 || fail "--no-legend failed: $(cat "$TMP/n")"
! grep -q 'LEGEND\|CPU% = ' "$TMP/n" || fail "--no-legend still prints the legend"
grep -q '^numalens top  seq 1' "$TMP/n" || fail "--no-legend printed no snapshot: $(head -3 "$TMP/n")"

# a terminal without cursor addressing: one notice on stderr, text on the tty
command -v script >/dev/null || skip "script (util-linux) missing"
TERM=dumb script -qec "$NL top -n 1 -d 0.3 -t 2 2>$TMP/d.err" /dev/null > "$TMP/d" < /dev/null ||
	fail "TERM=dumb: exited $?: $(cat "$TMP/d.err")"
[ "$(wc -l < "$TMP/d.err")" = 1 ] || fail "TERM=dumb: expected one notice, saw: $(cat "$TMP/d.err")"
grep -q 'cannot address the cursor.*--batch' "$TMP/d.err" || fail "TERM=dumb notice: $(cat "$TMP/d.err")"
grep -q 'numalens top  seq 1' "$TMP/d" || fail "TERM=dumb: no text snapshot on the terminal"
! grep -q $'\e\\[' "$TMP/d" || fail "TERM=dumb: escape sequences reached the terminal"
note "TERM=dumb: $(cat "$TMP/d.err")"

# errors name the subcommand, like the other commands' do
"$NL" top --batch -n 1 -p 4000000 > /dev/null 2> "$TMP/e" && fail "top -p 4000000 succeeded"
grep -q '^numalens top: no process with pid' "$TMP/e" || fail "top's error does not start with 'numalens top:': $(cat "$TMP/e")"

# sorting by RSS while reading none by rank: said, not a silent column of '-'
"$NL" top --batch --no-legend -n 1 -d 0.3 -s rss --rss-procs 0 > /dev/null 2> "$TMP/rss.err" || fail "top -s rss --rss-procs 0 exited $?"
grep -q "^numalens top: -s rss with --rss-procs 0 reads no process's RSS" "$TMP/rss.err" ||
	fail "top -s rss --rss-procs 0 does not warn: $(cat "$TMP/rss.err")"
"$NL" top --batch --no-legend -n 1 -d 0.3 -s rss > /dev/null 2> "$TMP/rss.err"
grep -q "rss-procs" "$TMP/rss.err" && fail "top -s rss (default --rss-procs) warns: $(cat "$TMP/rss.err")"

# reclaim --status never reclaims: --dry-run with it is refused, not ignored
"$NL" reclaim --status --dry-run / > "$TMP/r" 2> "$TMP/r.err"; rc=$?
[ $rc = 2 ] || fail "reclaim --status --dry-run exited $rc, expected 2: $(cat "$TMP/r.err")"
grep -q '^numalens reclaim: --status reclaims nothing' "$TMP/r.err" || fail "reclaim --status --dry-run: $(cat "$TMP/r.err")"
exit 0
