// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * vmscan: the figures of the proposed memory.vmscan_stat (docs/vmscan.md)
 * from the vmscan tracepoints: pages scanned, rotated (activated) and
 * freed, anon and file, per cgroup x node x context, and reclaim episode
 * time with a log2 histogram per cgroup x context.
 *
 * An episode is one task's begin -> end pair (memcg_reclaim, direct_reclaim,
 * node_reclaim; kswapd_wake -> kswapd_sleep for kswapd). Its begin fixes
 * the context and the cgroup, kept per task in `episodes`; the
 * lru_shrink_{inactive,active} events in between (which carry only the
 * node) are charged to them. A shrink outside any episode is kswapd's when
 * the task is kswapd, else direct reclaim of the current task's cgroup.
 *
 * Why tp_btf: the function arguments carry what the raw trace records
 * lack: struct reclaim_stat (nr_activate[] per type) of shrink_inactive,
 * and on 7.x the struct mem_cgroup * of the reclaim begin events, from
 * which the cgroup's kernfs id is read directly (the trace record only has
 * mem_cgroup_id(), the css id, which the rest of numalens does not key by).
 *
 * Two variants of each begin program: *_v7 reads the memcg argument
 * (TP_PROTO(gfp, order, memcg) on 7.x), *_v6 has none (TP_PROTO(order,
 * gfp) on 6.18) and charges limit reclaim to the reclaiming task's cgroup.
 * The loader picks one from the running kernel's BTF (whether
 * btf_trace_mm_vmscan_memcg_reclaim_begin's last parameter is a struct
 * mem_cgroup *), so one binary serves both.
 *
 * memory.reclaim goes through the same memcg_reclaim_begin as limit
 * reclaim; it is told apart by user_proactive_reclaim() (or
 * memory_reclaim()) on the kernel stack, whose address ranges user space
 * reads from /proc/kallsyms into nl_proactive_lo/hi before load.
 */
#include "nl_common.bpf.h"
#include "vmscan_types.h"

#define PF_KSWAPD 0x00020000
#define STACK_DEPTH 16

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* [lo, hi) text ranges of the proactive-reclaim entry points; 0 = unknown */
const volatile u64 nl_proactive_lo[2];
const volatile u64 nl_proactive_hi[2];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	/* preallocated: taking entries as keys come failed (counted as
	 * map-full drops, tens of thousands in ten minutes of process churn)
	 * where the allocator's per-CPU cache of per-CPU values ran dry */
	__uint(max_entries, 16384);
	__type(key, struct nl_vs_key);
	__type(value, struct nl_vs_pages);
} vmscan_pages SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	/* preallocated: taking entries as keys come failed (counted as
	 * map-full drops, tens of thousands in ten minutes of process churn)
	 * where the allocator's per-CPU cache of per-CPU values ran dry */
	__uint(max_entries, 8192);
	__type(key, struct nl_vs_tkey);
	__type(value, struct nl_vs_time);
} vmscan_time SEC(".maps");

/* One task's open episode. */
struct episode {
	u64 start_ns;
	u64 cgroup_id;
	u32 ctx;
	u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NL_VS_MAX_TASKS);
	__type(key, u32);	/* pid (thread id) */
	__type(value, struct episode);
} episodes SEC(".maps");

/*
 * MGLRU's scan (scan_folios) looks at more folios than it isolates: the
 * ones it sorts into a younger generation are memory.stat pgrefill, only
 * the isolated ones are pgscan, and lru_shrink_inactive's nr_scanned mixes
 * the two (and repeats on evict_folios' retry pass). So under MGLRU the
 * isolate event's split is kept per task until the shrink event that names
 * the node. nl_mglru is set by user space from /sys/kernel/mm/lru_gen/enabled
 * at every snapshot (vmscan_read.c): a switch between two snapshots is
 * counted by the mode read last.
 */
volatile u32 nl_mglru;

/* Set by user space while nobody needs the figures (the reclaim agent
 * standing by for every memcg it manages): each program returns at once.
 * Cheaper than detaching them: a detach or attach rewrites the kernel's
 * text at each tracepoint (a static key) and the trampoline, which took
 * the agent 0.1-0.9 s of CPU in a TCG guest each time, while the programs
 * returning at once cost the reclaiming tasks next to nothing. */
volatile u32 nl_vs_paused;
/* The episode ends (memcg, direct, node reclaim end, kswapd sleep) do run
 * while paused: an episode begun before the pause would otherwise stay in
 * `episodes` (a task that exits meanwhile leaves it there for good), and
 * kswapd, which keeps its first start across wakes, would date its next
 * episode from before the pause. An end finds nothing to close unless its
 * begin was seen, so paused ends cost one lookup. */

struct isolated {
	u64 taken;	/* isolated for eviction (memory.stat pgscan) */
	u64 sorted;	/* moved to a younger generation (memory.stat pgrefill) */
	u64 active;	/* classic LRU: folios an active list's isolation looked
			 * at (memory.stat pgrefill), taken or not */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct isolated);
} isolated_pending SEC(".maps");

/* The memcg that try_to_free_mem_cgroup_pages() was asked to reclaim, kept
 * per task until that call's reclaim-begin event (which on 6.x kernels does
 * not name it) takes it: the writer of memory.reclaim, or a task charged in
 * a child of the memcg whose limit it hit, is not in that memcg. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, u64);
} reclaim_target SEC(".maps");

static const struct nl_vs_pages zero_pages;
static const struct nl_vs_time zero_time;

static __always_inline u32 cur_pid(void)
{
	return (u32)bpf_get_current_pid_tgid();
}

static __always_inline bool is_kswapd(void)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return t->flags & PF_KSWAPD;
}

/* Kernfs id of @memcg's cgroup, or 0. */
static __always_inline u64 memcg_cgroup_id(struct mem_cgroup *memcg)
{
	struct cgroup *cg;

	if (!memcg)
		return 0;
	cg = nl_untrusted(memcg, struct mem_cgroup)->css.cgroup;
	if (!cg)
		return 0;
	return cg->kn->id;
}

/* True when a proactive-reclaim entry point is on the kernel stack. */
static __always_inline bool in_proactive(void *ctx)
{
	u64 ips[STACK_DEPTH];
	long n;

	if (!nl_proactive_lo[0] && !nl_proactive_lo[1])
		return false;
	n = bpf_get_stack(ctx, ips, sizeof(ips), 0);
	if (n <= 0)
		return false;
	n /= sizeof(u64);
	for (int i = 0; i < STACK_DEPTH; i++) {
		if (i >= n)
			break;
		for (int r = 0; r < 2; r++)
			if (ips[i] >= nl_proactive_lo[r] && ips[i] < nl_proactive_hi[r])
				return true;
	}
	return false;
}

static __always_inline void begin(u32 ctx, u64 cgid)
{
	u32 pid = cur_pid();
	struct episode e = { .start_ns = bpf_ktime_get_ns(), .cgroup_id = cgid, .ctx = ctx };

	/* a newer begin replaces a stale one (its end was missed) */
	if (bpf_map_update_elem(&episodes, &pid, &e, BPF_ANY))
		nl_drop(NL_DROP_TASK_MAP_FULL);
}

static __always_inline u32 log2_u64(u64 v)
{
	u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

static __always_inline struct nl_vs_time *time_of(u64 cgid, u32 ctx)
{
	struct nl_vs_tkey k = { .cgroup_id = cgid, .ctx = ctx };

	return nl_lookup_or_init(&vmscan_time, &k, &zero_time, NL_DROP_CGROUP_MAP_FULL);
}

static __always_inline void end(void)
{
	u32 pid = cur_pid();
	struct episode *e = bpf_map_lookup_elem(&episodes, &pid);
	struct nl_vs_time *t;
	u64 d;
	u32 b;

	if (!e)
		return;
	d = bpf_ktime_get_ns() - e->start_ns;
	t = time_of(e->cgroup_id, e->ctx);
	if (t) {
		b = log2_u64(d);
		if (b >= NL_VS_HIST)
			b = NL_VS_HIST - 1;
		t->elapsed_ns += d;
		t->episodes++;
		t->hist[b]++;
	}
	bpf_map_delete_elem(&episodes, &pid);
}

/* Context and cgroup the current task's reclaim work is charged to. */
static __always_inline void who(u32 *ctx, u64 *cgid)
{
	u32 pid = cur_pid();
	struct episode *e = bpf_map_lookup_elem(&episodes, &pid);

	if (e) {
		*ctx = e->ctx;
		*cgid = e->cgroup_id;
	} else if (is_kswapd()) {
		*ctx = NL_VS_KSWAPD;
		*cgid = 0;
	} else {
		*ctx = NL_VS_DIRECT;
		*cgid = nl_current_cgroup_id();
	}
}

static __always_inline struct nl_vs_pages *pages_of(int nid, u32 ctx, u64 cgid)
{
	struct nl_vs_key k = { .cgroup_id = cgid, .ctx = (u8)ctx };

	if (nid < 0 || nid >= NL_MAX_NODES) {
		nl_drop(NL_DROP_NODE_RANGE);
		return NULL;
	}
	k.nid = (u8)nid;
	return nl_lookup_or_init(&vmscan_pages, &k, &zero_pages, NL_DROP_CGROUP_MAP_FULL);
}

/* ---- episodes ------------------------------------------------------------ */

SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(memcg_begin_v7, gfp_t gfp, int order, struct mem_cgroup *memcg)
{
	if (nl_vs_paused)
		return 0;
	u64 cgid = memcg_cgroup_id(memcg);

	if (!cgid)
		cgid = nl_current_cgroup_id();
	begin(in_proactive(ctx) ? NL_VS_PROACTIVE : NL_VS_LIMIT, cgid);
	return 0;
}

/* 6.x: the memcg reclaim entry point names the memcg the begin event
 * lacks; loaded with memcg_begin_v6 where the kernel has that function. */
SEC("fentry/try_to_free_mem_cgroup_pages")
int BPF_PROG(memcg_target, struct mem_cgroup *memcg)
{
	if (nl_vs_paused)
		return 0;
	u64 *t = bpf_task_storage_get(&reclaim_target, bpf_get_current_task_btf(), 0,
				      BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (t)
		*t = memcg_cgroup_id(memcg);
	return 0;
}

/* 6.x: no memcg argument. The memcg comes from memcg_target; without it
 * (not loaded, or no storage), the reclaiming task's own cgroup stands in
 * (docs/vmscan.md: where that is wrong). */
SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(memcg_begin_v6, int order, gfp_t gfp)
{
	if (nl_vs_paused)
		return 0;
	u64 *t = bpf_task_storage_get(&reclaim_target, bpf_get_current_task_btf(), 0, 0);
	u64 cgid = 0;

	if (t) {
		cgid = *t;
		*t = 0;
	}
	if (!cgid)
		cgid = nl_current_cgroup_id();
	begin(in_proactive(ctx) ? NL_VS_PROACTIVE : NL_VS_LIMIT, cgid);
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(memcg_end)
{
	end();	/* also while paused: see the pause flag */
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(direct_begin_v7, gfp_t gfp, int order, struct mem_cgroup *memcg)
{
	if (nl_vs_paused)
		return 0;
	u64 cgid = memcg_cgroup_id(memcg);

	begin(NL_VS_DIRECT, cgid ? cgid : nl_current_cgroup_id());
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(direct_begin_v6, int order, gfp_t gfp)
{
	if (nl_vs_paused)
		return 0;
	begin(NL_VS_DIRECT, nl_current_cgroup_id());
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(direct_end)
{
	end();	/* also while paused: see the pause flag */
	return 0;
}

/* Node-wide reclaim: /sys/devices/system/node/nodeN/reclaim (proactive,
 * every memcg: charged to the root), or the allocator's node_reclaim under
 * vm.zone_reclaim_mode (direct, the allocating task's cgroup). Without the
 * kallsyms ranges every node reclaim counts as proactive. */
SEC("tp_btf/mm_vmscan_node_reclaim_begin")
int BPF_PROG(node_begin, int nid, int order, gfp_t gfp)
{
	if (nl_vs_paused)
		return 0;
	bool known = nl_proactive_lo[0] || nl_proactive_lo[1];

	if (!known || in_proactive(ctx))
		begin(NL_VS_PROACTIVE, 0);
	else
		begin(NL_VS_DIRECT, nl_current_cgroup_id());
	return 0;
}

SEC("tp_btf/mm_vmscan_node_reclaim_end")
int BPF_PROG(node_end)
{
	end();	/* also while paused: see the pause flag */
	return 0;
}

/* kswapd works for every memcg of its node: charged to the root (id 0). */
SEC("tp_btf/mm_vmscan_kswapd_wake")
int BPF_PROG(kswapd_wake, int nid, int zid, int order)
{
	if (nl_vs_paused)
		return 0;
	u32 pid = cur_pid();

	/* kswapd can wake again without sleeping: keep the first start */
	if (!bpf_map_lookup_elem(&episodes, &pid))
		begin(NL_VS_KSWAPD, 0);
	return 0;
}

SEC("tp_btf/mm_vmscan_kswapd_sleep")
int BPF_PROG(kswapd_sleep, int nid)
{
	end();	/* also while paused: see the pause flag */
	return 0;
}

SEC("tp_btf/mm_vmscan_throttled")
int BPF_PROG(throttled, int nid, int usec_timeout, int usec_delayed, int reason)
{
	if (nl_vs_paused)
		return 0;
	struct nl_vs_time *t;
	u64 cgid;
	u32 c;

	who(&c, &cgid);
	t = time_of(cgid, c);
	if (t) {
		t->throttled++;
		if (usec_delayed > 0)
			t->throttled_ns += (u64)usec_delayed * 1000;
	}
	return 0;
}

/* ---- pages --------------------------------------------------------------- */

/* @lru is the list scanned: on the classic LRU enum lru_list (inactive
 * anon 0, active anon 1, inactive file 2, active file 3); under MGLRU only
 * 0 (anon) or 2 (file). */
SEC("tp_btf/mm_vmscan_lru_isolate")
int BPF_PROG(lru_isolate, int highest_zoneidx, int order, unsigned long nr_requested,
	     unsigned long nr_scanned, unsigned long nr_skipped, unsigned long nr_taken, int lru)
{
	if (nl_vs_paused)
		return 0;
	struct isolated *p;

	/* Classic LRU: only an active list's scan (LRU_ACTIVE_ANON 1,
	 * LRU_ACTIVE_FILE 3) is needed here; the inactive one's count comes
	 * whole with lru_shrink_inactive. */
	if (!nl_mglru && lru != 1 && lru != 3)
		return 0;
	p = bpf_task_storage_get(&isolated_pending, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!p) {
		nl_drop(NL_DROP_TASK_MAP_FULL);
		return 0;
	}
	if (!nl_mglru) {
		/* one isolation per shrink_active_list, which always reaches
		 * its event: a count its event did not take (paused between
		 * the two) is replaced here, not carried to a later event */
		p->active = nr_scanned;
		return 0;
	}
	p->taken += nr_taken;
	if (nr_scanned > nr_skipped + nr_taken)
		p->sorted += nr_scanned - nr_skipped - nr_taken;
	return 0;
}

/* @file is is_file_lru(lru) on the classic LRU and the lru index
 * (LRU_INACTIVE_ANON 0 / LRU_INACTIVE_FILE 2) under MGLRU: non-zero = file. */
SEC("tp_btf/mm_vmscan_lru_shrink_inactive")
int BPF_PROG(shrink_inactive, int nid, unsigned long nr_scanned, unsigned long nr_reclaimed,
	     struct reclaim_stat *stat, int priority, int file)
{
	if (nl_vs_paused)
		return 0;
	struct nl_vs_pages *p;
	struct isolated *iso = NULL;
	u64 cgid;
	u32 c, t = file ? 1 : 0;

	if (nl_mglru)
		iso = bpf_task_storage_get(&isolated_pending, bpf_get_current_task_btf(), 0, 0);
	who(&c, &cgid);
	p = pages_of(nid, c, cgid);
	if (!p)
		return 0;
	if (iso) {
		/* MGLRU: sorted folios are the active-list part (refill) of
		 * scanned; a retry pass finds the split already taken (0) */
		p->scanned[t] += iso->taken + iso->sorted;
		p->refill[t] += iso->sorted;
		iso->taken = 0;
		iso->sorted = 0;
	} else {
		p->scanned[t] += nr_scanned;
	}
	p->freed[t] += nr_reclaimed;
	if (stat) {
		p->rotated[0] += stat->nr_activate[0];
		p->rotated[1] += stat->nr_activate[1];
	}
	return 0;
}

SEC("tp_btf/mm_vmscan_lru_shrink_active")
int BPF_PROG(shrink_active, int nid, unsigned long nr_taken, unsigned long nr_active,
	     unsigned long nr_deactivated, unsigned long nr_referenced, int priority, int file)
{
	if (nl_vs_paused)
		return 0;
	struct nl_vs_pages *p;
	struct isolated *iso;
	u64 cgid, seen = nr_taken;
	u32 c, t = file ? 1 : 0;

	/* The kernel counts as pgrefill every folio the isolation looked at,
	 * also those it could not take (busy, or in a zone above the
	 * reclaim's): nr_taken alone fell 9% short under contention. Without
	 * the isolate event's figure (a program attached between the two
	 * events), nr_taken is the best left. */
	iso = bpf_task_storage_get(&isolated_pending, bpf_get_current_task_btf(), 0, 0);
	if (iso && iso->active) {
		seen = iso->active;
		iso->active = 0;
	}
	who(&c, &cgid);
	p = pages_of(nid, c, cgid);
	if (!p)
		return 0;
	p->scanned[t] += seen;
	p->refill[t] += seen;
	p->rotated[t] += nr_referenced;
	return 0;
}

/* reclaim_pages(): MADV_PAGEOUT, DAMON; proactive by nature. */
SEC("tp_btf/mm_vmscan_reclaim_pages")
int BPF_PROG(reclaim_pages, int nid, unsigned long nr_scanned, unsigned long nr_reclaimed,
	     struct reclaim_stat *stat)
{
	if (nl_vs_paused)
		return 0;
	struct nl_vs_pages *p;
	u64 cgid;
	u32 c;

	who(&c, &cgid);
	if (c == NL_VS_DIRECT)
		c = NL_VS_PROACTIVE;
	p = pages_of(nid, c, cgid);
	if (!p)
		return 0;
	p->pageout_scanned += nr_scanned;
	p->pageout_freed += nr_reclaimed;
	if (stat)
		p->pageout_rotated += stat->nr_activate[0] + stat->nr_activate[1];
	return 0;
}
