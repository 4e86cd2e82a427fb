// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The help window's text: the keys, the columns, the pictures and the
 * markers, in the words the other windows use.
 */
#include "view_sort.h"
#include "tui_help.h"
#include "tui_state.h"

/* Help fits 80 columns; longer than a 24-line screen, it scrolls like the
 * detail view (the footer says how). */
void nl_tui_help_build(struct nl_tui_lines *L)
{
	nl_tui_detail_add(L, "Keys  (Up Down j k PgUp PgDn Home End scroll this help; b or Esc leaves it)");
	nl_tui_detail_add(L, "  q        quit");
	nl_tui_detail_add(L, "  h        home: process view");
	nl_tui_detail_add(L, "  c        cgroup tree view");
	nl_tui_detail_add(L, "  n        node view");
	nl_tui_detail_add(L, "  Enter d  detail of the selected process or cgroup");
	nl_tui_detail_add(L, "  b Esc    back to the previous view");
	nl_tui_detail_add(L, "  Up Down j k PgUp PgDn Home End   move the selection / scroll");
	nl_tui_detail_add(L, "  1..9     sort by:");
	for (int k = 0; k < NL_NR_SORT_KEYS; k++)
		nl_tui_detail_add(L, "             %d  %-8s %s", k + 1, nl_sort_key_name(k),
				  nl_sort_key_about(k));
	nl_tui_detail_add(L, "  /        filter: a pid, a part of a process name, or a cgroup path");
	nl_tui_detail_add(L, "           prefix of whole components (/nu: /nu and /nu/x, not /nu-x)");
	nl_tui_detail_add(L, "           such as /system.slice; empty clears");
	nl_tui_detail_add(L, "  r        refresh now");
	nl_tui_detail_add(L, "  m        node meters on / off");
	nl_tui_detail_add(L, "  ?        this help");
	nl_tui_detail_add(L, "");
	nl_tui_detail_add(L, "Columns");
	nl_tui_detail_add(L, "  CPU%%      on-CPU time / interval (100 = one CPU)");
	nl_tui_detail_add(L, "  RUN%%Nn    share of that time on node n");
	nl_tui_detail_add(L, "  LCL/s     pages/s allocated on the allocating CPU's node");
	nl_tui_detail_add(L, "  RMT/s     pages/s allocated on another node; RMT%% = remote share");
	nl_tui_detail_add(L, "  LOCALITY  CPU-time-weighted NUMA-fault locality");
	nl_tui_detail_add(L, "  LOCBAR    time per 12.5%% locality bucket, \" .:-=+*#@\" = none .. all");
	nl_tui_detail_add(L, "  RSS_Nn    resident MiB on node n; MEM = memory.numa_stat anon+file MiB");
	nl_tui_detail_add(L, "  MIGR      pages migrated; MOVES = NUMA task moves + swaps");
	nl_tui_detail_add(L, "  RCLM/s    pages freed by reclaim per second; AGT/s = by a reclaim agent");
	nl_tui_detail_add(L, "  Nodes: numastat columns are sysfs deltas (allocator calls); BPF_ columns");
	nl_tui_detail_add(L, "         are the mm_page_alloc events numalens counted for the same node");
	nl_tui_detail_add(L, "");
	nl_tui_detail_add(L, "Pictures");
	nl_tui_detail_add(L, "  meters    per node: CPU busy and memory used; green below 60%%,");
	nl_tui_detail_add(L, "            yellow below 85%%, red above (bold without colour). Up to 8");
	nl_tui_detail_add(L, "            nodes as bars, more as one tick per node");
	nl_tui_detail_add(L, "  RMT%%_1m   the last minute of a cgroup's remote share of allocations,");
	nl_tui_detail_add(L, "  LOC_1m    and of its fault-locality median: low to high, oldest left;");
	nl_tui_detail_add(L, "            a blank cell had nothing to show");
	nl_tui_detail_add(L, "  detail    where the process or cgroup runs (rows) against where its");
	nl_tui_detail_add(L, "            memory sits (columns), shaded by the product of the two");
	nl_tui_detail_add(L, "            shares, with the SLIT distances and the expected distance");
	nl_tui_detail_add(L, "            per access if accesses follow the memory (1.00x = local)");
	nl_tui_detail_add(L, "  value!    RMT%% at or above --alert-remote, or LOCALITY at or below");
	nl_tui_detail_add(L, "            --alert-locality (red, or bold without colour; NO_COLOR=1");
	nl_tui_detail_add(L, "            turns colour off)");
	nl_tui_detail_add(L, "");
	nl_tui_detail_add(L, "Markers");
	nl_tui_detail_add(L, "  name*     the process exited during the interval (its last figures)");
	nl_tui_detail_add(L, "  (removed) the cgroup was deleted; its counts stay in its parents");
	nl_tui_detail_add(L, "  ~         a name or path cut to fit the column");
	nl_tui_detail_add(L, "  pod:1a2b3c4d/ctr:0123456789ab  a Kubernetes pod (uid's first 8 hex digits)");
	nl_tui_detail_add(L, "            and its container (id's first 12); Enter shows the whole ids");
	nl_tui_detail_add(L, "  ? CGROUP  the process ended before its cgroup was read (it lived less");
	nl_tui_detail_add(L, "            than one interval); its cgroup's row counts it all the same");
	nl_tui_detail_add(L, "  n/a       no NUMA hinting faults (or no allocations) in the interval");
	nl_tui_detail_add(L, "  unavail   locality cannot be measured here (kernel.numa_balancing=0)");
	nl_tui_detail_add(L, "  -         not known (unreadable numa_maps, no vmscan program, no agent)");
	nl_tui_detail_add(L, "  dry       a reclaim agent in a dry run manages this cgroup");
}
