# scx_cling on the host: a kernel without sched_ext gets a one-line
# message and exit 4 (after the options were checked: bad ones exit 2);
# --monitor with no scx_cling running exits 1; --help documents the options.
. "$(dirname "$0")/common.bash"
CLING=${CLING:-build/scx_cling}
[ -x "$CLING" ] || fail "$CLING not built (make)"
run() { # run CODE PATTERN ARGS...
	local code=$1 pat=$2; shift 2
	"$CLING" "$@" > "$TMP/out" 2> "$TMP/err"; local rc=$?
	[ $rc = "$code" ] || fail "scx_cling $* exited $rc, expected $code (stderr: $(cat "$TMP/err"))"
	grep -q "$pat" "$TMP/err" || fail "scx_cling $*: expected '$pat' in: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "scx_cling $* printed on stdout: $(head -2 "$TMP/out")"
	note "ok: scx_cling $* -> $rc: $(head -1 "$TMP/err")"
}
run 2 "not an integer in 0..100" --cling-degree 101
run 2 "not an integer in 0..100" --cling-degree -1
run 2 "not an integer in 0..100" --cling-degree 2x
run 2 "exclude each other" --all --group /x
run 2 "starting with '/'" --group x
run 1 "not running" --monitor --pin-dir "$TMP/none"
# -d was the cling degree and is now the interval: a value that fits both
# is refused while loading, naming both spellings
run 2 "write --cling-degree 50, or --delay 50" -d 50
if [ ! -e /sys/kernel/sched_ext ]; then
	run 4 "no sched_ext" --cling-degree 20
	run 4 "no sched_ext" --all --cling-degree 0
else
	note "this kernel has sched_ext: the exit-4 check needs a kernel without it"
fi
"$CLING" --help | grep -q -- '--cling-degree' || fail "--help does not describe --cling-degree"
"$CLING" --help | grep -qi 'failure' || fail "--help does not say what a failure is"
exit 0
