// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_scan.c: the decayed scanned/rotated source, and its
 * effect on the weights (a hot node, rotating most of what is scanned,
 * loses its share; docs/reclaim.md, How it chooses a node). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <cmocka.h>
#include "reclaim_scan.h"
#include "lottery.h"

static void test_not_connected(void **state)
{
	struct nl_scan_node out[2];

	(void)state;
	assert_int_equal(nl_scan_get(NULL, 5, 2, out), -ENODATA);
	assert_int_equal(out[0].scanned[1], 0);
}

static void test_decay_and_clamp(void **state)
{
	struct nl_scan_src *s = nl_scan_src_new(2);
	struct nl_scan_node d[2] = { { { 100, 1000 }, { 90, 100 } }, { { 0, 10 }, { 0, 50 } } };
	struct nl_scan_node out[2];

	(void)state;
	assert_non_null(s);
	assert_int_equal(nl_scan_get(s, 7, 2, out), -ENODATA);
	assert_int_equal(nl_scan_feed(s, 7, d, 2), 0);
	assert_int_equal(nl_scan_get(s, 7, 2, out), 0);
	assert_int_equal(out[0].scanned[1], 1000);
	assert_int_equal(out[1].rotated[1], 10);		/* clamped to scanned (a page rotates only after a scan) */
	assert_int_equal(nl_scan_feed(s, 7, d, 2), 0);
	assert_int_equal(out[0].scanned[0], 100);
	nl_scan_get(s, 7, 2, out);
	assert_int_equal(out[0].scanned[1], 1500);		/* 1000 / 2 + 1000 */
	assert_int_equal(out[0].rotated[0], 135);		/* 90 / 2 + 90 */
	memset(d, 0, sizeof(d));
	for (int i = 0; i < 20; i++)
		nl_scan_feed(s, 7, d, 2);
	nl_scan_get(s, 7, 2, out);
	assert_int_equal(out[0].scanned[1], 0);			/* decayed away */
	assert_int_equal(nl_scan_feed(s, 8, d, 2), 0);
	assert_int_equal(nl_scan_feed(s, 9, d, 2), -ENOSPC);	/* bounded */
	nl_scan_forget(s, 8);
	assert_int_equal(nl_scan_feed(s, 9, d, 2), 0);
	assert_int_equal(nl_scan_feed(s, 9, d, NL_MAX_NODES + 1), -EINVAL);
	nl_scan_src_free(s);
}

/* Two nodes with the same file pages; node 1 rotates 90% of its scans:
 * its weight and tickets drop well below node 0's. */
static void test_hot_node_loses_share(void **state)
{
	struct nl_scan_src *s = nl_scan_src_new(1);
	struct nl_scan_node d[2] = { { { 0, 1000 }, { 0, 50 } }, { { 0, 1000 }, { 0, 900 } } };
	struct nl_scan_node r[2];
	struct nl_lot_in in = { .nr_nodes = 2, .swappiness = 60, .swap_ok = true };
	struct nl_lot_weights w;

	(void)state;
	nl_scan_feed(s, 3, d, 2);
	assert_int_equal(nl_scan_get(s, 3, 2, r), 0);
	for (int i = 0; i < 2; i++) {
		in.n[i].inactive_file = 10000;
		in.n[i].have_scan = true;
		memcpy(in.n[i].scanned, r[i].scanned, sizeof(r[i].scanned));
		memcpy(in.n[i].rotated, r[i].rotated, sizeof(r[i].rotated));
	}
	nl_lot_weights(&in, &w);
	assert_true(w.w[0] > 8 * w.w[1]);	/* 950/1001 vs 100/1001 */
	nl_scan_src_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_connected),
		cmocka_unit_test(test_decay_and_clamp),
		cmocka_unit_test(test_hot_node_loses_share),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
