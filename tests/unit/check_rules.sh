#!/usr/bin/env bash
# The Prometheus rules shipped in packaging/prometheus-rules.yml, checked
# with promtool (build/test-tools/bin, unpacked by scripts/test-tools.sh):
# run by tests/run-all.sh (unit layer). Prints TAP lines, one per rule:
# "ok - <rule>" or "not ok - <rule>" followed by what is wrong, "# ...";
# exit 1 on any.
#
# Rules:
#  rules-valid        promtool check rules accepts the file (syntax, PromQL,
#                     annotation templates)
#  config-loads-rules promtool check config accepts packaging/prometheus.yml,
#                     which loads the rules file from beside it
#  rules-tests        promtool test rules tests/prom/rules_test.yml: every
#                     alert fires on made-up series that should fire it and
#                     stays silent on others; the recorded series have the
#                     values worked out by hand there. The alerts'
#                     descriptions are left out of the copy under test (free
#                     wording); summaries, labels and values are compared
#  alerts-annotated   every alert has a summary and a description, a
#                     severity label and a "for" duration
#  annotations-plain  the rules file names no issue number or design-note tag
#                     (its text reaches whoever is paged)
# The metric names the rules use are checked against the renderer by unit
# test test_dashboard and against a real scrape by live export_dashboard.sh.
set -u
cd "$(dirname "$0")/../.."
R=packaging/prometheus-rules.yml
T=tests/prom/rules_test.yml
export PATH="$PWD/build/test-tools/bin:$PATH"
bad=0
source "$(dirname "$0")/check_lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v promtool > /dev/null; then
	for r in rules-valid config-loads-rules rules-tests; do
		report $r "promtool is not found ('sudo make test-deps' unpacks it into build/test-tools)"
	done
else
	out=$(promtool check rules "$R" 2>&1) && out=""
	report rules-valid "$out"
	out=$(promtool check config packaging/prometheus.yml 2>&1) && out=""
	report config-loads-rules "$out"
	# the copy under test: every "description: >" block cut out
	awk '/^ *description: *>/ { match($0, /^ */); ind = RLENGTH; skip = 1; next }
	     skip { match($0, /^ */); if ($0 ~ /^ *$/ || RLENGTH > ind) next; skip = 0 }
	     { print }' "$R" > "$tmp/prometheus-rules.yml"
	cp "$T" "$tmp/"
	out=$(cd "$tmp" && promtool test rules "$(basename "$T")" 2>&1) && out=""
	report rules-tests "$out"
fi

# per alert (from "- alert:" to the next "- alert:" or "- record:"): which
# of the four parts it lacks
p=$(awk '
function done_alert() {
	if (name == "") return
	if (!s) print name ": no summary annotation"
	if (!d) print name ": no description annotation"
	if (!sev) print name ": no severity label"
	if (!f) print name ": no for duration"
	name = ""
}
/^ *- (alert|record):/ { done_alert() }
/^ *- alert:/ { name = $3; s = d = sev = f = 0 }
/^ *summary:/ { s = 1 }
/^ *description:/ { d = 1 }
/^ *severity:/ { sev = 1 }
/^ *for:/ { f = 1 }
END { done_alert() }' "$R")
n=$(grep -c '^ *- alert:' "$R")
[ "$n" -ge 8 ] || p+="${p:+$'\n'}only $n alerts (expected the 8 docs/export.md describes)"
report alerts-annotated "$p"

tag='(\b(R[0-9]{1,2}|(LOC|CLG|EXE|GRP|HIE|TOOL)-[0-9]+)\b|seed_[a-z]+\.md|spec/|§|\b[Ii]ssue [0-9]+|#[0-9]+)'
report annotations-plain "$(grep -nE "$tag" "$R" packaging/prometheus.yml)"
exit $bad
