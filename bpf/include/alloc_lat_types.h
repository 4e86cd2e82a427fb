/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Allocation latency (the opt-in `top --alloc-latency` view): what
 * bpf/alloc_lat.bpf.c and user space share. Sampled page-allocator calls
 * are timed from entry to exit of the allocator's core function and
 * counted in log2 histograms, one per (placement, class).
 */
#ifndef NL_ALLOC_LAT_TYPES_H
#define NL_ALLOC_LAT_TYPES_H

#include "nl_types.h"	/* u32/u64 in user space */

/* Bucket b holds calls of [2^b, 2^(b+1)) ns; the last also everything
 * longer (2^31 ns is 2.1 s). */
#define NL_LAT_BUCKETS 32

/* Where the page landed, against the node of the CPU that returned it. */
enum nl_lat_place {
	NL_LAT_LOCAL,
	NL_LAT_REMOTE,
	NL_LAT_FAILED,		/* no page */
	NL_LAT_NR_PLACES,
};

/* Classes by the call's gfp flags: kernel (unmovable), reclaimable,
 * movable, in the order of enum nl_alloc_class's first three. */
#define NL_LAT_NR_CLASSES 3

/* Histogram index: place * NL_LAT_NR_CLASSES + class. */
#define NL_LAT_NR_HISTS (NL_LAT_NR_PLACES * NL_LAT_NR_CLASSES)

/* One histogram (a per-CPU array value): calls per bucket and their
 * summed duration (ns). */
struct nl_lat_hist {
	u64 count[NL_LAT_BUCKETS];
	u64 sum_ns;
};

/* Counters of the program itself (a per-CPU array, by index). */
enum nl_lat_stat {
	NL_LAT_CALLS,		/* allocator calls entered */
	NL_LAT_SAMPLED,		/* of those, timed */
	NL_LAT_LOST,		/* timed calls the entry could not keep (no
				 * task storage: it could not be made here) */
	NL_LAT_NR_STATS,
};

#endif /* NL_ALLOC_LAT_TYPES_H */
