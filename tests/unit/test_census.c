// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/core/census.c: the host's task count from loadavg's nr_threads,
 * its cgroup count as the largest of /proc/cgroups' num_cgroups and the
 * v2 root's descendants (dying ones too, the root itself counted), on a
 * v1, hybrid (unified/) or pure v2 layout; no task count is an error.
 * And the loader's table sizes from it (tools/source/load_common.c): twice
 * the tasks and cgroups plus a margin per CPU for the churn between two
 * collections, the compiled sizes when the census is unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture_fs.h"
#include "census.h"
#include "load_common.h"

static void test_hybrid(void **state)
{
	char *d = fixture_tmpdir("census");
	char proc[4096], sys[4096];
	struct nl_census c;

	(void)state;
	wfile(d, "proc/loadavg", "4.08 2.25 2.46 7/172 28838\n");
	wfile(d, "proc/cgroups",
	      "#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
	      "cpuset\t3\t1\t1\n"
	      "memory\t4\t69\t1\n"
	      "pids\t8\t12\t1\n");
	wfile(d, "sys/fs/cgroup/unified/cgroup.stat", "nr_descendants 40\nnr_dying_descendants 3\n");
	snprintf(proc, sizeof(proc), "%s/proc", d);
	snprintf(sys, sizeof(sys), "%s/sys", d);
	assert_int_equal(nl_census_read(proc, sys, &c), 0);
	assert_int_equal(c.tasks, 172);
	assert_int_equal(c.cgroups, 69);
	/* pure v2: the root's cgroup.stat has more than any controller */
	wfile(d, "sys/fs/cgroup/cgroup.stat", "nr_descendants 250\nnr_dying_descendants 17\n");
	assert_int_equal(nl_census_read(proc, sys, &c), 0);
	assert_int_equal(c.cgroups, 268);
	rmtree(d);
}

static void test_missing(void **state)
{
	char *d = fixture_tmpdir("census0");
	char proc[4096], sys[4096];
	struct nl_census c;

	(void)state;
	snprintf(proc, sizeof(proc), "%s/proc", d);
	snprintf(sys, sizeof(sys), "%s/sys", d);
	/* no loadavg: nothing known of the host's size */
	assert_int_equal(nl_census_read(proc, sys, &c), -ENOENT);
	wfile(d, "proc/loadavg", "garbage\n");
	assert_int_equal(nl_census_read(proc, sys, &c), -EINVAL);
	/* tasks, but no cgroup file at all: the host's size is unknown, not
	 * small (a count of 0 would shrink the reclaim tables on any host) */
	wfile(d, "proc/loadavg", "0.00 0.00 0.00 1/95 100\n");
	assert_int_equal(nl_census_read(proc, sys, &c), -ENOENT);
	rmtree(d);
}

static void test_sizes(void **state)
{
	struct nl_census small = { .tasks = 172, .cgroups = 69 };
	struct nl_census big = { .tasks = 40000, .cgroups = 3000 };
	struct nl_load_sizes s;

	(void)state;
	/* this host, 2 CPUs: 2 x 241 + 2 x 2,048 -> 5,120; alloc 4 x 241 +
	 * 2 x 8,192 -> 17,408; reclaim 2 x 69 x 4 contexts (x 1 node) +
	 * 1,024 -> 2,048 */
	nl_load_sizes_for(&s, &small, 1, 2, 32u << 20);
	assert_int_equal(s.budget, 32u << 20);
	assert_int_equal(s.ids, 5120);
	assert_int_equal(s.alloc, 17408);
	assert_int_equal(s.vs_pages, 2048);
	assert_int_equal(s.vs_time, 2048);
	/* one CPU: the churn margin halves */
	nl_load_sizes_for(&s, &small, 1, 1, 32u << 20);
	assert_int_equal(s.ids, 3072);
	assert_int_equal(s.alloc, 9216);
	/* a big host wants more than the compiled sizes (the budget and
	 * those cap it at load): nothing limits it by nodes or CPUs */
	nl_load_sizes_for(&s, &big, 8, 64, 32u << 20);
	assert_int_equal(s.ids, 217088);
	assert_int_equal(s.alloc, 696320);
	assert_int_equal(s.vs_pages, 193536);
	assert_int_equal(s.vs_time, 25600);
	/* unknown: every table at its compiled size */
	nl_load_sizes_for(&s, NULL, 1, 2, 1u << 20);
	assert_int_equal(s.ids, UINT_MAX);
	assert_int_equal(s.alloc, UINT_MAX);
	assert_int_equal(s.vs_pages, UINT_MAX);
	assert_int_equal(s.vs_time, UINT_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
