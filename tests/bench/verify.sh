#!/usr/bin/env bash
# make verify: the verifier's budget of every BPF program (numalens' objects
# and scx_cling's), so that a change pushing a program toward the limit
# shows up: verified instructions (the kernel stops at 1,000,000), states
# and verification time, per program, loaded alone with the verifier's
# statistics (tests/bench/verify_stats.c).
#  1. on the host kernel (needs root);
#  2. in the VM guest (the sched_ext kernel of tests/vm), unless NL_VERIFY_VM=0:
#     the vm test verify_budget runs the same tool there.
# A report, never pass/fail here (the vm test fails only when a program
# cannot load). Output: stdout and build/bench/verify.txt.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}; CACHE=${CACHE:-cache}
OUT=$B/bench; mkdir -p "$OUT"
objs=("$B"/bpf/*.bpf.o "$B/sched_ext/scx_cling.bpf.o")
{
echo "BPF verifier budget  $(date -u +%FT%TZ)"
echo
echo "host kernel $(uname -r):"
if [ "$(id -u)" = 0 ]; then
	"$B/tests/verify_stats" "${objs[@]}"
else
	echo "  (skipped: loading BPF programs needs root)"
fi
if [ "${NL_VERIFY_VM:-1}" != 0 ]; then
	echo
	if CACHE=$CACHE B=$B bash tests/vm/run.sh verify_budget > "$OUT/verify_vm.log" 2>&1; then
		k=$(sed -n 's/^nlvm: running verify_budget on \([^,]*\),.*/\1/p' "$B/test-logs/vm/verify_budget.out")
		echo "VM guest kernel ${k:-?}:"
		sed -n '/^object /,/^verify_budget: /p' "$B/test-logs/vm/verify_budget.out" | grep -v '^verify_budget: '
	else
		echo "VM guest: no figures ($(grep -m1 '^FAIL' "$OUT/verify_vm.log" || tail -1 "$OUT/verify_vm.log"))"
	fi
fi
} | tee "$OUT/verify.txt"
