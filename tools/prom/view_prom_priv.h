/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of the Prometheus view share and nothing else includes:
 * the exported rows and the families by group. view_prom.c renders them
 * in order; view_prom_select.c picks the rows, view_prom_figs.c writes the
 * per-row families, view_prom_node.c the node ones, view_prom_self.c those
 * about numalens itself (reclaim, agent and scx_cling have files of their
 * own with public headers).
 */
#ifndef NL_VIEW_PROM_PRIV_H
#define NL_VIEW_PROM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include "snapshot.h"
#include "prom_write.h"
#include "view_prom.h"

/* The exported rows of one kind (cgroups or processes): their figures and
 * their escaped label sets (`cgroup="/a"` or `pid="1",comm="x"`) kept in
 * one buffer, built once per render. */
struct nl_prom_rows {
	const char *prefix;		/* "numalens_cgroup_" */
	int n;
	const struct nl_figs **f;
	const struct nl_cgroup **cg;	/* cgroup rows only, else NULL */
	size_t *off, *len;
	struct nl_buf lab;
};

/* --- view_prom_select.c --------------------------------------------------- */

/* Free what the selection allocated in @r (not @r itself). */
void nl_prom_select_free(struct nl_prom_rows *r);

/* Fill @r with the cgroups of @s that @o selects, up to its cap; the
 * selected ones left out by the cap are counted in *@omitted. Returns 0 or
 * -ENOMEM. */
int nl_prom_select_cgroups(struct nl_prom_rows *r, const struct nl_snapshot *s,
			   const struct nl_prom_opts *o, int *omitted);

/* Fill @r with the @k processes of @s with most on-CPU time in the
 * interval (none for @k <= 0). Returns 0 or -ENOMEM. */
int nl_prom_select_procs(struct nl_prom_rows *r, const struct nl_snapshot *s, int k);

/* --- view_prom_figs.c ----------------------------------------------------- */

/* The families every row of @r has (CPU, locality, allocations, migrations). */
void nl_prom_figs_render(struct nl_buf *b, const struct nl_prom_rows *r, const struct nl_snapshot *s);

/* The memory.numa_stat gauges (@file: file-backed, else anon) of the
 * cgroup rows of @r that have it; nothing when none has. */
void nl_prom_figs_numa_stat(struct nl_buf *b, const struct nl_prom_rows *r, const struct nl_snapshot *s,
			    bool file);

/* numalens_cgroup_info: what each cgroup row's path names, as labels. */
void nl_prom_figs_cgroup_info(struct nl_buf *b, const struct nl_prom_rows *r);

/* --- view_prom_node.c ----------------------------------------------------- */

/* The node families: numastat, memory, CPUs, busy share, and the BPF
 * preferred-node and per-zone counts when the allocation program runs. */
void nl_prom_node_render(struct nl_buf *b, const struct nl_snapshot *s);

/* --- view_prom_self.c ----------------------------------------------------- */

/* Build info, sources, sample period, page size and the snapshot clock. */
void nl_prom_self_info(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_opts *o);

/* Drops, evictions, other pid namespaces and BPF program stats. */
void nl_prom_self_render(struct nl_buf *b, const struct nl_snapshot *s);

/* Cgroups in the snapshot, exported (@exported) and left out (@omitted). */
void nl_prom_self_cardinality(struct nl_buf *b, const struct nl_snapshot *s, int exported, int omitted);

#endif /* NL_VIEW_PROM_PRIV_H */
