/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_cling's view of nodes and CPUs: which node a CPU is on, which nodes
 * have online CPUs and which node serves one without (nearest by SLIT
 * distance), whether a task's affinity allows a node, and the bookkeeping
 * that keeps all of it current across CPU hotplug. Part of the BPF
 * object scx_cling.bpf.c builds.
 */
#ifndef CLING_TOPO_BPF_H
#define CLING_TOPO_BPF_H

#include "cling_state.bpf.h"

static __always_inline struct cling_node_stats *nstat(s32 nid)
{
	u32 k = (u32)nid;

	if (nid < 0 || k >= CLING_MAX_NODES)
		return NULL;
	return bpf_map_lookup_elem(&nodes, &k);
}

static __always_inline s32 cpu_node(s32 cpu)
{
	s32 n = scx_bpf_cpu_node(cpu);

	return (n >= 0 && n < CLING_MAX_NODES) ? n : 0;
}


static __always_inline bool cpu_is_leaving(s32 cpu)
{
	u32 c = (u32)cpu;

	asm volatile("" : "+r"(c));
	c &= CLING_MAX_CPUS - 1;
	return cpu_leaving[c / 64] & (1ULL << (c % 64));
}

/*
 * Kick @cpu if idle, unless this CPU is on its way offline: a kick queues
 * an irq_work on the kicking CPU, and one queued while the CPU goes down
 * stayed pending after it came back in the 7.3 test kernel, so that
 * detaching the scheduler later waited for it forever. The timer, on a
 * live CPU, kicks for whatever waits too long.
 */
static __always_inline void kick_idle(s32 cpu)
{
	if (!cpu_is_leaving(bpf_get_smp_processor_id()))
		scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
}

/* True when node @n has an online CPU now. */
static __always_inline bool has_cpus(s32 n)
{
	return n >= 0 && n < CLING_MAX_NODES && node_cpus[cling_idx(n)] > 0;
}

/* The node that runs node @n's work (itself, or the nearest with CPUs),
 * or CLING_NO_NODE when none has a CPU (tasks then go to the global DSQ). */
static __always_inline s32 serving(s32 n)
{
	s32 s;

	if (has_cpus(n))
		return n;
	s = cling_serving(serve, n);
	return has_cpus(s) ? s : CLING_NO_NODE;
}

/* serve[] entry @index (a bpf_loop callback). */
static long update_serve_one(u64 index, void *ctx)
{
	s32 n = (s32)index;

	serve[cling_idx(n)] = cling_nearest(dist[cling_idx(n)], node_cpus, nr_nodes, n);
	return 0;
}

/* Recompute serve[] from node_cpus[] and dist (hotplug and init only).
 * Through bpf_loop: the verifier checks one node's search once, where an
 * unrolled loop of searches exceeded its budget at 24 nodes. */
static void update_serve(void)
{
	bpf_loop(nr_nodes < CLING_MAX_NODES ? nr_nodes : CLING_MAX_NODES, update_serve_one, NULL, 0);
}

/* How @p's allowed CPUs relate to node @n's online CPUs: with @subset,
 * whether they all lie on @n, else whether any does. False when the node
 * has no mask (yet). One body for both questions, so the RCU section and
 * the mask lookup are written once. */
static bool cpus_vs_node(struct task_struct *p, s32 n, bool subset)
{
	struct node_mask *nm;
	struct bpf_cpumask *m;
	u32 k = (u32)n;
	bool r = false;

	nm = bpf_map_lookup_elem(&node_masks, &k);
	if (!nm)
		return false;
	bpf_rcu_read_lock();
	m = nm->mask;
	if (m)
		r = subset ? bpf_cpumask_subset(p->cpus_ptr, (const struct cpumask *)m) :
			     bpf_cpumask_intersects(p->cpus_ptr, (const struct cpumask *)m);
	bpf_rcu_read_unlock();
	return r;
}

/* True when @p may run on an online CPU of node @n. */
static bool allowed_on(struct task_struct *p, s32 n)
{
	if (!has_cpus(n))
		return false;
	if (p->nr_cpus_allowed >= scx_bpf_nr_cpu_ids())
		return true;
	return cpus_vs_node(p, n, false);
}

/*
 * True when @p may run on no online CPU outside node @n (a cpuset, taskset
 * or pinning that holds it to @n's CPUs). Such a task has nowhere better
 * to go than its home queue, so waiting there is no failure of cling: a
 * group pinned to its home while it first touches its memory, with the
 * other nodes idle, failed nearly every queued attempt, its home turned
 * busy, and once unpinned it clung nowhere for the 30 s decay needs.
 */
static bool confined_to(struct task_struct *p, s32 n)
{
	if (p->nr_cpus_allowed >= scx_bpf_nr_cpu_ids())
		return false;
	return cpus_vs_node(p, n, true);
}

/* The node to queue a non-clinging @p on, from its current CPU: a node
 * with online CPUs it may use, or CLING_NO_NODE (then the global DSQ). */
static s32 queue_node(struct task_struct *p, s32 cpu)
{
	s32 n = serving(cpu_node(cpu));

	if (n >= 0 && allowed_on(p, n))
		return n;
	cpu = bpf_cpumask_any_distribute(p->cpus_ptr);
	if (cpu >= scx_bpf_nr_cpu_ids())
		return CLING_NO_NODE;
	n = serving(cpu_node(cpu));
	return n >= 0 && allowed_on(p, n) ? n : CLING_NO_NODE;
}

/* Node @n's online-CPU mask: set or clear @cpu in it. */
static void node_mask_set(s32 n, s32 cpu, bool on)
{
	struct node_mask *nm;
	struct bpf_cpumask *m;
	u32 k = (u32)n;

	nm = bpf_map_lookup_elem(&node_masks, &k);
	if (!nm)
		return;
	bpf_rcu_read_lock();
	m = nm->mask;
	if (m) {
		if (on)
			bpf_cpumask_set_cpu((u32)cpu, m);
		else
			bpf_cpumask_clear_cpu((u32)cpu, m);
	}
	bpf_rcu_read_unlock();
}

/* A CPU came or went (the kernel holds the hotplug lock: one at a time). */
static void cpu_hotplug(s32 cpu, bool on)
{
	s32 n = scx_bpf_cpu_node(cpu);
	u32 *c;

	u32 bit = (u32)cpu;

	hotplug_events++;
	asm volatile("" : "+r"(bit));
	bit &= CLING_MAX_CPUS - 1;
	if (on)
		__sync_fetch_and_and(&cpu_leaving[bit / 64], ~(1ULL << (bit % 64)));
	else
		__sync_fetch_and_or(&cpu_leaving[bit / 64], 1ULL << (bit % 64));
	if (n < 0 || n >= CLING_MAX_NODES)
		return;
	c = &node_cpus[cling_idx(n)];
	/* Plain updates: the kernel runs hotplug callbacks one at a time. */
	if (on) {
		node_mask_set(n, cpu, true);
		*c += 1;
	} else if (*c > 0) {
		*c -= 1;
		node_mask_set(n, cpu, false);
		if (!*c)
			orphans_pending = 1;
	}
	update_serve();
}

/* Create each node's cpumask and count its online CPUs. The kernel keeps
 * CPUs from coming or going between ops.init and the hotplug callbacks
 * taking over, so the counts start exact. */
static s32 count_cpus(void)
{
	const struct cpumask *online;
	struct bpf_cpumask *m;
	struct node_mask *nm;
	u32 k;
	s32 n, cpu;

	cling_for(n, nr_nodes) {
		k = (u32)n;
		nm = bpf_map_lookup_elem(&node_masks, &k);
		if (!nm)
			return -ENOENT;
		m = bpf_cpumask_create();
		if (!m)
			return -ENOMEM;
		m = bpf_kptr_xchg(&nm->mask, m);
		if (m)
			bpf_cpumask_release(m);
	}
	/* From zero: the loader may attach this loaded object again after
	 * the kernel ended it (a restart), with the old counts still here. */
	cling_for(n, nr_nodes)
		node_cpus[cling_idx(n)] = 0;
	bpf_for(cpu, 0, CLING_MAX_CPUS / 64)
		cpu_leaving[cpu & (CLING_MAX_CPUS / 64 - 1)] = 0;
	orphans_pending = 0;
	online = scx_bpf_get_online_cpumask();
	bpf_for(cpu, 0, scx_bpf_nr_cpu_ids()) {
		if (!bpf_cpumask_test_cpu((u32)cpu, online))
			continue;
		n = scx_bpf_cpu_node(cpu);
		if (n < 0 || n >= CLING_MAX_NODES)
			continue;
		node_cpus[cling_idx(n)]++;
		node_mask_set(n, cpu, true);
	}
	scx_bpf_put_cpumask(online);
	update_serve();
	return 0;
}

#endif /* CLING_TOPO_BPF_H */
