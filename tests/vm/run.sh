#!/usr/bin/env bash
# Run the VM tests: each tests/vm/tests/NAME.sh boots a fresh 4-node qemu
# (TCG) guest from the Debian sched_ext kernel and our initramfs, runs in it,
# and its result comes back through the second serial port. Guests run in
# parallel, each one single-threaded TCG, so one guest keeps one host CPU busy.
#   usage: tests/vm/run.sh [-j N] [NAME...]   (default: every test)
#   -j N: at most N guests at once (default NL_VM_JOBS, else the number of
#   CPUs). Results print in the tests' order, each one as soon as it and all
#   tests before it are done, so the output is the same whatever finishes first.
# Environment: B (build dir, default build), CACHE (default cache),
#   NL_VM_JOBS (default for -j),
#   NL_VM_KERNEL: a kernel series (e.g. 6.12) to boot instead of the default
#   sched_ext kernel (tests/vm/kernel.sh fetches and caches it); the tests
#   are then named vm-SERIES/NAME, their logs go to $B/test-logs/vm-SERIES,
#   and with no NAME given only the tests whose header lists the series
#   in "kernels=" run (no header: the default kernel only),
#   NL_VM_KERNELS: several kernels in one run and one pool of guests
#   (e.g. "default 6.12", what `make test` runs): each test runs on every
#   one of them its header lists (NAMEs given or not); results print
#   kernel by kernel, in the tests' order,
#   NL_VM_KEEP=1 keep the guest console in $B/test-logs/vm/NAME.console
#   even on success (it is always kept; NL_VM_KEEP=1 also prints it),
#   NL_VM_TIMEOUT (default per-test timeout, seconds; default 150),
#   NL_VM_TIMEOUT_SCALE (default 2): every timeout is multiplied by it. A
#   timeout only catches a hung guest; on a busy host a TCG guest runs 2-3
#   times slower than alone (numalens' BPF load alone took > 60 s in a guest
#   at a host load of 13 on 2 CPUs), so the headers' figures are doubled,
#   NL_VM_TESTS_DIR (where the tests are; default tests/vm/tests),
#   NL_VM_NUMALENS (the numalens binary for the guest; default $B/numalens),
#   NL_VM_EXTRA_BINS (more static binaries for /nl/bin, space-separated: e.g.
#   another build of numalens renamed, for an A/B bench in one guest),
#   NL_VM_GUEST_ENV: variables for the guest's test, "NAME=VALUE,..." (e.g.
#   "RUNS=5,MIB=64" for a bench in tests/bench/vm); values may hold letters,
#   digits and . _ / - only (they travel on the kernel command line).
# Output: one line per test, "PASS vm/NAME (S s)" or "FAIL vm/NAME: why";
# other lines never start with PASS/FAIL. Exit 0 if all passed, else 1.
# Guests start in this order: the longest first (by the time the test took
# last time, $LOGS/NAME.secs; else by its timeout), so the pool does not end
# on one long guest beside an idle CPU; the alone=1 tests one at a time,
# each on a host CPU of its own (the other guests pinned to the other CPUs;
# on multi-threaded TCG: the whole host, last), not before
# NL_VM_ALONE_WAIT=FILE exists (tests/run-all.sh creates it when its other
# layers, which run beside the VM pool, are done). The first kernel is prepared before any
# guest starts, the others beside its guests. The output order does not change.
#
# A test declares its guest in comment lines "# vm: key=value ...":
#   nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150 modules=zram
#   alone=1: no other guest shares its host CPU (policy-quality tests)
#   disk=SIZE (e.g. 512M): an empty virtio disk /dev/vda of SIZE (a sparse
#   file $LOGS/NAME.disk, removed afterwards), for real file-backed I/O
# Unequal topologies (these override nodes/cpus_per_node/mem_per_node):
#   cpus=4,4 or cpus=2,0,0   CPUs per node (0: a memory-only node)
#   mem=512M,64M,64M         memory per node (default mem_per_node each)
#   dist=10,20,30/20,10,25/30,25,10   the SLIT, one row per node (qemu -numa dist)
#   kernels=default,6.12: the kernels it runs on (default: "default")
#   numa_cost=on|NS: memory that costs by NUMA distance (the numa_cost TCG
#   plugin, tests/vm/numa_cost/): a cache-line miss costs NS ns (on: 500)
#   times SLIT/10, so a remote page is slower than a local one; the plugin's
#   per-vCPU counts go to $LOGS/NAME.cost (every second and at exit);
#   NL_VM_NUMA_COST=on|NS turns it on for any test (a bench, say).
#   Such a guest runs multi-threaded TCG: single-threaded, qemu 10.0 bakes
#   the vCPU that translated a block into the block's plugin calls (it
#   takes one thread for one vCPU), so every vCPU that ran the same code
#   was counted, and cached, as the first one (seen: four walkers on CPUs
#   1-4 one after the other, all counted on CPU 1)
#   kernel_args=a=1,b: more words for the guest kernel's command line
#   tcg=single|multi: the TCG threading (default single, multi with
#   numa_cost; NL_VM_TCG_THREAD overrides). multi: a host thread per vCPU
#   (guests have hung at boot with it; the harness boots a silent guest
#   once more)
# A test may come with a host-side check, NAME.host beside NAME.sh: after a
# guest that passed, "bash NAME.host OUT COST" runs on the host (OUT: what
# the guest wrote, COST: the plugin's counts) and its exit status decides;
# a "FAIL-REASON: why" line it prints is the FAIL line's reason.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}; CACHE=${CACHE:-cache}
VM=$B/vm
export NL_VM_TESTS_DIR=${NL_VM_TESTS_DIR:-tests/vm/tests}; TDIR=$NL_VM_TESTS_DIR
fails=0

# kernel_vars SERIES: set KSERIES, KDIR, INITRD, P (the tests' prefix) and
# LOGS for a kernel series ("" or "default": the default sched_ext kernel).
kernel_vars() {
	KSERIES=${1#default}; local suf=${KSERIES:+-$KSERIES}
	KDIR=$VM/kernel$suf; INITRD=$VM/initrd$suf.cpio
	P=vm$suf; LOGS=$B/test-logs/$P
}
kernels=()
for k in $(tr ',' ' ' <<< "${NL_VM_KERNELS:-${NL_VM_KERNEL:-default}}"); do kernels+=("${k#default}"); done
[ ${#kernels[@]} -gt 0 ] || kernels=("")
for k in "${kernels[@]}"; do kernel_vars "$k"; mkdir -p "$LOGS"; done
kernel_vars "${kernels[0]}"

# fail NAME REASON: print the FAIL line for vm/NAME (P: the kernel's prefix).
fail() { printf 'FAIL %s/%s: %s\n' "$P" "$1" "$2"; fails=$((fails + 1)); }

jobs=${NL_VM_JOBS:-$(nproc 2>/dev/null || echo 1)}
while [ $# -gt 0 ]; do
	case "$1" in
	-j) [ $# -ge 2 ] || { echo "run.sh: -j needs a number of guests" >&2; exit 2; }
	    jobs=$2; shift 2;;
	-j*) jobs=${1#-j}; shift;;
	--) shift; break;;
	-*) echo "run.sh: unknown option '$1' (usage: run.sh [-j N] [NAME...])" >&2; exit 2;;
	*) break;;
	esac
done
case "$jobs" in
''|*[!0-9]*|0) echo "run.sh: -j / NL_VM_JOBS wants a number of guests >= 1, got '$jobs'" >&2; exit 2;;
esac
# The guest's variables travel on the kernel command line, one word.
if [ -n "${NL_VM_GUEST_ENV:-}" ] &&
   ! [[ $NL_VM_GUEST_ENV =~ ^[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9._/-]*(,[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9._/-]*)*$ ]]; then
	echo "run.sh: NL_VM_GUEST_ENV wants NAME=VALUE,... with values of letters, digits and . _ / - only, got '$NL_VM_GUEST_ENV'" >&2
	exit 2
fi

# secs_since START_NS: print seconds elapsed since START_NS, one decimal.
secs_since() {
	local d=$(( ($(date +%s%N) - $1) / 100000000 ))
	printf '%d.%d' $((d / 10)) $((d % 10))
}

# on_kernel T SERIES: true when test file T runs on kernel SERIES ("" is
# the default one; the header's "kernels=")
on_kernel() {
	local ks
	ks=$(sed -n 's/^# vm:.*[[:space:]]\?\<kernels=\([^[:space:]]*\).*/\1/p' "$1" | tail -1)
	case ",${ks:-default}," in *",${2:-default},"*) return 0;; esac
	return 1
}
# The jobs: test jtest[i] on kernel jker[i], kernel by kernel. Named tests
# run as asked on a single kernel; with several kernels, on those of their
# kernels= that are in the run.
jtest=(); jker=()
for k in "${kernels[@]}"; do
	if [ $# -gt 0 ]; then
		for t in "$@"; do
			if [ ${#kernels[@]} = 1 ] || [ ! -f "$TDIR/$t.sh" ] || on_kernel "$TDIR/$t.sh" "$k"; then
				jtest+=("$t"); jker+=("$k")
			fi
		done
	else
		for t in "$TDIR"/*.sh; do
			on_kernel "$t" "$k" && { jtest+=("$(basename "$t" .sh)"); jker+=("$k"); }
		done
	fi
done
[ ${#jtest[@]} -gt 0 ] || { echo "vm: no test runs on the ${NL_VM_KERNELS:-${NL_VM_KERNEL:-default}} kernel"; exit 0; }
# fail_kernel SERIES REASON: FAIL every test of kernel SERIES (its guests
# cannot boot); they are left out of the pool.
fail_kernel() {
	local i
	for i in "${!jtest[@]}"; do
		[ "${jker[i]}" = "$1" ] && [ -z "${jdone[i]:-}" ] || continue
		fail "${jtest[i]}" "$2"; jdone[i]=1
	done
}
declare -a jdone=()

# --- guest programs, kernel, initramfs -------------------------------------
t0=$(date +%s%N)
if ! command -v qemu-system-x86_64 > /dev/null; then
	for i in "${!jtest[@]}"; do kernel_vars "${jker[i]}"; fail "${jtest[i]}" "qemu-system-x86_64 is not installed: run 'make deps' as root"; done
	exit 1
fi
if ! make -s B="$B" CACHE="$CACHE" vm-bins > "$LOGS/build.log" 2>&1; then
	echo "vm: building the guest programs failed (tests that need them will fail); $LOGS/build.log:"
	tail -5 "$LOGS/build.log" | sed 's/^/  | /'
fi
bins=("${NL_VM_NUMALENS:-$B/numalens}" "$B/tests/nlwork" "$B/tests/nlcaps" "$B/tests/nlpty" "$VM/nljq" "$VM/scx_smoke" "$B/tests/live/lot_dist" "$B/scx_cling"
      "$B/tests/verify_stats" "$B"/bpf/*.bpf.o "$B/sched_ext/scx_cling.bpf.o" ${NL_VM_EXTRA_BINS:-})
# prep_kernel SERIES: fetch and unpack kernel SERIES and build its
# initramfs, printing the "vm:" lines; on failure return 1 after a line
# "KFAIL why" (the kernel itself failed: why, or nothing) and "TFAIL why"
# (why each of its tests fails).
prep_kernel() {
	local t1; t1=$(date +%s%N); kernel_vars "$1"
	if ! bash tests/vm/kernel.sh "$CACHE" "$KDIR" $KSERIES 2> "$LOGS/kernel.log"; then
		sed 's/^/  | /' "$LOGS/kernel.log"
		echo "KFAIL $(grep 'error:' "$LOGS/kernel.log" | tail -1 | sed 's/^kernel: error: //')"
		echo "TFAIL no guest kernel (see $P/kernel)"
		return 1
	fi
	sed 's/^/vm: /' "$LOGS/kernel.log"
	if ! bash tests/vm/initramfs.sh "$INITRD" "$KDIR" "${bins[@]}" 2> "$LOGS/initramfs.log"; then
		echo "TFAIL initramfs: $(tail -1 "$LOGS/initramfs.log")"
		return 1
	fi
	sed 's/^/vm: /' "$LOGS/initramfs.log"
	echo "vm: kernel $(cat "$KDIR/release"), initramfs $(( $(stat -c %s "$INITRD") / 1024 )) KiB, prepared in $(secs_since "$t1")s"
}
# prep_report SERIES FILE: print what prep_kernel wrote to FILE; when it
# failed, FAIL the kernel (if it said why) and every test of SERIES not
# started yet.
prep_report() {
	local line kf='' tf=''
	while IFS= read -r line; do
		case "$line" in
		"KFAIL "*) kf=1; kernel_vars "$1"; fail kernel "${line#KFAIL }";;
		"TFAIL "*) tf=${line#TFAIL };;
		*) printf '%s\n' "$line";;
		esac
	done < "$2"
	[ -n "$tf" ] && fail_kernel "$1" "$tf"
	return 0
}
# The guests' reports are buffered in $RUN (see flush below); a kernel
# prepared in the background leaves its output in $RUN/prep.SERIES and its
# exit status in $RUN/prep.SERIES.rc.
RUN=$(mktemp -d "${TMPDIR:-/tmp}/nl-vm-run.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$RUN"' EXIT
# The first kernel is prepared before any guest; the others in the
# background while the first kernel's guests run (unpacking a kernel's
# modules took 74-93 s of a fresh clone's CI run, beside idle guest slots),
# and a guest of theirs starts once its kernel is ready.
# kready[kSERIES]: 1 ready, 0 failed, "-" being prepared in the background.
declare -A kready=()
prep_pids=()
for k in "${kernels[@]}"; do
	[ -z "${kready[k$k]:-}" ] || continue
	if [ "$k" = "${kernels[0]}" ]; then
		prep_kernel "$k" > "$RUN/prep.$k" 2>&1 && kready[k$k]=1 || kready[k$k]=0
		prep_report "$k" "$RUN/prep.$k"
	else
		kready[k$k]=-
		( prep_kernel "$k" > "$RUN/prep.$k" 2>&1; echo $? > "$RUN/prep.$k.rc" ) &
		prep_pids+=($!)
	fi
done
# kernel_ready SERIES: true when SERIES' guests can start. A background
# preparation that has ended is reported here (once); when it failed, the
# kernel's tests get their FAIL lines (in their places) and are done.
kernel_ready() {
	case "${kready[k$1]}" in 1) return 0;; 0) return 1;; esac
	[ -e "$RUN/prep.$1.rc" ] || return 1
	if [ "$(cat "$RUN/prep.$1.rc")" = 0 ]; then kready[k$1]=1; else kready[k$1]=0; fi
	local i out
	out=$(prep_report "$1" "$RUN/prep.$1")
	printf '%s\n' "$out" | grep -v '^FAIL vm[^ ]*/[^ ]*: ' | grep -v '^FAIL [^ ]*/kernel: ' || true
	# its kernel's own FAIL line counts here, its tests' ones at flush
	printf '%s\n' "$out" | grep '^FAIL [^ ]*/kernel: ' && fails=$((fails + 1))
	# (none of its tests started: they wait for it)
	[ "${kready[k$1]}" = 1 ] || for i in "${!jtest[@]}"; do
		[ "${jker[i]}" = "$1" ] || continue
		kernel_vars "$1"; jdone[i]=1
		printf '%s\n' "$out" | grep -F "FAIL $P/${jtest[i]}: " > "$RUN/$i"; : > "$RUN/$i.done"
	done
	[ "${kready[k$1]}" = 1 ]
}
# nguests: how many guests run (the background preparations aside).
nguests() {
	local n=0 p
	for p in $(jobs -rp); do
		case " ${prep_pids[*]} " in *" $p "*) ;; *) n=$((n + 1));; esac
	done
	echo $n
}

# header T KEY DEFAULT: the "# vm: KEY=value" of test file T, or DEFAULT.
header() {
	local v
	v=$(sed -n 's/^# vm:.*[[:space:]]\?\<'"$2"'=\([^[:space:]]*\).*/\1/p' "$1" | tail -1)
	printf '%s\n' "${v:-$3}"
}

# mib SIZE: "512M" / "1G" / "256" (MiB) -> MiB.
mib() {
	case "$1" in
	*G) echo $(( ${1%G} * 1024 ));; *M) echo "${1%M}";; *) echo "$1";;
	esac
}

# numa_topology CPUS MEMS DIST DEFMEM: set numa (qemu args), ncpus,
# memtot (MiB), cost_cpus and cost_mem of the caller from the cpus=/mem=/dist=
# headers; on bad input return 1 with numa_err set.
numa_topology() {
	local -a c m r
	local n k cpu0=0 mm
	IFS=, read -ra c <<< "$1"; IFS=, read -ra m <<< "$2"
	numa=(); ncpus=0; memtot=0; cost_cpus=''; cost_mem=''
	for ((n = 0; n < ${#c[@]}; n++)); do
		[[ ${c[n]} =~ ^[0-9]+$ ]] || { numa_err="cpus: '${c[n]}' is not a count"; return 1; }
		mm=$(mib "${m[n]:-${4}M}")
		[[ $mm =~ ^[0-9]+$ && $mm -gt 0 ]] || { numa_err="mem: '${m[n]}' (qemu needs memory on every node)"; return 1; }
		numa+=(-object "memory-backend-ram,id=m$n,size=${mm}M")
		cost_cpus+=":${c[n]}"; cost_mem+=":$mm"
		if [ "${c[n]}" -gt 0 ]; then
			numa+=(-numa "node,nodeid=$n,cpus=$cpu0-$((cpu0 + c[n] - 1)),memdev=m$n")
		else
			numa+=(-numa "node,nodeid=$n,memdev=m$n")
		fi
		cpu0=$((cpu0 + c[n])); memtot=$((memtot + mm))
	done
	ncpus=$cpu0
	[ "$ncpus" -gt 0 ] || { numa_err="cpus: no CPU at all"; return 1; }
	cost_cpus=${cost_cpus#:}; cost_mem=${cost_mem#:}
	[ -n "$3" ] || return 0
	IFS=/ read -ra r <<< "$3"
	[ ${#r[@]} = ${#c[@]} ] || { numa_err="dist: ${#r[@]} rows for ${#c[@]} nodes"; return 1; }
	for ((n = 0; n < ${#r[@]}; n++)); do
		IFS=, read -ra m <<< "${r[n]}"
		[ ${#m[@]} = ${#c[@]} ] || { numa_err="dist: row $n has ${#m[@]} values"; return 1; }
		for ((k = 0; k < ${#m[@]}; k++)); do
			[ $k = $n ] || numa+=(-numa "dist,src=$n,dst=$k,val=${m[k]}")
		done
	done
}

# run_one SERIES NAME: boot a guest of kernel SERIES for
# tests/vm/tests/NAME.sh and report (on stdout: the PASS/FAIL line, then on
# failure what the guest printed). Its wall time goes to $LOGS/NAME.secs.
run_one() {
	kernel_vars "$1"; shift
	local name=$1 f=$TDIR/$1.sh
	[ -f "$f" ] || { fail "$name" "no such test $f"; return; }
	local nodes cpn mem tmo mods
	nodes=$(header "$f" nodes 4); cpn=$(header "$f" cpus_per_node 1)
	mem=$(mib "$(header "$f" mem_per_node 512M)")
	tmo=$(header "$f" timeout "${NL_VM_TIMEOUT:-150}"); mods=$(header "$f" modules '')
	tmo=$(awk -v t="$tmo" -v s="${NL_VM_TIMEOUT_SCALE:-2}" 'BEGIN { printf "%d", t * s + 0.5 }')
	local con=$LOGS/$name.console res=$LOGS/$name.out
	rm -f "$con" "$res"
	local drive=() dsize; dsize=$(header "$f" disk '')
	if [ -n "$dsize" ]; then
		rm -f "$LOGS/$name.disk"; truncate -s "$dsize" "$LOGS/$name.disk"
		drive=(-drive "file=$LOGS/$name.disk,if=virtio,format=raw,cache=unsafe")
	fi
	# cost_cpus, cost_mem: CPUs and MiB per node, ':' between nodes (the
	# numa_cost plugin's arguments; numa_topology sets them too)
	local numa=() n cpu0 cost_cpus='' cost_mem=''
	for ((n = 0; n < nodes; n++)); do
		cpu0=$((n * cpn))
		numa+=(-object "memory-backend-ram,id=m$n,size=${mem}M"
		       -numa "node,nodeid=$n,cpus=$cpu0-$((cpu0 + cpn - 1)),memdev=m$n")
		cost_cpus+=":$cpn"; cost_mem+=":$mem"
	done
	cost_cpus=${cost_cpus#:}; cost_mem=${cost_mem#:}
	local ncpus=$((nodes * cpn)) memtot=$((nodes * mem))
	if [ -n "$(header "$f" cpus '')" ]; then
		numa_topology "$(header "$f" cpus '')" "$(header "$f" mem '')" "$(header "$f" dist '')" "$mem" || {
			fail "$name" "bad '# vm:' cpus/mem/dist header: $numa_err"; return; }
	fi
	# numa_cost=: the plugin that charges memory by NUMA distance
	local plugin=() cost tcg=single
	cost=${NL_VM_NUMA_COST:-$(header "$f" numa_cost '')}
	rm -f "$LOGS/$name.cost"
	[ "$cost" = on ] && cost=500
	case "$cost" in
	''|off) ;;
	*)
		[[ $cost =~ ^[0-9]+$ ]] || { fail "$name" "bad '# vm:' numa_cost=$cost (on, off or nanoseconds per local miss)"; return; }
		[ -f "$VM/libnuma_cost.so" ] || { fail "$name" "numa_cost: $VM/libnuma_cost.so missing (make vm-bins; $LOGS/build.log)"; return; }
		local pd; pd=$(header "$f" dist '' | tr ',' ':')
		plugin=(-plugin "$VM/libnuma_cost.so,cpus=$cost_cpus,mem=$cost_mem${pd:+,dist=$pd},local_ns=$cost,out=$LOGS/$name.cost")
		tcg=multi
		;;
	esac
	tcg=${NL_VM_TCG_THREAD:-$(header "$f" tcg "$tcg")}
	local kargs; kargs=$(header "$f" kernel_args '' | tr ',' ' ')
	local start rc boot
	# A guest that prints nothing at all before its timeout never reached
	# /init (its first line comes before any test code): on a loaded host
	# a TCG boot hung so twice in this session's runs at load 10-22, while the
	# same guest booted beside it. Such a boot is tried once more, and said.
	# host CPUs for this guest (see "alone=1" at the pool below): the
	# caller's guest_pin, else $RUN/pin while an alone=1 guest runs
	local gpin=${guest_pin:-$(cat "$RUN/pin" 2> /dev/null)} pre=()
	[ -n "$gpin" ] && pre=(taskset -c "$gpin")
	for boot in 1 2; do
		start=$(date +%s%N)
		timeout -k 5 "$tmo" "${pre[@]}" qemu-system-x86_64 -accel "tcg,thread=$tcg" -m "$memtot" \
			-smp "$ncpus" "${numa[@]}" "${drive[@]}" "${plugin[@]}" \
			-kernel "$KDIR/vmlinuz" -initrd "$INITRD" \
			-append "console=ttyS0 quiet panic=-1 no_timer_check${kargs:+ $kargs} nl.test=$name nl.modules=$mods${NL_VM_GUEST_ENV:+ nl.env=$NL_VM_GUEST_ENV}" \
			-display none -no-reboot -monitor none \
			-serial "file:$con" -serial "file:$res" < /dev/null > "$LOGS/$name.qemu" 2>&1
		rc=$?
		[ $boot = 1 ] && { [ $rc = 124 ] || [ $rc = 137 ]; } && [ ! -s "$con" ] && [ ! -s "$res" ] || break
		echo "  note| $P/$name: the guest printed nothing in ${tmo}s (a boot that never reached /init): booted once more"
		if [ -n "$dsize" ]; then rm -f "$LOGS/$name.disk"; truncate -s "$dsize" "$LOGS/$name.disk"; fi
	done
	rm -f "$LOGS/$name.disk"
	local secs; secs=$(secs_since "$start")
	echo "$secs" > "$LOGS/$name.secs"
	[ -f "$res" ] && sed -i 's/\r$//' "$res"
	local grc; grc=$(sed -n 's/^NLVM-RC \([0-9]*\)$/\1/p' "$res" 2>/dev/null | tail -1)
	if [ "${NL_VM_KEEP:-}" = 1 ]; then sed 's/^/  console| /' "$con"; fi
	if [ "$grc" = 0 ] && [ -f "$TDIR/$name.host" ]; then
		local hout hrc=0 why
		hout=$(bash "$TDIR/$name.host" "$res" "$LOGS/$name.cost" 2>&1) || hrc=$?
		printf '%s\n' "$hout" > "$LOGS/$name.hostcheck"
		if [ $hrc != 0 ]; then
			why=$(sed -n 's/^FAIL-REASON: //p' <<< "$hout" | tail -1)
			fail "$name" "host check: ${why:-exit $hrc} (${secs}s)"
			grep -v '^FAIL-REASON' <<< "$hout" | tail -15 | sed 's/^/  host| /'
			return
		fi
	fi
	if [ "$grc" = 0 ]; then
		printf 'PASS %s/%s (%ss)\n' "$P" "$name" "$secs"
		return
	fi
	local why
	if [ -n "$grc" ]; then
		why=$(sed -n 's/^FAIL-REASON: //p' "$res" | tail -1)
		[ -n "$why" ] || why="exit $grc without a FAIL-REASON; last output: $(grep -v '^NLVM-\|^nlvm: ' "$res" | tail -2 | tr '\n' ' ')"
		fail "$name" "$why (${secs}s)"
		grep -v '^NLVM-RC' "$res" | tail -15 | sed 's/^/  out| /'
	else
		if [ $rc = 124 ] || [ $rc = 137 ]; then why="guest killed after the ${tmo}s timeout"
		elif grep -q 'Kernel panic' "$con" 2>/dev/null; then why="guest kernel panicked: $(grep -m1 'Kernel panic' "$con" | tr -d '\r')"
		else why="guest ended without a result (qemu exit $rc: $(tail -1 "$LOGS/$name.qemu" 2>/dev/null))"; fi
		fail "$name" "$why (${secs}s); console: $con"
		tail -20 "$con" 2>/dev/null | tr -d '\r' | sed 's/^/  console| /'
		[ -s "$con" ] || echo "  console| (empty: stopped before /init's first line; the kernel boots with 'quiet')"
		# what the test printed before it stopped (streamed to ttyS1)
		[ -s "$res" ] && grep -v '^NLVM-RC' "$res" | tail -15 | sed 's/^/  out| /'
	fi
}

# Each guest's report is buffered in $RUN/I (I = the job's position) and
# $RUN/I.done marks it complete; flush prints the finished reports in order.
for i in "${!jdone[@]}"; do : > "$RUN/$i"; : > "$RUN/$i.done"; done	# failed above
next=0
flush() {
	while [ $next -lt ${#jtest[@]} ] && [ -e "$RUN/$next.done" ]; do
		cat "$RUN/$next"
		grep -q '^FAIL ' "$RUN/$next" && fails=$((fails + 1))
		next=$((next + 1))
	done
}
# The start order: by expected seconds, longest first; then the alone=1
# tests in the tests' order.
order=(); rest=(); lone=()
for i in "${!jtest[@]}"; do
	[ -z "${jdone[i]:-}" ] || continue
	kernel_vars "${jker[i]}"; f=$TDIR/${jtest[i]}.sh
	if [ "$(header "$f" alone 0 2>/dev/null)" = 1 ]; then lone+=("$i"); continue; fi
	est=$(cut -d. -f1 "$LOGS/${jtest[i]}.secs" 2>/dev/null)
	[[ $est =~ ^[0-9]+$ ]] || est=$(header "$f" timeout "${NL_VM_TIMEOUT:-150}" 2>/dev/null)
	rest+=("${est:-0} $i")
done
if [ ${#rest[@]} -gt 0 ]; then
	while read -r _ i; do order+=("$i"); done < <(printf '%s\n' "${rest[@]}" | sort -s -k1,1nr)
fi
order+=("${lone[@]}")
echo "vm: ${#jtest[@]} tests on ${#kernels[@]} kernel(s), up to $jobs guests at once"
# The queue: the next guest is the first one in the start order whose
# kernel is ready (a kernel still being prepared holds back only its own).
# alone=1: a test that judges a policy's quality (home-node share, how far
# reclaim gets) by the guest's own clock must not share its host CPU:
# beside another guest, a single-threaded TCG guest's CPUs stall in turns,
# and a scheduler's bounded waits expire on the stalls. Such a guest runs
# pinned to the last host CPU (taskset), one at a time, while the other
# guests are pinned to the other CPUs ($RUN/pin, and those already running
# moved): the alone tests no longer leave a CPU idle. An alone=1 test on
# multi-threaded TCG (numa_cost=) has several host threads, so it still
# gets the whole host, last. With one job or one CPU (or
# NL_VM_ALONE_PIN=0), every alone=1 guest runs with no other guest.
ncpu=$(nproc 2> /dev/null || echo 1)
pin=0
[ "$jobs" -ge 2 ] && [ "$ncpu" -ge 2 ] && [ "${NL_VM_ALONE_PIN:-1}" = 1 ] && command -v taskset > /dev/null && command -v pgrep > /dev/null && pin=1
LONE_CPU=$((ncpu - 1)); REST_CPUS=0-$((ncpu - 2))
declare -a isalone=()	# 1: pinned alone, x: the whole host, else not alone
for i in "${order[@]}"; do
	kernel_vars "${jker[i]}"; f=$TDIR/${jtest[i]}.sh
	[ "$(header "$f" alone 0 2>/dev/null)" = 1 ] || continue
	isalone[i]=1
	c=${NL_VM_NUMA_COST:-$(header "$f" numa_cost '' 2>/dev/null)}; tcg=single
	case "$c" in ''|off) ;; *) tcg=multi;; esac
	[ "${NL_VM_TCG_THREAD:-$(header "$f" tcg "$tcg" 2>/dev/null)}" = single ] && [ $pin = 1 ] || isalone[i]=x
done
lone_pid=''
gate_open() { [ -z "${NL_VM_ALONE_WAIT:-}" ] || [ -e "$NL_VM_ALONE_WAIT" ]; }
lone_running() { [ -n "$lone_pid" ] && kill -0 "$lone_pid" 2> /dev/null; }
# pin_guests CPUS: move every thread of the running guests (qemu and its
# timeout, the children of each guest's subshell) to host CPUS.
pin_guests() {
	local s t q
	for s in $(jobs -rp); do
		case " ${prep_pids[*]} $lone_pid " in *" $s "*) continue;; esac
		for t in $(pgrep -P "$s"); do
			for q in "$t" $(pgrep -P "$t"); do taskset -a -p -c "$1" "$q" > /dev/null 2>&1; done
		done
	done
}
# unpin_if_done: no pinned alone=1 guest runs or is left to come (the one
# being started aside): the other guests may use every CPU again
unpin_if_done() {
	local q
	[ $pin = 1 ] && [ -e "$RUN/pin" ] && ! lone_running || return 0
	for q in "${queue[@]}"; do [ "${isalone[q]:-}" = 1 ] && return 0; done
	[ "${alone:-0}" = 1 ] && return 0
	rm -f "$RUN/pin"; pin_guests "0-$LONE_CPU"
}
queue=("${order[@]}")
while [ ${#queue[@]} -gt 0 ]; do
	# the next guest: the first in the start order whose kernel is ready
	# (a kernel still being prepared holds back only its own); with
	# pinning, a pinned alone=1 guest first once the gate is open, and a
	# whole-host one when nothing else is left
	pick='' nonx=0
	for q in "${!queue[@]}"; do
		i=${queue[q]}
		[ -n "${jdone[i]:-}" ] && { unset 'queue[q]'; continue; }
		[ "${isalone[i]:-}" = x ] || nonx=$((nonx + 1))
	done
	queue=("${queue[@]}")
	[ ${#queue[@]} -gt 0 ] || break
	if [ $pin = 1 ] && gate_open && ! lone_running; then
		for q in "${!queue[@]}"; do
			i=${queue[q]}
			[ "${isalone[i]:-}" = 1 ] && kernel_ready "${jker[i]}" && { pick=$q; break; }
		done
	fi
	if [ -z "$pick" ]; then
		for q in "${!queue[@]}"; do
			i=${queue[q]}
			case "${isalone[i]:-}" in
			1) [ $pin = 1 ] && continue;;
			x) [ $nonx = 0 ] || continue;;
			esac
			kernel_ready "${jker[i]}" && { pick=$q; break; }
		done
	fi
	if [ -z "$pick" ]; then
		sleep 1; flush; continue
	fi
	i=${queue[pick]}
	kernel_vars "${jker[i]}"
	alone=${isalone[i]:-0}
	limit=$jobs; [ "$alone" = 0 ] || [ $pin = 1 -a "$alone" = 1 ] || limit=1
	while [ "$(nguests)" -ge "$limit" ]; do wait -n; flush; done
	if [ "$alone" != 0 ]; then
		until gate_open; do sleep 1; flush; done
	fi
	# the slot freed while waiting is the pinned alone=1 guests' if one
	# waits for it (the one that ran may have ended): pick again
	if [ $pin = 1 ] && [ "$alone" != 1 ] && gate_open && ! lone_running; then
		left=0
		for q in "${queue[@]}"; do [ "${isalone[q]:-}" = 1 ] && kernel_ready "${jker[q]}" && left=1; done
		[ $left = 0 ] || continue
	fi
	unset 'queue[pick]'; queue=("${queue[@]}")
	unpin_if_done
	if [ $pin = 1 ] && [ "$alone" = 1 ]; then
		echo "$REST_CPUS" > "$RUN/pin"; pin_guests "$REST_CPUS"
		( guest_pin=$LONE_CPU; run_one "${jker[i]}" "${jtest[i]}" > "$RUN/$i" 2>&1; : > "$RUN/$i.done" ) &
		lone_pid=$!
	else
		( run_one "${jker[i]}" "${jtest[i]}" > "$RUN/$i" 2>&1; : > "$RUN/$i.done" ) &
	fi
	if [ "$alone" != 0 ] && [ "$limit" = 1 ]; then
		while [ "$(nguests)" -gt 0 ]; do wait -n; flush; done
	fi
	unpin_if_done
	flush
done
while [ -n "$(jobs -rp)" ]; do wait -n; flush; done
wait; flush
echo "vm: ${#jtest[@]} tests in $(secs_since "$t0")s"
[ $fails = 0 ]
