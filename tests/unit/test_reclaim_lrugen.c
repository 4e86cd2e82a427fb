// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* reclaim_lrugen.c: reading one memcg's generations on one node from the
 * debugfs lru_gen listing (memcg id, min/max seq, the old generations). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "reclaim_lrugen.h"

static const char listing[] =
	"memcg     1 /\n"
	" node     0\n"
	"        10      90000          100         200\n"
	"        11      50000           -0         300\n"
	"memcg    28 /rcold\n"
	" node     0\n"
	"         3       8000            5           0\n"
	"         4        100            7           1\n"
	" node     1\n"
	"         5       9000         1000          10\n"
	"         6       4000         2000          20\n"
	"         7       1500          300          30\n"
	"         8         20         4096          40\n"
	"memcg    29 /rcold/sub\n"
	" node     1\n"
	"         1        100            1           1\n";

static int parse(const char *rel, int nid, unsigned *id, struct nl_lrugen_node *n)
{
	FILE *f = fmemopen((void *)listing, sizeof(listing) - 1, "r");
	int e = nl_lrugen_parse(f, rel, nid, id, n);

	fclose(f);
	return e;
}

static void test_node_of_memcg(void **state)
{
	struct nl_lrugen_node n;
	unsigned id = 0;

	(void)state;
	assert_int_equal(parse("/rcold", 1, &id, &n), 0);
	assert_int_equal(id, 28);
	assert_true(n.found);
	assert_int_equal(n.min_seq, 5);
	assert_int_equal(n.max_seq, 8);
	assert_int_equal(n.young_age_ms, 20);
	/* generations <= max - 2 = 6: the ones eviction may take */
	assert_int_equal(n.old_anon, 3000);
	assert_int_equal(n.old_file, 30);
	assert_int_equal(n.anon, 7396);
	assert_int_equal(n.file, 100);
}

static void test_root_and_missing(void **state)
{
	struct nl_lrugen_node n;
	unsigned id = 0;

	(void)state;
	assert_int_equal(parse("/", 0, &id, &n), 0);
	assert_int_equal(id, 1);
	assert_int_equal(n.anon, 100);	/* "-0": a type below its min_seq */
	assert_int_equal(n.old_anon, 0);	/* two generations: nothing old */
	/* the memcg is listed but has nothing on node 2 */
	assert_int_equal(parse("/rcold", 2, &id, &n), 0);
	assert_false(n.found);
	/* a path prefix is not the memcg */
	assert_int_equal(parse("/rcol", 1, &id, &n), -ENOENT);
	assert_int_equal(parse("/rcold/sub", 1, &id, &n), 0);
	assert_int_equal(id, 29);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_node_of_memcg),
		cmocka_unit_test(test_root_and_missing),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
