// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* bpf/include/locality.h: the kernel-compatible bucket vectors of the seed, and no v1 bucketing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "locality.h"

struct vec {
	u64 l, r;
	int bucket;
};

/* Every vector the seed lists for 8 * L / (L + R + 1). */
static const struct vec compat[] = {
	{ 0, 1, 0 }, { 1, 9, 0 }, { 19, 81, 1 }, { 29, 71, 2 }, { 1, 1, 2 },
	{ 50, 50, 3 }, { 500, 500, 3 }, { 1, 0, 4 }, { 3, 0, 6 }, { 7, 0, 7 },
	{ 100, 0, 7 }, { 9, 1, 6 }, { 99, 1, 7 }, { 12, 88, 0 }, { 13, 87, 1 },
	{ 125, 875, 0 }, { 126, 874, 1 }, { 875, 125, 6 },
};

static void test_compat_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(compat) / sizeof(compat[0]); i++) {
		int b = nl_loc_bucket(compat[i].l, compat[i].r);

		if (b != compat[i].bucket)
			fail_msg("nl_loc_bucket(%llu, %llu) = %d, want %d",
				 (unsigned long long)compat[i].l, (unsigned long long)compat[i].r,
				 b, compat[i].bucket);
	}
}

/* 10% locality is bucket 0, never 7 (the v1 unsigned wrap). */
static void test_loc2_low_locality(void **state)
{
	(void)state;
	assert_int_equal(nl_loc_bucket(1, 9), 0);
	assert_int_equal(nl_loc_bucket(0, 1), 0);
	assert_int_equal(nl_loc_bucket(1, 5), 1);	/* 8/7 = 1 */
	assert_int_equal(nl_loc_bucket_exact(1, 9), 0);
}

static void test_no_faults(void **state)
{
	(void)state;
	assert_int_equal(nl_loc_bucket(0, 0), -1);
	assert_int_equal(nl_loc_bucket_exact(0, 0), -1);
}

/* The bucket is always in [0,7], monotonic in L for fixed L+R, and equals
 * the reference floor(8L/(L+R+1)) computed in double. */
static void test_range_and_monotonic(void **state)
{
	(void)state;
	for (u64 tot = 1; tot <= 300; tot++) {
		int prev = -1;

		for (u64 l = 0; l <= tot; l++) {
			int b = nl_loc_bucket(l, tot - l);
			int ref = (int)((8.0 * (double)l) / (double)(tot + 1));

			assert_in_range(b, 0, 7);
			assert_int_equal(b, ref);
			assert_true(b >= prev);
			prev = b;
		}
		assert_int_equal(nl_loc_bucket(0, tot), 0);
	}
}

/* Large counts: no overflow for realistic page counts. */
static void test_large(void **state)
{
	(void)state;
	assert_int_equal(nl_loc_bucket(1ULL << 40, 0), 7);
	assert_int_equal(nl_loc_bucket(1ULL << 40, 1ULL << 40), 3);
	assert_int_equal(nl_loc_bucket(0, 1ULL << 50), 0);
}

/* Exact mode: min(7, 8L/(L+R)); differs from compat where the +1 bites. */
static void test_exact(void **state)
{
	(void)state;
	assert_int_equal(nl_loc_bucket_exact(1, 0), 7);
	assert_int_equal(nl_loc_bucket_exact(1, 1), 4);
	assert_int_equal(nl_loc_bucket_exact(50, 50), 4);
	assert_int_equal(nl_loc_bucket_exact(125, 875), 1);
	assert_int_equal(nl_loc_bucket_exact(124, 876), 0);
	assert_int_equal(nl_loc_bucket_exact(7, 1), 7);
	assert_int_equal(nl_loc_bucket_exact(3, 1), 6);
	assert_int_equal(nl_loc_bucket_exact(0, 5), 0);
	for (u64 tot = 1; tot <= 200; tot++)
		for (u64 l = 0; l <= tot; l++) {
			int b = nl_loc_bucket_exact(l, tot - l);

			assert_in_range(b, 0, 7);
			/* compat never exceeds exact */
			assert_true(nl_loc_bucket(l, tot - l) <= b);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compat_vectors),
		cmocka_unit_test(test_loc2_low_locality),
		cmocka_unit_test(test_no_faults),
		cmocka_unit_test(test_range_and_monotonic),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
