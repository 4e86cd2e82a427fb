/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Memory zones by index (ZONE_DMA = 0, DMA32, Normal, Movable... as this
 * kernel has them) and the kernel's own per-zone allocation counters
 * (/proc/vmstat pgalloc_*), the reference the BPF per-zone page counts are
 * checked against.
 */
#ifndef NL_ZONES_H
#define NL_ZONES_H

#include <stdint.h>

/* Zone indices kept apart (the kernel has at most 6 on any config). */
#define NL_NR_ZONES 8
#define NL_ZONE_NAME_MAX 16

/* nl_zone_names - the zone names of the first node in @zoneinfo_path
 * ("Node N, zone NAME" lines, in zone index order: every node lists the
 * same zones, populated or not), into @names[0..@max). Returns how many,
 * or a negative errno when the file cannot be read. */
int nl_zone_names(const char *zoneinfo_path, char names[][NL_ZONE_NAME_MAX], int max);

/* nl_zone_vmstat_pgalloc - the pgalloc_<zone> counters of <@procfs_root>/vmstat
 * (base pages allocated from zones of that type, all nodes summed) for
 * the @n zones @names (matched without case), into @out (0 where the
 * kernel has no such line). Returns 0 or a negative errno. */
int nl_zone_vmstat_pgalloc(const char *procfs_root, char names[][NL_ZONE_NAME_MAX], int n, uint64_t *out);

#endif
