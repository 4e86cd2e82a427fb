// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* page_layout.c: the node and zone fields of struct page's flags word,
 * derived from a BTF that has what a kernel's has (enum zone_type, struct
 * zonelist), checked against page-flags-layout.h's formulas by hand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <bpf/btf.h>
#include <cmocka.h>
#include "page_layout.h"

/* A BTF with enum zone_type { ..., __MAX_NR_ZONES = @zones } and struct
 * zonelist { struct zoneref _zonerefs[@refs]; } (no enum when @zones < 0). */
static struct btf *fake_btf(int zones, unsigned refs)
{
	struct btf *b = btf__new_empty();
	int i32, zr, arr, zl;

	assert_non_null(b);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	if (zones >= 0) {
		assert_true(btf__add_enum(b, "zone_type", 4) > 0);
		assert_int_equal(btf__add_enum_value(b, "ZONE_DMA", 0), 0);
		assert_int_equal(btf__add_enum_value(b, "__MAX_NR_ZONES", zones), 0);
	}
	zr = btf__add_struct(b, "zoneref", 16);
	assert_int_equal(btf__add_field(b, "zone_idx", i32, 64, 0), 0);
	arr = btf__add_array(b, i32, zr, refs);
	zl = btf__add_struct(b, "zonelist", 16 * refs);
	assert_int_equal(btf__add_field(b, "_zonerefs", arr, 0, 0), 0);
	assert_true(zl > 0);
	return b;
}

/* The host's 6.18: NODES_SHIFT 10, five zones (DMA, DMA32, NORMAL,
 * MOVABLE, DEVICE): 1024 * 5 + 1 zonerefs; node in bits 54-63, zone in
 * 51-53. */
static void test_nodes_shift_10(void **state)
{
	struct btf *b = fake_btf(5, 1024 * 5 + 1);
	struct nl_page_layout pl;

	(void)state;
	assert_int_equal(nl_page_layout_from_btf(b, &pl), 0);
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
	btf__free(b);
}

/* NODES_SHIFT 6 and four zones: a 2-bit zone field. */
static void test_nodes_shift_6(void **state)
{
	struct btf *b = fake_btf(4, 64 * 4 + 1);
	struct nl_page_layout pl;

	(void)state;
	assert_int_equal(nl_page_layout_from_btf(b, &pl), 0);
	assert_int_equal(pl.node_shift, 58);
	assert_int_equal(pl.node_mask, 63);
	assert_int_equal(pl.zone_shift, 56);
	assert_int_equal(pl.zone_mask, 3);
	btf__free(b);
}

/* A kernel without NUMA (MAX_NUMNODES 1): no node field, node 0. */
static void test_no_numa(void **state)
{
	struct btf *b = fake_btf(3, 3 + 1);
	struct nl_page_layout pl;

	(void)state;
	assert_int_equal(nl_page_layout_from_btf(b, &pl), 0);
	assert_int_equal(pl.node_mask, 0);
	assert_int_equal(pl.zone_shift, 62);
	assert_int_equal(pl.zone_mask, 3);
	btf__free(b);
}

/* Figures that fit no layout, or types that are missing: refused, so
 * the loader falls back to the pfn table. */
static void test_refused(void **state)
{
	struct nl_page_layout pl;
	struct btf *b;

	(void)state;
	b = fake_btf(5, 1000 * 5 + 1);	/* 1000 nodes: not a power of two */
	assert_int_equal(nl_page_layout_from_btf(b, &pl), -EINVAL);
	btf__free(b);
	b = fake_btf(5, 1024 * 5);	/* no terminating entry */
	assert_int_equal(nl_page_layout_from_btf(b, &pl), -EINVAL);
	btf__free(b);
	b = fake_btf(-1, 1024 * 5 + 1);	/* no enum zone_type */
	assert_int_equal(nl_page_layout_from_btf(b, &pl), -ENOENT);
	btf__free(b);
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
