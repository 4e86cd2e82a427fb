# Bad input and missing privileges get a one-line error and the documented
# non-zero exit code (2 usage, 3 privileges), and nothing on stdout.
. "$(dirname "$0")/common.bash"
expect() { # expect CODE PATTERN CMD...   (LINES=n allows n stderr lines)
	local code=$1 pat=$2; shift 2
	"$@" > "$TMP/out" 2> "$TMP/err"; local rc=$?
	[ $rc = "$code" ] || fail "'$*' exited $rc, expected $code (stderr: $(cat "$TMP/err"))"
	[ "$(wc -l < "$TMP/err")" -le "${LINES_OK:-1}" ] || fail "'$*' should print one line on stderr, saw: $(cat "$TMP/err")"
	grep -q "$pat" "$TMP/err" || fail "'$*': expected '$pat' in: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "'$*' printed on stdout: $(head -2 "$TMP/out")"
	# whatever the user typed is echoed cleaned: no escape reaches the terminal
	LC_ALL=C grep -q $'\x1b' "$TMP/err" && fail "'$*': a raw ESC reached stderr: $(cat -v "$TMP/err")"
	note "ok: $* -> $rc: $(cat "$TMP/err")"
}
expect 2 "unknown command" "$NL" nosuch
expect 2 "seconds from 0.1" "$NL" top -d 0
expect 2 "seconds from 0.1" "$NL" top -d abc
expect 2 "seconds from 0.1" "$NL" top -d nan
expect 2 "seconds from 0.1" "$NL" top -d 0x1
expect 2 "seconds from 0.1" "$NL" top -d inf
expect 2 "no process with pid" "$NL" top --batch -n 1 -p 4000000
expect 2 "no cgroup /nl-no-such-cgroup" "$NL" top --batch -n 1 -c /nl-no-such-cgroup
expect 2 "whole number" "$NL" top -n -1
expect 2 "unknown sort key" "$NL" top -s bogus
expect 2 "starting with '/'" "$NL" top -c system.slice
expect 2 "'..' component" "$NL" top -c /../..
# repeated and trailing slashes name the same cgroup (normalized)
expect 2 "no cgroup /nl-no-such-cgroup under" "$NL" top --batch -n 1 -c //nl-no-such-cgroup/
# a path given with the mount point in front: the error names the one
# meant when that one exists, and only then
ERRCG=$(memcg_root)/nl-errors-$$
cleanup_hook() { thp_restore; rmdir "$ERRCG" 2>/dev/null; }
mkdir "$ERRCG" || fail "cannot create $ERRCG"
expect 2 "relative to that mount, try /nl-errors-$$\$" "$NL" top --batch -n 1 -c "$ERRCG"
rmdir "$ERRCG"
expect 2 "relative to that mount\$" "$NL" top --batch -n 1 -c "$ERRCG"
expect 2 "'..' component" "$NL" vmscan -c /system.slice/./x
# a path echoed in an error is cleaned: no escape sequence reaches the terminal
expect 2 'not .x\\x1b\[31m' "$NL" vmscan -c $'x\e[31m'
expect 2 'no cgroup /nl-nope\\x1b\[31m under' "$NL" vmscan -c $'/nl-nope\e[31m'
expect 2 "'..' component" "$NL" reclaim --dry-run /a/..
expect 2 'unknown command .nosuch\\x1b\[31m' "$NL" $'nosuch\e[31m'
expect 2 'unknown sort key .cpu\\x1b\[31m' "$NL" top -s $'cpu\e[31m'
expect 2 'whole number .* not .12\\x1b\[31m' "$NL" top -p $'12\e[31m'
expect 2 'seconds from .* not .1\\x1b' "$NL" top -d $'1\e'
expect 2 "unexpected argument 'x\\\\x1b" "$NL" vmscan $'x\e'
expect 2 'btf /nl-nope\\x1b\[31m: cannot read it' "$NL" top --batch -n 1 --btf $'/nl-nope\e[31m'
expect 2 "exclude each other" "$NL" top --batch --json -n 1
# argp's own message plus its "Try --help" hint
LINES_OK=2 expect 2 "unrecognized option" "$NL" top --no-such-option
# scx_cling's option errors carry its name, not the path it was run by
LINES_OK=2 expect 2 "^scx_cling: unrecognized option" "$B/scx_cling" --frobnicate
# a bad value is one line, as in numalens (argp's "Try --help" line is for unknown options only)
expect 2 "^scx_cling: --decay-ms: .1. is not an integer in 10..600000$" "$B/scx_cling" --decay-ms 1
expect 2 "^scx_cling: --delay: .0x10. is not a number" "$B/scx_cling" --delay 0x10 --monitor
expect 2 "^numalens reclaim: -d 10: --delay and --duration are both given: drop -d$" "$NL" reclaim -d 10 --duration 3 --delay 2 /x
# unprivileged: setpriv drops to nobody with no capabilities
command -v setpriv >/dev/null || skip "setpriv (util-linux) missing"
expect 3 "needs CAP_BPF and CAP_PERFMON" setpriv --reuid=65534 --regid=65534 --clear-groups "$NL" top --batch -n 1
"$NL" --help | grep -q '^  top ' || fail "numalens --help should list the top command"
"$NL" top --help | grep -q -- '--delay' || fail "numalens top --help should describe --delay"
exit 0
