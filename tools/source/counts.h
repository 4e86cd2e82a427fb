/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Raw counters read from the BPF maps (maps.c), before deltas and the
 * cgroup hierarchy fold (collect.c). Everything is a monotonic u64, so a
 * struct nl_counts can be treated as a vector of NL_COUNTS_WIDTH words by
 * the generic fold (cgroup.h).
 */
#ifndef NL_COUNTS_H
#define NL_COUNTS_H

#include <stdint.h>
#include "nl_types.h"
#include "zones.h"

/* Monotonic counters of one tgid or cgroup, summed over CPUs. Allocation
 * events/pages count only the classes decided at mm_page_alloc
 * (KERNEL/RECLAIMABLE/MOVABLE); the LRU-join classes add to
 * pages_by_class only, so nothing is counted twice. */
struct nl_counts {
	uint64_t run_ns[NL_MAX_NODES];		/* on-CPU ns per node */
	uint64_t loc_ns[NL_LOC_BUCKETS];	/* on-CPU ns per locality bucket */
	uint64_t nofault_ns;
	uint64_t slices;
	uint64_t events_local, events_remote, events_unknown;	/* unknown: pfn not in table */
	uint64_t pages_local, pages_remote, pages_unknown;
	uint64_t pages_by_node[NL_MAX_NODES];	/* by page node */
	uint64_t pages_by_class[NL_NR_CLASSES];
	uint64_t fail_events;
	uint64_t events_hit, events_miss;	/* page on / off the preferred node */
	uint64_t move_numa, swap_numa, stick_numa;
	uint64_t mig_ok[NL_MIGRATE_REASONS];	/* base pages */
	uint64_t mig_fail[NL_MIGRATE_REASONS];
};

#define NL_COUNTS_WIDTH (sizeof(struct nl_counts) / sizeof(uint64_t))

/* One id's counters. */
struct nl_id_counts {
	uint64_t id;
	struct nl_counts c;
};

/* A growable table of id counters with a hash index (unordered). */
struct nl_counts_table {
	int n, cap;
	struct nl_id_counts *v;
	int *slot;		/* open-addressing index into v, 2 * cap slots, -1 empty */
	int nslot;
};

/* Per-node allocation events as numastat defines them, from the BPF view
 * (counted on the page's node, like /sys/.../nodeN/numastat). */
struct nl_node_counts {
	uint64_t events_local;		/* page on nid, allocated from a CPU of nid */
	uint64_t events_other;		/* page on nid, allocated from another node's CPU */
	uint64_t events_from_remote;	/* allocated from nid's CPUs, page elsewhere */
	uint64_t pages;			/* pages placed on nid */
	uint64_t pages_by_zone[NL_NR_ZONES];	/* the same by zone index */
	uint64_t events_hit;		/* page on nid, nid preferred (numa_hit) */
	uint64_t events_miss;		/* page on nid, another node preferred (numa_miss) */
	uint64_t events_foreign;	/* nid preferred, page elsewhere (numa_foreign) */
	uint64_t run_ns;		/* on-CPU ns on nid's CPUs */
};

/* Return the counters of @id in @t, adding a zeroed entry if absent.
 * O(1) through a hash index. NULL on -ENOMEM. */
struct nl_counts *nl_counts_get(struct nl_counts_table *t, uint64_t id);

/* Find @id in @t; NULL if absent. */
const struct nl_counts *nl_counts_find(const struct nl_counts_table *t, uint64_t id);

/* Empty @t, keeping its memory. */
void nl_counts_clear(struct nl_counts_table *t);

/* Free @t's memory and zero it. */
void nl_counts_free(struct nl_counts_table *t);

#endif
