// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nl_snapshot_copy: a deep copy. The TUI keeps a copy of each snapshot
 * while the collector frees and refills its own; a shallow copy of the
 * cgroups' reclaim/agent parts or the scx_cling groups was freed twice
 * (the full-screen view aborted on the first reclaim).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "snapshot_fixture.h"

static void add_owned_parts(struct nl_snapshot *s)
{
	for (int i = 0; i < s->nr_cgroups; i++) {
		/* three node slots past the header: the copy must take them too */
		s->cgroups[i].vmscan = calloc(1, nl_vmscan_figs_size(3));
		assert_non_null(s->cgroups[i].vmscan);
		s->cgroups[i].vmscan->nr_nids = 3;
		s->cgroups[i].vmscan->pages_total[0].freed[1] = 1000u + (unsigned)i;
		s->cgroups[i].vmscan->node[2].total[0].freed[1] = 500u + (unsigned)i;
	}
	s->cgroups[2].agent = calloc(1, sizeof(*s->cgroups[2].agent));
	assert_non_null(s->cgroups[2].agent);
	s->cgroups[2].agent->pid = 4242;
	s->cgroups[1].long_path = strdup("/a/very/long/path/past/the/label");
	assert_non_null(s->cgroups[1].long_path);
	s->cling_running = true;
	s->cling.nr_groups = 2;
	s->cling.groups = calloc(2, sizeof(*s->cling.groups));
	assert_non_null(s->cling.groups);
	s->cling.groups[1].cgid = 77;
	s->cling.groups[1].home = 3;
}

static void test_deep_copy(void **state)
{
	struct nl_snapshot s, c;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	add_owned_parts(&s);
	assert_int_equal(nl_snapshot_copy(&c, &s), 0);
	assert_int_equal(c.nr_cgroups, s.nr_cgroups);
	assert_int_equal(c.nr_procs, s.nr_procs);
	assert_int_equal(c.nr_nodes, s.nr_nodes);
	for (int i = 0; i < s.nr_cgroups; i++) {
		assert_ptr_not_equal(c.cgroups[i].vmscan, s.cgroups[i].vmscan);
		assert_ptr_not_equal(&c.cgroups[i], &s.cgroups[i]);
	}
	assert_ptr_not_equal(c.cgroups[2].agent, s.cgroups[2].agent);
	assert_ptr_not_equal(c.cling.groups, s.cling.groups);
	assert_null(c.cgroups[0].agent);
	assert_ptr_not_equal(c.cgroups[1].long_path, s.cgroups[1].long_path);
	assert_null(c.cgroups[0].long_path);
	/* the source goes first, as the collector's does: the copy still reads */
	nl_snapshot_free(&s);
	for (int i = 0; i < c.nr_cgroups; i++) {
		assert_int_equal(c.cgroups[i].vmscan->pages_total[0].freed[1], 1000 + i);
		assert_int_equal(c.cgroups[i].vmscan->nr_nids, 3);
		assert_int_equal(nl_vs_node(c.cgroups[i].vmscan, 2)->total[0].freed[1], 500 + i);
		assert_int_equal(nl_vs_node(c.cgroups[i].vmscan, 3)->total[0].freed[1], 0);
	}
	assert_int_equal(c.cgroups[2].agent->pid, 4242);
	assert_int_equal(c.cling.groups[1].cgid, 77);
	assert_int_equal(c.cling.groups[1].home, 3);
	assert_string_equal(c.cgroups[2].path, "/work/a");
	assert_string_equal(nl_cgroup_full_path(&c.cgroups[1]), "/a/very/long/path/past/the/label");
	assert_string_equal(nl_cgroup_full_path(&c.cgroups[2]), "/work/a");
	nl_snapshot_free(&c);
}

static void test_copy_of_empty(void **state)
{
	struct nl_snapshot s = {}, c;

	(void)state;
	assert_int_equal(nl_snapshot_copy(&c, &s), 0);
	assert_null(c.cgroups);
	assert_null(c.cling.groups);
	nl_snapshot_free(&c);
	s.nr_cgroups = -1;
	assert_int_equal(nl_snapshot_copy(&c, &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deep_copy),
		cmocka_unit_test(test_copy_of_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
