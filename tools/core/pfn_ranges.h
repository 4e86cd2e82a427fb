/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pfn -> (node, zone) range table the allocation counters' classic
 * programs look pages up in (bpf/include/pfn_lookup.h), built from sysfs
 * memory blocks and /proc/zoneinfo.
 */
#ifndef NL_PFN_RANGES_H
#define NL_PFN_RANGES_H

#include <stdint.h>
#include "nl_types.h"
#include "pfn_lookup.h"

/*
 * nl_pfn_ranges_build - build the pfn -> (nid, zone) table.
 * @out:           array of @max ranges to fill
 * @max:           capacity of @out (NL_MAX_PFN_RANGES for the BPF map)
 * @sysfs_root:    "/sys" or a fixture root
 * @zoneinfo_path: "/proc/zoneinfo", a fixture, or NULL for no zone split
 *
 * Node of a pfn: devices/system/memory/block_size_bytes (hex bytes, e.g.
 * "8000000" = 128 MiB) gives block_pages = block_size / page size; each
 * devices/system/node/nodeN/memoryM link puts pfns [M*block_pages,
 * (M+1)*block_pages) on node N. Adjacent same-node blocks are merged.
 * Zone: each node range is intersected with that node's zone spans from
 * zoneinfo ("Node N, zone NAME" ... "start_pfn: S", "spanned P" => zone span
 * [S, S+P)); the zone index is the zone's position among that node's zones
 * in zoneinfo (DMA=0, DMA32=1, Normal=2, Movable=3, Device=4 on x86_64).
 * Parts of a block outside every zone span of its node are dropped (the
 * allocator never hands them out, e.g. pfn 0 before ZONE_DMA's start 1).
 * If two zone spans of a node overlap (ZONE_MOVABLE inside ZONE_NORMAL with
 * kernelcore=mirror) the higher zone index wins. If a block is linked to two
 * nodes (blocks straddling a node boundary) and zone spans do not separate
 * them, the lower-start range keeps the overlap and the later one is trimmed.
 * With @zoneinfo_path NULL, or if it cannot be read, every range has
 * zone = NL_ZONE_UNKNOWN and -errno is NOT returned for that.
 *
 * The page size is sysconf(_SC_PAGESIZE).
 * Returns the number of ranges written (sorted by start, non-overlapping,
 * half-open [start, end), adjacent ranges with equal nid and zone merged),
 * -E2BIG if more than @max are needed, -ENOENT if there are no memory
 * blocks, -EINVAL on a bad block size, -ENOMEM, or another -errno.
 */
int nl_pfn_ranges_build(struct nl_pfn_range *out, int max, const char *sysfs_root,
			const char *zoneinfo_path);

/* nl_pfn_ranges_build_ps - nl_pfn_ranges_build() with an explicit page size
 * in bytes (tests, or a guest with another page size). */
int nl_pfn_ranges_build_ps(struct nl_pfn_range *out, int max, const char *sysfs_root,
			   const char *zoneinfo_path, long page_size);

/*
 * nl_pfn_lookup - index of the range of @r (n entries, as built above)
 * holding @pfn, or -1. Same code as the BPF side (nl_pfn_search() in
 * bpf/include/pfn_lookup.h); @n is clamped to NL_MAX_PFN_RANGES.
 */
int nl_pfn_lookup(const struct nl_pfn_range *r, int n, uint64_t pfn);

#endif
