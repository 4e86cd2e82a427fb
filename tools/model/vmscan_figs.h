/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reclaim (vmscan) figures: the raw per-cgroup counter vectors read from
 * BPF (vmscan_read.c), their hierarchy fold into the snapshot (parents
 * are recursive sums, removed cgroups fold into their parent: the fold of
 * cgroup.h) and the derived ratios (freed and rotated per scanned, time per page).
 * No BPF here, so the unit tests drive it directly.
 */
#ifndef NL_VMSCAN_FIGS_H
#define NL_VMSCAN_FIGS_H

#include <stdint.h>
#include "cgroup.h"
#include "snapshot.h"
#include "vmscan_raw.h"

/* Fold state across intervals (opaque). */
struct nl_vs_state;

/* Allocate the fold state. 0 or -ENOMEM. */
int nl_vmscan_figs_state_new(struct nl_vs_state **st);

/* Free it. Safe on NULL. */
void nl_vmscan_figs_state_free(struct nl_vs_state *st);

/*
 * nl_vmscan_figs_fill - fold one interval's @raw counters over the tree @m and fill
 * s->cgroups[i].vmscan (allocated here, left NULL for a cgroup that never
 * reclaimed; live cgroups from the fold, removed ones from their last record) and s->nodes[i].vmscan[_total] (sums of
 * every id's own counters: each event once). Deltas are against the
 * previous call's totals (first sight of a cgroup: since zero); a total
 * that went down gives a 0 delta.
 * Returns 0, -EINVAL (empty map) or -ENOMEM.
 */
int nl_vmscan_figs_fill(struct nl_vs_state *st, const struct nl_vs_raw *raw, const struct nl_cgroup_map *m,
	       struct nl_snapshot *s);

/* Reclaim figures of cgroup @g of @s: its own, zeros when it never
 * reclaimed (g->vmscan NULL), NULL when the vmscan program is not loaded. */
const struct nl_vmscan_figs *nl_vmscan_figs_cgroup(const struct nl_snapshot *s, const struct nl_cgroup *g);

/* Sum of @f over the contexts whose bit is set in @ctx_mask (1 << ctx). */
void nl_vmscan_figs_pages_sum(const struct nl_vs_page_figs f[NL_VS_NR_CTX], unsigned ctx_mask,
		     struct nl_vs_page_figs *out);
void nl_vmscan_figs_time_sum(const struct nl_vs_time_figs t[NL_VS_NR_CTX], unsigned ctx_mask,
		    struct nl_vs_time_figs *out);

/* Derived ratios of one set of figures; NAN where the denominator is 0. */
struct nl_vs_ratios {
	double freed_per_scanned;		/* freed / scanned, anon + file */
	double rotated_per_scanned;		/* rotated / scanned */
	double rotated_per_scanned_type[2];	/* per type: [0] anon, [1] file */
	double freed_per_scanned_type[2];
	double anon_share_scanned;		/* scanned_anon / scanned */
	double ns_per_scanned;			/* elapsed_ns / scanned */
	double ns_per_freed;			/* elapsed_ns / freed */
	double reclaim_time_share;		/* elapsed_ns / wall_ns (can exceed 1
						 * with several reclaiming tasks) */
};

/* Ratios of @p (pages) and @t (time) over @wall_ns (0: share is NAN). */
void nl_vmscan_figs_ratios(const struct nl_vs_page_figs *p, const struct nl_vs_time_figs *t,
		  uint64_t wall_ns, struct nl_vs_ratios *out);

/* One row's reclaim for the top views: pages scanned and freed (anon +
 * file + pageout) over every context, this interval and since start. */
struct nl_vs_summary {
	uint64_t scanned, freed, scanned_total, freed_total;
};

/* Summarise the deltas @d and totals @t of every context into @out. */
void nl_vmscan_figs_summarize(const struct nl_vs_page_figs d[NL_VS_NR_CTX],
		     const struct nl_vs_page_figs t[NL_VS_NR_CTX], struct nl_vs_summary *out);

/* Context names as in the seed's field suffixes: "limit", "direct"
 * (the seed's "system"), "kswapd", "proactive". NULL if out of range. */
const char *nl_vmscan_figs_ctx_name(int ctx);

#endif
