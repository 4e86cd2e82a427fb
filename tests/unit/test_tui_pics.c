// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tui_pics.c: meters, glyphs, the sparkline history and the placement
 * picture of `numalens top`, and the locality median beside them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "snapshot.h"
#include "tui_hist.h"
#include "tui_pics.h"

static void test_meter(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(nl_pic_meter(b, sizeof(b), 12, 0.5), "[|||||  50%]");
	assert_string_equal(nl_pic_meter(b, sizeof(b), 12, 0.0), "[        0%]");
	/* full: the number sits over the bars */
	assert_string_equal(nl_pic_meter(b, sizeof(b), 12, 1.0), "[||||||100%]");
	assert_string_equal(nl_pic_meter(b, sizeof(b), 12, 7.0), "[||||||100%]");
	assert_string_equal(nl_pic_meter(b, sizeof(b), 12, NAN), "[       n/a]");
	assert_int_equal(strlen(nl_pic_meter(b, sizeof(b), 30, 0.37)), 30);
	/* too narrow or too small a buffer: empty, never overrun */
	assert_string_equal(nl_pic_meter(b, sizeof(b), 5, 0.5), "");
	assert_string_equal(nl_pic_meter(b, 8, 12, 0.5), "");
}

static void test_level_and_glyphs(void **state)
{
	(void)state;
	assert_int_equal(nl_pic_level(0.59), NL_PIC_OK);
	assert_int_equal(nl_pic_level(0.60), NL_PIC_WARN);
	assert_int_equal(nl_pic_level(0.849), NL_PIC_WARN);
	assert_int_equal(nl_pic_level(0.85), NL_PIC_HIGH);
	assert_int_equal(nl_pic_level(NAN), NL_PIC_OK);
	assert_string_equal(nl_pic_tick(0, true), "▁");
	assert_string_equal(nl_pic_tick(1, true), "█");
	assert_string_equal(nl_pic_tick(0.5, false), "+");
	assert_string_equal(nl_pic_tick(NAN, true), " ");
	assert_string_equal(nl_pic_shade(0.005, true), "·");
	assert_string_equal(nl_pic_shade(0.2, true), "░");
	assert_string_equal(nl_pic_shade(0.3, false), "+");
	assert_string_equal(nl_pic_shade(0.8, true), "█");
}

static void test_median(void **state)
{
	uint64_t b[NL_LOC_BUCKETS] = { 0 };

	(void)state;
	assert_true(isnan(nl_snapshot_locality_median(b)));
	b[7] = 100;			/* all in the top bucket: its middle */
	assert_float_equal(nl_snapshot_locality_median(b), 7.5 / 8, 1e-9);
	b[0] = 100;			/* half at the bottom: the bottom's top */
	assert_float_equal(nl_snapshot_locality_median(b), 1.0 / 8, 1e-9);
	b[0] = 300;			/* 3/4 at the bottom: 2/3 into it */
	assert_float_equal(nl_snapshot_locality_median(b), (2.0 / 3) / 8, 1e-9);
}

static void test_history(void **state)
{
	struct nl_hist h = { 0 };
	char b[256];
	double v[NL_HIST_VALUES];

	(void)state;
	/* a minute at 1 s: remote share rising 0 -> 1, locality unknown */
	for (int t = 1; t <= 60; t++) {
		v[0] = (t - 1) / 59.0;
		v[1] = NAN;
		assert_int_equal(nl_hist_add(&h, 42, (uint64_t)t * 1000, v), 0);
		v[0] = 0.5;
		assert_int_equal(nl_hist_add(&h, 7, (uint64_t)t * 1000, v), 0);
	}
	assert_int_equal(h.n, 2);
	assert_int_equal(h.s[0].key, 7);	/* kept sorted */
	const struct nl_hist_series *s = nl_hist_find(&h, 42);

	assert_non_null(s);
	assert_null(nl_hist_find(&h, 43));
	assert_string_equal(nl_hist_spark(b, sizeof(b), s, 0, 60000, 60000, 8, false), "_.-=+*#@");
	assert_string_equal(nl_hist_spark(b, sizeof(b), s, 0, 60000, 60000, 4, true), "▁▃▆█");
	/* no value: blanks, not a zero */
	assert_string_equal(nl_hist_spark(b, sizeof(b), s, 1, 60000, 60000, 4, true), "    ");
	/* 30 s later the older half has scrolled off, the newer half is blank */
	assert_string_equal(nl_hist_spark(b, sizeof(b), s, 0, 90000, 60000, 4, false), "*@  ");
	/* started 3 s ago: the samples sit at the right end */
	struct nl_hist h2 = { 0 };

	v[0] = 1;
	nl_hist_add(&h2, 1, 3000, v);
	assert_string_equal(nl_hist_spark(b, sizeof(b), nl_hist_find(&h2, 1), 0, 3000, 60000, 4, false),
			    "   @");
	nl_hist_free(&h2);
	/* more samples than the ring holds: the oldest go */
	for (int t = 61; t <= 200; t++) {
		v[0] = 1;
		nl_hist_add(&h, 42, (uint64_t)t * 1000, v);
	}
	s = nl_hist_find(&h, 42);
	assert_int_equal(s->n, NL_HIST_SAMPLES);
	assert_string_equal(nl_hist_spark(b, sizeof(b), s, 0, 200000, 60000, 4, false), "@@@@");
	/* key 7 stopped at 60 s: pruned with a minute's grace at 200 s */
	nl_hist_prune(&h, 200000, 60000);
	assert_int_equal(h.n, 1);
	assert_null(nl_hist_find(&h, 7));
	assert_non_null(nl_hist_find(&h, 42));
	nl_hist_free(&h);
	assert_int_equal(h.n, 0);
}

static void test_pick_nodes(void **state)
{
	double w[12] = { 0.1, 0, 0, 0.9, 0, 0, 0, 0.5, 0, 0.2, 0.3, 0 };
	int pos[NL_PIC_MAX_NODES];

	(void)state;
	assert_int_equal(nl_pic_pick_nodes(w, 4, pos), 4);
	assert_int_equal(pos[3], 3);
	/* 12 nodes: the 8 heaviest, in node order (ties: the lower first) */
	assert_int_equal(nl_pic_pick_nodes(w, 12, pos), 8);
	static const int want[8] = { 0, 1, 2, 3, 4, 7, 9, 10 };

	for (int i = 0; i < 8; i++)
		assert_int_equal(pos[i], want[i]);
}

/* two nodes at SLIT 20: runs 50/50, memory 100% on node 1 */
static void two_nodes(struct nl_pic_place *p)
{
	memset(p, 0, sizeof(*p));
	p->n = p->nr_nodes = 2;
	p->nid[0] = 0;
	p->nid[1] = 1;
	p->cpu[0] = p->cpu[1] = 0.5;
	p->mem[0] = 0;
	p->mem[1] = 1;
	p->alloc[0] = 0.25;
	p->alloc[1] = 0.75;
	p->dist[0][0] = p->dist[1][1] = 10;
	p->dist[0][1] = p->dist[1][0] = 20;
}

static void test_expected_distance(void **state)
{
	struct nl_pic_place p;

	(void)state;
	two_nodes(&p);
	/* half the accesses local (10), half at 20: 1.5x local */
	assert_float_equal(nl_pic_expected_distance(&p), 1.5, 1e-9);
	p.cpu[0] = 1;
	p.cpu[1] = 0;
	assert_float_equal(nl_pic_expected_distance(&p), 2.0, 1e-9);
	p.dist[0][1] = 0;	/* the one distance that counts is unknown */
	assert_true(isnan(nl_pic_expected_distance(&p)));
	two_nodes(&p);
	p.mem[1] = 0;		/* no memory at all */
	assert_true(isnan(nl_pic_expected_distance(&p)));
}

static void test_place_lines(void **state)
{
	struct nl_pic_place p;
	char out[16][256];
	int n;

	(void)state;
	two_nodes(&p);
	n = nl_pic_place_lines(out, 16, &p, true);
	assert_int_equal(n, 8);
	assert_string_equal(out[1], "          N0  N1   CPU%  SLIT");
	/* row N0: nothing on node 0 (·), half the accesses on node 1 (▓) */
	assert_string_equal(out[2], "  CPU N0   ··  ▓▓    50  10 20");
	assert_string_equal(out[3], "  CPU N1   ··  ▓▓    50  20 10");
	assert_string_equal(out[4], "  memory%   0 100  resident");
	assert_string_equal(out[5], "  allocs%  25  75  this interval");
	assert_non_null(strstr(out[7], "1.50x local"));
	/* every line fits 80 cells with 8 nodes */
	p.n = p.nr_nodes = 8;
	for (int i = 0; i < 8; i++) {
		p.nid[i] = i;
		p.cpu[i] = p.mem[i] = p.alloc[i] = 0.125;
		for (int j = 0; j < 8; j++)
			p.dist[i][j] = i == j ? 10 : 21;
	}
	for (int nr = 8; nr <= 64; nr += 56) {
		p.nr_nodes = nr;	/* 64: the heading says 8 of them are shown */
		n = nl_pic_place_lines(out, 16, &p, false);
		for (int i = 0; i < n; i++)
			if (strlen(out[i]) > 80)
				fail_msg("%d nodes: line %d is %zu columns: \"%s\"", nr, i, strlen(out[i]), out[i]);
	}
	assert_non_null(strstr(out[0], "8 busiest of 64 nodes"));
	/* a short buffer gets what fits */
	assert_int_equal(nl_pic_place_lines(out, 3, &p, false), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meter),
		cmocka_unit_test(test_level_and_glyphs),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_pick_nodes),
		cmocka_unit_test(test_expected_distance),
		cmocka_unit_test(test_place_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
