// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The cgroup window: the tree, indented by depth, with each cgroup's
 * figures, its locality bar and the last minute of its remote share and
 * locality median as sparklines (recorded here, one sample per snapshot).
 */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include "names.h"
#include "view_agent.h"
#include "view_fmt.h"
#include "tui_cgroups.h"
#include "tui_draw.h"
#include "tui_state.h"

enum { CC_NAME = 0, CC_BAR = FC_END, CC_EXEC, CC_MEM, CC_MIGR, CC_MOVES, CC_RCLM, CC_AGT,
       CC_SPARK_RMT, CC_SPARK_LOC };

/* Milliseconds on the history's clock. */
static uint64_t hist_now_ms(const struct nl_tui *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)((now.tv_sec - t->t0.tv_sec) * 1000 + (now.tv_nsec - t->t0.tv_nsec) / 1000000) + 1;
}

/* Record each cgroup's remote share of allocations and locality median
 * of a snapshot not recorded yet (the sparklines' history). */
void nl_tui_cgroups_record(struct nl_tui *t)
{
	const struct nl_snapshot *s = &t->snap;
	uint64_t now = hist_now_ms(t);
	bool loc_ok = nl_fmt_locality_source_ok(s);

	if (!t->have_snap || s->seq == t->hist_seq)
		return;
	t->hist_seq = s->seq;
	/* at most one sample per 1/NL_HIST_SAMPLES of the span, so that a
	 * short -d still leaves a whole minute in the ring */
	if (t->hist_last_ms && now - t->hist_last_ms < SPARK_SPAN_MS / NL_HIST_SAMPLES)
		return;
	t->hist_last_ms = now;
	for (int i = 0; i < s->nr_cgroups; i++) {
		const struct nl_cgroup *c = &s->cgroups[i];
		double v[NL_HIST_VALUES], r;

		v[0] = nl_fmt_remote_ratio(&c->f.alloc, &r) ? r : NAN;
		v[1] = loc_ok && c->f.loc.available ? nl_snapshot_locality_median(c->f.loc.bucket_ns) : NAN;
		if (nl_hist_add(&t->hist, c->id, now, v))
			break;	/* out of memory: the sparklines stop growing */
	}
	nl_hist_prune(&t->hist, now, 2 * SPARK_SPAN_MS);
}

static void cg_cell(struct nl_tui *t, const void *row, int kind, int ni, char *b, size_t sz,
		    attr_t *own)
{
	const struct nl_snapshot *s = &t->snap;
	const struct nl_cgroup *c = row;
	int nid = ni >= 0 ? s->nodes[ni].nid : 0;
	bool nid_ok = nid >= 0 && nid < NL_MAX_NODES;
	char bar[16], rn[NL_UNIT_NAME_MAX];
	int depth = c->depth < 0 ? 0 : c->depth > 20 ? 20 : c->depth;

	if (nl_tui_draw_figs_cell(t, &c->f, kind, ni, b, sz, own))
		return;
	switch (kind) {
	case CC_NAME:
		snprintf(b, sz, "%*s%s%s", 2 * depth, "", nl_fmt_cgroup_row_name(c, rn, sizeof(rn)),
			 c->removed ? " (removed)" : "");
		break;
	case CC_SPARK_RMT: case CC_SPARK_LOC:
		nl_hist_spark(b, sz, nl_hist_find(&t->hist, c->id), kind == CC_SPARK_LOC, hist_now_ms(t),
			      SPARK_SPAN_MS, SPARK_W, nl_tui_draw_utf8());
		break;
	case CC_BAR:
		snprintf(b, sz, "|%s|", nl_fmt_locbar(bar, sizeof(bar), &c->f.loc,
						      nl_fmt_locality_source_ok(s)));
		break;
	case CC_EXEC:
		if (!nid_ok)
			snprintf(b, sz, "-");
		else
			snprintf(b, sz, "%.0f", c->f.run_ns_by_node[nid] / 1e6);
		break;
	case CC_MEM:	/* as the batch view: memory.numa_stat anon+file MiB */
		if (!c->numa_stat_known)
			snprintf(b, sz, "-");
		else
			snprintf(b, sz, "%.1f", (nl_fmt_sum_nodes(c->anon_bytes_by_node, NL_MAX_NODES) +
						 nl_fmt_sum_nodes(c->file_bytes_by_node, NL_MAX_NODES)) / MIB);
		break;
	case CC_MIGR: nl_fmt_num(b, sz, (double)nl_fmt_migrated_pages(&c->f)); break;
	case CC_MOVES: nl_fmt_num(b, sz, (double)(c->f.mig.move_numa + c->f.mig.swap_numa)); break;
	case CC_RCLM: {
		const struct nl_vmscan_figs *v = nl_vmscan_figs_cgroup(s, c);

		nl_tui_draw_reclaim(b, sz, s, v ? v->pages : NULL, v ? v->pages_total : NULL);
		break;
	}
	case CC_AGT: nl_agent_fmt_rate(b, sz, s, c, true); break;
	default: b[0] = '\0';
	}
}

static void cg_table(struct nl_tui *t, struct nl_tui_table *tb)
{
	const struct nl_snapshot *s = &t->snap;
	int slot = 0;

	tb->n = 0;
	nl_tui_draw_col(tb, "CGROUP", 16, 0, true, true, CC_NAME, -1);
	nl_tui_draw_col(tb, "CPU%", 6, 0, false, false, FC_CPU, -1);
	for (int i = 0; i < s->nr_nodes && i < 8; i++)
		nl_tui_draw_col(tb, nl_tui_draw_node_col(slot++, "RUN%%N%d", s->nodes[i].nid), 7, 4,
				false, false, FC_RUN, i);
	nl_tui_draw_col(tb, "LCL/s", 6, 1, false, false, FC_LCL, -1);	/* the batch text's order and names */
	nl_tui_draw_col(tb, "RMT/s", 6, 1, false, false, FC_RMT, -1);
	nl_tui_draw_col(tb, "RMT%", 6, 1, false, false, FC_RMTPCT, -1);
	nl_tui_draw_col(tb, "RMT%_1m", SPARK_W, 2, false, true, CC_SPARK_RMT, -1);
	nl_tui_draw_col(tb, "LOCALITY", 8, 1, false, false, FC_LOC, -1);
	nl_tui_draw_col(tb, "LOC_1m", SPARK_W, 2, false, true, CC_SPARK_LOC, -1);
	nl_tui_draw_col(tb, "LOCBAR", NL_LOCBAR_WIDTH + 2, 3, false, true, CC_BAR, -1);
	for (int i = 0; i < s->nr_nodes && i < 8; i++)
		nl_tui_draw_col(tb, nl_tui_draw_node_col(slot++, "EXEC_MS_N%d", s->nodes[i].nid), 11, 5,
				false, false, CC_EXEC, i);
	nl_tui_draw_col(tb, "MEM", 8, 3, false, false, CC_MEM, -1);
	nl_tui_draw_col(tb, "MIGR", 6, 3, false, false, CC_MIGR, -1);
	nl_tui_draw_col(tb, "MOVES", 5, 4, false, false, CC_MOVES, -1);
	nl_tui_draw_col(tb, "RCLM/s", 6, 3, false, false, CC_RCLM, -1);
	nl_tui_draw_col(tb, "AGT/s", 5, 3, false, false, CC_AGT, -1);
	tb->flexw = nl_tui_layout(tb->cols, tb->n, COLS, tb->shown);
}

int nl_tui_cgroups_order(struct nl_tui *t)
{
	int n = nl_tui_draw_cut(t, 1, nl_sort_cgroups(&t->snap, t->opts.sort, &t->opts.filter, true, t->idx));

	if (n)
		t->sel_cg = t->snap.cgroups[t->idx[t->sel_idx[1]]].id;
	return n;
}

void nl_tui_cgroups_draw(struct nl_tui *t)
{
	struct nl_tui_table tb;
	int n = nl_tui_cgroups_order(t);

	cg_table(t, &tb);
	nl_tui_draw_list(t, &tb, 1, n, cg_cell, t->snap.cgroups, sizeof(*t->snap.cgroups));
	if (!n)
		nl_tui_draw_line(HEAD_LINES(t), 0, "  no cgroup matches (a path filter takes whole "
				 "components: /nu is not /nu-x)");
}
