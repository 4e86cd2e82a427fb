// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_tick.c: a node whose step freed nothing is
 * without tickets for NL_RA_DRY_MAX_S (5 s) at most. With every node so
 * marked the memcg has no eligible node and, after a few ticks, stands
 * by, taking a full look only every NL_SB_FULL_EVERY_S: the mark must
 * still end at 5 s, so a tick past it is a full look (it lifts the mark),
 * not a light one. Fake cgroup directory; memory.reclaim is a plain file,
 * so nothing is freed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "fixture_ra.h"

static void test_dry_mark_ends_while_standing_by(void **state)
{
	static struct nl_ra a;
	struct nl_ra_cfg cfg;
	struct nl_ra_cg *c;
	char *root = fixture_tmpdir("rdry"), err[256];
	double now;
	uint64_t full, steps;
	int k;

	(void)state;
	assert_non_null(root);
	fixture_ra_cgroup(root, &cfg);
	assert_int_equal(nl_agent_init(&a, &cfg, NULL, err, sizeof(err)), 0);
	k = nl_agent_add(&a, "/cg");
	assert_int_equal(k, 0);
	c = &a.cg[k];
	now = nl_agent_now();
	/* both nodes freed nothing (the first pass: 3 steps, round robin) */
	nl_tick(&a, c, now);
	assert_true(c->dry[0] && c->dry[1]);
	/* standing by since this look, usage where it was; the marks were
	 * set 5 s ago (the ticks that led to standing by came between) */
	c->sb.on = true;
	c->sb.full_s = now;
	c->sb.usage_at_full = c->usage;
	c->sb.swap_at_full = 0;
	c->dry_at[0] = c->dry_at[1] = now - NL_SB_FULL_EVERY_S;
	full = c->full_ticks;
	steps = c->steps;
	nl_tick(&a, c, now + 0.5);
	assert_int_equal(c->full_ticks, full + 1);	/* a full look, not a light tick */
	assert_true(c->steps > steps);	/* which lifted the marks: the nodes were drawn again */
	/* with no mark due, a tick standing by stays light */
	c->sb.on = true;
	c->sb.full_s = now + 0.5;
	c->sb.usage_at_full = c->usage;
	c->dry[0] = 1;
	c->dry_at[0] = now;
	full = c->full_ticks;
	nl_tick(&a, c, now + 1);
	assert_int_equal(c->full_ticks, full);
	nl_rb_cleanup();
	rmtree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dry_mark_ends_while_standing_by),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
