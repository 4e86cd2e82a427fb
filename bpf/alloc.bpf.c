// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * alloc: page-allocation locality per tgid and per cgroup, by (CPU node ->
 * page node, zone, class), from kmem:mm_page_alloc, and the anon / file /
 * shmem split of user pages from pagemap:mm_lru_insertion. Local means
 * the page's node is the allocating CPU's node; a failed allocation is
 * neither local nor remote; a page whose class we never saw is left
 * unclassified rather than guessed.
 *
 * Two ways to the page's node and zone, one loaded:
 *  - tp_btf (handle_page_alloc, handle_lru_insertion): from the struct
 *    page's flags word, where the kernel keeps both (page_to_nid(),
 *    page_zonenum()): | NODE | ZONE | ... | FLAGS | from the top bit down
 *    with a sparse vmemmap. User space derives the widths from BTF
 *    (nl_page_layout) and picks this path when it can; the LRU join is
 *    then keyed by the struct page's address (a folio's is its head
 *    page's).
 *  - classic tracepoints (the *_pfn programs): the record carries the
 *    pfn, and a range table that user space builds from sysfs memory
 *    blocks and /proc/zoneinfo (pfn_table map) gives node and zone.
 * One event = one allocator call (what numastat counts); pages =
 * 1 << order. The node and zone totals are counted for every event
 * (node_exact.bpf.h), also those the sampler below leaves out.
 */
/* loads without the kernel's BTF too (the classic programs, with --btf):
 * no kfunc, so the verifier's BTF searches on its pointer walks stay
 * (nl_untrusted() in nl_common.bpf.h) */
#define NL_NO_KFUNCS
#include "nl_common.bpf.h"
#include "cg_ancestry.bpf.h"
#include "pfn_map.h"
#include "pref_node.bpf.h"
#include "node_exact.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* pagemap tracepoint flag bits (include/trace/events/pagemap.h; they are
 * #defines, so not in BTF; stable since v4.x and checked against the
 * format file's print fmt on 6.18 and 7.3). */
#define PAGEMAP_ANONYMOUS  0x0002u
#define PAGEMAP_SWAPBACKED 0x0010u

/* Set before load: record movable pages for the LRU join. */
const volatile bool nl_track_class = true;
/* Set before load for the tp_btf programs: node = (flags >> shift) & mask,
 * the same for the zone (see the top of this file). */
const volatile u32 nl_node_shift = 0, nl_node_mask = 0;
const volatile u32 nl_zone_shift = 0, nl_zone_mask = 0;
/* Set before load: alloc_slots entries per CPU - 1 (a power of two - 1). */
const volatile u32 nl_slot_mask = NL_ALLOC_SLOTS_MAX - 1;

/* Written by user space while loaded (nl_bpf_set_alloc_sample()): count
 * one allocation in about this many, each with this weight; 1 (or 0)
 * counts every one. Why: the full path (the task's cgroup and tgid, its
 * mempolicy, the slot table, the class join) touches memory that an
 * allocation-heavy workload has just evicted, several cache misses per
 * event; a sampled event skips all of that for one counter in a line
 * this CPU keeps hot. The estimate of a key with E events (weighted) has
 * a relative standard error of about sqrt((period - 1) / E). */
volatile u32 nl_sample_period = 1;

/* Sampled pages waiting for their LRU, per CPU: a sampled page reaches it
 * within a batch of a few dozen allocations (up to 31), by when a period
 * of RING_PERIOD or more has sampled only a few more. In the CPU's own
 * line (see pending_seq), so an LRU insertion tests four words it keeps
 * hot instead of missing in two tables. Shorter periods use the tables,
 * as exact counting does. */
#define SAMPLED_RING 4
#define RING_PERIOD 16

/* The hot path's counters: per CPU, a direct-mapped table of slots, each
 * a key and its monotonic counters (nl_types.h). A slot is an inlined
 * array access where a hash map costs a hashed lookup; user space reads
 * the table through mmap, with no system call. Sized by user space to
 * nr_cpus * (nl_slot_mask + 1). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, NL_ALLOC_SLOTS_MAX);
	__type(key, u32);
	__type(value, struct nl_alloc_slot);
} alloc_slots SEC(".maps");

/* Keys whose slot another key holds. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	/* preallocated: taking entries as keys come failed (counted as
	 * map-full drops, tens of thousands in ten minutes of process churn)
	 * where the allocator's per-CPU cache of per-CPU values ran dry */
	__uint(max_entries, 65536);	/* resized by user space to its memory budget */
	__type(key, struct nl_alloc_key);
	__type(value, struct nl_alloc_val);
} alloc_stats SEC(".maps");

/* The pfn join: two direct-mapped tables per CPU, holding who allocated a
 * movable page until it reaches an LRU. Pages are added to the LRU from
 * the per-CPU lru_add batch of the CPU that allocated them (it drains on
 * that CPU), so the lookup in handle_lru_insertion sees the same CPU's
 * part. A page that reaches its LRU from another CPU, or whose entry was
 * overwritten first (counted in drops[NL_DROP_PENDING_FULL]) or is older
 * than PENDING_MAX_AGE, stays "unclassified": never guessed.
 *  - pending_hot, NL_PENDING_HOT slots per CPU (slot = the page's low bits):
 *    where a page goes at allocation and is usually found at its LRU
 *    insertion (a batch of at most a few dozen pages waits at a time), in
 *    a few pages of memory that stay in cache and TLB;
 *  - pending, NL_PENDING_SLOTS per CPU: where a page whose hot slot another
 *    page takes moves to (its own slot there), so the join keeps that
 *    table's capacity. Written and read for every page, as it was alone,
 *    it cost a cache and TLB miss at both hooks (its line was last used
 *    thousands of allocations earlier).
 * Plain arrays with the CPU in the index, not per-CPU arrays: a per-CPU
 * array's value is reached through a table of per-CPU pointers, one more
 * dependent load, and the table (32 KiB here) missed in cache on most
 * events (both hooks: ~60 ns of mm_page_alloc's ~400 on our host). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NL_PENDING_SLOTS);	/* x possible CPUs, set at load */
	__type(key, u32);
	__type(value, struct nl_pending_page);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NL_PENDING_HOT);	/* x possible CPUs, set at load */
	__type(key, u32);
	__type(value, struct nl_pending_page);
} pending_hot SEC(".maps");

/* Each CPU's join clock and sampler in its first line, the only data a
 * skipped event touches, and the sampled pages' ring after it. Aligned
 * so that no two CPUs share a line: the map is mmapable, so its values
 * start on a page. */
struct seq_line {
	u64 tracked;	/* tracked allocations: entries of the tables carry it,
			 * to tell a page waiting for its LRU from a stale entry
			 * of a page that went elsewhere */
	u64 left;	/* events until the next sampled one */
	u64 movable;	/* movable allocations while sampling: the ring's clock */
	u32 puts;	/* sampled pages put in the ring */
	u32 period;	/* the sample period this CPU counts at */
	u64 ring_addr[SAMPLED_RING];	/* the ring's page addresses, 0 = free */
	struct nl_pending_page ring[SAMPLED_RING];	/* their keys, weights, clocks */
} __attribute__((aligned(64)));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);	/* possible CPUs, set at load */
	__type(key, u32);
	__type(value, struct seq_line);
} pending_seq SEC(".maps");

/* An entry made more than this many of its CPU's tracked allocations ago
 * is stale: its page went to an LRU elsewhere or to none, and the same
 * page reaching this CPU's LRU now was allocated since. A single table
 * bounded this by chance (another page's allocation reused the slot after
 * about as many); the big table is written only for pages moved out of
 * the hot one, so the bound is explicit. A page waits for its LRU behind
 * at most a batch of others. */
#define PENDING_MAX_AGE NL_PENDING_SLOTS

/* A sampled page still in the ring after this many more movable
 * allocations on its CPU went to an LRU elsewhere or to none: stale. */
#define SAMPLED_MAX_AGE 256

/* This CPU's pending_seq line, or NULL. */
static __always_inline struct seq_line *seq_line(void)
{
	u32 i = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&pending_seq, &i);
}

/* Whether to count this allocation (of @class), and with what weight:
 * 1 when every allocation is counted, the period for a sampled one, 0 to
 * skip it. Touches only this CPU's line @l. */
static __always_inline u32 sample_weight(struct seq_line *l, u32 class)
{
	u32 period = nl_sample_period;

	if (period != l->period) {
		/* a new period: the gap drawn for the old one goes, and so do
		 * the pages waiting in the ring (a lookup now goes by the new
		 * period's way; at most a batch loses its class) */
		l->period = period;
		l->left = 0;
		for (int r = 0; r < SAMPLED_RING; r++)
			l->ring_addr[r] = 0;
	}
	if (period <= 1)
		return 1;
	if (class == NL_CLASS_MOVABLE)
		l->movable++;
	if (l->left > 1) {
		l->left--;
		return 0;
	}
	/* the next gap uniform in [1, 2 * period - 1]: one event in period
	 * on average, and never in step with a workload's own rhythm */
	l->left = 1 + bpf_get_prandom_u32() % (2 * period - 1);
	return period;
}

/* This CPU's slot @low (< NL_PENDING_SLOTS) of the pending table. */
static __always_inline u32 pending_slot(u32 low)
{
	return bpf_get_smp_processor_id() * NL_PENDING_SLOTS + (low & (NL_PENDING_SLOTS - 1));
}

/* This CPU's slot for @low in the pending_hot table. */
static __always_inline u32 pending_hot_slot(u32 low)
{
	return bpf_get_smp_processor_id() * NL_PENDING_HOT + (low & (NL_PENDING_HOT - 1));
}

static const struct nl_alloc_val zero_alloc;

/* A key as the three words it is hashed and compared by (see struct
 * nl_alloc_key: w0 the cgroup id; w1 tgid, cpu_nid, page_nid, zone and
 * class from the low byte up; w2 pref_nid), built in registers: a key
 * written byte by byte on the stack and read back as words costs a
 * failed store-to-load forward per word. */
struct key_words {
	u64 w0, w1, w2;
};

static __always_inline u64 key_w1(u32 tgid, u32 cpu_nid, u32 page_nid, u32 zone, u32 class)
{
	return (u64)tgid | (u64)(cpu_nid & 0xff) << 32 | (u64)(page_nid & 0xff) << 40 |
	       (u64)(zone & 0xff) << 48 | (u64)(class & 0xff) << 56;
}

/* w1 with its class byte replaced by @class. */
static __always_inline u64 key_w1_class(u64 w1, u32 class)
{
	return (w1 & ~(0xffULL << 56)) | (u64)(class & 0xff) << 56;
}

/* Store @k into the key at @dst. */
static __always_inline void key_store(struct nl_alloc_key *dst, const struct key_words *k)
{
	u64 *d = (u64 *)dst;

	d[0] = k->w0;
	d[1] = k->w1;
	d[2] = k->w2;
}

/* Count one allocation of 2^@order pages, standing for @weight of them
 * (the sample period it was taken at), under @k: in this CPU's slot for
 * it when the slot is free or already its own, else in the hash. */
static __always_inline void count(const struct key_words *k, u32 order, u32 weight)
{
	u64 w0 = k->w0, w1 = k->w1, w2 = k->w2, pages = (u64)weight << (order & 31);
	u32 idx = (u32)(((w0 ^ ((w1 ^ w2) * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL) >> 40);
	struct nl_alloc_key hk;
	struct nl_alloc_slot *s;
	struct nl_alloc_val *v;

	idx = bpf_get_smp_processor_id() * (nl_slot_mask + 1) + (idx & nl_slot_mask);
	s = bpf_map_lookup_elem(&alloc_slots, &idx);
	if (s) {
		const u64 *sk = (const u64 *)&s->key;

		if (s->val.events && sk[0] == w0 && sk[1] == w1 && sk[2] == w2) {
			s->val.events += weight;
			s->val.pages += pages;
			return;
		}
		if (!s->val.events) {
			/* claim it: the key first, events last, since user
			 * space reads events == 0 as a free slot */
			nl_note_cgroup(w0);
			key_store(&s->key, k);
			s->val.pages = pages;
			s->val.events = weight;
			return;
		}
	}
	key_store(&hk, k);
	v = nl_cg_lookup_or_init(&alloc_stats, &hk, &zero_alloc, NL_DROP_TASK_MAP_FULL, w0);
	if (!v) {
		nl_drop(NL_DROP_CGROUP_MAP_FULL);	/* lost to both views */
		return;
	}
	v->events += weight;
	v->pages += pages;
}

static __always_inline u8 class_of(int migratetype)
{
	if (migratetype == bpf_core_enum_value(enum migratetype, MIGRATE_MOVABLE))
		return NL_CLASS_MOVABLE;
	if (migratetype == bpf_core_enum_value(enum migratetype, MIGRATE_RECLAIMABLE))
		return NL_CLASS_RECLAIMABLE;
	return NL_CLASS_KERNEL;
}

/* Copy the pending entry @src to @dst (five words). */
static __always_inline void pending_copy(struct nl_pending_page *dst, const struct nl_pending_page *src)
{
	u64 *d = (u64 *)dst;
	const u64 *sv = (const u64 *)src;

	d[0] = sv[0];
	d[1] = sv[1];
	d[2] = sv[2];
	d[3] = sv[3];
	d[4] = sv[4];
}

/* Remember the sampled page under @addr, allocated under @k with
 * @weight, in this CPU's ring (@l) for the class join. */
static __always_inline void ring_put(struct seq_line *l, u64 addr, const struct key_words *k,
				     u32 order, u32 weight)
{
	u32 i = l->puts++ & (SAMPLED_RING - 1);
	struct nl_pending_page *r = &l->ring[i];

	/* still waiting for its LRU, and not stale: lost */
	if (l->ring_addr[i] && (u32)l->movable - r->seq <= SAMPLED_MAX_AGE)
		nl_drop(NL_DROP_PENDING_FULL);
	l->ring_addr[i] = addr;
	key_store(&r->key, k);
	r->order = (order & 0xff) | weight << 8;
	r->seq = (u32)l->movable;
}

/* Remember the page under @addr (its pfn or page key; @low = @addr >>
 * @shift, its slot bits) for the class join, as allocated under @k;
 * @order in the low byte, the weight above it; @tracked this CPU's
 * join clock. */
static __always_inline void pending_put(u64 addr, u32 low, u32 shift, const struct key_words *k,
					u32 order, u64 *tracked)
{
	u32 i = pending_hot_slot(low);
	struct nl_pending_page *h = bpf_map_lookup_elem(&pending_hot, &i), *c;
	u32 now;

	if (!h)
		return;
	now = (u32)(*tracked += 1);
	/* another page waits in the hot slot: to its own slot of the big
	 * table, unless stale */
	if (h->pfn && now - h->seq <= PENDING_MAX_AGE) {
		i = pending_slot((u32)(h->pfn >> (shift & 63)));
		c = bpf_map_lookup_elem(&pending, &i);
		if (c) {
			if (c->pfn)	/* still waiting for its LRU: lost */
				nl_drop(NL_DROP_PENDING_FULL);
			pending_copy(c, h);
		}
	}
	h->pfn = addr;
	key_store(&h->key, k);
	h->order = order;	/* with the weight above its low byte */
	h->seq = now;
}

/* The common part of both page_alloc programs: count one call for the
 * current task with @weight (sample_weight(); @l this CPU's line), and
 * remember a movable page under @addr (its pfn or its struct page's
 * address: what the LRU program of the same kind sees; @low = @addr >>
 * @shift) for the class join. */
static __always_inline void page_alloc(struct seq_line *l, u32 weight, u32 class, u32 page_nid,
				       u32 zone, u64 addr, u32 low, u32 shift, u32 order)
{
	u32 cpu_nid = bpf_get_numa_node_id();
	struct key_words k;
	u32 pref;

	if (cpu_nid >= NL_MAX_NODES) {
		nl_drop(NL_DROP_NODE_RANGE);
		return;
	}
	pref = zone == NL_ZONE_FAILED ? NL_NID_UNKNOWN : pref_node(cpu_nid, page_nid);
	k.w0 = nl_current_cgroup_id();
	k.w1 = key_w1((u32)nl_current_tgid(), cpu_nid, page_nid, zone, class);
	k.w2 = pref & 0xff;
	count(&k, order, weight);
	if (!nl_track_class || class != NL_CLASS_MOVABLE || zone == NL_ZONE_FAILED)
		return;
	if (weight >= RING_PERIOD)
		ring_put(l, addr, &k, order, weight);
	else
		pending_put(addr, low, shift, &k, order | weight << 8, &l->tracked);
}

/* The pending entry of the page under @addr (as pending_put() stored it;
 * @low its slot bits), or NULL: the hot table's first, where it usually
 * is. */
static __always_inline struct nl_pending_page *pending_of(u64 addr, u32 low)
{
	struct seq_line *l = seq_line();
	u32 i = pending_hot_slot(low);
	struct nl_pending_page *p;

	if (!addr || !l)
		return NULL;
	/* this CPU's period, as the pages were put (sample_weight()) */
	if (l->period >= RING_PERIOD) {
		/* only the ring: a page allocated unsampled is not looked for */
		for (int r = 0; r < SAMPLED_RING; r++) {
			if (l->ring_addr[r] != addr)
				continue;
			l->ring_addr[r] = 0;
			if ((u32)l->movable - l->ring[r].seq > SAMPLED_MAX_AGE)
				return NULL;
			return &l->ring[r];
		}
		return NULL;
	}
	p = bpf_map_lookup_elem(&pending_hot, &i);
	if (!p || p->pfn != addr) {
		i = pending_slot(low);
		p = bpf_map_lookup_elem(&pending, &i);
		if (!p || p->pfn != addr)
			return NULL;
	}
	if ((u32)l->tracked - p->seq > PENDING_MAX_AGE) {
		p->pfn = 0;	/* stale: see PENDING_MAX_AGE */
		return NULL;
	}
	return p;
}

/* The LRU half of the join, for the pending entry @p; @flags in the
 * classic record's PAGEMAP_* bits. */
static __always_inline void lru_insertion(struct nl_pending_page *p, u64 flags)
{
	const u64 *pk = (const u64 *)&p->key;
	struct key_words k = { .w0 = pk[0], .w2 = pk[2] };
	u32 class;

	if (flags & PAGEMAP_ANONYMOUS)
		class = NL_CLASS_ANON;
	else if (flags & PAGEMAP_SWAPBACKED)
		class = NL_CLASS_SHMEM;	/* file + swap-backed: tmpfs, sysv, shared anon */
	else
		class = NL_CLASS_FILE;
	k.w1 = key_w1_class(pk[1], class);
	p->pfn = 0;	/* consumed */
	count(&k, p->order & 0xff, p->order >> 8 ?: 1);
}

/* struct page's and struct folio's flags word: an unsigned long up to 6.17,
 * memdesc_flags_t (a struct holding it) since; first in both, but CO-RE
 * matches the field's type, so each layout has its flavour. */
struct page___ul {
	unsigned long flags;
} __attribute__((preserve_access_index));

struct folio___ul {
	unsigned long flags;
} __attribute__((preserve_access_index));

static __always_inline u64 page_flags(const struct page *page)
{
	if (bpf_core_field_exists(struct page___ul, flags))
		return *(const u64 *)((const void *)page + bpf_core_field_offset(struct page___ul, flags));
	return *(const u64 *)((const void *)page + bpf_core_field_offset(struct page, flags));
}

static __always_inline u64 folio_flags(const struct folio *folio)
{
	if (bpf_core_field_exists(struct folio___ul, flags))
		return *(const u64 *)((const void *)folio + bpf_core_field_offset(struct folio___ul, flags));
	return *(const u64 *)((const void *)folio + bpf_core_field_offset(struct folio, flags));
}

/* A struct page's address as a join key. The verifier allows no
 * arithmetic on a BTF pointer but the difference of two pointers (to a
 * privileged loader), so the key is the distance from the pending map,
 * which is the same in both programs; never 0. */
#define PAGE_KEY(p) ((u64)(p) - (u64)&pending)

/* A page key's shift to its join slot bits: pages are 64 bytes apart or
 * more, so the low bits say nothing. */
#define PAGE_SHIFT_BITS 6

SEC("tp_btf/mm_page_alloc")
int BPF_PROG(handle_page_alloc, struct page *page, unsigned int order, gfp_t gfp, int migratetype)
{
	u32 class = class_of(migratetype), weight, nid, zone;
	struct seq_line *l = seq_line();
	u64 addr, flags;

	if (!l)
		return 0;
	if (!page) {
		if ((weight = sample_weight(l, class)))
			page_alloc(l, weight, class, NL_NID_UNKNOWN, NL_ZONE_FAILED, 0, 0, 0, order);
		return 0;
	}
	/* the page's flags word for the exact node totals (every event
	 * pays for it: about 15-20 ns of the 40 they cost, measured); then
	 * the sampling decision, before anything else is read */
	flags = page_flags(page);
	nid = (flags >> nl_node_shift) & nl_node_mask;
	zone = (flags >> nl_zone_shift) & nl_zone_mask;
	node_exact(nid, zone, order);
	if (!(weight = sample_weight(l, class)))
		return 0;
	addr = PAGE_KEY(page);
	page_alloc(l, weight, class, nid, zone, addr, (u32)(addr >> PAGE_SHIFT_BITS),
		   PAGE_SHIFT_BITS, order);
	return 0;
}

SEC("tp_btf/mm_lru_insertion")
int BPF_PROG(handle_lru_insertion, struct folio *folio)
{
	u64 addr = PAGE_KEY(folio), mapping, flags = 0, pgflags;
	struct nl_pending_page *p = pending_of(addr, (u32)(addr >> PAGE_SHIFT_BITS));

	/* the folio's flags only for a page we wait for */
	if (!p)
		return 0;
	/* anon: the low bit of ->mapping (PAGE_MAPPING_ANON), as the classic
	 * record's PAGEMAP_ANONYMOUS, read through a pointer difference like
	 * PAGE_KEY (the map's address is aligned, so the bit is mapping's);
	 * swap-backed: PG_swapbacked */
	mapping = PAGE_KEY(nl_untrusted(folio, struct folio)->mapping);
	barrier_var(mapping);	/* the verifier needs the difference first */
	if (mapping & 1)
		flags |= PAGEMAP_ANONYMOUS;
	pgflags = folio_flags(folio);
	if (pgflags & (1ULL << (bpf_core_enum_value(enum pageflags, PG_swapbacked) & 63)))
		flags |= PAGEMAP_SWAPBACKED;
	lru_insertion(p, flags);
	return 0;
}

SEC("tracepoint/kmem/mm_page_alloc")
int handle_page_alloc_pfn(struct trace_event_raw_mm_page_alloc *ctx)
{
	u64 pfn = ctx->pfn;
	u32 page_nid = NL_NID_UNKNOWN, zone = NL_ZONE_UNKNOWN, class = class_of(ctx->migratetype);
	u32 zero = 0, weight;
	struct seq_line *l = seq_line();
	struct nl_pfn_table *t;

	if (!l)
		return 0;
	t = bpf_map_lookup_elem(&pfn_table, &zero);
	/* Until user space has loaded the table, nodes are unknowable:
	 * count nothing rather than "unknown node". */
	if (!t || !t->n)
		return 0;
	if (pfn == (u64)-1) {
		zone = NL_ZONE_FAILED;
	} else {
		int i = nl_pfn_table_search(t, pfn);

		if (i >= 0 && i < NL_MAX_PFN_RANGES) {
			page_nid = t->r[i].nid;
			zone = t->r[i].zone;
		} else {
			nl_drop(NL_DROP_PFN_UNKNOWN);
		}
		/* every event, for the exact node totals: this path searches
		 * the table for skipped events too (the page-flags path reads
		 * the page's flags word instead) */
		node_exact(page_nid, zone, ctx->order);
	}
	if (!(weight = sample_weight(l, class)))
		return 0;
	page_alloc(l, weight, class, page_nid, zone, pfn, (u32)pfn, 0, ctx->order);
	return 0;
}

SEC("tracepoint/pagemap/mm_lru_insertion")
int handle_lru_insertion_pfn(struct trace_event_raw_mm_lru_insertion *ctx)
{
	u64 pfn = ctx->pfn;
	struct nl_pending_page *p = pending_of(pfn, (u32)pfn);

	if (p)
		lru_insertion(p, ctx->flags);
	return 0;
}
