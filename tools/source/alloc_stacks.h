/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The opt-in miss and remote attribution program
 * (bpf/alloc_stacks.bpf.c): load, attach to kmem:mm_page_alloc, read its
 * counts with their kernel stacks (raw addresses; the model names them).
 * Kept apart from loader.c: it is loaded only when asked for.
 */
#ifndef NL_ALLOC_STACKS_H
#define NL_ALLOC_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include "alloc_stacks_types.h"

struct nl_stk_prog;

/* One counted key with its stack (ips[0] innermost; nr_ips may be 0 when
 * the stack was evicted from the map, which the program never does). */
struct nl_stk_entry {
	struct nl_stk_key key;
	struct nl_stk_val val;		/* sampled allocations since attach */
	int nr_ips;
	uint64_t ips[NL_STK_DEPTH];
};

/* What one read gives: monotonic since attach. */
struct nl_alloc_stacks_counts {
	uint64_t stats[NL_STK_NR_STATS];	/* enum nl_stk_stat, summed over CPUs */
	int nr_keys;				/* keys in the counts map */
	int nr;					/* entries below: the top by events */
	struct nl_stk_entry *top;		/* caller-sized, see nl_alloc_stacks_read */
	/* the program's run count and run time (ns), 0 unless the kernel
	 * counts BPF run times (top --self-cost, kernel.bpf_stats_enabled) */
	uint64_t prog_runs, prog_run_ns;
};

/* nl_alloc_stacks_open - load and attach, counting one remote or miss
 * allocation in @sample_every (>= 1). *@out is NULL on error and @why (a
 * phrase for the user) is set. Returns 0, -ENOENT when the kernel lacks
 * the tp_btf tracepoint or BTF, -EINVAL for a page layout numalens cannot
 * read, or the negative errno of the load or attach. */
int nl_alloc_stacks_open(struct nl_stk_prog **out, uint32_t sample_every, char *why, size_t whylen);

/* nl_alloc_stacks_read - the counts so far into @out, and the @max keys
 * with the most sampled events (ties: more pages first) into @top, which
 * holds @max entries. Returns 0 or a negative errno of a map read. */
int nl_alloc_stacks_read(const struct nl_stk_prog *p, struct nl_alloc_stacks_counts *out,
			 struct nl_stk_entry *top, int max);

/* nl_alloc_stacks_gfp_names - @gfp as "NAME|NAME|0x..." into @buf (@len
 * bytes), the names of its bits from the kernel's BTF (enum of the
 * ___GFP_*_BIT numbers); bits without a name, or all of them on a kernel
 * without the enum, are left as hex. Returns @buf. */
const char *nl_alloc_stacks_gfp_names(const struct nl_stk_prog *p, uint32_t gfp, char *buf,
				      size_t len);

/* nl_alloc_stacks_close - detach and free; NULL is fine. */
void nl_alloc_stacks_close(struct nl_stk_prog *p);

#endif
