// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Prometheus text exposition of a snapshot; see view_prom.h. One small
 * function per metric family so new figures (reclaim, scx_cling) add a
 * function and a call in nl_prom_render(). A 2,000-cgroup scrape is ~100k
 * lines, so label sets are escaped once per render and numbers are
 * formatted without printf.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "view_fmt.h"
#include "view_prom.h"
#include "view_prom_vmscan.h"
#include "view_prom_reclaim.h"
#include "view_prom_cling.h"

const char *const nl_prom_locality_le[NL_LOC_BUCKETS] = {
	"0.125", "0.25", "0.375", "0.5", "0.625", "0.75", "0.875", "1",
};

void nl_prom_opts_default(struct nl_prom_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cgroup_depth = 0;
	o->max_cgroups = 1000;
	o->version = "";
}

bool nl_prom_cgroup_selected(const struct nl_cgroup *c, const struct nl_prom_opts *o)
{
	if (o->cgroup_depth >= 0 && c->depth <= o->cgroup_depth)
		return true;
	for (int i = 0; i < o->nr_cgroup_patterns; i++)
		if (!fnmatch(o->cgroup_patterns[i], nl_cgroup_full_path(c), 0))
			return true;
	return false;
}

/* ---- helpers ------------------------------------------------------------ */

/* The exported rows of one kind (cgroups or processes): their figures and
 * their escaped label sets (`cgroup="/a"` or `pid="1",comm="x"`) kept in
 * one buffer, built once per render. */
struct rows {
	const char *prefix;		/* "numalens_cgroup_" */
	int n;
	const struct nl_figs **f;
	const struct nl_cgroup **cg;	/* cgroup rows only, else NULL */
	size_t *off, *len;
	struct nl_buf lab;
};

static void rows_free(struct rows *r)
{
	free(r->f);
	free(r->cg);
	free(r->off);
	free(r->len);
	nl_buf_free(&r->lab);
}

static int rows_alloc(struct rows *r, int cap, bool cgroups)
{
	size_t c = cap > 0 ? (size_t)cap : 1;

	r->f = calloc(c, sizeof(*r->f));
	r->off = calloc(c, sizeof(*r->off));
	r->len = calloc(c, sizeof(*r->len));
	r->cg = cgroups ? calloc(c, sizeof(*r->cg)) : NULL;
	return r->f && r->off && r->len && (!cgroups || r->cg) ? 0 : -ENOMEM;
}

/* Row @i's line "<head @h><row labels><tail @t><v>\n" (_s: @v in ns). */
static void row_u64(struct nl_buf *b, const struct nl_prom_pieces *pc, int h, const struct rows *r, int i,
		    int t, uint64_t v)
{
	nl_prom_row_u64(b, pc, h, r->lab.p + r->off[i], r->len[i], t, v);
}

static void row_s(struct nl_buf *b, const struct nl_prom_pieces *pc, int h, const struct rows *r, int i,
		  int t, uint64_t ns)
{
	nl_prom_row_s(b, pc, h, r->lab.p + r->off[i], r->len[i], t, ns);
}

/* One tail `,node="<nid>"} ` per snapshot node into @tail[k]; -1 for a
 * node id out of range, which has no series. */
static void node_tails(struct nl_prom_pieces *pc, const struct nl_snapshot *s, int *tail)
{
	for (int k = 0; k < s->nr_nodes; k++) {
		int nid = s->nodes[k].nid;
		char v[16];

		tail[k] = -1;
		if (nid < 0 || nid >= NL_MAX_NODES)
			continue;
		snprintf(v, sizeof(v), "%d", nid);
		tail[k] = nl_prom_piece_tail(pc, "node", v, NULL, NULL);
	}
}

/* ---- per-row families (cgroups and processes) --------------------------- */

static void fam_cpu_seconds(struct nl_buf *b, const struct rows *r, const struct nl_snapshot *s)
{
	struct nl_prom_pieces pc = {};
	int h = nl_prom_piece_head(&pc, r->prefix, "cpu_seconds_total", NULL), tail[NL_MAX_NODES];

	node_tails(&pc, s, tail);
	nl_prom_family_pre(b, r->prefix, "cpu_seconds_total", "counter",
			   "On-CPU time on the CPUs of each NUMA node (seconds, measured at sched_switch).");
	for (int i = 0; i < r->n; i++)
		for (int k = 0; k < s->nr_nodes; k++)
			if (tail[k] >= 0)
				row_s(b, &pc, h, r, i, tail[k], r->f[i]->run_ns_total_by_node[s->nodes[k].nid]);
	nl_prom_pieces_free(&pc);
}

/* The locality histogram: observations are CPU time, so bucket counts and
 * _count are in seconds and histogram_quantile(0.5, ...) is the locality
 * of the median CPU-second. _sum puts each bucket's time at its midpoint
 * (b + 0.5) / 8, the same as the snapshot's mean. */
static void fam_locality(struct nl_buf *b, const struct rows *r)
{
	struct nl_prom_pieces pc = {};
	int h_bucket = nl_prom_piece_head(&pc, r->prefix, "fault_locality_ratio_bucket", NULL);
	int h_sum = nl_prom_piece_head(&pc, r->prefix, "fault_locality_ratio_sum", NULL);
	int h_count = nl_prom_piece_head(&pc, r->prefix, "fault_locality_ratio_count", NULL);
	int t_plain = nl_prom_piece_tail(&pc, NULL, NULL, NULL, NULL);
	int t_inf = nl_prom_piece_tail(&pc, "le", "+Inf", NULL, NULL), t_le[NL_LOC_BUCKETS];

	for (int k = 0; k < NL_LOC_BUCKETS; k++)
		t_le[k] = nl_prom_piece_tail(&pc, "le", nl_prom_locality_le[k], NULL, NULL);
	nl_prom_family_pre(b, r->prefix, "fault_locality_ratio", "histogram",
			   "NUMA-hinting-fault locality L/(L+R+1) of on-CPU time (L local, R remote faults), in 8 buckets of 1/8 "
			   "(a locality on a bound counts in the bucket of that le). "
			   "One observation is one CPU-second: bucket counts, _count and _sum are seconds. "
			   "Empty while kernel.numa_balancing is 0 (see numalens_source_available).");
	for (int i = 0; i < r->n; i++) {
		const uint64_t *ns = r->f[i]->locality_ns_total;
		uint64_t cum = 0;
		unsigned __int128 sum16 = 0;	/* sum of ns * (2b + 1), i.e. 16 x sum of ns x midpoint */

		for (int k = 0; k < NL_LOC_BUCKETS; k++) {
			cum += ns[k];
			sum16 += (unsigned __int128)ns[k] * (unsigned)(2 * k + 1);
			row_s(b, &pc, h_bucket, r, i, t_le[k], cum);
		}
		row_s(b, &pc, h_bucket, r, i, t_inf, cum);
		row_s(b, &pc, h_sum, r, i, t_plain, (uint64_t)(sum16 / 16));
		row_s(b, &pc, h_count, r, i, t_plain, cum);
	}
	nl_prom_pieces_free(&pc);
}

/* Scalar counters of a row's figures. */
enum scalar {
	SC_ALLOC_EVENTS, SC_ALLOC_REMOTE_EVENTS, SC_ALLOC_FAIL, SC_REMOTE_BYTES,
	SC_MIG_OK, SC_MIG_FAIL, SC_NUMA_MIG_OK, SC_NUMA_MIG_FAIL, SC_MOVES, SC_SWAPS,
	SC_PREF_HITS, SC_PREF_MISSES,
};

static const struct {
	const char *name, *help;
	bool bytes;	/* pages x page size */
} scalars[] = {
	[SC_ALLOC_EVENTS] = { "page_allocations_total",
		"Page-allocator calls (kmem:mm_page_alloc) whose page node is known, local and remote; "
		"estimated while numalens_alloc_sample_period > 1, like every allocation counter." },
	[SC_ALLOC_REMOTE_EVENTS] = { "remote_page_allocations_total",
		"Page-allocator calls that returned a page on another node than the allocating CPU's." },
	[SC_ALLOC_FAIL] = { "page_allocation_failures_total",
		"Page-allocator calls that failed (pfn -1); neither local nor remote." },
	[SC_REMOTE_BYTES] = { "remote_allocated_bytes_total",
		"Bytes of pages allocated on another node than the allocating CPU's.", true },
	[SC_MIG_OK] = { "page_migrations_total",
		"Base pages migrated between nodes, all reasons (migrate:mm_migrate_pages)." },
	[SC_MIG_FAIL] = { "page_migration_failures_total",
		"Base pages whose migration failed, all reasons." },
	[SC_NUMA_MIG_OK] = { "numa_page_migrations_total",
		"Base pages migrated by NUMA balancing (reason numa_misplaced)." },
	[SC_NUMA_MIG_FAIL] = { "numa_page_migration_failures_total",
		"Base pages NUMA balancing failed to migrate (reason numa_misplaced)." },
	[SC_MOVES] = { "numa_task_moves_total", "NUMA balancing task moves (sched:sched_move_numa)." },
	[SC_SWAPS] = { "numa_task_swaps_total", "NUMA balancing task swaps (sched:sched_swap_numa)." },
	[SC_PREF_HITS] = { "preferred_node_hits_total",
		"Page-allocator calls that placed the page on the node the task's memory policy prefers "
		"(the local node under the default policy); the per-task half of numastat's numa_hit." },
	[SC_PREF_MISSES] = { "preferred_node_misses_total",
		"Page-allocator calls that placed the page on another node than the one the task's memory "
		"policy prefers (it was short of memory, or the policy allows others); numastat's numa_miss." },
};

static uint64_t scalar_value(const struct nl_figs *f, enum scalar k)
{
	switch (k) {
	case SC_ALLOC_EVENTS: return f->alloc.events_local_total + f->alloc.events_remote_total;
	case SC_ALLOC_REMOTE_EVENTS: return f->alloc.events_remote_total;
	case SC_ALLOC_FAIL: return f->alloc.fail_events_total;
	case SC_REMOTE_BYTES: return f->alloc.pages_remote_total;
	case SC_MIG_OK: return f->mig.pages_ok_total;
	case SC_MIG_FAIL: return f->mig.pages_fail_total;
	case SC_NUMA_MIG_OK: return f->mig.numa_misplaced_ok_total;
	case SC_NUMA_MIG_FAIL: return f->mig.numa_misplaced_fail_total;
	case SC_MOVES: return f->mig.move_numa_total;
	case SC_SWAPS: return f->mig.swap_numa_total;
	case SC_PREF_HITS: return f->alloc.events_hit_total;
	case SC_PREF_MISSES: return f->alloc.events_miss_total;
	}
	return 0;
}

static void fam_scalar(struct nl_buf *b, const struct rows *r, const struct nl_snapshot *s, enum scalar k)
{
	uint64_t mul = scalars[k].bytes ? (uint64_t)s->page_size : 1;
	struct nl_prom_pieces pc = {};
	int h = nl_prom_piece_head(&pc, r->prefix, scalars[k].name, NULL);
	int t = nl_prom_piece_tail(&pc, NULL, NULL, NULL, NULL);

	nl_prom_family_pre(b, r->prefix, scalars[k].name, "counter", scalars[k].help);
	for (int i = 0; i < r->n; i++)
		row_u64(b, &pc, h, r, i, t, scalar_value(r->f[i], k) * mul);
	nl_prom_pieces_free(&pc);
}

static void fam_alloc_bytes_by_node(struct nl_buf *b, const struct rows *r, const struct nl_snapshot *s)
{
	struct nl_prom_pieces pc = {};
	int h = nl_prom_piece_head(&pc, r->prefix, "allocated_bytes_total", NULL), tail[NL_MAX_NODES];

	node_tails(&pc, s, tail);
	nl_prom_family_pre(b, r->prefix, "allocated_bytes_total", "counter",
			   "Bytes of pages allocated, by the node the page lies on.");
	for (int i = 0; i < r->n; i++)
		for (int k = 0; k < s->nr_nodes; k++)
			if (tail[k] >= 0)
				row_u64(b, &pc, h, r, i, tail[k],
					r->f[i]->alloc.pages_by_node_total[s->nodes[k].nid] * (uint64_t)s->page_size);
	nl_prom_pieces_free(&pc);
}

/* Classes @first..@last of enum nl_alloc_class as label @label. */
static void fam_alloc_classes(struct nl_buf *b, const struct rows *r, const struct nl_snapshot *s,
			      const char *name, const char *label, int first, int last, const char *help)
{
	struct nl_prom_pieces pc = {};
	int h = nl_prom_piece_head(&pc, r->prefix, name, NULL), tail[NL_NR_CLASSES];

	for (int c = first; c <= last; c++)
		tail[c] = nl_prom_piece_tail(&pc, label, nl_class_name(c), NULL, NULL);
	nl_prom_family_pre(b, r->prefix, name, "counter", help);
	for (int i = 0; i < r->n; i++)
		for (int c = first; c <= last; c++)
			row_u64(b, &pc, h, r, i, tail[c],
				r->f[i]->alloc.pages_by_class_total[c] * (uint64_t)s->page_size);
	nl_prom_pieces_free(&pc);
}

static void render_rows(struct nl_buf *b, const struct rows *r, const struct nl_snapshot *s)
{
	fam_cpu_seconds(b, r, s);
	fam_locality(b, r);
	fam_scalar(b, r, s, SC_ALLOC_EVENTS);
	fam_scalar(b, r, s, SC_ALLOC_REMOTE_EVENTS);
	fam_scalar(b, r, s, SC_ALLOC_FAIL);
	fam_scalar(b, r, s, SC_PREF_HITS);
	fam_scalar(b, r, s, SC_PREF_MISSES);
	fam_alloc_bytes_by_node(b, r, s);
	fam_scalar(b, r, s, SC_REMOTE_BYTES);
	fam_alloc_classes(b, r, s, "class_allocated_bytes_total", "class", NL_CLASS_KERNEL,
			  NL_CLASS_MOVABLE,
			  "Bytes of pages allocated by migratetype class: kernel (unmovable), reclaimable "
			  "(slab), movable (user pages). The classes add up to allocated_bytes_total.");
	fam_alloc_classes(b, r, s, "lru_allocated_bytes_total", "lru", NL_CLASS_ANON, NL_CLASS_SHMEM,
			  "Bytes of movable pages seen reaching an LRU list as anon, file or shmem "
			  "(pagemap:mm_lru_insertion); movable minus these is unclassified, never guessed.");
	for (int k = SC_MIG_OK; k <= SC_SWAPS; k++)
		fam_scalar(b, r, s, (enum scalar)k);
}

/* memory.numa_stat gauges of the cgroup rows that have it. */
static void fam_numa_stat(struct nl_buf *b, const struct rows *r, const struct nl_snapshot *s,
			  bool file)
{
	const char *name = file ? "memory_file_bytes" : "memory_anon_bytes";
	struct nl_prom_pieces pc = {};
	int h, tail[NL_MAX_NODES];
	bool any = false;

	for (int i = 0; i < r->n && !any; i++)
		any = r->cg[i]->numa_stat_known;
	if (!any)
		return;
	h = nl_prom_piece_head(&pc, r->prefix, name, NULL);
	node_tails(&pc, s, tail);
	nl_prom_family_pre(b, r->prefix, name, "gauge", file ? "File-backed memory of the cgroup resident on each node (memory.numa_stat file)."
					      : "Anonymous memory of the cgroup resident on each node (memory.numa_stat anon).");
	for (int i = 0; i < r->n; i++) {
		const uint64_t *v = file ? r->cg[i]->file_bytes_by_node : r->cg[i]->anon_bytes_by_node;

		if (!r->cg[i]->numa_stat_known)
			continue;
		for (int k = 0; k < s->nr_nodes; k++)
			if (tail[k] >= 0)
				row_u64(b, &pc, h, r, i, tail[k], v[s->nodes[k].nid]);
	}
	nl_prom_pieces_free(&pc);
}

/* One info series per exported cgroup: what its path names (cgident.h)
 * as labels, each only where the path names one, so a join such as
 * `x * on (instance, cgroup) group_left (pod_uid) numalens_cgroup_info`
 * keeps every cgroup and adds the uid where there is one. The values are
 * hex digits or a checked unit name; they are escaped all the same. */
static void fam_cgroup_info(struct nl_buf *b, const struct rows *r)
{
	static const char name[] = "numalens_cgroup_info";

	nl_prom_family(b, name, "gauge",
		       "Always 1; what the cgroup's path names as labels, each only where it names one: "
		       "pod_uid (the Kubernetes pod, as kube_pod_info's uid), container_id (64 hex digits, "
		       "as the container status has it after \"<runtime>://\") and systemd_unit (the innermost "
		       ".service). Cgroups beside a pod's containers (CRI-O's conmon) get none.");
	for (int i = 0; i < r->n; i++) {
		const struct nl_cg_ident *id = &r->cg[i]->ident;

		nl_prom_open(b, name, NULL);
		nl_buf_put(b, r->lab.p + r->off[i], r->len[i]);
		if (id->pod_uid[0])
			nl_prom_label(b, "pod_uid", id->pod_uid);
		if (id->container_id[0])
			nl_prom_label(b, "container_id", id->container_id);
		if (id->unit[0])
			nl_prom_label(b, "systemd_unit", id->unit);
		nl_prom_close_u64(b, 1);
	}
}

/* ---- row selection ------------------------------------------------------ */

/* A removed cgroup whose path was taken again (a service restarted, a pod
 * recreated) by a live cgroup or by a later removed one: exporting both
 * would give Prometheus duplicate series and fail the whole scrape. The
 * newer one keeps the label; the old counts stay in the parents. Removed
 * cgroups are few, so the scan stays cheap. */
static bool shadowed(const struct nl_snapshot *s, int i)
{
	const struct nl_cgroup *c = &s->cgroups[i];

	if (!c->removed)
		return false;
	for (int k = 0; k < s->nr_cgroups; k++) {
		const struct nl_cgroup *d = &s->cgroups[k];

		if (k != i && (!d->removed || k > i) && !strcmp(d->path, c->path))
			return true;
	}
	return false;
}

static int cgroup_rows(struct rows *r, const struct nl_snapshot *s, const struct nl_prom_opts *o,
		       int *omitted)
{
	*omitted = 0;
	r->prefix = "numalens_cgroup_";
	if (rows_alloc(r, s->nr_cgroups, true))
		return -ENOMEM;
	for (int i = 0; i < s->nr_cgroups; i++) {
		const struct nl_cgroup *c = &s->cgroups[i];

		if (!nl_prom_cgroup_selected(c, o) || shadowed(s, i))
			continue;
		if (o->max_cgroups > 0 && r->n >= o->max_cgroups) {
			(*omitted)++;
			continue;
		}
		r->f[r->n] = &c->f;
		r->cg[r->n] = c;
		r->off[r->n] = r->lab.len;
		nl_buf_puts(&r->lab, "cgroup=\"");
		nl_prom_put_label_value(&r->lab, c->path);
		nl_buf_put(&r->lab, "\"", 1);
		r->len[r->n] = r->lab.len - r->off[r->n];
		r->n++;
	}
	return r->lab.err;
}

/* Busiest first by on-CPU time in the interval; pid breaks ties so the
 * chosen set is stable. */
static int cmp_proc(const void *a, const void *b, void *ctx)
{
	const struct nl_snapshot *s = ctx;
	const struct nl_proc *x = &s->procs[*(const int *)a];
	const struct nl_proc *y = &s->procs[*(const int *)b];

	if (x->f.run_ns != y->f.run_ns)
		return x->f.run_ns > y->f.run_ns ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int proc_rows(struct rows *r, const struct nl_snapshot *s, int k)
{
	int *idx;

	r->prefix = "numalens_process_";
	if (k <= 0 || s->nr_procs <= 0)
		return 0;
	if (k > s->nr_procs)
		k = s->nr_procs;
	idx = calloc((size_t)s->nr_procs, sizeof(*idx));
	if (!idx || rows_alloc(r, k, false)) {
		free(idx);
		return -ENOMEM;
	}
	for (int i = 0; i < s->nr_procs; i++)
		idx[i] = i;
	qsort_r(idx, (size_t)s->nr_procs, sizeof(*idx), cmp_proc, (void *)s);
	for (int i = 0; i < k; i++) {
		const struct nl_proc *p = &s->procs[idx[i]];

		r->f[r->n] = &p->f;
		r->off[r->n] = r->lab.len;
		nl_buf_puts(&r->lab, "pid=\"");
		nl_buf_put_u64(&r->lab, (uint64_t)p->pid);
		nl_buf_puts(&r->lab, "\",comm=\"");
		nl_prom_put_label_value(&r->lab, p->comm);
		nl_buf_put(&r->lab, "\"", 1);
		r->len[r->n] = r->lab.len - r->off[r->n];
		r->n++;
	}
	free(idx);
	return r->lab.err;
}

/* ---- node and self families --------------------------------------------- */

static void fam_numastat(struct nl_buf *b, const struct nl_snapshot *s)
{
	static const struct { const char *name, *help; size_t off; } f[] = {
#define NS(field, help) { "numalens_node_" #field "_total", help, offsetof(struct nl_numastat, field) }
		NS(numa_hit, "sysfs numastat numa_hit of the node: allocations intended for and placed on it (allocator calls)."),
		NS(numa_miss, "sysfs numastat numa_miss: allocations placed on the node though intended for another (allocator calls)."),
		NS(numa_foreign, "sysfs numastat numa_foreign: allocations intended for the node but placed elsewhere (allocator calls)."),
		NS(interleave_hit, "sysfs numastat interleave_hit: interleave-policy allocations placed on the node (allocator calls)."),
		NS(local_node, "sysfs numastat local_node: allocations on the node from a process running on it (allocator calls)."),
		NS(other_node, "sysfs numastat other_node: allocations on the node from a process running elsewhere (allocator calls)."),
#undef NS
	};
	char nid[16];

	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		nl_prom_family(b, f[k].name, "counter", f[k].help);
		for (int i = 0; i < s->nr_nodes; i++) {
			snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
			nl_prom_sample1_u64(b, f[k].name, "node", nid,
				    *(const uint64_t *)((const char *)&s->nodes[i].numastat_total + f[k].off));
		}
	}
}

static void fam_node_memory(struct nl_buf *b, const struct nl_snapshot *s)
{
	char nid[16];

	nl_prom_family(b, "numalens_node_memory_total_bytes", "gauge", "Memory of the node (sysfs meminfo MemTotal).");
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
		nl_prom_sample1_u64(b, "numalens_node_memory_total_bytes", "node", nid, s->nodes[i].mem_total_bytes);
	}
	nl_prom_family(b, "numalens_node_memory_free_bytes", "gauge", "Free memory of the node (sysfs meminfo MemFree).");
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
		nl_prom_sample1_u64(b, "numalens_node_memory_free_bytes", "node", nid, s->nodes[i].mem_free_bytes);
	}
	nl_prom_family(b, "numalens_node_cpus", "gauge", "Online CPUs of the node.");
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
		nl_prom_sample1_u64(b, "numalens_node_cpus", "node", nid, (uint64_t)s->nodes[i].nr_cpus);
	}
	nl_prom_family(b, "numalens_node_cpu_busy_ratio", "gauge",
		       "Busy share of the node's online CPUs over the last interval (/proc/stat), 0..1; "
		       "no sample for a node without online CPUs.");
	for (int i = 0; i < s->nr_nodes; i++) {
		if (!isfinite(s->nodes[i].cpu_busy_pct))
			continue;
		snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
		nl_prom_open(b, "numalens_node_cpu_busy_ratio", NULL);
		nl_prom_label(b, "node", nid);
		nl_prom_close_dbl(b, s->nodes[i].cpu_busy_pct / 100.0, 4);
	}
}

/* Hit, miss and foreign against the preferred node, per node, as the
 * BPF program counts them: the twins of the numastat families above, so a
 * dashboard can set one beside the other. */
static void fam_node_preferred(struct nl_buf *b, const struct nl_snapshot *s)
{
	static const struct { const char *name, *help; size_t off; } f[] = {
#define PN(n, field, help) { "numalens_node_preferred_" n "_total", help, offsetof(struct nl_node, field) }
		PN("hits", bpf_events_hit_total,
		   "Page-allocator calls that placed the page on this node, the node the task's memory policy "
		   "preferred (measured at mm_page_alloc; compare numalens_node_numa_hit_total)."),
		PN("misses", bpf_events_miss_total,
		   "Page-allocator calls that placed the page on this node though the task's memory policy "
		   "preferred another (measured at mm_page_alloc; compare numalens_node_numa_miss_total)."),
		PN("foreign", bpf_events_foreign_total,
		   "Page-allocator calls whose task's memory policy preferred this node but got a page on "
		   "another (measured at mm_page_alloc; compare numalens_node_numa_foreign_total)."),
#undef PN
	};

	if (!s->src.alloc)
		return;
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		nl_prom_family(b, f[k].name, "counter", f[k].help);
		for (int i = 0; i < s->nr_nodes; i++) {
			nl_prom_open(b, f[k].name, NULL);
			nl_prom_label_u64(b, "node", (uint64_t)s->nodes[i].nid);
			nl_prom_close_u64(b, *(const uint64_t *)((const char *)&s->nodes[i] + f[k].off));
		}
	}
}

/* Pages each node handed out by zone (BPF, monotonic while numalens runs);
 * the zone label is the name /proc/zoneinfo gives. */
static void fam_node_zones(struct nl_buf *b, const struct nl_snapshot *s)
{
	static const char name[] = "numalens_node_zone_pages_total";

	if (!s->src.alloc || !s->nr_zones)
		return;
	nl_prom_family(b, name, "counter",
		       "Base pages allocated from the node by zone (mm_page_alloc; compare with vmstat pgalloc_<zone>).");
	for (int i = 0; i < s->nr_nodes; i++)
		for (int z = 0; z < s->nr_zones; z++) {
			nl_prom_open(b, name, NULL);
			nl_prom_label_u64(b, "node", (uint64_t)s->nodes[i].nid);
			nl_prom_label(b, "zone", s->zone_names[z]);
			nl_prom_close_u64(b, s->nodes[i].bpf_pages_by_zone_total[z]);
		}
	nl_prom_family(b, "numalens_zone_pgalloc_pages_total", "counter",
		       "The kernel's own count of base pages allocated from each zone, all nodes summed "
		       "(/proc/vmstat pgalloc_<zone>, since boot): the check on numalens_node_zone_pages_total.");
	for (int z = 0; z < s->nr_zones; z++)
		nl_prom_sample1_u64(b, "numalens_zone_pgalloc_pages_total", "zone", s->zone_names[z],
				    s->pgalloc_total[z]);
}

static void fam_info(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_opts *o)
{
	static const char *const src_names[] = {
		"sched", "alloc", "alloc_class", "migrate", "numa_balancing", "vm_numa_stat", "vmscan",
	};
	bool src[] = { s->src.sched, s->src.alloc, s->src.alloc_class, s->src.migrate,
		       s->src.numa_balancing, s->src.vm_numa_stat, s->src.vmscan };

	nl_prom_family(b, "numalens_build_info", "gauge", "Always 1; the numalens version and the kernel release as labels.");
	nl_prom_open(b, "numalens_build_info", NULL);
	nl_prom_label(b, "version", o->version ? o->version : "");
	nl_prom_label(b, "kernel", s->kernel);
	nl_prom_close_u64(b, 1);
	nl_prom_family(b, "numalens_source_available", "gauge",
	       "1 if the figures of this source are measured in this session, 0 if not (then they stay "
	       "flat, they are not zero activity). numa_balancing gates the locality histogram.");
	for (size_t k = 0; k < sizeof(src) / sizeof(src[0]); k++)
		nl_prom_sample1_u64(b, "numalens_source_available", "source", src_names[k], src[k]);
	nl_prom_family(b, "numalens_alloc_sample_period", "gauge",
	       "Page allocations are counted by process and cgroup from one in this many, each standing "
	       "for as many (1: every one, exact). An allocation counter's increase over a window that "
	       "saw E allocations has a relative standard error of about sqrt((period - 1) / E).");
	nl_prom_sample_u64(b, "numalens_alloc_sample_period",
			   s->src.alloc_sample_period ? s->src.alloc_sample_period : 1);
	nl_prom_family(b, "numalens_page_size_bytes", "gauge", "Base page size of the kernel.");
	nl_prom_sample_u64(b, "numalens_page_size_bytes", (uint64_t)s->page_size);
	nl_prom_family(b, "numalens_snapshots_total", "counter", "Snapshots taken from the BPF maps since start.");
	nl_prom_sample_u64(b, "numalens_snapshots_total", s->seq);
	nl_prom_family(b, "numalens_snapshot_timestamp_seconds", "gauge", "Wall-clock time the served snapshot was taken (Unix seconds).");
	nl_prom_sample_s(b, "numalens_snapshot_timestamp_seconds", s->timestamp_ns);
}

static void fam_self(struct nl_buf *b, const struct nl_snapshot *s)
{
	const struct nl_self *x = &s->self;

	nl_prom_family(b, "numalens_map_drops_total", "counter",
	       "Events a BPF program could not count in full, by reason (a full map, an out-of-range node, "
	       "a pfn outside the node table).");
	for (int k = 0; k < NL_NR_DROPS; k++)
		nl_prom_sample1_u64(b, "numalens_map_drops_total", "reason", nl_drop_name(k), x->drops[k]);
	nl_prom_family(b, "numalens_evicted_processes_total", "counter", "Exited processes removed from the BPF maps.");
	nl_prom_sample_u64(b, "numalens_evicted_processes_total", x->procs_evicted);
	nl_prom_family(b, "numalens_evicted_cgroups_total", "counter",
	       "Removed cgroups folded into their parents and removed from the BPF maps.");
	nl_prom_sample_u64(b, "numalens_evicted_cgroups_total", x->cgroups_evicted);
	if (s->in_child_pidns) {	/* tasks our pid namespace cannot see, summed */
		const struct nl_figs *o = &s->other_pidns;

		nl_prom_family(b, "numalens_other_pid_namespaces_cpu_seconds_total", "counter",
		       "On-CPU time of the tasks outside numalens' pid namespace, which no process series shows "
		       "(present only when numalens runs in a pid namespace of its own).");
		nl_prom_sample_s(b, "numalens_other_pid_namespaces_cpu_seconds_total", o->run_ns_total);
		nl_prom_family(b, "numalens_other_pid_namespaces_allocated_pages_total", "counter",
		       "Pages allocated by the tasks outside numalens' pid namespace (local + remote).");
		nl_prom_sample_u64(b, "numalens_other_pid_namespaces_allocated_pages_total",
				   o->alloc.pages_local_total + o->alloc.pages_remote_total);
	}
	nl_prom_family(b, "numalens_bpf_stats_enabled", "gauge",
	       "1 if the kernel counts BPF run times (export --self-cost, or kernel.bpf_stats_enabled=1), so the program run counts and times below advance.");
	nl_prom_sample_u64(b, "numalens_bpf_stats_enabled", x->bpf_stats_enabled);
	nl_prom_family(b, "numalens_bpf_program_runs_total", "counter", "Runs of each BPF program (kernel bpf stats).");
	for (int i = 0; i < x->nr_progs && i < 32; i++)
		nl_prom_sample1_u64(b, "numalens_bpf_program_runs_total", "program", x->progs[i].name, x->progs[i].run_cnt);
	nl_prom_family(b, "numalens_bpf_program_run_time_seconds_total", "counter",
	       "Time spent in each BPF program (kernel bpf stats, seconds).");
	for (int i = 0; i < x->nr_progs && i < 32; i++) {
		nl_prom_open(b, "numalens_bpf_program_run_time_seconds_total", NULL);
		nl_prom_label(b, "program", x->progs[i].name);
		nl_prom_close_s(b, x->progs[i].run_time_ns);
	}
}

static void fam_cardinality(struct nl_buf *b, const struct nl_snapshot *s, int exported, int omitted)
{
	nl_prom_family(b, "numalens_cgroups", "gauge", "Cgroups in the snapshot, including removed ones in their grace period.");
	nl_prom_sample_u64(b, "numalens_cgroups", (uint64_t)s->nr_cgroups);
	nl_prom_family(b, "numalens_cgroups_exported", "gauge", "Cgroups exported as cgroup label values.");
	nl_prom_sample_u64(b, "numalens_cgroups_exported", (uint64_t)exported);
	nl_prom_family(b, "numalens_cgroups_omitted", "gauge",
	       "Cgroups selected by --cgroup-depth/--cgroup-pattern but left out by --max-cgroups.");
	nl_prom_sample_u64(b, "numalens_cgroups_omitted", (uint64_t)omitted);
}

int nl_prom_render(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_opts *o)
{
	struct rows cg = {}, pr = {};
	int omitted = 0, e;

	if (!b || !s || !o)
		return -EINVAL;
	e = cgroup_rows(&cg, s, o, &omitted);
	if (!e)
		e = proc_rows(&pr, s, o->top_procs);
	if (e) {
		rows_free(&cg);
		rows_free(&pr);
		return e;
	}
	if (!b->drain) {
		/* one reservation avoids most regrowth: ~3 series per node and
		 * ~30 more per row (~110 with reclaim), each its label set plus
		 * ~50 bytes (a drained buffer holds one slice of that) */
		size_t rows = (size_t)(cg.n + pr.n), lab = cg.lab.len + pr.lab.len;
		size_t per = (size_t)(3 * s->nr_nodes + (s->src.vmscan ? 110 : 30));

		nl_buf_reserve(b, 16384 + per * (rows * 50 + lab));
	}
	fam_info(b, s, o);
	fam_numastat(b, s);
	fam_node_memory(b, s);
	fam_node_preferred(b, s);
	fam_node_zones(b, s);
	fam_cgroup_info(b, &cg);
	render_rows(b, &cg, s);
	fam_numa_stat(b, &cg, s, false);
	fam_numa_stat(b, &cg, s, true);
	{
		struct nl_prom_cgroup_rows vr = { cg.n, cg.cg, cg.lab.p, cg.off, cg.len };

		nl_prom_render_vmscan(b, s, &vr, o->cgroup_reclaim_histograms);
	}
	if (pr.n)
		render_rows(b, &pr, s);
	nl_prom_render_reclaim_agent(b, s);
	nl_prom_render_cling(b, s);
	fam_self(b, s);
	fam_cardinality(b, s, cg.n, omitted);
	rows_free(&cg);
	rows_free(&pr);
	return b->err;
}

void nl_prom_render_scrape_duration(struct nl_buf *b, uint64_t ns)
{
	nl_prom_family(b, "numalens_scrape_duration_seconds", "gauge",
	       "Time numalens spent rendering the served snapshot into this text (seconds); rendered once per "
	       "snapshot, by its first scrape, and shared by the others.");
	nl_prom_sample_s(b, "numalens_scrape_duration_seconds", ns);
}
