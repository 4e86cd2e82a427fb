#!/usr/bin/env bash
# The scx_cling bench report's memory-cost model, on made-up bench output:
# run by tests/run-all.sh (unit layer). Prints TAP lines, one per rule:
# "ok - <rule>" or "not ok - <rule>" followed by what is wrong, "# ...";
# exit 1 on any.
#
# Rules:
#  model-per-page   with the SLIT 10/16/22 of two node pairs, each arm's
#                   cost per page walked = sum(pages x distance / 10) /
#                   pages, worked out by hand below
#  model-paired     the paired scx_cling - default cost per page, with sd
#  model-absent     output without matrix or distances says the model is
#                   not available instead of printing zeros
#  worse-line       scx_cling walking less than the default scheduler by
#                   more than one sd of the paired difference gets a WORSE line
set -u
cd "$(dirname "$0")/../.."
bad=0
source "$(dirname "$0")/check_lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Made-up runs; by hand, cost = pages x distance / 10 summed over the cells:
# default run 1: row 0 80 x 1 + 10 x 1.6 + 10 x 2.2 = 118, row 3 (node 3's
#   CPUs) 10 x 1.6 (node 2) + 90 = 106: 224 / 200 pages = 1.12 per page;
# default run 2: 118, row 3 10 x 2.2 (node 0) + 10 x 1.6 + 80 = 118: 236 / 200 = 1.18;
# scx_cling: 95 + 5 x 2.2 = 106 / 100 and 190 + 10 x 2.2 = 212 / 200, 1.06 each;
# so default 230 +- 6 in total, 1.15 +- 0.03 per page, scx_cling 159 +- 53,
# 1.06 +- 0, paired per page -0.06 and -0.12: -0.09 +- 0.03.
cat > "$tmp/out" <<'EOF'
BENCHDIST node0=10,16,22,22 node1=16,10,22,22 node2=22,22,10,16 node3=22,22,16,10
BENCH arm=default run=1 work_pages=200 home_share=0.8 remote_share=0.2 matrix=80,10,10,0/0,0,0,0/0,0,0,0/0,0,10,90
BENCH arm=cling run=1 work_pages=100 home_share=0.95 remote_share=0.05 matrix=95,0,5,0/0,0,0,0/0,0,0,0/0,0,0,0
BENCH arm=default run=2 work_pages=200 home_share=0.8 remote_share=0.2 matrix=80,10,10,0/0,0,0,0/0,0,0,0/10,0,10,80
BENCH arm=cling run=2 work_pages=120 home_share=0.95 remote_share=0.05 matrix=190,0,10,0/0,0,0,0/0,0,0,0/0,0,0,0
EOF
rep=$(bash tests/bench/cling_report.sh "$tmp/out" 2>&1)
p=""
grep -qE '^default scheduler +2 +230 \+- +6 +1\.1500 \+- 0\.0300$' <<< "$rep" ||
	p+="default: expected total 230 +- 6, 1.1500 +- 0.0300 per page"$'\n'
grep -qE '^scx_cling --all +2 +159 \+- +53 +1\.0600 \+- 0\.0000$' <<< "$rep" ||
	p+="scx_cling: expected total 159 +- 53, 1.0600 +- 0.0000 per page"$'\n'
[ -z "$p" ] || p+="$(grep -A4 '^MODEL memory' <<< "$rep")"
report model-per-page "${p%$'\n'}"

p=""
grep -q '^MODEL paired (scx_cling - default, 2 rounds): cost per page walked -0.0900 +- 0.0300 ' <<< "$rep" ||
	p="expected -0.0900 +- 0.0300, saw: $(grep '^MODEL paired' <<< "$rep")"
report model-paired "$p"

grep -v BENCHDIST "$tmp/out" | sed 's/ matrix=.*//' > "$tmp/old"
p=""
grep -q 'not available' <<< "$(bash tests/bench/cling_report.sh "$tmp/old" 2>&1)" ||
	p="no 'not available' line for output without matrix"
report model-absent "$p"

p=""
grep -q '^WORSE: scx_cling did less work than the default scheduler' <<< "$rep" ||
	p="no WORSE line though scx_cling walked 90 +- 10 pages less"
report worse-line "$p"
exit $bad
