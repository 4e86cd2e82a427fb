# The BPF lottery on the guest kernel (7.3, memcg in the limit-reclaim
# tracepoint): both programs load, and 100,000 draws by BPF_PROG_RUN per
# weight vector fit the ticket shares (5 sigma per node, chi-square
# p > 0.001; spec/seed_reclaim.md R7), R2 and R9 hold.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=150 modules=
. /nl/lib.sh
[ -x /nl/bin/lot_dist ] || nl_fail "lot_dist missing in the guest (make builds build/tests/live/lot_dist)"
/nl/bin/lot_dist 100000 > /tmp/lot.out 2>&1; rc=$?
cat /tmp/lot.out
grep -q 'limit hook (mm_vmscan_memcg_reclaim_begin): attached' /tmp/lot.out ||
	nl_fail "the limit-reclaim hook did not attach: $(head -1 /tmp/lot.out)"
[ $rc = 0 ] || nl_fail "lot_dist exit $rc: $(grep -m1 -i 'fail\|skip' /tmp/lot.out)"
echo "reclaim_lottery ok"
