/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Exact per-node and per-zone allocation totals (BPF side of alloc.bpf.c):
 * counted on every mm_page_alloc event before the sampler decides, so that
 * the node figures numastat and /proc/zoneinfo are compared with stay exact
 * while per-cgroup and per-process figures are sampled. Layout of a CPU's
 * row: struct nl_node_cell in nl_types.h.
 */
#ifndef NL_NODE_EXACT_BPF_H
#define NL_NODE_EXACT_BPF_H

#include "nl_common.bpf.h"
#include "pref_node.bpf.h"

/* Set before load: possible nodes, and cells per CPU row (a multiple of
 * four: no two CPUs share a cache line). */
const volatile u32 nl_nodex_nodes = 1;
const volatile u32 nl_nodex_row = 12;

/* A plain array with the CPU in the index, as the pending tables (a
 * per-CPU array costs one more dependent load); mmapable, so that its
 * values start on a page and user space reads it without system calls.
 * Sized by user space to nr_cpus * nl_nodex_row. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 12);
	__type(key, u32);
	__type(value, struct nl_node_cell);
} node_cells SEC(".maps");

/* This CPU's cell @i of its row, or NULL. */
static __always_inline struct nl_node_cell *nodex_cell(u32 i)
{
	u32 idx = bpf_get_smp_processor_id() * nl_nodex_row + i;

	return bpf_map_lookup_elem(&node_cells, &idx);
}

/* Count one allocation of 2^@order pages on @page_nid, @zone. The usual
 * case (a local page, meant for the CPU's node) is two increments in a
 * line this CPU keeps hot; any other case adds one or two more. */
static __always_inline void node_exact(u32 page_nid, u32 zone, u32 order)
{
	u32 n = nl_nodex_nodes, cpu_nid = bpf_get_numa_node_id(), p = n * NL_NODEX_ZONES, pref;
	struct nl_node_cell *c;

	if (page_nid >= n || cpu_nid >= n || zone >= NL_NODEX_ZONES)
		return;
	c = nodex_cell(page_nid * NL_NODEX_ZONES + zone);
	if (!c)
		return;
	c->b += 1ULL << (order & 31);
	pref = pref_node(cpu_nid, page_nid);
	if (cpu_nid == page_nid) {
		if (pref == page_nid)
			c->a++;
		else if ((c = nodex_cell(p + page_nid)))
			*(pref < n ? &c->a : &c->b) += 1;
	} else {
		if ((c = nodex_cell(p + (pref < n ? n : 2 * n) + page_nid)))
			*(pref == page_nid || pref >= n ? &c->a : &c->b) += 1;
		if ((c = nodex_cell(p + 3 * n + cpu_nid)))
			c->a++;
	}
	if (pref != page_nid && pref < n && (c = nodex_cell(p + 3 * n + pref)))
		c->b++;
}

#endif
