# `make deb` builds a Debian package with dpkg-buildpackage and debhelper,
# inside build/ only; it holds the binaries, man pages, completion, the unit
# (installed, not enabled or started), the dashboard and the docs; lintian
# finds no error in it.
. "$(dirname "$0")/common.bash"
for t in dpkg-buildpackage dh lintian; do
	command -v $t >/dev/null || skip "$t missing: run 'sudo make test-deps'"
done

before=$(git status --porcelain 2>/dev/null)
make -s deb B="$B" > "$TMP/make" 2>&1 || fail "make deb failed: $(tail -5 "$TMP/make")"
deb=$(sed -n 's/^make deb: //p' "$TMP/make" | tail -1)
[ -f "$deb" ] || fail "make deb named no package: $(tail -3 "$TMP/make")"
case "$deb" in "$PWD/$B"/*) ;; *) fail "the package is outside $B/: $deb";; esac
[ "$(git status --porcelain 2>/dev/null)" = "$before" ] || fail "make deb changed files outside $B/: $(git status --porcelain)"
note "built $deb ($(stat -c %s "$deb") bytes)"

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$TMP/files"
for f in /usr/sbin/numalens /usr/sbin/scx_cling \
	/usr/share/man/man8/numalens.8.gz /usr/share/man/man8/numalens-top.8.gz \
	/usr/share/man/man8/numalens-export.8.gz /usr/share/man/man8/numalens-vmscan.8.gz \
	/usr/share/man/man8/numalens-reclaim.8.gz /usr/share/man/man8/scx_cling.8.gz \
	/usr/share/bash-completion/completions/numalens \
	/lib/systemd/system/numalens-export.service \
	/usr/share/numalens/dashboards/numalens.json \
	/usr/share/doc/numalens/README.md /usr/share/doc/numalens/docs/metrics.md \
	/usr/share/doc/numalens/prometheus-rules.yml \
	/usr/share/doc/numalens/copyright; do
	grep -qx "$f" "$TMP/files" || fail "the package lacks $f"
done
! grep -q '^/usr/lib/debug' "$TMP/files" || fail "debug files in the package: $(grep '^/usr/lib/debug' "$TMP/files" | head -2)"

dpkg-deb -x "$deb" "$TMP/root"
grep -q '^ExecStart=/usr/sbin/numalens export' "$TMP/root/lib/systemd/system/numalens-export.service" ||
	fail "the packaged unit does not start /usr/sbin/numalens: $(grep ExecStart "$TMP/root/lib/systemd/system/numalens-export.service")"
"$TMP/root/usr/sbin/numalens" --version | grep -q '^numalens ' || fail "the packaged numalens does not run"
man -l "$TMP/root/usr/share/man/man8/numalens-top.8.gz" 2>/dev/null | grep -q 'numalens-top' ||
	fail "the packaged numalens-top(8) does not format"

# installed, never enabled or started by the package: the maintainer
# scripts only re-enable a unit the admin had enabled before an upgrade
dpkg-deb -e "$deb" "$TMP/ctl"
cat "$TMP/ctl"/post* "$TMP/ctl"/pre* 2>/dev/null > "$TMP/scripts"
# (preinst stops a running unit before an upgrade: that is allowed)
started=$(grep -E "(deb-systemd-invoke|systemctl)( [-a-z]+)* (start|restart|try-restart)" "$TMP/scripts")
[ -z "$started" ] || fail "the package starts the service: $started"
if grep -q 'deb-systemd-helper enable' "$TMP/scripts"; then
	grep -B3 'deb-systemd-helper enable' "$TMP/scripts" | grep -q 'was-enabled' ||
		fail "the package enables the service on install"
fi

# the static binaries embed LGPL libraries: Built-Using names the Debian
# source package of each one linked from a -dev package or built from a
# fetched source package (the ones always present on a set-up machine)
bu=$(dpkg-deb -f "$deb" Built-Using)
note "Built-Using: $bu"
for s in gmp libxcrypt libyaml gnutls28 nettle libmicrohttpd; do
	grep -qE "(^|, )$s \(= [^)]+\)" <<< "$bu" || fail "Built-Using does not name $s: '$bu'"
done
grep -q 'GnuTLS' "$TMP/root/usr/share/doc/numalens/copyright" ||
	fail "the copyright file does not name the libraries the binaries embed"

lintian "$deb" > "$TMP/lintian" 2>&1
errors=$(grep -c '^E:' "$TMP/lintian"); warnings=$(grep -c '^W:' "$TMP/lintian")
[ "$errors" = 0 ] || fail "lintian: $errors error(s): $(grep '^E:' "$TMP/lintian" | head -5 | tr '\n' ' ')"
note "lintian: $errors errors, $warnings warnings$(grep '^W:' "$TMP/lintian" | head -3 | sed 's/^/; /' | tr '\n' ' ')"
exit 0
