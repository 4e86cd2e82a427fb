// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Prometheus text exposition of a snapshot; see view_prom.h. One small
 * function per metric family so new figures (reclaim, scx_cling) add a
 * function and a call in nl_prom_render(); the families live by group in
 * the view_prom_*.c files (view_prom.h), this file sets their order.
 * A 2,000-cgroup scrape is ~100k lines, so label sets are escaped once per
 * render and numbers are formatted without printf.
 */
#include <errno.h>
#include "view_prom.h"
#include "view_prom_cling.h"
#include "view_prom_node.h"
#include "view_prom_reclaim.h"
#include "view_prom_self.h"
#include "view_prom_vmscan.h"

int nl_prom_render(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_opts *o)
{
	struct nl_prom_rows cg = {}, pr = {};
	int omitted = 0, e;

	if (!b || !s || !o)
		return -EINVAL;
	e = nl_prom_select_cgroups(&cg, s, o, &omitted);
	if (!e)
		e = nl_prom_select_procs(&pr, s, o->top_procs);
	if (e) {
		nl_prom_select_free(&cg);
		nl_prom_select_free(&pr);
		return e;
	}
	if (!b->drain) {
		/* one reservation avoids most regrowth: ~3 series per node and
		 * ~30 more per row (~110 with reclaim), each its label set plus
		 * ~50 bytes (a drained buffer holds one slice of that) */
		size_t rows = (size_t)(cg.n + pr.n), lab = cg.lab.len + pr.lab.len;
		size_t per = (size_t)(3 * s->nr_nodes + (s->src.vmscan ? 110 : 30));

		nl_buf_reserve(b, 16384 + per * (rows * 50 + lab));
	}
	nl_prom_self_info(b, s, o);
	nl_prom_node_render(b, s);
	nl_prom_figs_cgroup_info(b, &cg);
	nl_prom_figs_render(b, &cg, s);
	nl_prom_figs_numa_stat(b, &cg, s, false);
	nl_prom_figs_numa_stat(b, &cg, s, true);
	{
		struct nl_prom_cgroup_rows vr = { cg.n, cg.cg, cg.lab.p, cg.off, cg.len };

		nl_prom_render_vmscan(b, s, &vr, o->cgroup_reclaim_histograms);
	}
	if (pr.n)
		nl_prom_figs_render(b, &pr, s);
	nl_prom_render_reclaim_agent(b, s);
	nl_prom_render_cling(b, s);
	nl_prom_self_render(b, s);
	nl_prom_self_cardinality(b, s, cg.n, omitted);
	nl_prom_select_free(&cg);
	nl_prom_select_free(&pr);
	return b->err;
}

void nl_prom_render_scrape_duration(struct nl_buf *b, uint64_t ns)
{
	nl_prom_family(b, "numalens_scrape_duration_seconds", "gauge",
	       "Time numalens spent rendering the served snapshot into this text (seconds); rendered once per "
	       "snapshot, by its first scrape, and shared by the others.");
	nl_prom_sample_s(b, "numalens_scrape_duration_seconds", ns);
}
