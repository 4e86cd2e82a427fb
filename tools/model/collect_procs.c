// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The process rows of a snapshot; see collect_procs.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroup.h"
#include "collect_procs.h"
#include "collect_rss.h"
#include "counts.h"
#include "exit_names.h"
#include "figs.h"
#include "names.h"
#include "procfs.h"

/* A pid's name and cgroup in the previous snapshot. */
struct comm_ent { pid_t pid; char comm[NL_NAME_MAX]; char cgroup[256]; uint64_t cgroup_id; };
/* A pid and the entry of the cgroup tree whose cgroup.procs listed it. */
struct cg_of { pid_t pid; int ent; };
/* An idle process's name and resident size as last read from <pid>/stat. */
struct idle_ent { pid_t pid; uint64_t res; uint64_t at_ns; char comm[NL_NAME_MAX]; };

/*
 * The process part. Counts are as BPF counts them; times CLOCK_MONOTONIC
 * ns. Everything here lives between snapshots, except the "this fill"
 * members, borrowed from nl_collect_procs_fill()'s caller for its call.
 */
struct nl_collect_procs {
	struct nl_collect_opts o;
	struct nl_counts_table prev_tgids;	/* the previous interval's counters */
	uint64_t procs_evicted;
	/* this fill's inputs */
	struct nl_raw_counts *raw;
	const struct nl_raw_counts_ops *ops;
	const struct nl_topo *topo;
	const struct nl_cgroup_map *cgmap;
	bool baseline;
	/* pid -> name and cgroup of the previous interval, sorted by pid: the
	 * name of a process that exited before we could read /proc/PID/comm */
	struct comm_ent *comms;
	int nr_comms;
	/* where our cgroup namespace's root is in the mounted hierarchy ("" if
	 * at its top): /proc/<pid>/cgroup paths are relative to it */
	char cg_ns_prefix[4096];
	/* cgroup.procs lists pids of our pid namespace: false when that is
	 * not the one the mounted procfs shows (/proc/self is not getpid()) */
	bool cg_scan_ok;
	/* pid -> entry of the last cgroup tree whose cgroup.procs listed it,
	 * sorted by pid (cgroup_scan); ent -1: listed by more than one */
	struct cg_of *cgof;
	int nr_cgof, cap_cgof;
	pid_t *scan_pids;
	int cap_scan_pids;
	/* this snapshot's last cgroup paths and their ids (cgroup_id_memo) */
	struct { char rel[512]; uint64_t id; } cgid[8];
	int nr_cgid, next_cgid;
	/* resident pages of the idle processes add_idle_procs() listed this
	 * snapshot, by pid: the RSS part ranks by them without reading statm
	 * again */
	struct nl_pid_pages *idle_res;
	int nr_idle_res;
	/* name and resident size of each idle process as last read from
	 * <pid>/stat, sorted by pid: a process that has not run since cannot
	 * have renamed itself (add_idle_procs) */
	struct idle_ent *idle, *idle_next;
	int nr_idle, nr_idle_next;
	int nr_list_pids;			/* processes /proc listed last time */
	unsigned long long task_full_seen;	/* task_map_full drops at the last snapshot */
	struct nl_collect_rss *rss;		/* RSS per node: the numa_maps readings */
	uint64_t now_ns;			/* this fill's time */
	/* what a view looks at now (this fill's, borrowed) */
	int focus_pid;
	const char *focus_comm;
};

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
static void keep_comms(struct nl_collect_procs *c, const struct nl_snapshot *s)
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
static void exited_proc(const struct nl_collect_procs *c, struct nl_proc *p)
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
	if (c->raw->exits && !nl_exit_names_lookup(c->raw->exits, (uint32_t)p->pid, raw, sizeof(raw)))
		nl_name_comm_clean(p->comm, raw);
	else if (!e)
		snprintf(p->comm, sizeof(p->comm), "<exited>");
}

/* The id of the cgroup at hierarchy path @rel (0 when it cannot be
 * stat()ed). Processes share few cgroups (a thousand idle ones are often
 * in one), so the ids of the last few paths are kept for the snapshot
 * being built (nl_collect_procs_fill empties them) instead of a stat() per process. */
static uint64_t cgroup_id_memo(struct nl_collect_procs *c, const char *rel)
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
static void proc_set_cgroup(struct nl_collect_procs *c, struct nl_proc *p, const char *rel)
{
	uint64_t id = c->cgmap->n ? cgroup_id_memo(c, rel) : 0;

	p->cgroup_id = id;
	/* a path longer than cgroup_path[] gets a label like the cgroup's */
	nl_name_path_label(p->cgroup_path, sizeof(p->cgroup_path), rel, id);
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
static void cgroup_scan(struct nl_collect_procs *c, int want)
{
	c->nr_cgof = 0;
	if (!c->cgmap->n || c->cgmap->truncated || c->cgmap->n * 2 > want || !c->cg_scan_ok)
		return;
	for (int i = 0; i < c->cgmap->n; i++) {
		const struct nl_cgroup_ent *ent = &c->cgmap->ents[i];
		char path[4700];
		uint64_t id;
		int np = 0, r;

		snprintf(path, sizeof(path), "%s%s/cgroup.procs", c->o.cgroup_root,
			 strcmp(ent->path, "/") ? ent->path : "");
		r = nl_proc_read_pid_list(path, &c->scan_pids, &np, &c->cap_scan_pids);
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

/* The entry of the cgroup tree whose cgroup.procs listed @pid
 * (cgroup_scan), NULL when the lists do not place it. */
static const struct nl_cgroup_ent *listed_cgroup(const struct nl_collect_procs *c, pid_t pid)
{
	const struct cg_of key = { .pid = pid }, *e = NULL;

	if (c->nr_cgof)
		e = bsearch(&key, c->cgof, (size_t)c->nr_cgof, sizeof(key), cmp_cg_of);
	return e && e->ent >= 0 ? &c->cgmap->ents[e->ent] : NULL;
}

/* @p's cgroup: the tree entry @ent when the lists placed it, else the
 * path /proc/<pid>/cgroup gave (@rel, ours in a cgroup namespace: made
 * the host's path here). */
static void proc_place(struct nl_collect_procs *c, struct nl_proc *p,
		       const struct nl_cgroup_ent *ent, char rel[4096])
{
	if (ent) {
		p->cgroup_id = ent->id;
		nl_name_path_label(p->cgroup_path, sizeof(p->cgroup_path), ent->path, ent->id);
		return;
	}
	if (c->cg_ns_prefix[0]) {
		char host[4096];

		if (!nl_mount_ns_join(c->cg_ns_prefix, rel, host, sizeof(host)))
			memcpy(rel, host, 4096);
	}
	proc_set_cgroup(c, p, rel);
}

/* @p's cgroup (pid set): from cgroup_scan()'s lists when they place it,
 * else from /proc/<pid>/cgroup. Returns 0, or -ESRCH when the process is
 * gone. */
static int proc_cgroup(struct nl_collect_procs *c, struct nl_proc *p)
{
	const struct nl_cgroup_ent *ent = listed_cgroup(c, p->pid);
	struct nl_proc_ident id;

	id.cgroup[0] = '\0';
	if (!ent && nl_proc_ident_read(c->o.procfs_root, p->pid, c->o.cgroup_mode, NL_IDENT_CGROUP, &id))
		return -ESRCH;
	proc_place(c, p, ent, id.cgroup);
	return 0;
}

/* Name @p (pid set) from procfs in one read of its identity: comm, cgroup
 * path (unless the cgroup.procs lists place it) and, with a cgroup view,
 * its cgroup id. Returns 0, or -ESRCH when the process is gone (@p is
 * then left as it was). */
static int proc_identity(struct nl_collect_procs *c, struct nl_proc *p)
{
	const struct nl_cgroup_ent *ent = listed_cgroup(c, p->pid);
	unsigned want = ent ? NL_IDENT_COMM : NL_IDENT_COMM | NL_IDENT_CGROUP;
	struct nl_proc_ident id;

	id.cgroup[0] = '\0';
	if (nl_proc_ident_read(c->o.procfs_root, p->pid, c->o.cgroup_mode, want, &id))
		return -ESRCH;
	memcpy(p->comm, id.comm, sizeof(p->comm));
	proc_place(c, p, ent, id.cgroup);
	return 0;
}

/* The watched pid that BPF saw nothing of (it neither ran nor allocated
 * since attach): an entry with zero figures, its name and cgroup, so that
 * `top -p` shows the process and its resident memory. Returns 1 if @p was
 * filled, 0 if the process went meanwhile. */
static int watched_idle(struct nl_collect_procs *c, struct nl_proc *p)
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
static int idle_stat(struct nl_collect_procs *c, pid_t pid, bool valid, uint64_t now, uint64_t *res,
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
		nl_name_comm_clean(n->comm, raw);
	}
	*res = n->res;
	memcpy(comm, n->comm, sizeof(n->comm));
	return 0;
}

/* The pids /proc lists into *@out (malloc'd, sized by the last listing's
 * count and again only when the processes outgrew it). Returns how many
 * (0 or -errno when /proc cannot be listed or memory runs out). */
static int list_pids(struct nl_collect_procs *c, pid_t **out)
{
	int got = 0, want = c->nr_list_pids + 64, cap = 0;	/* + room for new ones */
	pid_t *pids = NULL;

	for (int tries = 0; tries < 3; tries++) {
		pid_t *np = realloc(pids, (size_t)want * sizeof(*pids));

		if (!np)
			break;
		pids = np;
		cap = want;
		got = nl_proc_list_pids(c->o.procfs_root, pids, cap);
		if (got <= cap)
			break;
		want = got + 64;
	}
	*out = pids;
	return got > cap ? cap : got;
}

/* One idle process @pid into @p: its name and size (idle_stat), cgroup
 * (proc_cgroup) and zero figures. False when it is gone or is a kernel
 * thread (no resident memory). */
static bool idle_proc(struct nl_collect_procs *c, pid_t pid, bool valid, uint64_t now, struct nl_proc *p)
{
	char comm[NL_NAME_MAX];
	uint64_t res = 0;

	if (c->idle_next ? idle_stat(c, pid, valid, now, &res, comm) :
	    nl_proc_rss_comm(c->o.procfs_root, pid, &res, comm, sizeof(comm)))
		return false;	/* gone */
	if (!res)
		return false;	/* a kernel thread */
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->alive = true;
	if (proc_cgroup(c, p))
		return false;	/* gone meanwhile */
	if (c->idle_next)
		memcpy(p->comm, comm, sizeof(p->comm));
	else
		nl_name_comm_clean(p->comm, comm);
	if (c->idle_res)
		c->idle_res[c->nr_idle_res++] = (struct nl_pid_pages){ p->pid, res };
	return true;
}

/* After the listing: the sizes by pid for the RSS part, and this snapshot's
 * idle entries become the ones the next looks up. */
static void idle_done(struct nl_collect_procs *c)
{
	if (c->nr_idle_res)
		qsort(c->idle_res, (size_t)c->nr_idle_res, sizeof(*c->idle_res), cmp_pid);
	if (c->idle_next) {
		struct idle_ent *t = c->idle;

		qsort(c->idle_next, (size_t)c->nr_idle_next, sizeof(*c->idle_next), cmp_idle);
		c->idle = c->idle_next;
		c->nr_idle = c->nr_idle_next;
		c->idle_next = t;
	}
}

/* Append to s->procs[0..n) every live process with resident memory that
 * BPF saw nothing of since attach (it neither ran nor allocated): zero
 * figures, its name and cgroup, so a view can show where an idle process's
 * memory lies. Returns the new count (n when /proc cannot be listed or
 * memory runs out: the snapshot then has the active processes only).
 * Names and sizes come from idle_stat(), cgroups from proc_cgroup(): a
 * thousand idle processes cost a /proc listing and a read per cgroup. */
static int add_idle_procs(struct nl_collect_procs *c, struct nl_snapshot *s, int n)
{
	unsigned long long full = c->raw->drops[NL_DROP_TASK_MAP_FULL];
	uint64_t now = c->now_ns;
	int got, n0 = n;
	pid_t *pids = NULL, *seen = calloc((size_t)n + 1, sizeof(*seen));
	struct nl_proc *v;
	/* a process BPF could not count (its map was full) may have run */
	bool valid = full == c->task_full_seen;

	c->task_full_seen = full;
	got = list_pids(c, &pids);
	if (!pids || !seen || got <= 0)
		goto out;
	c->nr_list_pids = got;
	v = realloc(s->procs, ((size_t)n + (size_t)got + 1) * sizeof(*v));
	if (!v)
		goto out;
	s->procs = v;
	free(c->idle_res);
	c->idle_res = calloc((size_t)got, sizeof(*c->idle_res));
	free(c->idle_next);
	c->idle_next = calloc((size_t)got + 1, sizeof(*c->idle_next));
	c->nr_idle_next = 0;
	if (!c->idle_next)
		valid = false;
	for (int i = 0; i < n; i++)
		seen[i] = v[i].pid;
	qsort(seen, (size_t)n, sizeof(*seen), cmp_pid);
	for (int i = 0; i < got; i++) {
		if (bsearch(&pids[i], seen, (size_t)n0, sizeof(*seen), cmp_pid))
			continue;	/* listed already */
		n += idle_proc(c, pids[i], valid, now, &v[n]);
	}
	idle_done(c);
out:
	free(pids);
	free(seen);
	return n;
}

/* A row per process BPF counted this interval, from s->procs[0] on, over
 * s->interval_ns; the figures of processes outside our pid namespace go to
 * s->other_pidns. The ids of processes that exited go to @dead (*@nr_dead
 * of them). Returns the number of rows. */
static int fill_active(struct nl_collect_procs *c, struct nl_snapshot *s, uint64_t *dead, int *nr_dead)
{
	struct nl_counts_table *tgids = &c->raw->tgids;
	int n = 0;

	for (int i = 0; i < tgids->n; i++) {
		struct nl_id_counts *ic = &tgids->v[i];
		const struct nl_counts *prev = nl_counts_find(&c->prev_tgids, ic->id);
		struct nl_proc *p = &s->procs[n];
		pid_t pid = (pid_t)ic->id;

		if (ic->id == NL_TGID_OTHER_NS) {	/* invisible from our pid namespace */
			nl_figs_compute(&s->other_pidns, &ic->c, prev, s->interval_ns, s->src.numa_balancing);
			continue;
		}
		if (pid <= 0)
			continue;
		p->pid = pid;
		p->alive = nl_proc_pid_alive(c->o.procfs_root, pid);
		/* dead since the read: count its tail before its entries go */
		if (!p->alive && c->ops && c->ops->reread_tgid)
			c->ops->reread_tgid(c->ops->ctx, ic->id, &ic->c);
		nl_figs_compute(&p->f, &ic->c, prev, s->interval_ns, s->src.numa_balancing);
		if (!p->alive) {
			dead[(*nr_dead)++] = ic->id;
			/* its map entries go (forgotten below): a process that
			 * gets the pid next starts from zero, so must its
			 * previous reading, or its counts are taken off as the
			 * dead one's (pids wrap: pid_max is 32768 by default) */
			memset(&ic->c, 0, sizeof(ic->c));
			/* a process that exited unseen in an earlier interval has
			 * nothing new to show */
			if (!p->f.run_ns && !p->f.alloc.events_local && !p->f.alloc.events_remote && prev)
				continue;
		}
		if (proc_identity(c, p))
			exited_proc(c, p);
		n++;
	}
	return n;
}

/* The watched pid, when alive and not among the @n rows: a row with zero
 * figures (watched_idle) at s->procs[n]. Returns the rows added (0 or 1). */
static int add_watched(struct nl_collect_procs *c, struct nl_snapshot *s, int n)
{
	if (c->o.watch_pid <= 0 || !nl_proc_pid_alive(c->o.procfs_root, c->o.watch_pid))
		return 0;
	for (int i = 0; i < n; i++)
		if (s->procs[i].pid == c->o.watch_pid)
			return 0;
	return watched_idle(c, &s->procs[n]);
}

/* RSS per node of the processes the RSS part picks (collect_rss.h). */
static void read_rss(struct nl_collect_procs *c, struct nl_snapshot *s)
{
	struct nl_collect_rss_in in = {
		.procfs_root = c->o.procfs_root, .max_procs = c->o.rss_max_procs,
		.by_size = c->o.all_procs, .topo = c->topo, .watch_pid = c->o.watch_pid,
		.focus_pid = c->focus_pid, .focus_comm = c->focus_comm,
		.known = c->idle_res, .nr_known = c->nr_idle_res, .now_ns = c->now_ns,
	};

	nl_collect_rss_read(c->rss, &in, s);
}

/* This interval's counters become the previous ones; the next read clears
 * the table handed back. */
static void keep_counts(struct nl_collect_procs *c)
{
	struct nl_counts_table t = c->prev_tgids;

	c->prev_tgids = c->raw->tgids;
	c->raw->tgids = t;
}

int nl_collect_procs_fill(struct nl_collect_procs *c, const struct nl_collect_procs_in *in,
			  struct nl_snapshot *s)
{
	static const struct nl_cgroup_map no_tree;
	int nr_tgids = in->raw->tgids.n, nr_dead = 0, n;
	uint64_t *dead;

	c->raw = in->raw;
	c->ops = in->ops;
	c->topo = in->topo;
	c->cgmap = in->cgmap ? in->cgmap : &no_tree;
	c->baseline = in->baseline;
	c->now_ns = in->now_ns;
	c->focus_pid = in->focus_pid;
	c->focus_comm = in->focus_comm ? in->focus_comm : "";
	c->nr_cgid = c->next_cgid = 0;	/* cgroups may have come and gone */
	c->nr_idle_res = 0;
	/* every process to place: the last snapshot's count */
	if (!c->baseline)
		cgroup_scan(c, c->nr_comms > nr_tgids ? c->nr_comms : nr_tgids);
	/* + 1: room for the watched pid when BPF has nothing of it */
	s->procs = calloc((size_t)nr_tgids + 2, sizeof(*s->procs));
	dead = calloc((size_t)nr_tgids + 1, sizeof(*dead));
	if (!s->procs || !dead) {
		free(dead);
		keep_counts(c);
		return -ENOMEM;
	}
	n = fill_active(c, s, dead, &nr_dead);
	n += add_watched(c, s, n);
	if (c->o.all_procs && !c->baseline)
		n = add_idle_procs(c, s, n);
	s->nr_procs = n;
	qsort(s->procs, (size_t)n, sizeof(*s->procs), cmp_run_desc);
	if (!c->baseline)
		read_rss(c, s);
	else
		nl_collect_rss_skip(c->rss);
	if (nr_dead) {
		if (c->ops && c->ops->forget)
			c->ops->forget(c->ops->ctx, NL_KIND_TGID, dead, nr_dead);
		c->procs_evicted += (uint64_t)nr_dead;
	}
	keep_comms(c, s);
	keep_counts(c);
	free(dead);
	return 0;
}

/* In a container (a cgroup namespace, maybe a pid namespace of its own)
 * the host's hierarchy and procfs, mounted in, name cgroups and pids from
 * the host's side while /proc/<pid>/cgroup and cgroup.procs answer from
 * ours: learn the offsets once, so every process is labelled with the
 * host's path, as outside. */
static void cgroup_namespace(struct nl_collect_procs *c)
{
	char self[64], link[64];
	ssize_t l;
	int e;

	snprintf(self, sizeof(self), "%s/self", c->o.procfs_root);
	l = readlink(self, link, sizeof(link) - 1);
	link[l > 0 ? l : 0] = '\0';
	c->cg_scan_ok = l > 0 && atoi(link) == (int)getpid();
	c->cg_ns_prefix[0] = '\0';
	if (!c->o.cgroup_root || !c->o.cgroup_root[0])
		return;
	e = nl_cgroup_ns_prefix(c->o.procfs_root, c->o.cgroup_root, c->o.cgroup_mode, c->cg_ns_prefix,
				sizeof(c->cg_ns_prefix));
	if (e)
		c->cg_ns_prefix[0] = '\0';	/* paths taken as they read */
}

struct nl_collect_procs *nl_collect_procs_new(const struct nl_collect_opts *o)
{
	struct nl_collect_procs *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->o = *o;
	c->rss = nl_collect_rss_new();
	if (!c->rss) {
		free(c);
		return NULL;
	}
	cgroup_namespace(c);
	return c;
}

void nl_collect_procs_stats(const struct nl_collect_procs *c, struct nl_collect_procs_stats *out)
{
	out->evicted = c->procs_evicted;
	nl_collect_rss_counts(c->rss, &out->rss_reads, &out->rss_reused);
}

void nl_collect_procs_free(struct nl_collect_procs *c)
{
	if (!c)
		return;
	nl_counts_free(&c->prev_tgids);
	nl_collect_rss_free(c->rss);
	free(c->idle_res);
	free(c->idle);
	free(c->idle_next);
	free(c->cgof);
	free(c->scan_pids);
	free(c->comms);
	free(c);
}
