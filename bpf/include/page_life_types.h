/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Page lifetime (the opt-in `top --page-lifetime` view): what
 * bpf/page_life.bpf.c and user space share. A sampled page is timed from
 * its allocation (kmem:mm_page_alloc) to its free (kmem:mm_page_free),
 * joined by the struct page's address, and counted in log2 histograms,
 * one per (placement, class).
 */
#ifndef NL_PAGE_LIFE_TYPES_H
#define NL_PAGE_LIFE_TYPES_H

#include "nl_types.h"	/* u8/u32/u64 in user space */

/* Bucket b holds pages that lived [2^b, 2^(b+1)) ns; the last also every
 * longer one (2^47 ns is 39 hours). */
#define NL_LIFE_BUCKETS 48

/* Pages in flight at most (allocated and sampled, not yet freed): a plain
 * hash map, so a sample that finds it full is refused and counted in
 * NL_LIFE_NOT_KEPT (sampled - freed is what is in flight). */
#define NL_LIFE_MAX_PAGES 65536

/* Where the page landed, against the allocating CPU's node. */
enum nl_life_place {
	NL_LIFE_LOCAL,
	NL_LIFE_REMOTE,
	NL_LIFE_NR_PLACES,
};

/* Classes by migratetype, as enum nl_alloc_class's first three, and
 * transparent huge pages (movable, PMD order) apart. */
enum nl_life_class {
	NL_LIFE_KERNEL,
	NL_LIFE_RECLAIMABLE,
	NL_LIFE_MOVABLE,
	NL_LIFE_THP,
	NL_LIFE_NR_CLASSES,
};

/* Histogram index: place * NL_LIFE_NR_CLASSES + class. */
#define NL_LIFE_NR_HISTS (NL_LIFE_NR_PLACES * NL_LIFE_NR_CLASSES)

/* A sampled page in flight. */
struct nl_life_page {
	u64 alloc_ns;	/* bpf_ktime_get_ns() at allocation */
	u32 hist;	/* its histogram index */
	u32 order;
};

/* One histogram (a per-CPU array value): pages (allocator calls, each
 * 1 << order pages) per bucket and their summed lifetime (ns). */
struct nl_life_hist {
	u64 count[NL_LIFE_BUCKETS];
	u64 sum_ns;
};

/* Counters of the program itself (a per-CPU array, by index). */
enum nl_life_stat {
	NL_LIFE_ALLOCS,		/* successful allocations seen */
	NL_LIFE_SAMPLED,	/* of those, timed (entered in the map) */
	NL_LIFE_NOT_KEPT,	/* sampled but the map refused it (full) */
	NL_LIFE_FREED,		/* timed pages whose free was seen */
	NL_LIFE_NR_STATS,
};

#endif /* NL_PAGE_LIFE_TYPES_H */
