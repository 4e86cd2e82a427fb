// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* view_prom_reclaim: the reclaim agent's families in `numalens export`,
 * from the fixture with an agent on /work/a: values (pages -> bytes),
 * labels, every family contiguous, and nothing without an agent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "snapshot_fixture.h"
#include "prom_text.h"
#include "view_prom.h"

static int count(const char *t, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(t, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void add_agent(struct nl_snapshot *s)
{
	struct nl_reclaim_agent_figs *a = s->cgroups[2].agent = calloc(1, sizeof(*a));

	assert_non_null(a);
	a->pid = 4321;
	strcpy(a->backend, "madvise");
	strcpy(a->victim, "lottery");
	a->reclaiming = true;
	a->scan_vmscan = true;
	a->high_bytes = 24 << 20;
	a->low_bytes = 20 << 20;
	a->passes_total = 12;
	a->steps_total = 96;
	a->no_progress_stops_total = 2;
	a->pages_total[1][0] = 600;
	a->pages_total[2][1] = 100;
	a->draws_total[0][1] = 5;
	a->draws_total[1][0] = 60;
	a->weight[0] = 7000;
	a->weight[1] = 4200;
	a->over_high_seconds_total = 3.5;
	a->agent_seconds_total = 0.125;
}

static void test_values(void **state)
{
	struct nl_snapshot s;
	char *t;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	add_agent(&s);
	t = prom_render(&s, NULL);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_info{cgroup=\"/work/a\",pid=\"4321\",backend=\"madvise\","
				"victim=\"lottery\",dry_run=\"false\",scan_source=\"vmscan\"}") == 1);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_reclaiming{cgroup=\"/work/a\"}") == 1);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_high_bytes{cgroup=\"/work/a\"}") == 24 << 20);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_low_bytes{cgroup=\"/work/a\"}") == 20 << 20);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_passes_total{cgroup=\"/work/a\"}") == 12);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_steps_total{cgroup=\"/work/a\"}") == 96);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_no_progress_stops_total{cgroup=\"/work/a\"}") == 2);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_over_high_seconds_total{cgroup=\"/work/a\"}") == 3.5);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_reclaim_seconds_total{cgroup=\"/work/a\"}") == 0.125);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_node_weight{cgroup=\"/work/a\",node=\"1\"}") == 4200);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_draws_total{cgroup=\"/work/a\",node=\"1\",source=\"limit\"}") == 5);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_draws_total{cgroup=\"/work/a\",node=\"0\",source=\"agent\"}") == 60);
	/* pages x 4096 */
	assert_true(prom_value_of(t, "numalens_reclaim_agent_reclaimed_bytes_total{cgroup=\"/work/a\",node=\"0\",backend=\"madvise\"}") == 600 * 4096.0);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_reclaimed_bytes_total{cgroup=\"/work/a\",node=\"1\",backend=\"memcg\"}") == 100 * 4096.0);
	assert_true(prom_value_of(t, "numalens_reclaim_agent_reclaimed_bytes_total{cgroup=\"/work/a\",node=\"1\",backend=\"damos\"}") == 0);
	/* 2 nodes x 4 backends, 2 nodes x 2 sources; one HELP/TYPE each */
	assert_int_equal(count(t, "\nnumalens_reclaim_agent_reclaimed_bytes_total{"), 8);
	assert_int_equal(count(t, "\nnumalens_reclaim_agent_draws_total{"), 4);
	assert_int_equal(count(t, "# TYPE numalens_reclaim_agent_"), 12);
	assert_int_equal(count(t, "# TYPE numalens_reclaim_agent_draws_total counter\n"), 1);
	/* families stay contiguous: the sample lines right after the TYPE */
	const char *p = strstr(t, "# TYPE numalens_reclaim_agent_passes_total counter\n");

	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	assert_int_equal(strncmp(p, "numalens_reclaim_agent_passes_total{", 36), 0);
	free(t);
	nl_snapshot_free(&s);
}

static void test_none_without_agent(void **state)
{
	struct nl_snapshot s;
	char *t;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	t = prom_render(&s, NULL);
	assert_null(strstr(t, "numalens_reclaim_agent_"));
	free(t);
	nl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_none_without_agent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
