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
# thp_off: base pages only for this test, so N MiB is N * 256 allocator
# calls; restored at exit (a test with a cleanup_hook of its own calls
# thp_restore from it)
THP=/sys/kernel/mm/transparent_hugepage/enabled
old_thp=
thp_off() {
	old_thp=$(sed 's/.*\[\(.*\)\].*/\1/' $THP 2>/dev/null || echo "")
	[ -n "$old_thp" ] && echo never > $THP
}
thp_restore() { [ -n "$old_thp" ] && echo "$old_thp" > $THP; }
cleanup_hook() { thp_restore; }

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

# top_started OUT: wait (up to 60 s) until the top started by start_top has
# written its first interval, so that what follows falls after the reading
# that interval's deltas start from (a fixed one-interval sleep lost that
# race on a busy host)
top_started() {
	wait_until 60 lines_or_gone "$1" 1 "$TOP_PID" ||
		fail "numalens top wrote no interval to $1 in 60 s: $(tail -2 "$1.err")"
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
# 60 s; its pid is appended to WPID. Returns once the file has been read.
hold_file() {
	local rdy; rdy=$(mktemp -u "$TMP/hold.XXXXXX")
	(echo $BASHPID > "$1/cgroup.procs"; exec "$WORK" --file "$3" --file-path "$2" --file-exists \
		--passes 1 --ready-file "$rdy" --hold 60 > /dev/null) &
	WPID="${WPID:-} $!"
	wait_until 60 test -f "$rdy" || fail "nlwork holding $2 did not read it within 60 s"
}

# work_field FILE KEY: the value of KEY=value in nlwork's output line in FILE
# (e.g. cpu_ns, the CPU time the workload really got, in ns)
work_field() {
	sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1" | tail -1
}

# wait_until CAP_S CMD...: run CMD every 0.1 s until it succeeds (0) or CAP_S
# seconds pass (1). The cap is generous: a busy host makes things slow, and
# a condition replaces a fixed sleep that guessed how slow.
wait_until() {
	local cap=$1 end; shift
	end=$(( $(date +%s) + cap ))
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# is_comm PID NAME: true once PID runs NAME (its exec done).
# free_port: print a TCP port no socket uses, below the ephemeral range
# (20000 up to it), so that no client's connection can take it before
# the exporter binds it (test clients open thousands).
free_port() {
	local p i lo hi
	read -r lo hi < /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || lo=32768
	[ "$lo" -gt 21000 ] || lo=60000
	for i in $(seq 1 200); do
		p=$(( 20000 + (RANDOM * 32768 + RANDOM) % (lo - 20000) ))
		ss -Htan "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return 0; }
	done
	return 1
}

is_comm() { [ "$(cat /proc/$1/comm 2>/dev/null)" = "$2" ]; }

# lines_ge FILE N: true when FILE has at least N lines
lines_ge() { [ "$(wc -l < "$1" 2>/dev/null || echo 0)" -ge "$2" ]; }

# more_lines OUT N PID: wait (up to 60 s) until PID (a numalens top or
# vmscan writing JSON lines) has written N more lines to OUT than it has now:
# N more intervals.
more_lines() {
	local want=$(( $(wc -l < "$1") + $2 ))
	wait_until 60 lines_or_gone "$1" "$want" "$3" ||
		fail "numalens wrote no $2 more interval(s) to $1 in 60 s (now $(wc -l < "$1") lines)"
}
lines_or_gone() { lines_ge "$1" "$2" || ! kill -0 "$3" 2>/dev/null; }
# top_more_lines OUT N: more_lines for the top started by start_top
top_more_lines() { more_lines "$1" "$2" "$TOP_PID"; }

# stop_top OUT [N]: once top (started with a large -n) has written N (default
# 2) more intervals, stop it with SIGINT and check it exited 0. The window
# so covers the work however slow the host makes it (a fixed -n raced with a
# slow workload). Two, not one: the next line may be an interval that was
# read before the work ended but written after (a starved top lost 87 ms of
# a 503 ms workload that way at a host load of 19).
stop_top() {
	top_more_lines "$1" "${2:-2}"
	kill -INT "$TOP_PID" 2>/dev/null
	wait "$TOP_PID" || fail "numalens top exited $?: $(tail -2 "$1.err")"
}

# proc_cpu_ns PID: the CPU time PID has had, in ns: utime + stime of
# /proc/PID/stat (all threads, ended ones included; clock-tick resolution)
proc_cpu_ns() {
	sed 's/.*) //' /proc/"$1"/stat | awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f\n", ($12 + $13) * 1e9 / hz }'
}
