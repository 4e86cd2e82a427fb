# make bench, section 1's table, from cost.sh's raw records (build/bench/cost.raw):
#   NSEV round= phase= arm= prog= cnt= ns=      one program, one load, one round
#   SLOW run= arm= load= cpu= wall=              one workload run under one arm
#   OWNCPU round= arm= pct=                      own CPU of a top, one round
#   RENDER med= min= max= / SCRAPE ms= / HWM kib=   export at 2,000 x 4
#   RENDERCPU med= min= max= load=               the render's own CPU time
#   GZIP med= min= max= / GZIPCPU ... / GZSIZE text= gzip=   its gzip, once per snapshot
# -v FAULT_PAGES: base pages the page-fault workload allocates, for the
# slowdown the ns/event rows imply (robust where the CPU times are not)
# Every cell: median [min..max] over rounds, or mean +-sd for paired
# differences; the goal beside it; a MISSED line per goal not met.

function f(k,   i, kv) { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] } return "" }
# add(key, v): one more sample of series key
function add(key, v) { vals[key, ++nv[key]] = v }
function sortv(key,   i, j, t, n) {
	n = nv[key]
	for (i = 1; i <= n; i++) sv[i] = vals[key, i] + 0
	for (i = 2; i <= n; i++) { t = sv[i]; for (j = i - 1; j >= 1 && sv[j] > t; j--) sv[j + 1] = sv[j]; sv[j + 1] = t }
	return n
}
function med(key,   n) { n = sortv(key); if (!n) return ""; return n % 2 ? sv[(n + 1) / 2] : (sv[n / 2] + sv[n / 2 + 1]) / 2 }
function mn(key) { return sortv(key) ? sv[1] : "" }
function mx(key,   n) { n = sortv(key); return n ? sv[n] : "" }
function mean(key,   i, s) { if (!nv[key]) return ""; for (i = 1; i <= nv[key]; i++) s += vals[key, i]; return s / nv[key] }
function sd(key,   i, m, q, n) {
	n = nv[key]; if (n < 2) return 0
	m = mean(key); for (i = 1; i <= n; i++) q += (vals[key, i] - m) ^ 2
	return sqrt(q / (n - 1))
}
function cell(key, fmt) {
	if (!nv[key]) return "-"
	return sprintf(fmt " [" fmt ".." fmt "]", med(key), mn(key), mx(key))
}
# mean +-sd, and the median: one slow run (the workload's own time varies
# by a third now and then, every arm alike) moves the mean, not the median
function pm(key) { return nv[key] ? sprintf("%+.1f%% +-%.1f (med %+.1f%%)", mean(key), sd(key), med(key)) : "-" }
# minmin(load, arm): the arm's fastest run against the fastest run without
# numalens (neighbours only ever add time, so the minimum is the least
# disturbed run of each arm)
function minmin(load, arm,   a, b) {
	a = "c" SUBSEP load SUBSEP arm; b = "c" SUBSEP load SUBSEP "none"
	return nv[a] && nv[b] && mn(b) > 0 ? sprintf(" %+.1f%%", 100 * (mn(a) - mn(b)) / mn(b)) : " -"
}
function row(what, a, b, c, r, goal) { printf "%-37s %-24s %-20s %-22s %-30s %s\n", what, a, b, c, r, goal }
function miss(s) { missed[++nm] = s }

$1 == "NSEV" && f("cnt") > 0 { k = f("phase") SUBSEP f("prog") SUBSEP f("round"); per[k, f("arm")] = f("ns") / f("cnt") }
$1 == "SLOW" { cpu[f("run"), f("load"), f("arm")] = f("cpu"); runs[f("run")] = 1; add("c" SUBSEP f("load") SUBSEP f("arm"), f("cpu")) }
$1 == "OWNCPU5" { add("own5" SUBSEP f("arm"), f("ms")) }
$1 == "OWNCPU" { add("own" SUBSEP f("arm"), f("pct")); own[f("round"), f("arm")] = f("pct") }
$1 == "RENDER" { render_med = f("med"); render_min = f("min"); render_max = f("max") }
$1 == "RENDERCPU" { rcpu_med = f("med"); rcpu_min = f("min"); rcpu_max = f("max"); rcpu_load = f("load") }
$1 == "GZIP" { gz_med = f("med"); gz_min = f("min"); gz_max = f("max") }
$1 == "GZIPCPU" { gzc_med = f("med"); gzc_min = f("min"); gzc_max = f("max") }
$1 == "GZSIZE" { gz_text = f("text"); gz_bytes = f("gzip") }
$1 == "SCRAPE" { add("scrape", f("ms")) }
$1 == "HWM" { hwm = f("kib") }
$1 == "NESCRAPE" { add("nescrape", f("ms")) }
$1 == "NODEEXP" { neseries = f("series") }

END {
	# ns/event series and per-round ratios
	for (k in per) {
		split(k, p, SUBSEP)	# phase, prog, round, arm
		add(p[1] SUBSEP p[2] SUBSEP p[4], per[k])
		kk = p[1] SUBSEP p[2] SUBSEP p[3]
		if (p[4] == "numalens" && ((kk, "empty") in per) && per[kk, "empty"] > 0)
			add(p[1] SUBSEP p[2] SUBSEP "r_empty", per[k] / per[kk, "empty"])
		if (p[4] == "numalens" && ((kk, "bpftrace") in per) && per[kk, "bpftrace"] > 0)
			add(p[1] SUBSEP p[2] SUBSEP "r_bt", per[k] / per[kk, "bpftrace"])
	}
	for (r in runs) for (l = 1; l <= 2; l++) {
		load = l == 1 ? "fault" : "pipe"
		b = cpu[r, load, "none"]; if (!(b > 0)) continue
		na = split("top export bpftrace empty topexact exportexact", arms, " ")
		for (a = 1; a <= na; a++) if ((r, load, arms[a]) in cpu)
			add("slow" SUBSEP load SUBSEP arms[a], 100 * (cpu[r, load, arms[a]] - b) / b)
	}
	for (k in own) { split(k, p, SUBSEP); if (p[2] == "numalens" && ((p[1], "procps") in own)) add("own_diff", own[k] - own[p[1], "procps"]) }

	print "   cells: median [min..max] over rounds; slowdowns: paired (arm - none) / none of the same run, mean +-sd"
	row("hook / load", "numalens", "empty program", "bpftrace peer", "ratio nl/empty, nl/bpftrace", "goal")
	split("fault page_alloc;switch sched_switch;long sched_switch;exit process_exit;fault lru_insertion;solo page_alloc;solo lru_insertion;soloexit process_exit", H, ";")
	split("mm_page_alloc, ns/event;sched_switch, ns/event (switches);sched_switch, ns/event (long slices);process exit, ns/event;mm_lru_insertion, ns/event;mm_page_alloc, each arm alone;mm_lru_insertion, each arm alone;process exit, each arm alone", HL, ";")
	split("<=3x empty, < bpftrace;<=3x empty;<=3x empty;<=500 ns;<=2x empty;<=3x empty, < bpftrace;<=2x empty;<=500 ns", G, ";")
	split("3 3 3 0 2 3 2 0", GX, " ")
	# what stands in the way, read in bpf/ and tools/ (the bench cannot see it)
	split("one slot update per event, the pending-slot write for the class join, the cgroup, tgid and mempolicy reads;;the fold into the tgid and cgroup hashes every 4 ms of CPU;two cold cache lines (the ring position and the slot) in the exiting process;the pending-slot join with mm_page_alloc and a slot update per joined page;alone, numalens pays the cold reads of the task's cgroup and mempolicy, the slot and pending lines;the pending-slot join;two cold cache lines (the ring position and the slot) in the exiting process", WHY, ";")
	for (h = 1; h <= 8; h++) {
		split(H[h], x, " "); ph = x[1]; pg = x[2]; lab = HL[h]
		ratio = nv[ph, pg, "r_empty"] ? sprintf("%.2fx", med(ph SUBSEP pg SUBSEP "r_empty")) : "-"
		if (nv[ph, pg, "r_bt"]) ratio = ratio sprintf(", %.2fx", med(ph SUBSEP pg SUBSEP "r_bt"))
		row(lab, cell(ph SUBSEP pg SUBSEP "numalens", "%.0f"), cell(ph SUBSEP pg SUBSEP "empty", "%.0f"),
		    cell(ph SUBSEP pg SUBSEP "bpftrace", "%.0f"), ratio, G[h])
		if (GX[h] > 0 && nv[ph, pg, "r_empty"] && (rm = med(ph SUBSEP pg SUBSEP "r_empty")) > GX[h])
			miss(sprintf("%s: numalens %.0f ns/event is %.2fx the empty program, goal <= %dx: %.0f ns/event over%s", lab, med(ph SUBSEP pg SUBSEP "numalens"), rm, GX[h], med(ph SUBSEP pg SUBSEP "numalens") - GX[h] * med(ph SUBSEP pg SUBSEP "empty"), WHY[h] != "" ? " (in the way: " WHY[h] ")" : ""))
		if ((h == 1 || h == 6) && nv[ph, pg, "r_bt"] && (rb = med(ph SUBSEP pg SUBSEP "r_bt")) >= 1)
			miss(sprintf("%s: numalens is %.2fx bpftrace, goal < 1x (in the way: the one-liner updates one (cgroup, node) count; numalens also reads the page's zone and keeps it for the class join, and reads the tgid and the mempolicy for hit/miss)", lab, rb))
		if ((h == 4 || h == 8) && nv[ph, pg, "numalens"] && med(ph SUBSEP pg SUBSEP "numalens") > 500)
			miss(sprintf("%s: numalens %.0f ns, goal <= 500 ns: %.0f ns over (in the way: %s)", lab, med(ph SUBSEP pg SUBSEP "numalens"), med(ph SUBSEP pg SUBSEP "numalens") - 500, WHY[h]))
	}
	split("fault pipe", L, " "); split("page-fault workload, CPU;perf bench sched pipe, CPU", LL, ";")
	for (l = 1; l <= 2; l++) {
		row(LL[l], "top " pm("slow" SUBSEP L[l] SUBSEP "top"), "-", pm("slow" SUBSEP L[l] SUBSEP "bpftrace"),
		    "fastest run: top" minmin(L[l], "top"), "<= 1% (never > 2%)")
		row("", "export " pm("slow" SUBSEP L[l] SUBSEP "export"), "", "", "export" minmin(L[l], "export") ", bpftrace" minmin(L[l], "bpftrace"), "")
		row("", "top --exact " pm("slow" SUBSEP L[l] SUBSEP "topexact"), "empty " pm("slow" SUBSEP L[l] SUBSEP "empty"), "", "", "")
		row("", "export --exact " pm("slow" SUBSEP L[l] SUBSEP "exportexact"), "", "", "", "")
		if (l == 1 && nv["own5" SUBSEP "export"])
			row("", sprintf("own CPU per 5 s: export %.0f ms, export --exact %.0f ms, top %.0f ms", med("own5" SUBSEP "export"),
			    med("own5" SUBSEP "exportexact"), med("own5" SUBSEP "top")), "", "", "", "")
		if (l == 1 && FAULT_PAGES > 0 && med("c" SUBSEP "fault" SUBSEP "none") > 0) {
			# what the ns/event rows imply: the workload's own allocations
			# and LRU insertions, each at the program's ns/event
			base = med("c" SUBSEP "fault" SUBSEP "none") * 1e9
			floor = 100 * FAULT_PAGES * (med("fault" SUBSEP "page_alloc" SUBSEP "empty") + med("fault" SUBSEP "lru_insertion" SUBSEP "empty")) / base
			if (floor > 1)
				miss(sprintf("page-fault workload: empty programs on mm_page_alloc and mm_lru_insertion alone cost %+.1f%% of its CPU here (ns/event x pages), above the 1%% goal", floor))
			row("", sprintf("(from ns/event: %+.1f%%)", 100 * FAULT_PAGES * (med("fault" SUBSEP "page_alloc" SUBSEP "numalens") + med("fault" SUBSEP "lru_insertion" SUBSEP "numalens")) / base),
			    sprintf("(%+.1f%%)", 100 * FAULT_PAGES * (med("fault" SUBSEP "page_alloc" SUBSEP "empty") + med("fault" SUBSEP "lru_insertion" SUBSEP "empty")) / base),
			    sprintf("(%+.1f%%)", 100 * FAULT_PAGES * med("fault" SUBSEP "page_alloc" SUBSEP "bpftrace") / base),
			    sprintf("%d pages x ns/event / CPU", FAULT_PAGES), "")
		}
		row("", sprintf("(none: %.3f [%.3f..%.3f] s CPU)", med("c" SUBSEP L[l] SUBSEP "none"), mn("c" SUBSEP L[l] SUBSEP "none"), mx("c" SUBSEP L[l] SUBSEP "none")), "", "", "", "")
		# what stands in the way of a slowdown goal: the hooks' own cost
		# per event (the rows above) times the workload's events, and the
		# run-to-run spread of the workload alone on this host
		if (l == 1 && FAULT_PAGES > 0 && med("c" SUBSEP "fault" SUBSEP "none") > 0)
			way = sprintf("in the way: its %d page allocations and LRU insertions at the ns/event above, %+.1f%% of its CPU, of which empty programs alone %+.1f%%; bpftrace on the same run %s",
			    FAULT_PAGES, 100 * FAULT_PAGES * (med("fault" SUBSEP "page_alloc" SUBSEP "numalens") + med("fault" SUBSEP "lru_insertion" SUBSEP "numalens")) / base,
			    floor, pm("slow" SUBSEP L[l] SUBSEP "bpftrace"))
		else
			way = sprintf("in the way: sched_switch's cost per switch (the rows above), about two switches a round trip; bpftrace on the same run %s",
			    pm("slow" SUBSEP L[l] SUBSEP "bpftrace"))
		for (a = 1; a <= 2; a++) {
			arm = a == 1 ? "top" : "export"; k = "slow" SUBSEP L[l] SUBSEP arm
			if (nv[k] && mean(k) > 1)
				miss(sprintf("%s with numalens %s: %+.1f%% +-%.1f, goal <= 1%%: %.1f points over%s (%s)", LL[l], arm, mean(k), sd(k), mean(k) - 1,
				     mean(k) - sd(k) <= 1 ? ", within one sd of the goal" : "", way))
		}
	}
	row("own CPU %, top -d 1, +" EXTRA " procs", cell("own" SUBSEP "numalens", "%.2f"), "-", "procps " cell("own" SUBSEP "procps", "%.2f"),
	    nv["own_diff"] ? sprintf("diff %+.2f +-%.2f pts", mean("own_diff"), sd("own_diff")) : "", "<= procps top")
	if (nv["own_diff"] && med("own" SUBSEP "numalens") > med("own" SUBSEP "procps"))
		miss(sprintf("own CPU: numalens top %.2f%% vs procps top %.2f%% (medians): %.2f points over (in the way: numa_maps walks of each new busy process and, every 5 s, of the busiest and largest (guests of 0.4-1 GiB: 10-25 ms each); on a host with several memory nodes also of those that grew or allocated over 1/256 of their last reading, each second; the /proc listing and two reads per process that ran, each second)", med("own" SUBSEP "numalens"), med("own" SUBSEP "procps"), med("own" SUBSEP "numalens") - med("own" SUBSEP "procps")))
	row("export 2000 cgroups x 4 nodes", hwm ? sprintf("peak RSS %.1f MiB", hwm / 1024) : "-", "", "", "", "<= 64 MiB")
	row("", render_med != "" ? sprintf("render %s [%s..%s] ms", render_med, render_min, render_max) : "-", "", "", "", "<= 20 ms")
	if (rcpu_med != "")
		row("", sprintf("its CPU %s [%s..%s] ms", rcpu_med, rcpu_min, rcpu_max), "", "", "", "(render's own CPU time)")
	if (gz_med != "")
		row("", sprintf("gzip %s [%s..%s] ms", gz_med, gz_min, gz_max),
		    gzc_med != "" ? sprintf("its CPU %s [%s..%s] ms", gzc_med, gzc_min, gzc_max) : "",
		    gz_bytes != "" ? sprintf("%.2f of %.1f MiB", gz_bytes / 1048576, gz_text / 1048576) : "", "",
		    "(once per snapshot)")
	row("", "scrape " cell("scrape", "%.1f") " ms", "", "", "", "(gzip, incl. HTTP)")
	if (hwm > 65536) miss(sprintf("export peak RSS %.1f MiB, goal <= 64 MiB: %.1f MiB over (in the way: the rows of the snapshot being built beside the published one and its text)", hwm / 1024, (hwm - 65536) / 1024))
	if (render_med > 20) miss(sprintf("export render %s ms (median), goal <= 20 ms: %.1f ms over%s", render_med, render_med - 20,
	    rcpu_med != "" && rcpu_med <= 20 ? sprintf(" (in the way: its own CPU is %s ms, the rest waiting for a CPU at load %s)", rcpu_med, rcpu_load) : ""))
	if (nv["nescrape"])
		row("node_exporter, same host (scale)", "scrape " cell("nescrape", "%.1f") " ms", "", "", neseries != "" ? neseries " series" : "", "(gzip, incl. HTTP)")
	else
		print "   node_exporter scrape latency: not measured (no node_exporter: 'make bench-deps' unpacks it into build/test-tools)"
	for (i = 1; i <= nm; i++) print "   MISSED " missed[i]
	if (!nm) print "   every goal met"
}
