#!/usr/bin/env bash
# numalens test runner: unit (cmocka), live (host kernel, root) and vm
# (qemu guest) layers. Every test reports one line "PASS <name> (<s>s)" or
# "FAIL <name>: <reason>"; the run ends with "N passed, N failed".
#   usage: tests/run-all.sh [unit] [live] [vm]     (default: all three)
# The unit layer also checks the include rules of the source tree and runs
# the unit tests under ASan+UBSan (`asan` alone runs only those).
# Exit status: 0 when nothing failed, 1 otherwise. Under CI (CI=true) a
# test that would skip for lack of root or of a kernel feature fails.
set -u
cd "$(dirname "$0")/.."
B=build
LOGS=$B/test-logs
ROOT_P=$(pwd -P)
# Per-test hang cap, seconds: only a hung test should reach it. A live test
# that takes 40 s on a quiet host took 300 s beside stress-ng and four
# builds (load 18), so the cap is far above any test's normal run time.
CAP=${NL_TEST_TIMEOUT:-900}
# prometheus and promtool unpacked by scripts/test-tools.sh (not installed)
export PATH="$PWD/$B/test-tools/bin:$PATH"
mkdir -p "$LOGS"
layers=${*:-unit live vm}
pass=0; fail=0; failed_names=()

record() { # record PASS|FAIL name detail
	if [ "$1" = PASS ]; then pass=$((pass + 1)); printf 'PASS %s %s\n' "$2" "$3"
	else fail=$((fail + 1)); failed_names+=("$2"); printf 'FAIL %s: %s\n' "$2" "$3"; fi
}

run_unit() {
	local bin name out rc line
	for bin in "$B"/tests/test_*; do
		[ -x "$bin" ] || continue
		name=$(basename "$bin")
		out=$(CMOCKA_MESSAGE_OUTPUT=TAP timeout "$CAP" "$bin" 2>&1); rc=$?
		printf '%s\n' "$out" > "$LOGS/$name.log"
		local seen=0
		while IFS= read -r line; do
			case "$line" in
			"ok "*) seen=1; record PASS "unit/$name/${line#ok * - }" "";;
			"not ok "*) seen=1; record FAIL "unit/$name/${line#not ok * - }" \
				"$(grep -A3 -F "${line#not ok * - }" "$LOGS/$name.log" | grep -v '^\(not \)\?ok' | head -3 | tr '\n' ' ')";;
			esac
		done <<< "$out"
		if [ $seen = 0 ] || { [ $rc != 0 ] && ! grep -q '^not ok' <<< "$out"; }; then
			record FAIL "unit/$name" "exit $rc: $(tail -3 "$LOGS/$name.log" | tr '\n' ' ')"
		fi
	done
}

# The tree's own rules, one script each (tests/unit/check_*.sh: include
# direction between layers, libbpf confined, no include loops, no design-note
# tags in user-visible text; the docs and man pages): a PASS/FAIL line per rule.
run_layers() {
	local chk name out line rule
	for chk in tests/unit/check_*.sh; do
		name=$(basename "$chk" .sh); name=${name#check_}
		out=$(bash "$chk" 2>&1)
		printf '%s\n' "$out" > "$LOGS/check_$name.log"
		while IFS= read -r line; do
			case "$line" in
			"ok - "*) record PASS "unit/$name/${line#ok - }" "";;
			"not ok - "*) rule=${line#not ok - }
				record FAIL "unit/$name/$rule" \
					"$(sed -n "/^not ok - $rule\$/,/^\(not \)\?ok /p" "$LOGS/check_$name.log" | grep '^#' | head -5 | tr '\n' ' ')";;
			esac
		done <<< "$out"
		grep -q '^\(not \)\?ok - ' <<< "$out" || record FAIL "unit/$name" "no output: $(tail -3 <<< "$out" | tr '\n' ' ')"
	done
}

# The unit tests again under AddressSanitizer (with leak checks) and
# UndefinedBehaviorSanitizer: `make unittest-asan-bins` builds them in
# build/asan/; one PASS/FAIL line per test program.
run_asan() {
	local bin name rc
	if ! make -s --no-print-directory unittest-asan-bins > "$LOGS/asan-build.log" 2>&1; then
		record FAIL unit-asan/build "$(grep -m3 -i 'error' "$LOGS/asan-build.log" | tr '\n' ' ')"
		return
	fi
	for bin in "$B"/asan/tests/test_*; do
		[ -x "$bin" ] || continue
		case $bin in *.d) continue;; esac
		name=$(basename "$bin")
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			timeout "$CAP" "$bin" > "$LOGS/asan-$name.log" 2>&1; rc=$?
		if [ $rc = 0 ]; then record PASS "unit-asan/$name" ""
		else record FAIL "unit-asan/$name" "exit $rc: $(grep -m2 -E 'SUMMARY|runtime error|not ok' "$LOGS/asan-$name.log" | tr '\n' ' ')"; fi
	done
}

# What a live test may create in the kernel and must remove again: cgroup
# directories (systemd's own units aside), BPF pins, DAMON contexts. One
# line per object, sorted. Checked under CI (CI=true) or with
# NL_CHECK_LEFTOVERS=1 only: on a shared machine other people's cgroups
# and pins come and go while a test runs (those named after a process that
# still runs are told apart, owned_by_live_pid).
kernel_state() {
	[ "${CI:-}" = true ] || [ "${NL_CHECK_LEFTOVERS:-}" = 1 ] || return 0
	find /sys/fs/cgroup -mindepth 1 -maxdepth 3 -type d \
		! -name '*.scope' ! -name '*.service' ! -name '*.slice' ! -name '*.mount' \
		! -name '*.socket' ! -name '*.swap' 2> /dev/null
	find /sys/fs/bpf -mindepth 1 -maxdepth 2 2> /dev/null
	echo "kdamonds $(cat /sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds 2> /dev/null)"
}

# owned_by_live_pid: drop the objects (stdin, one per line) that hold
# processes, or whose name carries the pid of a process still running: ours name what they make
# after the shell that made it (export-robust-$$, nl_bench_empty_$$), and
# when that process still runs after the test it was another job's (a
# second checkout's tests or benches on a shared machine), not a leftover.
owned_by_live_pid() {
	local o n live
	while read -r o; do
		live=
		for n in $(echo "$o" | grep -o '[0-9]\{3,\}'); do
			[ -d "/proc/$n" ] && live=1
		done
		# a cgroup that holds processes is a running job's (a shell of
		# the machine's own job manager), not an empty one left behind
		[ -n "$(head -c 1 "$o/cgroup.procs" 2> /dev/null)" ] && live=1
		# gone again by now: a background job's object (the soak's
		# cgroups come and go four times a second), not left behind
		case $o in /*) [ -e "$o" ] || live=1;; esac
		[ -n "$live" ] || echo "$o"
	done
}

# numalens_procs: the pids of this checkout's numalens and scx_cling
# processes now running (a binary under $PWD/, rebuilt or not), under CI
# or NL_CHECK_LEFTOVERS=1 as kernel_state; another checkout's are not
# ours to judge. A live test that leaves one running fails: it would stay
# attached, counting and scraping beside every later test.
numalens_procs() {
	[ "${CI:-}" = true ] || [ "${NL_CHECK_LEFTOVERS:-}" = 1 ] || return 0
	local d e
	for d in /proc/[0-9]*; do
		e=$(readlink "$d/exe" 2> /dev/null) || continue
		e=${e% (deleted)}
		# exe is the resolved path: compare with the physical checkout
		case $e in "$ROOT_P"/*/numalens|"$ROOT_P"/*/scx_cling) ;; *) continue;; esac
		# the soak's exporter runs beside the whole live layer on purpose
		[ -n "${SOAK_PID:-}" ] && descends_from "${d#/proc/}" "$SOAK_PID" && continue
		echo "${d#/proc/}"
	done
}

# descends_from PID ANCESTOR: whether ANCESTOR is PID's parent, or its
# parent's, and so on.
descends_from() {
	local p=$1 n
	for n in 1 2 3 4 5 6 7 8; do
		# the parent pid is the second field after the comm's ")" (a comm
		# may hold spaces and parentheses)
		p=$(sed 's/.*) //' "/proc/$p/stat" 2> /dev/null | cut -d' ' -f2)
		case $p in ''|0|1) return 1;; "$2") return 0;; esac
	done
	return 1
}

# procs_left BEFORE: the pids numalens_procs lists now that BEFORE (a
# file) did not, after a grace of 3 s for ones a test stopped but did not
# wait for; those still running are printed with their command line and,
# under CI only, killed, so that the next test starts clean (on a shared
# machine a process that started beside the test may be someone's own).
procs_left() {
	local n new p
	for n in 1 2 3 4 5 6 7; do
		new=$(numalens_procs | sort | comm -13 "$1" -)
		[ -z "$new" ] && return 0
		[ $n = 7 ] || sleep 0.5
	done
	for p in $new; do
		printf 'process %s (%s) ' "$p" "$({ tr '\0' ' ' < "/proc/$p/cmdline"; } 2> /dev/null | cut -c1-80)"
		[ "${CI:-}" = true ] && kill -KILL "$p" 2> /dev/null
	done
}

run_live() {
	local t name rc start secs left
	# bpffs and tracefs first: on a machine that booted without them the
	# first test's numalens would mount them, and bpffs' own preload
	# files (maps.debug, progs.debug) would then count as that test's
	# leftovers (seen on a fresh machine: live/alloc_class)
	[ "$(id -u)" = 0 ] && bash scripts/ensure-fs.sh
	for t in tests/live/*.sh; do
		[ -f "$t" ] || continue
		name=live/$(basename "$t" .sh)
		# NL_LIVE_TESTS="names ...": only those (a quick re-run of a few)
		[ -n "${NL_LIVE_TESTS:-}" ] && case " $NL_LIVE_TESTS " in *" $(basename "$t" .sh) "*) ;; *) continue;; esac
		start=$(date +%s%N)
		kernel_state | sort > "$LOGS/state.before"
		numalens_procs | sort > "$LOGS/procs.before"
		timeout "$CAP" bash "$t" > "$LOGS/$(basename "$t").log" 2>&1; rc=$?
		# a test that passes but leaves kernel state or a process behind fails
		left=$(kernel_state | sort | comm -13 "$LOGS/state.before" - | owned_by_live_pid | head -3 | tr '\n' ' ')
		left="$left$(procs_left "$LOGS/procs.before")"
		[ $rc = 0 ] && [ -n "$left" ] && { echo "left behind: $left" >> "$LOGS/$(basename "$t").log"; rc=3; }
		secs=$(( ($(date +%s%N) - start) / 100000000 )); secs="$((secs / 10)).$((secs % 10))"
		case $rc in
		0) record PASS "$name" "(${secs}s)";;
		77) if [ "${CI:-}" = true ]; then record FAIL "$name" "skipped under CI: $(tail -1 "$LOGS/$(basename "$t").log")"
		    else printf 'SKIP %s: %s\n' "$name" "$(tail -1 "$LOGS/$(basename "$t").log")"; fi;;
		124) record FAIL "$name" "timed out after $CAP s (a hang cap; NL_TEST_TIMEOUT); log: $LOGS/$(basename "$t").log";;
		*) record FAIL "$name" "exit $rc (${secs}s): $(tail -5 "$LOGS/$(basename "$t").log" | tr '\n' ' ')";;
		esac
	done
}

# The export soak (tests/soak/export_churn.sh: export scraped under process
# and cgroup churn for NL_SOAK_SECS seconds, default 600; 0 leaves it out)
# runs in the background beside the live layer, which mostly waits; its
# line is recorded when the live layer is done (soak_finish waits for it),
# before the VM layer's alone tests, which want the host to themselves.
soak_start() {
	SOAK_PID=
	[ "$(id -u)" = 0 ] && [ -f tests/soak/export_churn.sh ] || return 0
	[ "${NL_SOAK_SECS:-600}" != 0 ] || return 0
	SOAK_T0=$(date +%s%N)
	NL_SOAK_SECS=${NL_SOAK_SECS:-600} NL_SOAK_LOG=$LOGS/export_soak.samples \
		timeout $(( ${NL_SOAK_SECS:-600} + 300 )) bash tests/soak/export_churn.sh > "$LOGS/export_soak.log" 2>&1 &
	SOAK_PID=$!
}
soak_finish() {
	local rc secs
	[ -n "${SOAK_PID:-}" ] || return 0
	wait "$SOAK_PID"; rc=$?
	SOAK_PID=
	secs=$(since "$SOAK_T0")
	case $rc in
	0) record PASS soak/export_churn "(${secs}s) $(grep -m1 '  CPU over' "$LOGS/export_soak.log" | sed 's/^ *//')";;
	77) printf 'SKIP %s: %s\n' soak/export_churn "$(tail -1 "$LOGS/export_soak.log")";;
	124) record FAIL soak/export_churn "timed out (${secs}s); log: $LOGS/export_soak.log";;
	*) record FAIL soak/export_churn "exit $rc (${secs}s): $(tail -3 "$LOGS/export_soak.log" | tr '\n' ' ')";;
	esac
}

# vm_lines: print the VM layer's output (stdin), counting its PASS/FAIL lines.
vm_lines() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"PASS "*) pass=$((pass + 1)); printf '%s\n' "$line";;
		"FAIL "*) fail=$((fail + 1)); failed_names+=("${line#FAIL }"); printf '%s\n' "$line";;
		*) printf '%s\n' "$line";;
		esac
	done
}

# The default guest kernel and the other(s) (the tests whose header lists
# them) share one pool of guests.
run_vm() {
	[ -f tests/vm/run.sh ] || return 0
	vm_lines < <(NL_VM_KERNELS="default ${NL_VM_MORE_KERNELS-6.12}" bash tests/vm/run.sh 2>&1)
}
# vm_start: the VM layer in the background, its output in $LOGS/vm-layer.out,
# its alone=1 tests held until $VM_GATE exists (vm_finish creates it).
vm_start() {
	VM_GATE=$LOGS/vm-layer.gate; rm -f "$VM_GATE"
	NL_VM_ALONE_WAIT=$VM_GATE NL_VM_KERNELS="default ${NL_VM_MORE_KERNELS-6.12}" \
		bash tests/vm/run.sh > "$LOGS/vm-layer.out" 2>&1 &
	VM_PID=$!
}
# vm_finish: the other layers are done: let the alone tests run, wait for the
# VM layer and print its output.
vm_finish() {
	: > "$VM_GATE"
	wait "$VM_PID"
	VM_PID=
	vm_lines < "$LOGS/vm-layer.out"
	rm -f "$VM_GATE"
}

# When the VM layer comes last after others, its guests start first and run
# beside those layers (which mostly wait: the live layer used 13% of a CPU
# over its run); its alone=1 tests wait until the others are done, and its
# lines print last, as they would have. NL_TEST_SERIAL=1: one layer after
# the other.
for l in $layers; do
	case $l in unit|asan|live|vm) ;;
	*) echo "run-all: unknown layer '$l' (unit, asan, live, vm)" >&2; exit 2;; esac
done
bg_vm=0
case " $layers" in
*" vm") [ "$layers" != vm ] && [ "${NL_TEST_SERIAL:-0}" != 1 ] && [ -f tests/vm/run.sh ] && bg_vm=1;;
esac
# layer_times: "name seconds" of each layer's wall time, printed at the end
# (the VM layer's from its start, beside the others when in the background).
layer_times=()
since() { local t=$(( ($(date +%s%N) - $1) / 100000000 )); echo "$((t / 10)).$((t % 10))"; }
vm_t0=$(date +%s%N)
if [ $bg_vm = 1 ]; then
	vm_start
fi
# interrupted: stop the background layers (the soak removes its cgroups on SIGTERM)
# and wait for the soak's cleanup, so no next run finds its cgroups
trap '[ -n "${VM_PID:-}" ] && kill $VM_PID 2>/dev/null; [ -n "${SOAK_PID:-}" ] && { kill $SOAK_PID 2>/dev/null; wait $SOAK_PID 2>/dev/null; }' EXIT
for l in $layers; do
	t0=$(date +%s%N)
	[ $l = vm ] && [ $bg_vm = 0 ] && vm_t0=$t0
	case $l in
	unit) run_layers; run_unit; run_asan;;
	asan) run_asan;; live) soak_start; run_live; soak_finish;;
	vm) if [ $bg_vm = 1 ]; then vm_finish; else run_vm; fi;;
	esac
	if [ $l = vm ]; then layer_times+=("vm $(since "$vm_t0")s"); else layer_times+=("$l $(since "$t0")s"); fi
done
printf 'layer wall times: %s\n' "$(IFS=,; echo "${layer_times[*]}" | sed 's/,/, /g')"
if [ $fail -gt 0 ]; then
	printf '\nfailed:\n'; printf '  %s\n' "${failed_names[@]}"
fi
printf '%d passed, %d failed\n' "$pass" "$fail"
[ $fail = 0 ]
