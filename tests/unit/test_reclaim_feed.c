// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_feed.c: the snapshot's vmscan figures become the
 * weights' scanned/rotated input (docs/reclaim.md, How it chooses a node): which
 * figures count, and a node that rotates what reclaim scans (hot) losing
 * its share to one that does not (cold). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "reclaim_feed.h"
#include "lottery.h"

#define CG 42

static struct nl_vmscan_figs *vf;	/* two node slots */

/* vf zeroed with its two node slots (allocated once, reachable to the end) */
static void reset_vf(void)
{
	if (!vf)
		vf = malloc(nl_vmscan_figs_size(2));
	assert_non_null(vf);
	memset(vf, 0, nl_vmscan_figs_size(2));
	vf->nr_nids = 2;
}

/* the interval's pages of context x on node n */
#define VN(x, n) (vf->node[n].delta[x])
static struct nl_cgroup cgs[2];
static struct nl_snapshot snap;

/* Node 0 cold: limit reclaim scanned 1000 file pages, 50 rotated, kswapd
 * 200 / 10 more, and a MADV_PAGEOUT of 500 pages all "rotated" (must not
 * count). Node 1 hot: 1000 scanned, 900 rotated. Anon 100/100 on node 1
 * by direct reclaim. */
static void setup_snap(void)
{
	reset_vf();
	memset(cgs, 0, sizeof(cgs));
	memset(&snap, 0, sizeof(snap));
	VN(NL_VS_LIMIT, 0).scanned[1] = 1000;
	VN(NL_VS_LIMIT, 0).rotated[1] = 50;
	VN(NL_VS_KSWAPD, 0).scanned[1] = 200;
	VN(NL_VS_KSWAPD, 0).rotated[1] = 10;
	VN(NL_VS_PROACTIVE, 0).pageout_scanned = 500;
	VN(NL_VS_PROACTIVE, 0).pageout_rotated = 500;
	VN(NL_VS_LIMIT, 1).scanned[1] = 1000;
	VN(NL_VS_LIMIT, 1).rotated[1] = 900;
	VN(NL_VS_DIRECT, 1).scanned[0] = 100;
	VN(NL_VS_DIRECT, 1).rotated[0] = 100;
	cgs[0].id = 1;
	snprintf(cgs[0].path, sizeof(cgs[0].path), "/");
	cgs[1].id = CG;
	cgs[1].depth = 1;
	snprintf(cgs[1].path, sizeof(cgs[1].path), "/a");
	cgs[1].vmscan = vf;
	snap.src.vmscan = true;
	snap.nr_cgroups = 2;
	snap.cgroups = cgs;
}

static void test_delta_sums_contexts_not_pageout(void **state)
{
	struct nl_scan_node d[2];

	(void)state;
	setup_snap();
	nl_feed_delta_from_vmscan(vf, 2, false, d);
	assert_int_equal(d[0].scanned[1], 1200);
	assert_int_equal(d[0].rotated[1], 60);
	assert_int_equal(d[0].scanned[0], 0);
	assert_int_equal(d[1].scanned[0], 100);
	assert_int_equal(d[1].rotated[0], 100);
	assert_int_equal(d[1].rotated[1], 900);
	nl_feed_delta_from_vmscan(NULL, 2, false, d);
	assert_int_equal(d[0].scanned[1], 0);
}

static void weights(struct nl_scan_src *src, struct nl_lot_weights *w)
{
	struct nl_lot_in in = { .nr_nodes = 2, .swappiness = 60, .swap_ok = true };
	struct nl_scan_node r[2];
	bool have = nl_scan_get(src, CG, 2, r) == 0;

	for (int i = 0; i < 2; i++) {
		in.n[i].inactive_file = 10000;
		in.n[i].have_scan = have;
		memcpy(in.n[i].scanned, r[i].scanned, sizeof(r[i].scanned));
		memcpy(in.n[i].rotated, r[i].rotated, sizeof(r[i].rotated));
	}
	nl_lot_weights(&in, w);
}

/* Under MGLRU the folios the scan sorted into a younger generation (refill)
 * count as rotated; under the classic LRU refill is deactivation and does
 * not. Node 0: 1000 scanned, 30 rotated, 400 refill. */
static void test_mglru_refill_counts_as_rotated(void **state)
{
	struct nl_scan_node d[2];
	struct nl_scan_src *src = nl_scan_src_new(4);
	uint64_t id = CG;
	struct nl_lot_weights w;

	(void)state;
	setup_snap();
	reset_vf();
	VN(NL_VS_LIMIT, 0).scanned[1] = 1000;
	VN(NL_VS_LIMIT, 0).rotated[1] = 30;
	VN(NL_VS_LIMIT, 0).refill[1] = 400;
	VN(NL_VS_KSWAPD, 0).refill[0] = 5;
	nl_feed_delta_from_vmscan(vf, 2, false, d);
	assert_int_equal(d[0].rotated[1], 30);
	assert_int_equal(d[0].rotated[0], 0);
	nl_feed_delta_from_vmscan(vf, 2, true, d);
	assert_int_equal(d[0].scanned[1], 1000);
	assert_int_equal(d[0].rotated[1], 430);
	assert_int_equal(d[0].rotated[0], 5);
	/* through the snapshot: its src.mglru picks the rule */
	snap.src.mglru = true;
	assert_int_equal(nl_feed_snapshot(src, &snap, &id, 1), 1);
	weights(src, &w);
	/* 10000 * (1000 - 430) / 1001 = 5694, * 140 / 200 = 3985 */
	assert_int_equal(w.w[0], 3985);
	nl_scan_src_free(src);
}

static void test_rotation_moves_the_share(void **state)
{
	struct nl_scan_src *src = nl_scan_src_new(4);
	struct nl_lot_weights w;
	struct nl_lot_table t;
	uint64_t id = CG, absent = 77, ids[2] = { CG, 77 };

	(void)state;
	setup_snap();
	/* before any feed: the cold-start prior, both nodes alike (10000 * 140/200) */
	weights(src, &w);
	assert_int_equal(w.w[0], 7000);
	assert_int_equal(w.w[1], 7000);
	/* one interval: the absent id is skipped, ours is fed */
	assert_int_equal(nl_feed_snapshot(src, &snap, ids, 2), 1);
	assert_int_equal(nl_scan_get(src, absent, 2, (struct nl_scan_node[2]){}), -ENODATA);
	weights(src, &w);
	/* the weight rule: 10000 * (1200 - 60) / 1201 = 9492, * 140 / 200 = 6644;
	 * hot node 10000 * (1000 - 900) / 1001 = 999, * 140 / 200 = 699 */
	assert_int_equal(w.w[0], 6644);
	assert_int_equal(w.w[1], 699);
	memset(&t, 0, sizeof(t));
	nl_lot_tickets(w.w, w.eligible, &t);
	assert_true(t.e[0].tickets > 9 * t.e[1].tickets);
	/* node 1 cools down: it stops rotating; after a few intervals its
	 * share comes back (decay: recent = recent / 2 + delta) */
	reset_vf();
	VN(NL_VS_LIMIT, 0).scanned[1] = 1000;
	VN(NL_VS_LIMIT, 0).rotated[1] = 900;
	VN(NL_VS_LIMIT, 1).scanned[1] = 1000;
	for (int i = 0; i < 6; i++)
		assert_int_equal(nl_feed_snapshot(src, &snap, &id, 1), 1);
	weights(src, &w);
	assert_true(w.w[1] > 5 * w.w[0]);
	nl_scan_src_free(src);
}

static void test_no_vmscan_no_feed(void **state)
{
	struct nl_scan_src *src = nl_scan_src_new(1);
	uint64_t id = CG;

	(void)state;
	setup_snap();
	snap.src.vmscan = false;
	assert_int_equal(nl_feed_snapshot(src, &snap, &id, 1), -ENODATA);
	assert_int_equal(nl_feed_snapshot(NULL, &snap, &id, 1), -EINVAL);
	snap.src.vmscan = true;
	cgs[1].removed = true;	/* a removed cgroup is not fed */
	assert_int_equal(nl_feed_snapshot(src, &snap, &id, 1), 0);
	cgs[1].removed = false;
	cgs[1].vmscan = NULL;	/* never reclaimed: zeros, so history decays */
	assert_int_equal(nl_feed_snapshot(src, &snap, &id, 1), 1);
	nl_scan_src_free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_sums_contexts_not_pageout),
		cmocka_unit_test(test_rotation_moves_the_share),
		cmocka_unit_test(test_mglru_refill_counts_as_rotated),
		cmocka_unit_test(test_no_vmscan_no_feed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
