# The set-up on a distribution other than Debian 12: it installs nothing,
# lets the build go on when the tools the build runs are there (so `make`
# does not stop at the same line again once the user installed them), and
# else names what is missing in one line with exit 1. The distribution is
# faked by an os-release bound over the real one in a private mount
# namespace; nothing is installed either way.
. "$(dirname "$0")/common.bash"
command -v unshare >/dev/null || skip "no unshare"
printf 'ID=ubuntu\nVERSION_ID=24.04\nPRETTY_NAME="Ubuntu 24.04 LTS"\n' > "$TMP/os-release"
elsewhere() { # elsewhere ENV... -- run setup.sh run as on Ubuntu
	unshare -m sh -c 'mount --bind "$1" /etc/os-release && shift && exec env "$@" bash scripts/setup.sh run' \
		sh "$TMP/os-release" "$@" > "$TMP/out" 2> "$TMP/err"
}
elsewhere PATH="$PATH"; rc=$?
[ $rc = 0 ] || fail "with every tool there the set-up should let the build go on, exit $rc: $(cat "$TMP/err")"
grep -q "Ubuntu 24.04 LTS, not Debian 12: installing nothing" "$TMP/err" || fail "no note that nothing is installed: $(cat "$TMP/err")"
note "tools there: exit 0: $(cat "$TMP/err")"
elsewhere PATH="$PATH" CLANG=clang-nl-missing; rc=$?
[ $rc = 1 ] || fail "a missing compiler should stop the set-up with exit 1, got $rc"
[ "$(wc -l < "$TMP/err")" = 1 ] || fail "one line expected, saw: $(cat "$TMP/err")"
grep -q "install clang-nl-missing by hand" "$TMP/err" || fail "the missing tool is not named: $(cat "$TMP/err")"
note "compiler missing: exit 1: $(cat "$TMP/err")"
# the host's own os-release is untouched
grep -q "Ubuntu" /etc/os-release && fail "/etc/os-release changed"
exit 0
