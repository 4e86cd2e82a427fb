/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Miss and remote attribution (the opt-in `top --alloc-stacks` view): what
 * bpf/alloc_stacks.bpf.c and user space share. A sampled allocation that
 * landed off the allocating CPU's node (remote) or off its preferred node
 * (miss) is counted under its kernel stack, gfp flags, class and order.
 */
#ifndef NL_ALLOC_STACKS_TYPES_H
#define NL_ALLOC_STACKS_TYPES_H

#include "nl_types.h"	/* u8/u32/u64 in user space */

/* Frames kept per stack (the stack map's value is this many addresses). */
#define NL_STK_DEPTH 32
/* Distinct stacks the stack map holds; a new stack past that (or one whose
 * hash bucket another stack holds) is counted in NL_STK_NO_STACK. */
#define NL_STK_MAX_STACKS 2048
/* Distinct (stack, gfp, class, order, kind) keys counted; more are dropped
 * (NL_STK_KEYS_FULL). */
#define NL_STK_MAX_KEYS 4096

/* What was wrong with the placement: a bit mask, both may be set. */
#define NL_STK_REMOTE 1u	/* page node != the allocating CPU's node */
#define NL_STK_MISS 2u		/* page node != the preferred node */

/* Key of the counts map. */
struct nl_stk_key {
	__s32 stack_id;	/* in the stack map; < 0 never stored */
	u32 gfp;	/* the call's gfp flags */
	u8 class;	/* enum nl_alloc_class's first three, by migratetype */
	u8 kind;	/* NL_STK_REMOTE | NL_STK_MISS */
	u8 order;	/* pages = 1 << order */
	u8 thp;		/* 1: order is the PMD order (a transparent huge page) */
	u32 pad;
};

/* Sampled allocations and their pages under one key. */
struct nl_stk_val {
	u64 events;
	u64 pages;
};

/* Counters of the program itself (per-CPU array, by index). */
enum nl_stk_stat {
	NL_STK_ALLOCS,		/* successful allocations seen */
	NL_STK_SEEN_REMOTE,	/* of those, remote (sampled or not) */
	NL_STK_SEEN_MISS,	/* of those, a miss (sampled or not) */
	NL_STK_SAMPLED,		/* remote or miss allocations sampled */
	NL_STK_NO_STACK,	/* sampled, but the stack could not be stored */
	NL_STK_KEYS_FULL,	/* sampled, stack stored, but the counts map was full */
	NL_STK_NR_STATS,
};

#endif /* NL_ALLOC_STACKS_TYPES_H */
