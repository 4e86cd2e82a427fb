/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long queued tasks have waited and how loaded each node is: the
 * queue-head tests dispatch and the timer share, the per-node load and
 * spare-capacity sample behind the failure rule (heavier()), and the one
 * BPF timer that kicks idle CPUs for tasks waiting too long and decays
 * every group's statistics. Part of the BPF object scx_cling.bpf.c builds.
 */
#ifndef CLING_TIMER_BPF_H
#define CLING_TIMER_BPF_H

#include "cling_home.bpf.h"

/* True when the head of node @n's DSQ has waited at least @ns. */
static bool head_waited_for(s32 n, u64 now, u64 ns)
{
	struct task_struct *p = scx_bpf_dsq_peek(n);
	struct task_ctx *tc;

	if (!p)
		return false;
	tc = bpf_task_storage_get(&tctx, p, 0, 0);
	return tc && now - tc->placed_at >= ns;
}

/* True when the head of node @n's DSQ has waited long enough (steal_ns)
 * for another node to take it. */
static bool head_waited(s32 n, u64 now)
{
	return head_waited_for(n, now, steal_ns);
}

/* Drain the DSQs of nodes without online CPUs (their last CPU went
 * offline with tasks queued): the CPUs of the serving node first, any
 * CPU once nothing is queued at its own node. True when one moved. */
static bool drain_orphans(s32 node, bool any)
{
	s32 n;

	cling_for(n, nr_nodes) {
		if (has_cpus(n) || !scx_bpf_dsq_nr_queued(n))
			continue;
		if ((any || serve[cling_idx(n)] == node) && scx_bpf_dsq_move_to_local(n))
			return true;
	}
	return false;
}

/* The nodes with capacity to spare now: an idle CPU and nothing queued,
 * bit n for node n (CLING_MAX_NODES is 64). Only there could a task
 * waiting at home have run sooner. A node whose CPU is idle for a moment
 * while its own queue holds tasks is as full as the home: when every
 * node runs more threads than it has CPUs and the threads sleep often
 * (the wake load of the cling bench), some node has an idle CPU at almost
 * any tick, and counting that as a failure paused every home within
 * seconds, so the threads ran wherever a CPU was free and a third of
 * their accesses went remote. Taken once per timer tick, so that asking
 * "is capacity spare on another node?" for every node is a mask test, not
 * a loop inside the timer's node loop: nested node loops made the
 * verifier give up at 24 nodes. */
_Static_assert(CLING_MAX_NODES <= 64, "spare_nodes() keeps one bit per node in a u64");
static u64 spare_nodes(u32 *min_spare_load)
{
	const struct cpumask *idle;
	u32 ncpu, nidle, queued, sample, *load;
	u64 mask = 0;
	s32 m;

	*min_spare_load = ~0U;
	cling_for(m, nr_nodes) {
		/* Nodes without CPUs have no idle CPU (and asking the kernel
		 * about an impossible node id would be an error). */
		if (!has_cpus(m))
			continue;
		idle = scx_bpf_get_idle_cpumask_node(m);
		nidle = bpf_cpumask_weight(idle);
		scx_bpf_put_idle_cpumask(idle);
		queued = scx_bpf_dsq_nr_queued(m);
		/* the node's load: busy CPUs and queued tasks per online CPU */
		ncpu = node_cpus[cling_idx(m)];
		if (!ncpu)
			continue;
		if (nidle > ncpu)
			nidle = ncpu;
		sample = ((ncpu - nidle) + queued) * 1024 / ncpu;
		load = &node_load[cling_idx(m)];
		*load = *load - *load / 128 + sample / 128;
		if (nidle && !queued) {
			mask |= 1ULL << cling_idx(m);
			if (*load < *min_spare_load)
				*min_spare_load = *load;
		}
	}
	return mask;
}

/*
 * True when node @home carried more than node @other (their average
 * runnable tasks per CPU, node_load) by more than a quarter: only then is
 * a task that waited at @home while @other had room, or that @other's
 * CPU took from @home's queue, a failure of its home. In the cling
 * bench's wake load every node runs three threads on two CPUs and the
 * threads nap 2 ms at a time: some CPU somewhere is free for a moment,
 * takes a thread queued elsewhere, and counting that as a failure paused
 * every home within seconds (ratios 21-39%, degree 20), after which the
 * threads ran wherever a CPU was free (a third of their accesses remote).
 * Between equally loaded nodes such a steal is work conservation, not
 * contention for the home: the task goes home again at its next placement.
 */
static bool heavier(s32 home, u32 other_load)
{
	u64 h = node_load[cling_idx(home)];

	return h * 4 > (u64)other_load * 5;
}

/* Decay one group (bpf_for_each_map_elem callback). */
static long decay_one(void *map, u64 *cgid, struct cling_group *g, void *ctx)
{
	struct cling_group_mem *gm = bpf_map_lookup_elem(&gmem, cgid);

	cling_decay(&g->ms, nr_nodes);
	g->home = group_home(gm, g);
	return 0;
}

static u64 tick_ns(void)
{
	u64 t = wait_bound_ns < steal_ns ? wait_bound_ns : steal_ns;

	t /= 2;

	return t < 1000000 ? 1000000 : t;
}

static int timer_fn(void *map, int *key, struct cling_timer *ct)
{
	u32 min_spare_load;
	u64 spare = spare_nodes(&min_spare_load);
	const struct cpumask *online = scx_bpf_get_online_cpumask();
	u64 now = scx_bpf_now();
	bool orphans = false;
	s32 n, cpu;

	cling_for(n, nr_nodes) {
		if (!scx_bpf_dsq_nr_queued(n))
			continue;
		if (!has_cpus(n)) {
			/* Left behind by its last CPU: wake the nearest idle
			 * CPU to take it now. */
			orphans = true;	/* a flag, not a count: a count
					 * differs per iteration, so the
					 * verifier could not close the loop */
			cpu = scx_bpf_pick_idle_cpu_node(online, serving(n) >= 0 ? serving(n) : 0, 0);
			if (cpu >= 0)
				kick_idle(cpu);
			continue;
		}
		if (head_waited_for(n, now, wait_bound_ns) && (spare & ~(1ULL << cling_idx(n))) &&
		    heavier(n, min_spare_load))
			idle_elsewhere_at[cling_idx(n)] = now;
		if (!head_waited(n, now))
			continue;
		/* Any idle CPU, nearest node first, takes it in dispatch. */
		cpu = scx_bpf_pick_idle_cpu_node(online, n, 0);
		if (cpu >= 0)
			kick_idle(cpu);
	}
	scx_bpf_put_cpumask(online);
	if (!orphans)
		orphans_pending = 0;
	if (now - ct->last_decay >= decay_ns) {
		ct->last_decay = now;
		bpf_for_each_map_elem(&groups, decay_one, NULL, 0);
	}
	bpf_timer_start(&ct->t, tick_ns(), 0);
	return 0;
}

#endif /* CLING_TIMER_BPF_H */
