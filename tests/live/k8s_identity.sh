# Pods, containers and services by their cgroup names: trees named as the
# kubelet's systemd and cgroupfs drivers, containerd, CRI-O, Docker and
# systemd name them, made on this host (under one test directory of the
# memory hierarchy), with nlwork run in the containers and the services.
# export's numalens_cgroup_info carries exactly the pod_uid, container_id
# and systemd_unit each path names (CRI-O's conmon none) and the workload's
# CPU time is on the labelled cgroups; top --json gives the whole ids and
# the short forms, top --batch shows the short forms in its tree. Every
# cgroup made is removed.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
root=$(memcg_root)
[ -d "$root" ] || skip "no cgroup hierarchy to make test cgroups in"
T=nlk8s$$
U1=1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d	# pod, systemd driver, burstable, containerd
U2=2b3c4d5e-6f70-4b1c-9dae-1f2a3b4c5d6e	# pod, systemd driver, besteffort, CRI-O (+ conmon)
U3=3c4d5e6f-7081-4c2d-8ebf-2a3b4c5d6e7f	# pod, cgroupfs driver, burstable, bare id
C1=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
C2=1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
C3=2123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
C4=3123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef	# docker, no pod
sd() { tr - _ <<< "$1"; }	# a uid as the systemd driver writes it
P1=/$T/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$(sd $U1).slice
P2=/$T/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod$(sd $U2).slice
P3=/$T/kubepods/burstable/pod$U3
K1=$P1/cri-containerd-$C1.scope
K2=$P2/crio-$C2.scope
CONMON=$P2/crio-conmon-$C2.scope
K3=$P3/$C3
K4=/$T/system.slice/docker-$C4.scope
S1=/$T/system.slice/nlk8s-test.service
S2=/$T/user.slice/user-1000.slice/user@1000.service/app.slice/nlk8s-inner.service
S2W=$S2/worker	# inside a service: its unit, no short form of its own
LEAVES="$K1 $K2 $CONMON $K3 $K4 $S1 $S2W"
made=()
cleanup_hook() {
	[ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID" 2>/dev/null
	[ -n "${TOP_PID:-}" ] && kill "$TOP_PID" 2>/dev/null
	wait 2>/dev/null
	# deepest first: a v1 or v2 cgroup goes only once its children have
	local d
	for d in $(printf '%s\n' "${made[@]}" | awk '{ print gsub("/", "/"), $0 }' | sort -rn | cut -d' ' -f2-); do
		rmdir "$root$d" 2>/dev/null
	done
	rmdir "$root/$T" 2>/dev/null
}
for l in $LEAVES; do
	mkdir -p "$root$l" || fail "cannot create $root$l"
	p=$l
	while [ "$p" != "/$T" ]; do made+=("$p"); p=${p%/*}; done
done
# once each, deepest first in cleanup_hook
mapfile -t made < <(printf '%s\n' "${made[@]}" | sort -u)
note "made ${#made[@]} cgroups under $root/$T"

port=$(free_port) || fail "no free port"
start_export "$port" --delay 1 --cgroup-pattern "/$T/*"
start_top "$TMP/top.jsonl" 1 600
top_started "$TMP/top.jsonl"
# CPU in each container and service (the conmon scope too: its time is the
# pod's, not a container's); what each one measured of its own CPU time
cpu=()
for l in $LEAVES; do
	sh -c "echo \$\$ > '$root$l/cgroup.procs' && exec '$WORK' --anon 8 --spin-cpu 0.5" > "$TMP/w.out" ||
		fail "nlwork in $l failed: $(cat "$TMP/w.out")"
	cpu[${#cpu[@]}]=$(work_field "$TMP/w.out" cpu_ns)
done
stop_top "$TMP/top.jsonl"
TOP_PID=
seq_now=$(curl -s "http://127.0.0.1:$port/healthz" | sed -n 's/.*snapshot \([0-9]*\) taken.*/\1/p')
wait_export_snapshot "$port" $(( ${seq_now:-1} + 2 ))
curl -s "http://127.0.0.1:$port/metrics" > "$TMP/m" || fail "curl /metrics failed"
promtool_ok "$TMP/m" || fail "promtool check metrics: $(head -3 "$TMP/m.lint")"

# -- export: the info series, exactly one per cgroup, only the labels that apply
info() { grep -F "numalens_cgroup_info{cgroup=\"$1\"" "$TMP/m"; }
want_info() { # want_info PATH LABELS: the one info line of PATH is exactly that
	local got; got=$(info "$1")
	[ "$got" = "numalens_cgroup_info{cgroup=\"$1\"$2} 1" ] ||
		fail "info series of $1: expected {cgroup=\"$1\"$2} 1, got '$got'"
}
want_info "/$T/kubepods.slice" ""
want_info "/$T/kubepods.slice/kubepods-burstable.slice" ""
want_info "$P1" ",pod_uid=\"$U1\""
want_info "$K1" ",pod_uid=\"$U1\",container_id=\"$C1\""
want_info "$P2" ",pod_uid=\"$U2\""
want_info "$K2" ",pod_uid=\"$U2\",container_id=\"$C2\""
want_info "$CONMON" ""
want_info "$P3" ",pod_uid=\"$U3\""
want_info "$K3" ",pod_uid=\"$U3\",container_id=\"$C3\""
want_info "$K4" ",container_id=\"$C4\""
want_info "$S1" ",systemd_unit=\"nlk8s-test.service\""
want_info "/$T/user.slice/user-1000.slice/user@1000.service" ",systemd_unit=\"user@1000.service\""
want_info "/$T/user.slice/user-1000.slice/user@1000.service/app.slice" ",systemd_unit=\"user@1000.service\""
want_info "$S2" ",systemd_unit=\"nlk8s-inner.service\""
want_info "$S2W" ",systemd_unit=\"nlk8s-inner.service\""
n_info=$(grep -c "^numalens_cgroup_info{cgroup=\"/$T/" "$TMP/m")
n_cpu=$(grep "^numalens_cgroup_page_allocations_total{cgroup=\"/$T/" "$TMP/m" | wc -l)
[ "$n_info" = "${#made[@]}" ] && [ "$n_cpu" = "$n_info" ] ||
	fail "$n_info info series and $n_cpu cgroups with figures under /$T, made ${#made[@]}"
note "export: ${#made[@]} info series, pod_uid / container_id / systemd_unit as each path names them"
# the workload's CPU time is on the labelled cgroups (sum over nodes): 80%
# of what it measured, as a short run's last slice can be cut at its exit;
# a cgroup that got another's time would be far off either way
cpu_s() { awk -v k="numalens_cgroup_cpu_seconds_total{cgroup=\"$1\"," 'index($0, k) == 1 { s += $2 } END { printf "%.0f\n", s * 1e9 }' "$TMP/m"; }
i=0
for l in $LEAVES; do
	got=$(cpu_s "$l")
	ge_pct "$got" "${cpu[$i]}" 80 || fail "$l: export counts $got ns of CPU, its nlwork measured ${cpu[$i]} ns"
	i=$((i + 1))
done
got=$(cpu_s "$P2"); sum=$(( cpu[1] + cpu[2] ))
ge_pct "$got" "$sum" 80 || fail "pod $U2 counts $got ns of CPU, its container and conmon measured $sum ns"
note "export: every container's and service's CPU time is on its labelled cgroup (pod $U2: $got ns of $sum)"

# -- top --json: the whole ids, the runtime and the short form
L=$(wc -l < "$TMP/top.jsonl")
jv() { "$JQ" -l "$L" "$TMP/top.jsonl" "cgroups[path=$1].$2"; }
want_json() { # want_json PATH FIELD VALUE
	local got; got=$(jv "$1" "$2")
	[ "$got" = "$3" ] || fail "top --json $1: $2 is '$got', expected '$3'"
}
want_json "$K1" pod_uid "$U1"; want_json "$K1" container_id "$C1"
want_json "$K1" container_runtime containerd; want_json "$K1" systemd_unit null
want_json "$K1" short_name "pod:${U1:0:8}/ctr:${C1:0:12}"
want_json "$K2" container_runtime cri-o; want_json "$K2" short_name "pod:${U2:0:8}/ctr:${C2:0:12}"
want_json "$CONMON" pod_uid null; want_json "$CONMON" container_id null; want_json "$CONMON" short_name null
want_json "$P3" pod_uid "$U3"; want_json "$P3" short_name "pod:${U3:0:8}"
want_json "$K3" container_runtime null; want_json "$K3" short_name "pod:${U3:0:8}/ctr:${C3:0:12}"
want_json "$K4" pod_uid null; want_json "$K4" container_runtime docker; want_json "$K4" short_name "ctr:${C4:0:12}"
want_json "$S2" systemd_unit nlk8s-inner.service; want_json "$S2" short_name nlk8s-inner.service
want_json "$S2W" systemd_unit nlk8s-inner.service; want_json "$S2W" short_name null
want_json "/$T/kubepods.slice" pod_uid null
rt=$(jv "$K1" run_ns_total)
ge_pct "$rt" "${cpu[0]}" 80 || fail "top --json: $K1 run_ns_total $rt, its nlwork measured ${cpu[0]} ns"
note "top --json: whole ids, runtimes and short forms; $K1 ran $rt ns"

# -- top --batch: the tree shows the short forms at their depth
"$NL" top --batch -n 1 -d 0.5 -c "/$T" > "$TMP/top.txt" 2>&1 || fail "top --batch exited $?: $(tail -2 "$TMP/top.txt")"
row() { # row DEPTH NAME [END]: a tree row of NAME indented for DEPTH, then END (a space)
	grep -q "^$(printf '%*s' $((2 * $1)) '')$2${3- }" "$TMP/top.txt" ||
		fail "top --batch: no row '$2' at depth $1 in: $(sed -n '/^CGROUPS/,$p' "$TMP/top.txt" | cut -c1-70)"
}
row 4 "pod:${U1:0:8}"
row 5 "pod:${U1:0:8}/ctr:${C1:0:12}"
row 5 "pod:${U2:0:8}/ctr:${C2:0:12}"
row 5 "crio-conmon-${C2:0:32}" ""	# its whole name, cut to the column
row 4 "pod:${U3:0:8}"
row 5 "pod:${U3:0:8}/ctr:${C3:0:12}"
row 3 "ctr:${C4:0:12}"
row 3 "nlk8s-test.service"
row 4 "user@1000.service"
row 6 "nlk8s-inner.service"
row 7 "worker"
grep -qF "kubepods-burstable-pod" "$TMP/top.txt" && fail "top --batch still shows a pod's slice name: $(grep -F kubepods-burstable-pod "$TMP/top.txt" | head -1)"
note "top --batch: the tree names pods, containers and services by their short forms"
stop_export
[ "$EXPORT_RC" = 0 ] || fail "numalens export exited $EXPORT_RC"
exit 0
