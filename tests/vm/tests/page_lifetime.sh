# top --page-lifetime: pages timed from allocation to free. nlwork on node
# 1's CPU writes 64 MiB bound to node 3 (base pages, THP off), keeps it for
# 0.3 s and unmaps it, then lives on for 1 s: it measures itself the
# shortest and longest life any of those pages can have had (unmap start -
# touch end, unmap end - touch start). With every allocation timed
# (--page-lifetime=1), the remote movable histogram holds at least 95% of
# nlwork's pages, and at least 95% of them in the log2 buckets between
# those two lives (freed at exit, 1 s later, they would sit in a higher
# bucket). With one in 8 timed, the timed share is between 1/16 and 1/4.
# With every allocation timed and 320 MiB held at once (81,920 pages, more
# than the 65,536 timed pages the map follows), the samples the map had no
# room for are counted as not kept: at least nlwork's pages - 65,536, and
# timed + not kept = every allocation seen, within 1%.
# vm: nodes=4 cpus_per_node=1 mem_per_node=512M timeout=400 kernels=default,6.12
. /nl/lib.sh
nl_need_numalens
taskset -p -c 0 $$ > /dev/null
echo never > /sys/kernel/mm/transparent_hugepage/enabled
cpu1=$(nl_first_cpu_of_node 1)

# log2 floor of a positive integer
log2() {
	awk -v v="$1" 'BEGIN { b = 0; while (v >= 2) { v /= 2; b++ } print b }'
}

# run_case OUT N [NLWORK_ARGS]: top --page-lifetime=N around nlwork (by
# default 64 MiB kept 0.3 s); sets PAGES, LO, HI.
run_case() {
	local out=$1 n=$2
	shift 2
	[ $# -gt 0 ] || set -- --anon 64 --lifetime 0.3
	nl_top "$out" 1 600 --page-lifetime="$n" --self-cost
	nlwork --cpu "$cpu1" --node 3 "$@" --hold 1 > "$out.work" 2>&1 &
	PID=$!
	set -- "$out"
	wait $PID || nl_fail "nlwork failed: $(cat "$1.work")"
	cat "$1.work"
	nl_top_until_gone "$1" $PID
	PAGES=$(nl_work_field "$1.work" touched_pages)
	LO=$(nl_work_field "$1.work" life_min_ns)
	HI=$(nl_work_field "$1.work" life_max_ns)
	[ "$(nljq -L "$1" page_lifetime.available)" = true ] ||
		nl_fail "page_lifetime unavailable: $(nljq -L "$1" page_lifetime.unavailable_reason)"
	for k in allocations sampled not_kept freed; do
		printf '%s=%s ' $k "$(nl_sum "$1" page_lifetime.$k)"
	done
	echo "bpf_ns_per_run=$(nljq "$1" page_lifetime.bpf_ns_per_run | grep -v null | sort -n | sed -n '1p;$p' | tr '\n' ' ')"
}

J=/tmp/life1.jsonl
run_case $J 1
# remote movable: place remote (1) x 4 classes + movable (2)
RM=6
total=$(nl_sum $J "page_lifetime.hists[$RM].count")
blo=$(log2 "$LO")
bhi=$(log2 "$HI")
inside=0 b=0
# one nljq pass for the 48 buckets (a pass per bucket took minutes on a
# loaded host's guest)
for n in $(nljq -s $J $(for k in $(seq 0 47); do echo "page_lifetime.hists[$RM].buckets[$k]"; done)); do
	[ "$n" != 0 ] && echo "remote movable bucket $b [2^$b ns): $n"
	[ $b -ge $blo ] && [ $b -le $bhi ] && inside=$((inside + n))
	b=$((b + 1))
done
echo "nlwork: $PAGES pages, life between $LO and $HI ns (buckets $blo..$bhi); remote movable freed $total, $inside inside"
nl_expect "remote movable pages freed (nlwork's $PAGES on node 3 from node 1)" "$total" -ge $((PAGES * 95 / 100))
nl_expect "of nlwork's pages, freed with a life in buckets $blo..$bhi" "$inside" -ge $((PAGES * 95 / 100))

J=/tmp/life8.jsonl
run_case $J 8
allocs=$(nl_sum $J page_lifetime.allocations)
sampled=$(nl_sum $J page_lifetime.sampled)
echo "one in 8: allocations $allocs, timed $sampled"
nl_expect "timed share with one in 8 (x16)" "$(nl_calc "$sampled * 16 / $allocs")" -ge 1
nl_expect "timed share with one in 8 (x4)" "$(nl_calc "$sampled * 4 / $allocs")" -le 1

J=/tmp/life_full.jsonl
run_case $J 1 --anon 320
allocs=$(nl_sum $J page_lifetime.allocations)
sampled=$(nl_sum $J page_lifetime.sampled)
nk=$(nl_sum $J page_lifetime.not_kept)
echo "every one timed, $PAGES pages held: allocations $allocs, timed $sampled, not kept $nk"
nl_expect "not kept (nlwork held $PAGES pages at once, the map follows 65536)" "$nk" -ge $((PAGES - 65536))
nl_within "timed + not kept against every allocation seen" $((sampled + nk)) "$allocs" 1
echo "page_lifetime ok"
