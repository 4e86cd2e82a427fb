// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* view_prom: render the fixture snapshot and check values, histogram
 * invariants, `le` bounds, escaping and the cardinality filters. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>
#include "snapshot_fixture.h"
#include "http_server.h"
#include "view_prom.h"

static char *render(const struct nl_snapshot *s, const struct nl_prom_opts *o)
{
	struct nl_buf b = {};

	assert_int_equal(nl_prom_render(&b, s, o), 0);
	assert_non_null(b.p);
	return b.p;
}

/* Value of the sample whose name and labels are exactly @series; fails
 * the test if absent. */
static double value_of(const char *text, const char *series)
{
	size_t n = strlen(series);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, series, n) && p[n] == ' ')
			return strtod(p + n + 1, NULL);
	fail_msg("no sample %s", series);
	return 0;
}

static bool has(const char *text, const char *needle)
{
	return strstr(text, needle) != NULL;
}

static struct nl_snapshot fixture(void)
{
	struct nl_snapshot s;

	assert_int_equal(fix_build(&s, true), 0);
	return s;
}

static void test_values(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	char *t;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 2;
	/* totals the fixture leaves at 0: set them on /work/a and its parents */
	for (int i = 0; i < 3; i++) {
		s.cgroups[i].f.alloc.pages_by_node_total[1] = 250;
		s.cgroups[i].f.alloc.pages_by_class_total[NL_CLASS_MOVABLE] = 240;
		s.cgroups[i].f.alloc.pages_by_class_total[NL_CLASS_ANON] = 200;
		s.cgroups[i].f.alloc.events_local_total = 30;
		s.cgroups[i].f.alloc.events_remote_total = 12;
		s.cgroups[i].f.mig.pages_fail_total = 9;
	}
	t = render(&s, &o);
	/* memhog 24 s + remote 50 s on node 0; memhog 6 s + sleeper 0.1 s on node 1 */
	assert_near(value_of(t, "numalens_cgroup_cpu_seconds_total{cgroup=\"/\",node=\"0\"}"), 74, 1e-9);
	assert_near(value_of(t, "numalens_cgroup_cpu_seconds_total{cgroup=\"/\",node=\"1\"}"), 6.1, 1e-9);
	assert_near(value_of(t, "numalens_cgroup_cpu_seconds_total{cgroup=\"/work/b\",node=\"1\"}"), 0.1, 1e-12);
	/* pages x 4096 B */
	assert_near(value_of(t, "numalens_cgroup_remote_allocated_bytes_total{cgroup=\"/work/a\"}"), 10000.0 * 4096, 0);
	assert_near(value_of(t, "numalens_cgroup_allocated_bytes_total{cgroup=\"/work\",node=\"1\"}"), 250.0 * 4096, 0);
	assert_near(value_of(t, "numalens_cgroup_allocated_bytes_total{cgroup=\"/work\",node=\"0\"}"), 0, 0);
	assert_near(value_of(t, "numalens_cgroup_class_allocated_bytes_total{cgroup=\"/\",class=\"movable\"}"), 240.0 * 4096, 0);
	assert_near(value_of(t, "numalens_cgroup_lru_allocated_bytes_total{cgroup=\"/\",lru=\"anon\"}"), 200.0 * 4096, 0);
	assert_false(has(t, "class=\"anon\""));	/* classes stay disjoint */
	assert_near(value_of(t, "numalens_cgroup_page_allocations_total{cgroup=\"/work/a\"}"), 42, 0);
	assert_near(value_of(t, "numalens_cgroup_remote_page_allocations_total{cgroup=\"/work/a\"}"), 12, 0);
	assert_near(value_of(t, "numalens_cgroup_page_migration_failures_total{cgroup=\"/work\"}"), 9, 0);
	/* node counters: absolute sysfs numastat */
	assert_near(value_of(t, "numalens_node_numa_hit_total{node=\"0\"}"), 123456789, 0);
	assert_near(value_of(t, "numalens_node_local_node_total{node=\"0\"}"), 123000000, 0);
	assert_near(value_of(t, "numalens_node_memory_total_bytes{node=\"1\"}"), 8.0 * (1 << 30), 0);
	/* memory.numa_stat gauges only where known (/other is not) */
	assert_near(value_of(t, "numalens_cgroup_memory_anon_bytes{cgroup=\"/work/a\",node=\"0\"}"), 100 << 20, 0);
	assert_false(has(t, "numalens_cgroup_memory_anon_bytes{cgroup=\"/other\""));
	/* self */
	assert_near(value_of(t, "numalens_bpf_program_run_time_seconds_total{program=\"handle_sched_switch\"}"), 95e-6, 1e-15);
	assert_near(value_of(t, "numalens_bpf_program_runs_total{program=\"handle_sched_switch\"}"), 1000, 0);
	assert_near(value_of(t, "numalens_map_drops_total{reason=\"pfn_unknown\"}"), 4, 0);
	assert_near(value_of(t, "numalens_evicted_processes_total"), 2, 0);
	assert_near(value_of(t, "numalens_source_available{source=\"numa_balancing\"}"), 1, 0);
	assert_true(has(t, "numalens_build_info{version=\"\",kernel=\"6.18.44-test\"} 1\n"));
	free(t);
	nl_snapshot_free(&s);
}

/* For every cgroup: buckets in the 8 documented `le` bounds then +Inf,
 * cumulative, +Inf == _count, and _sum at the bucket midpoints. */
static void test_histogram(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	static const char *const le[] = { "0.125", "0.25", "0.375", "0.5", "0.625", "0.75", "0.875", "1", "+Inf" };
	char *t, key[1024];

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	/* one CPU-second in the lowest bucket of /work/b: it must count at
	 * le=0.125 (bucket 0's upper edge), the #488 off-by-one test */
	s.cgroups[3].f.locality_ns_total[0] = 1000000000ull;
	s.cgroups[3].f.locality_ns_total[3] = 500000000ull;
	t = render(&s, &o);
	for (int i = 0; i < NL_LOC_BUCKETS; i++)
		assert_string_equal(nl_prom_locality_le[i], le[i]);
	for (int c = 0; c < s.nr_cgroups; c++) {
		double prev = 0, v = 0, sum = 0, total = 0;

		for (int k = 0; k < NL_LOC_BUCKETS; k++) {
			total += (double)s.cgroups[c].f.locality_ns_total[k] / 1e9;
			sum += (double)s.cgroups[c].f.locality_ns_total[k] / 1e9 * (k + 0.5) / 8;
		}
		for (int k = 0; k < 9; k++) {
			snprintf(key, sizeof(key), "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"%s\",le=\"%s\"}",
				 s.cgroups[c].path, le[k]);
			v = value_of(t, key);
			assert_true(v >= prev);
			prev = v;
		}
		snprintf(key, sizeof(key), "numalens_cgroup_fault_locality_ratio_count{cgroup=\"%s\"}", s.cgroups[c].path);
		assert_near(value_of(t, key), v, 0);
		assert_near(v, total, 1e-9);
		snprintf(key, sizeof(key), "numalens_cgroup_fault_locality_ratio_sum{cgroup=\"%s\"}", s.cgroups[c].path);
		assert_near(value_of(t, key), sum, 1e-9);
	}
	/* memhog's 33 s all in bucket 7 (87.5-100 %): only le=1 and +Inf see it */
	assert_near(value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/a\",le=\"0.875\"}"), 0, 0);
	assert_near(value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/a\",le=\"1\"}"), 33, 0);
	assert_near(value_of(t, "numalens_cgroup_fault_locality_ratio_sum{cgroup=\"/work/a\"}"), 33.0 * 15 / 16, 1e-9);
	assert_near(value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/b\",le=\"0.125\"}"), 1, 0);
	assert_near(value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/b\",le=\"0.375\"}"), 1, 0);
	assert_near(value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/b\",le=\"0.5\"}"), 1.5, 0);
	free(t);
	nl_snapshot_free(&s);
}

/* Every family is one contiguous block right after its # HELP and # TYPE. */
static void test_families_contiguous(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	char *t, *save = NULL, seen[256][96], cur[96] = "";
	int nseen = 0;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	o.top_procs = 3;
	t = render(&s, &o);
	for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[96];
		size_t n;

		if (!strncmp(line, "# TYPE ", 7)) {
			sscanf(line + 7, "%95s", cur);
			for (int i = 0; i < nseen; i++)
				if (!strcmp(seen[i], cur))
					fail_msg("family %s appears twice", cur);
			assert_true(nseen < 256);
			strcpy(seen[nseen++], cur);
			continue;
		}
		if (line[0] == '#')
			continue;
		n = strcspn(line, "{ ");
		assert_true(n < sizeof(name));
		memcpy(name, line, n);
		name[n] = '\0';
		if (strcmp(name, cur)) {
			/* histogram series carry a suffix */
			size_t c = strlen(cur);

			if (strncmp(name, cur, c) || (strcmp(name + c, "_bucket") && strcmp(name + c, "_sum") &&
						       strcmp(name + c, "_count")))
				fail_msg("sample %s outside its family (current %s)", name, cur);
		}
	}
	assert_true(nseen > 30);
	free(t);
	nl_snapshot_free(&s);
}

static void test_escaping(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	char *t;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	o.top_procs = 3;
	strcpy(s.cgroups[4].path, "/we\"ird\\pa\nth");
	strcpy(s.procs[2].comm, "a\"b\\c");
	t = render(&s, &o);
	assert_true(has(t, "{cgroup=\"/we\\\"ird\\\\pa\\nth\",node=\"0\"}"));
	assert_true(has(t, "comm=\"a\\\"b\\\\c\""));
	/* no raw newline inside any sample line: each line has a name */
	for (char *p = t; (p = strchr(p, '\n')) && p[1]; p++)
		assert_true(p[1] == '#' || (p[1] >= 'a' && p[1] <= 'z'));
	free(t);
	nl_snapshot_free(&s);
}

static int count(const char *t, const char *needle)
{
	int n = 0;

	for (const char *p = t; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_cardinality(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	const char *pat[] = { "/work/*" };
	char *t;

	(void)state;
	nl_prom_opts_default(&o);	/* root only, no processes */
	t = render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{"), 1);
	assert_true(has(t, "numalens_cgroup_page_allocations_total{cgroup=\"/\"}"));
	assert_false(has(t, "numalens_process_"));
	assert_near(value_of(t, "numalens_cgroups_exported"), 1, 0);
	free(t);

	o.cgroup_depth = 1;
	t = render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{"), 3);	/* /, /work, /other */
	free(t);

	o.cgroup_depth = -1;
	o.cgroup_patterns = pat;
	o.nr_cgroup_patterns = 1;
	t = render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{"), 2);
	assert_true(has(t, "{cgroup=\"/work/a\"}"));
	assert_true(has(t, "{cgroup=\"/work/b\"}"));
	assert_false(has(t, "{cgroup=\"/work\"}"));
	free(t);

	o.nr_cgroup_patterns = 0;
	o.cgroup_depth = 2;
	o.max_cgroups = 2;	/* pre-order: / and /work */
	t = render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{"), 2);
	assert_true(has(t, "{cgroup=\"/work\"}"));
	assert_near(value_of(t, "numalens_cgroups_omitted"), 3, 0);
	assert_near(value_of(t, "numalens_cgroups"), 5, 0);
	free(t);

	o.top_procs = 1;	/* the busiest of the interval: memhog, 3 s */
	t = render(&s, &o);
	assert_int_equal(count(t, "numalens_process_page_allocations_total{"), 1);
	assert_near(value_of(t, "numalens_process_cpu_seconds_total{pid=\"100\",comm=\"memhog\",node=\"0\"}"), 24, 0);
	free(t);
	nl_snapshot_free(&s);
}

/* A removed cgroup whose path a live one took again is not exported
 * twice (Prometheus would reject the scrape); the live one wins. */
static void test_recreated_cgroup(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	char *t;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	strcpy(s.cgroups[4].path, "/work/b");	/* /other, removed, had that name */
	s.cgroups[4].removed = true;
	t = render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{cgroup=\"/work/b\"}"), 1);
	/* the live /work/b: the sleeper's 0.1 s, not /other's 50 s */
	assert_near(value_of(t, "numalens_cgroup_cpu_seconds_total{cgroup=\"/work/b\",node=\"1\"}"), 0.1, 1e-12);
	assert_near(value_of(t, "numalens_cgroups_exported"), 4, 0);
	free(t);
	/* two removed ones with one path: one series set */
	s.cgroups[3].removed = true;
	t = render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{cgroup=\"/work/b\"}"), 1);
	free(t);
	nl_snapshot_free(&s);
}

/* Locality off: the histogram is still well-formed (empty, _count 0) and
 * the source gauge says why. */
static void test_locality_unavailable(void **state)
{
	struct nl_snapshot s;
	struct nl_prom_opts o;
	char *t;

	(void)state;
	assert_int_equal(fix_build(&s, false), 0);
	for (int i = 0; i < s.nr_cgroups; i++)
		memset(s.cgroups[i].f.locality_ns_total, 0, sizeof(s.cgroups[i].f.locality_ns_total));
	nl_prom_opts_default(&o);
	t = render(&s, &o);
	assert_near(value_of(t, "numalens_source_available{source=\"numa_balancing\"}"), 0, 0);
	assert_near(value_of(t, "numalens_cgroup_fault_locality_ratio_count{cgroup=\"/\"}"), 0, 0);
	assert_near(value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/\",le=\"+Inf\"}"), 0, 0);
	free(t);
	nl_snapshot_free(&s);
}

static void test_seconds_format(void **state)
{
	static const struct { uint64_t ns; const char *s; } v[] = {
		{ 0, "0" }, { 1, "0.000000001" }, { 1500000000ull, "1.5" }, { 3000000000ull, "3" },
		{ 18446744073709551615ull, "18446744073.709551615" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct nl_buf b = {};

		nl_buf_put_ns_as_s(&b, v[i].ns);
		assert_string_equal(b.p, v[i].s);
		nl_buf_free(&b);
	}
}

static void test_accept_gzip(void **state)
{
	(void)state;
	assert_true(nl_http_accepts_gzip("gzip"));
	assert_true(nl_http_accepts_gzip("deflate, gzip;q=1.0, identity"));
	assert_true(nl_http_accepts_gzip("GZip"));
	assert_true(nl_http_accepts_gzip("*"));
	assert_false(nl_http_accepts_gzip("gzip;q=0"));
	assert_false(nl_http_accepts_gzip("gzip; q=0.000"));
	assert_false(nl_http_accepts_gzip("identity"));
	assert_false(nl_http_accepts_gzip("x-gzipped"));
	assert_false(nl_http_accepts_gzip(""));
	assert_false(nl_http_accepts_gzip(NULL));
}

/* What nl_http_gzip writes is a gzip stream that inflates to the input. */
static void test_gzip_roundtrip(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	struct nl_buf t = {}, z = {};
	z_stream d = {};
	char *out;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	assert_int_equal(nl_prom_render(&t, &s, &o), 0);
	assert_int_equal(nl_http_gzip(t.p, t.len, &z), 0);
	assert_true(z.len > 10 && z.len < t.len);
	assert_int_equal((unsigned char)z.p[0], 0x1f);	/* gzip magic */
	assert_int_equal((unsigned char)z.p[1], 0x8b);
	out = malloc(t.len + 1);
	assert_non_null(out);
	assert_int_equal(inflateInit2(&d, 15 + 16), Z_OK);
	d.next_in = (Bytef *)z.p;
	d.avail_in = (uInt)z.len;
	d.next_out = (Bytef *)out;
	d.avail_out = (uInt)t.len + 1;
	assert_int_equal(inflate(&d, Z_FINISH), Z_STREAM_END);
	assert_int_equal(d.total_out, t.len);
	assert_memory_equal(out, t.p, t.len);
	inflateEnd(&d);
	free(out);
	nl_buf_free(&t);
	nl_buf_free(&z);
	nl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_families_contiguous),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_cardinality),
		cmocka_unit_test(test_recreated_cgroup),
		cmocka_unit_test(test_locality_unavailable),
		cmocka_unit_test(test_seconds_format),
		cmocka_unit_test(test_accept_gzip),
		cmocka_unit_test(test_gzip_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
