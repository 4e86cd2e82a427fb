# Helpers for guest test scripts (busybox sh), sourced by /init before a
# test runs and by tests themselves (". /nl/lib.sh" is harmless twice).
# A test exits 0 on pass; on failure it calls nl_fail, which prints
# "FAIL-REASON: <why>" (the host shows the last such line) and exits 1.

NUMALENS=${NUMALENS:-/nl/bin/numalens}

# nl_fail MESSAGE: report why the test failed and exit 1.
nl_fail() {
	echo "FAIL-REASON: $*"
	exit 1
}

# nl_now_ms: print CLOCK_MONOTONIC-ish milliseconds (from /proc/uptime).
nl_now_ms() {
	awk '{printf "%d\n", $1 * 1000}' /proc/uptime
}

# nl_modprobe NAME: insmod NAME's dependencies then NAME, from
# /nl/modules/load.order ("name file.ko dep..."); returns 0 if loaded or built in.
nl_modprobe() {
	local n line f deps d
	n=$(echo "$1" | tr '-' '_')
	[ -d "/sys/module/$n" ] && return 0
	line=$(grep "^$n " /nl/modules/load.order)
	[ -n "$line" ] || { echo "nl_modprobe: no module $n in the guest" >&2; return 1; }
	set -- $line
	f=$2; shift 2
	for d in "$@"; do nl_modprobe "$d" || return 1; done
	insmod "/nl/modules/$f" || { echo "nl_modprobe: insmod $f failed" >&2; return 1; }
}

# nl_need_numalens: fail the test unless the numalens binary is in the guest.
nl_need_numalens() {
	[ -x "$NUMALENS" ] || nl_fail "build/numalens missing: build it (make) before the VM tests"
}

# nl_mount_disk: a fresh file system on the scratch disk the harness
# attaches for a test with disk= in its header (/dev/vda), mounted on
# /mnt/d: ext4, or ext2 when the guest kernel has no ext4 module.
nl_mount_disk() {
	[ -b /dev/vda ] || nl_fail "no /dev/vda: the harness did not attach the disk (disk=)"
	mke2fs -q /dev/vda > /dev/null 2>&1 || nl_fail "mke2fs /dev/vda failed"
	mkdir -p /mnt/d
	mount -t ext4 /dev/vda /mnt/d 2>/dev/null || mount -t ext2 /dev/vda /mnt/d || nl_fail "mount /dev/vda on /mnt/d failed"
}

# nl_cpus_of_node N: print node N's CPU list (e.g. "2" or "4-5").
nl_cpus_of_node() {
	cat "/sys/devices/system/node/node$1/cpulist"
}

# nl_first_cpu_of_node N: print the first CPU of node N.
nl_first_cpu_of_node() {
	nl_cpus_of_node "$1" | sed 's/[-,].*//'
}

# nl_numastat N FIELD: print FIELD (numa_hit, other_node, ...) of node N.
nl_numastat() {
	awk -v f="$2" '$1 == f {print $2}' "/sys/devices/system/node/node$1/numastat"
}

# nl_calc EXPR: print the value of an awk expression (floating point).
nl_calc() {
	awk "BEGIN { printf \"%.6g\\n\", $* }"
}

# nl_cmp A OP B: true when "A OP B" holds for numbers (floats allowed);
# OP is one of -lt -le -eq -ne -ge -gt (or < <= == != >= >).
nl_cmp() {
	local op=$2
	case "$op" in
	-lt) op='<';; -le) op='<=';; -eq) op='==';; -ne) op='!=';; -ge) op='>=';; -gt) op='>';;
	'<'|'<='|'=='|'!='|'>='|'>') ;;
	*) echo "nl_cmp: bad operator $op" >&2; return 2;;
	esac
	awk -v a="$1" -v b="$3" "BEGIN { exit !((a + 0) $op (b + 0)) }"
}

# nl_expect WHAT A OP B: fail with "WHAT: expected >= B, saw A" (for OP
# -ge) unless A OP B holds; OP as for nl_cmp.
nl_expect() {
	local sym=$3
	case "$3" in -lt) sym='<';; -le) sym='<=';; -eq) sym='==';; -ne) sym='!=';; -ge) sym='>=';; -gt) sym='>';; esac
	case "$2" in null|missing|'') nl_fail "$1: expected $sym $4, saw ${2:-nothing}";; esac
	nl_cmp "$2" "$3" "$4" || nl_fail "$1: expected $sym $4, saw $2"
	echo "ok: $1 = $2 ($sym $4)"
}

# nl_wait_file PATH SECONDS: wait until PATH exists; fail after SECONDS.
nl_wait_file() {
	local i=0
	while [ ! -e "$1" ]; do
		i=$((i + 1))
		[ $i -le $(($2 * 10)) ] || nl_fail "timed out after $2 s waiting for $1"
		sleep 0.1
	done
}

# nl_cling_wait PID READY ERR SECONDS: wait until the scx_cling loader PID
# wrote its --ready-file READY; fail at once with the last lines of its
# stderr ERR if it exits first, or after SECONDS with the sched_ext state.
nl_cling_wait() {
	local i=0
	while [ ! -e "$2" ]; do
		kill -0 "$1" 2>/dev/null || nl_fail "scx_cling exited before attaching: $(tail -2 "$3" | tr '\n' ' ')"
		i=$((i + 1))
		[ $i -le $(($4 * 10)) ] || nl_fail "scx_cling not attached after $4 s: state=$(cat /sys/kernel/sched_ext/state) $(tail -2 "$3" | tr '\n' ' ')"
		sleep 0.1
	done
}

# nl_top OUT SECONDS COUNT [ARGS...]: start `numalens top --json -d SECONDS
# -n COUNT ARGS` in the background on CPU 0 (away from the nodes under test),
# writing OUT (stderr to OUT.err); returns once the first interval is out.
# Sets NL_TOP_PID. Fails the test if numalens dies first.
nl_top() {
	local out=$1 d=$2 n=$3 i=0
	shift 3
	nl_need_numalens
	taskset -c 0 "$NUMALENS" top --json -d "$d" -n "$n" "$@" > "$out" 2> "$out.err" &
	NL_TOP_PID=$!
	while [ ! -s "$out" ]; do
		kill -0 $NL_TOP_PID 2>/dev/null || nl_fail "numalens top exited before its first interval: $(tail -2 "$out.err" | tr '\n' ' ')"
		i=$((i + 1))
		[ $i -le 300 ] || nl_fail "numalens top wrote no interval within 30 s: $(tail -2 "$out.err" | tr '\n' ' ')"
		sleep 0.1
	done
}

# nl_top_wait OUT: wait for the nl_top started on OUT; fail unless it exited 0.
nl_top_wait() {
	local rc
	wait $NL_TOP_PID
	rc=$?
	[ $rc = 0 ] || nl_fail "numalens top exited $rc: $(tail -2 "$1.err" | tr '\n' ' ')"
	echo "numalens: $(wc -l < "$1") intervals in $1"
}

# nl_top_stop OUT N: once the nl_top on OUT (started with a large COUNT) has
# written N more intervals than now (at most 120 s), stop it with SIGINT and
# check it exited 0. The window so covers the work however slow the host
# makes the guest (a fixed COUNT raced with a slow workload).
nl_top_stop() {
	local want=$(( $(wc -l < "$1") + $2 )) i=0
	while [ "$(wc -l < "$1")" -lt $want ] && kill -0 $NL_TOP_PID 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 1200 ] || nl_fail "numalens top wrote no $2 more interval(s) in 120 s"
		sleep 0.1
	done
	kill -INT $NL_TOP_PID 2>/dev/null
	nl_top_wait "$1"
}

# nl_top_until_gone OUT PID: wait (at most 120 s) until the last interval of
# the nl_top on OUT (started with a large COUNT) no longer lists PID, which
# has exited, then stop top (SIGINT) and check it exited 0. An exited
# process is listed for its last interval(s), and a starved top writes
# late: a fixed COUNT that outlasted a workload on a quiet host did not on a
# busy one.
nl_top_until_gone() {
	local i=0
	while [ "$(nljq -L "$1" "processes[pid=$2].pid" 2>/dev/null)" != missing ] && kill -0 $NL_TOP_PID 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 1200 ] || nl_fail "numalens top still listed pid $2 after 1,200 polls (120 s): $(wc -l < "$1") intervals written"
		sleep 0.1
	done
	nl_top_stop "$1" 0
}

# nl_work_field FILE KEY: KEY's value in nlwork's output line in FILE (e.g.
# cpu_ns: the CPU time the workload measured it got, ns).
nl_work_field() {
	sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1" | tail -1
}

# nl_export_seq URL: the snapshot number a numalens export serves (from its
# /healthz at URL, e.g. http://127.0.0.1:10072), or 0.
nl_export_seq() {
	local s
	s=$(wget -q -O - "$1/healthz" 2>/dev/null | sed -n 's/.*snapshot \([0-9]*\) taken.*/\1/p')
	echo "${s:-0}"
}

# nl_export_wait URL N: wait until the export at URL serves a snapshot taken
# N snapshots after the one it serves now (at most 120 s): its counters
# then include everything done before the call.
nl_export_wait() {
	local want=$(( $(nl_export_seq "$1") + $2 )) i=0
	while [ "$(nl_export_seq "$1")" -lt $want ]; do
		i=$((i + 1))
		[ $i -le 1200 ] || nl_fail "numalens export at $1 took no $2 more snapshot(s) in 120 s"
		sleep 0.1
	done
}

# nl_within WHAT A B PCT: fail unless |A - B| <= PCT% of max(A, B).
nl_within() {
	case "$2$3" in *null*|*missing*) nl_fail "$1: expected numbers, saw '$2' and '$3'";; esac
	awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { m = a > b ? a : b; d = a - b; if (d < 0) d = -d;
		exit !(m == 0 || d * 100 <= t * m) }' ||
		nl_fail "$1: expected within $4%, saw $2 vs $3"
	echo "ok: $1: $2 vs $3 (within $4%)"
}

# nl_sum FILE PATH: sum of PATH over the JSON lines of FILE (nljq -s).
nl_sum() {
	nljq -s "$1" "$2"
}

# nl_memcg_settle CGDIR: wait until CGDIR's memory.stat and memory.numa_stat
# read the same twice, 2.1 s apart (at most 4 tries). Memcg statistics
# reach these files on a read only past a threshold of pending updates or
# by the kernel's 2 s periodic flush, and a read may skip the flush while
# another one runs: CI once read pgsteal +1536 right after a workload that
# had freed 25089 pages. Call it before reading the "after" figures of an
# idle cgroup.
nl_memcg_settle() {
	local a b i
	b=$(cat "$1/memory.stat" "$1/memory.numa_stat" 2>/dev/null)
	for i in 1 2 3 4; do
		sleep 2.1
		a=$b
		b=$(cat "$1/memory.stat" "$1/memory.numa_stat" 2>/dev/null)
		[ "$a" = "$b" ] && return 0
	done
	echo "nl_memcg_settle: $1 statistics still changing after $i tries"
}

# nl_anon_settle CGDIR NODE:MIB...: wait (0.2 s steps, at most 60 s) until
# CGDIR's memory.numa_stat shows at least 98% of MIB MiB of anon on each
# NODE: what the workloads hold reaches the file only at the kernel's
# periodic stats flush (about 2 s). Fails with what it saw.
nl_anon_settle() {
	local cg=$1 i=0 short; shift
	while :; do
		short=$(awk -v want="$*" '$1 == "anon" {
			n = split(want, w, " ")
			for (k = 1; k <= n; k++) { split(w[k], a, ":"); got = 0
				for (i = 2; i <= NF; i++) if (index($i, "N" a[1] "=") == 1) got = substr($i, length(a[1]) + 3) / 1048576
				if (got < a[2] * 0.98) printf "node %s %.1f of %s MiB; ", a[1], got, a[2] }
			seen = 1 }
			END { if (!seen) printf "no anon line" }' "$cg/memory.numa_stat" 2>&1)
		[ -z "$short" ] && return 0
		i=$((i + 1))
		[ $i -le 300 ] || nl_fail "memory.numa_stat of $cg after 60 s: $short"
		sleep 0.2
	done
}

# nl_monitor OUT ERR DONE [ARGS...]: run `scx_cling --monitor --delay 1 ARGS` (stdout
# to OUT, stderr to ERR) until the command DONE succeeds (at most 60 s: its
# first block comes at once, but a starved guest takes seconds to start
# it; a fixed `timeout 4` could end it before), then stop it. Fails if it
# exits or the minute passes first.
nl_monitor() {
	local out=$1 err=$2 done=$3 m i=0; shift 3
	scx_cling --monitor --delay 1 "$@" > "$out" 2> "$err" &
	m=$!
	until $done; do
		kill -0 $m 2>/dev/null || { wait $m; $done && return 0
			nl_fail "scx_cling --monitor exited before its output was complete: $(head -2 "$out" "$err" | tr '\n' ' ')"; }
		i=$((i + 1)); [ $i -le 600 ] || { kill $m; nl_fail "scx_cling --monitor output incomplete after 60 s: $(head -2 "$out" "$err" | tr '\n' ' ')"; }
		sleep 0.1
	done
	kill $m 2>/dev/null; wait $m 2>/dev/null
	return 0
}

# nl_blocks FILE N: FILE holds N --delay/--monitor blocks (their header
# lines); N = 2 means the first one is complete.
nl_blocks() { [ "$(grep -c '^scx_cling [0-9]' "$1")" -ge "$2" ]; }

# nl_export_served URL OUT PID: wait (0.5 s steps, at most 2 min) until
# numalens export (PID; its stderr in /tmp/export.err) serves URL, saved
# to OUT; fail the test when it exits or never serves.
nl_export_served() {
	local i=0
	until wget -q -O "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 240 ] || nl_fail "numalens export did not serve /metrics: $(cat /tmp/export.err)"
		kill -0 "$3" 2>/dev/null || nl_fail "numalens export exited: $(cat /tmp/export.err)"
		sleep 0.5
	done
}
