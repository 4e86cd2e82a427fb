/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_cling's BPF state: the tunables the loader sets before load, the
 * globals the loader and the timer share, the per-task context and the
 * maps (those pinned for readers are laid out in scx_cling.h). Part of
 * the one BPF object scx_cling.bpf.c builds; everything else includes it.
 */
#ifndef CLING_STATE_BPF_H
#define CLING_STATE_BPF_H

#include <scx/common.bpf.h>
#include "nl_types.h"
#include "pfn_map.h"
#include "scx_cling.h"

/* Set by the loader before load. */
const volatile __u32 nr_nodes = 1;	/* node ids 0..nr_nodes-1 (possible nodes) */
const volatile __u32 degree = CLING_DEGREE_DEFAULT;
const volatile __u64 wait_bound_ns = CLING_WAIT_BOUND_US_DEFAULT * 1000ULL;
const volatile __u64 steal_ns = CLING_STEAL_US_DEFAULT * 1000ULL;
const volatile __u64 decay_ns = CLING_DECAY_MS_DEFAULT * 1000000ULL;

/* Why the kernel ejected us (ops.exit); the loader prints it. */
UEI_DEFINE(exit_info);
/* bpf_ktime_get_ns() at ops.exit: the loader measures a restart from it. */
__u64 exit_ns;

/* Per node: scx_bpf_now() when the timer last saw this node's queue head
 * waiting past the bound while another node had capacity to spare (an
 * idle CPU and an empty queue: spare_nodes()). */
__u64 idle_elsewhere_at[CLING_MAX_NODES];
/* Per node: runnable tasks per online CPU (running and queued), x1024,
 * averaged over the timer's ticks (each tick moves it 1/128 of the way:
 * about 128 ticks, 320 ms at the default bounds: long enough that a
 * node's momentary dip, a thread napping, does not show; a node that
 * lost a thread for good shows within a few hundred ms). A wait or a
 * steal is a failure of the home only when the home carries more than
 * the node that had room (heavier()). */
__u32 node_load[CLING_MAX_NODES];
/* Per-node vtime clock: the largest vtime that started running there. */
__u64 vtime_now[CLING_MAX_NODES];
/* Sticky error from ops.init or the timer, for the loader. */
int timer_err;

/* SLIT distances, row = from node (/sys/devices/system/node/nodeN/distance),
 * written by the loader after load and before attach. Not const: the
 * loader fills it in after the object is loaded. */
__u8 dist[CLING_MAX_NODES][CLING_MAX_NODES];
/* Online CPUs per node: counted by ops.init, kept by cpu_online/offline. */
__u32 node_cpus[CLING_MAX_NODES];
/* The node serving each node (cling_serving): itself while it has CPUs. */
__s32 serve[CLING_MAX_NODES];
/* CPU hotplug events seen (cpu_online + cpu_offline calls). */
__u64 hotplug_events;
/* Set when a node lost its last CPU: dispatch then also drains the DSQs
 * of nodes without CPUs; the timer clears it once they are empty. */
__u32 orphans_pending;

/* Per-task scheduler state. */
struct task_ctx {
	u64 alloc_pages[CLING_MAX_NODES]; /* movable pages allocated, by page node */
	u64 placed_at;	/* scx_bpf_now() when placed on a CPU or DSQ, ns */
	u64 cgid;	/* NUMA-group cgroup id at the last placement, 0 if none */
	s32 home;	/* node used at the last placement, or -1 */
	s32 qnode;	/* node whose DSQ (or CPU) it was placed on, -1 = not tracked */
	s32 target;	/* home node of a pending attempt (queued there), -1 = none */
	s32 mem_node;	/* where its memory is, busy or not (its group's node with
			 * the most pages, else its own allocations'), -1 = none */
	u8 skip_cling;	/* the last attempt failed: no cling at the next placement */
	u8 from_home;	/* the pending attempt's task was on its home node already */
	u8 pad[6];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_ctx);
} tctx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cling_info);
} info SEC(".maps");

/* Per node, its online CPUs as a cpumask (for restricted affinity). */
struct node_mask {
	struct bpf_cpumask __kptr *mask;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CLING_MAX_NODES);
	__type(key, u32);
	__type(value, struct node_mask);
} node_masks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CLING_MAX_NODES);
	__type(key, u32);
	__type(value, struct cling_node_stats);
} nodes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CLING_MAX_GROUPS);
	__type(key, u64);
	__type(value, struct cling_group);
} groups SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CLING_MAX_GROUPS);
	__type(key, u64);
	__type(value, struct cling_group_mem);
} gmem SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CLING_MAX_TASK_HOMES);
	__type(key, u32);
	__type(value, struct cling_task_home);
} task_homes SEC(".maps");

struct cling_timer {
	struct bpf_timer t;
	u64 last_decay;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cling_timer);
} timers SEC(".maps");

/* CPUs between ops.cpu_offline and ops.cpu_online (bit per CPU). */
__u64 cpu_leaving[CLING_MAX_CPUS / 64];

#endif /* CLING_STATE_BPF_H */
