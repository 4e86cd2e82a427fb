#!/usr/bin/env bash
# The user documentation, checked on the tree: run by tests/run-all.sh
# (unit layer). Prints TAP lines, one per rule: "ok - <rule>" or
# "not ok - <rule>" followed by what is wrong, "# ..."; exit 1 on any.
#
# Rules:
#  man-render        every man/*.8 formats with groff without a warning
#  man-options       every option a command's --help lists is in its man page
#  completion-syntax packaging/bash-completion/numalens parses (bash -n)
#  readme-commands   README keeps "make run" and "make test" under its quick
#                    start heading, and stays short (<= 220 lines)
#  doc-links         every relative link in README.md and docs/*.md exists
#  no-spec-tags      README, docs/ and man pages cite no design-note tags or
#                    issue numbers
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
bad=0
report() { # report RULE PROBLEMS(newline-separated, empty = ok)
	if [ -z "$2" ]; then echo "ok - $1"
	else echo "not ok - $1"; sed 's/^/# /' <<< "$2"; bad=1; fi
}

p=""
for m in man/*.8; do
	w=$(groff -man -Tutf8 -ww -z "$m" 2>&1) || w="groff failed on $m"
	[ -z "$w" ] || p+="$m: $w"$'\n'
done
report man-render "${p%$'\n'}"

# long options of a --help text (argp layout), without argp's own two
opts_of() {
	"$@" --help 2>/dev/null | sed -nE 's/^ +(-[^ ,]+, )?(--[a-z][-a-z0-9]*).*/\2/p' |
		sort -u | grep -vx -- '--help\|--usage'
}
p=""
if [ ! -x "$B/numalens" ] || [ ! -x "$B/scx_cling" ]; then
	p="$B/numalens or $B/scx_cling is not built: run 'make' first"
else
	for c in top export vmscan reclaim scx_cling; do
		if [ $c = scx_cling ]; then page=man/scx_cling.8; cmd=("$B/scx_cling")
		else page=man/numalens-$c.8; cmd=("$B/numalens" "$c"); fi
		[ -f "$page" ] || { p+="$page is missing"$'\n'; continue; }
		# roff writes a dash in an option as "\-"
		text=$(sed 's/\\-/-/g' "$page")
		for o in $(opts_of "${cmd[@]}"); do
			grep -qF -- "$o" <<< "$text" || p+="$page does not describe $o (in '${cmd[*]} --help')"$'\n'
		done
	done
fi
report man-options "${p%$'\n'}"

report completion-syntax "$(bash -n packaging/bash-completion/numalens 2>&1)"

p=""
sec=$(awk '/^## /{s=($0 ~ /[Qq]uick start/)} s' README.md)
for c in 'make run' 'make test'; do
	grep -q "^$c " <<< "$sec" || p+="README's quick start section lacks a '$c' line"$'\n'
done
n=$(wc -l < README.md)
[ "$n" -le 220 ] || p+="README.md has $n lines: keep it short, move detail to docs/"$'\n'
report readme-commands "${p%$'\n'}"

p=""
for f in README.md docs/*.md; do
	dir=$(dirname "$f")
	while IFS= read -r link; do
		target=${link%%#*}
		[ -z "$target" ] && continue
		[ -e "$dir/$target" ] || p+="$f links to $link, which does not exist"$'\n'
	done < <(grep -oE '\]\([^)]+\)' "$f" | sed 's/^](//; s/)$//' | grep -vE '^[a-z]+:')
done
report doc-links "${p%$'\n'}"

p=$(grep -nE '\b(R[0-9]{1,2}|LOC-[0-9]+|S0:L[0-9]+)\b|[Ii]ssue #?[0-9]+|\(#[0-9]+\)' README.md docs/*.md man/*.8 2>/dev/null)
report no-spec-tags "$p"
exit $bad
