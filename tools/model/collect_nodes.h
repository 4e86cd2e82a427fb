/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_nodes: the node and zone rows of a collector's snapshot
 * (collect.c orders the steps): the topology, each node's CPU busy ratio
 * (/proc/stat), the kernel's numastat and pgalloc counts beside BPF's
 * per-node counts, all as deltas over the interval. It owns the topology
 * and the previous readings (struct nl_collect_nodes); BPF's counts come
 * in through the raw counts (raw_counts.h).
 */
#ifndef NL_COLLECT_NODES_H
#define NL_COLLECT_NODES_H

#include <stddef.h>
#include "counts.h"
#include "snapshot.h"
#include "topology.h"

/* The node part's state between snapshots (opaque). */
struct nl_collect_nodes;

/*
 * nl_collect_nodes_open - read the topology under @sysfs_root and the zone
 * names and pgalloc counts under @procfs_root (both kept: they must
 * outlive the part). Returns 0 and *@out, or -errno with a message in
 * @err.
 */
int nl_collect_nodes_open(struct nl_collect_nodes **out, const char *sysfs_root, const char *procfs_root,
			  char *err, size_t errlen);

/* nl_collect_nodes_topo - the topology, as refreshed by the last fill. */
const struct nl_topo *nl_collect_nodes_topo(const struct nl_collect_nodes *n);

/* nl_collect_nodes_start - take the readings (CPU times, numastat) the
 * first interval counts from. */
void nl_collect_nodes_start(struct nl_collect_nodes *n);

/*
 * nl_collect_nodes_fill - s->nodes, s->nr_nodes and the zone figures:
 * deltas since the last fill (or start) of BPF's per-node counts @cur
 * (kept for the next), numastat, pgalloc and CPU times. Returns 0 or
 * -ENOMEM.
 */
int nl_collect_nodes_fill(struct nl_collect_nodes *n, const struct nl_node_counts cur[NL_MAX_NODES],
			  struct nl_snapshot *s);

/*
 * nl_collect_nodes_after_baseline - the CPU busy ratio is no BPF count: the
 * first real snapshot's spans from nl_collect_nodes_start(), not from the
 * baseline snapshot's reading. Then wait, at most ~50 ms, until /proc/stat
 * has counted a tick on every node with CPUs, so a snapshot taken right
 * after open has each node's ratio.
 */
void nl_collect_nodes_after_baseline(struct nl_collect_nodes *n);

/* nl_collect_nodes_close - free the part. Safe on NULL. */
void nl_collect_nodes_close(struct nl_collect_nodes *n);

#endif
