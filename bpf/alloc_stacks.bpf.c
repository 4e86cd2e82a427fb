// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * alloc_stacks: which kernel paths allocate off-node, opt-in (`numalens
 * top --alloc-stacks`). On kmem:mm_page_alloc, an allocation whose page
 * landed off the allocating CPU's node (remote) or off its preferred node
 * (miss, judged as alloc.bpf.c judges it) is sampled, one in
 * nl_sample_every, and counted under its kernel stack, gfp flags, class
 * and order. Local hits cost a node comparison and return; only sampled
 * ones pay the stack walk, so the cost stays bounded whatever the remote
 * share. Kept apart from alloc.bpf.c: it is loaded only when asked for.
 */
#include "nl_common.bpf.h"
#include "pref_node.bpf.h"
#include "page_node.bpf.h"
#include "alloc_stacks_types.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load: count one remote or miss allocation in this many. */
const volatile u32 nl_sample_every = 1;
/* Set before load: the order of a PMD-mapped transparent huge page. */
const volatile u32 nl_thp_order = 9;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, NL_STK_MAX_STACKS);
	__uint(key_size, sizeof(u32));
	__uint(value_size, NL_STK_DEPTH * sizeof(u64));
} stk_traces SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NL_STK_MAX_KEYS);
	__type(key, struct nl_stk_key);
	__type(value, struct nl_stk_val);
} stk_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_STK_NR_STATS);
	__type(key, u32);
	__type(value, u64);
} stk_stats SEC(".maps");

static __always_inline void stk_stat(u32 k)
{
	u64 *c = bpf_map_lookup_elem(&stk_stats, &k);

	if (c)
		*c += 1;
}

static __always_inline u8 stk_class(int migratetype)
{
	if (migratetype == bpf_core_enum_value(enum migratetype, MIGRATE_MOVABLE))
		return NL_CLASS_MOVABLE;
	if (migratetype == bpf_core_enum_value(enum migratetype, MIGRATE_RECLAIMABLE))
		return NL_CLASS_RECLAIMABLE;
	return NL_CLASS_KERNEL;
}

/* The arguments are read as plain words: the page is only an address
 * here, its node read through the probe helper. */
SEC("tp_btf/mm_page_alloc")
int stk_page_alloc(u64 *ctx)
{
	u64 page = ctx[0];
	u32 order = (u32)ctx[1], gfp = (u32)ctx[2];
	int migratetype = (int)ctx[3];
	u32 cpu_nid, page_nid, pref;
	struct nl_stk_key key = {};
	struct nl_stk_val *v, one = {};
	long id;

	if (!page)
		return 0;	/* a failure is neither remote nor a miss */
	stk_stat(NL_STK_ALLOCS);
	cpu_nid = bpf_get_numa_node_id();
	page_nid = nl_page_nid(page);
	if (cpu_nid >= NL_MAX_NODES)
		return 0;
	pref = pref_node(cpu_nid, (u8)page_nid);
	if (page_nid != cpu_nid)
		key.kind |= NL_STK_REMOTE;
	if (pref != NL_NID_UNKNOWN && page_nid != pref)
		key.kind |= NL_STK_MISS;
	if (!key.kind)
		return 0;
	if (key.kind & NL_STK_REMOTE)
		stk_stat(NL_STK_SEEN_REMOTE);
	if (key.kind & NL_STK_MISS)
		stk_stat(NL_STK_SEEN_MISS);
	if (nl_sample_every > 1 && bpf_get_prandom_u32() % nl_sample_every)
		return 0;
	stk_stat(NL_STK_SAMPLED);
	id = bpf_get_stackid(ctx, &stk_traces, 0);
	if (id < 0) {
		stk_stat(NL_STK_NO_STACK);
		return 0;
	}
	key.stack_id = (__s32)id;
	key.gfp = gfp;
	key.class = stk_class(migratetype);
	key.order = (u8)order;
	key.thp = order == nl_thp_order;
	v = bpf_map_lookup_elem(&stk_counts, &key);
	if (!v) {
		bpf_map_update_elem(&stk_counts, &key, &one, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&stk_counts, &key);
		if (!v) {
			stk_stat(NL_STK_KEYS_FULL);
			return 0;
		}
	}
	__sync_fetch_and_add(&v->events, 1);
	__sync_fetch_and_add(&v->pages, 1ULL << (order & 31));
	return 0;
}
