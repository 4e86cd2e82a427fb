// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * page_life: how long pages live, opt-in (`numalens top --page-lifetime`).
 * One allocation in nl_sample_every (kmem:mm_page_alloc) is remembered by
 * its struct page's address with its time, placement and class; when that
 * page is freed (kmem:mm_page_free, which every free passes, batched ones
 * too) its lifetime is counted in a log2 histogram. Unsampled allocations
 * cost a random number; every free costs one hash lookup. Kept apart from
 * alloc.bpf.c: it is loaded only when asked for.
 *
 * The map of pages in flight is a plain hash, not an LRU: when it is full
 * the insert fails and the page is counted as not kept, exactly, at no
 * cost to the frees. An LRU map would drop its oldest record without a
 * word, and the oldest are the longest lives, so the histograms would lean
 * to short lives unseen; a refused sample is refused whatever its life.
 */
#include "nl_common.bpf.h"
#include "page_node.bpf.h"
#include "log2.bpf.h"
#include "page_life_types.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load: time one allocation in this many. */
const volatile u32 nl_sample_every = 64;
/* Set before load: the order of a PMD-mapped transparent huge page. */
const volatile u32 nl_thp_order = 9;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NL_LIFE_MAX_PAGES);
	__type(key, u64);
	__type(value, struct nl_life_page);
} life_pages SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_LIFE_NR_HISTS);
	__type(key, u32);
	__type(value, struct nl_life_hist);
} life_hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_LIFE_NR_STATS);
	__type(key, u32);
	__type(value, u64);
} life_stats SEC(".maps");

static __always_inline void life_stat(u32 k)
{
	u64 *c = bpf_map_lookup_elem(&life_stats, &k);

	if (c)
		*c += 1;
}

/* log2 of @ns, at most NL_LIFE_BUCKETS - 1 (0 for 0 and 1). */
static __always_inline u32 life_bucket(u64 ns)
{
	u32 b = nl_log2(ns);

	return b < NL_LIFE_BUCKETS ? b : NL_LIFE_BUCKETS - 1;
}

static __always_inline u32 life_class(int migratetype, u32 order)
{
	if (migratetype == bpf_core_enum_value(enum migratetype, MIGRATE_MOVABLE))
		return order == nl_thp_order ? NL_LIFE_THP : NL_LIFE_MOVABLE;
	if (migratetype == bpf_core_enum_value(enum migratetype, MIGRATE_RECLAIMABLE))
		return NL_LIFE_RECLAIMABLE;
	return NL_LIFE_KERNEL;
}

/* The arguments are read as plain words: the page's address is the key. */
SEC("tp_btf/mm_page_alloc")
int life_alloc(u64 *ctx)
{
	u64 page = ctx[0];
	u32 order = (u32)ctx[1];
	int migratetype = (int)ctx[3];
	struct nl_life_page v = {};
	u32 place;

	if (!page)
		return 0;
	life_stat(NL_LIFE_ALLOCS);
	if (nl_sample_every > 1 && bpf_get_prandom_u32() % nl_sample_every)
		return 0;
	place = nl_page_nid(page) == bpf_get_numa_node_id() ? NL_LIFE_LOCAL : NL_LIFE_REMOTE;
	v.alloc_ns = bpf_ktime_get_ns();
	v.hist = place * NL_LIFE_NR_CLASSES + life_class(migratetype, order);
	v.order = order;
	if (bpf_map_update_elem(&life_pages, &page, &v, BPF_ANY)) {
		life_stat(NL_LIFE_NOT_KEPT);
		return 0;
	}
	life_stat(NL_LIFE_SAMPLED);
	return 0;
}

SEC("tp_btf/mm_page_free")
int life_free(u64 *ctx)
{
	u64 page = ctx[0], now, ns;
	struct nl_life_page *v = bpf_map_lookup_elem(&life_pages, &page);
	struct nl_life_hist *h;
	u32 idx, b;

	if (!v)
		return 0;
	now = bpf_ktime_get_ns();
	ns = now > v->alloc_ns ? now - v->alloc_ns : 0;
	idx = v->hist;
	bpf_map_delete_elem(&life_pages, &page);
	life_stat(NL_LIFE_FREED);
	h = bpf_map_lookup_elem(&life_hists, &idx);
	if (!h)
		return 0;
	b = life_bucket(ns);
	barrier_var(b);
	if (b < NL_LIFE_BUCKETS)
		h->count[b] += 1;
	h->sum_ns += ns;
	return 0;
}
