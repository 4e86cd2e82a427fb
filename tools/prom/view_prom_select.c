// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which rows `numalens export` exports: the cgroups the depth, patterns and
 * cap select (never two with one path), and the busiest processes; each
 * row's escaped label set is built here once per render.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "prom_write.h"
#include "view_prom_select.h"

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

void nl_prom_select_free(struct nl_prom_rows *r)
{
	free(r->f);
	free(r->cg);
	free(r->off);
	free(r->len);
	nl_buf_free(&r->lab);
}

static int rows_alloc(struct nl_prom_rows *r, int cap, bool cgroups)
{
	size_t c = cap > 0 ? (size_t)cap : 1;

	r->f = calloc(c, sizeof(*r->f));
	r->off = calloc(c, sizeof(*r->off));
	r->len = calloc(c, sizeof(*r->len));
	r->cg = cgroups ? calloc(c, sizeof(*r->cg)) : NULL;
	return r->f && r->off && r->len && (!cgroups || r->cg) ? 0 : -ENOMEM;
}

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

int nl_prom_select_cgroups(struct nl_prom_rows *r, const struct nl_snapshot *s,
			   const struct nl_prom_opts *o, int *omitted)
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

int nl_prom_select_procs(struct nl_prom_rows *r, const struct nl_snapshot *s, int k)
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
