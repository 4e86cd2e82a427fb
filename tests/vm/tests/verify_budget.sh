# Every BPF program of numalens and scx_cling loads on the guest kernel, and
# the verifier's cost of each (verified instructions, states, time) is
# printed for make verify (tests/bench/verify.sh). Programs that exist in
# variants for different kernels (NAME_v6 / NAME_v7: the loader picks the
# one this kernel's tracepoint takes) pass when one variant of each loads.
# On a kernel without sched_ext, scx_cling's struct_ops programs cannot
# load (their map's kernel type is missing): expected, and said. Nor can a
# program whose tracepoint this kernel lacks (libbpf: no kernel BTF type ID
# for it); numalens' loader leaves those out and names the missing figure,
# and so does this test.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=300 kernels=default,6.12
. /nl/lib.sh
V=/nl/bin/verify_stats
[ -x $V ] || nl_fail "verify_stats missing in the guest: build it (make vm-bins)"
ls /nl/bpf/*.bpf.o > /dev/null 2>&1 || nl_fail "no BPF objects in the guest (/nl/bpf): run make first"
$V /nl/bpf/*.bpf.o > /tmp/v.txt 2>&1 || nl_fail "verify_stats exited $?: $(tail -2 /tmp/v.txt)"
cat /tmp/v.txt
# object program ... status: "ok" or "does not load here: why"
bad=$(awk 'NR > 1 && $NF != "ok" { print $1 ":" $2 }' /tmp/v.txt)
missing="" nosx="" notp=""
for p in $bad; do
	case $p in
	*_v[0-9]*) base=${p%_v[0-9]*}
	           awk -v b="$base" 'NR > 1 && $NF == "ok" && index($1 ":" $2, b "_v") == 1 { f = 1 } END { exit !f }' /tmp/v.txt ||
	           missing="$missing $p";;
	*) if [ ! -d /sys/kernel/sched_ext ] && grep "^${p%%:*} *${p#*:} .*struct_ops.*no sched_ext" /tmp/v.txt > /dev/null; then
		nosx="$nosx ${p#*:}"
	   elif grep "^${p%%:*} *${p#*:} .*find kernel BTF type ID of '" /tmp/v.txt > /dev/null; then
		notp="$notp ${p#*:}($(grep "^${p%%:*} *${p#*:} " /tmp/v.txt | sed "s/.*type ID of '\([^']*\)'.*/\1/"))"
	   else missing="$missing $p"; fi;;
	esac
done
n=$(awk 'NR > 1 && $NF == "ok"' /tmp/v.txt | wc -l)
set -- $missing
[ -z "$missing" ] || nl_fail "programs that do not load on $(uname -r):$missing (${1#*:}: $(grep "^${1%%:*} *${1#*:} " /tmp/v.txt | sed 's/.*does not load here: //'))"
[ -z "$notp" ] || echo "verify_budget: tracepoints missing on $(uname -r), their programs left out (as numalens' loader does):$notp"
[ -z "$nosx" ] || echo "verify_budget: no sched_ext on $(uname -r): scx_cling's struct_ops programs do not load ($(echo $nosx | wc -w)), as expected"
echo "verify_budget: $n programs loaded on $(uname -r)"
