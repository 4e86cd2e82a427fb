// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/source/node_exact.c: the exact node and zone totals read from the
 * per-CPU rows of the node_cells map, in the layout nl_types.h gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "node_exact.h"

/* Rows are whole cache lines: four cells (64 bytes) apiece. */
static void test_row(void **state)
{
	(void)state;
	assert_int_equal(nl_node_exact_row(1), 12);	/* 1 x (8 + 4) */
	assert_int_equal(nl_node_exact_row(2), 24);
	assert_int_equal(nl_node_exact_row(3), 36);
	assert_int_equal(nl_node_exact_row(5), 60);
	assert_int_equal(nl_node_exact_row(64), 768);
	assert_int_equal(nl_node_exact_row(0), 12);
}

/* Two nodes, CPU 0 on node 0 and CPU 1 on node 1:
 *  CPU 0: 5 local hits on node 0 zone 2, one page each;
 *         3 pages of node 1 zone 2 meant for node 0 (remote misses);
 *  CPU 1: 2 order-2 allocations on node 1 zone 3 meant for node 0 (a
 *         bind policy that missed: local misses);
 *         1 page of node 0 zone 1 of unknown intent (remote).
 * Cells as the BPF program leaves them. */
static void test_read(void **state)
{
	enum { N = 2, Z = NL_NODEX_ZONES, P = N * Z };
	uint32_t row = nl_node_exact_row(N);
	struct nl_node_cell cells[2 * 24];
	struct nl_node_counts nodes[NL_MAX_NODES];
	struct nl_bpf b;
	struct nl_node_cell *c0 = cells, *c1 = cells + row;

	(void)state;
	assert_int_equal(row, 24);
	memset(cells, 0, sizeof(cells));
	memset(nodes, 0, sizeof(nodes));
	memset(&b, 0, sizeof(b));
	c0[0 * Z + 2] = (struct nl_node_cell){ .a = 5, .b = 5 };
	c0[1 * Z + 2].b = 3;
	c0[P + N + 1].b = 3;		/* remote misses on page node 1 */
	c0[P + 3 * N + 0].a = 3;	/* from node 0's CPUs, placed elsewhere */
	c0[P + 3 * N + 0].b = 3;	/* meant for node 0, placed elsewhere */
	c1[1 * Z + 3].b = 8;
	c1[P + 1].a = 2;		/* local misses on node 1 */
	c1[P + 3 * N + 0].b += 2;	/* meant for node 0 */
	c1[0 * Z + 1].b = 1;
	c1[P + 2 * N + 0].a = 1;	/* remote, unknown intent, page node 0 */
	c1[P + 3 * N + 1].a = 1;	/* from node 1's CPUs */
	b.node_cells = cells;
	b.nr_cpus = 2;
	b.nr_nodes = N;
	nl_node_exact_read(&b, nodes);

	assert_int_equal(nodes[0].events_local, 5);
	assert_int_equal(nodes[0].events_other, 1);
	assert_int_equal(nodes[0].events_hit, 5);
	assert_int_equal(nodes[0].events_miss, 0);
	assert_int_equal(nodes[0].events_foreign, 5);
	assert_int_equal(nodes[0].events_from_remote, 3);
	assert_int_equal(nodes[0].pages, 6);
	assert_int_equal(nodes[0].pages_by_zone[2], 5);
	assert_int_equal(nodes[0].pages_by_zone[1], 1);

	assert_int_equal(nodes[1].events_local, 2);
	assert_int_equal(nodes[1].events_other, 3);
	assert_int_equal(nodes[1].events_hit, 0);
	assert_int_equal(nodes[1].events_miss, 5);
	assert_int_equal(nodes[1].events_foreign, 0);
	assert_int_equal(nodes[1].events_from_remote, 1);
	assert_int_equal(nodes[1].pages, 11);
	assert_int_equal(nodes[1].pages_by_zone[2], 3);
	assert_int_equal(nodes[1].pages_by_zone[3], 8);
	assert_int_equal(nodes[2].pages, 0);

	/* it adds to what is there (run_ns from the sched map stays) */
	nodes[0].run_ns = 7;
	nl_node_exact_read(&b, nodes);
	assert_int_equal(nodes[0].events_local, 10);
	assert_int_equal(nodes[0].run_ns, 7);
}

/* No map (the alloc object did not load): nothing is touched. */
static void test_none(void **state)
{
	struct nl_node_counts nodes[NL_MAX_NODES];
	struct nl_bpf b;

	(void)state;
	memset(nodes, 0, sizeof(nodes));
	memset(&b, 0, sizeof(b));
	b.nr_cpus = 2;
	b.nr_nodes = 2;
	nl_node_exact_read(&b, nodes);
	assert_int_equal(nodes[0].events_local, 0);
	assert_int_equal(nodes[1].pages, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
