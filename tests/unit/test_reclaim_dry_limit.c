// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_agent.c: a node whose step freed nothing loses its
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
#include "fixture_fs.h"
#include "reclaim_agent.h"

static void test_dry_limit(void **state)
{
	static struct nl_ra a;
	struct nl_ra_cfg cfg;
	char *root = fixture_tmpdir("rdry"), err[256];
	struct nl_ra_cg *c;
	int k;

	(void)state;
	assert_non_null(root);
	/* 100 MiB limit, 99 MiB used: above high (90%), reclaim to low (80%) */
	wfile(root, "cg/memory.max", "104857600\n");
	wfile(root, "cg/memory.current", "103809024\n");
	wfile(root, "cg/memory.events", "low 0\nhigh 0\nmax 7\noom 0\n");
	wfile(root, "cg/memory.swap.max", "0\n");
	wfile(root, "cg/memory.reclaim", "");
	wfile(root, "cg/memory.numa_stat",
	      "anon N0=0 N1=0\nfile N0=83886080 N1=20971520\n"
	      "inactive_anon N0=0 N1=0\nactive_anon N0=0 N1=0\n"
	      "inactive_file N0=62914560 N1=16777216\nactive_file N0=20971520 N1=4194304\n"
	      "file_mapped N0=0 N1=0\n");
	memset(&cfg, 0, sizeof(cfg));
	cfg.high = (struct nl_wm_spec){ .pct = true, .pct_val = 90 };
	cfg.low = (struct nl_wm_spec){ .pct = true, .pct_val = 80 };
	cfg.step_pages = 32;
	cfg.pass_steps = 128;
	cfg.backend = NL_RB_MEMCG;
	cfg.victim = NL_VICTIM_RR;
	cfg.bal_lo = 80;
	cfg.bal_hi = 120;
	cfg.root = root;
	assert_int_equal(nl_ra_init(&a, &cfg, NULL, err, sizeof(err)), 0);
	k = nl_ra_add(&a, "/cg");
	assert_int_equal(k, 0);
	c = &a.cg[k];

	nl_ra_tick(&a, c, nl_ra_now());
	/* round-robin stepped on both nodes and neither freed a page */
	assert_int_equal(c->steps, 3);
	assert_true(c->dry[0] && c->dry[1]);
	/* figures unchanged, marks fresh: both out of the draw */
	assert_int_equal(nl_ra_refresh(&a, c), 0);
	assert_int_equal(c->dry_mask, 3);
	assert_int_equal(c->w.eligible, 0);
	/* node 1's mark is older than the limit: it draws again, node 0 not */
	c->dry_at[1] -= NL_RA_DRY_MAX_S + 1;
	assert_int_equal(nl_ra_refresh(&a, c), 0);
	assert_int_equal(c->dry_mask, 1);
	assert_int_equal(c->w.eligible, 2);
	assert_int_equal(c->dry[1], 0);
	/* and so does node 0 once its own mark is as old */
	c->dry_at[0] -= NL_RA_DRY_MAX_S + 1;
	assert_int_equal(nl_ra_refresh(&a, c), 0);
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
