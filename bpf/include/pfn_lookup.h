/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pfn -> (node, zone) lookup over a sorted table of half-open ranges, the
 * SAME code for BPF (on a map value) and user space (nl_pfn_lookup(),
 * tools/core/topology.c). BPF-safe: no libc, bounded loop, masked index.
 * The table is built in user space by nl_pfn_ranges_build()
 * from sysfs memory blocks and /proc/zoneinfo.
 */
#ifndef NL_PFN_LOOKUP_H
#define NL_PFN_LOOKUP_H

#include "nl_types.h"

/* Zone value of a range whose zone is unknown (no /proc/zoneinfo); same
 * value as nl_types.h's marker for "pfn in no known range". */
#ifndef NL_ZONE_UNKNOWN
#define NL_ZONE_UNKNOWN 0xff
#endif

/* The binary search needs at most floor(log2(NL_MAX_PFN_RANGES)) + 1 steps. */
#define NL_PFN_SEARCH_STEPS 9

_Static_assert((NL_MAX_PFN_RANGES & (NL_MAX_PFN_RANGES - 1)) == 0,
	       "NL_MAX_PFN_RANGES must be a power of two (index masking)");
_Static_assert((1u << (NL_PFN_SEARCH_STEPS - 1)) >= NL_MAX_PFN_RANGES,
	       "NL_PFN_SEARCH_STEPS too small for NL_MAX_PFN_RANGES");

/*
 * The pfn_ranges map value (one-entry array map): @n valid ranges in
 * r[0..n), sorted by start, non-overlapping, each [start, end).
 */
struct nl_pfn_table {
	u32 n;
	u32 pad;
	struct nl_pfn_range r[NL_MAX_PFN_RANGES];
};

/*
 * nl_pfn_search - index of the range holding @pfn.
 * @r:   array of at least min(@n, NL_MAX_PFN_RANGES) ranges, sorted by start,
 *       non-overlapping, half-open [start, end) (a BPF map value's array is
 *       fine: indices are masked to NL_MAX_PFN_RANGES - 1)
 * @n:   number of valid ranges; values above NL_MAX_PFN_RANGES are clamped
 * @pfn: page frame number
 *
 * Returns the index in [0, n), or -1 if no range holds @pfn.
 */
static inline __attribute__((always_inline))
int nl_pfn_search(const struct nl_pfn_range *r, u32 n, u64 pfn)
{
	u32 lo = 0, hi = n, mid;
	int i;

	if (hi > NL_MAX_PFN_RANGES)
		hi = NL_MAX_PFN_RANGES;
	for (i = 0; i < NL_PFN_SEARCH_STEPS; i++) {
		if (lo >= hi)
			break;
		mid = ((lo + hi) >> 1) & (NL_MAX_PFN_RANGES - 1);
		if (pfn < r[mid].start)
			hi = mid;
		else if (pfn >= r[mid].end)
			lo = mid + 1;
		else
			return (int)mid;
	}
	return -1;
}

/* nl_pfn_table_search - nl_pfn_search() on a struct nl_pfn_table (map value).
 * Returns the index or -1. */
static inline __attribute__((always_inline))
int nl_pfn_table_search(const struct nl_pfn_table *t, u64 pfn)
{
	return nl_pfn_search(t->r, t->n, pfn);
}

#endif /* NL_PFN_LOOKUP_H */
