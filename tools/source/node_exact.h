/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Exact node and zone allocation totals: the alloc object's node_cells
 * map (bpf/node_exact.bpf.h, layout in nl_types.h), counted on every
 * mm_page_alloc event whatever the sample period, read through mmap into
 * the per-node counters every view shows.
 */
#ifndef NL_NODE_EXACT_H
#define NL_NODE_EXACT_H

#include <stdint.h>
#include "counts.h"
#include "loader_types.h"

/* Cells in one CPU's row for @nr_nodes possible nodes: a multiple of
 * four (64 bytes), so that no two CPUs write one cache line. */
uint32_t nl_node_exact_row(int nr_nodes);

/* Size the node_cells map of the opened, not yet loaded alloc object @a
 * for @nr_cpus possible CPUs and @nr_nodes possible nodes. */
void nl_node_exact_size(struct nl_alloc *a, int nr_cpus, int nr_nodes);

/* Map the loaded object's node_cells into @b (b->alloc set). Returns 0
 * or a negative errno. */
int nl_node_exact_map(struct nl_bpf *b);

/* Unmap what nl_node_exact_map() mapped (nothing if it did not). */
void nl_node_exact_unmap(struct nl_bpf *b);

/* Add @b's exact totals, summed over CPUs, to @nodes (events local and
 * other, from remote, pages and pages by zone, hit, miss, foreign); run
 * ns is left alone. No-op without the map. */
void nl_node_exact_read(const struct nl_bpf *b, struct nl_node_counts nodes[NL_MAX_NODES]);

#endif
