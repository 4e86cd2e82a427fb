// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_standby.c: when the agent stands by for a memcg
 * it cannot help, and how seldom it looks at it then. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "reclaim_standby.h"

#define MiB (1024ULL * 1024)

/* Each reason alone puts it on standby; a memcg with an eligible node,
 * no guard, progress and resolved watermarks is helped. */
static void test_why(void **state)
{
	char b[256];

	(void)state;
	assert_int_equal(nl_sb_why(0x5, false, false, false), 0);
	assert_int_equal(nl_sb_why(0, false, false, false), NL_SB_NO_NODE);
	assert_int_equal(nl_sb_why(0x1, true, false, false), NL_SB_COMES_BACK);
	assert_int_equal(nl_sb_why(0x1, false, true, false), NL_SB_NO_PROGRESS);
	assert_int_equal(nl_sb_why(0x1, false, false, true), NL_SB_NO_WATERMARKS);
	assert_int_equal(nl_sb_why(0, true, false, false), NL_SB_NO_NODE | NL_SB_COMES_BACK);
	assert_string_equal(nl_sb_why_str(NL_SB_NO_NODE | NL_SB_NO_PROGRESS, b, sizeof(b)),
			    "no node holds pages the backend would free, its last pass freed nothing");
}

/* No eligible node, or a pass without progress, counts only after
 * NL_SB_TICKS full ticks in a row: in the 2011 run's shape eligibility
 * comes and goes within seconds, and an agent standing by at the first
 * miss freed nothing there. The guard counts at once. */
static void test_observe(void **state)
{
	struct nl_standby s;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (int i = 1; i < NL_SB_TICKS; i++)
		assert_int_equal(nl_sb_observe(&s, 0, false, false, false), 0);
	assert_int_equal(nl_sb_observe(&s, 0, false, false, false), NL_SB_NO_NODE);
	/* one tick with a node breaks the streak */
	assert_int_equal(nl_sb_observe(&s, 0x2, false, false, false), 0);
	assert_int_equal(nl_sb_observe(&s, 0, false, false, false), 0);
	memset(&s, 0, sizeof(s));
	for (int i = 1; i < NL_SB_TICKS; i++)
		assert_int_equal(nl_sb_observe(&s, 0x1, false, true, false), 0);
	assert_int_equal(nl_sb_observe(&s, 0x1, false, true, false), NL_SB_NO_PROGRESS);
	assert_int_equal(nl_sb_observe(&s, 0x1, false, false, false), 0);
	assert_int_equal(nl_sb_observe(&s, 0x1, true, false, false), NL_SB_COMES_BACK);
}

/* On and off with their transitions, enters counted, time summed. */
static void test_update(void **state)
{
	struct nl_standby s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(nl_sb_update(&s, 0, 1.0, 10 * MiB, 0), 0);
	assert_false(s.on);
	assert_int_equal(nl_sb_update(&s, NL_SB_NO_NODE, 2.0, 16 * MiB, 0), 1);
	assert_true(s.on);
	assert_int_equal(nl_sb_update(&s, NL_SB_NO_NODE, 3.0, 16 * MiB, 0), 0);
	assert_true(nl_sb_seconds(&s, 5.0) == 3.0);
	assert_int_equal(nl_sb_update(&s, 0, 6.0, 16 * MiB, 0), -1);
	assert_false(s.on);
	assert_int_equal(s.enters, 1);
	/* the look at 3.0 and the one at 6.0 that ended it were taken on,
	 * both before NL_SB_FULL_EVERY_S passed */
	assert_int_equal(s.looks, 2);
	assert_int_equal(s.looks_early, 2);
	assert_true(nl_sb_seconds(&s, 9.0) == 4.0);
	/* a look NL_SB_FULL_EVERY_S after the last one is not early */
	nl_sb_update(&s, NL_SB_NO_NODE, 10.0, 16 * MiB, 0);
	nl_sb_update(&s, NL_SB_NO_NODE, 10.0 + NL_SB_FULL_EVERY_S, 16 * MiB, 0);
	assert_int_equal(s.looks, 3);
	assert_int_equal(s.looks_early, 2);
}

/* Standing by, a tick is a full look only when usage or swap use moved
 * by more than 1/8 of the reference, or NL_SB_FULL_EVERY_S passed; off,
 * always. */
static void test_full_due(void **state)
{
	struct nl_standby s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_true(nl_sb_full_due(&s, 1.0, 0, 0, 16 * MiB));
	nl_sb_update(&s, NL_SB_NO_NODE, 10.0, 15 * MiB, 4 * MiB);
	/* a busy memcg at its limit: usage wobbles, no full look */
	assert_false(nl_sb_full_due(&s, 11.0, 15 * MiB + MiB, 4 * MiB, 16 * MiB));
	assert_false(nl_sb_full_due(&s, 11.9, 14 * MiB, 4 * MiB, 16 * MiB));
	/* nor when a few pages go to swap and back */
	assert_false(nl_sb_full_due(&s, 12.0, 15 * MiB, 5 * MiB, 16 * MiB));
	assert_false(nl_sb_full_due(&s, 12.0, 15 * MiB, 3 * MiB, 16 * MiB));
	/* not every 2 s (the looks that cost the most while it stood by) */
	assert_false(nl_sb_full_due(&s, 12.0, 15 * MiB, 4 * MiB, 16 * MiB));
	assert_false(nl_sb_full_due(&s, 14.8, 15 * MiB, 4 * MiB, 16 * MiB));
	/* the tick 5 s on, a little early by the loop's clock, takes it */
	assert_true(nl_sb_full_due(&s, 14.99, 15 * MiB, 4 * MiB, 16 * MiB));
	/* a memcg that empties or fills: at once */
	assert_true(nl_sb_full_due(&s, 11.0, 12 * MiB, 4 * MiB, 16 * MiB));
	/* anon grows past the limit at a usage that stands still: its swap
	 * use moves, at once */
	assert_true(nl_sb_full_due(&s, 11.0, 15 * MiB, 7 * MiB, 16 * MiB));
	/* every NL_SB_FULL_EVERY_S anyway */
	assert_true(nl_sb_full_due(&s, 10.0 + NL_SB_FULL_EVERY_S, 15 * MiB, 4 * MiB, 16 * MiB));
	/* no reference (no limit, no watermark): a 1 MiB move */
	assert_false(nl_sb_full_due(&s, 11.0, 15 * MiB + MiB / 2, 4 * MiB, 0));
	assert_true(nl_sb_full_due(&s, 11.0, 17 * MiB, 4 * MiB, 0));
	assert_true(nl_sb_full_due(&s, 11.0, 15 * MiB, 6 * MiB, 0));
	/* swap use unknown at both looks (v1): usage and time only */
	nl_sb_update(&s, NL_SB_NO_NODE, 20.0, 15 * MiB, 0);
	assert_false(nl_sb_full_due(&s, 21.0, 15 * MiB, 0, 16 * MiB));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_why),
		cmocka_unit_test(test_observe),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_full_due),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
