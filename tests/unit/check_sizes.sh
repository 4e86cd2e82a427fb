#!/usr/bin/env bash
# Sizes and words of the sources a maintainer reads (tools/, sched_ext/,
# bpf/; tests and generated code aside): run by tests/run-all.sh (unit
# layer). Prints TAP lines, one per rule: "ok - <rule>" or "not ok -
# <rule>" followed by the offenders, "# <file>: ..."; exit 1 on any.
#
# Rules:
#  file-size      no source file (.c, .h) over 800 lines: past that a file
#                 holds more than one concern, and a reader cannot keep it
#  function-size  no function over 80 lines, counted from the first line of
#                 its signature to its closing brace. The measure follows
#                 this tree's style (kernel style: a function's opening and
#                 closing braces alone at column 0, its signature starting
#                 at column 0); a BPF program's SEC("...") line is not
#                 counted, and the name of a BPF_PROG-style macro's program
#                 is its first argument
#  exceptions-file  every line of the exceptions list names a rule below
#                 and gives a reason
#  no-tags        no design-note tag (R17, LOC-1, CLG-4, ...), spec file or
#                 issue number anywhere in those folders, comments
#                 included: the notes are not in the repository, so a
#                 comment says the rule in words or links a docs/ section
#
# tests/unit/size_exceptions.txt lists what may stay over for now, one
# line each: RULE WHERE REASON, WHERE a file (file-size, no-tags) or
# file:function (function-size); a reason is required. An entry that no
# longer matches anything fails (exceptions-current), so the list never
# outlives what it excuses.
set -u
cd "$(dirname "$0")/../.."
EXC=tests/unit/size_exceptions.txt
MAX_FILE=800
MAX_FN=80
tag='(\b(R[0-9]{1,2}|(LOC|CLG|EXE|GRP|HIE|TOOL)-[0-9]+)\b|seed_[a-z]+\.md|spec/|§|\b[Ii]ssue [0-9]+)'

srcs=$(git ls-files -co --exclude-standard 'tools/*.[ch]' 'sched_ext/*.[ch]' 'bpf/*.[ch]' 2>/dev/null)
[ -n "$srcs" ] || srcs=$(find tools sched_ext bpf -name '*.[ch]')
all=$(git ls-files -co --exclude-standard tools sched_ext bpf 2>/dev/null)
[ -n "$all" ] || all=$(find tools sched_ext bpf -type f)

declare -A exc=() used=()
bad_exc=()
if [ -f "$EXC" ]; then
	while IFS= read -r line; do
		case $line in ''|'#'*) continue;; esac
		read -r rule where reason <<< "$line"
		case $rule in file-size|function-size|no-tags) ;; *) bad_exc+=("$EXC: unknown rule '$rule'"); continue;; esac
		[ -n "$reason" ] || { bad_exc+=("$EXC: '$rule $where' has no reason"); continue; }
		exc["$rule $where"]=1
	done < "$EXC"
fi

source "$(dirname "$0")/check_lib.bash"
# excepted RULE WHERE: true (and marked used) when the exceptions list it
excepted() {
	[ -n "${exc["$1 $2"]:-}" ] || return 1
	used["$1 $2"]=1
}

report_each exceptions-file "${bad_exc[@]}"

big=()
for f in $srcs; do
	[ -f "$f" ] || continue		# deleted but not yet committed
	n=$(wc -l < "$f")
	[ "$n" -le $MAX_FILE ] && continue
	excepted file-size "$f" || big+=("$f: $n lines (at most $MAX_FILE)")
done
report_each file-size "${big[@]}"

# FILE:START:LINES:NAME for every function body of the files given.
# A body opens with "{" at column 0 after a signature that starts at
# column 0 (lines up to the previous blank line, comment, preprocessor
# line, "}" or ";"), or with a column-0 signature line ending in ") {";
# it closes with the next "}" at column 0. An initializer ("... = {")
# is not a function.
measure() {
	awk '
	FNR == 1 { sig = 0; inb = 0; isinit = 0 }
	function open_body(l) { inb = 1; start = sig; name = signame }
	{
		line = $0
		if (inb) {
			if (line ~ /^}/) {
				n = FNR - start + 1
				nm = ""
				if (match(name, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
					nm = substr(name, RSTART, RLENGTH - 1); sub(/[ \t]+$/, "", nm)
				}
				# BPF_PROG(handle_x, ...), BPF_STRUCT_OPS(cling_x, ...):
				# the program is the first argument
				if (nm ~ /^[A-Z][A-Z0-9_]*$/ && match(name, /\([ \t]*[A-Za-z_][A-Za-z0-9_]*/)) {
					nm = substr(name, RSTART + 1, RLENGTH - 1); sub(/^[ \t]+/, "", nm)
				}
				print FILENAME ":" start ":" n ":" nm
				inb = 0; sig = 0
			}
			next
		}
		if (line ~ /^\{/) {
			if (sig && !isinit)
				open_body()
			sig = 0
			next
		}
		if (line ~ /^[ \t]*$/ || line ~ /;[ \t]*$/ || line ~ /^}/ || line ~ /\*\/[ \t]*$/ ||
		    line ~ /^#/ || line ~ /^[ \t]*\/[\/*]/ || line ~ /^[ \t]*\*/) {
			sig = 0
			next
		}
		if (!sig) {
			if (line !~ /^[A-Za-z_]/ || line ~ /^SEC\(/)
				next
			sig = FNR; signame = line; isinit = 0
		}
		if (signame !~ /\(/ && line ~ /\(/)
			signame = line
		if (line ~ /=[ \t]*\{?[ \t]*$/)
			isinit = 1
		if (line ~ /^[A-Za-z_]/ && line ~ /\)[ \t]*\{[ \t]*$/ && !isinit) {
			open_body(); sig = 0
		}
	}' "$@"
}

long=()
while IFS=: read -r f start n nm; do
	[ "$n" -le $MAX_FN ] && continue
	excepted function-size "$f:$nm" || long+=("$f:$start: $nm is $n lines (at most $MAX_FN)")
done < <(files=(); for f in $srcs; do [ -f "$f" ] && files+=("$f"); done; measure "${files[@]}")
report_each function-size "${long[@]}"

tags=()
while IFS= read -r hit; do
	f=${hit%%:*}
	excepted no-tags "$f" && continue
	tags+=("$(cut -c1-160 <<< "$hit")")
done < <(for f in $all; do [ -f "$f" ] && echo "$f"; done | xargs -r grep -nHE "$tag")
report_each no-tags "${tags[@]}"

stale=()
for k in "${!exc[@]}"; do
	[ -n "${used[$k]:-}" ] || stale+=("$EXC lists '$k', which is within the rule now: drop the line")
done
report_each exceptions-current "${stale[@]}"
exit $bad
