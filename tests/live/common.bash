# Shared helpers for the live (host kernel) tests; sourced, not run.
# A test exits 0 on pass, 1 on failure (after printing what it expected and
# saw), 77 when it cannot run here (the runner fails that under CI).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
B=${B:-build}
NL=$B/numalens
WORK=$B/tests/nlwork
JQ=$B/vm/nljq
TMP=$(mktemp -d /tmp/nl-live.XXXXXX)
trap 'cleanup_hook 2>/dev/null; rm -rf "$TMP"' EXIT

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
note() { echo "  $*"; }

[ "$(id -u)" = 0 ] || skip "live tests need root (CAP_BPF, CAP_PERFMON): run 'sudo make test'"
for f in "$NL" "$WORK" "$JQ"; do [ -x "$f" ] || fail "$f is not built: run 'make' first"; done

# ratio_ok A B TOL_PCT: true when |A-B| <= TOL_PCT% of max(A,B) (integers)
within_pct() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { m = a > b ? a : b; d = a - b; if (d < 0) d = -d;
		exit !(m == 0 || d * 100 <= t * m) }'
}
# ge_pct A B PCT: true when A >= PCT% of B
ge_pct() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { exit !(a * 100 >= p * b) }'; }

# cpu_node CPU: node id of a CPU
cpu_node() {
	local n
	for n in /sys/devices/system/node/node*; do
		[ -e "$n/cpu$1" ] && { basename "$n" | sed 's/node//'; return; }
	done
	echo 0
}

# start_top OUT SECONDS COUNT [args]: numalens top --json in the background
start_top() {
	local out=$1 d=$2 n=$3; shift 3
	"$NL" top --json -d "$d" -n "$n" "$@" > "$out" 2> "$out.err" &
	TOP_PID=$!
	# the first line comes after one interval; wait until BPF is attached
	local i
	for i in $(seq 1 50); do
		grep -q 'running without\|numalens:' "$out.err" 2>/dev/null && break
		[ -s "$out" ] && break
		sleep 0.1
		kill -0 $TOP_PID 2>/dev/null || break
	done
}
