/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The memcg files the reclaim agent reads and writes, for cgroup v2 (the
 * guest) and the v1 memory controller (hybrid hosts): usage, limit,
 * memory.numa_stat, memory.events max (v1: failcnt), PSI memory.pressure,
 * swappiness, swap availability, memory.reclaim and cgroup.procs.
 * @dir is the cgroup's absolute directory. Sizes are bytes unless said;
 * errors are negative errno (-ENOENT when the cgroup went away).
 */
#ifndef NL_RECLAIM_CG_H
#define NL_RECLAIM_CG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "nl_types.h"

#define NL_RCG_NO_LIMIT UINT64_MAX

/* memory.numa_stat, per node, in pages. v1 has no active/inactive split:
 * there anon and file land in the inactive fields. */
struct nl_rcg_numa {
	int nr_nodes;	/* highest node id seen + 1 */
	uint64_t inactive_anon[NL_MAX_NODES], active_anon[NL_MAX_NODES];
	uint64_t inactive_file[NL_MAX_NODES], active_file[NL_MAX_NODES];
	uint64_t file_mapped[NL_MAX_NODES];	/* page cache mapped by a task (v2) */
	bool have_mapped;	/* file_mapped was listed (not in v1) */
};

/* Parse memory.numa_stat of @dir. 0 or -errno. */
int nl_rcg_numa_stat(const char *dir, bool v1, struct nl_rcg_numa *out);

/* Pages of node @nid (anon + file, all four lists). */
uint64_t nl_rcg_numa_node_pages(const struct nl_rcg_numa *n, int nid);

/* memory.current (v1 usage_in_bytes). */
int nl_rcg_usage(const char *dir, bool v1, uint64_t *bytes);

/* Swap the cgroup uses now, bytes (v2 memory.swap.current: a counter
 * read, no statistics flush). 0, -EOPNOTSUPP on v1 (its memsw counter
 * mixes memory in) or -errno. */
int nl_rcg_swap_usage(const char *dir, bool v1, uint64_t *bytes);

/* memory.max (v1 limit_in_bytes); NL_RCG_NO_LIMIT for "max" or v1's
 * page-counter maximum. */
int nl_rcg_limit(const char *dir, bool v1, uint64_t *bytes);

/* memory.events "max" (times usage hit the limit; v1: memory.failcnt). */
int nl_rcg_events_max(const char *dir, bool v1, uint64_t *n);

/* Evicted pages of the memcg that were faulted or read back
 * (memory.stat workingset_refault_anon + _file), pages since it was
 * created. -ENODATA when the kernel does not count them. */
int nl_rcg_refaults(const char *dir, bool v1, uint64_t *pages);

/* The memcg's memory.stat workingset_refault_anon, workingset_refault_file
 * and pgmajfault (pages, faults; totals since it was created), for
 * nl_refault_cost() (reclaim_refault.h). -ENODATA when the kernel does not count refaults. */
int nl_rcg_refault_stat(const char *dir, uint64_t *anon, uint64_t *file, uint64_t *majfault);

/* PSI memory.pressure "some" total stall, microseconds. -ENOENT without
 * PSI for this cgroup (v1, or psi=0). */
int nl_rcg_psi_some_us(const char *dir, uint64_t *us);

/* Swappiness that applies to @dir (v1 memory.swappiness, v2
 * memory.swappiness when present, else vm.swappiness). */
int nl_rcg_swappiness(const char *dir, bool v1, uint32_t *s);

/* True when anon can be reclaimed: swap configured (/proc/swaps size >
 * used is not required, only > 0) and, on v2, memory.swap.max != 0. */
bool nl_rcg_swap_ok(const char *dir, bool v1);

/* Write @bytes to memory.reclaim (v2 only). 0, -EAGAIN when the kernel
 * reclaimed less than asked, -EOPNOTSUPP on v1 / no such file, -errno. */
int nl_rcg_reclaim(const char *dir, uint64_t bytes);

/* pids in cgroup.procs of @dir into a malloc'd array. Returns the count
 * (>= 0) or -errno. */
int nl_rcg_procs(const char *dir, pid_t **pids);

/* Read one u64 value from @dir/@file ("max" -> NL_RCG_NO_LIMIT). */
int nl_rcg_read_u64(const char *dir, const char *file, uint64_t *v);

#endif
