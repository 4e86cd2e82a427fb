// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reclaim counters -> hierarchical snapshot figures; see vmscan_figs.h. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "vmscan_figs.h"

/* The fold runs on packed vectors: the per-node pages of the machine's
 * nodes only (nids[0..nn-1]) and the time of every context, so that an
 * idle cgroup costs the fold 3 x (4 x nn x 11 + 4 x 43) words, not the
 * full NL_MAX_NODES layout. */
#define PAGE_W (sizeof(struct nl_vs_pages) / sizeof(uint64_t))
#define TIME_W (sizeof(struct nl_vs_time) / sizeof(uint64_t))

struct nl_vs_state {
	struct nl_cgroup_fold fold;
	bool fold_ready;
	int nn, nids[NL_MAX_NODES];
	int nr_nids;			/* highest of nids[] + 1: the figures' node slots */
	size_t width;
	struct nl_vs_counts tmp;	/* scratch: one cgroup's unpacked totals */
	struct nl_vs_raw prev, cur;	/* hierarchical totals by cgroup id */
	struct nl_vs_pages node_prev[NL_VS_NR_CTX][NL_MAX_NODES];
};

int nl_vmscan_figs_state_new(struct nl_vs_state **st)
{
	struct nl_vs_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	*st = s;
	return 0;
}

void nl_vmscan_figs_state_free(struct nl_vs_state *st)
{
	if (!st)
		return;
	nl_cgroup_fold_free(&st->fold);
	nl_vmscan_raw_free(&st->prev);
	nl_vmscan_raw_free(&st->cur);
	free(st);
}

static uint64_t d64(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : 0;
}

/* One node's raw pages -> delta figures (vs @p) and total figures. */
static void page_figs(const struct nl_vs_pages *c, const struct nl_vs_pages *p,
		      struct nl_vs_page_figs *delta, struct nl_vs_page_figs *total)
{
	for (int t = 0; t < 2; t++) {
		total->scanned[t] = c->scanned[t];
		total->refill[t] = c->refill[t];
		total->rotated[t] = c->rotated[t];
		total->freed[t] = c->freed[t];
		delta->scanned[t] = d64(c->scanned[t], p->scanned[t]);
		delta->refill[t] = d64(c->refill[t], p->refill[t]);
		delta->rotated[t] = d64(c->rotated[t], p->rotated[t]);
		delta->freed[t] = d64(c->freed[t], p->freed[t]);
	}
	total->pageout_scanned = c->pageout_scanned;
	total->pageout_rotated = c->pageout_rotated;
	total->pageout_freed = c->pageout_freed;
	delta->pageout_scanned = d64(c->pageout_scanned, p->pageout_scanned);
	delta->pageout_rotated = d64(c->pageout_rotated, p->pageout_rotated);
	delta->pageout_freed = d64(c->pageout_freed, p->pageout_freed);
}

static void add_pages(struct nl_vs_page_figs *a, const struct nl_vs_page_figs *b)
{
	for (int t = 0; t < 2; t++) {
		a->scanned[t] += b->scanned[t];
		a->refill[t] += b->refill[t];
		a->rotated[t] += b->rotated[t];
		a->freed[t] += b->freed[t];
	}
	a->pageout_scanned += b->pageout_scanned;
	a->pageout_rotated += b->pageout_rotated;
	a->pageout_freed += b->pageout_freed;
}

static void add_time(struct nl_vs_time_figs *a, const struct nl_vs_time_figs *b)
{
	a->elapsed_ns += b->elapsed_ns;
	a->episodes += b->episodes;
	a->throttled += b->throttled;
	a->throttled_ns += b->throttled_ns;
	for (int i = 0; i < NL_VS_HIST; i++)
		a->hist[i] += b->hist[i];
}

/* Hierarchical counters @c (and the previous interval's @p, NULL = none)
 * -> figures @f of @nr_nids node slots (allocated that big; the counters
 * of nids past them are zero: the fold keeps only the machine's nodes). */
static void figs_from(const struct nl_vs_counts *c, const struct nl_vs_counts *p,
		      int nr_nids, struct nl_vmscan_figs *f)
{
	static const struct nl_vs_counts zero;

	if (!p)
		p = &zero;
	memset(f, 0, nl_vmscan_figs_size(nr_nids));
	f->nr_nids = nr_nids;
	for (int x = 0; x < NL_VS_NR_CTX; x++) {
		const struct nl_vs_time *ct = &c->time[x], *pt = &p->time[x];
		struct nl_vs_time_figs *d = &f->time[x], *t = &f->time_total[x];

		for (int n = 0; n < nr_nids; n++) {
			struct nl_vs_node_figs *nf = &f->node[n];

			page_figs(&c->pages[x][n], &p->pages[x][n], &nf->delta[x], &nf->total[x]);
			add_pages(&f->pages[x], &nf->delta[x]);
			add_pages(&f->pages_total[x], &nf->total[x]);
		}
		t->elapsed_ns = ct->elapsed_ns;
		t->episodes = ct->episodes;
		t->throttled = ct->throttled;
		t->throttled_ns = ct->throttled_ns;
		d->elapsed_ns = d64(ct->elapsed_ns, pt->elapsed_ns);
		d->episodes = d64(ct->episodes, pt->episodes);
		d->throttled = d64(ct->throttled, pt->throttled);
		d->throttled_ns = d64(ct->throttled_ns, pt->throttled_ns);
		for (int i = 0; i < NL_VS_HIST; i++) {
			t->hist[i] = ct->hist[i];
			d->hist[i] = d64(ct->hist[i], pt->hist[i]);
		}
	}
}

static void fill_nodes(struct nl_vs_state *st, const struct nl_vs_raw *raw, struct nl_snapshot *s)
{
	struct nl_vs_pages sum[NL_VS_NR_CTX][NL_MAX_NODES];

	memset(sum, 0, sizeof(sum));
	for (int i = 0; i < raw->n; i++)
		for (int x = 0; x < NL_VS_NR_CTX; x++)
			for (int n = 0; n < NL_MAX_NODES; n++) {
				const uint64_t *a = (const uint64_t *)&raw->c[i].pages[x][n];
				uint64_t *b = (uint64_t *)&sum[x][n];

				for (size_t k = 0; k < sizeof(struct nl_vs_pages) / 8; k++)
					b[k] += a[k];
			}
	for (int i = 0; i < s->nr_nodes; i++) {
		int nid = s->nodes[i].nid;

		if (nid < 0 || nid >= NL_MAX_NODES)
			continue;
		for (int x = 0; x < NL_VS_NR_CTX; x++)
			page_figs(&sum[x][nid], &st->node_prev[x][nid], &s->nodes[i].vmscan[x],
				  &s->nodes[i].vmscan_total[x]);
	}
	memcpy(st->node_prev, sum, sizeof(sum));
}

static bool all_zero(const struct nl_vs_counts *c)
{
	const uint64_t *w = (const uint64_t *)c;

	for (size_t i = 0; i < NL_VS_WIDTH; i++)
		if (w[i])
			return false;
	return true;
}

static void pack(const struct nl_vs_state *st, const struct nl_vs_counts *c, uint64_t *v)
{
	for (int x = 0; x < NL_VS_NR_CTX; x++)
		for (int k = 0; k < st->nn; k++, v += PAGE_W)
			memcpy(v, &c->pages[x][st->nids[k]], PAGE_W * sizeof(uint64_t));
	memcpy(v, c->time, sizeof(c->time));
}

static void unpack(const struct nl_vs_state *st, const uint64_t *v, struct nl_vs_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int x = 0; x < NL_VS_NR_CTX; x++)
		for (int k = 0; k < st->nn; k++, v += PAGE_W)
			memcpy(&c->pages[x][st->nids[k]], v, PAGE_W * sizeof(uint64_t));
	memcpy(c->time, v, sizeof(c->time));
}

/* (Re)start the fold for the node set of @s; a new node set (hotplug)
 * starts the totals over. 0 or -ENOMEM/-EINVAL. */
static int fold_for_nodes(struct nl_vs_state *st, const struct nl_snapshot *s)
{
	int nids[NL_MAX_NODES], nn = 0;

	for (int i = 0; i < s->nr_nodes; i++)
		if (s->nodes[i].nid >= 0 && s->nodes[i].nid < NL_MAX_NODES && nn < NL_MAX_NODES)
			nids[nn++] = s->nodes[i].nid;
	if (st->fold_ready && nn == st->nn && !memcmp(nids, st->nids, sizeof(int) * (size_t)nn))
		return 0;
	if (st->fold_ready)
		nl_cgroup_fold_free(&st->fold);
	st->fold_ready = false;
	st->nn = nn;
	memcpy(st->nids, nids, sizeof(int) * (size_t)nn);
	st->nr_nids = 0;
	for (int k = 0; k < nn; k++)
		if (nids[k] >= st->nr_nids)
			st->nr_nids = nids[k] + 1;
	st->width = NL_VS_NR_CTX * (size_t)nn * PAGE_W + NL_VS_NR_CTX * TIME_W;
	nl_vmscan_raw_clear(&st->prev);
	if (nl_cgroup_fold_init(&st->fold, (int)st->width))
		return -EINVAL;
	st->fold_ready = true;
	return 0;
}

int nl_vmscan_figs_fill(struct nl_vs_state *st, const struct nl_vs_raw *raw, const struct nl_cgroup_map *m,
	       struct nl_snapshot *s)
{
	static const uint64_t none;
	uint64_t *tot = NULL, *own = NULL, *dead = NULL;
	int e;

	if (!m || m->n < 1)
		return -EINVAL;
	e = fold_for_nodes(st, s);
	if (e)
		return e;
	tot = calloc((size_t)m->n, st->width * sizeof(uint64_t));
	own = calloc((size_t)raw->n + 1, st->width * sizeof(uint64_t));
	dead = calloc(st->width, sizeof(uint64_t));
	if (!tot || !own || !dead) {
		e = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < raw->n; i++)
		pack(st, &raw->c[i], own + (size_t)i * st->width);
	e = nl_cgroup_fold_run(&st->fold, m, raw->n ? raw->ids : &none, own, raw->n, tot);
	if (e)
		goto out;
	nl_vmscan_raw_clear(&st->cur);
	for (int i = 0; i < s->nr_cgroups; i++) {
		struct nl_cgroup *g = &s->cgroups[i];
		int mi = nl_cgroup_map_index(m, g->id);
		const struct nl_vs_counts *prev = nl_vmscan_raw_find(&st->prev, g->id);
		struct nl_vs_counts *c;

		if (mi >= 0) {
			unpack(st, tot + (size_t)mi * st->width, &st->tmp);
		} else if (!nl_cgroup_fold_dead(&st->fold, g->id, dead)) {
			unpack(st, dead, &st->tmp);
		} else if (prev) {	/* gone from the fold too: keep its last totals */
			st->tmp = *prev;
		} else {
			memset(&st->tmp, 0, sizeof(st->tmp));
		}
		/* most cgroups never reclaim: no figures and no state for them
		 * (views read zeros through nl_vmscan_figs_cgroup()) */
		if (!prev && all_zero(&st->tmp))
			continue;
		c = nl_vmscan_raw_get(&st->cur, g->id);
		g->vmscan = malloc(nl_vmscan_figs_size(st->nr_nids));
		if (!c || !g->vmscan) {
			e = -ENOMEM;
			goto out;
		}
		*c = st->tmp;
		/* prev is in st->prev, which this loop does not grow */
		figs_from(c, prev, st->nr_nids, g->vmscan);
	}
	fill_nodes(st, raw, s);
	struct nl_vs_raw t = st->prev;

	st->prev = st->cur;
	st->cur = t;
out:
	free(tot);
	free(own);
	free(dead);
	return e;
}

void nl_vmscan_figs_pages_sum(const struct nl_vs_page_figs f[NL_VS_NR_CTX], unsigned ctx_mask,
		     struct nl_vs_page_figs *out)
{
	memset(out, 0, sizeof(*out));
	for (int x = 0; x < NL_VS_NR_CTX; x++)
		if (ctx_mask & (1u << x))
			add_pages(out, &f[x]);
}

void nl_vmscan_figs_time_sum(const struct nl_vs_time_figs t[NL_VS_NR_CTX], unsigned ctx_mask,
		    struct nl_vs_time_figs *out)
{
	memset(out, 0, sizeof(*out));
	for (int x = 0; x < NL_VS_NR_CTX; x++)
		if (ctx_mask & (1u << x))
			add_time(out, &t[x]);
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : NAN;
}

void nl_vmscan_figs_ratios(const struct nl_vs_page_figs *p, const struct nl_vs_time_figs *t,
		  uint64_t wall_ns, struct nl_vs_ratios *out)
{
	uint64_t sc = p->scanned[0] + p->scanned[1];
	uint64_t ro = p->rotated[0] + p->rotated[1];
	uint64_t fr = p->freed[0] + p->freed[1];

	out->freed_per_scanned = ratio(fr, sc);
	out->rotated_per_scanned = ratio(ro, sc);
	for (int k = 0; k < 2; k++) {
		out->rotated_per_scanned_type[k] = ratio(p->rotated[k], p->scanned[k]);
		out->freed_per_scanned_type[k] = ratio(p->freed[k], p->scanned[k]);
	}
	out->anon_share_scanned = ratio(p->scanned[0], sc);
	out->ns_per_scanned = ratio(t->elapsed_ns, sc);
	out->ns_per_freed = ratio(t->elapsed_ns, fr);
	out->reclaim_time_share = ratio(t->elapsed_ns, wall_ns);
}

const char *nl_vmscan_figs_ctx_name(int ctx)
{
	static const char *const names[NL_VS_NR_CTX] = { "limit", "direct", "kswapd", "proactive" };

	return ctx >= 0 && ctx < NL_VS_NR_CTX ? names[ctx] : NULL;
}

void nl_vmscan_figs_summarize(const struct nl_vs_page_figs d[NL_VS_NR_CTX],
		     const struct nl_vs_page_figs t[NL_VS_NR_CTX], struct nl_vs_summary *out)
{
	struct nl_vs_page_figs a, b;

	nl_vmscan_figs_pages_sum(d, ~0u, &a);
	nl_vmscan_figs_pages_sum(t, ~0u, &b);
	out->scanned = a.scanned[0] + a.scanned[1] + a.pageout_scanned;
	out->freed = a.freed[0] + a.freed[1] + a.pageout_freed;
	out->scanned_total = b.scanned[0] + b.scanned[1] + b.pageout_scanned;
	out->freed_total = b.freed[0] + b.freed[1] + b.pageout_freed;
}

const struct nl_vmscan_figs *nl_vmscan_figs_cgroup(const struct nl_snapshot *s, const struct nl_cgroup *g)
{
	static const struct nl_vmscan_figs none;

	if (g->vmscan)
		return g->vmscan;
	return s->src.vmscan ? &none : NULL;
}
