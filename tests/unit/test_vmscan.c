// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * vmscan_figs.c / view_vmscan.c: the hierarchy fold of the reclaim
 * counters into snapshot figures (parents are recursive sums, removed
 * cgroups stay in their parent, deltas), the invariants of the report
 * fields (total == anon + file, freed <= scanned), and the derived ratios
 * checked against the seed's own table (its cover letter).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture_fs.h"
#include "vmscan_figs.h"
#include "view_vmscan.h"

static uint64_t ino_of(const char *root, const char *rel)
{
	char p[PATH_MAX];
	uint64_t id;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(nl_cgroup_id_of(p, &id), 0);
	return id;
}

/* Add reclaim to @id's own counters: ctx, node, type, pages. */
static void reclaim(struct nl_vs_raw *r, uint64_t id, int ctx, int nid, int t, uint64_t scanned,
		    uint64_t rotated, uint64_t freed)
{
	struct nl_vs_counts *c = nl_vmscan_raw_get(r, id);

	assert_non_null(c);
	c->pages[ctx][nid].scanned[t] += scanned;
	c->pages[ctx][nid].rotated[t] += rotated;
	c->pages[ctx][nid].freed[t] += freed;
}

static void episode(struct nl_vs_raw *r, uint64_t id, int ctx, uint64_t ns)
{
	struct nl_vs_counts *c = nl_vmscan_raw_get(r, id);
	int b = 0;

	while (b + 1 < NL_VS_HIST && (ns >> (b + 1)))
		b++;
	c->time[ctx].elapsed_ns += ns;
	c->time[ctx].episodes++;
	c->time[ctx].hist[b]++;
}

/* Snapshot cgroups from the map (as collect.c lists them). */
static void snap_from_map(struct nl_snapshot *s, const struct nl_cgroup_map *m)
{
	nl_snapshot_free(s);
	s->nr_cgroups = m->n;
	s->cgroups = calloc((size_t)m->n, sizeof(*s->cgroups));
	assert_non_null(s->cgroups);
	for (int i = 0; i < m->n; i++) {
		s->cgroups[i].id = m->ents[i].id;
		snprintf(s->cgroups[i].path, sizeof(s->cgroups[i].path), "%s", m->ents[i].path);
	}
	s->nr_nodes = 2;
	s->nodes = calloc(2, sizeof(*s->nodes));
	s->nodes[0].nid = 0;
	s->nodes[1].nid = 1;
}

static const struct nl_vmscan_figs *figs_of(const struct nl_snapshot *s, uint64_t id)
{
	for (int i = 0; i < s->nr_cgroups; i++)
		if (s->cgroups[i].id == id)
			return s->cgroups[i].vmscan;
	fail_msg("cgroup %llu not in the snapshot", (unsigned long long)id);
	return NULL;
}

static uint64_t field(const struct nl_vs_page_figs *p, const struct nl_vs_time_figs *t, int ctx,
		      const char *name)
{
	struct nl_vs_field f[NL_VS_MAX_FIELDS];
	int n = nl_vmscan_fields(ctx, p, t, f);

	for (int i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return f[i].v;
	fail_msg("no field %s", name);
	return 0;
}

/* Every report field of @v: total == anon + file, freed <= scanned, and
 * the node breakdown sums to the total. */
static void check_invariants(const struct nl_vmscan_figs *v)
{
	for (int x = 0; x < NL_VS_NR_CTX; x++) {
		const struct nl_vs_page_figs *p = &v->pages_total[x];
		const char *c = nl_vmscan_figs_ctx_name(x);
		char k[3][64];
		struct nl_vs_page_figs sum = {};

		for (int w = 0; w < 3; w++) {
			static const char *const what[3] = { "scanned", "rotated", "freed" };

			snprintf(k[0], sizeof(k[0]), "%s_pages_by_%s", what[w], c);
			snprintf(k[1], sizeof(k[1]), "%s_anon_pages_by_%s", what[w], c);
			snprintf(k[2], sizeof(k[2]), "%s_file_pages_by_%s", what[w], c);
			assert_int_equal(field(p, NULL, x, k[0]),
					 field(p, NULL, x, k[1]) + field(p, NULL, x, k[2]));
		}
		for (int t = 0; t < 2; t++)
			assert_true(p->freed[t] <= p->scanned[t]);
		for (int n = 0; n < NL_MAX_NODES; n++)
			for (int t = 0; t < 2; t++) {
				sum.scanned[t] += nl_vs_node(v, n)->total[x].scanned[t];
				sum.freed[t] += nl_vs_node(v, n)->total[x].freed[t];
			}
		assert_memory_equal(sum.scanned, p->scanned, sizeof(sum.scanned));
		assert_memory_equal(sum.freed, p->freed, sizeof(sum.freed));
	}
}

/* root -> A -> {B, C}; reclaim in B, C, A itself and kswapd (id 0). */
static void test_fold_tree(void **state)
{
	char *root = fixture_tmpdir("vmscan");
	struct nl_cgroup_map m = {};
	struct nl_vs_raw raw = {};
	struct nl_vs_state *st;
	struct nl_snapshot s = {};
	uint64_t a, b, c, r;
	const struct nl_vmscan_figs *va, *vb, *vr;

	(void)state;
	assert_non_null(root);
	wfile(root, "A/B/x", "");
	wfile(root, "A/C/x", "");
	wfile(root, "D/x", "");		/* never reclaims */
	assert_int_equal(nl_cgroup_map_build(&m, root), 5);
	r = ino_of(root, ".");
	a = ino_of(root, "A");
	b = ino_of(root, "A/B");
	c = ino_of(root, "A/C");
	assert_int_equal(nl_vmscan_figs_state_new(&st), 0);

	reclaim(&raw, b, NL_VS_LIMIT, 0, 1, 1000, 100, 600);	/* file on node 0 */
	reclaim(&raw, b, NL_VS_LIMIT, 1, 0, 500, 450, 20);	/* anon on node 1 */
	reclaim(&raw, c, NL_VS_LIMIT, 0, 1, 300, 10, 200);
	reclaim(&raw, a, NL_VS_PROACTIVE, 1, 1, 64, 0, 64);
	reclaim(&raw, 0, NL_VS_KSWAPD, 0, 1, 4096, 32, 4000);
	episode(&raw, b, NL_VS_LIMIT, 1500);		/* bucket 10 */
	episode(&raw, c, NL_VS_LIMIT, 1u << 20);	/* bucket 20 */
	snap_from_map(&s, &m);
	assert_int_equal(nl_vmscan_figs_fill(st, &raw, &m, &s), 0);

	vb = figs_of(&s, b);
	va = figs_of(&s, a);
	vr = figs_of(&s, r);
	/* B alone */
	assert_int_equal(field(&vb->pages_total[NL_VS_LIMIT], NULL, NL_VS_LIMIT, "scanned_pages_by_limit"), 1500);
	assert_int_equal(vb->node[1].total[NL_VS_LIMIT].scanned[0], 500);
	/* node slots for the machine's nids only, not NL_MAX_NODES */
	assert_int_equal(vb->nr_nids, 2);
	/* A = A + B + C, per context and per node */
	assert_int_equal(va->pages_total[NL_VS_LIMIT].scanned[1], 1300);
	assert_int_equal(va->pages_total[NL_VS_LIMIT].freed[1], 800);
	assert_int_equal(va->node[0].total[NL_VS_LIMIT].freed[1], 800);
	assert_int_equal(va->pages_total[NL_VS_PROACTIVE].freed[1], 64);
	assert_int_equal(va->time_total[NL_VS_LIMIT].episodes, 2);
	assert_int_equal(va->time_total[NL_VS_LIMIT].elapsed_ns, 1500 + (1u << 20));
	assert_int_equal(va->time_total[NL_VS_LIMIT].hist[10], 1);
	assert_int_equal(va->time_total[NL_VS_LIMIT].hist[20], 1);
	assert_int_equal(va->pages_total[NL_VS_KSWAPD].scanned[1], 0);
	/* root = everything, kswapd's id 0 included */
	assert_int_equal(vr->pages_total[NL_VS_KSWAPD].scanned[1], 4096);
	assert_int_equal(vr->pages_total[NL_VS_LIMIT].scanned[0] + vr->pages_total[NL_VS_LIMIT].scanned[1], 1800);
	/* first interval: deltas are the totals */
	assert_memory_equal(&va->pages[NL_VS_LIMIT], &va->pages_total[NL_VS_LIMIT], sizeof(va->pages[0]));
	/* nodes: every id's own counters once */
	assert_int_equal(s.nodes[0].vmscan_total[NL_VS_LIMIT].scanned[1], 1300);
	assert_int_equal(s.nodes[0].vmscan_total[NL_VS_KSWAPD].freed[1], 4000);
	assert_int_equal(s.nodes[1].vmscan_total[NL_VS_LIMIT].scanned[0], 500);
	/* D never reclaimed: no figures, zeros through nl_vmscan_figs_cgroup() */
	for (int i = 0; i < s.nr_cgroups; i++)
		if (s.cgroups[i].id == ino_of(root, "D")) {
			assert_null(s.cgroups[i].vmscan);
			assert_null(nl_vmscan_figs_cgroup(&s, &s.cgroups[i]));	/* src.vmscan false */
			s.src.vmscan = true;
			assert_int_equal(nl_vmscan_figs_cgroup(&s, &s.cgroups[i])->pages_total[NL_VS_LIMIT].scanned[1], 0);
		} else {
			check_invariants(s.cgroups[i].vmscan);
		}

	/* interval 2: C is removed (its BPF entry lives on), B reclaims more */
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "rm -rf '%s/A/C'", root);
	assert_int_equal(system(p), 0);
	assert_int_equal(nl_cgroup_map_build(&m, root), 4);
	reclaim(&raw, b, NL_VS_LIMIT, 0, 1, 100, 0, 50);
	snap_from_map(&s, &m);
	/* collect.c lists a removed cgroup once more (removed = true) */
	s.cgroups = realloc(s.cgroups, (size_t)(s.nr_cgroups + 1) * sizeof(*s.cgroups));
	memset(&s.cgroups[s.nr_cgroups], 0, sizeof(s.cgroups[0]));
	s.cgroups[s.nr_cgroups].id = c;
	s.cgroups[s.nr_cgroups].removed = true;
	s.nr_cgroups++;
	assert_int_equal(nl_vmscan_figs_fill(st, &raw, &m, &s), 0);
	assert_int_equal(figs_of(&s, c)->pages_total[NL_VS_LIMIT].scanned[1], 300);
	assert_int_equal(figs_of(&s, c)->pages[NL_VS_LIMIT].scanned[1], 0);
	assert_int_equal(figs_of(&s, c)->time_total[NL_VS_LIMIT].hist[20], 1);
	va = figs_of(&s, a);
	assert_int_equal(va->pages_total[NL_VS_LIMIT].scanned[1], 1400);	/* C still in A */
	assert_int_equal(va->pages[NL_VS_LIMIT].scanned[1], 100);		/* delta */
	assert_int_equal(va->pages[NL_VS_LIMIT].freed[1], 50);
	assert_int_equal(va->time[NL_VS_LIMIT].episodes, 0);
	assert_int_equal(s.nodes[0].vmscan[NL_VS_LIMIT].freed[1], 50);
	for (int i = 0; i < s.nr_cgroups; i++)
		if (s.cgroups[i].vmscan)
			check_invariants(s.cgroups[i].vmscan);

	/* interval 3: C's entry evicted too: A never goes down */
	struct nl_vs_raw raw2 = {};

	for (int i = 0; i < raw.n; i++)
		if (raw.ids[i] != c)
			*nl_vmscan_raw_get(&raw2, raw.ids[i]) = raw.c[i];
	snap_from_map(&s, &m);
	assert_int_equal(nl_vmscan_figs_fill(st, &raw2, &m, &s), 0);
	va = figs_of(&s, a);
	assert_int_equal(va->pages_total[NL_VS_LIMIT].scanned[1], 1400);
	assert_int_equal(va->pages[NL_VS_LIMIT].scanned[1], 0);

	nl_snapshot_free(&s);
	nl_vmscan_raw_free(&raw);
	nl_vmscan_raw_free(&raw2);
	nl_vmscan_figs_state_free(st);
	nl_cgroup_map_free(&m);
	rmtree(root);
}

/* The ratios on the seed's cover-letter table, spread=0 "before": the
 * spec's derived figures are 26.0% freed/scanned, 39.3% anon share,
 * 21.4k ns/scanned, 82.4k ns/freed, 33.2% of 249.64 s, 3.7% file rotate. */
static void test_ratios_seed(void **state)
{
	struct nl_vs_page_figs p = {
		.scanned = { 1518266, 2349379 }, .rotated = { 1416627, 86013 },
		.freed = { 24577, 980564 },
	};
	struct nl_vs_time_figs t = { .elapsed_ns = 82833866094ull };
	struct nl_vs_ratios r;

	(void)state;
	nl_vmscan_figs_ratios(&p, &t, 249640000000ull, &r);
	assert_float_equal(r.freed_per_scanned, 1005141.0 / 3867645.0, 1e-12);
	assert_float_equal(r.freed_per_scanned, 0.260, 0.0005);
	assert_float_equal(r.anon_share_scanned, 0.393, 0.0005);
	assert_float_equal(r.ns_per_scanned, 21417, 1);
	assert_float_equal(r.ns_per_freed, 82410, 1);
	assert_float_equal(r.reclaim_time_share, 0.332, 0.0005);
	assert_float_equal(r.rotated_per_scanned_type[1], 0.037, 0.0005);
	assert_float_equal(r.rotated_per_scanned_type[0], 0.933, 0.0005);
	assert_float_equal(r.rotated_per_scanned, 1502640.0 / 3867645.0, 1e-12);
	/* the seed's own invariant on its table: total == anon + file */
	assert_int_equal(field(&p, &t, NL_VS_LIMIT, "scanned_pages_by_limit"), 3867645);
	assert_int_equal(field(&p, &t, NL_VS_LIMIT, "rotated_pages_by_limit"), 1502640);
	assert_int_equal(field(&p, &t, NL_VS_LIMIT, "freed_pages_by_limit"), 1005141);
	assert_int_equal(field(&p, &t, NL_VS_LIMIT, "elapsed_ns_by_limit"), 82833866094ull);
}

static void test_ratios_empty(void **state)
{
	struct nl_vs_page_figs p = {};
	struct nl_vs_time_figs t = {};
	struct nl_vs_ratios r;

	(void)state;
	nl_vmscan_figs_ratios(&p, &t, 0, &r);
	assert_true(isnan(r.freed_per_scanned));
	assert_true(isnan(r.anon_share_scanned));
	assert_true(isnan(r.ns_per_freed));
	assert_true(isnan(r.reclaim_time_share));
}

static void test_sums_and_names(void **state)
{
	struct nl_vs_page_figs p[NL_VS_NR_CTX] = {}, sum;
	struct nl_vs_field f[NL_VS_MAX_FIELDS];

	(void)state;
	p[NL_VS_LIMIT].scanned[0] = 1;
	p[NL_VS_KSWAPD].scanned[0] = 10;
	p[NL_VS_PROACTIVE].freed[1] = 100;
	nl_vmscan_figs_pages_sum(p, 1u << NL_VS_LIMIT | 1u << NL_VS_KSWAPD, &sum);
	assert_int_equal(sum.scanned[0], 11);
	assert_int_equal(sum.freed[1], 0);
	assert_string_equal(nl_vmscan_figs_ctx_name(NL_VS_DIRECT), "direct");
	assert_null(nl_vmscan_figs_ctx_name(NL_VS_NR_CTX));
	assert_int_equal(nl_vmscan_fields(NL_VS_PROACTIVE, &p[NL_VS_PROACTIVE], NULL, f), 14);
	assert_string_equal(f[0].name, "scanned_pages_by_proactive");
	assert_string_equal(f[8].name, "freed_file_pages_by_proactive");
	assert_int_equal(f[6].v, 100);	/* freed_pages_by_proactive */
}

/* The text report of @s with @o, malloc'd (the caller frees it). */
static char *text_of(const struct nl_snapshot *s, const struct nl_vs_view_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(nl_vmscan_text_write(f, s, o), 0);
	fclose(f);
	return buf;
}

/* The text report with -c: a listed cgroup without reclaim says "no
 * reclaim in", one the snapshot does not list (removed past the grace
 * interval) says so instead of claiming it never reclaimed. */
static void test_text_filter_gone(void **state)
{
	struct nl_snapshot s = {};
	struct nl_cgroup cg[2] = {};
	struct nl_vs_view_opts o = {};
	char *buf;

	(void)state;
	strcpy(cg[0].path, "/");
	strcpy(cg[1].path, "/a");
	cg[1].id = 2;
	cg[1].parent_id = 1;
	cg[0].id = 1;
	s.cgroups = cg;
	s.nr_cgroups = 2;
	s.src.vmscan = true;
	o.cgroup = "/a";
	buf = text_of(&s, &o);
	assert_non_null(strstr(buf, "no reclaim in /a since start"));
	free(buf);
	o.cgroup = "/b";
	buf = text_of(&s, &o);
	assert_non_null(strstr(buf, "cgroup /b is not in the hierarchy"));
	assert_null(strstr(buf, "no reclaim"));
	free(buf);
	s.cgroups = NULL;
}

/* The node lines show MADV_PAGEOUT/DAMON pages (pageout_*) too: a node
 * whose only reclaim was pageout used to print an all-zero line. */
static void test_text_node_pageout(void **state)
{
	struct nl_snapshot s = {};
	struct nl_node n[1] = {};
	struct nl_vs_view_opts o = {};
	char *buf;

	(void)state;
	n[0].nid = 0;
	n[0].vmscan_total[NL_VS_PROACTIVE].pageout_scanned = 9;
	n[0].vmscan_total[NL_VS_PROACTIVE].pageout_freed = 7;
	n[0].vmscan_total[NL_VS_PROACTIVE].pageout_rotated = 2;
	s.nodes = n;
	s.nr_nodes = 1;
	s.src.vmscan = true;
	buf = text_of(&s, &o);
	assert_non_null(strstr(buf, "node 0 proactive"));
	assert_non_null(strstr(buf, "pageout scanned 9 rotated 2 freed 7"));
	assert_null(strstr(buf, "whole host"));
	free(buf);
	/* under -c the node lines are labelled as the host's */
	o.cgroup = "/a";
	buf = text_of(&s, &o);
	assert_non_null(strstr(buf, "whole host, every cgroup (not only /a):\nnode 0 proactive"));
	free(buf);
	/* -c / is the whole host: nothing to tell apart */
	o.cgroup = "/";
	buf = text_of(&s, &o);
	assert_null(strstr(buf, "not only /"));
	assert_non_null(strstr(buf, "node 0 proactive"));
	free(buf);
	s.nodes = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_tree),
		cmocka_unit_test(test_ratios_seed),
		cmocka_unit_test(test_ratios_empty),
		cmocka_unit_test(test_sums_and_names),
		cmocka_unit_test(test_text_filter_gone),
		cmocka_unit_test(test_text_node_pageout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
