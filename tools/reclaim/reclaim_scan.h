/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where the lottery's weights get their recent scanned/rotated pages per
 * memcg x node x LRU type (spec/seed_reclaim.md §2.2, R13). The counts come
 * from the vmscan tracepoints of the reclaim-observability issue (issue 5)
 * through the snapshot model: each interval, whoever holds the snapshot
 * feeds the per-node deltas of a managed cgroup (summed over the limit,
 * kswapd and proactive contexts) with nl_scan_feed(). This source keeps a
 * decayed "recent" value per node, like the seed's kernel did.
 * Until the feed is connected (the agent passes a NULL source today)
 * nl_scan_get() answers -ENODATA and the weights use the R4 cold-start
 * prior on every node.
 */
#ifndef NL_RECLAIM_SCAN_H
#define NL_RECLAIM_SCAN_H

#include <stdint.h>
#include "nl_types.h"

/* Recent (decayed) pages of one node: index 0 = anon, 1 = file. */
struct nl_scan_node {
	uint64_t scanned[2];	/* pages taken off the LRUs to be scanned */
	uint64_t rotated[2];	/* of those, put back active (referenced) */
};

struct nl_scan_src;

/* A source for up to @max_cg memcgs. NULL on -ENOMEM. */
struct nl_scan_src *nl_scan_src_new(int max_cg);

/* Free @s (NULL is fine). */
void nl_scan_src_free(struct nl_scan_src *s);

/*
 * One interval of memcg @cgid: @delta[0 .. @nr_nodes) are the pages
 * scanned/rotated since the last feed (hierarchical, as memory.numa_stat).
 * Every node's recent value becomes recent / 2 + delta (a half-life of one
 * interval; the seed's kernel halved past a quarter of the list size).
 * rotated is clamped to scanned (R5). Returns 0, -ENOSPC (table full) or
 * -EINVAL.
 */
int nl_scan_feed(struct nl_scan_src *s, uint64_t cgid, const struct nl_scan_node *delta,
		 int nr_nodes);

/* Drop @cgid's history (the cgroup went away). */
void nl_scan_forget(struct nl_scan_src *s, uint64_t cgid);

/*
 * Fill @out[0 .. @nr_nodes) with @cgid's recent values. Returns 0, or
 * -ENODATA when @s is NULL (no source connected) or @cgid was never fed.
 */
int nl_scan_get(struct nl_scan_src *s, uint64_t cgid, int nr_nodes, struct nl_scan_node *out);

#endif
