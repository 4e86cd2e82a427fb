/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_cgroups: the cgroup rows of a collector's snapshot (collect.c
 * orders the steps). Each interval the cgroup tree is walked again, the
 * cgroups' own counters are folded up the hierarchy, removed cgroups stay
 * visible for a grace period with their last totals and are then
 * forgotten in the BPF maps. It owns the tree, the fold and the removed
 * cgroups (struct nl_collect_cgroups) and reads the BPF side only through
 * the raw counts (raw_counts.h), so unit tests drive it from fixtures.
 */
#ifndef NL_COLLECT_CGROUPS_H
#define NL_COLLECT_CGROUPS_H

#include <stdbool.h>
#include <stdint.h>
#include "cgroup.h"
#include "raw_counts.h"
#include "snapshot.h"

/* The cgroup part's state between snapshots (opaque). */
struct nl_collect_cgroups;

/*
 * nl_collect_cgroups_new - the cgroup part for the hierarchy mounted at
 * @cgroup_root (kept: it must outlive the part), showing a removed cgroup
 * for @grace intervals (0: 1). Returns 0 and *@out, or -ENOMEM.
 */
int nl_collect_cgroups_new(struct nl_collect_cgroups **out, const char *cgroup_root, int grace);

/*
 * nl_collect_cgroups_fill - s->cgroups and s->nr_cgroups from the own
 * counters in @raw->cgroups: a row per live cgroup of the tree (walked
 * again here) with its hierarchical figures over s->interval_ns (> 0) and,
 * unless @baseline, its memory.numa_stat; then a row per removed cgroup
 * still in its grace period. Removed cgroups past it are forgotten through
 * @ops (NULL: not forgotten, counted all the same). When the tree cannot be
 * read the old one stays and the snapshot has no cgroup rows: that returns
 * 0 too. Returns 0, -ENOMEM, or -EINVAL from the fold; rows already filled
 * are then in s->nr_cgroups, so the caller's nl_snapshot_free frees them.
 */
int nl_collect_cgroups_fill(struct nl_collect_cgroups *g, const struct nl_raw_counts *raw,
			    const struct nl_raw_counts_ops *ops, bool baseline, struct nl_snapshot *s);

/* nl_collect_cgroups_tree - the tree of the last fill (empty before). */
const struct nl_cgroup_map *nl_collect_cgroups_tree(const struct nl_collect_cgroups *g);

/* nl_collect_cgroups_evicted - removed cgroups forgotten since the part was made. */
uint64_t nl_collect_cgroups_evicted(const struct nl_collect_cgroups *g);

/* nl_collect_cgroups_free - free the part. Safe on NULL. */
void nl_collect_cgroups_free(struct nl_collect_cgroups *g);

#endif
