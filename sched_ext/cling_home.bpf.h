/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a task belongs: its NUMA group (a cgroup the loader named), the
 * group's home node from the resident pages the loader writes into gmem,
 * the task's own memory home from its page allocations, whether it may
 * cling there now, and the accounting of one attempt. Part of the BPF
 * object scx_cling.bpf.c builds.
 */
#ifndef CLING_HOME_BPF_H
#define CLING_HOME_BPF_H

#include "cling_topo.bpf.h"

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

#endif /* CLING_HOME_BPF_H */
