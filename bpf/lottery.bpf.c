// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The victim-node lottery in BPF (tickets per node, "no victim" with a
 * reason when there are none, tables published whole): one
 * draw over a memcg's published ticket table with bpf_get_prandom_u32().
 *  - lot_limit_begin: on mm_vmscan_memcg_reclaim_begin (a memcg hit its
 *    limit) draws for that memcg and sends the decision to user space
 *    through lot_events.
 *  - lot_draw: SEC("syscall"), run by the agent with BPF_PROG_RUN for its
 *    background passes, so both paths draw through the same code.
 * Tables are written by user space (tools/source/reclaim_lot.c) through the
 * mmap of lot_tables; this side only reads them.
 */
#include "nl_bpf.h"
#include "lottery.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

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

/* Draws per slot, source and node; per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_LOT_MAX_CG);
	__type(key, u32);
	__type(value, struct nl_lot_counts);
} lot_counts SEC(".maps");

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

/* Draw for the memcg in @slot_idx; counts the outcome. */
static __always_inline int lot_draw_idx(u32 slot_idx, u32 src, u32 *reason)
{
	struct nl_lot_slot *s = bpf_map_lookup_elem(&lot_tables, &slot_idx);
	struct nl_lot_counts *c = bpf_map_lookup_elem(&lot_counts, &slot_idx);
	int nid;

	if (!s || src >= NL_LOT_NR_SOURCES) {
		*reason = NL_LOT_NO_TABLE;
		return -1;
	}
	nid = nl_lot_draw_slot(s, bpf_get_prandom_u32(), reason);
	if (c) {
		if (nid >= 0 && nid < NL_LOT_MAX_NODES)
			c->draws[src][nid]++;
		else if (*reason < NL_LOT_NR_REASONS)
			c->novictim[src][*reason]++;
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
	e->pad = 0;
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
	idx = lot_find_up(cg, &cgid);
	if (idx < 0)
		return 0;	/* not a memcg we manage: nothing to say */
	nid = lot_draw_idx(idx, NL_LOT_SRC_LIMIT, &reason);
	lot_emit(cgid, nid, reason, NL_LOT_SRC_LIMIT);
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
