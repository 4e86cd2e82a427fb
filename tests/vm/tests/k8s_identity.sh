# Pods, containers and services by their cgroup names on a pure cgroup v2
# guest (where the kubelet and systemd put them today): trees named as the
# kubelet's systemd and cgroupfs drivers, containerd, CRI-O, Docker and
# systemd name them, an nlwork in each container and service. export's
# numalens_cgroup_info has exactly the labels each path names (CRI-O's
# conmon none) and each workload's CPU time is on its labelled cgroup;
# top --json has the whole ids and short forms; top --batch's tree shows
# the short forms. The cgroups are removed at the end.
# vm: nodes=2 cpus_per_node=1 mem_per_node=512M timeout=240
. /nl/lib.sh
nl_need_numalens
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
R=/sys/fs/cgroup
T=k8s
U1=1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d
U2=2b3c4d5e-6f70-4b1c-9dae-1f2a3b4c5d6e
U3=3c4d5e6f-7081-4c2d-8ebf-2a3b4c5d6e7f
C1=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
C2=1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
C3=2123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
C4=3123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
sd() { echo "$1" | tr - _; }
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
LEAVES="$K1 $K2 $CONMON $K3 $K4 $S1 $S2"
for l in $LEAVES; do mkdir -p "$R$l" || nl_fail "cannot create $R$l"; done
made=$(cd $R && find $T -mindepth 1 -type d | wc -l)

U=http://127.0.0.1:10072
taskset -c 0 $NUMALENS export --listen 127.0.0.1:10072 --delay 1 --cgroup-pattern "/$T/*" > /tmp/export.err 2>&1 &
EPID=$!
nl_export_served $U/metrics /tmp/m0 $EPID
J=/tmp/top.jsonl
nl_top $J 1 600
i=0
for l in $LEAVES; do
	i=$((i + 1))
	sh -c "echo \$\$ > '$R$l/cgroup.procs' && exec nlwork --anon 8 --spin-cpu 0.5" > /tmp/w$i.out ||
		nl_fail "nlwork in $l failed: $(cat /tmp/w$i.out)"
done
nl_top_stop $J 2
nl_export_wait $U 2
wget -q -O /tmp/m $U/metrics || nl_fail "no /metrics: $(cat /tmp/export.err)"

want_info() { # want_info PATH LABELS
	got=$(grep -F "numalens_cgroup_info{cgroup=\"$1\"" /tmp/m)
	[ "$got" = "numalens_cgroup_info{cgroup=\"$1\"$2} 1" ] ||
		nl_fail "info series of $1: expected {cgroup=\"$1\"$2} 1, saw '$got'"
}
want_info "/$T/kubepods.slice" ""
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
want_info "$S2" ",systemd_unit=\"nlk8s-inner.service\""
n=$(grep -c "^numalens_cgroup_info{cgroup=\"/$T/" /tmp/m)
nl_expect "info series under /$T (one per cgroup made)" "$n" -eq "$made"
echo "ok: export: $n info series with the labels each path names"
# each workload's CPU time on its labelled cgroup (sum over nodes, ns): 80%
# of what it measured, as a short run's last slice can be cut at its exit
# (90.7% seen once under TCG); a cgroup that got another's time would be
# far off either way
cpu_s() { awk -v k="numalens_cgroup_cpu_seconds_total{cgroup=\"$1\"," 'index($0, k) == 1 { s += $2 } END { printf "%.0f\n", s * 1e9 }' /tmp/m; }
i=0
for l in $LEAVES; do
	i=$((i + 1))
	w=$(nl_work_field /tmp/w$i.out cpu_ns)
	g=$(cpu_s "$l")
	nl_expect "CPU ns export counts on $l (its nlwork measured $w)" "$g" -ge "$(nl_calc "$w * 0.8")"
done

jv() { nljq -L $J "cgroups[path=$1].$2"; }
want_json() {
	got=$(jv "$1" "$2")
	[ "$got" = "$3" ] || nl_fail "top --json $1: $2 is '$got', expected '$3'"
}
want_json "$K1" pod_uid "$U1"; want_json "$K1" container_id "$C1"
want_json "$K1" container_runtime containerd; want_json "$K1" short_name "pod:1a2b3c4d/ctr:0123456789ab"
want_json "$K2" container_runtime cri-o; want_json "$CONMON" pod_uid null
want_json "$K3" container_runtime null; want_json "$K3" short_name "pod:3c4d5e6f/ctr:2123456789ab"
want_json "$K4" container_runtime docker; want_json "$K4" short_name "ctr:3123456789ab"
want_json "$S2" systemd_unit nlk8s-inner.service
echo "ok: top --json: whole ids, runtimes and short forms"

$NUMALENS top --batch -n 1 -d 0.5 -c /$T > /tmp/top.txt 2>&1 || nl_fail "top --batch: $(tail -2 /tmp/top.txt)"
row() { # row INDENT NAME: a tree row of NAME after INDENT spaces
	grep -q "^$(printf "%$1s" '')$2 " /tmp/top.txt ||
		nl_fail "top --batch: no row '$2' after $1 spaces: $(sed -n '/^CGROUPS/,$p' /tmp/top.txt | cut -c1-60 | tr '\n' '|')"
}
row 8 "pod:1a2b3c4d"
row 10 "pod:1a2b3c4d/ctr:0123456789ab"
row 10 "pod:2b3c4d5e/ctr:1123456789ab"
row 10 "pod:3c4d5e6f/ctr:2123456789ab"
row 6 "ctr:3123456789ab"
row 6 "nlk8s-test.service"
row 12 "nlk8s-inner.service"
echo "ok: top --batch: the short forms in the tree"
kill $EPID; wait $EPID
for d in $(cd $R && find $T -depth -type d); do rmdir "$R/$d" || nl_fail "cannot remove $R/$d"; done
echo "k8s_identity ok"
