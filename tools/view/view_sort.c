// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "view_fmt.h"
#include "view_sort.h"

void nl_view_opts_default(struct nl_view_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sort = NL_SORT_CPU;
	o->alert_remote_pct = NL_ALERT_REMOTE_PCT;
	o->alert_locality_pct = NL_ALERT_LOCALITY_PCT;
}

int nl_sort_key_from_char(int ch)
{
	if (ch < '1' || ch > '9' || ch - '1' >= NL_NR_SORT_KEYS)
		return -1;
	return ch - '1';
}

const char *nl_sort_key_name(enum nl_sort_key k)
{
	static const char *const names[NL_NR_SORT_KEYS] = {
		"RMT/s", "LCL/s", "RMT%", "LOCALITY", "CPU%",
		"RUNTIME", "RSS", "MIGR", "PID",
	};

	return (unsigned)k < NL_NR_SORT_KEYS ? names[k] : "?";
}

const char *nl_sort_key_about(enum nl_sort_key k)
{
	static const char *const about[NL_NR_SORT_KEYS] = {
		"pages per second allocated on another node than the CPU's",
		"pages per second allocated on the CPU's own node",
		"remote share of allocations",
		"NUMA-fault locality, worst first",
		"CPU time this interval",
		"CPU time since numalens started (detail view: \"since start\")",
		"resident memory",
		"pages migrated this interval",
		"process id",
	};

	return (unsigned)k < NL_NR_SORT_KEYS ? about[k] : "?";
}

int nl_sort_filter_parse(struct nl_filter *f, const char *text)
{
	size_t len;

	while (isspace((unsigned char)*text))
		text++;
	len = strlen(text);
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	if (!len) {
		memset(f, 0, sizeof(*f));
		return 0;
	}
	if (text[0] == '/') {
		if (len >= sizeof(f->cgroup))
			return -ENAMETOOLONG;
		memset(f, 0, sizeof(*f));
		memcpy(f->cgroup, text, len);
		/* "/a/" must mean the same as "/a" for the component match */
		while (len > 1 && f->cgroup[len - 1] == '/')
			f->cgroup[--len] = '\0';
		return 0;
	}
	size_t digits = 0;

	while (digits < len && isdigit((unsigned char)text[digits]))
		digits++;
	if (digits < len) {	/* not a pid: a part of a process name */
		if (len >= sizeof(f->comm))
			return -ENAMETOOLONG;
		memset(f, 0, sizeof(*f));
		memcpy(f->comm, text, len);
		return 0;
	}
	long pid = 0;
	for (size_t i = 0; i < len; i++) {
		pid = pid * 10 + (text[i] - '0');
		if (pid > 0x3fffffff)	/* PID_MAX_LIMIT is 2^22; anything huge is a typo */
			return -EINVAL;
	}
	if (pid <= 0)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->pid = (pid_t)pid;
	return 0;
}

bool nl_sort_filter_active(const struct nl_filter *f)
{
	return f && (f->pid > 0 || f->cgroup[0] || f->comm[0]);
}

bool nl_sort_cgroup_under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (n == 1 && prefix[0] == '/')
		return path[0] == '/';
	if (strncmp(path, prefix, n))
		return false;
	return path[n] == '\0' || path[n] == '/';
}

/* The whole path of @p's cgroup, as -c is matched against: a process
 * carries only its cgroup's label (cleaned, cut to 255 bytes, "#<id>" when
 * altered), so a cgroup whose name needed escaping, or a long one, never
 * matched the path the user typed. The cgroup row holds the real path. */
static const char *proc_cgroup_path(const struct nl_snapshot *s, const struct nl_proc *p)
{
	if (s && p->cgroup_id)
		for (int i = 0; i < s->nr_cgroups; i++)
			if (s->cgroups[i].id == p->cgroup_id)
				return nl_cgroup_full_path(&s->cgroups[i]);
	return p->cgroup_path;
}

static bool filter_proc_path(const struct nl_filter *f, const struct nl_proc *p, const char *path)
{
	if (!f)
		return true;
	if (f->pid > 0 && p->pid != f->pid)
		return false;
	if (f->cgroup[0] && !nl_sort_cgroup_under(path, f->cgroup))
		return false;
	if (f->comm[0] && !strstr(p->comm, f->comm))
		return false;
	return true;
}

bool nl_sort_filter_proc(const struct nl_filter *f, const struct nl_proc *p)
{
	return filter_proc_path(f, p, p->cgroup_path);
}

bool nl_sort_filter_proc_in(const struct nl_snapshot *s, const struct nl_filter *f,
		       const struct nl_proc *p)
{
	return filter_proc_path(f, p, f && f->cgroup[0] ? proc_cgroup_path(s, p) : p->cgroup_path);
}

bool nl_sort_filter_cgroup(const struct nl_filter *f, const struct nl_cgroup *c)
{
	if (f && f->chain_of && !nl_sort_cgroup_under(f->chain_of, nl_cgroup_full_path(c)))
		return false;
	if (!f || !f->cgroup[0])
		return true;
	return nl_sort_cgroup_under(nl_cgroup_full_path(c), f->cgroup);
}

/*
 * One sortable figure per row. "Unknown" (no RSS, no allocations, no
 * locality) must sort after every known value whatever the direction, so
 * it is carried apart from the value instead of as a sentinel.
 */
struct sort_val {
	bool known;
	double v;
};

static struct sort_val figs_val(const struct nl_snapshot *s, const struct nl_figs *f,
				enum nl_sort_key key)
{
	struct sort_val r = { true, 0 };

	switch (key) {
	case NL_SORT_REMOTE_RATE:
		r.v = nl_fmt_rate(f->alloc.pages_remote, s->interval_ns);
		break;
	case NL_SORT_LOCAL_RATE:
		r.v = nl_fmt_rate(f->alloc.pages_local, s->interval_ns);
		break;
	case NL_SORT_REMOTE_RATIO:
		r.known = nl_fmt_remote_ratio(&f->alloc, &r.v);
		break;
	case NL_SORT_LOCALITY:
		r.known = f->loc.available && isfinite(f->loc.mean);
		r.v = r.known ? f->loc.mean : 0;
		break;
	case NL_SORT_CPU:
		r.v = f->cpu_pct;
		break;
	case NL_SORT_RUNTIME:
		r.v = (double)f->run_ns_total;
		break;
	case NL_SORT_MIGRATIONS:
		r.v = (double)nl_fmt_migrated_pages(f);
		break;
	default:
		r.known = false;
		break;
	}
	return r;
}

/* Descending except where smaller is "worse" or "first": locality and pid. */
static bool ascending(enum nl_sort_key key)
{
	return key == NL_SORT_LOCALITY || key == NL_SORT_PID;
}

/* qsort has no context argument in C11; the key and snapshot ride here.
 * Views run on one thread, so file-scope state is enough. */
struct sort_ctx {
	const struct nl_snapshot *s;
	enum nl_sort_key key;
	struct sort_val *vals;	/* by row index */
};
static struct sort_ctx g_ctx;

static int cmp_vals(struct sort_val a, struct sort_val b)
{
	if (a.known != b.known)
		return a.known ? -1 : 1;
	if (!a.known || a.v == b.v)
		return 0;
	if (ascending(g_ctx.key))
		return a.v < b.v ? -1 : 1;
	return a.v > b.v ? -1 : 1;
}

static int cmp_proc(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	const struct nl_proc *x = &g_ctx.s->procs[a], *y = &g_ctx.s->procs[b];
	int c = cmp_vals(g_ctx.vals[a], g_ctx.vals[b]);

	if (c)
		return c;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int cmp_cgroup(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	int c = cmp_vals(g_ctx.vals[a], g_ctx.vals[b]);

	if (c)
		return c;
	return strcmp(g_ctx.s->cgroups[a].path, g_ctx.s->cgroups[b].path);
}

int nl_sort_procs(const struct nl_snapshot *s, enum nl_sort_key key,
		  const struct nl_filter *f, int *idx)
{
	int n = 0;

	if (!s || (!idx && s->nr_procs) || (unsigned)key >= NL_NR_SORT_KEYS)
		return -EINVAL;
	struct sort_val *vals = calloc(s->nr_procs ? s->nr_procs : 1, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (int i = 0; i < s->nr_procs; i++) {
		const struct nl_proc *p = &s->procs[i];
		uint64_t rss;

		if (!nl_sort_filter_proc_in(s, f, p))
			continue;
		idx[n++] = i;
		if (key == NL_SORT_RSS) {
			vals[i].known = nl_fmt_proc_rss_pages(p, s->nr_nodes, &rss);
			vals[i].v = (double)rss * vals[i].known;
		} else if (key == NL_SORT_PID) {
			vals[i] = (struct sort_val){ true, (double)p->pid };
		} else {
			vals[i] = figs_val(s, &p->f, key);
		}
	}
	g_ctx = (struct sort_ctx){ s, key, vals };
	qsort(idx, n, sizeof(*idx), cmp_proc);
	free(vals);
	return n;
}

static struct sort_val cgroup_val(const struct nl_snapshot *s, const struct nl_cgroup *c,
				  enum nl_sort_key key)
{
	if (key == NL_SORT_RSS) {
		struct sort_val r = { c->numa_stat_known, 0 };

		if (r.known)
			r.v = (double)(nl_fmt_sum_nodes(c->anon_bytes_by_node, s->nr_nodes) +
				       nl_fmt_sum_nodes(c->file_bytes_by_node, s->nr_nodes));
		return r;
	}
	if (key == NL_SORT_PID)		/* equal values: the path tiebreak orders */
		return (struct sort_val){ true, 0 };
	return figs_val(s, &c->f, key);
}

/* Index of the cgroup with id @id among the kept rows, or -1. */
static int find_kept(const struct nl_snapshot *s, const bool *keep, uint64_t id)
{
	if (!id)
		return -1;
	for (int i = 0; i < s->nr_cgroups; i++)
		if (keep[i] && s->cgroups[i].id == id)
			return i;
	return -1;
}

/* Append @parent's children (already in sorted order in @sorted) and their
 * subtrees to @out, depth first. */
static void emit_subtree(const int *parent_of, const int *sorted, int nsorted,
			 int parent, int *out, int *n, int guard)
{
	if (guard > 4096)	/* a cyclic parent chain must not recurse forever */
		return;
	for (int k = 0; k < nsorted; k++) {
		int i = sorted[k];

		if (parent_of[i] != parent)
			continue;
		out[(*n)++] = i;
		emit_subtree(parent_of, sorted, nsorted, i, out, n, guard + 1);
	}
}

int nl_sort_cgroups(const struct nl_snapshot *s, enum nl_sort_key key,
		    const struct nl_filter *f, bool tree, int *idx)
{
	int n = 0, ret = -ENOMEM;

	if (!s || (!idx && s->nr_cgroups) || (unsigned)key >= NL_NR_SORT_KEYS)
		return -EINVAL;
	int cap = s->nr_cgroups ? s->nr_cgroups : 1;
	struct sort_val *vals = calloc(cap, sizeof(*vals));
	bool *keep = calloc(cap, sizeof(*keep));
	int *sorted = calloc(cap, sizeof(*sorted));
	int *parent_of = calloc(cap, sizeof(*parent_of));
	if (!vals || !keep || !sorted || !parent_of)
		goto out;

	for (int i = 0; i < s->nr_cgroups; i++) {
		if (!nl_sort_filter_cgroup(f, &s->cgroups[i]))
			continue;
		keep[i] = true;
		sorted[n++] = i;
		vals[i] = cgroup_val(s, &s->cgroups[i], key);
	}
	g_ctx = (struct sort_ctx){ s, key, vals };
	qsort(sorted, n, sizeof(*sorted), cmp_cgroup);
	if (!tree) {
		memcpy(idx, sorted, n * sizeof(*idx));
		ret = n;
		goto out;
	}
	for (int i = 0; i < s->nr_cgroups; i++)
		parent_of[i] = keep[i] ? find_kept(s, keep, s->cgroups[i].parent_id) : -2;
	/* a parent chain that loops back would leave rows unreachable from
	 * the top: cut such rows loose so every kept row is printed once */
	for (int i = 0; i < s->nr_cgroups; i++) {
		int p = parent_of[i], steps = 0;

		while (p >= 0 && p != i && steps++ <= s->nr_cgroups)
			p = parent_of[p];
		if (p == i || steps > s->nr_cgroups)
			parent_of[i] = -1;
	}
	int m = 0;
	emit_subtree(parent_of, sorted, n, -1, idx, &m, 0);
	ret = m;
out:
	free(vals);
	free(keep);
	free(sorted);
	free(parent_of);
	return ret;
}
