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

# memcg_root: mount point of the memory cgroup hierarchy (v1 memory on
# hybrid hosts, else cgroup v2)
memcg_root() {
	awk '$3 == "cgroup2" && v2 == "" { v2 = $2 } $3 == "cgroup" && $4 ~ /memory/ { m = $2 }
		END { print (m != "" ? m : v2) }' /proc/self/mounts
}

# cold_file PATH MIB: write PATH (MIB MiB, synced) and drop it from the page
# cache, so that the next reader is charged for its pages
cold_file() {
	dd if=/dev/zero of="$1" bs=1M count="$2" conv=fsync status=none || fail "cannot write $1"
	dd if="$1" iflag=nocache count=0 status=none
}

# hold_file CGROUP PATH MIB: in the background, an nlwork in CGROUP that maps
# the existing file PATH (MIB MiB), reads it once and keeps it mapped for
# 60 s; its pid is appended to WPID
hold_file() {
	(echo $BASHPID > "$1/cgroup.procs"; exec "$WORK" --file "$3" --file-path "$2" --file-exists \
		--passes 1 --hold 60 > /dev/null) &
	WPID="${WPID:-} $!"
}
