# Sourced by the tree's rule checks (tests/unit/check_*.sh): one TAP line
# per rule, "ok - RULE" or "not ok - RULE" followed by what is wrong, one
# "# ..." line each; any "not ok" sets bad=1, the script's exit status.
bad=0

# report RULE PROBLEMS: PROBLEMS newline-separated, empty when the rule holds
report() {
	if [ -z "$2" ]; then echo "ok - $1"
	else echo "not ok - $1"; sed 's/^/# /' <<< "$2"; bad=1; fi
}

# report_each RULE [PROBLEM...]: one argument per problem, none when it holds
report_each() {
	local rule=$1; shift
	if [ $# -eq 0 ]; then echo "ok - $rule"; return; fi
	bad=1; echo "not ok - $rule"
	printf '# %s\n' "$@"
}
