// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One snapshot per interval; see collect.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "cgroup.h"
#include "collect.h"
#include "counts.h"
#include "figs.h"
#include "maps.h"
#include "names.h"
#include "procfs.h"
#include "reclaim_read.h"
#include "topology.h"
#include "alloc_latency.h"
#include "alloc_attrib.h"
#include "page_lifetime.h"
#include "vmscan_figs.h"
#include "vmscan_read.h"

#define MAX_CPUS 4096

struct nl_collector {
	struct nl_bpf *b;
	struct nl_collect_opts o;
	struct nl_topo topo;
	uint64_t last_ns;		/* CLOCK_MONOTONIC of the previous snapshot */
	uint64_t seq;
	/* this and the previous interval's raw counters */
	struct nl_counts_table tgids, prev_tgids;
	struct nl_counts_table cgroups;		/* own, as read */
	struct nl_counts_table cg_tot, prev_cg_tot;	/* hierarchical */
	struct nl_node_counts nodes[NL_MAX_NODES], prev_nodes[NL_MAX_NODES];
	struct nl_numastat numastat_prev[NL_MAX_NODES];
	int nr_zones;
	char zone_names[NL_NR_ZONES][NL_ZONE_NAME_MAX];
	uint64_t pgalloc_prev[NL_NR_ZONES];
	struct nl_cpu_times *cpu_prev, *cpu_cur;
	int nr_cpu_slots;
	struct nl_cgroup_map cgmap;
	struct nl_cgroup_fold fold;
	uint64_t procs_evicted, cgroups_evicted;
	uint64_t rss_reads, rss_reused;		/* this snapshot's numa_maps reads / reuses */
	/* pid -> comm of the previous interval, sorted by pid: the name of a
	 * process that exited before we could read /proc/PID/comm */
	struct comm_ent { pid_t pid; char comm[NL_NAME_MAX]; char cgroup[256]; uint64_t cgroup_id; } *comms;
	int nr_comms;
	/* removed cgroups still shown: id and intervals left */
	struct { uint64_t id, parent; int left; char *path; int depth; } *gone;	/* path: full, owned */
	int nr_gone, cap_gone;
	/* reclaim (vmscan): own fold, NULL without the vmscan program */
	struct nl_vs_state *vs;
	struct nl_vs_raw vs_raw;
	/* reclaim agents' published state -> nl_cgroup.agent */
	struct nl_ra_reader *ra_rd;
	/* allocation latency, NULL unless asked for */
	struct nl_alloc_latency_state *lat;
	struct nl_alloc_attrib_state *attrib;
	struct nl_page_lifetime_state *life;
	/* the last numa_maps reading of each process read, reused while the
	 * process stays as it was (rss_reuse) */
	struct rss_ent *rss;
	int nr_rss, cap_rss;
	uint64_t rss_gen;
	/* what a view looks at now (nl_collector_focus): its numa_maps are
	 * read whatever its rank */
	int focus_pid;
	char focus_comm[NL_NAME_MAX];
	/* the followed process's cgroup in the last snapshot (nl_focus) */
	struct nl_focus focus_last;
	/* this snapshot's last cgroup paths and their ids (cgroup_id_memo) */
	struct { char rel[512]; uint64_t id; } cgid[8];
	int nr_cgid, next_cgid;
	/* resident pages of the idle processes add_idle_procs() listed this
	 * snapshot, by pid: read_rss() ranks by them without reading statm
	 * again */
	struct pid_pages { pid_t pid; uint64_t pages; } *idle_res;
	int nr_idle_res;
	/* pid -> entry of the last cgroup tree whose cgroup.procs listed it,
	 * sorted by pid (cgroup_scan); ent -1: listed by more than one */
	struct cg_of { pid_t pid; int ent; } *cgof;
	int nr_cgof, cap_cgof;
	pid_t *scan_pids;
	int cap_scan_pids;
	/* name and resident size of each idle process as last read from
	 * <pid>/stat, sorted by pid: a process that has not run since cannot
	 * have renamed itself (add_idle_procs) */
	struct idle_ent { pid_t pid; uint64_t res; uint64_t at_ns; char comm[NL_NAME_MAX]; } *idle, *idle_next;
	int nr_idle, nr_idle_next;
	int nr_list_pids;			/* processes /proc listed last time */
	unsigned long long task_full_seen;	/* task_map_full drops at the last snapshot */
	/* the baseline snapshot nl_collect_open() takes and throws away: it
	 * needs the BPF counts, names and the cgroup tree, not what only a
	 * view reads (idle processes, numa_maps, memory.numa_stat) */
	bool baseline;
};

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Keep the vmscan program's LRU mode in step with the kernel's (MGLRU can
 * be switched at run time). Returns true when MGLRU is on. */
static bool set_lru_mode(struct nl_collector *c)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/kernel/mm/lru_gen/enabled", c->o.sysfs_root);
	return nl_vs_set_lru_mode(c->b, path) != 0;
}

static void read_numastat(struct nl_collector *c, struct nl_numastat out[NL_MAX_NODES])
{
	memset(out, 0, sizeof(*out) * NL_MAX_NODES);
	for (int i = 0; i < c->topo.nr_nodes; i++) {
		int nid = c->topo.nids[i];

		nl_numastat_read(c->o.sysfs_root, nid, &out[nid]);
	}
}

/* Wait, at most ~50 ms, until /proc/stat has counted a tick on every node
 * with CPUs since c->cpu_prev was read, so the first snapshot, which
 * export takes right after open, has each node's busy ratio: the counts
 * are in USER_HZ ticks (10 ms at 100 Hz). */
static void wait_cpu_tick(struct nl_collector *c)
{
	double busy[NL_MAX_NODES];
	int want = 0;

	for (int i = 0; i < c->topo.nr_nodes; i++)
		want += c->topo.node[c->topo.nids[i]].nr_cpus > 0;
	for (int i = 0; i < 25; i++) {
		if (nl_cpu_times_read(c->o.procfs_root, c->cpu_cur, c->nr_cpu_slots) < 0 ||
		    nl_node_busy_pct(&c->topo, c->cpu_prev, c->cpu_cur, c->nr_cpu_slots, busy) >= want)
			return;
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
}

int nl_collect_open(struct nl_collector **out, struct nl_bpf *b, const struct nl_collect_opts *o,
		    char *err, size_t errlen)
{
	struct nl_collector *c = calloc(1, sizeof(*c));
	struct nl_pfn_range ranges[NL_MAX_PFN_RANGES];
	char zoneinfo[512];
	int e, n;

	if (!c)
		return -ENOMEM;
	c->b = b;
	c->o = *o;
	/* before the first interval, so its slices are binned only if balancing runs */
	nl_bpf_set_numa_balancing(b, nl_sysctl_read_int(c->o.procfs_root, "kernel/numa_balancing") > 0);
	if (!c->o.rss_max_procs)
		c->o.rss_max_procs = 64;
	if (!c->o.cgroup_grace)
		c->o.cgroup_grace = 1;
	e = nl_topo_load(&c->topo, o->sysfs_root);
	if (e) {
		snprintf(err, errlen, "cannot read the NUMA topology under %s: %s", o->sysfs_root,
			 c->topo.err[0] ? c->topo.err : strerror(-e));
		free(c);
		return e;
	}
	snprintf(zoneinfo, sizeof(zoneinfo), "%s/zoneinfo", o->procfs_root);
	n = nl_pfn_ranges_build(ranges, NL_MAX_PFN_RANGES, o->sysfs_root, zoneinfo);
	if (n < 0) {
		snprintf(err, errlen, "cannot build the pfn -> node table from %s/devices/system/memory: %s",
			 o->sysfs_root, strerror(-n));
		nl_collect_close(c);
		return n;
	}
	e = nl_bpf_set_pfn_table(b, ranges, n);
	if (e) {
		snprintf(err, errlen, "cannot load the pfn table into BPF: %s", strerror(-e));
		nl_collect_close(c);
		return e;
	}
	n = nl_zone_names(zoneinfo, c->zone_names, NL_NR_ZONES);
	c->nr_zones = n > 0 ? n : 0;
	nl_vmstat_pgalloc(o->procfs_root, c->zone_names, c->nr_zones, c->pgalloc_prev);
	e = nl_cgroup_fold_init(&c->fold, (int)NL_COUNTS_WIDTH);
	if (!e && !(c->ra_rd = nl_ra_reader_new()))
		e = -ENOMEM;
	if (!e && b->vmscan) {
		e = nl_vs_state_new(&c->vs);
		set_lru_mode(c);
	}
	if (!e && o->alloc_latency_sample && !(c->lat = nl_alloc_latency_start(o->alloc_latency_sample)))
		e = -ENOMEM;
	if (!e && o->alloc_stacks_sample && !(c->attrib = nl_alloc_attrib_start(o->alloc_stacks_sample)))
		e = -ENOMEM;
	if (!e && o->page_life_sample && !(c->life = nl_page_lifetime_start(o->page_life_sample)))
		e = -ENOMEM;
	if (e) {
		nl_collect_close(c);
		return e;
	}
	c->nr_cpu_slots = c->topo.nr_cpu_ids > 0 ? c->topo.nr_cpu_ids : 1;
	if (c->nr_cpu_slots > MAX_CPUS)
		c->nr_cpu_slots = MAX_CPUS;
	c->cpu_prev = calloc((size_t)c->nr_cpu_slots, sizeof(*c->cpu_prev));
	c->cpu_cur = calloc((size_t)c->nr_cpu_slots, sizeof(*c->cpu_cur));
	if (!c->cpu_prev || !c->cpu_cur) {
		nl_collect_close(c);
		return -ENOMEM;
	}
	nl_cpu_times_read(o->procfs_root, c->cpu_prev, c->nr_cpu_slots);
	read_numastat(c, c->numastat_prev);
	c->last_ns = now_ns(CLOCK_MONOTONIC);
	/* Baseline: the programs have been counting since attach, before
	 * this interval began; a throwaway snapshot makes the first real one
	 * a delta over its own interval only. */
	struct nl_snapshot base = {};

	c->baseline = true;
	e = nl_collect_snapshot(c, &base);
	c->baseline = false;
	nl_snapshot_free(&base);
	if (e) {
		snprintf(err, errlen, "cannot read the BPF maps: %s", strerror(-e));
		nl_collect_close(c);
		return e;
	}
	/* ... but the CPU busy ratio is not a BPF count: the first snapshot's
	 * spans from the reading above, the baseline's swapped back */
	struct nl_cpu_times *t = c->cpu_prev;

	c->cpu_prev = c->cpu_cur;
	c->cpu_cur = t;
	wait_cpu_tick(c);
	c->seq = 0;
	*out = c;
	return 0;
}

static struct nl_numastat numastat_delta(const struct nl_numastat *a, const struct nl_numastat *b)
{
#define D(f) .f = a->f >= b->f ? a->f - b->f : 0
	return (struct nl_numastat){ D(numa_hit), D(numa_miss), D(numa_foreign),
				     D(interleave_hit), D(local_node), D(other_node) };
#undef D
}

static uint64_t d64(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : 0;
}

/* Zone names and the kernel's pgalloc_<zone> deltas into @s. */
static void fill_zones(struct nl_collector *c, struct nl_snapshot *s)
{
	uint64_t cur[NL_NR_ZONES];

	s->nr_zones = c->nr_zones;
	memcpy(s->zone_names, c->zone_names, sizeof(s->zone_names));
	if (nl_vmstat_pgalloc(c->o.procfs_root, c->zone_names, c->nr_zones, cur))
		return;
	for (int z = 0; z < c->nr_zones; z++)
		s->pgalloc[z] = d64(cur[z], c->pgalloc_prev[z]);
	memcpy(s->pgalloc_total, cur, sizeof(cur));
	memcpy(c->pgalloc_prev, cur, sizeof(cur));
}

static int fill_nodes(struct nl_collector *c, struct nl_snapshot *s)
{
	struct nl_numastat cur[NL_MAX_NODES];
	double busy[NL_MAX_NODES];

	nl_topo_refresh_mem(&c->topo, c->o.sysfs_root);
	nl_topo_refresh_cpus(&c->topo, c->o.sysfs_root);	/* CPU hotplug */
	read_numastat(c, cur);
	nl_cpu_times_read(c->o.procfs_root, c->cpu_cur, c->nr_cpu_slots);
	nl_node_busy_pct(&c->topo, c->cpu_prev, c->cpu_cur, c->nr_cpu_slots, busy);
	s->nodes = calloc((size_t)c->topo.nr_nodes, sizeof(*s->nodes));
	if (!s->nodes)
		return -ENOMEM;
	s->nr_nodes = c->topo.nr_nodes;
	fill_zones(c, s);
	for (int i = 0; i < c->topo.nr_nodes; i++) {
		int nid = c->topo.nids[i];
		const struct nl_topo_node *tn = &c->topo.node[nid];
		struct nl_node *n = &s->nodes[i];
		const struct nl_node_counts *bc = &c->nodes[nid], *bp = &c->prev_nodes[nid];

		n->nid = nid;
		n->nr_cpus = tn->nr_cpus;
		snprintf(n->cpulist, sizeof(n->cpulist), "%s", tn->cpulist);
		n->cpu_busy_pct = busy[nid];	/* NaN without online CPUs: JSON null */
		n->mem_total_bytes = tn->mem_total_bytes;
		n->mem_free_bytes = tn->mem_free_bytes;
		n->mem_used_bytes = d64(tn->mem_total_bytes, tn->mem_free_bytes);
		n->numastat_total = cur[nid];
		n->numastat = numastat_delta(&cur[nid], &c->numastat_prev[nid]);
		n->bpf_events_local = d64(bc->events_local, bp->events_local);
		n->bpf_events_other = d64(bc->events_other, bp->events_other);
		n->bpf_events_from_remote = d64(bc->events_from_remote, bp->events_from_remote);
		n->bpf_pages = d64(bc->pages, bp->pages);
		n->bpf_events_hit = d64(bc->events_hit, bp->events_hit);
		n->bpf_events_miss = d64(bc->events_miss, bp->events_miss);
		n->bpf_events_foreign = d64(bc->events_foreign, bp->events_foreign);
		n->bpf_events_hit_total = bc->events_hit;
		n->bpf_events_miss_total = bc->events_miss;
		n->bpf_events_foreign_total = bc->events_foreign;
		for (int z = 0; z < NL_NR_ZONES; z++) {
			n->bpf_pages_by_zone[z] = d64(bc->pages_by_zone[z], bp->pages_by_zone[z]);
			n->bpf_pages_by_zone_total[z] = bc->pages_by_zone[z];
		}
		n->run_ns = d64(bc->run_ns, bp->run_ns);
		n->numastat_unattributed = d64(n->numastat.local_node + n->numastat.other_node,
					       n->bpf_events_local + n->bpf_events_other);
	}
	memcpy(c->numastat_prev, cur, sizeof(cur));
	struct nl_cpu_times *t = c->cpu_prev;

	c->cpu_prev = c->cpu_cur;
	c->cpu_cur = t;
	return 0;
}

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
	if (!c->cgmap.n || c->cgmap.truncated || c->cgmap.n * 2 > want)
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

void nl_collector_focus(struct nl_collector *c, int pid, const char *comm)
{
	if (!c)
		return;
	c->focus_pid = pid > 0 ? pid : 0;
	snprintf(c->focus_comm, sizeof(c->focus_comm), "%s", comm ? comm : "");
}

static int fill_procs(struct nl_collector *c, struct nl_snapshot *s, uint64_t interval)
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

/* Fill @g's label and, for a path longer than the label holds, its owned
 * full path (nl_cgroup_full_path). Returns 0 or -ENOMEM. */
static int set_cgroup_path(struct nl_cgroup *g, const char *path)
{
	g->long_path = NULL;
	if (!nl_path_label(g->path, sizeof(g->path), path, g->id))
		return 0;
	g->long_path = strdup(path);
	return g->long_path ? 0 : -ENOMEM;
}

static int add_gone(struct nl_collector *c, const struct nl_cgroup_ent *e)
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
	c->gone[c->nr_gone].left = c->o.cgroup_grace;
	c->gone[c->nr_gone].path = strdup(e->path);
	if (!c->gone[c->nr_gone].path)
		return -ENOMEM;
	c->nr_gone++;
	return 0;
}

/* @path: the cgroup's full path (g->path may be a shortened label) */
static void fill_numa_stat(struct nl_collector *c, struct nl_cgroup *g, const char *path,
			   long page_size)
{
	char p[4700];

	snprintf(p, sizeof(p), "%s%s%smemory.numa_stat", c->o.cgroup_root,
		 strcmp(path, "/") ? path : "", "/");
	g->numa_stat_known = nl_memcg_numa_stat_read(p, g->anon_bytes_by_node,
						     g->file_bytes_by_node, page_size) > 0;
}

/* Read this interval's cgroup tree into c->cgmap. Cgroups that vanished
 * since the last interval are kept (add_gone) to be shown as removed for
 * the grace period, with their last hierarchical figures. 0, or a negative
 * errno when the tree cannot be read (the old tree stays). */
static int cgroups_refresh_tree(struct nl_collector *c)
{
	struct nl_cgroup_map old = c->cgmap;
	int e;

	memset(&c->cgmap, 0, sizeof(c->cgmap));
	e = nl_cgroup_map_build(&c->cgmap, c->o.cgroup_root);
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
static int cgroups_fold_input(const struct nl_collector *c, uint64_t *ids, uint64_t *own, uint64_t *dead)
{
	int nr_dead = 0;

	for (int i = 0; i < c->cgroups.n; i++) {
		ids[i] = c->cgroups.v[i].id;
		memcpy(own + (size_t)i * NL_COUNTS_WIDTH, &c->cgroups.v[i].c, sizeof(struct nl_counts));
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
static void cgroups_parent_hints(struct nl_collector *c, const uint64_t *ids)
{
	for (int i = 0; i < c->cgroups.n; i++) {
		uint64_t anc[NL_CG_ANCESTORS];
		int na;

		if (nl_cgroup_map_index(&c->cgmap, ids[i]) >= 0)
			continue;
		na = nl_maps_cgroup_ancestors(c->b, ids[i], anc, NL_CG_ANCESTORS);
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
static int cgroups_fill_live(struct nl_collector *c, struct nl_snapshot *s, const uint64_t *tot,
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
static int cgroups_fill_gone(struct nl_collector *c, struct nl_snapshot *s, uint64_t interval, int *k)
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
static void cgroups_expire_gone(struct nl_collector *c)
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
static void cgroups_forget(struct nl_collector *c, uint64_t *dead, int n)
{
	if (!n)
		return;
	nl_maps_forget(c->b, NL_KIND_CGROUP, dead, n);
	nl_vs_forget(c->b, dead, n);	/* the vmscan fold retires them next */
	c->cgroups_evicted += (uint64_t)n;
}

static int fill_cgroups(struct nl_collector *c, struct nl_snapshot *s, uint64_t interval)
{
	uint64_t *ids = NULL, *own = NULL, *tot = NULL, *dead = NULL;
	int e, nr_dead, k = 0;

	if (cgroups_refresh_tree(c) < 0)
		return 0;	/* no cgroup view this interval; keep the old tree */
	ids = calloc((size_t)c->cgroups.n + 1, sizeof(*ids));
	own = calloc(((size_t)c->cgroups.n + 1) * NL_COUNTS_WIDTH, sizeof(*own));
	tot = calloc((size_t)c->cgmap.n * NL_COUNTS_WIDTH, sizeof(*tot));
	dead = calloc((size_t)c->cgroups.n + 1, sizeof(*dead));
	s->cgroups = calloc((size_t)c->cgmap.n + (size_t)c->nr_gone, sizeof(*s->cgroups));
	if (!ids || !own || !tot || !dead || !s->cgroups) {
		e = -ENOMEM;
		goto out;
	}
	nr_dead = cgroups_fold_input(c, ids, own, dead);
	cgroups_parent_hints(c, ids);
	e = nl_cgroup_fold_run(&c->fold, &c->cgmap, ids, own, c->cgroups.n, tot);
	if (!e)
		e = cgroups_fill_live(c, s, tot, interval, &k);
	if (!e)
		e = cgroups_fill_gone(c, s, interval, &k);
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

/* True when a sched_ext scheduler is enabled (or being enabled or
 * disabled): /sys/kernel/sched_ext/state reads other than "disabled".
 * False when the kernel has no sched_ext. */
static bool sched_ext_on(const char *sysfs_root)
{
	char path[512], state[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/kernel/sched_ext/state", sysfs_root);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(state, sizeof(state), f))
		state[0] = 0;
	fclose(f);
	return state[0] && strncmp(state, "disabled", 8) != 0;
}

static void fill_sources(struct nl_collector *c, struct nl_snapshot *s)
{
	struct nl_sources *src = &s->src;
	int nb = nl_sysctl_read_int(c->o.procfs_root, "kernel/numa_balancing");
	int ns = nl_sysctl_read_int(c->o.procfs_root, "vm/numa_stat");

	src->sched = c->b->have_sched;
	src->alloc = c->b->have_alloc;
	src->alloc_class = c->b->have_alloc_class;
	src->migrate = c->b->have_migrate;
	src->vmscan = c->b->have_vmscan;
	src->vmscan_memcg_arg = c->b->vmscan_memcg_arg;
	src->numa_balancing = nb > 0;
	nl_bpf_set_numa_balancing(c->b, src->numa_balancing);
	src->vm_numa_stat = ns != 0;	/* absent sysctl (old kernels): always counted */
	src->sysctl_numa_balancing = nb < 0 ? -1 : nb;
	src->sysctl_numa_stat = ns < 0 ? -1 : ns;
	src->sysctl_zone_reclaim_mode = nl_sysctl_read_int(c->o.procfs_root, "vm/zone_reclaim_mode");
	if (src->sysctl_zone_reclaim_mode < 0)
		src->sysctl_zone_reclaim_mode = -1;
	src->cgroup_mode = c->o.cgroup_mode;
	snprintf(src->cgroup_root, sizeof(src->cgroup_root), "%s", c->o.cgroup_root);
	snprintf(src->missing, sizeof(src->missing), "%s", c->b->missing);
	if (nb == 0) {
		size_t l = strlen(src->missing);

		snprintf(src->missing + l, sizeof(src->missing) - l, "%slocality: NUMA balancing is off (kernel.numa_balancing=0)",
			 l ? "; " : "");
	}
	src->sched_ext = sched_ext_on(c->o.sysfs_root);
	nl_bpf_set_sched_ext(c->b, src->sched_ext);
	if (src->sched_ext && nb != 0) {
		size_t l = strlen(src->missing);

		snprintf(src->missing + l, sizeof(src->missing) - l,
			 "%slocality: sched_ext (tasks on a sched_ext scheduler take no NUMA hinting "
			 "faults; only tasks whose fault counters moved are binned)", l ? "; " : "");
	}
}

static void fill_self(struct nl_collector *c, struct nl_snapshot *s)
{
	unsigned long long drops[NL_NR_DROPS], cnt[32], ns[32];
	char names[32][64];
	int n;

	nl_bpf_drops(c->b, drops);
	for (int i = 0; i < NL_NR_DROPS; i++)
		s->self.drops[i] = drops[i];
	s->self.procs_evicted = c->procs_evicted;
	s->self.numa_maps_read = c->rss_reads;
	s->self.numa_maps_reused = c->rss_reused;
	s->self.cgroups_evicted = c->cgroups_evicted;
	s->self.bpf_stats_enabled = nl_bpf_stats_on(c->b);
	n = nl_bpf_prog_stats(c->b, names, cnt, ns, 32);
	s->self.nr_progs = n;
	for (int i = 0; i < n; i++) {
		snprintf(s->self.progs[i].name, sizeof(s->self.progs[i].name), "%s", names[i]);
		s->self.progs[i].run_cnt = cnt[i];
		s->self.progs[i].run_time_ns = ns[i];
	}
}

int nl_collect_snapshot(struct nl_collector *c, struct nl_snapshot *s)
{
	struct utsname u;
	uint64_t now = now_ns(CLOCK_MONOTONIC);
	int e;

	nl_snapshot_free(s);
	/* swap the tgid tables so the previous reading stays for deltas */
	struct nl_counts_table t = c->prev_tgids;

	c->prev_tgids = c->tgids;
	c->tgids = t;
	memcpy(c->prev_nodes, c->nodes, sizeof(c->nodes));
	e = nl_maps_read(c->b, &c->tgids, &c->cgroups, c->nodes);
	if (e)
		return e;
	s->seq = ++c->seq;
	s->timestamp_ns = now_ns(CLOCK_REALTIME);
	s->interval_ns = now - c->last_ns ? now - c->last_ns : 1;
	c->last_ns = now;
	s->page_size = sysconf(_SC_PAGESIZE);
	if (!uname(&u))
		snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	fill_sources(c, s);
	s->in_child_pidns = c->b->pidns_inum != 0;
	/* scx_cling is another process: its pinned maps, when it runs */
	s->cling_running = !nl_cling_stats_read(c->o.cling_pin_dir ? c->o.cling_pin_dir : CLING_PIN_DIR,
						&s->cling);
	e = fill_nodes(c, s);
	if (!e)
		e = fill_procs(c, s, s->interval_ns);
	if (!e)
		e = fill_cgroups(c, s, s->interval_ns);
	if (!e && c->vs && c->cgmap.n) {
		s->src.mglru = set_lru_mode(c);
		e = nl_vs_read(c->b, &c->vs_raw);
		if (!e)
			e = nl_vs_fill(c->vs, &c->vs_raw, &c->cgmap, s);
	}
	if (!e && c->cgmap.n) {
		int n = nl_ra_read(c->ra_rd, c->o.reclaim_dir, c->o.cgroup_mode, s);

		e = n < 0 ? n : 0;
	}
	if (!e) {
		/* -p first: that is the process whose cgroups top keeps showing */
		nl_snapshot_set_focus(s, c->o.watch_pid > 0 ? c->o.watch_pid : c->focus_pid,
				      &c->focus_last);
		c->focus_last = s->focus;
	}
	fill_self(c, s);
	nl_alloc_latency_fill(c->lat, &s->alloc_lat);
	nl_alloc_attrib_fill(c->attrib, &s->alloc_stacks);
	nl_page_lifetime_fill(c->life, &s->page_life);
	if (e)
		nl_snapshot_free(s);
	return e;
}

void nl_collect_close(struct nl_collector *c)
{
	if (!c)
		return;
	nl_topo_free(&c->topo);
	nl_counts_free(&c->tgids);
	nl_counts_free(&c->prev_tgids);
	nl_counts_free(&c->cgroups);
	nl_counts_free(&c->cg_tot);
	nl_counts_free(&c->prev_cg_tot);
	nl_cgroup_map_free(&c->cgmap);
	nl_cgroup_fold_free(&c->fold);
	nl_vs_state_free(c->vs);
	nl_vs_raw_free(&c->vs_raw);
	nl_ra_reader_free(c->ra_rd);
	nl_alloc_latency_stop(c->lat);
	nl_alloc_attrib_stop(c->attrib);
	nl_page_lifetime_stop(c->life);
	free(c->cpu_prev);
	free(c->cpu_cur);
	for (int gi = 0; gi < c->nr_gone; gi++)
		free(c->gone[gi].path);
	free(c->gone);
	free(c->rss);
	free(c->idle_res);
	free(c->idle);
	free(c->idle_next);
	free(c->cgof);
	free(c->scan_pids);
	free(c->comms);
	free(c);
}
