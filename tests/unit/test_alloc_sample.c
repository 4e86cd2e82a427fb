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
	assert_int_equal(nl_alloc_sample_next(1, 10000000, SEC, 2), 1);
	assert_int_equal(nl_alloc_sample_next(16, 0, SEC, 2), 16);
	assert_int_equal(nl_alloc_sample_next(1000, 5, SEC, 1), 1000);
}

/* Automatic: every allocation below the rate, then the smallest power of
 * two that brings the counted ones back under it, per CPU. */
static void test_auto(void **state)
{
	(void)state;
	assert_int_equal(nl_alloc_sample_next(0, 0, SEC, 2), 1);
	/* 20,000 pages/s per CPU exactly: still every one */
	assert_int_equal(nl_alloc_sample_next(0, 40000, SEC, 2), 1);
	assert_int_equal(nl_alloc_sample_next(0, 40002, SEC, 2), 2);
	/* the page-fault load: ~400,000 pages/s on one CPU -> 32 (20 rounded up) */
	assert_int_equal(nl_alloc_sample_next(0, 2000000, 5 * SEC, 1), 32);
	/* the same pages spread over 8 CPUs: 50,000 per CPU -> 4 */
	assert_int_equal(nl_alloc_sample_next(0, 2000000, 5 * SEC, 8), 4);
	/* never past the cap */
	assert_int_equal(nl_alloc_sample_next(0, 1ull << 40, SEC, 1), NL_ALLOC_SAMPLE_MAX);
	/* no interval, no CPUs: no rate to go by */
	assert_int_equal(nl_alloc_sample_next(0, 1000000, 0, 2), 1);
	assert_int_equal(nl_alloc_sample_next(0, 30000, SEC, 0), 2);
}

/* sqrt((period - 1) / events): 0 when exact, 1 for nothing seen. */
static void test_error(void **state)
{
	(void)state;
	assert_true(nl_alloc_sample_error(1, 10) == 0);
	assert_true(nl_alloc_sample_error(0, 10) == 0);
	assert_true(nl_alloc_sample_error(16, 0) == 1);
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
