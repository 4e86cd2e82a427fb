// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The lines around the window: the title with the sources, the node
 * meters, the view line (sort key and filter) and the footer with the
 * keys or the filter prompt. The same on every window, so they live apart.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "names.h"
#include "view_fmt.h"
#include "tui_head.h"
#include "tui_draw.h"
#include "tui_state.h"

static const char *view_name(enum nl_tui_view v)
{
	switch (v) {
	case NL_TUI_VIEW_PROC: return "Processes";
	case NL_TUI_VIEW_CGROUP: return "Cgroups (tree)";
	case NL_TUI_VIEW_NODE: return "Nodes";
	case NL_TUI_VIEW_DETAIL: return "Detail";
	case NL_TUI_VIEW_HELP: return "Help";
	}
	return "?";
}

void nl_tui_head_title(struct nl_tui *t)
{
	const struct nl_snapshot *s = &t->snap;
	char ts[32] = "--:--:--", filt[512] = "";
	time_t sec = (time_t)(s->timestamp_ns / 1000000000ull);
	struct tm tm;

	if (t->have_snap && localtime_r(&sec, &tm))
		strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	nl_tui_draw_line(0, A_BOLD, "numalens top  seq %llu  %s  interval %.2f s  kernel %s",
		(unsigned long long)s->seq, ts, s->interval_ns / 1e9,
		s->kernel[0] ? s->kernel : "?");
	if (!t->have_snap) {
		nl_tui_draw_line(1, 0, "waiting for the first interval...");
	} else {
		char missing[sizeof(s->src.missing)], loc[64];

		/* on one node there is nothing to be remote from: locality is
		 * moot (the kernel runs no NUMA balancing there), so neither
		 * it nor its missing entries are shown; elsewhere the field
		 * says why it is off, with the fix, once */
		nl_snapshot_missing_without(missing, sizeof(missing), s->src.missing,
				   s->nr_nodes == 1 ? "locality:" : "locality: NUMA balancing is off");
		if (s->nr_nodes == 1)
			snprintf(loc, sizeof(loc), "one node: every page is local");
		else
			snprintf(loc, sizeof(loc), "locality: %s", nl_fmt_locality_source_ok(s) ? "on" :
				 (s->src.numa_balancing ? "unavail (no sched program)" :
				  "off (sysctl kernel.numa_balancing=1 turns it on)"));
		char alloc[32];

		/* sampled: the allocation figures are estimates (--exact) */
		if (s->src.alloc && s->src.alloc_sample_period > 1)
			snprintf(alloc, sizeof(alloc), "sampled 1/%u", s->src.alloc_sample_period);
		else
			snprintf(alloc, sizeof(alloc), "%s", s->src.alloc ? "on" : "off");
		nl_tui_draw_line(1, 0, "%s  alloc: %s  migrate: %s  %s%s", loc,
			alloc, s->src.migrate ? "on" : "off",
			missing[0] ? "missing: " : "", missing);
	}
	if (t->opts.filter.pid > 0)
		snprintf(filt, sizeof(filt), "  filter: pid %d", (int)t->opts.filter.pid);
	else if (t->opts.filter.cgroup[0] || t->opts.filter.comm[0]) {
		/* typed text, shown cleaned like every name: -c may hold escape sequences */
		const char *typed = t->opts.filter.cgroup[0] ? t->opts.filter.cgroup : t->opts.filter.comm;
		char shown[448];	/* 100 columns of up to 4 bytes, "..." */

		nl_name_clean(shown, sizeof(shown), typed, strlen(typed), 0, NULL);
		if (nl_name_text_cols(shown) > 100)	/* a header line */
			strcpy(shown + nl_name_text_head(shown, 100, NULL), "...");
		snprintf(filt, sizeof(filt), "  filter: %s %s", t->opts.filter.cgroup[0] ? "cgroup" : "name",
			 shown);
	}
	nl_tui_draw_line(2 + t->meter_rows, A_BOLD, "[%s]  sort: %s (key %d)%s", view_name(t->view),
		nl_sort_key_name(t->opts.sort), t->opts.sort + 1, filt);
}

/* --- node meters ---------------------------------------------------------- */

/* A node's CPU busy and memory used, as fractions (NaN: unknown). */
static double node_cpu_frac(const struct nl_node *n)
{
	return isfinite(n->cpu_busy_pct) ? n->cpu_busy_pct / 100.0 : NAN;
}

static double node_mem_frac(const struct nl_node *n)
{
	return n->mem_total_bytes ? (double)n->mem_used_bytes / (double)n->mem_total_bytes : NAN;
}

/* Meter blocks per row at this width for @nr nodes (up to 8: a block of
 * about 40 cells each; more nodes fold into one tick per node). */
static int meter_per_row(int nr)
{
	int k = (COLS + 1) / 40;

	if (k < 1)
		k = 1;
	return k < nr ? k : nr;
}

/* Rows the meters need on this screen: 0 when off or without nodes. */
int nl_tui_head_meter_rows(const struct nl_tui *t)
{
	int nr = t->snap.nr_nodes, w = COLS - 6;

	if (!t->meters || !t->have_snap || nr <= 0 || t->view == NL_TUI_VIEW_HELP)
		return 0;
	if (nr <= NL_PIC_MAX_NODES)
		return (nr + meter_per_row(nr) - 1) / meter_per_row(nr);
	return 2 * ((nr + w - 1) / (w > 0 ? w : 1));
}

/* Up to 8 nodes: "N0 cpu[|||   37%] mem[||||| 62%]" blocks, coloured by
 * level (green below 60%, yellow below 85%, red above). */
static void draw_meter_blocks(const struct nl_tui *t, int y0)
{
	const struct nl_snapshot *s = &t->snap;
	int per = meter_per_row(s->nr_nodes), bw = (COLS + 1) / per - 1, mw = (bw - 12) / 2;
	char m[64], lab[16];

	if (mw > 30)
		mw = 30;
	for (int i = 0; i < s->nr_nodes; i++) {
		const struct nl_node *n = &s->nodes[i];
		int y = y0 + i / per, x = (i % per) * (bw + 1);
		double c = node_cpu_frac(n), mf = node_mem_frac(n);

		if (y >= LINES - 1)
			return;
		if (i % per == 0) {
			move(y, 0);
			clrtoeol();
		}
		move(y, x);
		snprintf(lab, sizeof(lab), "N%-2d ", n->nid % 1000);
		nl_tui_draw_cells(A_BOLD, lab);
		nl_tui_draw_cells(0, "cpu");
		nl_tui_draw_cells(nl_tui_draw_level_attr(t, nl_pic_level(c)),
				  nl_pic_meter(m, sizeof(m), mw, c));
		nl_tui_draw_cells(0, " mem");
		nl_tui_draw_cells(nl_tui_draw_level_attr(t, nl_pic_level(mf)),
				  nl_pic_meter(m, sizeof(m), mw, mf));
	}
}

/* More than 8 nodes: per row of nodes, "cpu% " and "mem% " lines of one
 * tick per node, coloured by level, folded over as many rows as the width
 * needs. */
static void draw_meter_ticks(const struct nl_tui *t, int y0)
{
	const struct nl_snapshot *s = &t->snap;
	int w = COLS - 6, y = y0;

	for (int first = 0; first < s->nr_nodes && w > 0; first += w) {
		for (int what = 0; what < 2; what++, y++) {
			if (y >= LINES - 1)
				return;
			move(y, 0);
			clrtoeol();
			nl_tui_draw_cells(A_BOLD, what ? "mem% " : "cpu% ");
			for (int i = first; i < s->nr_nodes && i < first + w; i++) {
				double f = what ? node_mem_frac(&s->nodes[i]) : node_cpu_frac(&s->nodes[i]);

				nl_tui_draw_cells(nl_tui_draw_level_attr(t, nl_pic_level(f)),
						  nl_pic_tick(f, nl_tui_draw_utf8()));
			}
		}
	}
}

void nl_tui_head_meters(const struct nl_tui *t)
{
	if (!t->meter_rows)
		return;
	if (t->snap.nr_nodes <= NL_PIC_MAX_NODES)
		draw_meter_blocks(t, 2);
	else
		draw_meter_ticks(t, 2);
}

void nl_tui_head_footer(struct nl_tui *t)
{
	if (t->prompt)
		nl_tui_draw_line(LINES - 1, A_BOLD, "filter (pid, name or /cgroup, empty clears): %s_",
				 t->pbuf);
	else if (t->msg[0])
		nl_tui_draw_line(LINES - 1, A_BOLD, "%s", t->msg);
	else
		nl_tui_draw_line(LINES - 1, A_REVERSE, "%s", COLS >= 92 ?
			"q quit  h procs  c cgroups  n nodes  d detail  b back  / filter  1-9 sort  m meters  ? help" :
			"q quit  h c n views  d detail  b back  / filter  1-9 sort  m meters  ? help");
}
