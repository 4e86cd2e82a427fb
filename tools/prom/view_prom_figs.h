/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The families every exported row has, cgroup or process (on-CPU time by
 * node, the locality histogram, allocations, migrations), and the cgroup
 * rows' own (memory.numa_stat, what the path names).
 */
#ifndef NL_VIEW_PROM_FIGS_H
#define NL_VIEW_PROM_FIGS_H

#include <stdbool.h>
#include "snapshot.h"
#include "strbuf.h"
#include "view_prom_select.h"

/* Upper bounds (le) of the 8 locality buckets. Bucket b holds slices whose
 * locality L/(L+R+1) lies in [b/8, (b+1)/8), so its
 * `le` is the bucket's upper edge (b+1)/8, never its lower edge: the
 * off-by-one that put values in the bucket below their bound. */
extern const char *const nl_prom_locality_le[NL_LOC_BUCKETS];

/* The families every row of @r has (CPU, locality, allocations, migrations). */
void nl_prom_figs_render(struct nl_buf *b, const struct nl_prom_rows *r, const struct nl_snapshot *s);

/* The memory.numa_stat gauges (@file: file-backed, else anon) of the
 * cgroup rows of @r that have it; nothing when none has. */
void nl_prom_figs_numa_stat(struct nl_buf *b, const struct nl_prom_rows *r, const struct nl_snapshot *s,
			    bool file);

/* numalens_cgroup_info: what each cgroup row's path names, as labels. */
void nl_prom_figs_cgroup_info(struct nl_buf *b, const struct nl_prom_rows *r);

#endif /* NL_VIEW_PROM_FIGS_H */
