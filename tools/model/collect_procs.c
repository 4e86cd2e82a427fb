// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The process rows of a snapshot; see collect_procs.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup.h"
#include "collect_priv.h"
#include "collect_procs.h"
#include "counts.h"
#include "figs.h"
#include "maps.h"
#include "names.h"
#include "procfs.h"

/* Order for numa_maps reads: busiest first, so the rows a view shows on
 * top have RSS even when reads are capped. */
static int cmp_run_desc(const void *a, const void *b)
{
	const struct nl_proc *x = a, *y = b;

	return x->f.run_ns < y->f.run_ns ? 1 : x->f.run_ns > y->f.run_ns ? -1 : 0;
}

static int cmp_comm(const void *a, const void *b)
{
	const struct comm_ent *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Remember the names of this interval's processes for the next one. */
static void keep_comms(struct nl_collector *c, const struct nl_snapshot *s)
{
	struct comm_ent *v = realloc(c->comms, ((size_t)s->nr_procs + 1) * sizeof(*v));

	if (!v)
		return;
	c->comms = v;
	for (int i = 0; i < s->nr_procs; i++) {
		v[i].pid = s->procs[i].pid;
		memcpy(v[i].comm, s->procs[i].comm, sizeof(v[i].comm));
		memcpy(v[i].cgroup, s->procs[i].cgroup_path, sizeof(v[i].cgroup));
		v[i].cgroup_id = s->procs[i].cgroup_id;
	}
	c->nr_comms = s->nr_procs;
	qsort(v, (size_t)c->nr_comms, sizeof(*v), cmp_comm);
}

/* Name and cgroup of a process that has exited: its name as recorded at
 * exit by BPF (the last one it had: after any exec, and the right one when
 * its pid was reused since the previous interval), else the previous
 * interval's; the cgroup from the previous interval. */
static void exited_proc(const struct nl_collector *c, struct nl_proc *p)
{
	struct comm_ent key = { .pid = p->pid }, *e = NULL;
	char raw[NL_COMM_BYTES + 1];

	if (c->nr_comms)
		e = bsearch(&key, c->comms, (size_t)c->nr_comms, sizeof(key), cmp_comm);
	if (e) {
		snprintf(p->comm, sizeof(p->comm), "%s", e->comm);
		snprintf(p->cgroup_path, sizeof(p->cgroup_path), "%s", e->cgroup);
		p->cgroup_id = e->cgroup_id;
	}
	if (!nl_maps_exited_comm(c->b, (uint32_t)p->pid, raw, sizeof(raw)))
		nl_comm_clean(p->comm, raw);
	else if (!e)
		snprintf(p->comm, sizeof(p->comm), "<exited>");
}

/* The id of the cgroup at hierarchy path @rel (0 when it cannot be
 * stat()ed). Processes share few cgroups (a thousand idle ones are often
 * in one), so the ids of the last few paths are kept for the snapshot
 * being built (fill_procs empties them) instead of a stat() per process. */
static uint64_t cgroup_id_memo(struct nl_collector *c, const char *rel)
{
	const int cap = (int)(sizeof(c->cgid) / sizeof(c->cgid[0]));
	char full[4608];
	uint64_t id = 0;

	for (int i = 0; i < c->nr_cgid; i++)
		if (!strcmp(c->cgid[i].rel, rel))
			return c->cgid[i].id;
	snprintf(full, sizeof(full), "%s%s", c->o.cgroup_root, rel);
	if (nl_cgroup_id_of(full, &id))
		id = 0;
	size_t n = strlen(rel);

	if (n < sizeof(c->cgid[0].rel)) {
		int i = c->next_cgid;

		memcpy(c->cgid[i].rel, rel, n + 1);	/* fits: n < its size */
		c->cgid[i].id = id;
		c->next_cgid = (i + 1) % cap;
		if (c->nr_cgid < cap)
			c->nr_cgid++;
	}
	return id;
}

/* @p's cgroup from the hierarchy path @rel: its label and, with a cgroup
 * view, its id. */
static void proc_set_cgroup(struct nl_collector *c, struct nl_proc *p, const char *rel)
{
	uint64_t id = c->cgmap.n ? cgroup_id_memo(c, rel) : 0;

	p->cgroup_id = id;
	/* a path longer than cgroup_path[] gets a label like the cgroup's */
	nl_path_label(p->cgroup_path, sizeof(p->cgroup_path), rel, id);
}

static int cmp_cg_of(const void *a, const void *b)
{
	const struct cg_of *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Learn the cgroup of every process from the cgroup.procs of each cgroup
 * of the last tree (c->cgmap), one read per cgroup, when that is fewer
 * reads than one /proc/<pid>/cgroup per process (@want: how many
 * processes are to be placed). The answer is the one /proc/<pid>/cgroup
 * gives: the cgroup of the mounted hierarchy whose cgroup.procs lists the
 * pid. A pid listed twice (cgroup v1 threads in different cgroups, or
 * moved during the reads), one no cgroup listed (a cgroup newer than the
 * tree, or deeper than the walk goes) and every pid when a cgroup.procs
 * cannot be read (a threaded cgroup v2) are left to proc_cgroup()'s
 * per-process read. A cgroup replaced by another of the same path since
 * the walk (its inode differs) is left out too. */
static void cgroup_scan(struct nl_collector *c, int want)
{
	c->nr_cgof = 0;
	if (!c->cgmap.n || c->cgmap.truncated || c->cgmap.n * 2 > want || !c->cg_scan_ok)
		return;
	for (int i = 0; i < c->cgmap.n; i++) {
		const struct nl_cgroup_ent *ent = &c->cgmap.ents[i];
		char path[4700];
		uint64_t id;
		int np = 0, r;

		snprintf(path, sizeof(path), "%s%s/cgroup.procs", c->o.cgroup_root,
			 strcmp(ent->path, "/") ? ent->path : "");
		r = nl_read_pid_list(path, &c->scan_pids, &np, &c->cap_scan_pids);
		if (r == -ENOENT)
			continue;	/* removed since the walk: it had no process */
		if (r < 0) {
			c->nr_cgof = 0;
			return;
		}
		path[strlen(path) - strlen("/cgroup.procs")] = '\0';
		if (nl_cgroup_id_of(path, &id) || id != ent->id)
			continue;
		if (c->nr_cgof + np > c->cap_cgof) {
			int cap = (c->nr_cgof + np) * 2;
			struct cg_of *v = realloc(c->cgof, (size_t)cap * sizeof(*v));

			if (!v) {
				c->nr_cgof = 0;
				return;
			}
			c->cgof = v;
			c->cap_cgof = cap;
		}
		for (int k = 0; k < np; k++)
			c->cgof[c->nr_cgof++] = (struct cg_of){ c->scan_pids[k], i };
	}
	qsort(c->cgof, (size_t)c->nr_cgof, sizeof(*c->cgof), cmp_cg_of);
	for (int i = 1; i < c->nr_cgof; i++)
		if (c->cgof[i].pid == c->cgof[i - 1].pid)
			c->cgof[i].ent = c->cgof[i - 1].ent = -1;
}

/* @p's cgroup (pid set): from cgroup_scan()'s lists when they place it,
 * else from /proc/<pid>/cgroup. Returns 0, or -ESRCH when the process is
 * gone. */
static int proc_cgroup(struct nl_collector *c, struct nl_proc *p)
{
	const struct cg_of key = { .pid = p->pid }, *e = NULL;
	char rel[4096];

	if (c->nr_cgof)
		e = bsearch(&key, c->cgof, (size_t)c->nr_cgof, sizeof(key), cmp_cg_of);
	if (e && e->ent >= 0) {
		const struct nl_cgroup_ent *ent = &c->cgmap.ents[e->ent];

		p->cgroup_id = ent->id;
		nl_path_label(p->cgroup_path, sizeof(p->cgroup_path), ent->path, ent->id);
		return 0;
	}
	if (nl_proc_cgroup_path(c->o.procfs_root, p->pid, c->o.cgroup_mode, rel, sizeof(rel)))
		return -ESRCH;
	if (c->cg_ns_prefix[0]) {
		char host[4096];

		if (!nl_cgroup_ns_join(c->cg_ns_prefix, rel, host, sizeof(host)))
			memcpy(rel, host, sizeof(rel));
	}
	proc_set_cgroup(c, p, rel);
	return 0;
}

/* Name @p (pid set) from procfs: comm, cgroup path and, with a cgroup
 * view, its cgroup id. Returns 0, or -ESRCH when the process is gone. */
static int proc_identity(struct nl_collector *c, struct nl_proc *p)
{
	char raw[NL_COMM_BYTES + 1];

	if (nl_read_comm(c->o.procfs_root, p->pid, raw, sizeof(raw)) || proc_cgroup(c, p))
		return -ESRCH;
	nl_comm_clean(p->comm, raw);
	return 0;
}

/* The watched pid that BPF saw nothing of (it neither ran nor allocated
 * since attach): an entry with zero figures, its name and cgroup, so that
 * `top -p` shows the process and its resident memory. Returns 1 if @p was
 * filled, 0 if the process went meanwhile. */
static int watched_idle(struct nl_collector *c, struct nl_proc *p)
{
	memset(p, 0, sizeof(*p));
	p->pid = c->o.watch_pid;
	p->alive = true;
	return proc_identity(c, p) == 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Resident pages of @pid for ranking by size: as add_idle_procs() read
 * them this snapshot (<pid>/stat's, near statm's), else statm's. 0 or
 * -errno. */
static int resident_pages(const struct nl_collector *c, pid_t pid, uint64_t *pages)
{
	const struct pid_pages key = { .pid = pid }, *e = NULL;

	if (c->nr_idle_res)
		e = bsearch(&key, c->idle_res, (size_t)c->nr_idle_res, sizeof(key), cmp_pid);
	if (e) {
		*pages = e->pages;
		return 0;
	}
	return nl_statm_resident(c->o.procfs_root, pid, pages);
}

static int cmp_idle(const void *a, const void *b)
{
	const struct idle_ent *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* How long an idle process's resident size from <pid>/stat is used for
 * ranking before it is read again: it shrinks without the process running
 * (reclaim), as RSS per node can change unseen (RSS_REUSE_MAX_NS). */
#define IDLE_STAT_MAX_NS (5ull * 1000000000ull)

/* Name and resident pages of idle process @pid: from c->idle when it was
 * idle (unseen by BPF) at the last snapshot too and its size was read
 * less than IDLE_STAT_MAX_NS ago, else from <pid>/stat (one read gives
 * both). A process that has not run cannot have changed its name (only
 * its own threads can: exec, prctl, /proc/<pid>/comm) and a new process
 * under a reused pid runs, so BPF sees it, before anything else happens
 * to it. Recorded in c->idle_next. 0, or -errno when it is gone. */
static int idle_stat(struct nl_collector *c, pid_t pid, bool valid, uint64_t now, uint64_t *res,
		     char *comm)
{
	const struct idle_ent key = { .pid = pid }, *e = NULL;
	struct idle_ent *n = &c->idle_next[c->nr_idle_next++];
	char raw[NL_COMM_BYTES + 1];
	int r;

	if (valid && c->nr_idle)
		e = bsearch(&key, c->idle, (size_t)c->nr_idle, sizeof(key), cmp_idle);
	if (e && now - e->at_ns < IDLE_STAT_MAX_NS) {
		*n = *e;
	} else {
		r = nl_proc_rss_comm(c->o.procfs_root, pid, res, raw, sizeof(raw));
		if (r) {
			c->nr_idle_next--;
			return r;
		}
		n->pid = pid;
		n->res = *res;
		/* a new entry's age starts between 0 and 4 s so the re-reads
		 * of a thousand processes spread over the seconds */
		n->at_ns = e ? now : now - (uint64_t)(pid % 5) * (IDLE_STAT_MAX_NS / 5);
		nl_comm_clean(n->comm, raw);
	}
	*res = n->res;
	memcpy(comm, n->comm, sizeof(n->comm));
	return 0;
}

/* Append to s->procs[0..n) every live process with resident memory that
 * BPF saw nothing of since attach (it neither ran nor allocated): zero
 * figures, its name and cgroup, so a view can show where an idle process's
 * memory lies. Returns the new count (n when /proc cannot be listed or
 * memory runs out: the snapshot then has the active processes only).
 * Names and sizes come from idle_stat(), cgroups from proc_cgroup(): a
 * thousand idle processes cost a /proc listing and a read per cgroup. */
static int add_idle_procs(struct nl_collector *c, struct nl_snapshot *s, int n)
{
	unsigned long long drops[NL_NR_DROPS];
	uint64_t now = now_ns(CLOCK_MONOTONIC);
	int got = 0, n0 = n, cap = c->nr_list_pids + 64;	/* + room for new ones */
	pid_t *pids = NULL, *seen;
	struct nl_proc *v;
	bool valid;

	/* a process BPF could not count (its map was full) may have run */
	nl_bpf_drops(c->b, drops);
	valid = drops[NL_DROP_TASK_MAP_FULL] == c->task_full_seen;
	c->task_full_seen = drops[NL_DROP_TASK_MAP_FULL];
	/* one listing of /proc, sized by the last one's count; again only
	 * when the processes outgrew it */
	for (int tries = 0; tries < 3; tries++) {
		pid_t *np = realloc(pids, (size_t)cap * sizeof(*pids));

		if (!np)
			break;
		pids = np;
		got = nl_list_pids(c->o.procfs_root, pids, cap);
		if (got <= cap)
			break;
		cap = got + 64;
	}
	seen = calloc((size_t)n + 1, sizeof(*seen));
	if (!pids || !seen || got <= 0)
		goto out;
	if (got > cap)
		got = cap;
	c->nr_list_pids = got;
	v = got > 0 ? realloc(s->procs, ((size_t)n + (size_t)got + 1) * sizeof(*v)) : NULL;
	if (!v)
		goto out;
	free(c->idle_res);
	c->idle_res = calloc((size_t)got, sizeof(*c->idle_res));
	free(c->idle_next);
	c->idle_next = calloc((size_t)got + 1, sizeof(*c->idle_next));
	c->nr_idle_next = 0;
	s->procs = v;
	if (!c->idle_next)
		valid = false;
	for (int i = 0; i < n; i++)
		seen[i] = v[i].pid;
	qsort(seen, (size_t)n, sizeof(*seen), cmp_pid);
	for (int i = 0; i < got; i++) {
		struct nl_proc *p = &v[n];
		char comm[NL_NAME_MAX];
		uint64_t res = 0;

		if (bsearch(&pids[i], seen, (size_t)n0, sizeof(*seen), cmp_pid))
			continue;	/* listed already */
		if (c->idle_next ? idle_stat(c, pids[i], valid, now, &res, comm) :
		    nl_proc_rss_comm(c->o.procfs_root, pids[i], &res, comm, sizeof(comm)))
			continue;	/* gone */
		if (!res)
			continue;	/* a kernel thread */
		memset(p, 0, sizeof(*p));
		p->pid = pids[i];
		p->alive = true;
		if (proc_cgroup(c, p))
			continue;	/* gone meanwhile */
		if (c->idle_next)
			memcpy(p->comm, comm, sizeof(p->comm));
		else
			nl_comm_clean(p->comm, comm);
		if (c->idle_res)
			c->idle_res[c->nr_idle_res++] = (struct pid_pages){ p->pid, res };
		n++;
	}
	if (c->nr_idle_res)
		qsort(c->idle_res, (size_t)c->nr_idle_res, sizeof(*c->idle_res), cmp_pid);
	if (c->idle_next) {
		struct idle_ent *t = c->idle;

		qsort(c->idle_next, (size_t)c->nr_idle_next, sizeof(*c->idle_next), cmp_idle);
		c->idle = c->idle_next;
		c->nr_idle = c->nr_idle_next;
		c->idle_next = t;
	}
out:
	free(pids);
	free(seen);
	return n;
}

struct rss_rank { uint64_t pages; int i; };

static int cmp_rank_desc(const void *a, const void *b)
{
	const struct rss_rank *x = a, *y = b;

	return x->pages < y->pages ? 1 : x->pages > y->pages ? -1 : x->i - y->i;
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
static int mem_nodes(const struct nl_collector *c)
{
	int n = 0;

	for (int i = 0; i < c->topo.nr_nodes; i++)
		n += c->topo.node[c->topo.nids[i]].mem_total_bytes > 0;
	return n;
}

/* With one memory node: @p's figure for it is @e's reading moved by the
 * change of the resident size since (statm, @statm pages now). */
static void one_node_follow(const struct nl_collector *c, struct nl_proc *p,
			    const struct rss_ent *e, uint64_t statm)
{
	for (int i = 0; i < c->topo.nr_nodes; i++) {
		int nid = c->topo.nids[i];

		if (!c->topo.node[nid].mem_total_bytes)
			continue;
		if (statm >= e->statm)
			p->rss_pages_by_node[nid] = e->pages[nid] + (statm - e->statm);
		else
			p->rss_pages_by_node[nid] = e->pages[nid] > e->statm - statm ?
						    e->pages[nid] - (e->statm - statm) : 0;
	}
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
static void rss_read(struct nl_collector *c, struct nl_proc *p)
{
	uint64_t statm = 0, now = now_ns(CLOCK_MONOTONIC);
	struct rss_ent *e = NULL;
	bool have_statm = !nl_statm_resident(c->o.procfs_root, p->pid, &statm);
	bool one_node = mem_nodes(c) == 1;

	for (int i = 0; i < c->nr_rss && !e; i++)
		if (c->rss[i].pid == p->pid)
			e = &c->rss[i];
	if (e && have_statm && !p->f.mig.pages_ok && !p->f.mig.pages_fail) {
		uint64_t allocated = e->allocated + p->f.alloc.pages_local + p->f.alloc.pages_remote;
		uint64_t grown = statm > e->statm ? statm - e->statm : e->statm - statm;
		bool ran = e->ran || p->f.run_ns;
		uint64_t max_age = one_node && !ran ? RSS_REUSE_IDLE_MAX_NS : RSS_REUSE_MAX_NS;

		if (now - e->at_ns < max_age &&
		    (one_node || allocated + grown <= e->pages_sum >> RSS_REUSE_DRIFT_SHIFT)) {
			memcpy(p->rss_pages_by_node, e->pages, sizeof(e->pages));
			if (one_node)
				one_node_follow(c, p, e, statm);
			p->mempolicy = e->pol;
			p->rss_known = true;
			e->gen = c->rss_gen;
			e->allocated = allocated;
			e->ran = ran;
			c->rss_reused++;
			return;
		}
	}
	p->rss_known = nl_numa_maps_read_policy(c->o.procfs_root, p->pid, p->rss_pages_by_node,
					       &p->mempolicy) == 0;
	c->rss_reads++;
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
	*e = (struct rss_ent){ .pid = p->pid, .statm = statm, .at_ns = now, .gen = c->rss_gen,
			       .pol = p->mempolicy };
	memcpy(e->pages, p->rss_pages_by_node, sizeof(e->pages));
	for (int n = 0; n < NL_MAX_NODES; n++)
		e->pages_sum += e->pages[n];
}

/* Forget the readings no process of this snapshot used (exited, or no
 * longer among those read): a reused pid starts afresh. */
static void rss_evict(struct nl_collector *c)
{
	int k = 0;

	for (int i = 0; i < c->nr_rss; i++)
		if (c->rss[i].gen == c->rss_gen)
			c->rss[k++] = c->rss[i];
	c->nr_rss = k;
}

/* numa_maps (RSS per node) for the rss_max_procs busiest live processes
 * (s->procs is in CPU order) and, with all_procs, for as many of the
 * largest by resident size (statm, cheap): `-s rss` must find the big idle
 * process, not only the busy one. */
static void read_rss(struct nl_collector *c, struct nl_snapshot *s)
{
	struct rss_rank *r = c->o.all_procs && c->o.rss_max_procs > 0 ?
		calloc((size_t)s->nr_procs + 1, sizeof(*r)) : NULL;
	int nr = 0;

	for (int i = 0, reads = 0; i < s->nr_procs && reads < c->o.rss_max_procs; i++) {
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
	for (int k = 0; k < nr && k < c->o.rss_max_procs; k++)
		rss_read(c, &s->procs[r[k].i]);
	free(r);
}

/* The processes a view looks at now (its detail window, its name filter,
 * -p): read whatever their rank, so they never show "-" for RSS. At most
 * rss_max_procs more reads, so a filter matching everything costs what the
 * busiest rows do. */
static void read_focus_rss(struct nl_collector *c, struct nl_snapshot *s)
{
	/* with no ranked reads (< 0) the focused processes still get theirs */
	int lim = c->o.rss_max_procs > 0 ? c->o.rss_max_procs : 64;

	for (int i = 0, reads = 0; i < s->nr_procs && reads < lim; i++) {
		struct nl_proc *p = &s->procs[i];

		if (!p->alive || p->rss_known)
			continue;
		if (p->pid != c->focus_pid && p->pid != c->o.watch_pid &&
		    !(c->focus_comm[0] && strstr(p->comm, c->focus_comm)))
			continue;
		reads++;
		rss_read(c, p);
	}
}

int nl_collect_fill_procs(struct nl_collector *c, struct nl_snapshot *s, uint64_t interval)
{
	uint64_t *dead = NULL;
	int nr_dead = 0, n = 0;

	c->nr_cgid = c->next_cgid = 0;	/* cgroups may have come and gone */
	c->nr_idle_res = 0;
	/* every process to place: the last snapshot's count */
	if (!c->baseline)
		cgroup_scan(c, c->nr_comms > c->tgids.n ? c->nr_comms : c->tgids.n);
	/* + 1: room for the watched pid when BPF has nothing of it */
	s->procs = calloc((size_t)c->tgids.n + 2, sizeof(*s->procs));
	dead = calloc((size_t)c->tgids.n + 1, sizeof(*dead));
	if (!s->procs || !dead) {
		free(dead);
		return -ENOMEM;
	}
	for (int i = 0; i < c->tgids.n; i++) {
		const struct nl_id_counts *ic = &c->tgids.v[i];
		const struct nl_counts *prev = nl_counts_find(&c->prev_tgids, ic->id);
		struct nl_proc *p = &s->procs[n];
		pid_t pid = (pid_t)ic->id;

		if (ic->id == NL_TGID_OTHER_NS) {	/* invisible from our pid namespace */
			nl_figs_compute(&s->other_pidns, &ic->c, prev, interval, s->src.numa_balancing);
			continue;
		}
		if (pid <= 0)
			continue;
		p->pid = pid;
		p->alive = nl_pid_alive(c->o.procfs_root, pid);
		/* dead since the read: count its tail before its entries go */
		if (!p->alive)
			nl_maps_reread_id(c->b, NL_KIND_TGID, ic->id, &c->tgids.v[i].c);
		nl_figs_compute(&p->f, &ic->c, prev, interval, s->src.numa_balancing);
		if (!p->alive) {
			dead[nr_dead++] = ic->id;
			/* its map entries go (nl_maps_forget below): a process
			 * that gets the pid next starts from zero, so must its
			 * previous reading, or its counts are taken off as the
			 * dead one's (pids wrap: pid_max is 32768 by default) */
			memset(&c->tgids.v[i].c, 0, sizeof(c->tgids.v[i].c));
			/* a process that exited unseen in an earlier interval has
			 * nothing new to show */
			if (!p->f.run_ns && !p->f.alloc.events_local && !p->f.alloc.events_remote &&
			    prev)
				continue;
		}
		if (proc_identity(c, p))
			exited_proc(c, p);
		n++;
	}
	if (c->o.watch_pid > 0 && nl_pid_alive(c->o.procfs_root, c->o.watch_pid)) {
		bool seen = false;

		for (int i = 0; i < n && !seen; i++)
			seen = s->procs[i].pid == c->o.watch_pid;
		if (!seen)
			n += watched_idle(c, &s->procs[n]);
	}
	if (c->o.all_procs && !c->baseline)
		n = add_idle_procs(c, s, n);
	s->nr_procs = n;
	qsort(s->procs, (size_t)n, sizeof(*s->procs), cmp_run_desc);
	c->rss_gen++;
	c->rss_reads = c->rss_reused = 0;
	if (!c->baseline) {
		read_rss(c, s);
		read_focus_rss(c, s);
		rss_evict(c);
	}
	if (nr_dead) {
		nl_maps_forget(c->b, NL_KIND_TGID, dead, nr_dead);
		c->procs_evicted += (uint64_t)nr_dead;
	}
	keep_comms(c, s);
	free(dead);
	return 0;
}
