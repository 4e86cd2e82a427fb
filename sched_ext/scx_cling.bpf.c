// SPDX-License-Identifier: GPL-2.0
/*
 * scx_cling: a sched_ext scheduler with NUMA cling and a NUMA group per
 * cgroup (docs/scx_cling.md tells the rules; the math is in cling.h, the
 * interface with the loader in scx_cling.h). This file holds the
 * sched_ext_ops callbacks; the rest of the one BPF object comes in through
 * cling_timer.bpf.h, which includes the other parts: cling_state.bpf.h
 * (tunables, globals, maps), cling_topo.bpf.h (nodes, CPUs, hotplug),
 * cling_home.bpf.h (groups, homes, attempts).
 *
 * - One vtime-ordered DSQ per node (DSQ id = nid). CPUs take work from
 *   their own node's DSQ; an idle CPU takes from another node only a task
 *   that has waited there past wait_bound_ns (work conservation).
 * - Home node: for a task of a NUMA-group cgroup, the group's home (the
 *   node holding most of the cgroup's resident pages, from memory.numa_stat
 *   written by the loader into gmem, skipping the group's busy node);
 *   otherwise the node most of the task's own movable page allocations
 *   came from (kmem:mm_page_alloc, pfn -> nid via the pfn table).
 * - Cling: a group task is placed on its home node (an idle CPU there,
 *   else the home DSQ) and never pulled to the waker's node.
 * - Attempt / failure: an attempt is one placement
 *   of a group task on its home node by cling, except a task already at
 *   home that starts again within wait_bound_ns (as NUMA balancing counts
 *   only tasks off their preferred node): on an idle home CPU (a
 *   success: failures measure contention for the node, not how long an
 *   idle CPU takes to wake up) or into the home DSQ. A queued attempt fails
 *   when the task does not start on a home CPU within wait_bound_ns: it
 *   waited longer while another node had capacity to spare, a CPU it may
 *   use idle and nothing queued there (spare_nodes()), or a CPU of
 *   another node took it. Waiting behind other work when every node is
 *   as full, or when its affinity holds it to the home node, is no
 *   failure: nothing better was available. An idle CPU of another
 *   node may take it once it has waited steal_ns (default 40 ms, two
 *   slices): stealing later than one slice keeps two nodes from swapping
 *   tasks back and forth, and the gap lets an overloaded home show as
 *   failures, so the busy rule pauses cling to it before work
 *   conservation has to. A failure
 *   also clears the task's home for its next placement (as the kernel's
 *   cling clears a task's preferred node after a failed migration).
 * - One BPF timer: every tick it kicks an idle CPU for any node whose
 *   oldest-vtime task has waited past the bound, and every decay_ns it
 *   halves every group's weights (cling_decay).
 * - CPU hotplug and CPU-less nodes: ops.init counts the online CPUs of
 *   each node and ops.cpu_online/cpu_offline keep the counts (and a
 *   cpumask per node) current, so the kernel never has to eject us. A node
 *   without online CPUs (memory-only, CXL, or all its CPUs offline) is
 *   served by the nearest node that has CPUs (SLIT distance, the loader's
 *   dist table): homes map there and nothing is queued on its DSQ; what
 *   was queued when its last CPU left is taken first by the CPUs of the
 *   serving node and at once by any idle CPU.
 * - Restricted affinity (cpusets, taskset, isolcpus): a task clings within
 *   its allowed CPUs; when none of them is an online CPU of its home node
 *   the home is ignored for that placement (counted in home_ignored).
 */
#include <scx/common.bpf.h>
#include "cling_timer.bpf.h"

char _license[] SEC("license") = "GPL";

#define MIGRATE_MOVABLE 1	/* enum migratetype; user pages are movable */

s32 BPF_STRUCT_OPS(cling_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	struct task_ctx *tc = bpf_task_storage_get(&tctx, p, 0, 0);
	struct cling_group *g = NULL;
	struct cling_node_stats *ns;
	s32 home, snid, dnid, cpu;

	if (!tc)
		return prev_cpu;
	home = task_home(p, tc, &g);
	snid = cpu_node(prev_cpu);
	dnid = cpu_node(bpf_get_smp_processor_id());

	if (g && home >= 0 && !tc->skip_cling && may_cling(p, home)) {
		/* At wakeup, prefer the home node, never the waker's. */
		if (cling_predicate(true, home, snid, dnid, cling_busy(&g->ms, snid, degree))) {
			ns = nstat(home);
			if (ns)
				ns->cling_hits++;
		}
		cpu = scx_bpf_pick_idle_cpu_node(p->cpus_ptr, home, SCX_PICK_IDLE_IN_NODE);
		if (cpu >= 0) {
			/* An idle home CPU is a successful attempt right away:
			 * failures measure contention for the home node, not
			 * how long an idle CPU takes to wake up. A task that
			 * was at home already makes none (cling_running). */
			if (snid != home)
				attempt_done(tc, g, home, false);
			tc->target = CLING_NO_NODE;
			tc->placed_at = scx_bpf_now();
			tc->qnode = home;
			scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, SCX_SLICE_DFL, 0);
			return cpu;
		}
		/* No idle CPU at home: enqueue queues it on the home DSQ. */
		if (snid == home)
			return prev_cpu;
		cpu = scx_bpf_pick_any_cpu_node(p->cpus_ptr, home, SCX_PICK_IDLE_IN_NODE);
		return cpu >= 0 ? cpu : prev_cpu;
	}
	/* Not clinging: an idle CPU on the memory home, else near prev. A
	 * paused group (its home busy: no home) still takes an idle CPU on
	 * the node its memory is on before one elsewhere: the pause stops the
	 * waiting at home, not the return to it. Without that, in the cling
	 * bench's wake load (every home paused within seconds), the threads
	 * stayed wherever a steal had put them and a third of their accesses
	 * went remote: under sched_ext no NUMA balancing brings the pages
	 * after them. */
	cpu = -1;
	if (home < 0 && tc->mem_node >= 0 && allowed_on(p, tc->mem_node))
		home = tc->mem_node;
	if (home >= 0)
		cpu = scx_bpf_pick_idle_cpu_node(p->cpus_ptr, home, SCX_PICK_IDLE_IN_NODE);
	if (cpu < 0 && serving(snid) >= 0)
		cpu = scx_bpf_pick_idle_cpu_node(p->cpus_ptr, serving(snid), 0);
	if (cpu >= 0) {
		tc->placed_at = scx_bpf_now();
		tc->qnode = cpu_node(cpu);
		tc->target = CLING_NO_NODE;
		tc->skip_cling = 0;
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, SCX_SLICE_DFL, 0);
		return cpu;
	}
	return prev_cpu;
}

void BPF_STRUCT_OPS(cling_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct task_ctx *tc = bpf_task_storage_get(&tctx, p, 0, 0);
	struct cling_group *g = NULL;
	struct cling_node_stats *ns;
	s32 home, node, cpu;
	u64 vtime, vnow;

	if (!tc) {
		scx_bpf_dsq_insert(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
		return;
	}
	cpu = scx_bpf_task_cpu(p);
	if (p->nr_cpus_allowed == 1) {
		/* Per-CPU kthreads and pinned tasks: straight to their CPU. */
		tc->qnode = CLING_NO_NODE;
		tc->target = CLING_NO_NODE;
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL_ON | cpu, SCX_SLICE_DFL, enq_flags);
		kick_idle(cpu);
		return;
	}
	home = task_home(p, tc, &g);
	tc->target = CLING_NO_NODE;
	if (g && home >= 0 && !tc->skip_cling && may_cling(p, home)) {
		node = home;
		tc->target = home;
		tc->from_home = cpu_node(cpu) == home;
	} else {
		node = queue_node(p, cpu);
	}
	tc->skip_cling = 0;
	if (tc->target < 0) {
		/* Not clinging: work conservation first, an idle CPU on the
		 * nearest node (its own node first) runs it now. */
		cpu = scx_bpf_pick_idle_cpu_node(p->cpus_ptr, node >= 0 ? node : 0, 0);
		if (cpu >= 0) {
			tc->placed_at = scx_bpf_now();
			tc->qnode = cpu_node(cpu);
			scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL_ON | cpu, SCX_SLICE_DFL, enq_flags);
			kick_idle(cpu);
			return;
		}
	}
	if (node < 0) {
		/* No node with an online CPU it may use: the global DSQ,
		 * which every CPU drains. */
		tc->qnode = CLING_NO_NODE;
		scx_bpf_dsq_insert(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
		return;
	}

	vtime = p->scx.dsq_vtime;
	vnow = vtime_now[cling_idx(node)];
	/* Fairness by weight within the node: at most one slice of credit
	 * or debt against the node's clock (tasks arrive from other nodes). */
	if ((s64)(vtime - (vnow - SCX_SLICE_DFL)) < 0)
		vtime = vnow - SCX_SLICE_DFL;
	else if ((s64)(vtime - (vnow + SCX_SLICE_DFL)) > 0)
		vtime = vnow + SCX_SLICE_DFL;
	tc->placed_at = scx_bpf_now();
	tc->qnode = node;
	scx_bpf_dsq_insert_vtime(p, node, SCX_SLICE_DFL, vtime, enq_flags);

	ns = nstat(node);
	if (ns) {
		ns->enqueued++;
		ns->queued = scx_bpf_dsq_nr_queued(node);
		ns->queued_at = tc->placed_at;
	}
	cpu = scx_bpf_pick_idle_cpu_node(p->cpus_ptr, node, SCX_PICK_IDLE_IN_NODE);
	if (cpu >= 0)
		kick_idle(cpu);
}

void BPF_STRUCT_OPS(cling_dispatch, s32 cpu, struct task_struct *prev)
{
	s32 node = cpu_node(cpu), n, i;
	u64 now = scx_bpf_now();
	struct cling_node_stats *ns;

	if (orphans_pending && drain_orphans(node, false))
		return;
	if (scx_bpf_dsq_move_to_local(node)) {
		ns = nstat(node);
		if (ns) {
			ns->queued = scx_bpf_dsq_nr_queued(node);
			ns->queued_at = now;
		}
		return;
	}
	if (orphans_pending && drain_orphans(node, true))
		return;
	/* Work conservation: steal only what waited past the bound. */
	bpf_for(i, 1, nr_nodes < CLING_MAX_NODES ? nr_nodes : CLING_MAX_NODES) {
		n = node + i;
		if (n >= nr_nodes)
			n -= nr_nodes;
		if (head_waited(n, now) && scx_bpf_dsq_move_to_local(n))
			return;
	}
}

void BPF_STRUCT_OPS(cling_running, struct task_struct *p)
{
	struct task_ctx *tc = bpf_task_storage_get(&tctx, p, 0, 0);
	s32 node = cpu_node(scx_bpf_task_cpu(p));
	struct cling_node_stats *ns;
	struct cling_group *g;
	u64 *vn = &vtime_now[cling_idx(node)];
	bool failed;

	if ((s64)(p->scx.dsq_vtime - *vn) > 0)
		*vn = p->scx.dsq_vtime;
	if (!tc)
		return;
	ns = tc->qnode >= 0 ? nstat(node) : NULL;
	if (ns) {
		if (tc->qnode == node)
			ns->local++;
		else
			ns->remote++;
	}
	/* An attempt whose home lost its last CPU meanwhile is neither a
	 * success nor a failure: hotplug, not contention, moved the task. */
	if (tc->target >= 0 && has_cpus(tc->target)) {
		bool late = scx_bpf_now() - tc->placed_at > wait_bound_ns;

		bool stolen = node != tc->target;

		/* Taken by another node's CPU while the home carried more
		 * than that node; or waited past the bound while capacity
		 * elsewhere, on CPUs it may use, sat idle on a lighter node
		 * (the timer's idle_elsewhere_at). */
		if (stolen)
			failed = heavier(tc->target, node_load[cling_idx(node)]);
		else
			failed = late &&
				 idle_elsewhere_at[cling_idx(tc->target)] > tc->placed_at &&
				 !confined_to(p, tc->target);
		g = tc->cgid ? bpf_map_lookup_elem(&groups, &tc->cgid) : NULL;
		/* A task that was at home already and starts there again
		 * within the bound was never displaced: no attempt, as NUMA
		 * balancing counts one only for a task off its preferred node.
		 * Counted, each slice of a thread running at home was a
		 * success: with every group homed on one node, a group with
		 * one thread at home and one waiting or stolen kept its
		 * ratio at 4-15%, below the degree, went on clinging and
		 * left a CPU elsewhere idle up to 14% of the time. A wait
		 * past the bound still counts, failed or not; a steal from a
		 * home no heavier than the thief's node counts neither way
		 * (it never reached home, and the home was not the cause). */
		if (failed || (!stolen && (!tc->from_home || late)))
			attempt_done(tc, g, tc->target, failed);
	}
	tc->qnode = CLING_NO_NODE;
	tc->target = CLING_NO_NODE;
}

void BPF_STRUCT_OPS(cling_stopping, struct task_struct *p, bool runnable)
{
	u64 used = SCX_SLICE_DFL - p->scx.slice;

	if (p->scx.slice > SCX_SLICE_DFL)
		used = 0;
	p->scx.dsq_vtime += used * 100 / (p->scx.weight ? p->scx.weight : 100);
}

void BPF_STRUCT_OPS(cling_enable, struct task_struct *p)
{
	p->scx.dsq_vtime = vtime_now[cling_idx(cpu_node(scx_bpf_task_cpu(p)))];
}

s32 BPF_STRUCT_OPS(cling_init_task, struct task_struct *p, struct scx_init_task_args *args)
{
	struct task_ctx *tc = bpf_task_storage_get(&tctx, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (!tc)
		return -ENOMEM;
	tc->home = CLING_NO_NODE;
	tc->qnode = CLING_NO_NODE;
	tc->target = CLING_NO_NODE;
	tc->mem_node = CLING_NO_NODE;
	return 0;
}

void BPF_STRUCT_OPS(cling_exit_task, struct task_struct *p, struct scx_exit_task_args *args)
{
	u32 pid = p->pid;

	bpf_map_delete_elem(&task_homes, &pid);
}

void BPF_STRUCT_OPS(cling_cpu_online, s32 cpu)
{
	cpu_hotplug(cpu, true);
}

void BPF_STRUCT_OPS(cling_cpu_offline, s32 cpu)
{
	cpu_hotplug(cpu, false);
}

s32 BPF_STRUCT_OPS_SLEEPABLE(cling_init)
{
	struct cling_timer *ct;
	u32 zero = 0;
	s32 n, err;

	cling_for(n, nr_nodes) {
		err = scx_bpf_create_dsq(n, n);
		if (err)
			return err;
	}
	err = count_cpus();
	if (err)
		return err;
	ct = bpf_map_lookup_elem(&timers, &zero);
	if (!ct)
		return -ENOENT;
	ct->last_decay = scx_bpf_now();
	err = bpf_timer_init(&ct->t, &timers, CLOCK_MONOTONIC);
	/* -EBUSY: initialized by an earlier attach of this loaded object
	 * (the loader re-attaches it after a restart); ops.exit stopped it. */
	if (err == -EBUSY)
		err = 0;
	if (!err)
		err = bpf_timer_set_callback(&ct->t, timer_fn);
	if (!err)
		err = bpf_timer_start(&ct->t, tick_ns(), 0);
	if (err)
		timer_err = err;
	return err;
}

void BPF_STRUCT_OPS(cling_exit, struct scx_exit_info *ei)
{
	struct cling_timer *ct;
	u32 zero = 0;

	exit_ns = bpf_ktime_get_ns();
	/* No tick without a scheduler: the loader may attach this object
	 * again, and its ops.init starts the timer anew. */
	ct = bpf_map_lookup_elem(&timers, &zero);
	if (ct)
		bpf_timer_cancel(&ct->t);
	/* the kind last: the loader polls it */
	UEI_RECORD(exit_info, ei);
}

/* A task's memory home: its movable page allocations by page node. */
SEC("tracepoint/kmem/mm_page_alloc")
int cling_page_alloc(struct trace_event_raw_mm_page_alloc *ctx)
{
	struct task_ctx *tc;
	struct nl_pfn_table *t;
	u32 zero = 0, order = ctx->order;
	int i;

	if (ctx->migratetype != MIGRATE_MOVABLE)
		return 0;
	tc = bpf_task_storage_get(&tctx, bpf_get_current_task_btf(), 0, 0);
	if (!tc)
		return 0;
	t = bpf_map_lookup_elem(&pfn_table, &zero);
	if (!t)
		return 0;
	i = nl_pfn_table_search(t, ctx->pfn);
	if (i < 0)
		return 0;
	i = t->r[i & (NL_MAX_PFN_RANGES - 1)].nid;
	if (i >= 0 && i < CLING_MAX_NODES)
		__sync_fetch_and_add(&tc->alloc_pages[i], 1ULL << (order & 31));
	return 0;
}

SEC(".struct_ops.link")
struct sched_ext_ops cling_ops = {
	.select_cpu = (void *)cling_select_cpu,
	.enqueue = (void *)cling_enqueue,
	.dispatch = (void *)cling_dispatch,
	.running = (void *)cling_running,
	.stopping = (void *)cling_stopping,
	.enable = (void *)cling_enable,
	.cpu_online = (void *)cling_cpu_online,
	.cpu_offline = (void *)cling_cpu_offline,
	.init_task = (void *)cling_init_task,
	.exit_task = (void *)cling_exit_task,
	.init = (void *)cling_init,
	.exit = (void *)cling_exit,
	.flags = SCX_OPS_BUILTIN_IDLE_PER_NODE,
	.name = "scx_cling",
};
