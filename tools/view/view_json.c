// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * docs/json.md, field for field. cJSON keeps numbers as doubles, which
 * would print a ns timestamp (~1.7e18 > 2^53) as "1.7356896001234568e+18":
 * every unsigned counter therefore goes out as a raw integer literal.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "alloc_sample.h"
#include "view_agent.h"
#include "view_fmt.h"
#include "view_json.h"
#include "vmscan_figs.h"

/* Allocation failures inside the builders are collected in one flag
 * instead of checked at every call: cJSON_Add* return NULL on failure. */
struct jb {
	const struct nl_snapshot *s;
	bool oom;
};

static void add_u64(struct jb *j, cJSON *obj, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	if (!cJSON_AddRawToObject(obj, key, buf))
		j->oom = true;
}

static void add_i64(struct jb *j, cJSON *obj, const char *key, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	if (!cJSON_AddRawToObject(obj, key, buf))
		j->oom = true;
}

static void add_double(struct jb *j, cJSON *obj, const char *key, double v)
{
	/* JSON has no NaN/Inf; an unmeasurable figure is null (docs/json.md) */
	if (!(isfinite(v) ? cJSON_AddNumberToObject(obj, key, v) : cJSON_AddNullToObject(obj, key)))
		j->oom = true;
}

static void add_bool(struct jb *j, cJSON *obj, const char *key, bool v)
{
	if (!cJSON_AddBoolToObject(obj, key, v))
		j->oom = true;
}

static void add_str(struct jb *j, cJSON *obj, const char *key, const char *v)
{
	if (!cJSON_AddStringToObject(obj, key, v))
		j->oom = true;
}

static void add_null(struct jb *j, cJSON *obj, const char *key)
{
	if (!cJSON_AddNullToObject(obj, key))
		j->oom = true;
}

static cJSON *add_obj(struct jb *j, cJSON *obj, const char *key)
{
	cJSON *o = cJSON_AddObjectToObject(obj, key);

	if (!o)
		j->oom = true;
	return o;
}

static cJSON *add_arr(struct jb *j, cJSON *obj, const char *key)
{
	cJSON *a = cJSON_AddArrayToObject(obj, key);

	if (!a)
		j->oom = true;
	return a;
}

static void arr_u64(struct jb *j, cJSON *arr, uint64_t v)
{
	char buf[24];
	cJSON *item;

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	item = cJSON_CreateRaw(buf);
	if (!item || !cJSON_AddItemToArray(arr, item)) {
		cJSON_Delete(item);
		j->oom = true;
	}
}

/* {"<nid>": v[nid]} for every online node, in the snapshot's node order. */
static void add_by_node(struct jb *j, cJSON *obj, const char *key, const uint64_t *v)
{
	cJSON *o = add_obj(j, obj, key);
	char nid[16];

	if (!o)
		return;
	for (int i = 0; i < j->s->nr_nodes; i++) {
		int n = j->s->nodes[i].nid;

		snprintf(nid, sizeof(nid), "%d", n);
		add_u64(j, o, nid, n >= 0 && n < NL_MAX_NODES ? v[n] : 0);
	}
}

static void add_u64_array(struct jb *j, cJSON *obj, const char *key, const uint64_t *v, int n)
{
	cJSON *a = add_arr(j, obj, key);

	for (int i = 0; a && i < n; i++)
		arr_u64(j, a, v[i]);
}

static void add_numastat(struct jb *j, cJSON *obj, const char *key, const struct nl_numastat *n)
{
	cJSON *o = add_obj(j, obj, key);

	if (!o)
		return;
	add_u64(j, o, "numa_hit", n->numa_hit);
	add_u64(j, o, "numa_miss", n->numa_miss);
	add_u64(j, o, "numa_foreign", n->numa_foreign);
	add_u64(j, o, "interleave_hit", n->interleave_hit);
	add_u64(j, o, "local_node", n->local_node);
	add_u64(j, o, "other_node", n->other_node);
}

/* "reclaim" of a cgroup or node (docs/json.md): null without the vmscan
 * program. */
static void add_reclaim(struct jb *j, cJSON *obj, bool have, const struct nl_vs_page_figs *d,
			const struct nl_vs_page_figs *t)
{
	struct nl_vs_summary sum;
	cJSON *o, *c;

	if (!have) {
		add_null(j, obj, "reclaim");
		return;
	}
	if (!(o = add_obj(j, obj, "reclaim")))
		return;
	nl_vmscan_figs_summarize(d, t, &sum);
	add_u64(j, o, "scanned_pages", sum.scanned);
	add_u64(j, o, "freed_pages", sum.freed);
	add_u64(j, o, "scanned_pages_total", sum.scanned_total);
	add_u64(j, o, "freed_pages_total", sum.freed_total);
	if ((c = add_obj(j, o, "freed_pages_by_context")))
		for (int x = 0; x < NL_VS_NR_CTX; x++)
			add_u64(j, c, nl_vmscan_figs_ctx_name(x), d[x].freed[0] + d[x].freed[1] + d[x].pageout_freed);
}

static void add_node(struct jb *j, cJSON *arr, const struct nl_node *n, const struct nl_snapshot *s)
{
	cJSON *o = cJSON_CreateObject(), *b, *z;

	if (!o || !cJSON_AddItemToArray(arr, o)) {
		cJSON_Delete(o);
		j->oom = true;
		return;
	}
	add_i64(j, o, "nid", n->nid);
	add_str(j, o, "cpus", n->cpulist);
	add_i64(j, o, "nr_cpus", n->nr_cpus);
	add_double(j, o, "cpu_busy_pct", n->cpu_busy_pct);
	add_u64(j, o, "mem_total_bytes", n->mem_total_bytes);
	add_u64(j, o, "mem_free_bytes", n->mem_free_bytes);
	add_u64(j, o, "mem_used_bytes", n->mem_used_bytes);
	add_numastat(j, o, "numastat", &n->numastat);
	add_numastat(j, o, "numastat_total", &n->numastat_total);
	add_u64(j, o, "numastat_unattributed", n->numastat_unattributed);
	if ((b = add_obj(j, o, "bpf"))) {
		add_u64(j, b, "events_local", n->bpf_events_local);
		add_u64(j, b, "events_other", n->bpf_events_other);
		add_u64(j, b, "events_from_remote", n->bpf_events_from_remote);
		add_u64(j, b, "events_hit", n->bpf_events_hit);
		add_u64(j, b, "events_miss", n->bpf_events_miss);
		add_u64(j, b, "events_foreign", n->bpf_events_foreign);
		add_u64(j, b, "pages", n->bpf_pages);
		if (s->nr_zones && (z = add_obj(j, b, "pages_by_zone")))
			for (int k = 0; k < s->nr_zones; k++)
				add_u64(j, z, s->zone_names[k], n->bpf_pages_by_zone[k]);
		add_u64(j, b, "run_ns", n->run_ns);
	}
	add_reclaim(j, o, s->src.vmscan, n->vmscan, n->vmscan_total);
}

static void add_locality(struct jb *j, cJSON *obj, const struct nl_figs *f)
{
	cJSON *o = add_obj(j, obj, "locality");

	if (!o)
		return;
	add_bool(j, o, "available", f->loc.available);
	if (f->loc.available)
		add_null(j, o, "unavailable_reason");
	else
		add_str(j, o, "unavailable_reason", nl_fmt_locality_why(j->s));
	add_u64_array(j, o, "buckets_ns", f->loc.bucket_ns, NL_LOC_BUCKETS);
	add_u64(j, o, "nofault_ns", f->loc.nofault_ns);
	if (f->loc.available)
		add_double(j, o, "mean", f->loc.mean);	/* NaN still becomes null */
	else
		add_null(j, o, "mean");
	add_u64_array(j, o, "buckets_ns_total", f->locality_ns_total, NL_LOC_BUCKETS);
}

/* A row's allocation figures, with their relative standard error at the
 * interval's sample period (0: counted exactly). */
static void add_alloc(struct jb *j, cJSON *obj, const struct nl_alloc_figs *a)
{
	uint32_t period = j->s->src.alloc_sample_period;
	cJSON *o = add_obj(j, obj, "alloc"), *c;
	double ratio, err;

	if (!o)
		return;
	err = nl_alloc_sample_error(period, (double)(a->events_local + a->events_remote + a->fail_events));
	if (err >= 0)
		add_double(j, o, "rel_error", err);
	else
		add_null(j, o, "rel_error");	/* sampled, none seen: no relative error */
	add_u64(j, o, "events_local", a->events_local);
	add_u64(j, o, "events_remote", a->events_remote);
	add_u64(j, o, "pages_local", a->pages_local);
	add_u64(j, o, "pages_remote", a->pages_remote);
	if (nl_fmt_remote_ratio(a, &ratio))
		add_double(j, o, "remote_ratio", ratio);
	else
		add_null(j, o, "remote_ratio");
	add_by_node(j, o, "pages_by_node", a->pages_by_node);
	if ((c = add_obj(j, o, "pages_by_class"))) {
		for (int i = 0; i < NL_NR_CLASSES; i++)
			add_u64(j, c, nl_fmt_class_name(i), a->pages_by_class[i]);
		add_u64(j, c, "unclassified", a->pages_unclassified);
	}
	add_u64(j, o, "fail_events", a->fail_events);
	add_u64(j, o, "events_hit", a->events_hit);
	add_u64(j, o, "events_miss", a->events_miss);
	add_u64(j, o, "events_local_total", a->events_local_total);
	add_u64(j, o, "events_remote_total", a->events_remote_total);
	add_u64(j, o, "pages_local_total", a->pages_local_total);
	add_u64(j, o, "pages_remote_total", a->pages_remote_total);
	add_u64(j, o, "fail_events_total", a->fail_events_total);
	add_u64(j, o, "events_hit_total", a->events_hit_total);
	add_u64(j, o, "events_miss_total", a->events_miss_total);
}

/* enum migrate_reason names (MR_*, stable order since v6.x); the last
 * slot collects any reason a newer kernel adds. */
static const char *const reason_names[NL_MIGRATE_REASONS] = {
	"compaction", "memory_failure", "memory_hotplug", "syscall", "mempolicy_mbind",
	"numa_misplaced", "contig_range", "longterm_pin", "demotion", "damon", "never", "other",
};

/* "by_reason": {"<reason>": {"ok": n, "fail": n}} for this interval,
 * reasons with no pages left out. */
static void add_by_reason(struct jb *j, cJSON *obj, const struct nl_migrate_figs *m)
{
	cJSON *o = add_obj(j, obj, "by_reason"), *r;

	if (!o)
		return;
	for (int i = 0; i < NL_MIGRATE_REASONS; i++) {
		if (!m->pages_ok_by_reason[i] && !m->pages_fail_by_reason[i])
			continue;
		if ((r = add_obj(j, o, reason_names[i]))) {
			add_u64(j, r, "ok", m->pages_ok_by_reason[i]);
			add_u64(j, r, "fail", m->pages_fail_by_reason[i]);
		}
	}
}

static void add_migrate(struct jb *j, cJSON *obj, const struct nl_migrate_figs *m)
{
	cJSON *o = add_obj(j, obj, "migrate");

	if (!o)
		return;
	add_u64(j, o, "move_numa", m->move_numa);
	add_u64(j, o, "swap_numa", m->swap_numa);
	add_u64(j, o, "stick_numa", m->stick_numa);
	add_u64(j, o, "pages_ok", m->pages_ok);
	add_u64(j, o, "pages_fail", m->pages_fail);
	add_u64(j, o, "numa_misplaced_ok", m->numa_misplaced_ok);
	add_u64(j, o, "numa_misplaced_fail", m->numa_misplaced_fail);
	add_u64(j, o, "move_numa_total", m->move_numa_total);
	add_u64(j, o, "swap_numa_total", m->swap_numa_total);
	add_u64(j, o, "stick_numa_total", m->stick_numa_total);
	add_u64(j, o, "pages_ok_total", m->pages_ok_total);
	add_u64(j, o, "pages_fail_total", m->pages_fail_total);
	add_u64(j, o, "numa_misplaced_ok_total", m->numa_misplaced_ok_total);
	add_u64(j, o, "numa_misplaced_fail_total", m->numa_misplaced_fail_total);
	add_by_reason(j, o, m);
}

/* The figures a process and a cgroup share, in docs/json.md order. */
static void add_figs(struct jb *j, cJSON *o, const struct nl_figs *f)
{
	add_double(j, o, "cpu_pct", f->cpu_pct);
	add_u64(j, o, "run_ns", f->run_ns);
	add_by_node(j, o, "run_ns_by_node", f->run_ns_by_node);
	add_u64(j, o, "run_ns_total", f->run_ns_total);
	add_by_node(j, o, "run_ns_total_by_node", f->run_ns_total_by_node);
}

static cJSON *new_row(struct jb *j, cJSON *arr)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddItemToArray(arr, o)) {
		cJSON_Delete(o);
		j->oom = true;
		return NULL;
	}
	return o;
}

/* The opt-in allocation latency (top --alloc-latency): its sampling, its
 * cost when the kernel counts BPF run times, and one log2 histogram per
 * (place, class), all nine always listed. */
static void add_alloc_latency(struct jb *j, cJSON *root, const struct nl_alloc_latency *l)
{
	static const char *const places[NL_LAT_NR_PLACES] = { "local", "remote", "failed" };
	static const char *const classes[NL_LAT_NR_CLASSES] = { "kernel", "reclaimable", "movable" };
	cJSON *o = add_obj(j, root, "alloc_latency"), *arr, *h;

	if (!o)
		return;
	add_bool(j, o, "available", l->available);
	if (l->available) {
		add_null(j, o, "unavailable_reason");
		add_str(j, o, "hook", l->hook);
	} else {
		add_str(j, o, "unavailable_reason", l->unavailable);
		add_null(j, o, "hook");
	}
	add_u64(j, o, "sample_every", l->sample_every);
	add_u64(j, o, "calls", l->calls);
	add_u64(j, o, "sampled", l->sampled);
	add_u64(j, o, "lost", l->lost);
	if (l->prog_runs && l->calls)
		add_double(j, o, "bpf_ns_per_call", (double)l->prog_run_ns / (double)l->calls);
	else
		add_null(j, o, "bpf_ns_per_call");
	if (!(arr = add_arr(j, o, "hists")))
		return;
	for (int p = 0; p < NL_LAT_NR_PLACES; p++)
		for (int c = 0; c < NL_LAT_NR_CLASSES; c++) {
			int k = p * NL_LAT_NR_CLASSES + c;
			uint64_t n = 0;

			if (!(h = new_row(j, arr)))
				return;
			for (int b = 0; b < NL_LAT_BUCKETS; b++)
				n += l->hist[k][b];
			add_str(j, h, "place", places[p]);
			add_str(j, h, "class", classes[c]);
			add_u64(j, h, "count", n);
			add_u64(j, h, "sum_ns", l->sum_ns[k]);
			add_u64_array(j, h, "buckets", l->hist[k], NL_LAT_BUCKETS);
		}
}

/* The opt-in miss and remote attribution (top --alloc-stacks): totals
 * since start, and the top sites with their named frames. */
static void add_alloc_stacks(struct jb *j, cJSON *root, const struct nl_alloc_stacks *a)
{
	cJSON *o = add_obj(j, root, "alloc_stacks"), *arr, *site, *fr;

	if (!o)
		return;
	add_bool(j, o, "available", a->available);
	if (a->available)
		add_null(j, o, "unavailable_reason");
	else
		add_str(j, o, "unavailable_reason", a->unavailable);
	add_u64(j, o, "sample_every", a->sample_every);
	add_u64(j, o, "allocations", a->allocs);
	add_u64(j, o, "remote", a->seen_remote);
	add_u64(j, o, "miss", a->seen_miss);
	add_u64(j, o, "sampled", a->sampled);
	add_u64(j, o, "lost_no_stack", a->no_stack);
	add_u64(j, o, "lost_keys_full", a->keys_full);
	add_u64(j, o, "sites", (uint64_t)a->nr_keys);
	if (a->prog_runs && a->allocs)
		add_double(j, o, "bpf_ns_per_allocation", (double)a->prog_run_ns / (double)a->prog_runs);
	else
		add_null(j, o, "bpf_ns_per_allocation");
	if (!(arr = add_arr(j, o, "top")))
		return;
	for (int i = 0; i < a->nr; i++) {
		const struct nl_alloc_site *s = &a->top[i];

		if (!(site = new_row(j, arr)))
			return;
		add_u64(j, site, "events", s->events);
		add_u64(j, site, "pages", s->pages);
		add_double(j, site, "share", a->sampled ? (double)s->events / (double)a->sampled : 0.0);
		add_bool(j, site, "remote", s->kind & NL_STK_REMOTE);
		add_bool(j, site, "miss", s->kind & NL_STK_MISS);
		add_str(j, site, "class", nl_fmt_class_name(s->class));
		add_u64(j, site, "order", s->order);
		add_bool(j, site, "thp", s->thp);
		add_u64(j, site, "gfp", s->gfp);
		add_str(j, site, "gfp_flags", s->gfp_names);
		if (!(fr = add_arr(j, site, "frames")))
			return;
		for (int f = 0; f < s->nr_frames; f++) {
			cJSON *v = cJSON_CreateString(s->frames[f]);

			if (!v || !cJSON_AddItemToArray(fr, v)) {
				cJSON_Delete(v);
				j->oom = true;
				return;
			}
		}
	}
}

/* The opt-in page lifetime (top --page-lifetime): its sampling, its cost
 * when the kernel counts BPF run times, and one log2 histogram per
 * (place, class), all eight always listed. */
static void add_page_lifetime(struct jb *j, cJSON *root, const struct nl_page_lifetime *l)
{
	static const char *const places[NL_LIFE_NR_PLACES] = { "local", "remote" };
	static const char *const classes[NL_LIFE_NR_CLASSES] = {
		"kernel", "reclaimable", "movable", "thp",
	};
	cJSON *o = add_obj(j, root, "page_lifetime"), *arr, *h;

	if (!o)
		return;
	add_bool(j, o, "available", l->available);
	if (l->available)
		add_null(j, o, "unavailable_reason");
	else
		add_str(j, o, "unavailable_reason", l->unavailable);
	add_u64(j, o, "sample_every", l->sample_every);
	add_u64(j, o, "allocations", l->allocs);
	add_u64(j, o, "sampled", l->sampled);
	add_u64(j, o, "not_kept", l->not_kept);
	add_u64(j, o, "freed", l->freed);
	if (l->prog_runs)
		add_double(j, o, "bpf_ns_per_run", (double)l->prog_run_ns / (double)l->prog_runs);
	else
		add_null(j, o, "bpf_ns_per_run");
	if (!(arr = add_arr(j, o, "hists")))
		return;
	for (int p = 0; p < NL_LIFE_NR_PLACES; p++)
		for (int c = 0; c < NL_LIFE_NR_CLASSES; c++) {
			int k = p * NL_LIFE_NR_CLASSES + c;
			uint64_t n = 0;

			if (!(h = new_row(j, arr)))
				return;
			for (int b = 0; b < NL_LIFE_BUCKETS; b++)
				n += l->hist[k][b];
			add_str(j, h, "place", places[p]);
			add_str(j, h, "class", classes[c]);
			add_u64(j, h, "count", n);
			add_u64(j, h, "sum_ns", l->sum_ns[k]);
			add_u64_array(j, h, "buckets", l->hist[k], NL_LIFE_BUCKETS);
		}
}

static void add_proc(struct jb *j, cJSON *arr, const struct nl_proc *p)
{
	cJSON *o = new_row(j, arr);

	if (!o)
		return;
	add_i64(j, o, "pid", p->pid);
	add_str(j, o, "comm", p->comm);
	add_str(j, o, "cgroup", p->cgroup_path);
	add_bool(j, o, "alive", p->alive);
	add_figs(j, o, &p->f);
	if (p->rss_known)
		add_by_node(j, o, "rss_pages_by_node", p->rss_pages_by_node);
	else
		add_null(j, o, "rss_pages_by_node");
	/* from the same numa_maps read: null where it was not read or had no
	 * mapping (a kernel thread), mempolicy_vma null when every mapping
	 * follows the task's policy */
	if (p->rss_known && p->mempolicy.task[0])
		add_str(j, o, "mempolicy", p->mempolicy.task);
	else
		add_null(j, o, "mempolicy");
	if (p->rss_known && p->mempolicy.vma[0])
		add_str(j, o, "mempolicy_vma", p->mempolicy.vma);
	else
		add_null(j, o, "mempolicy_vma");
	add_locality(j, o, &p->f);
	add_alloc(j, o, &p->f.alloc);
	add_migrate(j, o, &p->f.mig);
}

/* add_str, or null for an empty @v. */
static void add_str_or_null(struct jb *j, cJSON *obj, const char *key, const char *v)
{
	if (v && v[0])
		add_str(j, obj, key, v);
	else
		add_null(j, obj, key);
}

/* What a cgroup's path names (docs/json.md): whole ids, the runtime and
 * the short form top's tree shows; null where it names none. */
static void add_ident(struct jb *j, cJSON *o, const struct nl_cg_ident *id)
{
	char sh[NL_UNIT_NAME_MAX];

	nl_cgident_short(id, sh, sizeof(sh));
	add_str_or_null(j, o, "pod_uid", id->pod_uid);
	add_str_or_null(j, o, "container_id", id->container_id);
	add_str_or_null(j, o, "container_runtime", nl_cgident_ctr_runtime_name(id->runtime));
	add_str_or_null(j, o, "systemd_unit", id->unit);
	add_str_or_null(j, o, "short_name", sh);
}

static void add_cgroup(struct jb *j, cJSON *arr, const struct nl_cgroup *c,
		       const struct nl_vmscan_figs *v)
{
	cJSON *o = new_row(j, arr), *ns;

	if (!o)
		return;
	add_u64(j, o, "id", c->id);
	add_u64(j, o, "parent_id", c->parent_id);
	add_str(j, o, "path", c->path);
	add_i64(j, o, "depth", c->depth);
	add_bool(j, o, "removed", c->removed);
	add_ident(j, o, &c->ident);
	add_figs(j, o, &c->f);
	add_locality(j, o, &c->f);
	add_alloc(j, o, &c->f.alloc);
	add_migrate(j, o, &c->f.mig);
	if (!c->numa_stat_known) {
		add_null(j, o, "numa_stat");
	} else if ((ns = add_obj(j, o, "numa_stat"))) {
		add_by_node(j, ns, "anon_bytes_by_node", c->anon_bytes_by_node);
		add_by_node(j, ns, "file_bytes_by_node", c->file_bytes_by_node);
	}
	add_reclaim(j, o, v != NULL, v ? v->pages : NULL, v ? v->pages_total : NULL);
	{
		cJSON *ra = nl_agent_json(j->s, c);

		if (!ra || !cJSON_AddItemToObject(o, "reclaim_agent", ra))
			j->oom = true;
	}
}

static void add_self(struct jb *j, cJSON *root, const struct nl_self *self)
{
	cJSON *o = add_obj(j, root, "self"), *d, *progs;

	if (!o)
		return;
	if ((d = add_obj(j, o, "drops")))
		for (int i = 0; i < NL_NR_DROPS; i++)
			add_u64(j, d, nl_snapshot_drop_name(i), self->drops[i]);
	add_u64(j, o, "procs_evicted", self->procs_evicted);
	add_u64(j, o, "cgroups_evicted", self->cgroups_evicted);
	add_u64(j, o, "numa_maps_read", self->numa_maps_read);
	add_u64(j, o, "numa_maps_reused", self->numa_maps_reused);
	add_bool(j, o, "bpf_stats_enabled", self->bpf_stats_enabled);
	if ((progs = add_arr(j, o, "progs"))) {
		int n = self->nr_progs;

		if (n > (int)(sizeof(self->progs) / sizeof(self->progs[0])))
			n = sizeof(self->progs) / sizeof(self->progs[0]);
		for (int i = 0; i < n; i++) {
			cJSON *p = new_row(j, progs);

			if (!p)
				break;
			add_str(j, p, "name", self->progs[i].name);
			add_u64(j, p, "run_cnt_total", self->progs[i].run_cnt);
			add_u64(j, p, "run_time_ns_total", self->progs[i].run_time_ns);
		}
	}
}

/* What is measured in this session, and how the machine is set up. */
static void add_sources(struct jb *j, cJSON *root, const struct nl_snapshot *s)
{
	cJSON *src, *arr;

	if (!(src = add_obj(j, root, "sources")))
		return;
	add_bool(j, src, "sched", s->src.sched);
	add_bool(j, src, "alloc", s->src.alloc);
	add_bool(j, src, "alloc_class", s->src.alloc_class);
	add_bool(j, src, "migrate", s->src.migrate);
	add_bool(j, src, "numa_balancing", s->src.numa_balancing);
	add_bool(j, src, "vm_numa_stat", s->src.vm_numa_stat);
	add_bool(j, src, "sched_ext", s->src.sched_ext);
	add_u64(j, src, "alloc_sample_period", s->src.alloc_sample_period ? s->src.alloc_sample_period : 1);
	add_str(j, src, "cgroup_mode",
		s->src.cgroup_mode == NL_CG_V1_MEMORY ? "v1-memory" : "v2");
	add_str(j, src, "cgroup_root", s->src.cgroup_root);
	add_str(j, src, "missing", s->src.missing);
	add_bool(j, src, "vmscan", s->src.vmscan);
	add_bool(j, src, "vmscan_memcg_arg", s->src.vmscan_memcg_arg);
	add_bool(j, src, "mglru", s->src.mglru);
	if ((arr = add_obj(j, src, "sysctl"))) {
		add_i64(j, arr, "kernel.numa_balancing", s->src.sysctl_numa_balancing);
		add_i64(j, arr, "vm.numa_stat", s->src.sysctl_numa_stat);
		add_i64(j, arr, "vm.zone_reclaim_mode", s->src.sysctl_zone_reclaim_mode);
	}
}

/* The process and cgroup rows, sorted, filtered and cut to top-N as @o
 * says. Returns 0, or -1 when out of memory. */
static int add_rows(struct jb *j, cJSON *root, const struct nl_snapshot *s,
		    const struct nl_view_opts *o)
{
	int *idx, n, cap = s->nr_procs > s->nr_cgroups ? s->nr_procs : s->nr_cgroups;
	cJSON *arr;

	idx = malloc((cap ? cap : 1) * sizeof(*idx));
	if (!idx)
		return -1;
	if ((arr = add_arr(j, root, "processes"))) {
		n = nl_sort_procs(s, o->sort, &o->filter, idx);
		if (n < 0)
			goto fail;
		if (o->top_n > 0 && o->top_n < n)
			n = o->top_n;
		for (int k = 0; k < n; k++)
			add_proc(j, arr, &s->procs[idx[k]]);
	}
	if ((arr = add_arr(j, root, "cgroups"))) {
		n = nl_sort_cgroups(s, o->sort, &o->filter, true, idx);
		if (n < 0)
			goto fail;
		if (o->top_n > 0 && o->top_n < n)
			n = o->top_n;
		for (int k = 0; k < n; k++)
			add_cgroup(j, arr, &s->cgroups[idx[k]], nl_vmscan_figs_cgroup(s, &s->cgroups[idx[k]]));
	}
	free(idx);
	return 0;
fail:
	free(idx);
	return -1;
}

cJSON *nl_json_build(const struct nl_snapshot *s, const struct nl_view_opts *o)
{
	struct jb j = { .s = s };
	struct nl_view_opts def;
	cJSON *root, *src, *arr;

	if (!s)
		return NULL;
	if (!o) {
		nl_view_opts_default(&def);
		o = &def;
	}
	root = cJSON_CreateObject();
	if (!root)
		return NULL;
	add_u64(&j, root, "seq", s->seq);
	add_u64(&j, root, "timestamp_ns", s->timestamp_ns);
	add_u64(&j, root, "interval_ns", s->interval_ns);
	add_str(&j, root, "kernel", s->kernel);
	add_i64(&j, root, "page_size", s->page_size);
	add_sources(&j, root, s);
	if ((arr = add_arr(&j, root, "nodes")))
		for (int i = 0; i < s->nr_nodes; i++)
			add_node(&j, arr, &s->nodes[i], s);
	if (s->nr_zones && (src = add_obj(&j, root, "pgalloc")))
		for (int k = 0; k < s->nr_zones; k++)
			add_u64(&j, src, s->zone_names[k], s->pgalloc[k]);
	if (s->alloc_lat.enabled)
		add_alloc_latency(&j, root, &s->alloc_lat);
	if (s->alloc_stacks.enabled)
		add_alloc_stacks(&j, root, &s->alloc_stacks);
	if (s->page_life.enabled)
		add_page_lifetime(&j, root, &s->page_life);
	if (add_rows(&j, root, s, o))
		goto fail;
	add_self(&j, root, &s->self);
	/* tasks outside our pid namespace: null when numalens sees them all */
	if (!s->in_child_pidns) {
		if (!cJSON_AddNullToObject(root, "other_pid_namespaces"))
			j.oom = true;
	} else if ((src = add_obj(&j, root, "other_pid_namespaces"))) {
		add_figs(&j, src, &s->other_pidns);
		add_alloc(&j, src, &s->other_pidns.alloc);
	}
	if (j.oom)
		goto fail;
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

char *nl_json_render(const struct nl_snapshot *s, const struct nl_view_opts *o)
{
	cJSON *root = nl_json_build(s, o);
	char *txt;

	if (!root)
		return NULL;
	txt = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return txt;
}

int nl_json_write(FILE *out, const struct nl_snapshot *s, const struct nl_view_opts *o)
{
	char *txt;
	int err = 0;

	if (!out || !s)
		return -EINVAL;
	txt = nl_json_render(s, o);
	if (!txt)
		return -ENOMEM;
	/* the string has no newline inside: PrintUnformatted escapes them */
	if (fputs(txt, out) == EOF || fputc('\n', out) == EOF || fflush(out))
		err = errno ? -errno : -EIO;
	free(txt);
	return err;
}
