// SPDX-License-Identifier: GPL-2.0
/*
 * scx_cling: a sched_ext scheduler with NUMA cling and a NUMA group per
 * cgroup (spec/seed_numa.md §3-4, §7.4-7.5; the math is in cling.h).
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
 * - Attempt / failure (CLG-4 for sched_ext): an attempt is one placement
 *   of a group task on its home node by cling, except a task already at
 *   home that starts again within wait_bound_ns (the seed counts only
 *   tasks off their preferred node): on an idle home CPU (a
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
 *   also clears the task's home for its next placement (the seed's
 *   sched_setnuma(p, NUMA_NO_NODE)).
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
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nl_types.h"
#include "pfn_map.h"
#include "cling_maps.h"

char _license[] SEC("license") = "GPL";

#define MIGRATE_MOVABLE 1	/* enum migratetype; user pages are movable */
#define CLOCK_MONOTONIC 1
#define ENOMEM 12
#define ENOENT 2
#define EBUSY 16

#define BPF_STRUCT_OPS(name, args...) \
	SEC("struct_ops/" #name) BPF_PROG(name, ##args)
#define BPF_STRUCT_OPS_SLEEPABLE(name, args...) \
	SEC("struct_ops.s/" #name) BPF_PROG(name, ##args)

/* Set by the loader before load. */
const volatile __u32 nr_nodes = 1;	/* node ids 0..nr_nodes-1 (possible nodes) */
const volatile __u32 degree = CLING_DEGREE_DEFAULT;
const volatile __u64 wait_bound_ns = 5000000ULL;
const volatile __u64 steal_ns = 40000000ULL;
const volatile __u64 decay_ns = 6000000000ULL;

/* Why the kernel ejected us (ops.exit); the loader prints it. */
struct cling_exit_info exit_info;
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
	__uint(max_entries, 16384);
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

/* CPUs between ops.cpu_offline and ops.cpu_online (bit per CPU). */
#define CLING_MAX_CPUS 8192
__u64 cpu_leaving[CLING_MAX_CPUS / 64];

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

static __always_inline u64 task_cgid(struct task_struct *p)
{
	return BPF_CORE_READ(p, cgroups, dfl_cgrp, kn, id);
}

/* A new group's state: a global, as it is too large for the BPF stack. */
struct cling_group group_init = { .ms.busiest = CLING_NO_NODE, .home = CLING_NO_NODE };

/* The NUMA group of cgroup @cgid (created on first use), or NULL. */
static struct cling_group *group_get(u64 cgid)
{
	struct cling_group *g = bpf_map_lookup_elem(&groups, &cgid);

	if (g)
		return g;
	bpf_map_update_elem(&groups, &cgid, &group_init, BPF_NOEXIST);
	return bpf_map_lookup_elem(&groups, &cgid);
}

/* The home of group @g whose pages the loader wrote in @gm (NULL: none
 * yet): none for a group too small to be near (@gm->no_home). */
static s32 group_home(const struct cling_group_mem *gm, const struct cling_group *g)
{
	if (!gm || gm->no_home)
		return CLING_NO_NODE;
	return cling_group_home(gm->pages, nr_nodes, &g->ms, degree, serve);
}

/*
 * Work out @p's home node now. *gp is its NUMA group or NULL. Records a
 * changed home in task_homes for `scx_cling --tasks`.
 */
static s32 task_home(struct task_struct *p, struct task_ctx *tc, struct cling_group **gp)
{
	u64 cgid = task_cgid(p);
	struct cling_group_mem *gm = bpf_map_lookup_elem(&gmem, &cgid);
	struct cling_group *g = NULL;
	s32 home, mem_home;

	mem_home = cling_group_home(tc->alloc_pages, nr_nodes, NULL, 0, serve);
	if (gm)
		g = group_get(cgid);
	if (g) {
		home = group_home(gm, g);
		g->home = home;
		/* the node a paused group's threads still prefer, when a CPU
		 * is idle there (cling_select_cpu); read only while the group
		 * has no home, so worked out only then */
		if (home >= 0)
			tc->mem_node = home;
		else
			tc->mem_node = gm && !gm->no_home ?
				       cling_group_home(gm->pages, nr_nodes, NULL, 0, serve) : mem_home;
	} else {
		cgid = 0;
		home = mem_home;
		tc->mem_node = mem_home;
	}
	*gp = g;
	if (home != tc->home || cgid != tc->cgid) {
		struct cling_task_home th = { .home = home, .mem_home = mem_home, .cgid = cgid };
		u32 pid = p->pid;

		bpf_map_update_elem(&task_homes, &pid, &th, BPF_ANY);
	}
	tc->home = home;
	tc->cgid = cgid;
	return home;
}

/*
 * May @p cling to @home now? Only to a node with online CPUs that its
 * affinity allows; a home outside its allowed CPUs is ignored for this
 * placement (counted on @home), never enforced.
 */
static bool may_cling(struct task_struct *p, s32 home)
{
	struct cling_node_stats *ns;

	if (home < 0)
		return false;
	if (allowed_on(p, home))
		return true;
	ns = nstat(home);
	if (ns)
		ns->home_ignored++;
	return false;
}

/* Account one attempt at @home in the node stats and the group, @failed
 * or not. */
static __always_inline void attempt_done(struct task_ctx *tc, struct cling_group *g, s32 home,
					 bool failed)
{
	struct cling_node_stats *ns = nstat(home);

	if (ns) {
		ns->attempts++;
		if (failed)
			ns->failures++;
	}
	if (g)
		cling_note(&g->ms, home, failed);
	if (failed)
		tc->skip_cling = 1;
}

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
		/* CLG-2: prefer the home node, never the waker's. */
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
		 * within the bound was never displaced: no attempt, as the
		 * seed counts one only for a task off its preferred node.
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

void BPF_STRUCT_OPS(cling_cpu_online, s32 cpu)
{
	cpu_hotplug(cpu, true);
}

void BPF_STRUCT_OPS(cling_cpu_offline, s32 cpu)
{
	cpu_hotplug(cpu, false);
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
	exit_info.exit_code = ei->exit_code;
	bpf_probe_read_kernel_str(exit_info.reason, sizeof(exit_info.reason), ei->reason);
	bpf_probe_read_kernel_str(exit_info.msg, sizeof(exit_info.msg), ei->msg);
	/* kind last: the loader polls it. */
	__sync_fetch_and_add(&exit_info.kind, ei->kind);
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
