// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "view_fmt.h"

double nl_fmt_rate(uint64_t delta, uint64_t interval_ns)
{
	if (!interval_ns)
		return 0;
	return (double)delta * 1e9 / (double)interval_ns;
}

bool nl_fmt_remote_ratio(const struct nl_alloc_figs *a, double *out)
{
	uint64_t all = a->pages_local + a->pages_remote;

	if (!all)
		return false;
	*out = (double)a->pages_remote / (double)all;
	return true;
}

double nl_fmt_pct(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0;
}

uint64_t nl_fmt_sum_nodes(const uint64_t *v, int nr_nodes)
{
	uint64_t sum = 0;

	for (int i = 0; i < nr_nodes && i < NL_MAX_NODES; i++)
		sum += v[i];
	return sum;
}

bool nl_fmt_proc_rss_pages(const struct nl_proc *p, int nr_nodes, uint64_t *out)
{
	if (!p->rss_known)
		return false;
	*out = nl_fmt_sum_nodes(p->rss_pages_by_node, nr_nodes);
	return true;
}

uint64_t nl_fmt_migrated_pages(const struct nl_figs *f)
{
	return f->mig.pages_ok + f->mig.pages_fail;
}

bool nl_fmt_locality_source_ok(const struct nl_snapshot *s)
{
	return s->src.numa_balancing && s->src.sched;
}

const char *nl_fmt_locality_why(const struct nl_snapshot *s)
{
	if (!s->src.sched)
		return "no_sched_program";
	if (!s->src.numa_balancing)
		return "numa_balancing_off";
	return s->src.sched_ext ? "sched_ext" : "no_faults";
}

const char *nl_fmt_locality(char *buf, size_t sz, const struct nl_locality *l,
			    bool source_ok)
{
	if (!l->available || !isfinite(l->mean))
		snprintf(buf, sz, "%s", source_ok ? "n/a" : "unavail");
	else
		snprintf(buf, sz, "%.1f%%", l->mean * 100.0);
	return buf;
}

const char *nl_fmt_locbar(char *buf, size_t sz, const struct nl_locality *l,
			  bool source_ok)
{
	static const char scale[] = " .:-=+*#@";	/* 9 levels: 0 .. 8 eighths */
	uint64_t sum = 0;
	char bar[NL_LOCBAR_WIDTH + 1];

	for (int b = 0; b < NL_LOC_BUCKETS; b++)
		sum += l->bucket_ns[b];
	if (!l->available || !sum) {
		snprintf(buf, sz, "%-*s", NL_LOCBAR_WIDTH, source_ok ? "n/a" : "unavail");
		return buf;
	}
	for (int b = 0; b < NL_LOC_BUCKETS; b++) {
		/* ceil, so that a small but real share never disappears */
		int lvl = (int)ceil((double)l->bucket_ns[b] * 8.0 / (double)sum);

		if (lvl > 8)
			lvl = 8;
		bar[b] = scale[lvl];
	}
	bar[NL_LOCBAR_WIDTH] = '\0';
	snprintf(buf, sz, "%s", bar);
	return buf;
}

const char *nl_fmt_hbar(char *buf, int width, double frac)
{
	int n;

	if (width < 0)
		width = 0;
	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	n = (int)lround(frac * width);
	memset(buf, '#', n);
	memset(buf + n, ' ', width - n);
	buf[width] = '\0';
	return buf;
}

const char *nl_fmt_num(char *buf, size_t sz, double v)
{
	if (!(v >= 0))
		snprintf(buf, sz, "-");
	else if (v < 9999.5)
		snprintf(buf, sz, "%.0f", v);
	else if (v < 999.95e3)
		snprintf(buf, sz, "%.1fK", v / 1e3);
	else if (v < 999.95e6)
		snprintf(buf, sz, "%.1fM", v / 1e6);
	else if (v < 999.95e9)
		snprintf(buf, sz, "%.1fG", v / 1e9);
	else
		snprintf(buf, sz, "%.1fT", v / 1e12);
	return buf;
}

const char *nl_fmt_cgroup_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash || !slash[1])
		return path;
	return slash + 1;
}

const char *nl_fmt_cgroup_row_name(const struct nl_cgroup *c, char *buf, size_t sz)
{
	size_t n = nl_cgident_short(&c->ident, buf, sz);

	if (n && n < sz)
		return buf;
	return c->depth ? nl_fmt_cgroup_name(c->path) : c->path;
}

const char *nl_fmt_bucket_label(int b)
{
	static const char *const labels[NL_LOC_BUCKETS] = {
		"0-12.5%", "12.5-25%", "25-37.5%", "37.5-50%",
		"50-62.5%", "62.5-75%", "75-87.5%", "87.5-100%",
	};

	return b >= 0 && b < NL_LOC_BUCKETS ? labels[b] : "?";
}

const char *nl_fmt_class_name(int c)
{
	static const char *const names[NL_NR_CLASSES] = {
		"kernel", "reclaimable", "movable", "anon", "file", "shmem",
	};

	return c >= 0 && c < NL_NR_CLASSES ? names[c] : "?";
}
