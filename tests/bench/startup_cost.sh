#!/usr/bin/env bash
# Start-up cost of numalens top and numalens export, in CPU seconds (user +
# system of the process: the system part holds the kernel's work in bpf()
# on numalens' behalf, the verifier's and the map allocations included).
#  top:    `numalens top --batch -n 1 -d 0.1` as a whole (/usr/bin/time):
#          start-up, the baseline snapshot and one 0.1 s interval, exit;
#  export: `numalens export` until its /healthz first answers 200 (the
#          start-up snapshot is out), its utime + stime from /proc/PID/stat
#          at that moment, then SIGTERM.
# RUNS rounds (default 7), the two commands alternating; prints each
# round's figures and the median per command. A report, never pass/fail.
# NL=path/to/numalens measures another build (default build/numalens);
# NL_BASE=another/numalens adds it as a third arm, rotating with the first
# two, for before/after comparisons on the same host.
# Needs root (BPF) and curl.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
NL=${NL:-$B/numalens}
RUNS=${RUNS:-7}
TICK=$(getconf CLK_TCK)
[ "$(id -u)" = 0 ] || { echo "startup_cost: needs root (BPF)" >&2; exit 1; }
command -v curl >/dev/null || { echo "startup_cost: needs curl" >&2; exit 1; }

# free_port: a TCP port nobody listens on
free_port() {
	local p i
	for i in $(seq 1 200); do
		p=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
		ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return 0; }
	done
	return 1
}

# top_cpu NL: CPU seconds of one `top --batch -n 1 -d 0.1`
top_cpu() {
	local f
	f=$(mktemp)
	/usr/bin/time -o "$f" -f '%U %S' "$1" top --batch --no-legend -n 1 -d 0.1 > /dev/null 2>&1
	awk 'END { printf "%.3f\n", $1 + $2 }' "$f"
	rm -f "$f"
}

# export_cpu NL: CPU seconds of export until /healthz first says 200
export_cpu() {
	local port pid i st cpu=
	port=$(free_port) || { echo "-"; return; }
	"$1" export --listen "127.0.0.1:$port" > /dev/null 2>&1 &
	pid=$!
	for i in $(seq 1 400); do
		if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" = 200 ]; then
			# fields 14 and 15 of stat (utime, stime) after the comm's ')'
			st=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null)
			cpu=$(echo "$st" | awk -v hz="$TICK" '{ printf "%.3f\n", ($12 + $13) / hz }')
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "${cpu:--}"
}

median() { sort -n | awk '$1 != "-" { v[n++] = $1 } END { if (!n) print "-"; else if (n % 2) print v[(n - 1) / 2]; else printf "%.3f\n", (v[n / 2 - 1] + v[n / 2]) / 2 }'; }

arms=("$NL")
[ -n "${NL_BASE:-}" ] && arms+=("$NL_BASE")
declare -A top_v exp_v
echo "start-up CPU seconds (user + system), $RUNS rounds, load $(cut -d' ' -f1-3 /proc/loadavg), kernel $(uname -r), cpus $(nproc)"
for r in $(seq 1 "$RUNS"); do
	line="round $r:"
	n=${#arms[@]}
	for k in $(seq 0 $((n - 1))); do
		a=${arms[$(( (k + r) % n ))]}
		t=$(top_cpu "$a")
		e=$(export_cpu "$a")
		top_v[$a]+="$t "
		exp_v[$a]+="$e "
		line+="  $a top $t export $e"
	done
	echo "$line"
done
for a in "${arms[@]}"; do
	mt=$(tr ' ' '\n' <<< "${top_v[$a]}" | grep . | median)
	me=$(tr ' ' '\n' <<< "${exp_v[$a]}" | grep . | median)
	printf '%s: median top %s s, export %s s (goal <= 0.3 s each)\n' "$a" "$mt" "$me"
	[ "$a" = "$NL" ] || continue
	for m in "top $mt" "export $me"; do
		set -- $m
		awk -v v="$2" 'BEGIN { exit !(v == "-" || v > 0.3) }' &&
			echo "MISSED: $1 start-up $2 s CPU, goal <= 0.3 s (a busy host adds to CPU time too: compare arms of the same rounds)"
	done
done
