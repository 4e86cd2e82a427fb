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
#                    start heading, and stays short (<= 250 lines)
#  doc-links         every relative link in README.md, docs/*.md and
#                    docs/dev/*.md exists
#  no-spec-tags      README, docs/ and man pages cite no design-note tags or
#                    issue numbers
#  no-lab-notes      what a user reads (README, docs/*.md but not docs/dev/,
#                    man pages, every command's --help, the C string
#                    literals of tools/ and sched_ext/, metric HELP text among
#                    them) carries no lab-note words: seed numbers, patch
#                    years, bench or test names, commit hashes, "(this
#                    round)". Lab notes live in docs/dev/, linked from the
#                    user page; a test's path in a command line is fine
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
bad=0
source "$(dirname "$0")/check_lib.bash"

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
[ "$n" -le 250 ] || p+="README.md has $n lines: keep it short, move detail to docs/"$'\n'
report readme-commands "${p%$'\n'}"

p=""
for f in README.md docs/*.md docs/dev/*.md; do
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

# Lab-note words, as what a user reads should say what was measured in plain
# words. A commit hash is 7-40 hex digits with a letter and a digit in it,
# in backticks or after "commit".
lab='[Ss]eed [0-9]|seed 00|[Tt]he seed\b|\b20(07|11)( [A-Za-z_-]+){0,3} patch|\br[0-9]+_bench|\blotbug|\(this round\)|this round.s\b'
hash='(`|\bcommits? )(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b'
# Test names: the live and VM tests' names with an underscore in them, but
# for those that are also a JSON key or a kernel feature's name. A name as
# part of a path (tests/live/x.sh) or on a command line that runs the VM
# tests (tests/vm/run.sh NAME) is fine.
also_words='alloc_class|alloc_latency|alloc_stacks|page_lifetime|numa_balancing|sched_ext|reclaim_agent|self_cost'
tnames=$(ls tests/vm/tests/*.sh tests/live/*.sh 2>/dev/null | xargs -n1 basename | sed 's/\.sh$//' |
	grep _ | grep -vxE "$also_words" | sort -u | paste -sd'|')
tname="(^|[^-/A-Za-z0-9_.])($tnames)([^-/A-Za-z0-9_.]|\.[^a-z]|\.?\$)"
user_files=$(ls README.md docs/*.md man/*.8 2>/dev/null)
p=$({ grep -nHE "$lab" $user_files
	grep -nHP "$hash" $user_files
	grep -nHE "$tname" $user_files | grep -v 'run\.sh '
	git ls-files -co --exclude-standard 'tools/*.c' 'tools/*.h' 'sched_ext/*.c' 2>/dev/null |
		xargs -r grep -nHE "\"[^\"]*($lab)[^\"]*\"" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)'
	if [ -x "$B/numalens" ] && [ -x "$B/scx_cling" ]; then
		for c in "" top export vmscan reclaim; do
			"$B/numalens" $c --help 2>/dev/null | grep -nE "$lab|$tname" | sed "s|^|numalens $c --help:|"
		done
		"$B/scx_cling" --help 2>/dev/null | grep -nE "$lab|$tname" | sed 's|^|scx_cling --help:|'
	fi; } | cut -c1-200)
report no-lab-notes "$p"
exit $bad
