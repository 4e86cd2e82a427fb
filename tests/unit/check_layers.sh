#!/usr/bin/env bash
# The rules of the source tree (docs/architecture.md: the include rules of
# the layers; user-visible text free of design-note tags), checked on
# the sources: run by tests/run-all.sh (unit layer) and `make check-layers`.
# Prints TAP lines, one per rule: "ok - <rule>" or "not ok - <rule>"
# followed by the offending includes, "# <file>: ..."; exit 1 on any.
#
# Rules:
#  no-parent-includes  no #include "../...": each layer is found through -I
#  layer-direction     a file includes only its own layer and the layers it
#                      may use (table below); a view never reaches past the
#                      model to the source layer
#  libbpf-confined     <bpf/...> (libbpf) only in the source layer, the BPF
#                      programs, scx_cling's loader and the bench tools
#  unique-headers      no two headers share a name (an include names one file)
#  no-include-cycles   no two modules include each other, even within a layer
#  no-tags-in-user-text  what users read (C string literals in tools/ and
#                      sched_ext/, README.md, docs/, dashboards/) names no
#                      design-note tag (R17, LOC-1, CLG-4, ...), spec file
#                      or issue number: the notes are not in the repository
#  own-header          every module of a layer folder (tools/<layer>/x.c) has
#                      its header x.h and includes it, so what it exports is
#                      declared in one place and checked against it
#  state-files-in-source  only the source layer creates, replaces or removes
#                      files (mkdir, rename, unlink: the agents' published
#                      state, DAMON records under /run/numalens); the
#                      reclaim layer renders the text and calls it
#  prefix-names-file   every exported (non-static) function of tools/
#                      (main aside; scx_cling keeps the scx names) is named
#                      nl_<P> or nl_<P>_..., where <P> is one of: the file's
#                      basename (agent_files.c: nl_agent_files_*), a tail of
#                      it from an underscore on (reclaim_wm.c: nl_wm_*), its
#                      folder (tools/reclaim/: nl_reclaim_*), or the one
#                      abbreviation tests/unit/prefix_abbrev.txt gives the
#                      file (reclaim_backend.c: nl_rb_*). So a name says
#                      where it lives. tests/unit/prefix_exceptions.txt
#                      lists "FILE WORD" pairs (nl_WORD_...) still waiting
#                      for their rename
set -u
cd "$(dirname "$0")/../.."

# Which layers each layer may include (its own included). "shared" is
# bpf/include, "skel" the generated BPF skeletons, "bpf" the BPF programs'
# private headers (bpf/*.h), "cling" scx_cling's own files.
declare -A may=(
	[shared]="shared vmlinux"
	[bpf]="shared bpf vmlinux"
	[core]="shared core"
	[source]="shared core source skel"
	[model]="shared core source model"
	[view]="shared core model view"
	[prom]="shared core model view prom"
	[reclaim]="shared core source model reclaim"
	[cmd]="shared core source model view prom reclaim cmd"
	[cling]="shared core source cling skel vmlinux"
	[test]="shared core source model view prom reclaim cmd cling test"
	[bench]="shared core source model view prom reclaim cmd cling test bench vmlinux"
)
# bench tools load BPF objects themselves (the verifier budget), so they may
# use libbpf; the tests proper go through the source layer.
libbpf_ok=" source bpf cling bench "

# layer_of PATH: set LAYER to the layer name of PATH (a variable, not
# output: a $(...) per include line forked thousands of times, a minute of
# the unit layer on the loaded CI machine)
layer_of() {
	LAYER=''
	case $1 in
	bpf/include/*) LAYER=shared;;
	bpf/*) LAYER=bpf;;
	tools/*/*) local d=${1#tools/}; LAYER=${d%%/*};;
	tools/*) LAYER=cmd;;
	sched_ext/scx_cling.h) LAYER=shared;;	# the scheduler's interface: its readers include it
	sched_ext/*) LAYER=cling;;
	tests/bench/*) LAYER=bench;;
	tests/*) LAYER=test;;
	esac
}

srcs=$(git ls-files -co --exclude-standard 'bpf/*.[ch]' 'tools/*.[ch]' 'sched_ext/*.[ch]' 'tests/unit/*.[ch]' \
	'tests/live/*.c' 'tests/bench/*.c' 2>/dev/null)
[ -n "$srcs" ] || srcs=$(find bpf tools sched_ext tests/unit tests/live tests/bench -name '*.[ch]')

declare -A where=()
dups=()
for f in $srcs; do
	case $f in *.h) [ -f "$f" ] || continue;; *) continue;; esac
	b=${f##*/}
	[ -n "${where[$b]:-}" ] && dups+=("$b: ${where[$b]} and $f")
	where[$b]=$f
done

parent=(); upward=(); libbpf=(); edges=()
for f in $srcs; do
	[ -f "$f" ] || continue		# deleted but not yet committed
	layer_of "$f"; l=$LAYER
	while IFS=: read -r n line; do
		inc=$line
		[[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*(.*)$ ]] && inc=${BASH_REMATCH[1]}
		case $inc in
		\"*../*) parent+=("$f:$n: $inc");;
		\<bpf/*) [[ $libbpf_ok == *" $l "* ]] || libbpf+=("$f:$n: $inc ($l layer)");;
		\"*)
			h=${inc#\"}; h=${h%%\"*}
			case $h in
			*.skel.h) tl=skel;;
			vmlinux.h) tl=vmlinux;;
			*) [ -n "${where[$h]:-}" ] || continue
			   layer_of "${where[$h]}"; tl=$LAYER
			   m=${f##*/}; m=${m%.*}; t=${h%.h}
			   [ "$m" = "$t" ] || edges+=("${f%.*} ${where[$h]%.h}");;
			esac
			[[ " ${may[$l]} " == *" $tl "* ]] ||
				upward+=("$f:$n: \"$h\" is in layer $tl; $l may include: ${may[$l]}");;
		esac
	done < <(grep -n -E '^[[:space:]]*#[[:space:]]*include' "$f")
done

source "$(dirname "$0")/check_lib.bash"
report_each no-parent-includes "${parent[@]}"
report_each layer-direction "${upward[@]}"
report_each libbpf-confined "${libbpf[@]}"
report_each unique-headers "${dups[@]}"
# tsort names a loop on stderr ("input contains a loop") with its members.
loops=$(printf '%s\n' "${edges[@]}" | sort -u | tsort 2>&1 >/dev/null | grep -v 'input contains a loop' | sed 's/^tsort: //')
report_each no-include-cycles ${loops:+"modules in a loop: $(tr '\n' ' ' <<< "$loops")"}
own=()
for f in $srcs; do
	case $f in tools/*/*.c) ;; *) continue;; esac
	if [ ! -f "${f%.c}.h" ]; then own+=("$f: no ${f%.c}.h")
	elif ! grep -q "^#include \"$(basename "${f%.c}").h\"" "$f"; then own+=("$f: does not include its header")
	fi
done
report_each own-header "${own[@]}"
# calls in code, not in comments (lines starting with /*, * or //)
files=()
while IFS= read -r hit; do files+=("$hit"); done < <(
	for f in $srcs; do
		case $f in tools/source/*) continue;; tools/*.[ch]|tools/*/*.[ch]) ;; *) continue;; esac
		[ -f "$f" ] && grep -nHE '\b(mkdir|mkdirat|rename|renameat2?|unlink|unlinkat|rmdir)[[:space:]]*\(' "$f" |
			grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)'
	done)
report_each state-files-in-source "${files[@]}"

tag='(\b(R[0-9]{1,2}|(LOC|CLG|EXE|GRP|HIE|TOOL)-[0-9]+)\b|seed_[a-z]+\.md|spec/|§|\b[Ii]ssue [0-9]+)'
tags=()
while IFS= read -r hit; do tags+=("$hit"); done < <(
	{ git ls-files -co --exclude-standard 'tools/*.c' 'tools/*.h' 'sched_ext/*.c' 2>/dev/null |
		xargs -r grep -nE "\"[^\"]*$tag[^\"]*\"" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)'
	  git ls-files -co --exclude-standard README.md 'docs/*.md' 'dashboards/*' 2>/dev/null |
		xargs -r grep -nE "$tag"; } | cut -c1-160)
report_each no-tags-in-user-text "${tags[@]}"

# prefix-names-file. The awk finds function definitions at file scope: a
# line at column 0 naming NAME( that is not static, extern or typedef and
# whose parameter list is followed by a '{' (a ';' makes it a declaration).
declare -A abbr=() exc=() taken=()
prefix=()
while read -r f p _; do
	case $f in ''|\#*) continue;; esac
	[ -n "${abbr[$f]:-}" ] && prefix+=("$f: two abbreviations in tests/unit/prefix_abbrev.txt")
	[ -n "${taken[$p]:-}" ] && prefix+=("$f: nl_${p}_ is already ${taken[$p]}'s (tests/unit/prefix_abbrev.txt)")
	abbr[$f]=$p; taken[$p]=$f
done < tests/unit/prefix_abbrev.txt
while read -r f p _; do
	case $f in ''|\#*) continue;; esac
	exc["$f $p"]=1
done < tests/unit/prefix_exceptions.txt
while read -r loc name; do
	f=${loc%%:*}; base=${f##*/}; base=${base%.c}; dir=${f%/*}; dir=${dir##*/}
	[ "$name" = main ] && continue
	ok=0; p=$base
	while :; do	# the basename, then each tail of it after an underscore
		case $name in nl_"$p"|nl_"$p"_*) ok=1; break;; esac
		[[ $p == *_* ]] || break
		p=${p#*_}
	done
	case $name in nl_"$dir"|nl_"$dir"_*) ok=1;; esac
	a=${abbr[$f]:-}
	[ -n "$a" ] && case $name in nl_"$a"|nl_"$a"_*) ok=1;; esac
	w=${name#nl_}; w=${w%%_*}
	[ $ok = 1 ] || [ -n "${exc["$f $w"]:-}" ] ||
		prefix+=("$loc: $name: name it nl_${base}_... (or a tail of $base, nl_${dir}_..., or its abbreviation in tests/unit/prefix_abbrev.txt)")
done < <(git ls-files -co --exclude-standard 'tools/*.c' 2>/dev/null |
	xargs -r awk '
	FNR == 1 { pend = "" }
	pend != "" {
		if ($0 ~ /^\{/) { print pend; pend = ""; next }
		if ($0 ~ /;[ \t]*$/) { pend = ""; next }
		if ($0 ~ /^[ \t]/) next
		pend = ""
	}
	/^[A-Za-z_]/ && !/^(static|extern|typedef|#)/ && !/^(struct|union|enum)[^(]*\{/ {
		if (!match($0, /[A-Za-z_][A-Za-z_0-9]*\(/) || $0 ~ /;[ \t]*$/) next
		if (index($0, "=") && index($0, "=") < RSTART) next
		pend = FILENAME ":" FNR " " substr($0, RSTART, RLENGTH - 1)
		if ($0 ~ /\{[ \t]*$/) { print pend; pend = "" }
	}')
report_each prefix-names-file "${prefix[@]}"
exit $bad
