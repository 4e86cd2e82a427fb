#!/usr/bin/env bash
# make image: the OCI image built with podman from packaging/Containerfile.
# Running it is not possible in this sandbox (the runtime's setrlimit is
# refused), so the test checks what can be: the image's config (labels with
# the version and commit, entry point, default arguments, user, port), its
# files (the two binaries and nothing else, both static, the image's
# numalens answering --version on the host), and the OCI archive beside it.
source "$(dirname "$0")/common.bash"
command -v podman >/dev/null || skip "no podman: run 'make test-deps' as root once"
[ -x "$B/scx_cling" ] || fail "$B/scx_cling is not built: run 'make' first"

version=$(sed -n 's/^#define NL_VERSION "\(.*\)"/\1/p' tools/core/version.h)
IMG=localhost/numalens:$version
bash scripts/build-image.sh "$B" > "$TMP/build.log" 2>&1 || fail "make image failed: $(tail -3 "$TMP/build.log")"
podman image inspect "$IMG" --format '{{json .}}' > "$TMP/inspect.json" 2> "$TMP/inspect.err" ||
	fail "podman image inspect $IMG: $(cat "$TMP/inspect.err")"
rev=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
python3 - "$TMP/inspect.json" "$version" "$rev" <<'EOF' || fail "image config is not as built"
import json, sys
d = json.load(open(sys.argv[1]))
if isinstance(d, list):
    d = d[0]
c = d["Config"]
lab = c.get("Labels") or {}
want = {"org.opencontainers.image.title": "numalens",
        "org.opencontainers.image.version": sys.argv[2],
        "org.opencontainers.image.revision": sys.argv[3]}
for k, v in want.items():
    assert lab.get(k) == v, f"label {k} is {lab.get(k)!r}, want {v!r}"
for k in ("created", "licenses", "description"):
    assert lab.get("org.opencontainers.image." + k), f"no org.opencontainers.image.{k} label"
assert c.get("Entrypoint") == ["/usr/sbin/numalens"], f"entrypoint {c.get('Entrypoint')}"
assert c.get("Cmd", [])[:3] == ["export", "--listen", ":10072"], f"cmd {c.get('Cmd')}"
assert c.get("User") == "0:0", f"user {c.get('User')!r}"
assert "10072/tcp" in (c.get("ExposedPorts") or {}), f"ports {c.get('ExposedPorts')}"
assert d.get("Os") == "linux", d.get("Os")
print(f"  labels: version {lab['org.opencontainers.image.version']}, revision "
      f"{lab['org.opencontainers.image.revision']}; entrypoint {c['Entrypoint']}, cmd {c['Cmd']}, user {c['User']}")
EOF

mnt=$(podman image mount "$IMG") || fail "podman image mount $IMG failed"
cleanup_hook() { podman image unmount "$IMG" > /dev/null 2>&1; thp_restore; }
files=$(cd "$mnt" && find . -type f -o -type l | sort | tr '\n' ' ')
[ "$files" = "./usr/sbin/numalens ./usr/sbin/scx_cling " ] ||
	fail "the image holds $files, want the two binaries only"
for f in numalens scx_cling; do
	readelf -l "$mnt/usr/sbin/$f" | grep -q 'Requesting program interpreter' &&
		fail "/usr/sbin/$f in the image is dynamically linked"
done
out=$("$mnt/usr/sbin/numalens" --version 2>&1)
[ "$out" = "numalens $version" ] || fail "the image's numalens --version says '$out'"
note "files: $files($(du -sh "$mnt" | cut -f1)), numalens --version: $out"

arch=$B/image/numalens-$version.oci.tar
[ -s "$arch" ] || fail "no OCI archive $arch"
tar tf "$arch" | grep -qx 'index.json' && tar tf "$arch" | grep -qx 'oci-layout' ||
	fail "$arch is not an OCI archive"
note "archive: $arch ($(du -h "$arch" | cut -f1))"
echo "PASS: image"
