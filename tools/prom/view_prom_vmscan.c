// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reclaim families of the Prometheus exposition; see view_prom_vmscan.h. */
#include <errno.h>
#include <stdlib.h>
#include "prom_write.h"
#include "view_prom_vmscan.h"
#include "vmscan_figs.h"

const uint8_t nl_prom_reclaim_bucket[NL_PROM_RECLAIM_LE] = {
	9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33,
};

/* lru label values: [0] anon, [1] file as in nl_vs_page_figs; "unknown"
 * is the pageout_* pages (MADV_PAGEOUT, DAMON), which the kernel reports
 * without an anon/file split: exported so that a sum over lru is every
 * page, never guessed into anon or file. */
enum { LRU_ANON, LRU_FILE, LRU_UNKNOWN, NR_LRU };
static const char *const lru_names[NR_LRU] = { "anon", "file", "unknown" };

enum pg_kind { PG_SCANNED, PG_ROTATED, PG_FREED, NR_PG };

static const struct {
	const char *cgroup_name, *node_name, *help;
} pg_fam[NR_PG] = {
	[PG_SCANNED] = { "numalens_cgroup_reclaim_scanned_bytes_total", "numalens_node_reclaim_scanned_bytes_total",
			 "Bytes of pages reclaim scanned (isolated off the inactive list plus taken off the active "
			 "list: scanned_*_pages in numalens vmscan), by reclaim context and LRU type." },
	[PG_ROTATED] = { "numalens_cgroup_reclaim_rotated_bytes_total", "numalens_node_reclaim_rotated_bytes_total",
			 "Bytes of pages reclaim scanned but kept (activated: put back on or kept on the active "
			 "list; under MGLRU promoted by eviction), by reclaim context and LRU type." },
	[PG_FREED] = { "numalens_cgroup_reclaim_freed_bytes_total", "numalens_node_reclaim_freed_bytes_total",
		       "Bytes of pages reclaim freed (memory.stat pgsteal), by reclaim context and LRU type." },
};

static uint64_t pg_value(const struct nl_vs_page_figs *p, enum pg_kind k, int lru)
{
	switch (k) {
	case PG_SCANNED: return lru == LRU_UNKNOWN ? p->pageout_scanned : p->scanned[lru];
	case PG_ROTATED: return lru == LRU_UNKNOWN ? p->pageout_rotated : p->rotated[lru];
	case PG_FREED: return lru == LRU_UNKNOWN ? p->pageout_freed : p->freed[lru];
	case NR_PG: break;
	}
	return 0;
}

/* kswapd (and node-wide reclaim) is charged to the root only. */
static bool ctx_on(const struct nl_cgroup *c, int ctx)
{
	return ctx != NL_VS_KSWAPD || c->depth == 0;
}

/* Row @i's line "<head @h><row labels><tail @t><v>\n" (_s: @v in ns). */
static void row_u64(struct nl_buf *b, const struct nl_prom_pieces *pc, int h,
		    const struct nl_prom_cgroup_rows *r, int i, int t, uint64_t v)
{
	nl_prom_row_u64(b, pc, h, r->lab + r->off[i], r->len[i], t, v);
}

static void row_s(struct nl_buf *b, const struct nl_prom_pieces *pc, int h,
		  const struct nl_prom_cgroup_rows *r, int i, int t, uint64_t ns)
{
	nl_prom_row_s(b, pc, h, r->lab + r->off[i], r->len[i], t, ns);
}

/* A cgroup row's page and time figures, in the order the families write
 * them: each family walks every row, and a row's reclaim figures are a
 * separate allocation per cgroup, so reading them once into one array
 * keeps each family's walk in cache (it was a third of the render). */
struct vs_row {
	uint64_t bytes[NR_PG][NL_VS_NR_CTX][NR_LRU];
	uint64_t elapsed_ns[NL_VS_NR_CTX];
};

static struct vs_row *gather_rows(const struct nl_snapshot *s, const struct nl_prom_cgroup_rows *r)
{
	struct vs_row *v = calloc(r->n > 0 ? (size_t)r->n : 1, sizeof(*v));
	uint64_t ps = (uint64_t)s->page_size;

	for (int i = 0; v && i < r->n; i++) {
		const struct nl_vmscan_figs *f = nl_vmscan_figs_cgroup(s, r->cg[i]);

		for (int x = 0; x < NL_VS_NR_CTX; x++) {
			for (int k = 0; k < NR_PG; k++)
				for (int t = 0; t < NR_LRU; t++)
					v[i].bytes[k][x][t] = pg_value(&f->pages_total[x], (enum pg_kind)k, t) * ps;
			v[i].elapsed_ns[x] = f->time_total[x].elapsed_ns;
		}
	}
	return v;
}

static void cgroup_pages(struct nl_buf *b, const struct nl_prom_cgroup_rows *r, const struct vs_row *v,
			 enum pg_kind k)
{
	struct nl_prom_pieces pc = {};
	int h = nl_prom_piece_head(&pc, pg_fam[k].cgroup_name, "", NULL), tail[NL_VS_NR_CTX][NR_LRU];

	for (int x = 0; x < NL_VS_NR_CTX; x++)
		for (int t = 0; t < NR_LRU; t++)
			tail[x][t] = nl_prom_piece_tail(&pc, "context", nl_vmscan_figs_ctx_name(x), "lru", lru_names[t]);
	nl_prom_family(b, pg_fam[k].cgroup_name, "counter", pg_fam[k].help);
	for (int i = 0; i < r->n; i++)
		for (int x = 0; x < NL_VS_NR_CTX; x++) {
			if (!ctx_on(r->cg[i], x))
				continue;
			for (int t = 0; t < NR_LRU; t++)
				row_u64(b, &pc, h, r, i, tail[x][t], v[i].bytes[k][x][t]);
		}
	nl_prom_pieces_free(&pc);
}

static void node_pages(struct nl_buf *b, const struct nl_snapshot *s, enum pg_kind k)
{
	uint64_t ps = (uint64_t)s->page_size;

	nl_prom_family(b, pg_fam[k].node_name, "counter", pg_fam[k].help);
	for (int i = 0; i < s->nr_nodes; i++)
		for (int x = 0; x < NL_VS_NR_CTX; x++)
			for (int t = 0; t < NR_LRU; t++) {
				nl_prom_open(b, pg_fam[k].node_name, NULL);
				nl_prom_label_u64(b, "node", (uint64_t)s->nodes[i].nid);
				nl_prom_label(b, "context", nl_vmscan_figs_ctx_name(x));
				nl_prom_label(b, "lru", lru_names[t]);
				nl_prom_close_u64(b, pg_value(&s->nodes[i].vmscan_total[x], k, t) * ps);
			}
}

static void cgroup_seconds(struct nl_buf *b, const struct nl_prom_cgroup_rows *r, const struct vs_row *v)
{
	static const char *const name = "numalens_cgroup_reclaim_seconds_total";
	struct nl_prom_pieces pc = {};
	int h = nl_prom_piece_head(&pc, name, "", NULL), tail[NL_VS_NR_CTX];

	for (int x = 0; x < NL_VS_NR_CTX; x++)
		tail[x] = nl_prom_piece_tail(&pc, "context", nl_vmscan_figs_ctx_name(x), NULL, NULL);
	nl_prom_family(b, name, "counter",
		       "Wall-clock time tasks spent in reclaim episodes (begin -> end per task, sleeps and "
		       "throttling included: elapsed_ns_by_* in numalens vmscan), by reclaim context. Equal to "
		       "numalens_cgroup_reclaim_duration_seconds_sum.");
	for (int i = 0; i < r->n; i++)
		for (int x = 0; x < NL_VS_NR_CTX; x++)
			if (ctx_on(r->cg[i], x))
				row_s(b, &pc, h, r, i, tail[x], v[i].elapsed_ns[x]);
	nl_prom_pieces_free(&pc);
}

/* Cumulative counts at the NL_PROM_RECLAIM_LE bounds from the log2
 * buckets, then +Inf (every bucket, the last open-ended one included),
 * _sum (elapsed_ns) and _count (= +Inf by construction). */
static void cgroup_histogram(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_cgroup_rows *r,
			     bool all_cgroups)
{
	static const char *const name = "numalens_cgroup_reclaim_duration_seconds";
	struct nl_prom_pieces pc = {};
	int h_bucket = nl_prom_piece_head(&pc, name, "_bucket", NULL);
	int h_sum = nl_prom_piece_head(&pc, name, "_sum", NULL);
	int h_count = nl_prom_piece_head(&pc, name, "_count", NULL);
	int t_le[NL_VS_NR_CTX][NL_PROM_RECLAIM_LE], t_inf[NL_VS_NR_CTX], t_ctx[NL_VS_NR_CTX];
	struct nl_buf le = {};

	for (int x = 0; x < NL_VS_NR_CTX; x++) {
		const char *cx = nl_vmscan_figs_ctx_name(x);

		for (int k = 0; k < NL_PROM_RECLAIM_LE; k++) {
			nl_buf_reset(&le);
			nl_buf_put_ns_as_s(&le, (2ull << nl_prom_reclaim_bucket[k]) - 1);
			t_le[x][k] = nl_prom_piece_tail(&pc, "context", cx, "le", le.err ? "" : le.p);
		}
		t_inf[x] = nl_prom_piece_tail(&pc, "context", cx, "le", "+Inf");
		t_ctx[x] = nl_prom_piece_tail(&pc, "context", cx, NULL, NULL);
	}
	pc.err = pc.err ? pc.err : le.err;
	nl_buf_free(&le);
	nl_prom_family(b, name, "histogram",
		       "Duration of reclaim episodes (one task's begin -> end), by reclaim context. Bucket "
		       "bounds are every second log2 ns bucket of the BPF histogram, (2^k - 1) ns for even "
		       "k = 10..34 (~1 us to ~17 s).");
	for (int i = 0; i < r->n; i++) {
		const struct nl_vmscan_figs *v = nl_vmscan_figs_cgroup(s, r->cg[i]);

		if (!all_cgroups && r->cg[i]->depth > 0)
			continue;
		for (int x = 0; x < NL_VS_NR_CTX; x++) {
			const struct nl_vs_time_figs *t = &v->time_total[x];
			uint64_t cum = 0;
			int h = 0;

			if (!ctx_on(r->cg[i], x))
				continue;
			for (int k = 0; k < NL_PROM_RECLAIM_LE; k++) {
				int last = nl_prom_reclaim_bucket[k];

				for (; h <= last; h++)
					cum += t->hist[h];
				row_u64(b, &pc, h_bucket, r, i, t_le[x][k], cum);
			}
			for (; h < NL_VS_HIST; h++)
				cum += t->hist[h];
			row_u64(b, &pc, h_bucket, r, i, t_inf[x], cum);
			row_s(b, &pc, h_sum, r, i, t_ctx[x], t->elapsed_ns);
			row_u64(b, &pc, h_count, r, i, t_ctx[x], cum);
		}
	}
	nl_prom_pieces_free(&pc);
}

void nl_prom_render_vmscan(struct nl_buf *b, const struct nl_snapshot *s,
			   const struct nl_prom_cgroup_rows *r, bool all_histograms)
{
	struct vs_row *v;

	if (!s->src.vmscan)
		return;
	v = gather_rows(s, r);
	if (!v) {
		b->err = b->err ? b->err : -ENOMEM;
		return;
	}
	for (int k = 0; k < NR_PG; k++)
		cgroup_pages(b, r, v, (enum pg_kind)k);
	cgroup_seconds(b, r, v);
	free(v);
	cgroup_histogram(b, s, r, all_histograms);
	for (int k = 0; k < NR_PG; k++)
		node_pages(b, s, (enum pg_kind)k);
}
