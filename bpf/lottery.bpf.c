// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The victim-node lottery in BPF (tickets per node, "no victim" with a
 * reason when there are none, tables published whole): one
 * draw over a memcg's published ticket table with bpf_get_prandom_u32().
 *  - lot_limit_begin: on mm_vmscan_memcg_reclaim_begin (a memcg hit its
 *    limit) draws for that memcg and sends a drawn node to user space
 *    through lot_events; the agent, woken by the ring buffer, reclaims
 *    from it at once. "No victim" is only counted, and a memcg the agent
 *    stands by for (its slot's quiet flag) gets no draw at all. The agent's own memory.reclaim enters
 *    the same tracepoint: those entries (its tgid) draw nothing.
 *  - lot_draw: SEC("syscall"), run by the agent with BPF_PROG_RUN for its
 *    background passes, so both paths draw through the same code.
 * Tables are written by user space (tools/source/reclaim_lot.c) through the
 * mmap of lot_tables; this side only reads them.
 */
#include "nl_common.bpf.h"
#include "lottery.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The agent's tgid (set before load): its own reclaim is not a limit hit. */
const volatile u32 lot_agent_tgid = 0;

/* Limit-path draws so far, per CPU: an event's draw id is the CPU in the
 * top 8 bits and that CPU's count in the low 24 (unique without atomics). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u32);
} lot_draw_seq SEC(".maps");

/* One slot per managed memcg, written by user space through mmap. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NL_LOT_MAX_CG);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, u32);
	__type(value, struct nl_lot_slot);
} lot_tables SEC(".maps");

/* memcg (cgroup kernfs id) -> slot in lot_tables. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NL_LOT_MAX_CG);
	__type(key, u64);
	__type(value, u32);
} lot_index SEC(".maps");

/* Node ids drawn for: 1 + the highest possible node id, set by user
 * space before load (<= NL_LOT_MAX_NODES). */
const volatile u32 lot_nr_nodes = NL_LOT_MAX_NODES;

/* "No victim" outcomes per slot, source and reason; per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_LOT_MAX_CG);
	__type(key, u32);
	__type(value, struct nl_lot_novictim);
} lot_counts SEC(".maps");

/* Draws per slot, source and node at NL_LOT_DRAW_IDX(); per CPU. User
 * space sets max_entries to NL_LOT_MAX_CG * NL_LOT_NR_SOURCES *
 * lot_nr_nodes before load. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_LOT_MAX_CG * NL_LOT_NR_SOURCES * NL_LOT_MAX_NODES);
	__type(key, u32);
	__type(value, u64);
} lot_draws SEC(".maps");

/* Decisions on the limit path, to user space. A full buffer loses the
 * event (counted in lot_lost), never the count in lot_counts. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} lot_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} lot_lost SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NL_LOT_MAX_CG);
	__type(key, u32);
	__type(value, struct nl_lot_limit_state);
} lot_limit_state SEC(".maps");

/* Task (tid) in a limit-reclaim run of a managed memcg -> its slot, from
 * begin to end. Full: the run is not tracked (counted in lot_untracked). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, u32);
	__type(value, u32);
} lot_runs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} lot_untracked SEC(".maps");

/* Draw for the memcg in @slot_idx; counts the outcome. */
static __always_inline int lot_draw_idx(u32 slot_idx, u32 src, u32 *reason)
{
	struct nl_lot_slot *s = bpf_map_lookup_elem(&lot_tables, &slot_idx);
	int nid;

	if (!s || src >= NL_LOT_NR_SOURCES) {
		*reason = NL_LOT_NO_TABLE;
		return -1;
	}
	nid = nl_lot_draw_slot(s, bpf_get_prandom_u32(), reason);
	if (nid >= 0 && (u32)nid < lot_nr_nodes) {
		u32 k = NL_LOT_DRAW_IDX(slot_idx, src, nid, lot_nr_nodes);
		u64 *d = bpf_map_lookup_elem(&lot_draws, &k);

		if (d)
			*d += 1;
	} else if (nid < 0 && *reason < NL_LOT_NR_REASONS) {
		struct nl_lot_novictim *c = bpf_map_lookup_elem(&lot_counts, &slot_idx);

		if (c)
			c->n[src][*reason]++;
	}
	return nid;
}

static __always_inline void lot_emit(u64 cgid, int nid, u32 reason, u32 src)
{
	struct nl_lot_event *e = bpf_ringbuf_reserve(&lot_events, sizeof(*e), 0);

	if (!e) {
		u32 k = 0;
		u64 *lost = bpf_map_lookup_elem(&lot_lost, &k);

		if (lost)
			*lost += 1;
		return;
	}
	e->ts_ns = bpf_ktime_get_ns();
	e->cgroup_id = cgid;
	e->nid = nid < 0 ? (u32)-1 : (u32)nid;
	e->reason = reason;
	e->source = src;
	{
		u32 k = 0, *n = bpf_map_lookup_elem(&lot_draw_seq, &k);
		u32 seq = n ? ++*n : 0;

		e->draw_id = (bpf_get_smp_processor_id() & 0xff) << 24 | (seq & 0xffffff);
	}
	/* Wakes the agent unless it has not read the records before this one
	 * yet (the ring buffer's adaptive rule): one wakeup per read, not one
	 * per event, while a memcg stays at its limit. */
	bpf_ringbuf_submit(e, 0);
}

/* First managed memcg on the way from @cg to the root (at most 16 levels):
 * on kernels whose tracepoint lacks the memcg, the limit that was hit may
 * be an ancestor's. Returns the slot index or -1; *@cgid gets its id. */
static __always_inline int lot_find_up(struct cgroup *cg, u64 *cgid)
{
	for (int i = 0; i < 16 && cg; i++) {
		u64 id = cg->kn->id;
		u32 *slot = bpf_map_lookup_elem(&lot_index, &id);

		if (slot) {
			*cgid = id;
			return *slot;
		}
		if (!cg->self.parent)
			break;
		cg = cg->self.parent->cgroup;
	}
	return -1;
}

static __always_inline struct cgroup *lot_task_cgroup(struct task_struct *t)
{
	if (nl_cgroup_mode == NL_CG_V1_MEMORY) {
		int idx;
		struct cgroup_subsys_state *css;

		if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
			return NULL;
		idx = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
		if (idx < 0 || idx >= CGROUP_SUBSYS_COUNT)
			return NULL;
		css = t->cgroups->subsys[idx];
		return css ? css->cgroup : NULL;
	}
	return t->cgroups->dfl_cgrp;
}

/*
 * 7.x passes the memcg being reclaimed as the third argument; 6.18 has
 * (order, gfp) only, so the memcg is taken from the current task (the one
 * charging), walking up to the nearest managed ancestor.
 */
SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int lot_limit_begin(u64 *ctx)
{
	struct cgroup *cg = NULL;
	u64 cgid = 0;
	u32 reason = NL_LOT_NO_TABLE;
	int idx, nid = -1;

	if (bpf_core_type_matches(btf_trace_mm_vmscan_memcg_reclaim_begin)) {
		struct mem_cgroup *memcg = (struct mem_cgroup *)ctx[2];

		if (memcg)
			cg = memcg->css.cgroup;
	} else {
		cg = lot_task_cgroup(bpf_get_current_task_btf());
	}
	if (!cg)
		return 0;
	if (lot_agent_tgid && (u32)(bpf_get_current_pid_tgid() >> 32) == lot_agent_tgid)
		return 0;
	idx = lot_find_up(cg, &cgid);
	if (idx < 0)
		return 0;	/* not a memcg we manage: nothing to say */
	{
		/* the agent stands by for this memcg (it cannot help it now):
		 * count the event and leave the limit reclaim to the kernel,
		 * without a draw, a tracked run or a wakeup */
		u32 slot = (u32)idx;
		struct nl_lot_slot *s = bpf_map_lookup_elem(&lot_tables, &slot);

		if (s && NL_LOT_READ_ONCE(s->quiet)) {
			struct nl_lot_limit_state *st = bpf_map_lookup_elem(&lot_limit_state, &slot);

			if (st)
				__sync_fetch_and_add(&st->quiet_events, 1);
			return 0;
		}
	}
	{
		u32 tid = (u32)bpf_get_current_pid_tgid(), slot = (u32)idx;
		struct nl_lot_limit_state *st = bpf_map_lookup_elem(&lot_limit_state, &slot);

		if (st && !bpf_map_update_elem(&lot_runs, &tid, &slot, BPF_ANY)) {
			__sync_fetch_and_add(&st->inflight, 1);
		} else {
			u32 k = 0;
			u64 *n = bpf_map_lookup_elem(&lot_untracked, &k);

			if (n)
				*n += 1;
		}
	}
	nid = lot_draw_idx(idx, NL_LOT_SRC_LIMIT, &reason);
	/* "no victim" is counted in lot_counts (the agent reads it there):
	 * a record would wake the agent for nothing to do, on every limit
	 * hit of a memcg it cannot help */
	if (nid >= 0)
		lot_emit(cgid, nid, reason, NL_LOT_SRC_LIMIT);
	return 0;
}

/* End of a limit-reclaim run (both kernels: the first argument is the
 * pages reclaimed): close the run lot_limit_begin opened on this task. */
SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int lot_limit_end(u64 *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u32 *slot = bpf_map_lookup_elem(&lot_runs, &tid);
	struct nl_lot_limit_state *st;

	if (!slot)
		return 0;
	st = bpf_map_lookup_elem(&lot_limit_state, slot);
	if (st) {
		__sync_fetch_and_add(&st->inflight, -1);
		__sync_fetch_and_add(&st->reclaimed, ctx[0]);
	}
	bpf_map_delete_elem(&lot_runs, &tid);
	return 0;
}

/* The agent's draw (BPF_PROG_RUN, ctx = struct nl_lot_run_ctx). */
SEC("syscall")
int lot_draw(struct nl_lot_run_ctx *ctx)
{
	u64 cgid = ctx->cgroup_id;
	u32 *slot = bpf_map_lookup_elem(&lot_index, &cgid);
	u32 reason = NL_LOT_NO_TABLE;
	int nid = -1;

	if (slot)
		nid = lot_draw_idx(*slot, NL_LOT_SRC_AGENT, &reason);
	ctx->nid = nid < 0 ? (u32)-1 : (u32)nid;
	ctx->reason = reason;
	return 0;
}
