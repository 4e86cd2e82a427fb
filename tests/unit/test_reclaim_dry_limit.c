// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_step.c: a node whose step freed nothing loses its
 * tickets until its figures move, or for NL_RA_DRY_MAX_S at most. Without
 * that limit a node whose figures stay within the slack while the kernel
 * turns its pages over (usage pinned at the limit) was out of the draw for
 * good (a CI run drew no node for its last 6 s). The cgroup is a fake
 * directory whose figures never move, and the backend is memory.reclaim (a
 * plain file here, so no step frees anything). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture_ra.h"

static void test_dry_limit(void **state)
{
	static struct nl_ra a;
	struct nl_ra_cfg cfg;
	char *root = fixture_tmpdir("rdry"), err[256];
	struct nl_ra_cg *c;
	int k;

	(void)state;
	assert_non_null(root);
	fixture_ra_cgroup(root, &cfg);
	assert_int_equal(nl_agent_init(&a, &cfg, NULL, err, sizeof(err)), 0);
	k = nl_agent_add(&a, "/cg");
	assert_int_equal(k, 0);
	c = &a.cg[k];

	nl_tick(&a, c, nl_agent_now());
	/* round-robin stepped on both nodes and neither freed a page */
	assert_int_equal(c->steps, 3);
	assert_true(c->dry[0] && c->dry[1]);
	/* figures unchanged, marks fresh: both out of the draw */
	assert_int_equal(nl_agent_refresh(&a, c), 0);
	assert_int_equal(c->dry_mask, 3);
	assert_int_equal(c->w.eligible, 0);
	/* node 1's mark is older than the limit: it draws again, node 0 not */
	c->dry_at[1] -= NL_RA_DRY_MAX_S + 1;
	assert_int_equal(nl_agent_refresh(&a, c), 0);
	assert_int_equal(c->dry_mask, 1);
	assert_int_equal(c->w.eligible, 2);
	assert_int_equal(c->dry[1], 0);
	/* and so does node 0 once its own mark is as old */
	c->dry_at[0] -= NL_RA_DRY_MAX_S + 1;
	assert_int_equal(nl_agent_refresh(&a, c), 0);
	assert_int_equal(c->dry_mask, 0);
	assert_int_equal(c->w.eligible, 3);
	nl_rb_cleanup();
	rmtree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dry_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
