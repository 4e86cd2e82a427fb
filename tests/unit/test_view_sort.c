// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Sorting, filtering and the shared cell formatters (view_sort, view_fmt,
 * snapshot.c), checked against the hand-computed fixture. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "snapshot_fixture.h"
#include "view_fmt.h"
#include "view_sort.h"

static int setup(void **state)
{
	static struct nl_snapshot s;

	if (fix_build(&s, true))
		return -1;
	*state = &s;
	return 0;
}

static int teardown(void **state)
{
	nl_snapshot_free(*state);
	return 0;
}

/* Sort with @key and compare the pid order with @want (n entries). */
static void check_procs(const struct nl_snapshot *s, enum nl_sort_key key,
			const struct nl_filter *f, const pid_t *want, int n)
{
	int idx[8];
	int got = nl_sort_procs(s, key, f, idx);

	assert_int_equal(got, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(s->procs[idx[i]].pid, want[i]);
}

static void test_proc_sort_keys(void **state)
{
	const struct nl_snapshot *s = *state;

	check_procs(s, NL_SORT_CPU, NULL, (pid_t[]){ 100, 300, 200 }, 3);
	check_procs(s, NL_SORT_REMOTE_RATE, NULL, (pid_t[]){ 100, 300, 200 }, 3);
	check_procs(s, NL_SORT_LOCAL_RATE, NULL, (pid_t[]){ 100, 300, 200 }, 3);
	/* 200 has no allocations: unknown ratio goes last, not as 0 */
	check_procs(s, NL_SORT_REMOTE_RATIO, NULL, (pid_t[]){ 300, 100, 200 }, 3);
	/* worst locality first, unavailable last */
	check_procs(s, NL_SORT_LOCALITY, NULL, (pid_t[]){ 300, 100, 200 }, 3);
	check_procs(s, NL_SORT_RUNTIME, NULL, (pid_t[]){ 300, 100, 200 }, 3);
	check_procs(s, NL_SORT_RSS, NULL, (pid_t[]){ 100, 300, 200 }, 3);
	check_procs(s, NL_SORT_MIGRATIONS, NULL, (pid_t[]){ 300, 100, 200 }, 3);
	check_procs(s, NL_SORT_PID, NULL, (pid_t[]){ 100, 200, 300 }, 3);
}

static void test_proc_sort_ties_by_pid(void **state)
{
	struct nl_snapshot *s = *state;
	double saved = s->procs[0].f.cpu_pct;

	/* equal CPU% must not depend on qsort's whim: pid ascending */
	s->procs[0].f.cpu_pct = s->procs[2].f.cpu_pct;
	check_procs(s, NL_SORT_CPU, NULL, (pid_t[]){ 100, 300, 200 }, 3);
	s->procs[0].pid = 400;
	check_procs(s, NL_SORT_CPU, NULL, (pid_t[]){ 300, 400, 200 }, 3);
	s->procs[0].pid = 100;
	s->procs[0].f.cpu_pct = saved;
	assert_int_equal(nl_sort_procs(s, NL_NR_SORT_KEYS, NULL, (int[3]){ 0 }), -EINVAL);
}

static void test_proc_filter(void **state)
{
	const struct nl_snapshot *s = *state;
	struct nl_filter f;

	assert_int_equal(nl_sort_filter_parse(&f, "200"), 0);
	assert_int_equal(f.pid, 200);
	check_procs(s, NL_SORT_CPU, &f, (pid_t[]){ 200 }, 1);
	assert_int_equal(nl_sort_filter_parse(&f, "/work"), 0);
	assert_int_equal(f.pid, 0);
	check_procs(s, NL_SORT_CPU, &f, (pid_t[]){ 100, 200 }, 2);
	assert_int_equal(nl_sort_filter_parse(&f, " /work/ "), 0);
	assert_string_equal(f.cgroup, "/work");
	check_procs(s, NL_SORT_PID, &f, (pid_t[]){ 100, 200 }, 2);
	/* component match: "/wor" is not a parent of "/work/a" */
	assert_int_equal(nl_sort_filter_parse(&f, "/wor"), 0);
	check_procs(s, NL_SORT_CPU, &f, NULL, 0);
	assert_int_equal(nl_sort_filter_parse(&f, "/"), 0);
	check_procs(s, NL_SORT_CPU, &f, (pid_t[]){ 100, 300, 200 }, 3);
	/* both filters must hold */
	f.pid = 300;
	strcpy(f.cgroup, "/work");
	check_procs(s, NL_SORT_CPU, &f, NULL, 0);

	assert_int_equal(nl_sort_filter_parse(&f, "0"), -EINVAL);
	assert_int_equal(f.pid, 300);	/* untouched on error */
	/* anything else is a part of a process name (the fixture's memhog,
	 * sleeper and remote); cgroups are not filtered by it */
	assert_int_equal(nl_sort_filter_parse(&f, "mem"), 0);
	assert_string_equal(f.comm, "mem");
	assert_int_equal(f.pid, 0);
	assert_true(nl_sort_filter_active(&f));
	check_procs(s, NL_SORT_CPU, &f, (pid_t[]){ 100 }, 1);
	assert_int_equal(nl_sort_filter_parse(&f, "e"), 0);
	check_procs(s, NL_SORT_PID, &f, (pid_t[]){ 100, 200, 300 }, 3);
	assert_int_equal(nl_sort_filter_parse(&f, "12a"), 0);	/* a name, not a pid */
	check_procs(s, NL_SORT_CPU, &f, NULL, 0);
	assert_true(nl_sort_filter_cgroup(&f, &s->cgroups[0]));
	static char longc[80];
	memset(longc, 'c', sizeof(longc) - 1);
	assert_int_equal(nl_sort_filter_parse(&f, longc), -ENAMETOOLONG);
	assert_int_equal(nl_sort_filter_parse(&f, ""), 0);
	assert_false(nl_sort_filter_active(&f));
	/* cgroup paths go up to PATH_MAX - 1 bytes (filters match full paths) */
	static char longp[4097];
	memset(longp, 'x', sizeof(longp));
	longp[0] = '/';
	longp[4096] = '\0';
	assert_int_equal(nl_sort_filter_parse(&f, longp), -ENAMETOOLONG);
	longp[4095] = '\0';
	assert_int_equal(nl_sort_filter_parse(&f, longp), 0);
	assert_int_equal(strlen(f.cgroup), 4095);
}

/* -c matches a process by its cgroup's real path, not the label it
 * carries: a cgroup name with an escape sequence, a tab and a byte that is
 * not UTF-8 is cleaned into "...#<id>", which the typed path never equals. */
static void test_proc_filter_escaped_cgroup(void **state)
{
	struct nl_snapshot *s = *state;
	static char raw[] = "/work/b\x1b[31mRED\tTAB\xff";	/* as mkdir made it */
	struct nl_cgroup *g = &s->cgroups[3];	/* the fixture's /work/b */
	struct nl_filter f;
	char saved[512];

	assert_int_equal(g->id, s->procs[1].cgroup_id);
	strcpy(saved, g->path);
	nl_name_path_label(g->path, sizeof(g->path), raw, g->id);
	g->long_path = raw;
	strcpy(s->procs[1].cgroup_path, g->path);
	assert_string_not_equal(g->path, raw);

	assert_int_equal(nl_sort_filter_parse(&f, raw), 0);
	check_procs(s, NL_SORT_CPU, &f, (pid_t[]){ 200 }, 1);
	assert_int_equal(nl_sort_filter_parse(&f, "/work"), 0);
	check_procs(s, NL_SORT_PID, &f, (pid_t[]){ 100, 200 }, 2);

	g->long_path = NULL;
	strcpy(g->path, saved);
	strcpy(s->procs[1].cgroup_path, saved);
}

static void test_cgroup_under(void **state)
{
	assert_true(nl_sort_cgroup_under("/a", "/a"));
	assert_true(nl_sort_cgroup_under("/a/b", "/a"));
	assert_false(nl_sort_cgroup_under("/ab", "/a"));
	assert_true(nl_sort_cgroup_under("/ab", "/"));
	assert_true(nl_sort_cgroup_under("/", "/"));
	assert_false(nl_sort_cgroup_under("/a", "/a/b"));
}

static void check_cgroups(const struct nl_snapshot *s, enum nl_sort_key key,
			  const struct nl_filter *f, bool tree, const char *const *want, int n)
{
	int idx[8];
	int got = nl_sort_cgroups(s, key, f, tree, idx);

	assert_int_equal(got, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(s->cgroups[idx[i]].path, want[i]);
}

static void test_cgroup_sort(void **state)
{
	const struct nl_snapshot *s = *state;
	struct nl_filter f;

	check_cgroups(s, NL_SORT_CPU, NULL, true,
		      (const char *[]){ "/", "/work", "/work/a", "/work/b", "/other" }, 5);
	/* by total runtime /other (50 s) beats /work (30.1 s): siblings swap,
	 * children stay under their parent */
	check_cgroups(s, NL_SORT_RUNTIME, NULL, true,
		      (const char *[]){ "/", "/other", "/work", "/work/a", "/work/b" }, 5);
	check_cgroups(s, NL_SORT_CPU, NULL, false,
		      (const char *[]){ "/", "/work", "/work/a", "/other", "/work/b" }, 5);
	check_cgroups(s, NL_SORT_PID, NULL, false,
		      (const char *[]){ "/", "/other", "/work", "/work/a", "/work/b" }, 5);
	/* /other has no numa_stat: RSS unknown, last */
	check_cgroups(s, NL_SORT_RSS, NULL, false,
		      (const char *[]){ "/", "/work", "/work/a", "/work/b", "/other" }, 5);
	assert_int_equal(nl_sort_filter_parse(&f, "/work"), 0);
	check_cgroups(s, NL_SORT_CPU, &f, true,
		      (const char *[]){ "/work", "/work/a", "/work/b" }, 3);
	/* a pid filter alone keeps the whole tree */
	assert_int_equal(nl_sort_filter_parse(&f, "100"), 0);
	check_cgroups(s, NL_SORT_CPU, &f, true,
		      (const char *[]){ "/", "/work", "/work/a", "/work/b", "/other" }, 5);
}

static void test_cgroup_tree_robust(void **state)
{
	struct nl_snapshot *s = *state;
	int idx[8];

	/* a parent loop (corrupt input) must neither hang nor drop rows */
	s->cgroups[1].parent_id = 3;	/* /work's parent := /work/a */
	assert_int_equal(nl_sort_cgroups(s, NL_SORT_CPU, NULL, true, idx), 5);
	s->cgroups[1].parent_id = 1;
	/* an orphan (parent unknown) becomes a top-level row */
	s->cgroups[4].parent_id = 99;
	check_cgroups(s, NL_SORT_CPU, NULL, true,
		      (const char *[]){ "/", "/work", "/work/a", "/work/b", "/other" }, 5);
	s->cgroups[4].parent_id = 1;
}

static void test_sort_keys_chars(void **state)
{
	assert_int_equal(nl_sort_key_from_char('1'), NL_SORT_REMOTE_RATE);
	assert_int_equal(nl_sort_key_from_char('3'), NL_SORT_REMOTE_RATIO);
	assert_int_equal(nl_sort_key_from_char('5'), NL_SORT_CPU);
	assert_int_equal(nl_sort_key_from_char('9'), NL_SORT_PID);
	assert_int_equal(nl_sort_key_from_char('0'), -1);
	assert_int_equal(nl_sort_key_from_char('a'), -1);
	assert_string_equal(nl_sort_key_name(NL_SORT_CPU), "CPU%");
	/* every key is explained on the help screen, none with a placeholder */
	for (int k = 0; k < NL_NR_SORT_KEYS; k++)
		assert_true(strlen(nl_sort_key_about(k)) > 8);
	assert_string_equal(nl_sort_key_about(NL_NR_SORT_KEYS), "?");
	assert_non_null(strstr(nl_sort_key_about(NL_SORT_RUNTIME), "since numalens started"));
	struct nl_view_opts o;
	nl_view_opts_default(&o);
	assert_int_equal(o.sort, NL_SORT_CPU);
	assert_false(nl_sort_filter_active(&o.filter));
}

static void test_missing_without(void **state)
{
	char out[64];

	nl_snapshot_missing_without(out, sizeof(out), "locality: NUMA balancing is off (x); reclaim: y; "
			   "locality: sched_ext z", "locality:");
	assert_string_equal(out, "reclaim: y");
	nl_snapshot_missing_without(out, sizeof(out), "a; b", "locality:");
	assert_string_equal(out, "a; b");
	nl_snapshot_missing_without(out, sizeof(out), "", "x");
	assert_string_equal(out, "");
	/* an entry that does not fit is left out whole, never cut */
	nl_snapshot_missing_without(out, 12, "abc; 0123456789ab; d", "x");
	assert_string_equal(out, "abc; d");
}

static void test_locality_mean(void **state)
{
	uint64_t b[NL_LOC_BUCKETS] = { 0 };

	assert_true(isnan(nl_snapshot_locality_mean(b)));
	b[0] = 5;
	assert_near(nl_snapshot_locality_mean(b), 1.0 / 16, 1e-12);
	b[0] = 0;
	b[6] = 1000000000ull;
	b[7] = 3000000000ull;
	assert_near(nl_snapshot_locality_mean(b), 29.0 / 32, 1e-12);
	/* sums past 2^64 must not wrap */
	for (int i = 0; i < NL_LOC_BUCKETS; i++)
		b[i] = UINT64_MAX / 4;
	assert_near(nl_snapshot_locality_mean(b), 0.5, 1e-9);
}

static void test_snapshot_free(void **state)
{
	struct nl_snapshot s;

	assert_int_equal(fix_build(&s, true), 0);
	nl_snapshot_free(&s);
	assert_null(s.procs);
	assert_int_equal(s.nr_procs, 0);
	nl_snapshot_free(&s);	/* twice is fine: zeroed */
	nl_snapshot_free(NULL);
}

static void test_fmt(void **state)
{
	const struct nl_snapshot *s = *state;
	char buf[32];
	struct nl_locality l = { 0 };

	assert_string_equal(nl_fmt_locality(buf, sizeof(buf), &s->procs[0].f.loc, true), "90.6%");
	assert_string_equal(nl_fmt_locality(buf, sizeof(buf), &s->procs[2].f.loc, true), "18.8%");
	assert_string_equal(nl_fmt_locality(buf, sizeof(buf), &s->procs[1].f.loc, true), "n/a");
	assert_string_equal(nl_fmt_locality(buf, sizeof(buf), &s->procs[1].f.loc, false), "unavail");

	/* 1/4 -> ceil(2 eighths) ':', 3/4 -> 6 eighths '*' */
	assert_string_equal(nl_fmt_locbar(buf, sizeof(buf), &s->procs[0].f.loc, true), "      :*");
	l.available = true;
	l.bucket_ns[0] = 1;
	l.bucket_ns[3] = 999;	/* 0.1 % still shows as '.' */
	assert_string_equal(nl_fmt_locbar(buf, sizeof(buf), &l, true), ".  @    ");
	l.bucket_ns[3] = 1;
	assert_string_equal(nl_fmt_locbar(buf, sizeof(buf), &l, true), "=  =    ");
	l.available = false;
	assert_string_equal(nl_fmt_locbar(buf, sizeof(buf), &l, false), "unavail ");
	assert_string_equal(nl_fmt_locbar(buf, sizeof(buf), &l, true), "n/a     ");

	assert_string_equal(nl_fmt_hbar(buf, 10, 0.5), "#####     ");
	assert_string_equal(nl_fmt_hbar(buf, 4, 2.0), "####");
	assert_string_equal(nl_fmt_hbar(buf, 4, NAN), "    ");
	assert_string_equal(nl_fmt_num(buf, sizeof(buf), 999), "999");
	assert_string_equal(nl_fmt_num(buf, sizeof(buf), 12345), "12.3K");
	assert_string_equal(nl_fmt_num(buf, sizeof(buf), 4.5e6), "4.5M");
	assert_string_equal(nl_fmt_num(buf, sizeof(buf), -1), "-");
	assert_string_equal(nl_fmt_cgroup_name("/work/a"), "a");
	assert_string_equal(nl_fmt_cgroup_name("/"), "/");

	double r = -1;
	assert_true(nl_fmt_remote_ratio(&s->procs[2].f.alloc, &r));
	assert_near(r, 0.9, 1e-12);
	assert_false(nl_fmt_remote_ratio(&s->procs[1].f.alloc, &r));
	assert_near(nl_fmt_rate(1000, FIX_INTERVAL_NS), 500.0, 1e-9);
	assert_near(nl_fmt_rate(1000, 0), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_sort_keys),
		cmocka_unit_test(test_proc_sort_ties_by_pid),
		cmocka_unit_test(test_proc_filter),
		cmocka_unit_test(test_proc_filter_escaped_cgroup),
		cmocka_unit_test(test_cgroup_under),
		cmocka_unit_test(test_cgroup_sort),
		cmocka_unit_test(test_cgroup_tree_robust),
		cmocka_unit_test(test_sort_keys_chars),
		cmocka_unit_test(test_missing_without),
		cmocka_unit_test(test_locality_mean),
		cmocka_unit_test(test_snapshot_free),
		cmocka_unit_test(test_fmt),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
