/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which rows `numalens export` exports and the options that decide it:
 * the cgroups the depth, patterns and cap select (never two with one
 * path), the busiest processes, each row with its escaped label set.
 */
#ifndef NL_VIEW_PROM_SELECT_H
#define NL_VIEW_PROM_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include "snapshot.h"
#include "strbuf.h"

/* Which series to export: cardinality stays bounded by these. */
struct nl_prom_opts {
	/* Cgroups at depth <= cgroup_depth are exported (0 = only the root
	 * "/", the host total; -1 = none unless a pattern matches). */
	int cgroup_depth;
	/* fnmatch(3) patterns (no flags: '*' also matches '/') on the cgroup
	 * path; a match is exported whatever its depth. */
	const char *const *cgroup_patterns;
	int nr_cgroup_patterns;
	/* At most this many cgroup label values (pre-order, so parents
	 * first); the rest are counted in numalens_cgroups_omitted. 0 = no cap. */
	int max_cgroups;
	/* Per-process series for the top_procs processes by on-CPU time in
	 * the interval; 0 = none (the default). */
	int top_procs;
	/* Reclaim-episode histograms (48 series each) for every exported
	 * cgroup; false (the default): for the root "/" only, the host's
	 * distribution, since they are most of the per-cgroup reclaim series. */
	bool cgroup_reclaim_histograms;
	const char *version;	/* numalens version for numalens_build_info */
};

/* Defaults: root cgroup only, at most 1000 cgroups, no processes. */
void nl_prom_opts_default(struct nl_prom_opts *o);

/* True if cgroup @c passes the depth/pattern opt-in of @o (the cap is
 * applied by the renderer). */
bool nl_prom_cgroup_selected(const struct nl_cgroup *c, const struct nl_prom_opts *o);

/* Defaults: root cgroup only, at most 1000 cgroups, no processes. */
void nl_prom_opts_default(struct nl_prom_opts *o);

/* True if cgroup @c passes the depth/pattern opt-in of @o (the cap is
 * applied by the renderer). */
bool nl_prom_cgroup_selected(const struct nl_cgroup *c, const struct nl_prom_opts *o);

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

#endif /* NL_VIEW_PROM_SELECT_H */
