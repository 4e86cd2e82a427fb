/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The preferred node of the current allocation (BPF side only), shared by
 * the allocation counters (alloc.bpf.c) and the opt-in miss attribution
 * (alloc_stacks.bpf.c), so both judge a miss the same way.
 */
#ifndef NL_PREF_NODE_BPF_H
#define NL_PREF_NODE_BPF_H

#include "nl_common.bpf.h"

/* mempolicy modes (uapi/linux/mempolicy.h: an unnamed enum, so not
 * relocatable; the values are ABI) */
#define NL_MPOL_PREFERRED 1
#define NL_MPOL_BIND 2
#define NL_MPOL_INTERLEAVE 3
#define NL_MPOL_PREFERRED_MANY 5
#define NL_MPOL_WEIGHTED_INTERLEAVE 6

/* The node the current allocation was meant for, as numastat's
 * numa_hit/numa_miss/numa_foreign judge it (the preferred zone's node),
 * from the task's mempolicy, since the tracepoint does not carry it:
 *  - default and local policies: the allocating CPU's node @cpu_nid;
 *  - preferred: its node;
 *  - bind and preferred-many: @cpu_nid when the mask holds it, else the
 *    lowest node of the mask (the kernel takes the nearest: the same for
 *    a one-node mask);
 *  - interleave: the node the page went to (the kernel prefers the
 *    node it picked, which is where the page lands unless that node is
 *    full).
 * A VMA policy set with mbind() is not visible here; nor is the node an
 * explicit alloc_pages_node() names. NL_NID_UNKNOWN past NL_MAX_NODES. */
static __always_inline u8 pref_node(u32 cpu_nid, u8 page_nid)
{
	struct mempolicy *pol = nl_untrusted(bpf_get_current_task_btf(), struct task_struct)->mempolicy;
	u64 mask;
	u16 mode;

	if (!pol)
		return cpu_nid;
	mode = pol->mode;
	if (mode == NL_MPOL_INTERLEAVE || mode == NL_MPOL_WEIGHTED_INTERLEAVE)
		return page_nid;
	if (mode != NL_MPOL_PREFERRED && mode != NL_MPOL_BIND && mode != NL_MPOL_PREFERRED_MANY)
		return cpu_nid;
	mask = pol->nodes.bits[0];
	if (mode != NL_MPOL_PREFERRED && cpu_nid < 64 && (mask & (1ULL << cpu_nid)))
		return cpu_nid;
	if (!mask)
		return NL_NID_UNKNOWN;
	/* the lowest set bit's index, by halving */
	u32 n = 0;

	if (!(mask & 0xffffffffULL)) { n += 32; mask >>= 32; }
	if (!(mask & 0xffff)) { n += 16; mask >>= 16; }
	if (!(mask & 0xff)) { n += 8; mask >>= 8; }
	if (!(mask & 0xf)) { n += 4; mask >>= 4; }
	if (!(mask & 0x3)) { n += 2; mask >>= 2; }
	if (!(mask & 0x1))
		n += 1;
	return n < NL_MAX_NODES ? n : NL_NID_UNKNOWN;
}

#endif
