// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * alloc: page-allocation locality per tgid and per cgroup, by (CPU node ->
 * page node, zone, class), from kmem:mm_page_alloc, and the anon / file /
 * shmem split of user pages from pagemap:mm_lru_insertion. Local means
 * the page's node is the allocating CPU's node; a failed allocation is
 * neither local nor remote; a page whose class we never saw is left
 * unclassified rather than guessed.
 *
 * Classic tracepoints, not tp_btf: tp_btf/mm_page_alloc hands us a struct
 * page *, and turning it into a pfn needs vmemmap_base, which hosts without
 * CONFIG_KALLSYMS_ALL do not expose. The classic record carries the pfn.
 *
 * The page's node and zone come from a pfn range table that user space
 * builds from sysfs memory blocks and /proc/zoneinfo (pfn_table map).
 * One event = one allocator call (what numastat counts); pages =
 * 1 << order.
 */
#define NL_CG_ANCESTRY
#include "nl_bpf.h"
#include "cg_ancestry.h"
#include "pfn_map.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* pagemap tracepoint flag bits (include/trace/events/pagemap.h; they are
 * #defines, so not in BTF; stable since v4.x and checked against the
 * format file's print fmt on 6.18 and 7.3). */
#define PAGEMAP_ANONYMOUS  0x0002u
#define PAGEMAP_SWAPBACKED 0x0010u

/* Set before load: record movable pages for the LRU join. */
const volatile bool nl_track_class = true;
/* Set before load: alloc_slots entries per CPU - 1 (a power of two - 1). */
const volatile u32 nl_slot_mask = NL_ALLOC_SLOTS_MAX - 1;

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
	__uint(max_entries, 65536);	/* resized by user space to its memory budget */
	__type(key, struct nl_alloc_key);
	__type(value, struct nl_alloc_val);
} alloc_stats SEC(".maps");

/* The pfn join: a per-CPU direct-mapped table, slot = pfn % NL_PENDING_SLOTS,
 * holding who allocated a movable page until it reaches an LRU. Pages are
 * added to the LRU from the per-CPU lru_add batch of the CPU that allocated
 * them (it drains on that CPU), so the lookup in handle_lru_insertion sees
 * the same CPU's table. A page that reaches its LRU from another CPU, or
 * whose slot was reused first (counted in drops[NL_DROP_PENDING_FULL]),
 * stays "unclassified": never guessed. An inlined per-CPU array access
 * costs a fraction of a hash-map update on this hot path. */
#define NL_PENDING_SLOTS 4096

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_PENDING_SLOTS);
	__type(key, u32);
	__type(value, struct nl_pending_page);
} pending SEC(".maps");

static const struct nl_alloc_val zero_alloc;

/* The key as two words, for hashing and comparing. */
static __always_inline u64 key_w0(const struct nl_alloc_key *k)
{
	return k->cgroup_id;
}

static __always_inline u64 key_w1(const struct nl_alloc_key *k)
{
	return *(const u64 *)((const char *)k + 8);
}

/* Count one allocation of 2^@order pages under @k: in this CPU's slot for
 * it when the slot is free or already its own, else in the hash. */
static __always_inline void count(const struct nl_alloc_key *k, u32 order)
{
	u64 w0 = key_w0(k), w1 = key_w1(k), pages = 1ULL << (order & 31);
	u32 idx = (u32)(((w0 ^ (w1 * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL) >> 40);
	struct nl_alloc_slot *s;
	struct nl_alloc_val *v;

	idx = bpf_get_smp_processor_id() * (nl_slot_mask + 1) + (idx & nl_slot_mask);
	s = bpf_map_lookup_elem(&alloc_slots, &idx);
	if (s) {
		if (s->val.events && key_w0(&s->key) == w0 && key_w1(&s->key) == w1) {
			s->val.events++;
			s->val.pages += pages;
			return;
		}
		if (!s->val.events) {
			/* claim it: the key first, events last, since user
			 * space reads events == 0 as a free slot */
			nl_note_cgroup(k->cgroup_id);
			s->key = *k;
			s->val.pages = pages;
			s->val.events = 1;
			return;
		}
	}
	v = nl_lookup_or_init(&alloc_stats, k, &zero_alloc, NL_DROP_TASK_MAP_FULL, k->cgroup_id);
	if (!v) {
		nl_drop(NL_DROP_CGROUP_MAP_FULL);	/* lost to both views */
		return;
	}
	v->events++;
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

SEC("tracepoint/kmem/mm_page_alloc")
int handle_page_alloc(struct trace_event_raw_mm_page_alloc *ctx)
{
	u64 pfn = ctx->pfn;
	u32 order = ctx->order;
	u32 cpu_nid = bpf_get_numa_node_id();
	struct nl_alloc_key key = {
		.cgroup_id = nl_current_cgroup_id(),
		.tgid = (u32)nl_current_tgid(),
		.page_nid = NL_NID_UNKNOWN,
		.zone = NL_ZONE_UNKNOWN,
		.class = class_of(ctx->migratetype),
	};
	u32 zero = 0;
	struct nl_pfn_table *t = bpf_map_lookup_elem(&pfn_table, &zero);

	/* Until user space has loaded the table, nodes are unknowable:
	 * count nothing rather than "unknown node". */
	if (!t || !t->n)
		return 0;
	if (cpu_nid >= NL_MAX_NODES) {
		nl_drop(NL_DROP_NODE_RANGE);
		return 0;
	}
	key.cpu_nid = cpu_nid;
	if (pfn == (u64)-1) {
		key.zone = NL_ZONE_FAILED;
	} else {
		int i = nl_pfn_table_search(t, pfn);

		if (i >= 0 && i < NL_MAX_PFN_RANGES) {
			key.page_nid = t->r[i].nid;
			key.zone = t->r[i].zone;
		} else {
			nl_drop(NL_DROP_PFN_UNKNOWN);
		}
	}
	count(&key, order);

	if (nl_track_class && key.class == NL_CLASS_MOVABLE && key.zone != NL_ZONE_FAILED) {
		u32 slot = pfn & (NL_PENDING_SLOTS - 1);
		struct nl_pending_page *p = bpf_map_lookup_elem(&pending, &slot);

		if (p) {
			if (p->pfn)	/* still waiting for its LRU: lost */
				nl_drop(NL_DROP_PENDING_FULL);
			p->pfn = pfn;
			p->key = key;
			p->order = order;
		}
	}
	return 0;
}

SEC("tracepoint/pagemap/mm_lru_insertion")
int handle_lru_insertion(struct trace_event_raw_mm_lru_insertion *ctx)
{
	u64 pfn = ctx->pfn;
	u64 flags = ctx->flags;
	u32 slot = pfn & (NL_PENDING_SLOTS - 1);
	struct nl_pending_page *p = bpf_map_lookup_elem(&pending, &slot);
	struct nl_alloc_key key;

	if (!p || p->pfn != pfn || !pfn)
		return 0;
	key = p->key;
	p->pfn = 0;	/* consumed */
	if (flags & PAGEMAP_ANONYMOUS)
		key.class = NL_CLASS_ANON;
	else if (flags & PAGEMAP_SWAPBACKED)
		key.class = NL_CLASS_SHMEM;	/* file + swap-backed: tmpfs, sysv, shared anon */
	else
		key.class = NL_CLASS_FILE;
	count(&key, p->order);
	return 0;
}
