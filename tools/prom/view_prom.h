/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Prometheus text exposition (format 0.0.4) of one snapshot: the view
 * behind `numalens export`. A pure function of the snapshot and the
 * options; it reads nothing else. The metric list, units and the
 * worst-case series count are in README.md ("numalens export").
 *
 * Conventions (prometheus.io writing_exporters):
 * numalens_ prefix, base units (seconds, bytes), _total on counters only,
 * remote allocations and migration failures as their own counters rather
 * than a local/remote or ok/fail label.
 */
#ifndef NL_VIEW_PROM_H
#define NL_VIEW_PROM_H

#include <stdbool.h>
#include "snapshot.h"
#include "prom_write.h"

/* Content-Type of what nl_prom_render() writes. */
#define NL_PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* Upper bounds (le) of the 8 locality buckets. Bucket b holds slices whose
 * locality L/(L+R+1) lies in [b/8, (b+1)/8), so its
 * `le` is the bucket's upper edge (b+1)/8, never its lower edge: the
 * off-by-one that put values in the bucket below their bound. */
extern const char *const nl_prom_locality_le[NL_LOC_BUCKETS];

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


/*
 * Append the exposition of @s to @b: node counters (sysfs numastat),
 * per-cgroup and (optionally) per-process figures, self metrics.
 * Every family is one contiguous # HELP/# TYPE group. A @b with a drain
 * is drained at line ends (nl_buf_drain_point), so the whole text need
 * never be held. Returns 0, -EINVAL on NULL args, or -ENOMEM or the
 * drain's -errno (b->err).
 */
int nl_prom_render(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_opts *o);

/* Append the numalens_scrape_duration_seconds gauge (@ns: time spent
 * rendering the text it ends), the last family of a scrape. */
void nl_prom_render_scrape_duration(struct nl_buf *b, uint64_t ns);

#endif
