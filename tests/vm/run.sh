#!/usr/bin/env bash
# Run the VM tests: each tests/vm/tests/NAME.sh boots a fresh 4-node qemu
# (TCG) guest from the Debian sched_ext kernel and our initramfs, runs in it,
# and its result comes back through the second serial port.
#   usage: tests/vm/run.sh [NAME...]        (default: every test)
# Environment: B (build dir, default build), CACHE (default cache),
#   NL_VM_KEEP=1 keep the guest console in $B/test-logs/vm/NAME.console
#   even on success (it is always kept; NL_VM_KEEP=1 also prints it),
#   NL_VM_TIMEOUT (default per-test timeout, seconds; default 150),
#   NL_VM_TESTS_DIR (where the tests are; default tests/vm/tests),
#   NL_VM_NUMALENS (the numalens binary for the guest; default $B/numalens).
# Output: one line per test, "PASS vm/NAME (S s)" or "FAIL vm/NAME: why";
# other lines never start with PASS/FAIL. Exit 0 if all passed, else 1.
#
# A test declares its guest in comment lines "# vm: key=value ...":
#   nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150 modules=zram
#   disk=SIZE (e.g. 512M): an empty virtio disk /dev/vda of SIZE (a sparse
#   file $LOGS/NAME.disk, removed afterwards), for real file-backed I/O
# Unequal topologies (these override nodes/cpus_per_node/mem_per_node):
#   cpus=4,4 or cpus=2,0,0   CPUs per node (0: a memory-only node)
#   mem=512M,64M,64M         memory per node (default mem_per_node each)
#   dist=10,20,30/20,10,25/30,25,10   the SLIT, one row per node (qemu -numa dist)
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}; CACHE=${CACHE:-cache}
VM=$B/vm; LOGS=$B/test-logs/vm
export NL_VM_TESTS_DIR=${NL_VM_TESTS_DIR:-tests/vm/tests}; TDIR=$NL_VM_TESTS_DIR
mkdir -p "$VM" "$LOGS"
fails=0

# fail NAME REASON: print the FAIL line for vm/NAME.
fail() { printf 'FAIL vm/%s: %s\n' "$1" "$2"; fails=$((fails + 1)); }

# secs_since START_NS: print seconds elapsed since START_NS, one decimal.
secs_since() {
	local d=$(( ($(date +%s%N) - $1) / 100000000 ))
	printf '%d.%d' $((d / 10)) $((d % 10))
}

tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
	for t in "$TDIR"/*.sh; do tests+=("$(basename "$t" .sh)"); done
fi

# --- guest programs, kernel, initramfs -------------------------------------
t0=$(date +%s%N)
if ! command -v qemu-system-x86_64 > /dev/null; then
	for t in "${tests[@]}"; do fail "$t" "qemu-system-x86_64 is not installed: run 'make deps' as root"; done
	exit 1
fi
if ! make -s B="$B" CACHE="$CACHE" vm-bins > "$LOGS/build.log" 2>&1; then
	echo "vm: building the guest programs failed (tests that need them will fail); $LOGS/build.log:"
	tail -5 "$LOGS/build.log" | sed 's/^/  | /'
fi
if ! bash tests/vm/kernel.sh "$CACHE" "$VM/kernel" 2> "$LOGS/kernel.log"; then
	sed 's/^/  | /' "$LOGS/kernel.log"
	fail kernel "$(grep 'error:' "$LOGS/kernel.log" | tail -1 | sed 's/^kernel: error: //')"
	for t in "${tests[@]}"; do fail "$t" "no guest kernel (see vm/kernel)"; done
	exit 1
fi
sed 's/^/vm: /' "$LOGS/kernel.log"
bins=("${NL_VM_NUMALENS:-$B/numalens}" "$B/tests/nlwork" "$VM/nljq" "$VM/scx_smoke" "$B/tests/live/lot_dist" "$B/scx_cling")
if ! bash tests/vm/initramfs.sh "$VM/initrd.gz" "$VM/kernel" "${bins[@]}" 2> "$LOGS/initramfs.log"; then
	for t in "${tests[@]}"; do fail "$t" "initramfs: $(tail -1 "$LOGS/initramfs.log")"; done
	exit 1
fi
sed 's/^/vm: /' "$LOGS/initramfs.log"
echo "vm: kernel $(cat "$VM/kernel/release"), initramfs $(( $(stat -c %s "$VM/initrd.gz") / 1024 )) KiB, prepared in $(secs_since "$t0")s"

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

# numa_topology CPUS MEMS DIST DEFMEM: set numa (qemu args), ncpus and
# memtot (MiB) of the caller from the cpus=/mem=/dist= headers; on bad input
# return 1 with numa_err set.
numa_topology() {
	local -a c m r
	local n k cpu0=0 mm
	IFS=, read -ra c <<< "$1"; IFS=, read -ra m <<< "$2"
	numa=(); ncpus=0; memtot=0
	for ((n = 0; n < ${#c[@]}; n++)); do
		[[ ${c[n]} =~ ^[0-9]+$ ]] || { numa_err="cpus: '${c[n]}' is not a count"; return 1; }
		mm=$(mib "${m[n]:-${4}M}")
		[[ $mm =~ ^[0-9]+$ && $mm -gt 0 ]] || { numa_err="mem: '${m[n]}' (qemu needs memory on every node)"; return 1; }
		numa+=(-object "memory-backend-ram,id=m$n,size=${mm}M")
		if [ "${c[n]}" -gt 0 ]; then
			numa+=(-numa "node,nodeid=$n,cpus=$cpu0-$((cpu0 + c[n] - 1)),memdev=m$n")
		else
			numa+=(-numa "node,nodeid=$n,memdev=m$n")
		fi
		cpu0=$((cpu0 + c[n])); memtot=$((memtot + mm))
	done
	ncpus=$cpu0
	[ "$ncpus" -gt 0 ] || { numa_err="cpus: no CPU at all"; return 1; }
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

# run_one NAME: boot a guest for tests/vm/tests/NAME.sh and report.
run_one() {
	local name=$1 f=$TDIR/$1.sh
	[ -f "$f" ] || { fail "$name" "no such test $f"; return; }
	local nodes cpn mem tmo mods
	nodes=$(header "$f" nodes 4); cpn=$(header "$f" cpus_per_node 1)
	mem=$(mib "$(header "$f" mem_per_node 512M)")
	tmo=$(header "$f" timeout "${NL_VM_TIMEOUT:-150}"); mods=$(header "$f" modules '')
	local con=$LOGS/$name.console res=$LOGS/$name.out
	rm -f "$con" "$res"
	local drive=() dsize; dsize=$(header "$f" disk '')
	if [ -n "$dsize" ]; then
		rm -f "$LOGS/$name.disk"; truncate -s "$dsize" "$LOGS/$name.disk"
		drive=(-drive "file=$LOGS/$name.disk,if=virtio,format=raw,cache=unsafe")
	fi
	local numa=() n cpu0
	for ((n = 0; n < nodes; n++)); do
		cpu0=$((n * cpn))
		numa+=(-object "memory-backend-ram,id=m$n,size=${mem}M"
		       -numa "node,nodeid=$n,cpus=$cpu0-$((cpu0 + cpn - 1)),memdev=m$n")
	done
	local ncpus=$((nodes * cpn)) memtot=$((nodes * mem))
	if [ -n "$(header "$f" cpus '')" ]; then
		numa_topology "$(header "$f" cpus '')" "$(header "$f" mem '')" "$(header "$f" dist '')" "$mem" || {
			fail "$name" "bad '# vm:' cpus/mem/dist header: $numa_err"; return; }
	fi
	local start rc
	start=$(date +%s%N)
	timeout -k 5 "$tmo" qemu-system-x86_64 -accel "tcg,thread=${NL_VM_TCG_THREAD:-single}" -m "$memtot" \
		-smp "$ncpus" "${numa[@]}" "${drive[@]}" \
		-kernel "$VM/kernel/vmlinuz" -initrd "$VM/initrd.gz" \
		-append "console=ttyS0 quiet panic=-1 nl.test=$name nl.modules=$mods" \
		-display none -no-reboot -monitor none \
		-serial "file:$con" -serial "file:$res" < /dev/null > "$LOGS/$name.qemu" 2>&1
	rc=$?
	rm -f "$LOGS/$name.disk"
	local secs; secs=$(secs_since "$start")
	[ -f "$res" ] && sed -i 's/\r$//' "$res"
	local grc; grc=$(sed -n 's/^NLVM-RC \([0-9]*\)$/\1/p' "$res" 2>/dev/null | tail -1)
	if [ "${NL_VM_KEEP:-}" = 1 ]; then sed 's/^/  console| /' "$con"; fi
	if [ "$grc" = 0 ]; then
		printf 'PASS vm/%s (%ss)\n' "$name" "$secs"
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
	fi
}

for t in "${tests[@]}"; do run_one "$t"; done
echo "vm: ${#tests[@]} tests in $(secs_since "$t0")s"
[ $fails = 0 ]
