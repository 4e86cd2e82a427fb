// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_wm.c, reclaim_rate.c, reclaim_psi.c, reclaim_refault.c:
 * watermark parsing, hysteresis, step bound, rate limit, PSI back-off,
 * refault guard. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <cmocka.h>
#include "reclaim_psi.h"
#include "reclaim_rate.h"
#include "reclaim_refault.h"
#include "reclaim_wm.h"

#define MiB (1024ULL * 1024)

static void test_parse(void **state)
{
	struct nl_wm_spec s;

	(void)state;
	assert_int_equal(nl_wm_parse("75%", &s), 0);
	assert_true(s.pct);
	assert_true(s.pct_val == 75.0);
	assert_int_equal(nl_wm_parse("512M", &s), 0);
	assert_int_equal(s.bytes, 512 * MiB);
	assert_int_equal(nl_wm_parse("1GiB", &s), 0);
	assert_int_equal(s.bytes, 1024 * MiB);
	assert_int_equal(nl_wm_parse("4096", &s), 0);
	assert_int_equal(s.bytes, 4096);
	assert_int_equal(nl_wm_parse("0%", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("101%", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("12X", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("-5M", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("nan", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("0x10M", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("1e-300%", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("1e3M", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("0.001%", &s), -EINVAL);
	assert_int_equal(nl_wm_parse("0.5%", &s), 0);
}

static void test_resolve(void **state)
{
	struct nl_wm_spec h, l;
	struct nl_wm w = { 0 };

	(void)state;
	nl_wm_parse("75%", &h);
	nl_wm_parse("60%", &l);
	assert_int_equal(nl_wm_resolve(&h, &l, 100 * MiB, &w), 0);
	assert_int_equal(w.high, 75 * MiB);
	assert_int_equal(w.low, 60 * MiB);
	assert_int_equal(nl_wm_resolve(&h, &l, UINT64_MAX, &w), -EINVAL);	/* no memory.max */
	assert_int_equal(nl_wm_resolve(&l, &h, 100 * MiB, &w), -ERANGE);	/* low >= high */
	nl_wm_parse("80M", &h);
	assert_int_equal(nl_wm_resolve(&h, &l, 100 * MiB, &w), 0);	/* bytes and percent mix */
}

/* Hysteresis: a ramp up and down starts above high, stops at or below low, and
 * does not chatter between the two marks. */
static void test_hysteresis(void **state)
{
	struct nl_wm w = { .high = 75, .low = 60 };
	static const struct { uint64_t u; bool active; } trace[] = {
		{ 10, false }, { 70, false }, { 75, false }, { 76, true }, { 74, true },
		{ 61, true }, { 76, true }, { 60, false }, { 70, false }, { 74, false },
		{ 90, true }, { 59, false },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(trace) / sizeof(trace[0]); i++)
		if (nl_wm_update(&w, trace[i].u) != trace[i].active)
			fail_msg("step %zu usage %llu: active %d, want %d", i,
				 (unsigned long long)trace[i].u, w.active, trace[i].active);
}

/* Steps are bounded by the step size and never go below low. */
static void test_step(void **state)
{
	struct nl_wm w = { .high = 100 * MiB, .low = 80 * MiB };

	(void)state;
	assert_int_equal(nl_wm_step_bytes(&w, 120 * MiB, 128 * 1024), 128 * 1024);
	assert_int_equal(nl_wm_step_bytes(&w, 80 * MiB + 4096, 128 * 1024), 4096);
	assert_int_equal(nl_wm_step_bytes(&w, 80 * MiB, 128 * 1024), 0);
	assert_int_equal(nl_wm_step_bytes(&w, 10 * MiB, 128 * 1024), 0);
}

static void test_rate(void **state)
{
	struct nl_rate r;
	uint64_t got = 0;

	(void)state;
	nl_rate_init(&r, 10.0 * MiB, 0);
	/* one second of burst, then 10 MiB/s */
	assert_int_equal(nl_rate_take(&r, 0, 64 * MiB), 10 * MiB);
	assert_int_equal(nl_rate_take(&r, 0, MiB), 0);
	for (int i = 1; i <= 100; i++)
		got += nl_rate_take(&r, i * 0.1, 64 * MiB);
	assert_true(got >= 99 * MiB && got <= 101 * MiB);	/* 10 s at 10 MiB/s */
	nl_rate_refund(&r, MiB);
	assert_int_equal(nl_rate_take(&r, 10.0, 64 * MiB), MiB);
	nl_rate_init(&r, 0, 0);					/* unlimited */
	assert_int_equal(nl_rate_take(&r, 0, 1ULL << 40), 1ULL << 40);
}

static void test_psi(void **state)
{
	struct nl_psi p;

	(void)state;
	nl_psi_init(&p, 10000, 1, 8);	/* 10 ms of stall per second */
	assert_false(nl_psi_update(&p, 0, 0));
	assert_false(nl_psi_update(&p, 1, 5000));	/* 5 ms/s: quiet */
	assert_true(nl_psi_update(&p, 2, 105000));	/* 100 ms/s: pause 1 s */
	assert_int_equal(p.backoffs, 1);
	assert_true(nl_psi_update(&p, 2.5, 106000));	/* still paused */
	assert_true(nl_psi_update(&p, 3, 300000));	/* pressure again: pause 2 s */
	assert_true(p.until_s >= 5.0 - 1e-9);
	assert_false(nl_psi_update(&p, 6, 300000));	/* quiet: resume, reset */
	assert_true(p.backoff_s == 1);
}

/* Refault guard: evicted pages that come back pause reclaim ahead of the
 * limit (2 s, doubling); a window whose evictions stay out resets it. */
static void test_refault_guard(void **state)
{
	struct nl_refault_guard g = { 0 };

	(void)state;
	assert_false(nl_refault_guard_update(&g, 10.0, 1000, 0));
	/* 1000 pages freed, 100 came back: keeps going */
	assert_false(nl_refault_guard_update(&g, 11.0, 1100, 1000));
	/* within the window: not counted yet */
	assert_false(nl_refault_guard_update(&g, 11.5, 5000, 1500));
	/* 1000 freed, 3900 came back: paused 2 s */
	assert_true(nl_refault_guard_update(&g, 12.0, 5000, 2000));
	assert_int_equal(g.trips, 1);
	assert_true(nl_refault_guard_update(&g, 12.5, 5000, 2000));
	/* again in the next window: paused 4 s from then */
	assert_true(nl_refault_guard_update(&g, 13.0, 6000, 2100));
	assert_int_equal(g.trips, 2);
	assert_true(nl_refault_guard_update(&g, 16.5, 6000, 2100));
	/* an idle window (nothing freed) neither trips nor resets it */
	assert_false(nl_refault_guard_update(&g, 17.5, 6000, 2100));
	assert_true(g.backoff_s > 4.0);
	/* evictions that stay out reset the back-off */
	assert_false(nl_refault_guard_update(&g, 18.5, 6010, 3100));
	assert_true(g.backoff_s == 2.0);
}

/* Only refaults the workload waits on count: anon ones when the agent
 * evicts anon, file ones up to the major faults beyond the anon ones. */
static void test_refault_cost(void **state)
{
	(void)state;
	/* page cache re-read through a mapping with readahead: 5000 file
	 * refaults, 40 faults waited for them, anon left to the kernel */
	assert_int_equal(nl_refault_cost(800, 5000, 840, false), 40);
	/* the same while the agent evicts anon: its swap-ins count */
	assert_int_equal(nl_refault_cost(800, 5000, 840, true), 840);
	/* read(2) brings page cache back without a fault */
	assert_int_equal(nl_refault_cost(0, 9000, 0, false), 0);
	/* every file refault a fault: all of them */
	assert_int_equal(nl_refault_cost(0, 300, 1000, false), 300);
	/* fewer faults than anon refaults (swap cache hits): no file cost */
	assert_int_equal(nl_refault_cost(500, 300, 400, false), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_hysteresis),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_psi),
		cmocka_unit_test(test_refault_guard),
		cmocka_unit_test(test_refault_cost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
