// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* page_layout.c: the node and zone fields of struct page's flags word,
 * derived from the two figures a kernel's BTF gives (__MAX_NR_ZONES and
 * the length of struct zonelist's _zonerefs), checked against
 * page-flags-layout.h's formulas by hand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "page_layout.h"

/* The host's 6.18: NODES_SHIFT 10, five zones (DMA, DMA32, NORMAL,
 * MOVABLE, DEVICE): 1024 * 5 + 1 zonerefs; node in bits 54-63, zone in
 * 51-53. */
static void test_nodes_shift_10(void **state)
{
	struct nl_page_layout pl;

	(void)state;
	assert_int_equal(nl_page_layout_compute(5, 1024 * 5 + 1, &pl), 0);
	assert_int_equal(pl.nodes_shift, 10);
	assert_int_equal(pl.max_nr_zones, 5);
	assert_int_equal(pl.node_shift, 54);
	assert_int_equal(pl.node_mask, 1023);
	assert_int_equal(pl.zone_shift, 51);
	assert_int_equal(pl.zone_mask, 7);
	/* node 3, zone NORMAL (2) as a page's flags word holds them */
	uint64_t flags = (3ull << 54) | (2ull << 51) | 0x2f;

	assert_int_equal((flags >> pl.node_shift) & pl.node_mask, 3);
	assert_int_equal((flags >> pl.zone_shift) & pl.zone_mask, 2);
}

/* NODES_SHIFT 6 and four zones: a 2-bit zone field. */
static void test_nodes_shift_6(void **state)
{
	struct nl_page_layout pl;

	(void)state;
	assert_int_equal(nl_page_layout_compute(4, 64 * 4 + 1, &pl), 0);
	assert_int_equal(pl.node_shift, 58);
	assert_int_equal(pl.node_mask, 63);
	assert_int_equal(pl.zone_shift, 56);
	assert_int_equal(pl.zone_mask, 3);
}

/* A kernel without NUMA (MAX_NUMNODES 1): no node field, node 0. */
static void test_no_numa(void **state)
{
	struct nl_page_layout pl;

	(void)state;
	assert_int_equal(nl_page_layout_compute(3, 3 + 1, &pl), 0);
	assert_int_equal(pl.node_mask, 0);
	assert_int_equal(pl.zone_shift, 62);
	assert_int_equal(pl.zone_mask, 3);
}

/* Figures that fit no layout: refused, so the loader falls back to the
 * pfn table. */
static void test_refused(void **state)
{
	struct nl_page_layout pl;

	(void)state;
	/* 1000 nodes: not a power of two */
	assert_int_equal(nl_page_layout_compute(5, 1000 * 5 + 1, &pl), -EINVAL);
	/* no terminating entry */
	assert_int_equal(nl_page_layout_compute(5, 1024 * 5, &pl), -EINVAL);
	/* more zones than the zone field can hold */
	assert_int_equal(nl_page_layout_compute(9, 9 * 4 + 1, &pl), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nodes_shift_10),
		cmocka_unit_test(test_nodes_shift_6),
		cmocka_unit_test(test_no_numa),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
