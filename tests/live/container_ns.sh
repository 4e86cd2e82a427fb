#!/usr/bin/env bash
# numalens in the namespaces a Kubernetes pod gives it (packaging/kubernetes/
# daemonset.yaml): its own cgroup and mount namespaces (and, in one run, its
# own pid namespace), the host's /sys and /proc as the manifest mounts them.
# Inside, top must label the workload's cgroup and every cgroup id exactly as
# outside, export must name the host's paths; a container's own cgroup mount
# (its subtree only) is refused, and a missing tracefs or BTF, with the
# DaemonSet's capabilities (no CAP_SYS_ADMIN to mount them), is named in one
# line. Running containers (podman run) fails in this sandbox, so unshare(1)
# makes the namespaces instead.
source "$(dirname "$0")/common.bash"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"

R=$(memcg_root)
[ -n "$R" ] || skip "no memory cgroup hierarchy mounted"
POD=/nl-ctr-$$		# the pod's cgroup: the namespace's root
WK=/nl-ctrwk-$$		# the workload's, outside the pod
mkdir "$R$POD" "$R$WK" || fail "cannot make test cgroups under $R"
WPID=
# stop_pod: end every process in the pod's cgroup (all of them ours)
stop_pod() {
	local p
	for p in $(cat "$R$POD/cgroup.procs" 2>/dev/null); do kill "$p" 2>/dev/null; done
	wait_until 20 sh -c '! grep -q . "$0"' "$R$POD/cgroup.procs"
}
cleanup_hook() {
	[ -n "$WPID" ] && kill $WPID 2>/dev/null && wait $WPID 2>/dev/null
	stop_pod
	for d in "$R$POD"/e*; do [ -d "$d" ] && rmdir "$d"; done
	rmdir "$R$POD" "$R$WK" 2>/dev/null
	thp_restore
}
# the DaemonSet's capabilities (root, as in the pod; docs/kernel.md)
CAPS=-all,+bpf,+perfmon
reduced() { setpriv --inh-caps=$CAPS --ambient-caps=$CAPS --bounding-set=$CAPS -- "$@"; }

(echo $BASHPID > "$R$WK/cgroup.procs"; exec "$WORK" --anon 32 --spin 120 > /dev/null) &
WPID=$!
wait_until 30 is_comm $WPID nlwork || fail "nlwork did not start"

# in_pod [UNSHARE FLAGS] -- CMD: CMD in a fresh cgroup namespace rooted at
# $POD and a mount namespace of its own (the host's mounts copied, as the
# DaemonSet's hostPath volumes give them)
in_pod() {
	local fl=()
	while [ "$1" != -- ]; do fl+=("$1"); shift; done; shift
	(echo $BASHPID > "$R$POD/cgroup.procs"; exec unshare --cgroup --mount --fork "${fl[@]}" -- "$@")
}

# labels FILE: "pid cgroup" of the workload, then "id path" of every cgroup
labels() {
	python3 - "$1" "$WPID" <<'EOF'
import json, sys
last = [l for l in open(sys.argv[1]) if l.strip()][-1]
d = json.loads(last)
w = [p["cgroup"] for p in d["processes"] if p["pid"] == int(sys.argv[2])]
print("workload", w[0] if w else "-")
for c in d["cgroups"]:
    if not c.get("removed"):
        print("cg", c["id"], c["path"])
for p in d["processes"]:
    if p["comm"] == "numalens":
        print("self", p["cgroup"])
EOF
}

# compare OUT IN NAME: the workload's label and every cgroup both saw
compare() {
	local w_out w_in
	w_out=$(awk '$1 == "workload" { print $2 }' "$1")
	w_in=$(awk '$1 == "workload" { print $2 }' "$2")
	[ "$w_out" = "$WK" ] || fail "$3: outside, the workload is labelled '$w_out', not $WK"
	[ "$w_in" = "$w_out" ] || fail "$3: inside the pod's namespaces the workload is '$w_in', outside '$w_out'"
	# ids seen both times must carry the same path (cgroups of other
	# tests come and go between the two runs)
	awk '$1 == "cg" { if (FILENAME == ARGV[1]) o[$2] = $3; else if ($2 in o && o[$2] != $3) {
		print "cgroup id " $2 ": outside " o[$2] ", inside " $3; bad = 1 } }
		END { exit bad }' "$1" "$2" || fail "$3: cgroup paths differ inside"
	grep -q "^cg [0-9]* $POD\$" "$2" || fail "$3: inside, the pod's cgroup $POD is not listed"
	grep -q '/\.\.' "$2" && fail "$3: a path inside climbs with '..': $(grep -m1 '/\.\.' "$2")"
	note "$3: workload $w_in inside and out; $(grep -c '^cg' "$2") cgroups, paths as outside"
}

run_top() { "$NL" top --json -n 2 -d 0.5 2> "$TMP/top.err" > "$1" || fail "top failed: $(cat "$TMP/top.err")"; }

# 1. few cgroups: processes are placed from each cgroup's cgroup.procs
run_top "$TMP/out1.json"; labels "$TMP/out1.json" > "$TMP/out1"
in_pod -- "$NL" top --json -n 2 -d 0.5 > "$TMP/in1.json" 2> "$TMP/in1.err" ||
	fail "top in the pod's namespaces: $(cat "$TMP/in1.err")"
labels "$TMP/in1.json" > "$TMP/in1"
compare "$TMP/out1" "$TMP/in1" "cgroup.procs placement"
self_in=$(awk '$1 == "self" && $2 == "'"$POD"'"' "$TMP/in1" | head -1)
[ -n "$self_in" ] || fail "numalens inside is not labelled $POD (its host path): $(grep '^self' "$TMP/in1" | head -3)"

# 2. many cgroups (a Kubernetes node has hundreds): processes are placed
# from /proc/<pid>/cgroup, which reads relative to the namespace's root
for i in $(seq 1 200); do mkdir "$R$POD/e$i"; done
run_top "$TMP/out2.json"; labels "$TMP/out2.json" > "$TMP/out2"
in_pod -- "$NL" top --json -n 2 -d 0.5 > "$TMP/in2.json" 2> "$TMP/in2.err" ||
	fail "top in the pod's namespaces: $(cat "$TMP/in2.err")"
labels "$TMP/in2.json" > "$TMP/in2"
compare "$TMP/out2" "$TMP/in2" "/proc/<pid>/cgroup placement"

# 3. with a pid namespace of its own too (the host's /proc still mounted)
in_pod --pid -- "$NL" top --json -n 2 -d 0.5 > "$TMP/in3.json" 2> "$TMP/in3.err" ||
	fail "top in its own pid namespace: $(cat "$TMP/in3.err")"
labels "$TMP/in3.json" > "$TMP/in3"
compare "$TMP/out2" "$TMP/in3" "own pid namespace"
for i in $(seq 1 200); do rmdir "$R$POD/e$i"; done

# 4. export inside, with the DaemonSet's capabilities: the host's paths
port=$(free_port) || skip "no free port"
in_pod -- setpriv --inh-caps=$CAPS --ambient-caps=$CAPS --bounding-set=$CAPS -- \
	"$NL" export --listen 127.0.0.1:$port --delay 1 --cgroup-depth 1 > "$TMP/exp.log" 2>&1 &
EPID=$!
wait_until 60 curl -sf -o "$TMP/m1" "http://127.0.0.1:$port/metrics" || fail "export inside did not answer: $(cat "$TMP/exp.log")"
sleep 2
curl -sf -o "$TMP/m" "http://127.0.0.1:$port/metrics" || fail "second scrape failed"
stop_pod; wait $EPID
grep -q "cgroup=\"$WK\"" "$TMP/m" || fail "export inside has no series for cgroup $WK"
grep -q 'cgroup="/\.\.' "$TMP/m" && fail "export inside labels a cgroup with '..'"
note "export inside: $(grep -c "cgroup=\"$WK\"" "$TMP/m") series for $WK"

# 5. a container's own cgroup mount shows only its subtree: refused, naming it
if grep -q "^[^ ]* $R cgroup2 " /proc/self/mounts; then own=(-t cgroup2 cgroup2 "$R"); else own=(-t cgroup -o memory cgroup "$R"); fi
in_pod -- sh -c 'umount -l "$0" && mount "$@" && exec '"$NL"' top --json -n 1' "$R" "${own[@]}" > /dev/null 2> "$TMP/own.err"
rc=$?
[ $rc = 2 ] || fail "top on the container's own cgroup mount: exit $rc, want 2 ($(cat "$TMP/own.err"))"
[ "$(wc -l < "$TMP/own.err")" = 1 ] && grep -q "$R is not the top" "$TMP/own.err" ||
	fail "own cgroup mount: want one line naming $R, got: $(cat "$TMP/own.err")"
note "own cgroup mount: $(cat "$TMP/own.err")"

# 6. tracefs missing, no CAP_SYS_ADMIN to mount it: one line naming it
T=/sys/kernel/tracing
in_pod -- sh -c 'umount -l '$T' 2>/dev/null; umount -l /sys/kernel/debug 2>/dev/null; exec setpriv --inh-caps='$CAPS' --ambient-caps='$CAPS' --bounding-set='$CAPS' -- '"$NL"' top --json -n 1' > /dev/null 2> "$TMP/tr.err"
rc=$?
[ $rc = 4 ] || fail "top without tracefs: exit $rc, want 4 ($(cat "$TMP/tr.err"))"
[ "$(wc -l < "$TMP/tr.err")" = 1 ] && grep -q "tracefs is not mounted on $T" "$TMP/tr.err" ||
	fail "without tracefs: want one line naming $T, got: $(cat "$TMP/tr.err")"
note "no tracefs: $(cat "$TMP/tr.err")"
# with CAP_SYS_ADMIN numalens mounts it in its own namespace and runs
in_pod -- sh -c 'umount -l '$T'; exec '"$NL"' top --json -n 1' > /dev/null 2> "$TMP/tr2.err" ||
	fail "top without tracefs but allowed to mount it: $(cat "$TMP/tr2.err")"

# 7. no kernel BTF (/sys/kernel/btf not mounted through): one line naming it
in_pod -- sh -c 'mount -t tmpfs nl-nobtf /sys/kernel/btf && exec '"$NL"' top --json -n 1' > /dev/null 2> "$TMP/btf.err"
rc=$?
[ $rc = 4 ] || fail "top without /sys/kernel/btf: exit $rc, want 4 ($(cat "$TMP/btf.err"))"
[ "$(wc -l < "$TMP/btf.err")" = 1 ] && grep -q "/sys/kernel/btf/vmlinux" "$TMP/btf.err" ||
	fail "without BTF: want one line naming /sys/kernel/btf/vmlinux, got: $(cat "$TMP/btf.err")"
note "no BTF: $(cat "$TMP/btf.err")"

# 8. bpffs missing: only scx_cling's pinned statistics need it; top runs and
# its "running without" line names the mount
in_pod -- sh -c 'umount -l /sys/fs/bpf; exec setpriv --inh-caps='$CAPS' --ambient-caps='$CAPS' --bounding-set='$CAPS' -- '"$NL"' top --json -n 1' > "$TMP/bpf.json" 2> "$TMP/bpf.err" ||
	fail "top without bpffs: $(cat "$TMP/bpf.err")"
grep -q "bpffs is not mounted on /sys/fs/bpf" "$TMP/bpf.err" || fail "without bpffs: no line names /sys/fs/bpf: $(cat "$TMP/bpf.err")"
note "no bpffs: runs; $(grep -o "scx_cling's pinned statistics[^;]*" "$TMP/bpf.err")"
echo "PASS: container namespaces"
