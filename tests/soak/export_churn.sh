# numalens export stays flat under churn: for NL_SOAK_SECS seconds (default
# 600) nlchurn forks 100 short-lived processes a second, each touching a
# little memory in a cgroup that is made and removed every quarter second
# (under a parent this test owns), while export serves those cgroups and
# the 5 busiest processes and is scraped every 2 s. Every scrape samples
# export's RSS, open fds, the fill of its BPF hash maps (keys now, walked by
# nlchurn --map-fill) and the series count, one line per scrape in the
# samples log. It passes when
#  - every scrape is answered (200 within 10 s);
#  - RSS over the second half (its maximum of 15-reading medians: a reading
#    taken while a snapshot is built beside the served one is high for that
#    reading only) stays within 15% of the first minute's median
#    (export keeps the table capacity of the largest host it has served: when
#    other work beside it made cgroups, within 15% of the first half's
#    maximum, and not judged when the host grew further in the second half);
#  - open fds vary by at most 4 (a scrape's connection, a cgroup file);
#  - series stay bounded, however many cgroups were made: the second half's
#    median at most 25% (+50) above the first half's, and no peak above 3x
#    the first half's (the largest scrape is kept in $LOG.largest);
#  - map fill stays bounded: no "map full" drop, and the second half's
#    maximum at most 50% + 2,048 keys above the first half's (the keys are
#    the host's: other work's processes count, and beside the live layer
#    they step from ~300 to ~1,100-1,750 at some point in the first ten
#    minutes, in the first half or the second; exits that were never
#    evicted would be tens of thousands).
# At the end it prints the CPU time of export, of the churn and of the
# sampler, and export's CPU seconds per hour.
#
# Not a tests/live/*.sh test: tests/run-all.sh starts it in the background
# beside the live layer (its own parent cgroup, nl-soak<pid>, named after
# its shell so the leftover check knows it) and records its line at the end.
# `make bench-soak` runs it for an hour. NL_SOAK_CHURN=0: export alone, no
# churn (its idle cost). NL_SOAK_LOG: where the samples go.
. "$(dirname "$0")/../live/common.bash"
SECS=${NL_SOAK_SECS:-600}
CHURN=${NL_SOAK_CHURN:-1}
RATE=${NL_SOAK_RATE:-100}
LOG=${NL_SOAK_LOG:-$B/test-logs/export_soak.samples}
CHURNBIN=$B/tests/nlchurn
[ -x "$CHURNBIN" ] || fail "$CHURNBIN is not built: run 'make tests-build' first"
command -v curl > /dev/null || skip "curl is not installed"
root=$(memcg_root)
[ -n "$root" ] && [ -d "$root" ] || skip "no memory cgroup hierarchy is mounted"
P=nl-soak$$
mkdir "$root/$P" || fail "cannot create $root/$P"
CHURN_PID= EXPORT_PID=
cleanup_hook() {
	[ -n "$CHURN_PID" ] && kill -TERM "$CHURN_PID" 2> /dev/null && wait "$CHURN_PID"
	[ -n "$EXPORT_PID" ] && kill -TERM "$EXPORT_PID" 2> /dev/null && wait "$EXPORT_PID"
	local i
	for i in $(seq 1 50); do
		rmdir "$root/$P"/c* 2> /dev/null
		rmdir "$root/$P" 2> /dev/null && break
		sleep 0.1
	done
}
# killed by the runner's timeout or ^C: the EXIT trap still cleans up
trap 'exit 143' TERM INT
mkdir -p "$(dirname "$LOG")"

port=$(free_port) || fail "no free TCP port"
U=http://127.0.0.1:$port
"$NL" export --listen "127.0.0.1:$port" -d 2 --cgroup-pattern "/$P*" --cgroup-grace 10 --top-procs 5 \
	> "$TMP/export.out" 2> "$TMP/export.err" &
EXPORT_PID=$!
wait_until 60 curl -sf -o /dev/null "$U/metrics" || fail "numalens export did not serve /metrics in 60 s: $(cat "$TMP/export.err")"
if [ "$CHURN" = 1 ]; then
	"$CHURNBIN" --cgroup "$root/$P" --rate "$RATE" --period 0.25 --kib 64 > "$TMP/churn.out" 2>&1 &
	CHURN_PID=$!
fi
exp_cpu0=$(proc_cpu_ns "$EXPORT_PID")
read -r sh_cpu0 < <(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)

# the sampler: one line per scrape; bash built-ins where a fork would do
note "port $port, parent $root/$P, churn=$CHURN at $RATE/s, $SECS s; samples in $LOG"
echo "# t_s http rss_kib fds series cgroups_exported cgroups_snapshot map_total drops_full evicted_cgroups maps" > "$LOG"
# a sleep without a fork: read with a timeout on a pipe nobody writes to
exec {nap}<> <(:)
t0=${EPOCHREALTIME/./}	# microseconds
n=0 missed=0
while :; do
	n=$((n + 1))
	due=$((t0 + n * 2000000))
	now=${EPOCHREALTIME/./}
	[ $((now - t0)) -lt $((SECS * 1000000)) ] || break
	[ "$due" -gt "$now" ] && d=$((due - now)) && printf -v d '%d.%06d' $((d / 1000000)) $((d % 1000000)) && read -rt "$d" -u "$nap"
	kill -0 "$EXPORT_PID" 2> /dev/null || fail "numalens export exited during the soak: $(tail -3 "$TMP/export.err")"
	code=$(curl -s -m 10 -o "$TMP/scrape" -w '%{http_code}' "$U/metrics")
	[ "$code" = 200 ] || missed=$((missed + 1))
	s=$(grep -c '^[a-z]' "$TMP/scrape")
	# the largest scrape is kept beside the samples, to see what a peak was
	[ "$s" -gt "${smax:-0}" ] && smax=$s && cp "$TMP/scrape" "$LOG.largest"
	t=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
	rss=0
	while read -r k v _; do [ "$k" = VmRSS: ] && rss=$v; done < /proc/$EXPORT_PID/status
	fds=(/proc/$EXPORT_PID/fd/*)
	mf=$("$CHURNBIN" --map-fill "$EXPORT_PID")
	maps=${mf%% total=*}
	set -- $(awk '!/^#/ && NF { s++ }
		/^numalens_cgroups_exported / { ce = $2 } /^numalens_cgroups / { cs = $2 }
		/^numalens_map_drops_total\{reason="(task|cgroup)_map_full"\}/ { df += $2 }
		/^numalens_evicted_cgroups_total / { ev = $2 }
		END { print s + 0, ce + 0, cs + 0, df + 0, ev + 0 }' "$TMP/scrape")
	printf '%d.%03d %s %s %d %s %s %s %s %s %s %s\n' $((t / 1000)) $((t % 1000)) "$code" "$rss" "${#fds[@]}" \
		"$1" "$2" "$3" "${mf##*total=}" "$4" "$5" "${maps#maps=}" >> "$LOG"
done

exp_cpu=$(( $(proc_cpu_ns "$EXPORT_PID") - exp_cpu0 ))
read -r sh_cpu1 < <(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
if [ -n "$CHURN_PID" ]; then
	kill -TERM "$CHURN_PID"; wait "$CHURN_PID" || { cat "$TMP/churn.out"; fail "nlchurn failed"; }
	CHURN_PID=
fi
kill -TERM "$EXPORT_PID"; wait "$EXPORT_PID" || fail "numalens export exited $? on SIGTERM: $(tail -3 "$TMP/export.err")"
EXPORT_PID=
el=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
hz=$(getconf CLK_TCK)
churn=$(cat "$TMP/churn.out" 2> /dev/null)
[ "$CHURN" = 1 ] && note "$churn"
ch_ns=0
[ "$CHURN" = 1 ] && ch_ns=$(( $(work_field "$TMP/churn.out" cpu_ns) + $(work_field "$TMP/churn.out" children_cpu_ns) ))
sampler_ns=$(awk -v a="$sh_cpu0" -v b="$sh_cpu1" -v hz="$hz" 'BEGIN { printf "%.0f", (b - a) * 1e9 / hz }')
note "$(awk -v e="$exp_cpu" -v c="$ch_ns" -v s="$sampler_ns" -v el="$el" 'BEGIN {
	printf "CPU over %.0f s: export %.2f s (%.1f s per hour), churn %.2f s (%.1f%% of a CPU), sampler %.2f s (%.1f%% of a CPU)",
		el / 1000, e / 1e9, e / 1e9 * 3600000 / el, c / 1e9, c / 1e7 * 1000 / el, s / 1e9, s / 1e7 * 1000 / el }')"
echo "# cpu elapsed_ms=$el export_ns=$exp_cpu churn_ns=$ch_ns sampler_ns=$sampler_ns scrapes=$((n - 1)) missed=$missed $churn" >> "$LOG"

# the verdict, from the samples
verdict=$(awk -v secs="$SECS" '
	function med_of(a, m,   i, j, x) {
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	/^#/ { next }
	{ n++; tt[n] = $1; r[n] = $3; fd[n] = $4; se[n] = $5; cg[n] = $7; mp[n] = $8; df[n] = $9 }
	END {
		if (n < 4) { print "FAIL too few samples (" n ")"; exit }
		half = tt[n] / 2
		# RSS read while a snapshot is built beside the served one is one
		# snapshot higher for that reading only (every other one on a loaded
		# host): the rolling median of 15
		# readings (30 s) is what is compared, so a step that stays counts
		for (i = 1; i <= n; i++) {
			m = 0
			for (j = i - 7; j <= i + 7; j++) if (j >= 1 && j <= n) w[++m] = r[j]
			rm[i] = med_of(w, m)
		}
		for (i = 1; i <= n; i++) if (tt[i] <= 60) c0[++k0] = cg[i]
		cf = med_of(c0, k0)
		for (i = 1; i <= n; i++) {
			if (tt[i] <= 60) fm[++k] = r[i]
			if (fd[i] > fmax || i == 1) fmax = fd[i]; if (fd[i] < fmin || i == 1) fmin = fd[i]
			if (tt[i] < half) { if (se[i] > s1) s1 = se[i]; if (mp[i] > m1) m1 = mp[i]; if (rm[i] > r1) r1 = rm[i]; if (cg[i] > c1) c1 = cg[i] }
			else { if (se[i] > s2) s2 = se[i]; if (mp[i] > m2) m2 = mp[i]; if (rm[i] > rl) rl = rm[i]; if (cg[i] > c2) c2 = cg[i] }
		}
		# series: the medians of the halves (a peak of the host itself is
		# not growth; a runaway one still fails), and their maxima
		for (i = 1; i <= n; i++) { if (tt[i] < half) a1[++n1] = se[i]; else a2[++n2] = se[i] }
		sm1 = med_of(a1, n1); sm2 = med_of(a2, n2)
		# median of the first minute
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (fm[j] < fm[i]) { x = fm[i]; fm[i] = fm[j]; fm[j] = x }
		med = k % 2 ? fm[(k + 1) / 2] : (fm[k / 2] + fm[k / 2 + 1]) / 2
		# export keeps the capacity of the largest host it has served (its
		# tables grow and stay): when other work made cgroups beside the
		# soak, RSS is held to the first half (which saw that host), and not
		# judged when the host grew further in the second half
		if (c1 <= cf + 10 && c2 <= cf + 10) { ref = med; how = "first-minute median" }
		else if (c2 <= c1 * 1.1 + 10) { ref = r1 > med ? r1 : med; how = "first-half max (the host grew to " c1 " cgroups beside it)" }
		else { ref = 0; how = "not judged: the host grew from " c1 " to " c2 " cgroups in the second half" }
		msg = sprintf("rss (15-reading medians) first-minute median %d KiB, first-half max %d, last-half max %d KiB (%s%s); fds %d..%d; series median %d then %d, max %d then %d; map keys max %d then %d; full-map drops %d",
			med, r1, rl, ref ? sprintf("%+.1f%% of the ", 100 * (rl - ref) / ref) : "", how, fmin, fmax, sm1, sm2, s1, s2, m1, m2, df[n] - df[1])
		bad = ""
		if (ref && rl > ref * 1.15) bad = bad "rss grew more than 15%; "
		if (fmax - fmin > 4) bad = bad "open fds not flat; "
		if (sm2 > sm1 * 1.25 + 50 || s2 > s1 * 3 + 50) bad = bad "series count grew; "
		if (m2 > m1 * 1.5 + 2048) bad = bad "map fill grew; "
		if (df[n] > df[1]) bad = bad "a BPF map was full; "
		print (bad == "" ? "PASS " : "FAIL " bad) msg
	}' "$LOG")
note "scrapes $((n - 1)), missed $missed"
note "${verdict#* }"
echo "# verdict $verdict" >> "$LOG"
[ "$missed" = 0 ] || fail "$missed of $((n - 1)) scrapes were not answered (http codes in $LOG)"
case $verdict in PASS*) ;; *) fail "${verdict#FAIL }";; esac
exit 0
