# numalens export beside clients that misbehave, on loopback: hundreds of
# connections opened and left idle, clients that trickle a header byte every
# 2 s, oversized headers, and a loop that reconnects as fast as it can,
# every one reopening each connection the server closes (nlhostile). First
# from another address (127.0.0.2, as another host would), then from the
# scraper's own (127.0.0.1). A scrape from 127.0.0.1 every 0.3 s must be
# answered each time with a whole /metrics; the exporter's descriptors and
# RSS stay bounded; it exits 0 on SIGTERM after.
# The time a scrape took is printed (median, max, how many over 2 s), and
# NL_SCRAPE_BOUND (seconds, default 10) is how long one may take before it
# counts as unanswered: the default is for a busy shared host, where other
# work can stall any process that long; NL_SCRAPE_BOUND=2 is the 2 s bound
# the exporter is meant to keep (met on this 2-CPU host, see docs/export.md).
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
HOSTILE=$B/tests/nlhostile
[ -x "$HOSTILE" ] || fail "$HOSTILE is not built: run 'make tests-build'"
ip -o addr show lo 2>/dev/null | grep -q '127.0.0.1/8' || skip "loopback is not 127.0.0.1/8: 127.0.0.2 is not local here"
BOUND=${NL_SCRAPE_BOUND:-10}
HPIDS=
cleanup_hook() {
	local p
	for p in $HPIDS; do kill "$p" 2>/dev/null; done
	[ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"
}
port=$(free_port) || fail "no free port"
# synthetic: the real HTTP server and renderer, no BPF to load
start_export "$port" --synthetic 50x2 --interval 1
U=http://127.0.0.1:$port/metrics
rss0=$(awk '/^VmRSS:/ { print $2 }' /proc/"$EXPORT_PID"/status)
rss_max=$rss0
fds_max=0
: > "$TMP/lat"

# hostile SRC SECONDS: the four clients from SRC, in the background; their
# counts go to $TMP/h.MODE
hostile() {
	HPIDS=
	"$HOSTILE" -p "$port" -a "$1" -t "$2" -m idle -n 300 > "$TMP/h.idle" & HPIDS="$HPIDS $!"
	"$HOSTILE" -p "$port" -a "$1" -t "$2" -m slow -n 100 -g 2 > "$TMP/h.slow" & HPIDS="$HPIDS $!"
	"$HOSTILE" -p "$port" -a "$1" -t "$2" -m big -n 50 > "$TMP/h.big" & HPIDS="$HPIDS $!"
	"$HOSTILE" -p "$port" -a "$1" -t "$2" -m churn -n 20 > "$TMP/h.churn" & HPIDS="$HPIDS $!"
}

# scrapes WHAT N: N scrapes from 127.0.0.1, 0.3 s apart, each answered
# whole within BOUND; their times are added to $TMP/lat; RSS and open
# descriptors sampled between them
scrapes() {
	local i r code t fds rss k v
	for i in $(seq 1 "$2"); do
		r=$(curl -s --interface 127.0.0.1 -m "$BOUND" -o "$TMP/m" -w '%{http_code} %{time_total}' "$U")
		code=${r% *}; t=${r#* }
		[ "$code" = 200 ] || fail "$1: scrape $i not answered within $BOUND s (HTTP $code after $t s)"
		grep -q '^numalens_scrape_duration_seconds ' "$TMP/m" || fail "$1: scrape $i is cut short"
		echo "$t" >> "$TMP/lat"
		# (builtins: forks are slow beside the clients on a small host)
		while read -r k v _; do [ "$k" = VmRSS: ] && rss=$v; done < /proc/"$EXPORT_PID"/status
		fds=(/proc/"$EXPORT_PID"/fd/*)
		[ "$rss" -gt "$rss_max" ] && rss_max=$rss
		[ "${#fds[@]}" -gt "$fds_max" ] && fds_max=${#fds[@]}
		sleep 0.3
	done
}

# counts MODE: nlhostile's line for MODE
counts() { cat "$TMP/h.$1"; }
# field MODE NAME: one count of it
field() { sed -n "s/.*$2=\([^ ]*\).*/\1/p" "$TMP/h.$1"; }

# check_hostile WHAT: the clients ran, and the server did close theirs
check_hostile() {
	local m
	for p in $HPIDS; do wait "$p" || fail "$1: nlhostile failed: $(cat "$TMP"/h.* 2>/dev/null)"; done
	HPIDS=
	for m in idle slow big churn; do note "$1, $m: $(counts $m)"; done
	# slow: 100 connections, each held until the server closes it; the
	# caps and the header timeout close them (over 8 s, at least once
	# each), where before a trickle held them all along
	[ "$(field slow closed)" -ge 100 ] || fail "$1: the trickling clients were closed $(field slow closed) times, want >= 100"
	# big: answered 431, or closed first to make room for the others
	# (they share the address' slots); either way closed, each at least once
	[ "$(field big closed)" -ge 50 ] || fail "$1: the oversized headers were closed $(field big closed) times, want >= 50"
	case ",$(field big statuses)," in *,431,*|,none,) ;; *) fail "$1: oversized headers answered $(field big statuses), want 431";; esac
}

hostile 127.0.0.2 9
sleep 1	# let them pile up first
scrapes "hostile clients on 127.0.0.2" 16
check_hostile "from 127.0.0.2"

hostile 127.0.0.1 8
sleep 1
scrapes "hostile clients on the scraper's own address" 14
check_hostile "from 127.0.0.1"

# memory and descriptors: 128 connections (+16 being closed), 32 KiB of
# request buffer each, a few MiB; a leak of connections or of what they
# hold would show over the 2,800+ closed here
note "RSS ${rss0} KiB at start, at most ${rss_max} KiB under the clients; at most $fds_max descriptors"
[ "$rss_max" -le $(( rss0 + 24576 )) ] || fail "RSS rose from $rss0 to $rss_max KiB"
[ "$fds_max" -le $(( 128 + 16 + 32 )) ] || fail "$fds_max descriptors open, over the 144 connections allowed"
sort -n "$TMP/lat" | awk -v b=2 '{ t[NR] = $1; if ($1 > b) over++ }
	END { printf "  %d scrapes: median %.3f s, max %.3f s, %d over 2 s\n", NR, t[int((NR + 1) / 2)], t[NR], over }'
curl -s -m "$BOUND" -o "$TMP/m" "$U" || fail "no scrape after the clients left"
stop_export
[ "$EXPORT_RC" = 0 ] || fail "numalens export exited $EXPORT_RC after SIGTERM: $(tail -3 "$TMP/export.err")"
grep -q 'stopped' "$TMP/export.err" || fail "numalens export did not say it stopped: $(tail -3 "$TMP/export.err")"
exit 0
