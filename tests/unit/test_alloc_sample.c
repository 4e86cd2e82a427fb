// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/model/alloc_sample.c: the sample period chosen from the host's
 * allocation rate, and the error its estimates carry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>
#include "alloc_sample.h"

#define SEC 1000000000ull

/* A fixed choice is kept whatever the rate. */
static void test_fixed(void **state)
{
	(void)state;
	assert_int_equal(nl_alloc_sample_next(1, 10000000, SEC), 1);
	assert_int_equal(nl_alloc_sample_next(16, 0, SEC), 16);
	assert_int_equal(nl_alloc_sample_next(1000, 5, SEC), 1000);
}

/* Automatic: every allocation below the rate, then the smallest power of
 * two that brings the counted ones back under it, host-wide. */
static void test_auto(void **state)
{
	(void)state;
	assert_int_equal(nl_alloc_sample_next(0, 0, SEC), 1);
	/* 20,000 a second exactly: still every one */
	assert_int_equal(nl_alloc_sample_next(0, 20000, SEC), 1);
	assert_int_equal(nl_alloc_sample_next(0, 20001, SEC), 2);
	/* a page-fault load: ~400,000 a second -> 32 (20 rounded up) */
	assert_int_equal(nl_alloc_sample_next(0, 2000000, 5 * SEC), 32);
	/* 100,000 a second -> 8 (5 rounded up) */
	assert_int_equal(nl_alloc_sample_next(0, 500000, 5 * SEC), 8);
	/* never past the cap */
	assert_int_equal(nl_alloc_sample_next(0, 1ull << 40, SEC), NL_ALLOC_SAMPLE_MAX);
	/* no interval: no rate to go by */
	assert_int_equal(nl_alloc_sample_next(0, 1000000, 0), 1);
}

/* sqrt((period - 1) / events): 0 when exact, -1 for nothing seen. */
static void test_error(void **state)
{
	(void)state;
	assert_true(nl_alloc_sample_error(1, 10) == 0);
	assert_true(nl_alloc_sample_error(0, 10) == 0);
	assert_true(nl_alloc_sample_error(16, 0) == -1);
	assert_true(nl_alloc_sample_error(1, 0) == 0);
	assert_true(fabs(nl_alloc_sample_error(16, 15.0 * 400) - 0.05) < 1e-12);
	/* 2% needs 2,500 x (period - 1) events: at 64, ~157,500 */
	assert_true(nl_alloc_sample_error(64, 157500) <= 0.02 + 1e-12);
	assert_true(nl_alloc_sample_error(64, 150000) > 0.02);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
