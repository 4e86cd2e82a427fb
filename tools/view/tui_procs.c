// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The process window (home): one row per process, sorted and filtered as
 * the view options say, with its figures and its resident memory by node.
 */
#include <stdio.h>
#include "view_fmt.h"
#include "tui_procs.h"
#include "tui_draw.h"
#include "tui_state.h"

enum { PC_PID = FC_END, PC_COMM, PC_RSS, PC_RSSN, PC_MIGR, PC_CGROUP };

static void proc_cell(struct nl_tui *t, const void *row, int kind, int ni, char *b, size_t sz,
		      attr_t *own)
{
	const struct nl_snapshot *s = &t->snap;
	const struct nl_proc *p = row;
	int nid = ni >= 0 ? s->nodes[ni].nid : 0;
	bool nid_ok = nid >= 0 && nid < NL_MAX_NODES;
	uint64_t rss;

	if (nl_tui_draw_figs_cell(t, &p->f, kind, ni, b, sz, own))
		return;
	switch (kind) {
	case PC_PID: snprintf(b, sz, "%d", (int)p->pid); break;
	case PC_COMM: snprintf(b, sz, "%s%s", p->comm, p->alive ? "" : "*"); break;
	case PC_RSS:
		if (nl_fmt_proc_rss_pages(p, s->nr_nodes, &rss))
			snprintf(b, sz, "%.1f", rss * (double)s->page_size / MIB);
		else
			snprintf(b, sz, "-");
		break;
	case PC_RSSN:
		if (!p->rss_known || !nid_ok)
			snprintf(b, sz, "-");
		else
			snprintf(b, sz, "%.1f", p->rss_pages_by_node[nid] * (double)s->page_size / MIB);
		break;
	case PC_MIGR: nl_fmt_num(b, sz, (double)nl_fmt_migrated_pages(&p->f)); break;
	case PC_CGROUP: snprintf(b, sz, "%s", p->cgroup_path[0] ? p->cgroup_path : "?"); break;
	default: b[0] = '\0';
	}
}

static void proc_table(struct nl_tui *t, struct nl_tui_table *tb)
{
	const struct nl_snapshot *s = &t->snap;
	int slot = 0;

	tb->n = 0;
	nl_tui_draw_col(tb, "PID", 7, 0, false, false, PC_PID, -1);
	nl_tui_draw_col(tb, "COMM", 15, 0, false, true, PC_COMM, -1);
	nl_tui_draw_col(tb, "CPU%", 6, 0, false, false, FC_CPU, -1);
	for (int i = 0; i < s->nr_nodes && i < 8; i++)
		nl_tui_draw_col(tb, nl_tui_draw_node_col(slot++, "RUN%%N%d", s->nodes[i].nid), 7, 4,
				false, false, FC_RUN, i);
	nl_tui_draw_col(tb, "LCL/s", 6, 1, false, false, FC_LCL, -1);	/* the batch text's order and names */
	nl_tui_draw_col(tb, "RMT/s", 6, 1, false, false, FC_RMT, -1);
	nl_tui_draw_col(tb, "RMT%", 6, 1, false, false, FC_RMTPCT, -1);
	nl_tui_draw_col(tb, "LOCALITY", 8, 1, false, false, FC_LOC, -1);
	nl_tui_draw_col(tb, "RSS_MiB", 8, 3, false, false, PC_RSS, -1);
	for (int i = 0; i < s->nr_nodes && i < 8; i++)
		nl_tui_draw_col(tb, nl_tui_draw_node_col(slot++, "RSS_N%d", s->nodes[i].nid), 8, 5,
				false, false, PC_RSSN, i);
	nl_tui_draw_col(tb, "MIGR", 6, 3, false, false, PC_MIGR, -1);
	nl_tui_draw_col(tb, "CGROUP", 10, 2, true, true, PC_CGROUP, -1);
	tb->flexw = nl_tui_layout(tb->cols, tb->n, COLS, tb->shown);
}

int nl_tui_procs_order(struct nl_tui *t)
{
	/* The selection keeps its row, not its process: following a process
	 * that went idle would scroll the busiest rows off the screen. */
	int n = nl_tui_draw_cut(t, 0, nl_sort_procs(&t->snap, t->opts.sort, &t->opts.filter, t->idx));

	if (n)
		t->sel_pid = t->snap.procs[t->idx[t->sel_idx[0]]].pid;
	return n;
}

void nl_tui_procs_draw(struct nl_tui *t)
{
	struct nl_tui_table tb;
	int n = nl_tui_procs_order(t);

	proc_table(t, &tb);
	nl_tui_draw_list(t, &tb, 0, n, proc_cell, t->snap.procs, sizeof(*t->snap.procs));
	/* a typed pid is matched as typed: a thread id matches no process row */
	if (!n && t->opts.filter.pid > 0)
		nl_tui_draw_line(HEAD_LINES(t), 0, "  no process %d: it has exited, or it is a thread id (type its "
			"process id; / then Enter clears the filter)", (int)t->opts.filter.pid);
	else if (!n)
		nl_tui_draw_line(HEAD_LINES(t), 0, "  no process matches%s",
			nl_sort_filter_active(&t->opts.filter) ? " the filter (/ then Enter clears it)" : "");
}
