// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* RSS per node of a snapshot's processes; see collect_rss.h. */
#include <stdlib.h>
#include <string.h>
#include "collect_rss.h"
#include "procfs.h"

/* The readings kept between snapshots, by pid (few: the processes read). */
struct nl_collect_rss {
	struct rss_ent *rss;
	int nr_rss, cap_rss;
	uint64_t gen;			/* snapshots read */
	uint64_t reads, reused;		/* the last snapshot's numa_maps reads / reuses */
	const struct nl_collect_rss_in *in;	/* this call's, borrowed */
};

static int cmp_pid_pages(const void *a, const void *b)
{
	const struct nl_pid_pages *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* One process's last numa_maps reading and what it was taken against. */
struct rss_ent {
	pid_t pid;
	uint64_t statm;			/* resident pages (statm) just before it */
	uint64_t at_ns;			/* when (CLOCK_MONOTONIC) */
	uint64_t gen;			/* snapshot that last used it */
	uint64_t pages_sum;		/* the sum of pages[] */
	uint64_t allocated;		/* pages the process allocated since, as BPF
					 * counted them (reused intervals summed) */
	uint64_t pages[NL_MAX_NODES];
	struct nl_mempolicy pol;
	bool ran;			/* the process ran since (reused intervals) */
};

/* Resident pages of @pid for ranking by size: as the process part read
 * them this snapshot (an idle process's <pid>/stat, near statm's), else
 * statm's. 0 or -errno. */
static int resident_pages(const struct nl_collect_rss *c, pid_t pid, uint64_t *pages)
{
	const struct nl_pid_pages key = { .pid = pid }, *e = NULL;
	struct nl_proc_ident id;
	int r;

	if (c->in->nr_known)
		e = bsearch(&key, c->in->known, (size_t)c->in->nr_known, sizeof(key), cmp_pid_pages);
	if (e) {
		*pages = e->pages;
		return 0;
	}
	r = nl_proc_ident_read(c->in->procfs_root, pid, 0, NL_IDENT_STATM, &id);
	if (!r)
		*pages = id.statm_pages;
	return r;
}

/* A process to read and its resident pages, for the ranking by size. */
struct rss_rank { uint64_t pages; int i; };

static int cmp_rank_desc(const void *a, const void *b)
{
	const struct rss_rank *x = a, *y = b;

	return x->pages < y->pages ? 1 : x->pages > y->pages ? -1 : x->i - y->i;
}

/* How long a reading may be reused at most: what nothing we trace shows
 * (move_pages(2) by another process, an mbind(2) that moves nothing)
 * reaches the view within this. */
#define RSS_REUSE_MAX_NS (5ull * 1000000000ull)

/* ... and of a process that has not run since, on a host with one memory
 * node: nothing can move its pages to another node, and only the process
 * itself changes its policy. Bounded all the same, for what no rule here
 * sees (a shared memory policy set by another process). */
#define RSS_REUSE_IDLE_MAX_NS (60ull * 1000000000ull)

/* A reading is reused while what can have changed since is at most this
 * share of it (1/256, 0.4%): see rss_read(). */
#define RSS_REUSE_DRIFT_SHIFT 8

/* How many nodes have memory now (1 on a host that is not NUMA). */
static int mem_nodes(const struct nl_collect_rss *c)
{
	int n = 0;

	for (int i = 0; i < c->in->topo->nr_nodes; i++)
		n += c->in->topo->node[c->in->topo->nids[i]].mem_total_bytes > 0;
	return n;
}

/* With one memory node: @p's figure for it is @e's reading moved by the
 * change of the resident size since (statm, @statm pages now). */
static void one_node_follow(const struct nl_collect_rss *c, struct nl_proc *p,
			    const struct rss_ent *e, uint64_t statm)
{
	for (int i = 0; i < c->in->topo->nr_nodes; i++) {
		int nid = c->in->topo->nids[i];

		if (!c->in->topo->node[nid].mem_total_bytes)
			continue;
		if (statm >= e->statm)
			p->rss_pages_by_node[nid] = e->pages[nid] + (statm - e->statm);
		else
			p->rss_pages_by_node[nid] = e->pages[nid] > e->statm - statm ?
						    e->pages[nid] - (e->statm - statm) : 0;
	}
}

/* @p's figures from its last reading @e when little can have moved since
 * (see rss_read), @statm its resident pages now. True when reused. */
static bool rss_reuse(struct nl_collect_rss *c, struct nl_proc *p, struct rss_ent *e, uint64_t statm,
		      uint64_t now)
{
	uint64_t allocated = e->allocated + p->f.alloc.pages_local + p->f.alloc.pages_remote;
	uint64_t grown = statm > e->statm ? statm - e->statm : e->statm - statm;
	bool ran = e->ran || p->f.run_ns, one_node = mem_nodes(c) == 1;
	uint64_t max_age = one_node && !ran ? RSS_REUSE_IDLE_MAX_NS : RSS_REUSE_MAX_NS;

	if (now - e->at_ns >= max_age ||
	    (!one_node && allocated + grown > e->pages_sum >> RSS_REUSE_DRIFT_SHIFT))
		return false;
	memcpy(p->rss_pages_by_node, e->pages, sizeof(e->pages));
	if (one_node)
		one_node_follow(c, p, e, statm);
	p->mempolicy = e->pol;
	p->rss_known = true;
	e->gen = c->gen;
	e->allocated = allocated;
	e->ran = ran;
	c->reused++;
	return true;
}

/* RSS per node and memory policy of @p from numa_maps, or from its last
 * reading when little can have moved since: no page migrated in this
 * interval, read less than RSS_REUSE_MAX_NS ago, and the pages it
 * allocated since (BPF) plus the change of its resident size (statm,
 * cheap) at most 1/256 of the reading. A node's figure is then off by at
 * most that bound: a node gains at most the pages allocated there and
 * loses at most those freed, which are the allocated ones less the growth
 * of the resident size. With one memory node, that node's figure is the
 * resident size: it changes by what statm does, whatever was allocated
 * (a guest allocating and freeing a few hundred pages a second kept its
 * size but was read every 1-2 s), so the reading moves by statm's change
 * (numa_maps and statm count the same mapped pages, but for a constant
 * few: the vDSO's, which numa_maps leaves out), a guest that grows is
 * walked every RSS_REUSE_MAX_NS instead of every interval, and a process
 * that has not run since is reused up to RSS_REUSE_IDLE_MAX_NS.
 * numa_maps walks every page table of the process: a guest's 1 GiB took
 * 15-25 ms a read, and one that allocated a few hundred pages a second
 * was read every interval (most of top's own CPU). Sets p->rss_known. */
static void rss_read(struct nl_collect_rss *c, struct nl_proc *p)
{
	uint64_t statm = 0, now = c->in->now_ns;
	struct rss_ent *e = NULL;
	struct nl_proc_ident id;
	bool have_statm;

	for (int i = 0; i < c->nr_rss && !e; i++)
		if (c->rss[i].pid == p->pid)
			e = &c->rss[i];
	/* nothing to reuse: statm and numa_maps in one pass */
	nl_proc_ident_read(c->in->procfs_root, p->pid, 0, e ? NL_IDENT_STATM : NL_IDENT_STATM | NL_IDENT_NUMA,
			   &id);
	have_statm = id.got & NL_IDENT_STATM;
	if (have_statm)
		statm = id.statm_pages;
	if (e && have_statm && !p->f.mig.pages_ok && !p->f.mig.pages_fail && rss_reuse(c, p, e, statm, now))
		return;
	if (e)
		nl_proc_ident_read(c->in->procfs_root, p->pid, 0, NL_IDENT_NUMA, &id);
	memcpy(p->rss_pages_by_node, id.pages_by_node, sizeof(p->rss_pages_by_node));
	p->mempolicy = id.pol;
	p->rss_known = id.got & NL_IDENT_NUMA;
	c->reads++;
	if (!p->rss_known || !have_statm)
		return;
	if (!e && c->nr_rss == c->cap_rss) {
		int cap = c->cap_rss ? c->cap_rss * 2 : 64;
		struct rss_ent *n = realloc(c->rss, (size_t)cap * sizeof(*n));

		if (!n)
			return;		/* no reuse, no harm */
		c->rss = n;
		c->cap_rss = cap;
	}
	if (!e)
		e = &c->rss[c->nr_rss++];
	*e = (struct rss_ent){ .pid = p->pid, .statm = statm, .at_ns = now, .gen = c->gen,
			       .pol = p->mempolicy };
	memcpy(e->pages, p->rss_pages_by_node, sizeof(e->pages));
	for (int n = 0; n < NL_MAX_NODES; n++)
		e->pages_sum += e->pages[n];
}

/* Forget the readings no process of this snapshot used (exited, or no
 * longer among those read): a reused pid starts afresh. */
static void rss_evict(struct nl_collect_rss *c)
{
	int k = 0;

	for (int i = 0; i < c->nr_rss; i++)
		if (c->rss[i].gen == c->gen)
			c->rss[k++] = c->rss[i];
	c->nr_rss = k;
}

/* numa_maps (RSS per node) for the rss_max_procs busiest live processes
 * (s->procs is in CPU order) and, with all_procs, for as many of the
 * largest by resident size (statm, cheap): `-s rss` must find the big idle
 * process, not only the busy one. */
static void read_rss(struct nl_collect_rss *c, struct nl_snapshot *s)
{
	struct rss_rank *r = c->in->by_size && c->in->max_procs > 0 ?
		calloc((size_t)s->nr_procs + 1, sizeof(*r)) : NULL;
	int nr = 0;

	for (int i = 0, reads = 0; i < s->nr_procs && reads < c->in->max_procs; i++) {
		struct nl_proc *p = &s->procs[i];

		if (!p->alive)
			continue;
		reads++;
		rss_read(c, p);
	}
	if (!r)
		return;
	for (int i = 0; i < s->nr_procs; i++) {
		uint64_t pages;

		if (s->procs[i].alive && !s->procs[i].rss_known &&
		    !resident_pages(c, s->procs[i].pid, &pages) && pages)
			r[nr++] = (struct rss_rank){ pages, i };
	}
	qsort(r, (size_t)nr, sizeof(*r), cmp_rank_desc);
	/* ranked by <pid>/stat's resident size for idle ones, which is
	 * near statm's but not it: rss_read() reads statm itself */
	for (int k = 0; k < nr && k < c->in->max_procs; k++)
		rss_read(c, &s->procs[r[k].i]);
	free(r);
}

/* The processes a view looks at now (its detail window, its name filter,
 * -p): read whatever their rank, so they never show "-" for RSS. At most
 * rss_max_procs more reads, so a filter matching everything costs what the
 * busiest rows do. */
static void read_focus_rss(struct nl_collect_rss *c, struct nl_snapshot *s)
{
	/* with no ranked reads (< 0) the focused processes still get theirs */
	int lim = c->in->max_procs > 0 ? c->in->max_procs : 64;

	for (int i = 0, reads = 0; i < s->nr_procs && reads < lim; i++) {
		struct nl_proc *p = &s->procs[i];

		if (!p->alive || p->rss_known)
			continue;
		if (p->pid != c->in->focus_pid && p->pid != c->in->watch_pid &&
		    !(c->in->focus_comm[0] && strstr(p->comm, c->in->focus_comm)))
			continue;
		reads++;
		rss_read(c, p);
	}
}

void nl_collect_rss_read(struct nl_collect_rss *c, const struct nl_collect_rss_in *in, struct nl_snapshot *s)
{
	c->in = in;
	c->gen++;
	c->reads = c->reused = 0;
	read_rss(c, s);
	read_focus_rss(c, s);
	rss_evict(c);
	c->in = NULL;
}

void nl_collect_rss_counts(const struct nl_collect_rss *c, uint64_t *reads, uint64_t *reused)
{
	*reads = c->reads;
	*reused = c->reused;
}

void nl_collect_rss_skip(struct nl_collect_rss *c)
{
	c->gen++;
	c->reads = c->reused = 0;
}

struct nl_collect_rss *nl_collect_rss_new(void)
{
	return calloc(1, sizeof(struct nl_collect_rss));
}

void nl_collect_rss_free(struct nl_collect_rss *c)
{
	if (!c)
		return;
	free(c->rss);
	free(c);
}
