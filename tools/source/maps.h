/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading numalens' BPF maps into counter tables: the only code that
 * touches the stats maps (raw_counts.c calls it once per interval).
 */
#ifndef NL_MAPS_H
#define NL_MAPS_H

#include "counts.h"
#include "loader.h"

/* Read sched_stats, alloc_slots + alloc_stats and migrate_stats of @b
 * (each may be absent), summing per-CPU values, into @tgids and @cgroups
 * (cleared first) and @nodes[NL_MAX_NODES] (zeroed first). An alloc key
 * names a process and a cgroup and adds to both; keys with a retired half
 * add to the other half only. The node allocation figures come from the
 * exact per-CPU totals (node_exact.h), which count every allocation at any
 * sample period (without that map the alloc object does not load).
 * Returns 0 or a negative errno (-ENOMEM). */
int nl_maps_read(const struct nl_bpf *b, struct nl_counts_table *tgids,
		 struct nl_counts_table *cgroups, struct nl_node_counts nodes[NL_MAX_NODES]);

/* Read the sched_stats and migrate_stats entries of one id again into
 * @c, keeping each counter's larger value: a process found dead after the
 * interval's read had run on until its exit, and its entries are deleted
 * next, so this is the last chance to count that tail (its run time in
 * ns, locality ns, NUMA moves, migrated pages). Allocation counters are
 * left alone (nl_maps_forget moves them, none are lost). Returns 0 or a
 * negative errno (-ENOMEM); an id with no entries leaves @c as it was. */
int nl_maps_reread_id(const struct nl_bpf *b, int kind, uint64_t id, struct nl_counts *c);

/* Delete every entry of @kind whose id is in @ids[@n] (exited processes,
 * or removed cgroups whose counts were folded into their parents) from the
 * stats maps. The alloc counters of such an id move to a key with that
 * half retired (nl_types.h), so the figures of the process or cgroup that
 * shared them do not fall. Sorts @ids. Returns the number of map entries
 * deleted or retired. */
int nl_maps_forget(const struct nl_bpf *b, int kind, uint64_t *ids, int n);

/* nl_maps_cgroup_ancestors - the ancestors of cgroup @id as BPF recorded
 * them when it was first counted (bpf/cg_ancestry.bpf.h), nearest first, into
 * @anc (at most @max). Returns how many (0 for the root itself),
 * or -ENOENT when no program recorded it. */
int nl_maps_cgroup_ancestors(const struct nl_bpf *b, uint64_t id, uint64_t *anc, int max);

#endif
