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
#include "nl_bpf.h"
#include "pfn_map.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* pagemap tracepoint flag bits (include/trace/events/pagemap.h; they are
 * #defines, so not in BTF; stable since v4.x and checked against the
 * format file's print fmt on 6.18 and 7.3). */
#define PAGEMAP_ANONYMOUS  0x0002u
#define PAGEMAP_SWAPBACKED 0x0010u

/* Set before load: record movable pages for the LRU join. */
const volatile bool nl_track_class = true;

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

static __always_inline void count(u64 id, u8 kind, u32 why, u8 cpu_nid,
				  u8 page_nid, u8 zone, u8 class, u32 order)
{
	struct nl_alloc_key key = {
		.id = id, .kind = kind, .cpu_nid = cpu_nid,
		.page_nid = page_nid, .zone = zone, .class = class,
	};
	struct nl_alloc_val *v;

	v = nl_lookup_or_init(&alloc_stats, &key, &zero_alloc, why);
	if (!v)
		return;
	v->events++;
	v->pages += 1ULL << (order & 31);
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
	u8 class = class_of(ctx->migratetype);
	u32 cpu_nid = bpf_get_numa_node_id();
	u64 tgid = bpf_get_current_pid_tgid() >> 32;
	u64 cgid = nl_current_cgroup_id();
	u8 page_nid = NL_NID_UNKNOWN, zone = NL_ZONE_UNKNOWN;
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
	}
	count(tgid, NL_KIND_TGID, NL_DROP_TASK_MAP_FULL, cpu_nid, page_nid, zone, class, order);
	count(cgid, NL_KIND_CGROUP, NL_DROP_CGROUP_MAP_FULL, cpu_nid, page_nid, zone, class, order);

	if (nl_track_class && class == NL_CLASS_MOVABLE && zone != NL_ZONE_FAILED) {
		u32 slot = pfn & (NL_PENDING_SLOTS - 1);
		struct nl_pending_page *p = bpf_map_lookup_elem(&pending, &slot);

		if (p) {
			if (p->pfn)	/* still waiting for its LRU: lost */
				nl_drop(NL_DROP_PENDING_FULL);
			p->pfn = pfn;
			p->tgid = tgid;
			p->cgroup_id = cgid;
			p->cpu_nid = cpu_nid;
			p->page_nid = page_nid;
			p->zone = zone;
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
	struct nl_pending_page pg;
	u8 class;

	if (!p || p->pfn != pfn || !pfn)
		return 0;
	pg = *p;
	p->pfn = 0;	/* consumed */
	if (flags & PAGEMAP_ANONYMOUS)
		class = NL_CLASS_ANON;
	else if (flags & PAGEMAP_SWAPBACKED)
		class = NL_CLASS_SHMEM;	/* file + swap-backed: tmpfs, sysv, shared anon */
	else
		class = NL_CLASS_FILE;
	count(pg.tgid, NL_KIND_TGID, NL_DROP_TASK_MAP_FULL, pg.cpu_nid, pg.page_nid,
	      pg.zone, class, pg.order);
	count(pg.cgroup_id, NL_KIND_CGROUP, NL_DROP_CGROUP_MAP_FULL, pg.cpu_nid,
	      pg.page_nid, pg.zone, class, pg.order);
	return 0;
}
