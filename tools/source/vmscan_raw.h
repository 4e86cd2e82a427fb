/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reclaim counters as the vmscan maps hold them, summed over CPUs, by
 * cgroup id: what vmscan_read.c produces and vmscan_figs.c folds into the
 * snapshot. No BPF here, so the unit tests fill it directly.
 */
#ifndef NL_VMSCAN_RAW_H
#define NL_VMSCAN_RAW_H

#include <stdint.h>
#include "vmscan_types.h"

/* Monotonic counters of one cgroup's own reclaim (not hierarchical),
 * summed over CPUs: a vector of NL_VS_WIDTH u64 for the fold. */
struct nl_vs_counts {
	struct nl_vs_pages pages[NL_VS_NR_CTX][NL_MAX_NODES];
	struct nl_vs_time time[NL_VS_NR_CTX];
};

#define NL_VS_WIDTH (sizeof(struct nl_vs_counts) / sizeof(uint64_t))

/* Counters by cgroup id, ids sorted ascending and unique. Id 0 means "no
 * memcg" (kswapd, node-wide reclaim); the fold charges it to the root. */
struct nl_vs_raw {
	int n, cap;
	uint64_t *ids;
	struct nl_vs_counts *c;
};

/* Counters of @id in @r, inserted zeroed (keeping ids sorted) if absent.
 * NULL on -ENOMEM. */
struct nl_vs_counts *nl_vmscan_raw_get(struct nl_vs_raw *r, uint64_t id);

/* Counters of @id in @r, or NULL when absent. */
const struct nl_vs_counts *nl_vmscan_raw_find(const struct nl_vs_raw *r, uint64_t id);

/* Empty @r keeping its memory / free it and zero it. */
void nl_vmscan_raw_clear(struct nl_vs_raw *r);
void nl_vmscan_raw_free(struct nl_vs_raw *r);

#endif
