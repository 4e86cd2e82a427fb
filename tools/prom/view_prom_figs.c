// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The families every exported row has, cgroup or process: on-CPU time by
 * node, the locality histogram, allocations, migrations; and the cgroup
 * rows' own: memory.numa_stat and what the path names (cgroup_info).
 */
#include <stdio.h>
#include "view_fmt.h"
#include "prom_write.h"
#include "view_prom_figs.h"

const char *const nl_prom_locality_le[NL_LOC_BUCKETS] = {
	"0.125", "0.25", "0.375", "0.5", "0.625", "0.75", "0.875", "1",
};

/* Row @i's line "<head @h><row labels><tail @t><v>\n" (_s: @v in ns). */
static void row_u64(struct nl_buf *b, const struct nl_prom_pieces *pc, int h,
		    const struct nl_prom_rows *r, int i, int t, uint64_t v)
{
	nl_prom_row_u64(b, pc, h, r->lab.p + r->off[i], r->len[i], t, v);
}

static void row_s(struct nl_buf *b, const struct nl_prom_pieces *pc, int h,
		  const struct nl_prom_rows *r, int i, int t, uint64_t ns)
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

static void fam_cpu_seconds(struct nl_buf *b, const struct nl_prom_rows *r,
			    const struct nl_snapshot *s)
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
static void fam_locality(struct nl_buf *b, const struct nl_prom_rows *r)
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

static void fam_scalar(struct nl_buf *b, const struct nl_prom_rows *r, const struct nl_snapshot *s,
		       enum scalar k)
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

static void fam_alloc_bytes_by_node(struct nl_buf *b, const struct nl_prom_rows *r,
				    const struct nl_snapshot *s)
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
static void fam_alloc_classes(struct nl_buf *b, const struct nl_prom_rows *r, const struct nl_snapshot *s,
			      const char *name, const char *label, int first, int last, const char *help)
{
	struct nl_prom_pieces pc = {};
	int h = nl_prom_piece_head(&pc, r->prefix, name, NULL), tail[NL_NR_CLASSES];

	for (int c = first; c <= last; c++)
		tail[c] = nl_prom_piece_tail(&pc, label, nl_fmt_class_name(c), NULL, NULL);
	nl_prom_family_pre(b, r->prefix, name, "counter", help);
	for (int i = 0; i < r->n; i++)
		for (int c = first; c <= last; c++)
			row_u64(b, &pc, h, r, i, tail[c],
				r->f[i]->alloc.pages_by_class_total[c] * (uint64_t)s->page_size);
	nl_prom_pieces_free(&pc);
}

void nl_prom_figs_render(struct nl_buf *b, const struct nl_prom_rows *r, const struct nl_snapshot *s)
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
void nl_prom_figs_numa_stat(struct nl_buf *b, const struct nl_prom_rows *r, const struct nl_snapshot *s,
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
void nl_prom_figs_cgroup_info(struct nl_buf *b, const struct nl_prom_rows *r)
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

