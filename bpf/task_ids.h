/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The current task's process key and cgroup id, cached on the task (BPF
 * side only). Resolving them is the costly part of a hot hook: the
 * cgroup id is a chain of dependent loads (task -> css_set -> css ->
 * cgroup -> kernfs node -> id), each line cold when many tasks allocate,
 * and the process key a helper call (or a pid namespace walk). A task's
 * tgid never changes, and its cgroup changes only when it is migrated,
 * so both are kept in task-local storage, which the hook reaches through
 * the task itself (hot here), and checked in two ways:
 *  - the task's css_set pointer is the one seen when they were cached:
 *    every migration gives the task another css_set;
 *  - nl_cg_gen is the one seen then: the programs on the cgroup
 *    migration tracepoints (NL_TASK_IDS_PROGRAMS) bump it after every
 *    migration, because a css_set freed by one migration may be
 *    reallocated at the same address by the next, and the pointer alone
 *    would then take a new cgroup for the old one.
 * User space sets nl_task_ids_on once those programs are attached; until
 * then (or when they cannot be) every event resolves both afresh.
 * Include after nl_bpf.h.
 */
#ifndef NL_TASK_IDS_H
#define NL_TASK_IDS_H

/* One task's cached keys. */
struct nl_task_ids {
	u64 cgroup_id;	/* nl_current_cgroup_id() */
	u64 cset;	/* task->cgroups when cached, as a distance (NL_CSET_KEY); 0: none */
	u32 tgid;	/* nl_current_tgid() */
	u32 gen;	/* nl_cg_gen when cached */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct nl_task_ids);
} task_ids SEC(".maps");

/* Cgroup migrations seen since load (bumped by the programs below). */
volatile u32 nl_cg_gen;
/* Set by user space once both migration programs are attached. */
volatile u32 nl_task_ids_on;

/* A css_set pointer as a number: the verifier allows a BTF pointer in no
 * arithmetic but the difference of two pointers (to a privileged
 * loader), so it is the distance from this map; never 0. */
#define NL_CSET_KEY(p) ((u64)(p) - (u64)&task_ids)

/* The current task's cgroup id (*@cgid) and process key (*@tgid). */
static __always_inline void nl_current_ids(u64 *cgid, u32 *tgid)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct nl_task_ids *c = NULL;
	u32 gen = nl_cg_gen;
	u64 cset;

	/* the generation before the chain: a migration that ends while we
	 * read it leaves a stale generation behind, never a stale id */
	barrier();
	cset = NL_CSET_KEY(t->cgroups);
	barrier_var(cset);	/* the verifier needs the difference first */
	if (nl_task_ids_on)
		c = bpf_task_storage_get(&task_ids, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (c && c->cset == cset && c->gen == gen) {
		*cgid = c->cgroup_id;
		*tgid = c->tgid;
		return;
	}
	*cgid = nl_current_cgroup_id();
	*tgid = (u32)nl_current_tgid();
	if (c) {
		c->cgroup_id = *cgid;
		c->tgid = *tgid;
		c->gen = gen;
		c->cset = cset;
	}
}

/* The migration programs, for the one object that includes this with
 * NL_TASK_IDS_PROGRAMS defined. Classic tracepoints: they fire after the
 * tasks moved (cgroup_attach_task for cgroup.procs, tasks and
 * clone-less moves, cgroup_transfer_tasks for v1 cpuset's), rarely, and
 * load on any kernel. */
#ifdef NL_TASK_IDS_PROGRAMS
SEC("tracepoint/cgroup/cgroup_attach_task")
int handle_cgroup_attach(void *ctx)
{
	__sync_fetch_and_add(&nl_cg_gen, 1);
	return 0;
}

SEC("tracepoint/cgroup/cgroup_transfer_tasks")
int handle_cgroup_transfer(void *ctx)
{
	__sync_fetch_and_add(&nl_cg_gen, 1);
	return 0;
}
#endif

#endif /* NL_TASK_IDS_H */
