# Tickets for what lru_gen can free cold, anon included when swap can take
# it (--anon-rule swap). One cgroup holds 16 MiB of page cache read with
# read(2) on node 0 and 24 / 8 MiB of anon on nodes 1 / 3, zram swap on:
# the shape of the 2011 run's cgroup when its page cache is mostly
# readahead not yet mapped. The default rule (intent) leaves the anon out
# while page cache is plentiful (16 MiB x 140 > 32 MiB x 61 at swappiness
# 60) and lru_gen leaves unmapped page cache to the kernel, so no node
# gets a ticket and the agent frees nothing. With --anon-rule swap nodes 1
# and 3 get tickets in proportion to their anon (3 : 1), the lottery draws
# node 1 more and node 0 (its worker's few anon pages) rarely, and a real
# agent asked for a few MiB evicts anon from node 1 to zram.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=300 modules=zram,virtio_blk,ext4 disk=64M
. /nl/lib.sh
nl_need_numalens
echo 512M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 ||
	nl_fail "zram swap setup failed"
[ -b /dev/vda ] || nl_fail "no /dev/vda (disk=)"
mke2fs -q /dev/vda > /dev/null 2>&1 && mkdir -p /mnt/d || nl_fail "mke2fs /dev/vda"
mount -t ext4 /dev/vda /mnt/d 2>/dev/null || mount -t ext2 /dev/vda /mnt/d || nl_fail "mount /dev/vda"
CG=/sys/fs/cgroup
mkdir $CG/ras || nl_fail "cannot make /ras"
# pages of key K on node N in the cgroup's memory.numa_stat
pages_of() { awk -v k="$1" -v n="N$2=" '$1 == k { for (i = 2; i <= NF; i++) if (index($i, n) == 1) print int(substr($i, length(n) + 1) / 4096) }' $CG/ras/memory.numa_stat; }
start() {	# NAME NODE ARGS...
	local name=$1 node=$2; shift 2
	sh -c "echo \$\$ > $CG/ras/cgroup.procs; exec nlwork --cpu $(nl_first_cpu_of_node $node) --node $node $* --ready-file /tmp/rdy.$name --hold 600" > /tmp/$name.out 2>&1 &
}
start f 0 --file 16 --file-path /mnt/d/f
start a1 1 --anon 24
start a3 3 --anon 8
for n in f a1 a3; do nl_wait_file /tmp/rdy.$n 120 || nl_fail "$n not ready: $(cat /tmp/$n.out)"; done
sync
echo "before: file N0=$(pages_of file 0) (mapped $(pages_of file_mapped 0)) anon N1=$(pages_of anon 1) N3=$(pages_of anon 3) pages, usage $(cat $CG/ras/memory.current)"
# tickets N0=[a,b) ...: width of node N's interval (0 when it has none)
tickets_of() { sed -n 's/^tickets //p' "$1" | tail -1 | tr ' ' '\n' | sed -n "s/^N$2=\[\([0-9]*\),\([0-9]*\))/\1 \2/p" | awk '{ print $2 - $1 } END { if (!NR) print 0 }'; }
draws_of() { sed -n 's/^draws agent: //p' "$1" | tail -1 | tr ' ' '\n' | sed -n "s/^N$2=//p" | awk '{ print $1 } END { if (!NR) print 0 }'; }
# dry runs: usage stays above --high, so the lottery keeps drawing
for rule in intent swap; do
	$NUMALENS reclaim --dry-run --anon-rule $rule --high 8M --low 4M -i 0.2 -d 8 /ras > /tmp/d.$rule 2>&1 ||
		nl_fail "dry run ($rule) exit $?: $(tail -3 /tmp/d.$rule)"
	grep -E '^tickets|^draws agent|^scan_weight=' /tmp/d.$rule | sed "s/^/$rule: /"
done
grep -q 'backend lru_gen' /tmp/d.swap || nl_fail "lru_gen backend not in use: $(head -2 /tmp/d.swap)"
nl_expect "intent: node 1 tickets (anon left out)" "$(tickets_of /tmp/d.intent 1)" -eq 0
nl_expect "intent: node 3 tickets" "$(tickets_of /tmp/d.intent 3)" -eq 0
t1=$(tickets_of /tmp/d.swap 1); t3=$(tickets_of /tmp/d.swap 3)
nl_expect "swap: node 1 tickets" "$t1" -gt 0
nl_expect "swap: node 3 tickets" "$t3" -gt 0
# 24 : 8 MiB of anon, give or take the workers' own few pages
nl_expect "swap: node 1 tickets / node 3 (x100, anon 24:8 MiB)" "$((t1 * 100 / t3))" -ge 240
nl_expect "swap: node 1 tickets / node 3 (x100)" "$((t1 * 100 / t3))" -le 380
d1=$(draws_of /tmp/d.swap 1); d3=$(draws_of /tmp/d.swap 3)
nl_expect "swap: draws on node 1" "$d1" -gt 0
nl_expect "swap: draws on node 1 against node 3" "$d1" -gt "$d3"
# node 0 holds only its worker's own few anon pages beside the read(2) cache
nl_expect "swap: draws on node 0 (x10, read(2) page cache left out)" "$(($(draws_of /tmp/d.swap 0) * 10))" -le "$((d1 + d3))"
nl_expect "intent: draws on nodes 1 and 3" "$(($(draws_of /tmp/d.intent 1) + $(draws_of /tmp/d.intent 3)))" -eq 0
# real agents, each asked for about 6 MiB below the usage it finds
for rule in intent swap; do
	u=$(($(cat $CG/ras/memory.current) / 1048576))
	an=$(pages_of anon 1)
	$NUMALENS reclaim -v --anon-rule $rule --step 256 --cold-ms 300 --high $((u - 2))M --low $((u - 6))M -i 0.3 -d 8 /ras > /tmp/r.$rule 2>&1 ||
		nl_fail "agent ($rule) exit $?: $(tail -3 /tmp/r.$rule)"
	grep -E '^reclaimed|^draws agent' /tmp/r.$rule | sed "s/^/$rule: /"
	echo "$rule: node 1 anon $an -> $(pages_of anon 1) pages"
	eval "an1_$rule=$((an - $(pages_of anon 1)))"
done
nl_expect "intent agent: node 1 anon pages evicted" "$an1_intent" -le 256
nl_expect "swap agent: node 1 anon pages evicted" "$an1_swap" -ge 256
kill %1 %2 %3 2>/dev/null; wait
echo "reclaim_anon_swap ok"
