// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The scx_cling families of the Prometheus exposition: nothing
 * but numalens_scx_cling_running 0 when it does not run; when it runs, its
 * settings in base units, the per-node counters as read, and per group the
 * home, failure ratio and busy flag derived by nl_cling_stats_fold() from
 * the decayed weights (the seed's vector: 2 failures in 9 attempts -> 22%).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "snapshot_fixture.h"
#include "prom_text.h"
#include "view_prom.h"

static int count_samples(const char *text, const char *prefix)
{
	int n = 0;
	size_t len = strlen(prefix);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, len);
	return n;
}

static void test_not_running(void **state)
{
	struct nl_snapshot s;
	char *t;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	t = prom_render(&s, NULL);
	assert_true(prom_value_of(t, "numalens_scx_cling_running") == 0);
	assert_int_equal(count_samples(t, "numalens_scx_cling_"), 1);
	free(t);
	nl_snapshot_free(&s);
}

static void test_running(void **state)
{
	struct nl_snapshot s;
	struct nl_cling_group *g;
	char *t;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	s.cling_running = true;
	s.cling.info = (struct cling_info){ .loader_pid = 1, .nr_nodes = 2, .degree = 20, .decay_ms = 1500,
					    .wait_bound_ns = 5000000, .steal_ns = 40000000 };
	s.cling.node[0] = (struct nl_cling_node){ .enqueued = 900, .local = 850, .remote = 3, .cling_hits = 77,
						  .attempts = 500, .failures = 9, .queued = 2 };
	s.cling.node[1] = (struct nl_cling_node){ .enqueued = 10, .local = 10, .attempts = 9, .failures = 2 };
	s.cling.nr_groups = 2;
	s.cling.groups = calloc(2, sizeof(*s.cling.groups));
	assert_non_null(s.cling.groups);
	g = &s.cling.groups[0];
	g->cgid = 3;		/* /work/a in the fixture */
	g->home = 0;
	g->busiest = 1;
	g->failure[1] = 2 * 1024;	/* 2 failures in 9 attempts: ratio 22% > degree 20 */
	g->total[1] = 9 * 1024;
	g->pages[0] = 256;
	g = &s.cling.groups[1];
	g->cgid = 999;		/* not in the cgroup table */
	g->home = -1;
	g->busiest = -1;
	nl_cling_stats_fold(&s.cling);
	t = prom_render(&s, NULL);

	assert_true(prom_value_of(t, "numalens_scx_cling_running") == 1);
	assert_true(prom_value_of(t, "numalens_scx_cling_degree_ratio") == 0.2);
	assert_true(prom_value_of(t, "numalens_scx_cling_decay_period_seconds") == 1.5);
	assert_true(prom_value_of(t, "numalens_scx_cling_wait_bound_seconds") == 0.005);
	assert_true(prom_value_of(t, "numalens_scx_cling_steal_after_seconds") == 0.04);
	assert_true(prom_value_of(t, "numalens_scx_cling_local_dispatches_total{node=\"0\"}") == 850);
	assert_true(prom_value_of(t, "numalens_scx_cling_remote_dispatches_total{node=\"0\"}") == 3);
	assert_true(prom_value_of(t, "numalens_scx_cling_cling_hits_total{node=\"0\"}") == 77);
	assert_true(prom_value_of(t, "numalens_scx_cling_attempts_total{node=\"1\"}") == 9);
	assert_true(prom_value_of(t, "numalens_scx_cling_failures_total{node=\"1\"}") == 2);
	assert_true(prom_value_of(t, "numalens_scx_cling_queued_tasks{node=\"0\"}") == 2);
	/* derived by the fold: node 1 busy for /work/a, node 0 its home */
	assert_true(prom_value_of(t, "numalens_scx_cling_group_failure_ratio{cgroup=\"/work/a\",node=\"1\"}") == 0.22);
	assert_true(prom_value_of(t, "numalens_scx_cling_group_failure_ratio{cgroup=\"/work/a\",node=\"0\"}") == 0);
	assert_true(prom_value_of(t, "numalens_scx_cling_group_node_busy{cgroup=\"/work/a\",node=\"1\"}") == 1);
	assert_true(prom_value_of(t, "numalens_scx_cling_group_node_busy{cgroup=\"/work/a\",node=\"0\"}") == 0);
	assert_true(prom_value_of(t, "numalens_scx_cling_busy_groups{node=\"1\"}") == 1);
	assert_true(prom_value_of(t, "numalens_scx_cling_home_groups{node=\"0\"}") == 1);
	assert_true(prom_value_of(t, "numalens_scx_cling_group_home_node{cgroup=\"/work/a\"}") == 0);
	assert_true(prom_value_of(t, "numalens_scx_cling_group_home_node{cgroup=\"#999\"}") == -1);
	assert_true(prom_value_of(t, "numalens_scx_cling_group_resident_bytes{cgroup=\"/work/a\",node=\"0\"}") ==
		    256.0 * 4096);
	/* the documented series count: 1 + 4 + 9N + G (1 + 3N) */
	assert_int_equal(count_samples(t, "numalens_scx_cling_"), 1 + 4 + 9 * 2 + 2 * (1 + 3 * 2));
	free(t);
	nl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_running),
		cmocka_unit_test(test_running),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
