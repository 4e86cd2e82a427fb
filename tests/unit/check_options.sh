#!/usr/bin/env bash
# One option grammar, written down three times: each command's --help (the
# built binaries), its man page and the table of docs/options.md. Run by
# tests/run-all.sh (unit layer). Prints TAP lines, one per rule: "ok -
# <rule>" or "not ok - <rule>" followed by what is wrong, "# ..."; exit 1
# on any.
#
# An option is compared as its spelling: "-d/--delay", or "--all" when it
# has no short letter, so a letter that moved is a difference too. argp's
# own --help and --usage, and options hidden from --help (old spellings
# kept for one release), are not part of it. Long names may hold dots
# (--web.config.file, the spelling Prometheus exporters share).
#
# Rules:
#  help-man       the options of `CMD --help` and of the OPTIONS section of
#                 its man page are the same, both ways
#  help-table     the options of `CMD --help` and the rows of the table
#                 under "## All options" in docs/options.md naming CMD are
#                 the same, both ways
#  man-synopsis   every option the SYNOPSIS of a man page names is one of
#                 the command's options
#  table-commands every row of the table names only known commands
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
MAN=${OPTS_MAN_DIR:-man}
TABLE=${OPTS_TABLE:-docs/options.md}
CMDS="top export vmscan reclaim scx_cling"
bad=0
source "$(dirname "$0")/check_lib.bash"

help_of() { # help_of CMD: the --help text
	if [ "$1" = scx_cling ]; then "$B/scx_cling" --help 2>/dev/null
	else "$B/numalens" "$1" --help 2>/dev/null; fi
}
page_of() { if [ "$1" = scx_cling ]; then echo "$MAN/scx_cling.8"; else echo "$MAN/numalens-$1.8"; fi; }

# argp's layout: "  -x, --long..." or six spaces and "--long..." for the
# option column; wrapped help text is indented further, never matched
opts_help() {
	help_of "$1" | sed -nE 's/^  (-[^-, ]), (--[a-z][-.a-z0-9]*).*/\1\/\2/p; s/^      (--[a-z][-.a-z0-9]*).*/\1/p' |
		grep -vx -- '--help\|--usage\|-?/--help' | sort -u
}

# The words of a roff line as options: "\\-d", "\\-\\-delay=" -> -d/--delay
spellings() { # stdin: roff lines, one option entry a line
	sed 's/\\-/-/g; s/\\(aq//g; s/[",]/ /g' | awk '{
		s = ""; l = ""
		for (i = 1; i <= NF; i++) {
			w = $i
			if (l == "" && w ~ /^--[a-z]/) { sub(/[^-.a-z0-9].*$/, "", w); l = w }
			else if (s == "" && w ~ /^-[A-Za-z]$/) s = w
		}
		if (s != "" && l != "") print s "/" l; else if (l != "") print l; else if (s != "") print s
	}'
}

# the line after each .TP (and .TQ) of the OPTIONS section
opts_man() {
	awk '/^\.SH /{s=($2=="OPTIONS")} s && want {print; want=0} s && /^\.T[PQ]/{want=1}' "$(page_of "$1")" |
		spellings | sort -u
}

# every option word the SYNOPSIS names (long, or a lone short letter)
synopsis_words() {
	awk '/^\.SH /{s=($2=="SYNOPSIS")} s && !/^\.SH/' "$(page_of "$1")" | sed 's/\\-/-/g; s/[][",]/ /g' |
		grep -oE '(^| )(--[a-z][-.a-z0-9]*|-[A-Za-z])( |$)' | tr -d ' ' | sort -u
}

# rows of the table under "## All options": "| `-d` | `--delay SECONDS` | ... | top, export |"
# (a "\\|" inside a cell is text, not a column)
table_rows() {
	awk '/^## /{s=($0 ~ /^## All options/)} s && /^\| /' "$TABLE" | sed 's/\\|/ /g'
}
opts_table() { # opts_table CMD
	table_rows | awk -F'|' -v cmd="$1" '{
		short = ""; long = ""
		if (match($2, /-[A-Za-z]/)) short = substr($2, RSTART, RLENGTH)
		if (!match($3, /--[a-z][-.a-z0-9]*/)) next	# the header and the |---| line
		long = substr($3, RSTART, RLENGTH)
		n = split($5, cs, /[ ,]+/)
		for (i = 1; i <= n; i++)
			if (cs[i] == cmd) { print (short != "" ? short "/" : "") long; break }
	}' | sort -u
}

diff_sets() { # diff_sets NAME_A SET_A NAME_B SET_B PREFIX
	comm -23 <(echo "$2") <(echo "$4") | sed "/^$/d; s|^|$5: $1 has |; s|\$|, $3 does not|"
	comm -13 <(echo "$2") <(echo "$4") | sed "/^$/d; s|^|$5: $3 has |; s|\$|, $1 does not|"
}

if [ ! -x "$B/numalens" ] || [ ! -x "$B/scx_cling" ]; then
	for r in help-man help-table man-synopsis; do
		report $r "$B/numalens or $B/scx_cling is not built: run 'make' first"
	done
else
	pm="" pt="" ps=""
	for c in $CMDS; do
		h=$(opts_help "$c")
		[ -n "$h" ] || { pm+="$c: '--help' listed no options"$'\n'; continue; }
		page=$(page_of "$c")
		if [ ! -f "$page" ]; then
			pm+="$c: $page is missing"$'\n'
		else
			m=$(opts_man "$c")
			d=$(diff_sets "--help" "$h" "$page OPTIONS" "$m" "$c")
			[ -z "$d" ] || pm+="$d"$'\n'
			for w in $(synopsis_words "$c"); do
				grep -qE -- "(^|/)$w(/|\$)" <<< "$h" ||
					ps+="$c: $page SYNOPSIS names $w, which '--help' does not list"$'\n'
			done
		fi
		d=$(diff_sets "--help" "$h" "$TABLE" "$(opts_table "$c")" "$c")
		[ -z "$d" ] || pt+="$d"$'\n'
	done
	report help-man "${pm%$'\n'}"
	report help-table "${pt%$'\n'}"
	report man-synopsis "${ps%$'\n'}"
fi

p=$(table_rows | awk -F'|' -v known=" $CMDS " -v t="$TABLE" '
	match($3, /--[a-z][-.a-z0-9]*/) {
		long = substr($3, RSTART, RLENGTH); n = split($5, cs, /[ ,]+/)
		for (i = 1; i <= n; i++)
			if (cs[i] != "" && index(known, " " cs[i] " ") == 0)
				print t ": the row of " long " names \047" cs[i] "\047, not a command"
	}')
report table-commands "${p%$'\n'}"
exit $bad
