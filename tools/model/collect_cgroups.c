// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The cgroup rows of a snapshot; see collect_cgroups.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgident.h"
#include "cgroup.h"
#include "collect_cgroups.h"
#include "counts.h"
#include "figs.h"
#include "names.h"
#include "procfs.h"

/* A removed cgroup still shown: its place in the tree and intervals left. */
struct gone_cg {
	uint64_t id, parent;
	int left;
	char *path;		/* full, owned */
	int depth;
};

/*
 * The cgroup part. Counters as BPF counts them (struct nl_counts); the
 * "this fill" members are borrowed from nl_collect_cgroups_fill()'s caller
 * for its call.
 */
struct nl_collect_cgroups {
	const char *root;			/* mount point of the hierarchy */
	int grace;				/* intervals a removed cgroup stays */
	struct nl_cgroup_map cgmap;		/* the tree of the last walk */
	struct nl_cgroup_fold fold;
	struct nl_counts_table cg_tot, prev_cg_tot;	/* hierarchical, this and last interval */
	struct gone_cg *gone;
	int nr_gone, cap_gone;
	uint64_t evicted;
	/* this fill's inputs */
	const struct nl_raw_counts *raw;
	const struct nl_raw_counts_ops *ops;
	bool baseline;
};

/* Fill @g's label and, for a path longer than the label holds, its owned
 * full path (nl_cgroup_full_path), and the identity the full path names
 * (pod, container, unit). Returns 0 or -ENOMEM. */
static int set_cgroup_path(struct nl_cgroup *g, const char *path)
{
	nl_cgident_parse(path, &g->ident);
	g->long_path = NULL;
	if (!nl_name_path_label(g->path, sizeof(g->path), path, g->id))
		return 0;
	g->long_path = strdup(path);
	return g->long_path ? 0 : -ENOMEM;
}

static int add_gone(struct nl_collect_cgroups *c, const struct nl_cgroup_ent *e)
{
	if (c->nr_gone == c->cap_gone) {
		int cap = c->cap_gone ? c->cap_gone * 2 : 16;
		void *v = realloc(c->gone, (size_t)cap * sizeof(*c->gone));

		if (!v)
			return -ENOMEM;
		c->gone = v;
		c->cap_gone = cap;
	}
	c->gone[c->nr_gone].id = e->id;
	c->gone[c->nr_gone].parent = e->parent_id;
	c->gone[c->nr_gone].depth = e->depth;
	c->gone[c->nr_gone].left = c->grace;
	c->gone[c->nr_gone].path = strdup(e->path);
	if (!c->gone[c->nr_gone].path)
		return -ENOMEM;
	c->nr_gone++;
	return 0;
}

/* @path: the cgroup's full path (g->path may be a shortened label) */
static void fill_numa_stat(struct nl_collect_cgroups *c, struct nl_cgroup *g, const char *path,
			   long page_size)
{
	char p[4700];

	snprintf(p, sizeof(p), "%s%s%smemory.numa_stat", c->root,
		 strcmp(path, "/") ? path : "", "/");
	g->numa_stat_known = nl_proc_memcg_numa_stat_read(p, g->anon_bytes_by_node,
						     g->file_bytes_by_node, page_size) > 0;
}

/* Read this interval's cgroup tree into c->cgmap. Cgroups that vanished
 * since the last interval are kept (add_gone) to be shown as removed for
 * the grace period, with their last hierarchical figures. 0, or a negative
 * errno when the tree cannot be read (the old tree stays). */
static int cgroups_refresh_tree(struct nl_collect_cgroups *c)
{
	struct nl_cgroup_map old = c->cgmap;
	int e;

	memset(&c->cgmap, 0, sizeof(c->cgmap));
	e = nl_cgroup_map_build(&c->cgmap, c->root);
	if (e < 0) {
		c->cgmap = old;
		return e;
	}
	for (int i = 0; i < old.n; i++)
		if (nl_cgroup_map_index(&c->cgmap, old.ents[i].id) < 0)
			add_gone(c, &old.ents[i]);
	nl_cgroup_map_free(&old);
	return 0;
}

/* The fold's input: every counted cgroup id in @ids with its own counts
 * in @own (NL_COUNTS_WIDTH words each). Removed cgroups past their grace
 * period go to @dead: their BPF entries are deleted, the fold has moved
 * their counts to the parent. Returns how many are dead. */
static int cgroups_fold_input(const struct nl_collect_cgroups *c, uint64_t *ids, uint64_t *own, uint64_t *dead)
{
	int nr_dead = 0;

	for (int i = 0; i < c->raw->cgroups.n; i++) {
		ids[i] = c->raw->cgroups.v[i].id;
		memcpy(own + (size_t)i * NL_COUNTS_WIDTH, &c->raw->cgroups.v[i].c, sizeof(struct nl_counts));
		if (nl_cgroup_map_index(&c->cgmap, ids[i]) < 0) {
			bool shown = false;

			for (int g = 0; g < c->nr_gone; g++)
				shown |= c->gone[g].id == ids[i] && c->gone[g].left > 0;
			if (!shown)
				dead[nr_dead++] = ids[i];
		}
	}
	return nr_dead;
}

/* Counted cgroups the walk did not see (created and removed since the
 * last one): their parents as BPF recorded them, so their counts fold into
 * the real parent instead of the root. */
static void cgroups_parent_hints(struct nl_collect_cgroups *c, const uint64_t *ids)
{
	for (int i = 0; i < c->raw->cgroups.n; i++) {
		uint64_t anc[NL_CG_ANCESTORS];
		int na;

		if (nl_cgroup_map_index(&c->cgmap, ids[i]) >= 0)
			continue;
		na = c->ops && c->ops->cgroup_ancestors ?
		     c->ops->cgroup_ancestors(c->ops->ctx, ids[i], anc, NL_CG_ANCESTORS) : -ENOENT;
		for (int k = 0; k < na; k++) {
			if (nl_cgroup_fold_set_parent(&c->fold, k ? anc[k - 1] : ids[i], anc[k]))
				break;
			if (nl_cgroup_map_index(&c->cgmap, anc[k]) >= 0)
				break;	/* a live ancestor: the chain ends there */
		}
	}
}

/* A snapshot row per live cgroup, from s->cgroups[*@k] on: the fold's
 * hierarchical totals @tot (kept in cg_tot for the next deltas), path,
 * figures over @interval ns and memory.numa_stat. 0 or -ENOMEM. */
static int cgroups_fill_live(struct nl_collect_cgroups *c, struct nl_snapshot *s, const uint64_t *tot,
			     uint64_t interval, int *k)
{
	nl_counts_clear(&c->cg_tot);
	for (int i = 0; i < c->cgmap.n; i++) {
		const struct nl_cgroup_ent *ent = &c->cgmap.ents[i];
		struct nl_counts *t = nl_counts_get(&c->cg_tot, ent->id);
		struct nl_cgroup *g = &s->cgroups[(*k)++];

		if (!t)
			return -ENOMEM;
		memcpy(t, tot + (size_t)i * NL_COUNTS_WIDTH, sizeof(*t));
		g->id = ent->id;
		g->parent_id = ent->parent_id;
		g->depth = ent->depth;
		if (set_cgroup_path(g, ent->path))
			return -ENOMEM;
		nl_figs_compute(&g->f, t, nl_counts_find(&c->prev_cg_tot, ent->id), interval,
				s->src.numa_balancing);
		if (!c->baseline)
			fill_numa_stat(c, g, ent->path, s->page_size);
	}
	return 0;
}

/* A snapshot row per removed cgroup still in its grace period (each call
 * spends one interval of it), from s->cgroups[*@k] on. A removed cgroup
 * keeps its last hierarchical totals; its counts live on in the parent
 * through the fold. 0 or -ENOMEM. */
static int cgroups_fill_gone(struct nl_collect_cgroups *c, struct nl_snapshot *s, uint64_t interval, int *k)
{
	for (int gi = 0; gi < c->nr_gone; gi++) {
		const struct nl_counts *last;
		struct nl_counts dc, *t;
		struct nl_cgroup *g;

		if (c->gone[gi].left-- <= 0)
			continue;
		last = nl_counts_find(&c->prev_cg_tot, c->gone[gi].id);
		if (last)
			dc = *last;
		else if (nl_cgroup_fold_dead(&c->fold, c->gone[gi].id, (uint64_t *)&dc))
			memset(&dc, 0, sizeof(dc));
		g = &s->cgroups[(*k)++];
		g->id = c->gone[gi].id;
		g->parent_id = c->gone[gi].parent;
		g->depth = c->gone[gi].depth;
		g->removed = true;
		if (set_cgroup_path(g, c->gone[gi].path))
			return -ENOMEM;
		nl_figs_compute(&g->f, &dc, nl_counts_find(&c->prev_cg_tot, g->id), interval,
				s->src.numa_balancing);
		t = nl_counts_get(&c->cg_tot, g->id);
		if (t)
			*t = dc;
	}
	return 0;
}

/* Drop the removed cgroups whose grace period is over. */
static void cgroups_expire_gone(struct nl_collect_cgroups *c)
{
	for (int gi = 0; gi < c->nr_gone;)
		if (c->gone[gi].left <= 0) {
			free(c->gone[gi].path);
			c->gone[gi] = c->gone[--c->nr_gone];
		} else {
			gi++;
		}
}

/* Delete the BPF entries of the @n cgroups @dead (removed, past their
 * grace period) and count them as evicted. */
static void cgroups_forget(struct nl_collect_cgroups *c, uint64_t *dead, int n)
{
	if (!n)
		return;
	if (c->ops && c->ops->forget)
		c->ops->forget(c->ops->ctx, NL_KIND_CGROUP, dead, n);
	c->evicted += (uint64_t)n;
}

int nl_collect_cgroups_fill(struct nl_collect_cgroups *c, const struct nl_raw_counts *raw,
			    const struct nl_raw_counts_ops *ops, bool baseline, struct nl_snapshot *s)
{
	uint64_t *ids = NULL, *own = NULL, *tot = NULL, *dead = NULL;
	int e, nr_dead, k = 0, n = raw->cgroups.n;

	c->raw = raw;
	c->ops = ops;
	c->baseline = baseline;
	if (cgroups_refresh_tree(c) < 0)
		return 0;	/* no cgroup view this interval; keep the old tree */
	ids = calloc((size_t)n + 1, sizeof(*ids));
	own = calloc(((size_t)n + 1) * NL_COUNTS_WIDTH, sizeof(*own));
	tot = calloc((size_t)c->cgmap.n * NL_COUNTS_WIDTH, sizeof(*tot));
	dead = calloc((size_t)n + 1, sizeof(*dead));
	s->cgroups = calloc((size_t)c->cgmap.n + (size_t)c->nr_gone, sizeof(*s->cgroups));
	if (!ids || !own || !tot || !dead || !s->cgroups) {
		e = -ENOMEM;
		goto out;
	}
	nr_dead = cgroups_fold_input(c, ids, own, dead);
	cgroups_parent_hints(c, ids);
	e = nl_cgroup_fold_run(&c->fold, &c->cgmap, ids, own, n, tot);
	if (!e)
		e = cgroups_fill_live(c, s, tot, s->interval_ns, &k);
	if (!e)
		e = cgroups_fill_gone(c, s, s->interval_ns, &k);
	if (!e) {
		struct nl_counts_table tmp = c->prev_cg_tot;

		cgroups_expire_gone(c);
		cgroups_forget(c, dead, nr_dead);
		/* this interval's totals become the previous ones */
		c->prev_cg_tot = c->cg_tot;
		c->cg_tot = tmp;
	}
out:
	if (s->cgroups)
		s->nr_cgroups = k;	/* also on failure: nl_snapshot_free frees their parts */
	free(ids);
	free(own);
	free(tot);
	free(dead);
	return e;
}

int nl_collect_cgroups_new(struct nl_collect_cgroups **out, const char *cgroup_root, int grace)
{
	struct nl_collect_cgroups *c = calloc(1, sizeof(*c));
	int e;

	if (!c)
		return -ENOMEM;
	c->root = cgroup_root;
	c->grace = grace ? grace : 1;
	e = nl_cgroup_fold_init(&c->fold, (int)NL_COUNTS_WIDTH);
	if (e) {
		free(c);
		return e;
	}
	*out = c;
	return 0;
}

const struct nl_cgroup_map *nl_collect_cgroups_tree(const struct nl_collect_cgroups *c)
{
	return &c->cgmap;
}

uint64_t nl_collect_cgroups_evicted(const struct nl_collect_cgroups *c)
{
	return c->evicted;
}

void nl_collect_cgroups_free(struct nl_collect_cgroups *c)
{
	if (!c)
		return;
	nl_counts_free(&c->cg_tot);
	nl_counts_free(&c->prev_cg_tot);
	nl_cgroup_map_free(&c->cgmap);
	nl_cgroup_fold_free(&c->fold);
	for (int i = 0; i < c->nr_gone; i++)
		free(c->gone[i].path);
	free(c->gone);
	free(c);
}
