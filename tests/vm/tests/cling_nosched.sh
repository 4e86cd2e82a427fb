# scx_cling on a kernel without sched_ext (Debian's 6.12): it refuses with
# one line that says so and exit 4, before loading anything, for both of
# its modes (groups and --all); no pins are left behind.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150 kernels=6.12
. /nl/lib.sh
[ ! -e /sys/kernel/sched_ext ] || nl_fail "this kernel has sched_ext ($(uname -r)): the test needs one without it"
command -v scx_cling > /dev/null || nl_fail "scx_cling missing in the guest: build it (make)"
mkdir -p /sys/fs/cgroup/cling_n1
for args in "--group /cling_n1" "--all"; do
	scx_cling $args > /tmp/o.out 2> /tmp/o.err; rc=$?
	cat /tmp/o.err
	nl_expect "scx_cling $args: exit status" "$rc" -eq 4
	grep -q 'no sched_ext' /tmp/o.err || nl_fail "scx_cling $args: expected 'no sched_ext' in: $(cat /tmp/o.err)"
	nl_expect "scx_cling $args: lines on stderr" "$(wc -l < /tmp/o.err)" -eq 1
	[ ! -s /tmp/o.out ] || nl_fail "scx_cling $args printed on stdout: $(head -2 /tmp/o.out)"
	[ ! -e /sys/fs/bpf/scx_cling ] || nl_fail "scx_cling $args left pins: $(ls /sys/fs/bpf/scx_cling)"
done
echo "cling_nosched ok on $(uname -r)"
