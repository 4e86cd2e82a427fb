/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where the lottery's weights get their recent scanned/rotated pages per
 * memcg x node x LRU type (docs/reclaim.md, How it chooses a node).
 * The counts come from the vmscan tracepoints (`numalens vmscan`) through
 * the snapshot model: each interval, whoever holds the snapshot
 * feeds the per-node deltas of a managed cgroup (summed over the limit,
 * kswapd and proactive contexts) with nl_scan_feed(). This source keeps a
 * decayed "recent" value per node, like the kernel of the 2011 NUMA-aware
 * memcg reclaim patches did.
 * Without a feed (no reclaim tracepoints: the agent passes a NULL source)
 * nl_scan_get() answers -ENODATA and the weights use the cold-start prior
 * on every node.
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
 * interval; those patches' kernel halved past a quarter of the list size).
 * rotated is clamped to scanned (a page is rotated only after a scan). Returns 0, -ENOSPC (table full) or
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
