// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sched: on-CPU time per NUMA node and CPU-time-weighted NUMA-fault
 * locality, per tgid and per cgroup, from sched:sched_switch.
 *
 * At each switch the slice that just ended (prev's) is measured as the
 * growth of prev's se.sum_exec_runtime since it was switched in on this CPU,
 * and attributed to the node of this CPU
 * (its execution time). For user tasks that are not exiting (kernel
 * threads and exiting tasks have no locality of their own) the slice is also added to the locality bucket of prev's current
 * NUMA-scan-window fault counts (task_struct.numa_faults_locality[0]
 * remote, [1] local; weighted by the slice's run time), or to nofault_ns when the window has
 * no faults. Counters are per-CPU and monotonic; the hierarchy is folded
 * in user space.
 */
#include "nl_common.bpf.h"
#include "cg_ancestry.bpf.h"
#include "locality.h"

#define PF_EXITING 0x00000004

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Values are struct nl_sched_val with one run_ns slot per possible node:
 * user space sets value_size to nl_sched_val_size(nl_nr_nodes) before
 * load, hence sizes here rather than BTF types (a BTF value type would pin
 * the size). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	/* preallocated: a switch may insert two new keys (the process's
	 * and its cgroup's) with interrupts off, and the allocator's
	 * per-CPU cache of per-CPU values holds one to three, refilled
	 * only once interrupts are back on */
	__uint(max_entries, 16384);	/* resized by user space to its memory budget */
	__uint(key_size, sizeof(struct nl_id_key));
	__uint(value_size, nl_sched_val_size(1));	/* set at load */
} sched_stats SEC(".maps");

/* Node ids this object counts: 1 + the highest id in
 * /sys/devices/system/node/possible, set by user space before load
 * (<= NL_MAX_NODES). The verifier sees it as a constant, which bounds the
 * per-node index into a sched_stats value. */
const volatile u32 nl_nr_nodes = 1;

/* The task now on this CPU and its se.sum_exec_runtime when it was
 * switched in. The slice is the kernel's own runtime accounting (updated
 * by put_prev_task before the tracepoint fires, for every class: fair, rt,
 * dl, ext), which is also cheaper than reading a clock here. */
struct oncpu {
	u32 pid;	/* 0: unknown (before attach) or the idle task */
	u32 seen;	/* a switch on this CPU was seen since attach */
	u64 sum_exec;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct oncpu);
} oncpu SEC(".maps");

/* Names of processes that exited, so user space can still name a process
 * that lived less than one interval: a ring of NL_EXIT_RING slots shared
 * by all CPUs, and its two positions, exit_pos[0] the next record to
 * write and exit_pos[1] the next user space will read (it writes that one
 * after each drain). Plain arrays, not a BPF ring buffer: small enough to
 * sit in the direct map (nl_types.h), with no lock. Per exit on our
 * host: an LRU hash ~1.4 us, the ring buffer ~0.9 us, this ~0.35-0.45 us
 * (an empty program ~0.1 us). When NL_EXIT_RING records wait unread,
 * names are dropped and counted. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NL_EXIT_RING);
	__type(key, u32);
	__type(value, struct nl_comm);
} exit_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, u32);
	__type(value, u64);
} exit_pos SEC(".maps");

/* A new sched_stats entry's value: zeroes for the largest value size. */
static const u64 zero_sched[nl_sched_val_size(NL_MAX_NODES) / sizeof(u64)];

/* Slices gathered on one thread since its last fold, all on one node:
 * run time on node @nid, and the locality figures (node-independent). */
struct slice_acc {
	u64 loc_ns[NL_LOC_BUCKETS];
	u64 nofault_ns;
	u64 slices;
	u64 run_ns;	/* on CPUs of node nid */
	u32 nid;
	u32 pad;
};

/* Per-thread accumulator in task-local storage. A hash lookup at
 * sched_switch is the expensive part of this program (cold buckets, one
 * per tgid and one per cgroup), so slices are summed on the task, which
 * is hot in cache here anyway, and folded into sched_stats once a thread
 * has gathered nl_flush_ns of CPU time or nl_flush_jiffies have passed, or
 * when its next slice ran on another node (threads seldom change node, and
 * one node's slot keeps this storage small whatever the node count).
 * What is not yet folded is at most nl_flush_ns of CPU per thread; an
 * exiting thread's slices are folded at once. */
struct task_acc {
	struct slice_acc v;
	u64 pending_ns;
	u64 last_flush;		/* jiffies */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_acc);
} task_accs SEC(".maps");

const volatile u64 nl_flush_ns = 4000000;	/* 4 ms of CPU */

/* Whether kernel.numa_balancing is on, written by user space at load and
 * at every collection (the sysctl is not readable from BPF). While it is
 * off no task's fault counters move, but they are not cleared either, and
 * fork copies them: binning slices by them would fill the locality
 * histogram with figures from whenever balancing last ran. So while it is
 * off a slice goes to no bucket and not to nofault_ns either. */
volatile u32 nl_numa_balancing_on;	/* off until user space has read it */
/* 25 jiffies: 100 ms at Debian's HZ=250 (25 ms at 1000, 250 ms at 100).
 * Jiffies, because tracing programs may not read the coarse clock. */
const volatile u64 nl_flush_jiffies = 25;

/* Under a sched_ext scheduler tasks take no NUMA hinting faults, so
 * their fault counters freeze: binning their slices by the frozen counts
 * would report a stale locality as if it were measured. So while user
 * space says a sched_ext scheduler is enabled (nl_sched_ext_on, written at
 * every collection with the collection's number nl_collect_seq), a slice
 * is binned only when its task's counters moved during the current
 * collection interval; otherwise it goes to no bucket (and not to
 * nofault_ns). */
volatile u32 nl_sched_ext_on;
volatile u32 nl_collect_seq;

/* A task's fault counters at its last slice, and when they last moved. */
struct fault_seen {
	u64 remote, local;	/* numa_faults_locality[0], [1] */
	u32 moved_seq;		/* nl_collect_seq when they last changed, 0 never */
	u32 seen;		/* remote/local hold a sample */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct fault_seen);
} faults_seen SEC(".maps");

/* True when @p's fault counters (@remote, @local) may be binned now: no
 * sched_ext scheduler, or they moved in this collection interval. */
static __always_inline bool faults_fresh(struct task_struct *p, u64 remote, u64 local)
{
	struct fault_seen *fs;
	u32 seq = nl_collect_seq;

	if (!nl_sched_ext_on)
		return true;
	fs = bpf_task_storage_get(&faults_seen, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!fs)
		return false;
	if (fs->seen && (fs->remote != remote || fs->local != local))
		fs->moved_seq = seq;
	fs->remote = remote;
	fs->local = local;
	fs->seen = 1;
	return seq && fs->moved_seq == seq;
}

/* SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE: the fair class's policies */
static __always_inline bool fair_policy(unsigned int policy)
{
	return policy == 0 || policy == 3 || policy == 5;
}

static __always_inline void add_slice(struct slice_acc *v, u32 nid, u64 delta, int bucket)
{
	v->nid = nid;
	v->run_ns += delta;
	v->slices++;
	if (bucket >= 0 && bucket < NL_LOC_BUCKETS)
		v->loc_ns[bucket] += delta;
	else if (bucket == -1)
		v->nofault_ns += delta;
}

static __always_inline void fold(u64 id, u32 kind, u32 why, const struct slice_acc *a)
{
	struct nl_id_key key = { .id = id, .kind = kind };
	struct nl_sched_val *v;
	/* 64-bit and opaque to clang, so that the register the bound check
	 * narrows is the one that indexes (clang would otherwise index with
	 * a copy of the switch's nid that the verifier knows no bound of) */
	u64 nid = a->nid;

	asm volatile("" : "+r"(nid));

	v = nl_cg_lookup_or_init(&sched_stats, &key, zero_sched, why,
				 kind == NL_KIND_CGROUP ? id : 0);
	if (!v)
		return;
	/* checked at the switch already; again here for the verifier, which
	 * reads nl_nr_nodes as a constant and so bounds nid by the value size */
	if (nid < nl_nr_nodes)
		v->run_ns[nid] += a->run_ns;
	for (int b = 0; b < NL_LOC_BUCKETS; b++)
		v->loc_ns[b] += a->loc_ns[b];
	v->nofault_ns += a->nofault_ns;
	v->slices += a->slices;
}

/* The slice prev just ended on this CPU, in ns of its own runtime, and
 * the on-CPU record @o moved on to @next. 0 when it cannot be known (the
 * slice began before attach, or prev is the idle task). */
static __always_inline u64 ended_slice(struct oncpu *o, struct task_struct *prev,
				       struct task_struct *next)
{
	u64 prev_sum = prev->se.sum_exec_runtime;
	u32 seen = o->seen;
	bool known = o->pid && o->pid == (u32)prev->pid && prev_sum >= o->sum_exec;
	u64 delta = prev_sum - o->sum_exec;

	o->pid = next->pid;
	o->seen = 1;
	o->sum_exec = next->se.sum_exec_runtime;
	if (!known && seen && prev->pid) {
		/* Switches on this CPU were seen, yet not the one that put prev
		 * on it: the kernel does skip a few (bpftrace sees the same
		 * gaps on our host), and one can hide a long slice. A fair-class
		 * task's own start mark (se.prev_sum_exec_runtime, set when it
		 * was picked) still gives its slice; under sched_ext or another
		 * class that mark is stale, and the slice is counted as lost.
		 * The policy alone does not say the class: a SCHED_NORMAL task
		 * that holds a PI lock an rt or dl waiter blocks on runs in the
		 * rt/dl class with prio < 100 (MAX_RT_PRIO), and its mark then
		 * dates from its last fair pick, so its slices since would be
		 * counted twice (on 6.18: 152 ms for a 5 ms slice). */
		if (!nl_sched_ext_on && fair_policy(prev->policy) && prev->prio >= 100 &&
		    prev_sum >= prev->se.prev_sum_exec_runtime) {
			delta = prev_sum - prev->se.prev_sum_exec_runtime;
			known = true;
		} else {
			nl_drop(NL_DROP_SLICE_UNSEEN);
		}
	}
	return known ? delta : 0;
}

/* The locality bucket of @prev's current fault counts, -1 when the window
 * has no faults, -2 for no sample (kernel thread, exiting task, balancing
 * off, or counters frozen under sched_ext). */
static __always_inline int slice_bucket(struct task_struct *prev, bool exiting)
{
	u64 remote = 0, local = 0;
	int bucket;

	if (!nl_untrusted(prev, struct task_struct)->mm || exiting || !nl_numa_balancing_on)
		return -2;
	if (bpf_core_field_exists(prev->numa_faults_locality)) {
		remote = prev->numa_faults_locality[0];
		local = prev->numa_faults_locality[1];
	}
	bucket = nl_loc_bucket(local, remote);	/* -1 when no faults */
	if (!faults_fresh(prev, remote, local))
		bucket = -2;
	return bucket;
}

/* Fold @a into the process's and the cgroup's sched_stats entries. prev
 * is still current at the switch, so the current-task cgroup helper
 * applies. */
static __always_inline void fold_both(struct task_struct *prev, const struct slice_acc *a)
{
	fold(nl_task_tgid(prev), NL_KIND_TGID, NL_DROP_TASK_MAP_FULL, a);
	fold(nl_current_cgroup_id(), NL_KIND_CGROUP, NL_DROP_CGROUP_MAP_FULL, a);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(handle_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	u32 zero = 0;
	struct oncpu *o = bpf_map_lookup_elem(&oncpu, &zero);
	struct task_acc *acc = NULL;
	struct slice_acc one;
	u64 delta, now;
	u32 nid;
	int bucket;
	bool exiting;

	if (!o)
		return 0;
	delta = ended_slice(o, prev, next);
	if (!delta)	/* slice began before attach, or idle */
		return 0;
	nid = bpf_get_numa_node_id();
	if (nid >= nl_nr_nodes) {
		nl_drop(NL_DROP_NODE_RANGE);
		return 0;
	}
	exiting = prev->flags & PF_EXITING;
	bucket = slice_bucket(prev, exiting);
	/* an exiting thread folds what it gathered too, never creates storage */
	acc = bpf_task_storage_get(&task_accs, prev, 0, exiting ? 0 : BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!acc) {	/* no storage: fold this slice alone */
		__builtin_memset(&one, 0, sizeof(one));
		add_slice(&one, nid, delta, bucket);
		fold_both(prev, &one);
		return 0;
	}
	now = bpf_jiffies64();
	if (acc->v.slices && acc->v.nid != nid) {	/* moved node: fold the old one's */
		fold_both(prev, &acc->v);
		__builtin_memset(acc, 0, sizeof(*acc));
		acc->last_flush = now;
	}
	add_slice(&acc->v, nid, delta, bucket);
	acc->pending_ns += delta;
	if (!exiting && acc->pending_ns < nl_flush_ns && now - acc->last_flush < nl_flush_jiffies)
		return 0;
	fold_both(prev, &acc->v);
	__builtin_memset(acc, 0, sizeof(*acc));
	acc->last_flush = now;
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(handle_process_exit, struct task_struct *p)
{
	u32 k_head = 0, k_tail = 1, slot, tgid;
	u64 *head, *tail, n;
	struct nl_comm *c;

	if (p->pid != p->tgid)	/* only the group leader names the process */
		return 0;
	tgid = (u32)nl_task_tgid(p);
	if (tgid == NL_TGID_OTHER_NS)	/* has no pid numalens could look up */
		return 0;
	head = bpf_map_lookup_elem(&exit_pos, &k_head);
	tail = bpf_map_lookup_elem(&exit_pos, &k_tail);
	if (!head || !tail)
		return 0;
	if (*head - *tail >= NL_EXIT_RING) {	/* unread: keep the older names */
		nl_drop(NL_DROP_EXIT_RING_FULL);
		return 0;
	}
	/* CPUs exiting at once each take their own record */
	n = __sync_fetch_and_add(head, 1);
	slot = (u32)(n % NL_EXIT_RING);
	c = bpf_map_lookup_elem(&exit_ring, &slot);
	if (!c)
		return 0;
	/* seq 0 first and n + 1 last, so that user space never takes a half
	 * written record (stores keep program order on x86; elsewhere a torn
	 * record needs a reader to lap the ring while it is written) */
	c->seq = 0;
	barrier();
	c->tgid = tgid;
	/* plain loads from the task (a BTF pointer), no helper call */
	*(u64 *)&c->comm[0] = *(const u64 *)&p->comm[0];
	*(u64 *)&c->comm[8] = *(const u64 *)&p->comm[8];
	barrier();
	c->seq = (u32)n + 1;
	return 0;
}
