// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_tick.c: a pass that freed pages and then stopped
 * short (3 steps in a row freed nothing: lru_gen had no more pages old
 * across two agings yet) helped; only passes that freed nothing at all
 * stand the agent by for "its last pass freed nothing". Under dd | tail
 * in a 16M memcg every pass ended so, and counting them stood the agent
 * by while the memcg hit its limit. Fake cgroup directory: memory.reclaim
 * is a plain file; the pages "freed" are a memory.numa_stat rewritten
 * between the first two steps of a pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "fixture_ra.h"

static const char *g_root;
static int g_calls;
static bool g_pay;
static uint64_t g_n0, g_n1;	/* page cache per node, bytes */
static FILE *g_log;		/* the agent's log, when a test reads it */

/* memory.numa_stat with g_n0 and g_n1 of page cache, a quarter active */
static void write_stat(void)
{
	char b[512];

	snprintf(b, sizeof(b),
		 "anon N0=0 N1=0\nfile N0=%llu N1=%llu\n"
		 "inactive_anon N0=0 N1=0\nactive_anon N0=0 N1=0\n"
		 "inactive_file N0=%llu N1=%llu\nactive_file N0=%llu N1=%llu\n"
		 "file_mapped N0=0 N1=0\n",
		 (unsigned long long)g_n0, (unsigned long long)g_n1, (unsigned long long)(g_n0 / 4 * 3),
		 (unsigned long long)(g_n1 / 4 * 3), (unsigned long long)(g_n0 / 4), (unsigned long long)(g_n1 / 4));
	wfile(g_root, "cg/memory.numa_stat", b);
}

/* Between the steps of a pass: when it pays, node 0 lost 1 MiB of page
 * cache after the first (the second step measures it as freed); nothing
 * after. */
static void lose_1mib_once(struct nl_ra *a)
{
	(void)a;
	if (g_calls++ || !g_pay)
		return;
	g_n0 -= 1 << 20;
	write_stat();
}

/* @pay: each pass frees 1 MiB before it stops short. Returns whether the
 * memcg stands by after NL_SB_TICKS full ticks (the streak it takes). */
static bool standby_after_short_passes(bool pay)
{
	static struct nl_ra a;
	struct nl_ra_cfg cfg;
	struct nl_ra_cg *c;
	char *root = fixture_tmpdir("rshort"), err[256];
	double now;
	bool on;
	int k;

	assert_non_null(root);
	g_root = root;
	g_pay = pay;
	g_n0 = 83886080;
	g_n1 = 20971520;
	fixture_ra_cgroup(root, &cfg);
	cfg.log = g_log;
	assert_int_equal(nl_agent_init(&a, &cfg, NULL, err, sizeof(err)), 0);
	a.between_steps = lose_1mib_once;
	k = nl_agent_add(&a, "/cg");
	assert_int_equal(k, 0);
	c = &a.cg[k];
	now = nl_agent_now();
	for (int t = 0; t < NL_SB_TICKS; t++) {
		/* the workload adds page cache on both nodes between ticks:
		 * their figures move, so no node stays without tickets */
		g_n0 += 2 << 20;
		g_n1 += 2 << 20;
		write_stat();
		g_calls = 0;
		nl_tick(&a, c, now + t);
		/* every pass stopped on 3 steps that freed nothing */
		assert_true(c->stuck);
		assert_int_equal(c->no_progress_stops, (uint64_t)t + 1);
	}
	if (pay)
		assert_true(c->pages[NL_RB_MEMCG][0] >= (uint64_t)NL_SB_TICKS * 256);
	on = c->sb.on;
	nl_rb_cleanup();
	rmtree(root);
	return on;
}

static void test_short_pass_that_freed_keeps_acting(void **state)
{
	(void)state;
	assert_false(standby_after_short_passes(true));
}

/* the rule it refines still holds: passes that freed nothing stand by */
static void test_pass_that_freed_nothing_stands_by(void **state)
{
	(void)state;
	assert_true(standby_after_short_passes(false));
}

/* Lines of @f (rewound) holding @needle. */
static int count_lines(FILE *f, const char *needle)
{
	char line[1024];
	int n = 0;

	rewind(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	return n;
}

/* Passes that free pages and then stop short no longer stand the agent
 * by, so under dd | tail they run every tick for as long as the load
 * lasts: "no progress in 3 steps" is said once for the run of them, not
 * once a pass (the freed pages of a pass used to re-arm it). */
static void test_short_passes_said_once(void **state)
{
	(void)state;
	g_log = tmpfile();
	assert_non_null(g_log);
	assert_false(standby_after_short_passes(true));
	assert_int_equal(count_lines(g_log, "no progress in 3 steps"), 1);
	fclose(g_log);
	g_log = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_pass_that_freed_keeps_acting),
		cmocka_unit_test(test_pass_that_freed_nothing_stands_by),
		cmocka_unit_test(test_short_passes_said_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
