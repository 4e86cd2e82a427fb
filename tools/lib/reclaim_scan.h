/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where the lottery's weights get their recent scanned/rotated pages per
 * memcg x node x LRU type (spec/seed_reclaim.md §2.2, R13). They come from
 * the vmscan tracepoints of the reclaim-observability issue (issue 5),
 * through the snapshot model; until that is connected this source answers
 * -ENODATA and the weights use the R4 cold-start prior on every node.
 */
#ifndef NL_RECLAIM_SCAN_H
#define NL_RECLAIM_SCAN_H

#include <stdint.h>

/* Recent (decayed) pages of one node: index 0 = anon, 1 = file. */
struct nl_scan_node {
	uint64_t scanned[2];	/* pages taken off the LRUs to be scanned */
	uint64_t rotated[2];	/* of those, put back active (referenced) */
};

/* Opaque provider state (the snapshot of issue 5 once connected). */
struct nl_scan_src;

/*
 * Fill @out[0 .. @nr_nodes) for memcg @cgid (cgroup kernfs id),
 * hierarchical (the memcg and its descendants, as memory.numa_stat is).
 * The provider must decay its counts (the seed's kernel halved them past a
 * quarter of the list size; any recent-window estimate will do).
 * Returns 0, -ENODATA when no source is connected or it has no entry for
 * @cgid, or another -errno.
 */
int nl_scan_get(struct nl_scan_src *src, uint64_t cgid, int nr_nodes, struct nl_scan_node *out);

#endif
