// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The `numalens vmscan` report; see view_vmscan.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "names.h"
#include "vmscan_figs.h"
#include "view_sort.h"
#include "view_vmscan.h"

static void field(struct nl_vs_field *f, int *n, const char *what, const char *ctx, uint64_t v)
{
	snprintf(f[*n].name, sizeof(f[*n].name), "%s_by_%s", what, ctx);
	f[*n].v = v;
	(*n)++;
}

int nl_vmscan_fields(int ctx, const struct nl_vs_page_figs *p, const struct nl_vs_time_figs *t,
		 struct nl_vs_field out[NL_VS_MAX_FIELDS])
{
	const char *c = nl_vmscan_figs_ctx_name(ctx);
	int n = 0;

	if (!c)
		return 0;
	field(out, &n, "scanned_pages", c, p->scanned[0] + p->scanned[1]);
	field(out, &n, "scanned_anon_pages", c, p->scanned[0]);
	field(out, &n, "scanned_file_pages", c, p->scanned[1]);
	field(out, &n, "rotated_pages", c, p->rotated[0] + p->rotated[1]);
	field(out, &n, "rotated_anon_pages", c, p->rotated[0]);
	field(out, &n, "rotated_file_pages", c, p->rotated[1]);
	field(out, &n, "freed_pages", c, p->freed[0] + p->freed[1]);
	field(out, &n, "freed_anon_pages", c, p->freed[0]);
	field(out, &n, "freed_file_pages", c, p->freed[1]);
	if (t)
		field(out, &n, "elapsed_ns", c, t->elapsed_ns);
	field(out, &n, "refill_anon_pages", c, p->refill[0]);
	field(out, &n, "refill_file_pages", c, p->refill[1]);
	field(out, &n, "pageout_scanned_pages", c, p->pageout_scanned);
	field(out, &n, "pageout_rotated_pages", c, p->pageout_rotated);
	field(out, &n, "pageout_freed_pages", c, p->pageout_freed);
	if (t) {
		field(out, &n, "episodes", c, t->episodes);
		field(out, &n, "throttled", c, t->throttled);
		field(out, &n, "throttled_ns", c, t->throttled_ns);
	}
	return n;
}

static bool no_filter(const struct nl_vs_view_opts *o)
{
	return !o->cgroup || !o->cgroup[0];
}

static bool wanted(const struct nl_cgroup *g, const struct nl_vs_view_opts *o)
{
	return no_filter(o) || nl_sort_cgroup_under(nl_cgroup_full_path(g), o->cgroup);
}

static bool ctx_active(const struct nl_vs_page_figs *p, const struct nl_vs_time_figs *t)
{
	return p->scanned[0] || p->scanned[1] || p->pageout_scanned || p->rotated[0] ||
	       p->rotated[1] || (t && (t->episodes || t->throttled));
}

static bool cg_active(const struct nl_vmscan_figs *v)
{
	for (int x = 0; x < NL_VS_NR_CTX; x++)
		if (ctx_active(&v->pages_total[x], &v->time_total[x]))
			return true;
	return false;
}

static void pr_ratio(FILE *out, const char *name, double v, const char *fmt)
{
	fprintf(out, " %s=", name);
	if (isnan(v))
		fputs("n/a", out);
	else
		fprintf(out, fmt, v);
}

static void text_ratios(FILE *out, int x, const struct nl_vs_page_figs *p,
			const struct nl_vs_time_figs *t, uint64_t wall_ns)
{
	struct nl_vs_ratios r;

	nl_vmscan_figs_ratios(p, t, wall_ns, &r);
	fprintf(out, "  ratios_by_%s", nl_vmscan_figs_ctx_name(x));
	pr_ratio(out, "freed/scanned", r.freed_per_scanned, "%.3f");
	pr_ratio(out, "rotated/scanned", r.rotated_per_scanned, "%.3f");
	pr_ratio(out, "rotated/scanned_anon", r.rotated_per_scanned_type[0], "%.3f");
	pr_ratio(out, "rotated/scanned_file", r.rotated_per_scanned_type[1], "%.3f");
	pr_ratio(out, "anon_share_of_scanned", r.anon_share_scanned, "%.3f");
	pr_ratio(out, "ns/scanned", r.ns_per_scanned, "%.0f");
	pr_ratio(out, "ns/freed", r.ns_per_freed, "%.0f");
	pr_ratio(out, "reclaim_time_share", r.reclaim_time_share, "%.3f");
	fputc('\n', out);
}

static void text_cgroup(FILE *out, const struct nl_snapshot *s, const struct nl_cgroup *g,
			const struct nl_vs_view_opts *o, uint64_t wall_ns)
{
	const struct nl_vmscan_figs *v = nl_vmscan_figs_cgroup(s, g);

	fprintf(out, "cgroup %s%s\n", g->path, g->removed ? " (removed)" : "");
	for (int x = 0; x < NL_VS_NR_CTX; x++) {
		struct nl_vs_field f[NL_VS_MAX_FIELDS], nf[NL_VS_MAX_FIELDS];
		int n;

		if (!o->all && !ctx_active(&v->pages_total[x], &v->time_total[x]))
			continue;
		n = nl_vmscan_fields(x, &v->pages_total[x], &v->time_total[x], f);
		for (int i = 0; i < n; i++) {
			fprintf(out, "  %-32s %" PRIu64, f[i].name, f[i].v);
			if (strncmp(f[i].name, "elapsed", 7) && strncmp(f[i].name, "episodes", 8) &&
			    strncmp(f[i].name, "throttled", 9)) {
				/* per-node breakdown, memory.numa_stat style */
				for (int k = 0; k < s->nr_nodes; k++) {
					int nid = s->nodes[k].nid;

					if (nid < 0 || nid >= NL_MAX_NODES)
						continue;
					nl_vmscan_fields(x, &nl_vs_node(v, nid)->total[x], NULL, nf);
					for (int j = 0; j < NL_VS_MAX_FIELDS; j++)
						if (!strcmp(nf[j].name, f[i].name)) {
							fprintf(out, " N%d=%" PRIu64, nid, nf[j].v);
							break;
						}
				}
			}
			fputc('\n', out);
		}
		text_ratios(out, x, &v->pages_total[x], &v->time_total[x], wall_ns);
	}
}

/* Whether the snapshot lists the filter's cgroup (or there is no filter). */
static bool listed(const struct nl_snapshot *s, const struct nl_vs_view_opts *o)
{
	for (int i = 0; i < s->nr_cgroups; i++)
		if (wanted(&s->cgroups[i], o))
			return true;
	return no_filter(o);
}

int nl_vmscan_text_write(FILE *out, const struct nl_snapshot *s, const struct nl_vs_view_opts *o)
{
	int shown = 0;

	fprintf(out, "numalens vmscan: report %" PRIu64 ", interval %.2f s; figures are totals since start; kernel %s; memcg of limit reclaim: %s\n",
		s->seq, (double)s->interval_ns / 1e9, s->kernel,
		s->src.vmscan_memcg_arg ? "named by the kernel" : "the reclaiming task's cgroup");
	if (!s->src.vmscan) {
		char missing[sizeof(s->src.missing)];

		nl_snapshot_missing_without(missing, sizeof(missing), s->src.missing, "locality:");
		fprintf(out, "reclaim figures unavailable: %s\n", missing);
		return fflush(out) ? -errno : 0;
	}
	for (int i = 0; i < s->nr_cgroups; i++) {
		const struct nl_cgroup *g = &s->cgroups[i];

		if (!wanted(g, o) || !(o->all || (g->vmscan && cg_active(g->vmscan))))
			continue;
		text_cgroup(out, s, g, o, o->wall_ns);
		shown++;
	}
	/* -c is the user's text, echoed: cleaned like any cgroup name so a
	 * path holding escape sequences cannot drive the terminal */
	char asked[512] = "";

	if (o->cgroup)
		nl_name_clean(asked, sizeof(asked), o->cgroup, strlen(o->cgroup), 0, NULL);
	if (!shown && !listed(s, o))
		fprintf(out, "cgroup %s is not in the hierarchy (not created yet, or removed longer ago than "
			"the grace interval): its reclaim stays counted in its parent\n", asked);
	else if (!shown)
		fprintf(out, "no reclaim%s%s since start\n", asked[0] ? " in " : "", asked);
	int host_told = 0;

	for (int k = 0; k < s->nr_nodes; k++) {
		const struct nl_node *n = &s->nodes[k];

		for (int x = 0; x < NL_VS_NR_CTX; x++) {
			const struct nl_vs_page_figs *p = &n->vmscan_total[x];

			if (!o->all && !ctx_active(p, NULL))
				continue;
			/* under -c the node lines are still the whole host's: say so
			 * (-c / is the whole host already) */
			if (o->cgroup && o->cgroup[0] && strcmp(o->cgroup, "/") && !host_told++)
				fprintf(out, "whole host, every cgroup (not only %s):\n", asked);
			fprintf(out, "node %d %-9s scanned %" PRIu64 " (anon %" PRIu64 " file %" PRIu64
				     ") rotated %" PRIu64 " freed %" PRIu64 " (anon %" PRIu64 " file %" PRIu64 ")",
				n->nid, nl_vmscan_figs_ctx_name(x), p->scanned[0] + p->scanned[1], p->scanned[0],
				p->scanned[1], p->rotated[0] + p->rotated[1], p->freed[0] + p->freed[1],
				p->freed[0], p->freed[1]);
			/* MADV_PAGEOUT/DAMON pages have no anon/file split: apart */
			if (p->pageout_scanned || p->pageout_freed)
				fprintf(out, " pageout scanned %" PRIu64 " rotated %" PRIu64 " freed %" PRIu64,
					p->pageout_scanned, p->pageout_rotated, p->pageout_freed);
			fputc('\n', out);
		}
	}
	fputc('\n', out);
	errno = 0;	/* the flush's own errno, not a stale one */
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- JSON ------------------------------------------------------------------ */

static bool add_u64(cJSON *o, const char *k, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return cJSON_AddRawToObject(o, k, buf) != NULL;
}

static bool add_num(cJSON *o, const char *k, double v)
{
	if (isnan(v))
		return cJSON_AddNullToObject(o, k) != NULL;
	return cJSON_AddNumberToObject(o, k, v) != NULL;
}

/* All contexts' fields of @p/@t into @o. */
static bool add_fields(cJSON *o, const struct nl_vs_page_figs p[NL_VS_NR_CTX],
		       const struct nl_vs_time_figs *t)
{
	for (int x = 0; x < NL_VS_NR_CTX; x++) {
		struct nl_vs_field f[NL_VS_MAX_FIELDS];
		int n = nl_vmscan_fields(x, &p[x], t ? &t[x] : NULL, f);

		for (int i = 0; i < n; i++)
			if (!add_u64(o, f[i].name, f[i].v))
				return false;
	}
	return true;
}

static bool add_extras(cJSON *o, const struct nl_vs_page_figs p[NL_VS_NR_CTX],
		       const struct nl_vs_time_figs t[NL_VS_NR_CTX], uint64_t wall_ns)
{
	char k[64];

	for (int x = 0; x < NL_VS_NR_CTX; x++) {
		struct nl_vs_ratios r;
		cJSON *h, *ro;

		snprintf(k, sizeof(k), "latency_log2_ns_by_%s", nl_vmscan_figs_ctx_name(x));
		h = cJSON_AddArrayToObject(o, k);
		if (!h)
			return false;
		for (int b = 0; b < NL_VS_HIST; b++) {
			char buf[24];

			snprintf(buf, sizeof(buf), "%" PRIu64, t[x].hist[b]);
			cJSON_AddItemToArray(h, cJSON_CreateRaw(buf));
		}
		nl_vmscan_figs_ratios(&p[x], &t[x], wall_ns, &r);
		snprintf(k, sizeof(k), "ratios_by_%s", nl_vmscan_figs_ctx_name(x));
		ro = cJSON_AddObjectToObject(o, k);
		if (!ro)
			return false;
		add_num(ro, "freed_per_scanned", r.freed_per_scanned);
		add_num(ro, "rotated_per_scanned", r.rotated_per_scanned);
		add_num(ro, "rotated_per_scanned_anon", r.rotated_per_scanned_type[0]);
		add_num(ro, "rotated_per_scanned_file", r.rotated_per_scanned_type[1]);
		add_num(ro, "freed_per_scanned_anon", r.freed_per_scanned_type[0]);
		add_num(ro, "freed_per_scanned_file", r.freed_per_scanned_type[1]);
		add_num(ro, "anon_share_of_scanned", r.anon_share_scanned);
		add_num(ro, "ns_per_scanned", r.ns_per_scanned);
		add_num(ro, "ns_per_freed", r.ns_per_freed);
		add_num(ro, "reclaim_time_share", r.reclaim_time_share);
	}
	return true;
}

static cJSON *json_cgroup(const struct nl_snapshot *s, const struct nl_cgroup *g, uint64_t wall_ns)
{
	const struct nl_vmscan_figs *v = nl_vmscan_figs_cgroup(s, g);
	cJSON *o = cJSON_CreateObject(), *nodes, *iv;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "path", g->path);
	add_u64(o, "id", g->id);
	cJSON_AddBoolToObject(o, "removed", g->removed);
	add_fields(o, v->pages_total, v->time_total);
	add_extras(o, v->pages_total, v->time_total, wall_ns);
	nodes = cJSON_AddArrayToObject(o, "nodes");
	for (int k = 0; nodes && k < s->nr_nodes; k++) {
		int nid = s->nodes[k].nid;
		cJSON *n;
		struct nl_vs_page_figs p[NL_VS_NR_CTX];

		if (nid < 0 || nid >= NL_MAX_NODES)
			continue;
		n = cJSON_CreateObject();
		if (!n)
			break;
		cJSON_AddNumberToObject(n, "nid", nid);
		for (int x = 0; x < NL_VS_NR_CTX; x++)
			p[x] = nl_vs_node(v, nid)->total[x];
		add_fields(n, p, NULL);
		cJSON_AddItemToArray(nodes, n);
	}
	iv = cJSON_AddObjectToObject(o, "interval");
	if (iv) {
		add_fields(iv, v->pages, v->time);
		add_extras(iv, v->pages, v->time, s->interval_ns);
	}
	return o;
}

cJSON *nl_vmscan_json_build(const struct nl_snapshot *s, const struct nl_vs_view_opts *o)
{
	cJSON *root = cJSON_CreateObject(), *cgs, *nodes;
	char missing[sizeof(s->src.missing)];

	if (!root)
		return NULL;
	add_u64(root, "seq", s->seq);
	add_u64(root, "timestamp_ns", s->timestamp_ns);
	add_u64(root, "interval_ns", s->interval_ns);
	add_u64(root, "wall_ns", o->wall_ns);
	add_u64(root, "page_size", (uint64_t)s->page_size);
	cJSON_AddStringToObject(root, "kernel", s->kernel);
	cJSON_AddBoolToObject(root, "available", s->src.vmscan);
	cJSON_AddStringToObject(root, "memcg_attribution",
				s->src.vmscan_memcg_arg ? "kernel" : "reclaiming_task");
	/* locality is not a vmscan figure: its entries would only mislead */
	nl_snapshot_missing_without(missing, sizeof(missing), s->src.missing, "locality:");
	cJSON_AddStringToObject(root, "missing", missing);
	cgs = cJSON_AddArrayToObject(root, "cgroups");
	for (int i = 0; cgs && s->src.vmscan && i < s->nr_cgroups; i++) {
		const struct nl_cgroup *g = &s->cgroups[i];
		cJSON *c;

		if (!wanted(g, o) || !(o->all || (g->vmscan && cg_active(g->vmscan))))
			continue;
		c = json_cgroup(s, g, o->wall_ns);
		if (!c) {
			cJSON_Delete(root);
			return NULL;
		}
		cJSON_AddItemToArray(cgs, c);
	}
	nodes = cJSON_AddArrayToObject(root, "nodes");
	for (int k = 0; nodes && k < s->nr_nodes; k++) {
		cJSON *n = cJSON_CreateObject(), *iv;

		if (!n)
			break;
		cJSON_AddNumberToObject(n, "nid", s->nodes[k].nid);
		add_fields(n, s->nodes[k].vmscan_total, NULL);
		iv = cJSON_AddObjectToObject(n, "interval");
		if (iv)
			add_fields(iv, s->nodes[k].vmscan, NULL);
		cJSON_AddItemToArray(nodes, n);
	}
	return root;
}

int nl_vmscan_json_write(FILE *out, const struct nl_snapshot *s, const struct nl_vs_view_opts *o)
{
	cJSON *j = nl_vmscan_json_build(s, o);
	char *txt;
	int e = 0;

	if (!j)
		return -ENOMEM;
	txt = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	if (!txt)
		return -ENOMEM;
	if (fputs(txt, out) < 0 || fputc('\n', out) < 0 || fflush(out))
		e = errno ? -errno : -EIO;
	free(txt);
	return e;
}
