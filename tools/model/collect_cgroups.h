/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_cgroups: the cgroup rows of a collector's snapshot (collect.c
 * builds the rest). Each interval the cgroup tree is walked again, the
 * cgroups' own counters are folded up the hierarchy, removed cgroups stay
 * visible for cgroup_grace intervals with their last totals and are then
 * forgotten in the BPF maps.
 */
#ifndef NL_COLLECT_CGROUPS_H
#define NL_COLLECT_CGROUPS_H

#include <stdint.h>

struct nl_collector;
struct nl_snapshot;

/*
 * nl_collect_fill_cgroups - s->cgroups and s->nr_cgroups: a row per live
 * cgroup of c->cgmap (refreshed here) with its hierarchical figures over
 * @interval ns (> 0) and, outside the baseline snapshot, its
 * memory.numa_stat, then a row per removed cgroup still in its grace
 * period. Removed cgroups past it are forgotten in the BPF maps
 * (c->cgroups_evicted counts them). When the tree cannot be read the old
 * one stays and the snapshot has no cgroup rows: that returns 0 too.
 * Returns 0, -ENOMEM, or -EINVAL from the fold (nl_cgroup_fold_run); rows
 * already filled are then in s->nr_cgroups, so the caller's
 * nl_snapshot_free frees them.
 */
int nl_collect_fill_cgroups(struct nl_collector *c, struct nl_snapshot *s, uint64_t interval);

#endif
