# R7 on the host kernel: 100,000 draws per weight vector through the BPF
# lottery (BPF_PROG_RUN of bpf/lottery.bpf.c lot_draw), each node's share
# within 5 sigma of its ticket share, chi-square p > 0.001; R2 and R9 through
# the same program; the limit-reclaim hook loads. See tests/live/lot_dist.c.
. "$(dirname "$0")/common.bash"
BIN=$B/tests/live/lot_dist
[ -x "$BIN" ] || fail "$BIN is not built: run 'make' first"
"$BIN" 100000 > "$TMP/out" 2>&1; rc=$?
cat "$TMP/out"
[ $rc = 77 ] && skip "$(tail -1 "$TMP/out")"
[ $rc = 0 ] || fail "$(grep -m1 FAIL "$TMP/out")"
exit 0
