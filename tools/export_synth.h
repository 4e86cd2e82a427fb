/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A synthetic snapshot for `numalens export --synthetic` (hidden): the
 * benchmark (2,000 cgroups x 4 nodes) and the HTTP robustness tests run
 * the real server and renderer without loading BPF.
 */
#ifndef NL_EXPORT_SYNTH_H
#define NL_EXPORT_SYNTH_H

#include "snapshot.h"

/*
 * Fill @s (zeroed first; free with nl_snapshot_free) with @nr_cgroups
 * cgroups (a root, pod-like slices at depth 1 and containers at depth 2,
 * kubepods-style paths of ~110 bytes) over @nr_nodes nodes and 200
 * processes, with reclaim (vmscan) figures. Counters grow with @seq (1, 2, ...) so a scraper sees
 * monotonic counters; every 10th seq renames 1 % of the containers, as
 * cgroup churn does. Returns 0, -EINVAL or -ENOMEM.
 */
int nl_export_synth(struct nl_snapshot *s, int nr_cgroups, int nr_nodes, uint64_t seq);

#endif
