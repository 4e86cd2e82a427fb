# Global reclaim contexts: no memcg limit; a 360 MiB file written
# and read back on an ext2 virtio disk with the page cache bound to node 3
# (256 MiB here: more than it holds) forces kswapd of node 3 and direct reclaim. numalens' kswapd +
# direct freed pages (every cgroup, from the node view) must match the
# kernel's /proc/vmstat pgsteal_kswapd + pgsteal_direct deltas within 5%,
# >= 90% of them on node 3; kswapd's pages are charged to the root (it works
# for every memcg), the direct reclaim to the cgroup of the task doing it.
# Then 16M written to /sys/devices/system/node/node3/reclaim must show as
# proactive reclaim on node 3, charged to the root, within 5% of
# /proc/vmstat pgsteal_proactive. Last, 32 MiB of anon memory paged out
# with MADV_PAGEOUT (to zram swap) shows as pageout_* pages of the proactive
# context, charged to the task's cgroup, matching the cgroup's pswpout less
# what stayed in its swap cache.
# vm: nodes=4 cpus_per_node=1 mem_per_node=256M timeout=170 modules=zram,virtio_blk,ext4 disk=448M
. /nl/lib.sh
nl_need_numalens
nl_mount_disk
CG=/sys/fs/cgroup/vmscan-g
mkdir "$CG" || nl_fail "cannot create $CG"
vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
J=/tmp/global.jsonl
k0=$(vm pgsteal_kswapd); d0=$(vm pgsteal_direct)
taskset -c 0 "$NUMALENS" vmscan --json -d 1 -n 0 > $J 2> $J.err &
VS=$!
i=0
while [ ! -s $J ]; do
	kill -0 $VS 2>/dev/null || nl_fail "numalens vmscan exited early: $(tail -2 $J.err | tr '\n' ' ')"
	i=$((i + 1)); [ $i -le 300 ] || nl_fail "numalens vmscan wrote nothing in 30 s"
	sleep 0.1
done
sh -c "echo \$\$ > $CG/cgroup.procs && exec nlwork --cpu 3 --node 3 --file 360 --file-path /mnt/d/f" \
	> /tmp/work.out 2>&1 || nl_fail "nlwork failed: $(cat /tmp/work.out)"
# let kswapd go back to sleep (its episode ends there): until pgsteal_kswapd
# stays put for 0.5 s, at most 60 s; then one more vmscan interval
i=0; kp=-1
while [ "$(vm pgsteal_kswapd)" != "$kp" ] && [ $i -lt 120 ]; do kp=$(vm pgsteal_kswapd); sleep 0.5; i=$((i + 1)); done
n=$(wc -l < $J); i=0
while [ "$(wc -l < $J)" -le "$n" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $VS; wait $VS || nl_fail "numalens vmscan exited $?: $(tail -2 $J.err | tr '\n' ' ')"
k1=$(vm pgsteal_kswapd); d1=$(vm pgsteal_direct)
cat /tmp/work.out
q() { nljq -L $J "$1"; }
kf=0 df=0
for n in 0 1 2 3; do
	kf=$((kf + $(q "nodes[nid=$n].freed_pages_by_kswapd")))
	df=$((df + $(q "nodes[nid=$n].freed_pages_by_direct")))
done
k3=$(q "nodes[nid=3].freed_pages_by_kswapd"); d3=$(q "nodes[nid=3].freed_pages_by_direct")
rk=$(q "cgroups[path=/].freed_pages_by_kswapd"); gd=$(q "cgroups[path=/vmscan-g].freed_pages_by_direct")
gk=$(q "cgroups[path=/vmscan-g].freed_pages_by_kswapd")
echo "/proc/vmstat: pgsteal_kswapd +$((k1 - k0)) pgsteal_direct +$((d1 - d0))"
echo "numalens: kswapd freed $kf (node 3: $k3, root: $rk), direct freed $df (node 3: $d3, /vmscan-g: $gd)"
echo "kswapd: episodes $(q "cgroups[path=/].episodes_by_kswapd") elapsed_ns $(q "cgroups[path=/].elapsed_ns_by_kswapd")"
nl_expect "global reclaim freed (pages)" "$((kf + df))" -ge $((100 * 256))
nl_within "kswapd + direct freed vs /proc/vmstat pgsteal_kswapd + pgsteal_direct" "$((kf + df))" "$((k1 - k0 + d1 - d0))" 5
nl_expect "share of global reclaim on node 3" "$(nl_calc "($k3 + $d3) / ($kf + $df)")" -ge 0.90
nl_expect "kswapd freed pages" "$kf" -gt 0
nl_expect "kswapd episodes" "$(q "cgroups[path=/].episodes_by_kswapd")" -gt 0
nl_expect "kswapd's pages charged to the root" "$rk" -eq "$kf"
nl_expect "kswapd's pages charged to /vmscan-g" "$gk" -eq 0
if [ "$df" -gt 0 ]; then
	nl_expect "share of direct reclaim charged to the reclaiming task's cgroup" "$(nl_calc "$gd / $df")" -ge 0.90
fi

# --- node reclaim through sysfs: proactive, node-wide (charged to the root)
NR=/sys/devices/system/node/node3/reclaim
if [ -w $NR ]; then
	J=/tmp/node.jsonl
	p0=$(vm pgsteal_proactive)
	taskset -c 0 "$NUMALENS" vmscan --json -d 1 -n 0 > $J 2> $J.err &
	VS=$!
	i=0
	while [ ! -s $J ]; do
		kill -0 $VS 2>/dev/null || nl_fail "numalens vmscan exited early: $(tail -2 $J.err | tr '\n' ' ')"
		i=$((i + 1)); [ $i -le 300 ] || nl_fail "numalens vmscan wrote nothing in 30 s"
		sleep 0.1
	done
	echo 16M > $NR || nl_fail "writing 16M to $NR failed"
	kill -INT $VS; wait $VS || nl_fail "numalens vmscan exited $?"
	p1=$(vm pgsteal_proactive)
	pf=$(nljq -L $J "nodes[nid=3].freed_pages_by_proactive"); rp=$(nljq -L $J "cgroups[path=/].freed_pages_by_proactive")
	lf=$(nljq -L $J "nodes[nid=3].freed_pages_by_limit"); df=$(nljq -L $J "nodes[nid=3].freed_pages_by_direct")
	echo "node reclaim 16M on node 3: /proc/vmstat pgsteal_proactive +$((p1 - p0)); numalens proactive freed on node 3 $pf (root $rp), limit $lf, direct $df"
	nl_expect "node reclaim: proactive freed on node 3 (16M asked)" "$pf" -ge $((12 * 256))
	nl_within "node reclaim: proactive freed vs /proc/vmstat pgsteal_proactive" "$pf" "$((p1 - p0))" 5
	nl_expect "node reclaim: charged to the root" "$rp" -eq "$pf"
	nl_expect "node reclaim: counted as limit or direct" "$((lf + df))" -eq 0
else
	echo "no $NR in this kernel: node reclaim not checked"
fi

# --- MADV_PAGEOUT (mm_vmscan_reclaim_pages): proactive, the task's cgroup
echo 128M > /sys/block/zram0/disksize || nl_fail "zram0 disksize"
mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || nl_fail "swapon /dev/zram0 failed"
J=/tmp/pageout.jsonl
# What MADV_PAGEOUT freed is what it wrote to swap less what it wrote but
# could not free: reclaim frees a written folio only if it can lock it and
# no one else holds a reference right then, else the folio stays in the
# swap cache (on the LRU, unmapped). The memory is 16 THPs here, so one
# such folio is 512 pages; a run at a host load of about 20 saw 7680 freed
# against pswpout +8192 (its swap cache was not logged: the likely cause).
# So the cgroup's own figures, read while the workload still holds its
# memory (exiting drops its swap cache), after the statistics settled:
# its pswpout less the growth of its swap cache. /proc/vmstat pswpout
# would also count any other swapping in the guest.
ms() { awk -v k="$1" '$1 == k { print $2 }' "$CG/memory.stat"; }
nl_memcg_settle "$CG"
w0=$(vm pswpout); t0=$(vm thp_swpout); m0=$(ms pswpout); c0=$(ms swapcached)
taskset -c 0 "$NUMALENS" vmscan --json -d 1 -n 0 > $J 2> $J.err &
VS=$!
i=0
while [ ! -s $J ]; do
	kill -0 $VS 2>/dev/null || nl_fail "numalens vmscan exited early: $(tail -2 $J.err | tr '\n' ' ')"
	i=$((i + 1)); [ $i -le 300 ] || nl_fail "numalens vmscan wrote nothing in 30 s"
	sleep 0.1
done
sh -c "echo \$\$ > $CG/cgroup.procs && exec nlwork --cpu 1 --node 1 --anon 32 --pageout \
	--ready-file /tmp/pageout.ready --hold 600" > /tmp/work2.out 2>&1 &
WP=$!
i=0
while [ ! -s /tmp/pageout.ready ]; do
	kill -0 $WP 2>/dev/null || nl_fail "nlwork --pageout failed: $(cat /tmp/work2.out)"
	i=$((i + 1)); [ $i -le 1200 ] || nl_fail "nlwork --pageout not done in 120 s"
	sleep 0.1
done
nl_memcg_settle "$CG"
w1=$(vm pswpout); t1=$(vm thp_swpout); m1=$(ms pswpout); c1=$(ms swapcached)
kill -INT $VS; wait $VS || nl_fail "numalens vmscan exited $?"
kill $WP; wait $WP 2>/dev/null
if [ -z "$m0" ]; then
	echo "memory.stat has no pswpout here: /proc/vmstat's stands in"
	m0=$w0 m1=$w1
fi
wrote=$((m1 - m0)) kept=$((c1 - c0))
po=$(nljq -L $J "cgroups[path=/vmscan-g].pageout_freed_pages_by_proactive")
ps=$(nljq -L $J "cgroups[path=/vmscan-g].pageout_scanned_pages_by_proactive")
pn=$(nljq -L $J "nodes[nid=1].pageout_freed_pages_by_proactive")
ok=$(nljq -L $J "nodes[nid=1].freed_anon_pages_by_kswapd"); od=$(nljq -L $J "nodes[nid=1].freed_anon_pages_by_direct")
echo "MADV_PAGEOUT 32 MiB: /vmscan-g pswpout +$wrote, swapcached $c0 -> $c1; /proc/vmstat pswpout +$((w1 - w0)) thp_swpout +$((t1 - t0))"
echo "numalens pageout scanned $ps freed $po (node 1: $pn); other anon freed on node 1: kswapd $ok, direct $od"
nl_expect "pageout: freed pages (32 MiB paged out)" "$po" -ge $((32 * 256 * 9 / 10))
nl_expect "pageout: freed <= scanned" "$po" -le "$ps"
nl_expect "pageout: freed on node 1 (all of it)" "$pn" -eq "$po"
nl_within "pageout: freed vs the cgroup's pswpout less the growth of its swap cache" "$po" "$((wrote - kept))" 5
echo "vmscan_global ok"
