// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* view_prom: render the fixture snapshot and check values, histogram
 * invariants, `le` bounds, escaping and the cardinality filters; and the
 * reclaim families (view_prom_vmscan) on the fixture with reclaim added. */
#include <errno.h>
#include <math.h>
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
#include "prom_text.h"
#include "http_server.h"
#include "prom_gzip.h"
#include "view_prom.h"
#include "view_prom_vmscan.h"

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

static struct nl_snapshot vs_fixture(void);

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
	t = prom_render(&s, &o);
	/* memhog 24 s + remote 50 s on node 0; memhog 6 s + sleeper 0.1 s on node 1 */
	assert_near(prom_value_of(t, "numalens_cgroup_cpu_seconds_total{cgroup=\"/\",node=\"0\"}"), 74, 1e-9);
	assert_near(prom_value_of(t, "numalens_cgroup_cpu_seconds_total{cgroup=\"/\",node=\"1\"}"), 6.1, 1e-9);
	assert_near(prom_value_of(t, "numalens_cgroup_cpu_seconds_total{cgroup=\"/work/b\",node=\"1\"}"), 0.1, 1e-12);
	/* pages x 4096 B */
	assert_near(prom_value_of(t, "numalens_cgroup_remote_allocated_bytes_total{cgroup=\"/work/a\"}"), 10000.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_allocated_bytes_total{cgroup=\"/work\",node=\"1\"}"), 250.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_allocated_bytes_total{cgroup=\"/work\",node=\"0\"}"), 0, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_class_allocated_bytes_total{cgroup=\"/\",class=\"movable\"}"), 240.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_lru_allocated_bytes_total{cgroup=\"/\",lru=\"anon\"}"), 200.0 * 4096, 0);
	assert_false(has(t, "class=\"anon\""));	/* classes stay disjoint */
	assert_near(prom_value_of(t, "numalens_cgroup_page_allocations_total{cgroup=\"/work/a\"}"), 42, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_remote_page_allocations_total{cgroup=\"/work/a\"}"), 12, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_page_migration_failures_total{cgroup=\"/work\"}"), 9, 0);
	/* node counters: absolute sysfs numastat */
	assert_near(prom_value_of(t, "numalens_node_numa_hit_total{node=\"0\"}"), 123456789, 0);
	assert_near(prom_value_of(t, "numalens_node_local_node_total{node=\"0\"}"), 123000000, 0);
	assert_near(prom_value_of(t, "numalens_node_memory_total_bytes{node=\"1\"}"), 8.0 * (1 << 30), 0);
	/* memory.numa_stat gauges only where known (/other is not) */
	assert_near(prom_value_of(t, "numalens_cgroup_memory_anon_bytes{cgroup=\"/work/a\",node=\"0\"}"), 100 << 20, 0);
	assert_false(has(t, "numalens_cgroup_memory_anon_bytes{cgroup=\"/other\""));
	/* self */
	assert_near(prom_value_of(t, "numalens_bpf_program_run_time_seconds_total{program=\"handle_sched_switch\"}"), 95e-6, 1e-15);
	assert_near(prom_value_of(t, "numalens_bpf_program_runs_total{program=\"handle_sched_switch\"}"), 1000, 0);
	assert_near(prom_value_of(t, "numalens_map_drops_total{reason=\"pfn_unknown\"}"), 4, 0);
	assert_near(prom_value_of(t, "numalens_evicted_processes_total"), 2, 0);
	assert_near(prom_value_of(t, "numalens_source_available{source=\"numa_balancing\"}"), 1, 0);
	assert_true(has(t, "numalens_build_info{version=\"\",kernel=\"6.18.44-test\"} 1\n"));
	/* in the initial pid namespace every task has its process series */
	assert_false(has(t, "numalens_other_pid_namespaces"));
	free(t);
	/* in a pid namespace of its own: the tasks it cannot see, summed */
	s.in_child_pidns = true;
	s.other_pidns.run_ns_total = 2500000000ull;
	s.other_pidns.alloc.pages_local_total = 40;
	s.other_pidns.alloc.pages_remote_total = 2;
	t = prom_render(&s, NULL);
	assert_near(prom_value_of(t, "numalens_other_pid_namespaces_cpu_seconds_total"), 2.5, 0);
	assert_near(prom_value_of(t, "numalens_other_pid_namespaces_allocated_pages_total"), 42, 0);
	free(t);
	nl_snapshot_free(&s);
}

/* Hit, miss and foreign against the preferred node, per node and per row,
 * and the per-zone pages beside the kernel's pgalloc: present only when
 * the allocation program is loaded. */
static void test_preferred_and_zones(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	char *t;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 2;
	o.top_procs = 3;
	s.src.alloc = false;
	t = prom_render(&s, &o);
	assert_false(has(t, "numalens_node_preferred_hits_total"));
	assert_false(has(t, "numalens_node_zone_pages_total"));
	free(t);
	s.src.alloc = true;
	s.nr_zones = 2;
	strcpy(s.zone_names[0], "DMA32");
	strcpy(s.zone_names[1], "Normal");
	s.pgalloc_total[0] = 7000;
	s.pgalloc_total[1] = 91000;
	s.nodes[0].bpf_pages_by_zone_total[0] = 600;
	s.nodes[0].bpf_pages_by_zone_total[1] = 5400;
	s.nodes[1].bpf_pages_by_zone_total[1] = 3000;
	s.nodes[0].bpf_events_hit_total = 5000;
	s.nodes[0].bpf_events_miss_total = 40;
	s.nodes[1].bpf_events_foreign_total = 40;
	s.procs[0].f.alloc.events_hit_total = 777;
	s.procs[0].f.alloc.events_miss_total = 33;
	for (int i = 0; i < 3; i++)	/* /, /work, /work/a */
		s.cgroups[i].f.alloc.events_miss_total = 33;
	t = prom_render(&s, &o);
	assert_near(prom_value_of(t, "numalens_node_preferred_hits_total{node=\"0\"}"), 5000, 0);
	assert_near(prom_value_of(t, "numalens_node_preferred_misses_total{node=\"0\"}"), 40, 0);
	assert_near(prom_value_of(t, "numalens_node_preferred_foreign_total{node=\"1\"}"), 40, 0);
	assert_near(prom_value_of(t, "numalens_node_preferred_foreign_total{node=\"0\"}"), 0, 0);
	assert_near(prom_value_of(t, "numalens_process_preferred_node_hits_total{pid=\"100\",comm=\"memhog\"}"), 777, 0);
	assert_near(prom_value_of(t, "numalens_process_preferred_node_misses_total{pid=\"100\",comm=\"memhog\"}"), 33, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_preferred_node_misses_total{cgroup=\"/work/a\"}"), 33, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_preferred_node_hits_total{cgroup=\"/work/a\"}"), 0, 0);
	assert_near(prom_value_of(t, "numalens_node_zone_pages_total{node=\"0\",zone=\"DMA32\"}"), 600, 0);
	assert_near(prom_value_of(t, "numalens_node_zone_pages_total{node=\"1\",zone=\"Normal\"}"), 3000, 0);
	assert_near(prom_value_of(t, "numalens_zone_pgalloc_pages_total{zone=\"Normal\"}"), 91000, 0);
	assert_true(has(t, "# TYPE numalens_node_preferred_hits_total counter\n"));
	assert_true(has(t, "# TYPE numalens_zone_pgalloc_pages_total counter\n"));
	free(t);
	nl_snapshot_free(&s);
}

/* For every cgroup: buckets in the 8 documented `le` bounds then +Inf,
 * cumulative, +Inf == _count, and _sum at the bucket midpoints. */
/* Busy share per node, 0..1; none for a node without online CPUs. */
static void test_node_busy(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	char *t;

	(void)state;
	nl_prom_opts_default(&o);
	s.nodes[1].nr_cpus = 0;
	s.nodes[1].cpu_busy_pct = NAN;
	t = prom_render(&s, &o);
	assert_near(prom_value_of(t, "numalens_node_cpu_busy_ratio{node=\"0\"}"), 0.625, 1e-9);
	assert_false(has(t, "numalens_node_cpu_busy_ratio{node=\"1\"}"));
	assert_near(prom_value_of(t, "numalens_node_cpus{node=\"1\"}"), 0, 0);
	assert_false(has(t, "NaN"));
	free(t);
	nl_snapshot_free(&s);
}

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
	t = prom_render(&s, &o);
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
			v = prom_value_of(t, key);
			assert_true(v >= prev);
			prev = v;
		}
		snprintf(key, sizeof(key), "numalens_cgroup_fault_locality_ratio_count{cgroup=\"%s\"}", s.cgroups[c].path);
		assert_near(prom_value_of(t, key), v, 0);
		assert_near(v, total, 1e-9);
		snprintf(key, sizeof(key), "numalens_cgroup_fault_locality_ratio_sum{cgroup=\"%s\"}", s.cgroups[c].path);
		assert_near(prom_value_of(t, key), sum, 1e-9);
	}
	/* memhog's 33 s all in bucket 7 (87.5-100 %): only le=1 and +Inf see it */
	assert_near(prom_value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/a\",le=\"0.875\"}"), 0, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/a\",le=\"1\"}"), 33, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_fault_locality_ratio_sum{cgroup=\"/work/a\"}"), 33.0 * 15 / 16, 1e-9);
	assert_near(prom_value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/b\",le=\"0.125\"}"), 1, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/b\",le=\"0.375\"}"), 1, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/work/b\",le=\"0.5\"}"), 1.5, 0);
	free(t);
	nl_snapshot_free(&s);
}

/* Every family is one contiguous block right after its # HELP and # TYPE. */
static void test_families_contiguous(void **state)
{
	struct nl_snapshot s = vs_fixture();
	struct nl_prom_opts o;
	char *t, *save = NULL, seen[256][96], cur[96] = "";
	int nseen = 0;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	o.top_procs = 3;
	t = prom_render(&s, &o);
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
	t = prom_render(&s, &o);
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
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{"), 1);
	assert_true(has(t, "numalens_cgroup_page_allocations_total{cgroup=\"/\"}"));
	assert_false(has(t, "numalens_process_"));
	assert_near(prom_value_of(t, "numalens_cgroups_exported"), 1, 0);
	free(t);

	o.cgroup_depth = 1;
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{"), 3);	/* /, /work, /other */
	free(t);

	o.cgroup_depth = -1;
	o.cgroup_patterns = pat;
	o.nr_cgroup_patterns = 1;
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{"), 2);
	assert_true(has(t, "{cgroup=\"/work/a\"}"));
	assert_true(has(t, "{cgroup=\"/work/b\"}"));
	assert_false(has(t, "{cgroup=\"/work\"}"));
	free(t);

	o.nr_cgroup_patterns = 0;
	o.cgroup_depth = 2;
	o.max_cgroups = 2;	/* pre-order: / and /work */
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{"), 2);
	assert_true(has(t, "{cgroup=\"/work\"}"));
	assert_near(prom_value_of(t, "numalens_cgroups_omitted"), 3, 0);
	assert_near(prom_value_of(t, "numalens_cgroups"), 5, 0);
	free(t);

	o.top_procs = 1;	/* the busiest of the interval: memhog, 3 s */
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "numalens_process_page_allocations_total{"), 1);
	assert_near(prom_value_of(t, "numalens_process_cpu_seconds_total{pid=\"100\",comm=\"memhog\",node=\"0\"}"), 24, 0);
	free(t);
	nl_snapshot_free(&s);
}

/* numalens_cgroup_info: one series per exported cgroup, with only the
 * labels its path names (the model's identity), values escaped; a cgroup
 * left out of the export has none; the row cap holds for it too. */
static void test_cgroup_info(void **state)
{
	struct nl_snapshot s = fixture();
	struct nl_prom_opts o;
	char *t;

	(void)state;
	nl_cgident_parse("/kubepods/burstable/pod1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d", &s.cgroups[1].ident);
	nl_cgident_parse("/kubepods/burstable/pod1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d/"
			  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/system.slice/cron.service",
			  &s.cgroups[2].ident);
	nl_cgident_parse("/system.slice/systemd-fsck@dev-disk-by\\x2dlabel-root.service", &s.cgroups[4].ident);
	nl_prom_opts_default(&o);
	o.cgroup_depth = 1;	/* /, /work and /other: not /work/a */
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "\nnumalens_cgroup_info{"), 3);
	assert_true(has(t, "# TYPE numalens_cgroup_info gauge\n"));
	assert_true(has(t, "\nnumalens_cgroup_info{cgroup=\"/\"} 1\n"));
	assert_true(has(t, "\nnumalens_cgroup_info{cgroup=\"/work\",pod_uid=\"1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d\"} 1\n"));
	/* the unit's backslash escaped once more in the label */
	assert_true(has(t, "\nnumalens_cgroup_info{cgroup=\"/other\","
			"systemd_unit=\"systemd-fsck@dev-disk-by\\\\x2dlabel-root.service\"} 1\n"));
	assert_false(has(t, "container_id="));
	free(t);
	o.cgroup_depth = 2;
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "\nnumalens_cgroup_info{"), 5);
	assert_true(has(t, "\nnumalens_cgroup_info{cgroup=\"/work/a\",pod_uid=\"1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d\","
			"container_id=\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\","
			"systemd_unit=\"cron.service\"} 1\n"));
	free(t);
	o.max_cgroups = 2;
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "\nnumalens_cgroup_info{"), 2);
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
	t = prom_render(&s, &o);
	assert_int_equal(count(t, "numalens_cgroup_page_allocations_total{cgroup=\"/work/b\"}"), 1);
	/* the live /work/b: the sleeper's 0.1 s, not /other's 50 s */
	assert_near(prom_value_of(t, "numalens_cgroup_cpu_seconds_total{cgroup=\"/work/b\",node=\"1\"}"), 0.1, 1e-12);
	assert_near(prom_value_of(t, "numalens_cgroups_exported"), 4, 0);
	free(t);
	/* two removed ones with one path: one series set */
	s.cgroups[3].removed = true;
	t = prom_render(&s, &o);
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
	t = prom_render(&s, &o);
	assert_near(prom_value_of(t, "numalens_source_available{source=\"numa_balancing\"}"), 0, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_fault_locality_ratio_count{cgroup=\"/\"}"), 0, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_fault_locality_ratio_bucket{cgroup=\"/\",le=\"+Inf\"}"), 0, 0);
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

/* A drain that appends each slice to the nl_buf @ctx. */
static int drain_to(void *ctx, const char *p, size_t n)
{
	nl_buf_put(ctx, p, n);
	return ((struct nl_buf *)ctx)->err;
}

/* @z (gzip) inflated; malloc'ed, @n its length. */
static char *gunzip(const struct nl_buf *z, size_t max, size_t *n)
{
	z_stream d = {};
	char *out = malloc(max + 1);

	assert_non_null(out);
	assert_int_equal(inflateInit2(&d, 15 + 16), Z_OK);
	d.next_in = (Bytef *)z->p;
	d.avail_in = (uInt)z->len;
	d.next_out = (Bytef *)out;
	d.avail_out = (uInt)max + 1;
	assert_int_equal(inflate(&d, Z_FINISH), Z_STREAM_END);
	*n = d.total_out;
	inflateEnd(&d);
	return out;
}

/* Drained at every line end (down to a slice of 1 byte), the render
 * writes the same bytes as into one buffer: no writer reads back past a
 * line's start. Reclaim families, processes and an escaped label in. */
static void test_render_drained(void **state)
{
	static const size_t at[] = { 1, 7, 100, 4096 };
	struct nl_snapshot s = vs_fixture();
	struct nl_prom_opts o;
	struct nl_buf t = {};

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	o.top_procs = 3;
	snprintf(s.procs[0].comm, sizeof(s.procs[0].comm), "a\\\"b");
	assert_int_equal(nl_prom_render(&t, &s, &o), 0);
	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		struct nl_buf got = {};
		struct nl_buf d = { .drain = drain_to, .drain_ctx = &got, .drain_at = at[k] };

		assert_int_equal(nl_prom_render(&d, &s, &o), 0);
		/* drained at line ends only: what is left is a line's start */
		assert_true(d.len < at[k] + 4096);
		assert_int_equal(nl_buf_drain(&d), 0);
		assert_int_equal(d.len, 0);
		assert_int_equal(got.len, t.len);
		assert_memory_equal(got.p, t.p, t.len);
		nl_buf_free(&d);
		nl_buf_free(&got);
	}
	nl_buf_free(&t);
	nl_snapshot_free(&s);
}

/* nl_prom_render_gzip: one gzip member of the render's text and the
 * scrape-duration family after it; its text length and times. */
static void test_render_gzip(void **state)
{
	struct nl_snapshot s = vs_fixture();
	struct nl_prom_opts o;
	struct nl_prom_gzip_cost c = {};
	struct nl_buf t = {}, z = {};
	size_t n;
	char *out;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	assert_int_equal(nl_prom_render(&t, &s, &o), 0);
	assert_int_equal(nl_prom_render_gzip(&z, &s, &o, &c), 0);
	out = gunzip(&z, t.len + 4096, &n);
	assert_int_equal(n, c.plain_len);
	assert_true(n > t.len);
	assert_memory_equal(out, t.p, t.len);
	out[n] = '\0';
	assert_true(!strncmp(out + t.len, "# HELP numalens_scrape_duration_seconds ", 40));
	assert_non_null(strstr(out + t.len, "\nnumalens_scrape_duration_seconds "));
	assert_true(c.render_ns > 0 && c.gzip_ns > 0);
	assert_int_equal(nl_prom_render_gzip(NULL, &s, &o, NULL), -EINVAL);
	free(out);
	nl_buf_free(&t);
	nl_buf_free(&z);
	nl_snapshot_free(&s);
}

/* The gzip stream fed in uneven pieces, past several regrowths of its
 * output (incompressible bytes), inflates to what it was fed. */
static void test_gzip_stream_pieces(void **state)
{
	size_t len = 3u << 20, n;
	struct nl_buf z = {};
	struct nl_gzip *g;
	uint32_t x = 12345;
	char *in = malloc(len), *out;

	(void)state;
	assert_non_null(in);
	for (size_t i = 0; i < len; i++) {	/* xorshift: nothing to match */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		in[i] = (char)x;
	}
	g = nl_gzip_open(&z);
	assert_non_null(g);
	for (size_t off = 0, k = 1; off < len; off += k, k = k * 3 + 1)
		assert_int_equal(nl_gzip_write(g, in + off, off + k > len ? len - off : k), 0);
	assert_int_equal(nl_gzip_close(g), 0);
	assert_true(z.len > len);	/* stored blocks */
	out = gunzip(&z, len, &n);
	assert_int_equal(n, len);
	assert_memory_equal(out, in, len);
	assert_int_equal(nl_gzip_close(NULL), -ENOMEM);
	free(out);
	free(in);
	nl_buf_free(&z);
}

/* ---- reclaim (vmscan) families ------------------------------------------ */

/* Own (not hierarchical) reclaim of the fixture's cgroups, in pages;
 * lru 2 = pageout (no anon/file split). Index = cgroup index, 0 = the
 * root's own, which is kswapd's (charged to the root). */
static const struct { int cg, ctx, nid, lru; uint64_t scanned, rotated, freed; } vs_pages[] = {
	{ 2, NL_VS_LIMIT, 0, 1, 1000, 100, 600 },	/* /work/a file on node 0 */
	{ 2, NL_VS_LIMIT, 1, 0, 500, 450, 20 },		/* /work/a anon on node 1 */
	{ 3, NL_VS_PROACTIVE, 1, 1, 64, 0, 64 },	/* /work/b memory.reclaim */
	{ 3, NL_VS_PROACTIVE, 1, 2, 32, 2, 30 },	/* /work/b MADV_PAGEOUT */
	{ 4, NL_VS_DIRECT, 0, 0, 200, 5, 150 },		/* /other */
	{ 0, NL_VS_KSWAPD, 0, 1, 4096, 32, 4000 },
	{ 0, NL_VS_KSWAPD, 1, 0, 100, 0, 90 },
};

/* Episodes in ns, each at the edge of a bound: 1023 ns is le 1.023e-6's
 * last ns, 1024 the next bucket's first; 2^30 ns is just past
 * le 1.073741823; 300 s is past the last finite bound. */
static const struct { int cg, ctx; uint64_t ns; } vs_eps[] = {
	{ 2, NL_VS_LIMIT, 1023 }, { 2, NL_VS_LIMIT, 1024 }, { 2, NL_VS_LIMIT, 3000000 },
	{ 3, NL_VS_PROACTIVE, 300000000000ull },
	{ 4, NL_VS_DIRECT, 5000000 },
	{ 0, NL_VS_KSWAPD, 1ull << 30 },
};

/* The log2 bucket of the BPF program: floor(log2(ns)), 0 for 0 and 1. */
static int vs_bucket(uint64_t ns)
{
	int b = 0;

	while (b + 1 < NL_VS_HIST && (ns >> (b + 1)))
		b++;
	return b;
}

static void vs_add_pages(struct nl_vs_page_figs *p, int lru, uint64_t sc, uint64_t ro, uint64_t fr)
{
	if (lru == 2) {
		p->pageout_scanned += sc;
		p->pageout_rotated += ro;
		p->pageout_freed += fr;
		return;
	}
	p->scanned[lru] += sc;
	p->rotated[lru] += ro;
	p->freed[lru] += fr;
}

/* The fixture with reclaim: every own figure added to its cgroup and
 * each ancestor (parents are recursive sums) and to its node. */
static struct nl_snapshot vs_fixture(void)
{
	struct nl_snapshot s = fixture();

	s.src.vmscan = true;
	for (int i = 0; i < s.nr_cgroups; i++) {
		s.cgroups[i].vmscan = calloc(1, nl_vmscan_figs_size(s.nr_nodes));
		assert_non_null(s.cgroups[i].vmscan);
		s.cgroups[i].vmscan->nr_nids = s.nr_nodes;	/* the fixture's nids are 0.. */
	}
	for (size_t k = 0; k < sizeof(vs_pages) / sizeof(vs_pages[0]); k++) {
		uint64_t id = s.cgroups[vs_pages[k].cg].id;

		for (; id; id = s.cgroups[id - 1].parent_id) {
			struct nl_vmscan_figs *v = s.cgroups[id - 1].vmscan;

			vs_add_pages(&v->pages_total[vs_pages[k].ctx], vs_pages[k].lru, vs_pages[k].scanned,
				     vs_pages[k].rotated, vs_pages[k].freed);
			vs_add_pages(&v->node[vs_pages[k].nid].total[vs_pages[k].ctx], vs_pages[k].lru,
				     vs_pages[k].scanned, vs_pages[k].rotated, vs_pages[k].freed);
		}
		vs_add_pages(&s.nodes[vs_pages[k].nid].vmscan_total[vs_pages[k].ctx], vs_pages[k].lru,
			     vs_pages[k].scanned, vs_pages[k].rotated, vs_pages[k].freed);
	}
	for (size_t k = 0; k < sizeof(vs_eps) / sizeof(vs_eps[0]); k++)
		for (uint64_t id = s.cgroups[vs_eps[k].cg].id; id; id = s.cgroups[id - 1].parent_id) {
			struct nl_vs_time_figs *t = &s.cgroups[id - 1].vmscan->time_total[vs_eps[k].ctx];

			t->elapsed_ns += vs_eps[k].ns;
			t->episodes++;
			t->hist[vs_bucket(vs_eps[k].ns)]++;
		}
	return s;
}

static const char *const vs_ctx[] = { "limit", "direct", "kswapd", "proactive" };
static const char *const vs_lru[] = { "anon", "file", "unknown" };
static const char *const vs_kind[] = { "scanned", "rotated", "freed" };

static void test_vmscan_values(void **state)
{
	struct nl_snapshot s = vs_fixture();
	struct nl_prom_opts o;
	char *t;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	t = prom_render(&s, &o);
	/* pages x 4096 B */
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_freed_bytes_total{cgroup=\"/work/a\",context=\"limit\",lru=\"file\"}"), 600.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_rotated_bytes_total{cgroup=\"/work/a\",context=\"limit\",lru=\"anon\"}"), 450.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_scanned_bytes_total{cgroup=\"/work/a\",context=\"direct\",lru=\"anon\"}"), 0, 0);
	/* pageout pages are lru="unknown", never guessed into anon or file */
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_freed_bytes_total{cgroup=\"/work/b\",context=\"proactive\",lru=\"unknown\"}"), 30.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_freed_bytes_total{cgroup=\"/work/b\",context=\"proactive\",lru=\"file\"}"), 64.0 * 4096, 0);
	/* parents are recursive sums: /work = a + b, / = everything */
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_freed_bytes_total{cgroup=\"/work\",context=\"limit\",lru=\"file\"}"), 600.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_scanned_bytes_total{cgroup=\"/\",context=\"direct\",lru=\"anon\"}"), 200.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_freed_bytes_total{cgroup=\"/\",context=\"kswapd\",lru=\"file\"}"), 4000.0 * 4096, 0);
	/* node view: every cgroup's reclaim of the node's LRUs */
	assert_near(prom_value_of(t, "numalens_node_reclaim_freed_bytes_total{node=\"0\",context=\"kswapd\",lru=\"file\"}"), 4000.0 * 4096, 0);
	assert_near(prom_value_of(t, "numalens_node_reclaim_scanned_bytes_total{node=\"1\",context=\"limit\",lru=\"anon\"}"), 500.0 * 4096, 0);
	/* seconds: 1023 + 1024 + 3e6 ns in /work/a's limit reclaim */
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_seconds_total{cgroup=\"/work/a\",context=\"limit\"}"), 3002047e-9, 1e-15);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_seconds_total{cgroup=\"/\",context=\"proactive\"}"), 300, 0);
	/* kswapd is charged to the root only: no kswapd series elsewhere */
	assert_int_equal(count(t, "context=\"kswapd\""), 3 * 3 + 1 + (NL_PROM_RECLAIM_LE + 3) + 3 * 3 * 2);
	assert_false(has(t, "{cgroup=\"/work\",context=\"kswapd\""));
	assert_near(prom_value_of(t, "numalens_source_available{source=\"vmscan\"}"), 1, 0);
	free(t);

	/* without the vmscan program: no reclaim family at all, and the
	 * source gauge says so (flat is not "no reclaim") */
	s.src.vmscan = false;
	t = prom_render(&s, &o);
	assert_false(has(t, "_reclaim_"));
	assert_near(prom_value_of(t, "numalens_source_available{source=\"vmscan\"}"), 0, 0);
	free(t);
	nl_snapshot_free(&s);
}

/* The `le` of each exported bound is (2^(b+1) - 1) ns for its last log2
 * bucket b; per (cgroup, context): cumulative, +Inf == _count ==
 * episodes, _sum == elapsed; episodes at a bound's edge land right. */
static void test_vmscan_histogram(void **state)
{
	struct nl_snapshot s = vs_fixture();
	struct nl_prom_opts o;
	char *t, key[1024], le[NL_PROM_RECLAIM_LE][32];

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	o.cgroup_reclaim_histograms = true;
	t = prom_render(&s, &o);
	/* bounds: increasing odd buckets from 9 (~1 us) to 33 (~17 s), and the
	 * text of each le parses back to (2^(b+1) - 1) ns exactly */
	assert_int_equal(nl_prom_reclaim_bucket[0], 9);
	assert_int_equal(nl_prom_reclaim_bucket[NL_PROM_RECLAIM_LE - 1], 33);
	for (int k = 0; k < NL_PROM_RECLAIM_LE; k++) {
		uint64_t ns = (2ull << nl_prom_reclaim_bucket[k]) - 1;
		const char *p;
		char *end;

		if (k)
			assert_int_equal(nl_prom_reclaim_bucket[k], nl_prom_reclaim_bucket[k - 1] + 2);
		snprintf(key, sizeof(key), "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/\",context=\"limit\",le=\"");
		p = strstr(t, key);
		for (int j = 0; j < k && p; j++)
			p = strstr(p + 1, key);
		assert_non_null(p);
		p += strlen(key);
		snprintf(le[k], sizeof(le[k]), "%.*s", (int)strcspn(p, "\""), p);
		assert_near(strtod(le[k], &end), (double)ns / 1e9, 0);
		assert_int_equal(*end, '\0');
		/* exact decimal: seconds and nanoseconds digits */
		assert_int_equal(strtoull(le[k], NULL, 10) * 1000000000ull + strtoull(strchr(le[k], '.') + 1, NULL, 10), ns);
	}
	assert_string_equal(le[0], "0.000001023");
	assert_string_equal(le[NL_PROM_RECLAIM_LE - 1], "17.179869183");
	for (int c = 0; c < s.nr_cgroups; c++)
		for (int x = 0; x < NL_VS_NR_CTX; x++) {
			const struct nl_vs_time_figs *tf = &s.cgroups[c].vmscan->time_total[x];
			double prev = 0, v = 0;

			if (x == NL_VS_KSWAPD && s.cgroups[c].depth)
				continue;
			for (int k = 0; k <= NL_PROM_RECLAIM_LE; k++) {
				uint64_t want = 0;

				snprintf(key, sizeof(key), "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"%s\",context=\"%s\",le=\"%s\"}",
					 s.cgroups[c].path, vs_ctx[x], k < NL_PROM_RECLAIM_LE ? le[k] : "+Inf");
				v = prom_value_of(t, key);
				assert_true(v >= prev);
				prev = v;
				/* recount from the fixture's own ns values */
				for (size_t e = 0; e < sizeof(vs_eps) / sizeof(vs_eps[0]); e++) {
					bool in = false;

					for (uint64_t id = s.cgroups[vs_eps[e].cg].id; id; id = s.cgroups[id - 1].parent_id)
						in |= id == s.cgroups[c].id;
					if (in && vs_eps[e].ctx == x &&
					    (k == NL_PROM_RECLAIM_LE || vs_eps[e].ns <= (2ull << nl_prom_reclaim_bucket[k]) - 1))
						want++;
				}
				assert_near(v, (double)want, 0);
			}
			snprintf(key, sizeof(key), "numalens_cgroup_reclaim_duration_seconds_count{cgroup=\"%s\",context=\"%s\"}",
				 s.cgroups[c].path, vs_ctx[x]);
			assert_near(prom_value_of(t, key), v, 0);
			assert_near(v, (double)tf->episodes, 0);
			snprintf(key, sizeof(key), "numalens_cgroup_reclaim_duration_seconds_sum{cgroup=\"%s\",context=\"%s\"}",
				 s.cgroups[c].path, vs_ctx[x]);
			assert_near(prom_value_of(t, key), (double)tf->elapsed_ns / 1e9, 1e-12);
		}
	/* the edges by hand: 1023 ns is in the first bound, 1024 ns only in
	 * the second; 2^30 ns is past 1.073741823; 300 s only in +Inf */
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/work/a\",context=\"limit\",le=\"0.000001023\"}"), 1, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/work/a\",context=\"limit\",le=\"0.000004095\"}"), 2, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/work/a\",context=\"limit\",le=\"0.004194303\"}"), 3, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/\",context=\"kswapd\",le=\"1.073741823\"}"), 0, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/\",context=\"kswapd\",le=\"4.294967295\"}"), 1, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/work/b\",context=\"proactive\",le=\"17.179869183\"}"), 0, 0);
	assert_near(prom_value_of(t, "numalens_cgroup_reclaim_duration_seconds_bucket{cgroup=\"/work/b\",context=\"proactive\",le=\"+Inf\"}"), 1, 0);
	free(t);
	nl_snapshot_free(&s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* No series twice in the whole exposition (Prometheus rejects a scrape
 * with duplicates), reclaim families included; and their count is the
 * README's: per cgroup 30 (3 contexts) plus 48 histogram series for the
 * root only by default, for every cgroup with --cgroup-reclaim-histograms;
 * +26 for the root's kswapd, per node 36. */
static void test_vmscan_no_duplicates(void **state)
{
	struct nl_snapshot s = vs_fixture();
	struct nl_prom_opts o;
	char *t, *save = NULL, **lines = NULL;
	int n = 0, cap = 0, reclaim = 0;

	(void)state;
	nl_prom_opts_default(&o);
	o.cgroup_depth = 5;
	o.top_procs = 3;
	t = prom_render(&s, &o);
	for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp;

		if (line[0] == '#')
			continue;
		sp = strrchr(line, ' ');
		assert_non_null(sp);
		*sp = '\0';
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = realloc(lines, (size_t)cap * sizeof(*lines));
			assert_non_null(lines);
		}
		lines[n++] = line;
		reclaim += strstr(line, "_reclaim_") != NULL;
	}
	qsort(lines, (size_t)n, sizeof(*lines), cmp_str);
	for (int i = 1; i < n; i++)
		if (!strcmp(lines[i - 1], lines[i]))
			fail_msg("duplicate series %s", lines[i]);
	assert_int_equal(reclaim, s.nr_cgroups * 30 + 48 + 26 + s.nr_nodes * 36);
	free(lines);
	free(t);
	o.cgroup_reclaim_histograms = true;
	t = prom_render(&s, &o);
	reclaim = 0;
	for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		reclaim += line[0] != '#' && strstr(line, "_reclaim_") != NULL;
	assert_int_equal(reclaim, s.nr_cgroups * 78 + 26 + s.nr_nodes * 36);
	free(t);
	nl_snapshot_free(&s);
}

/* Per-node sums: for every kind, context and lru, the node series add up
 * to the root cgroup's (the root holds every cgroup's reclaim, the nodes
 * split the same events by node), and each is nonzero somewhere. */
static void test_vmscan_node_sums(void **state)
{
	struct nl_snapshot s = vs_fixture();
	struct nl_prom_opts o;
	char *t, key[512];
	double grand = 0;

	(void)state;
	nl_prom_opts_default(&o);
	t = prom_render(&s, &o);
	for (int k = 0; k < 3; k++)
		for (int x = 0; x < NL_VS_NR_CTX; x++)
			for (int l = 0; l < 3; l++) {
				double sum = 0, root;

				for (int i = 0; i < s.nr_nodes; i++) {
					snprintf(key, sizeof(key), "numalens_node_reclaim_%s_bytes_total{node=\"%d\",context=\"%s\",lru=\"%s\"}",
						 vs_kind[k], s.nodes[i].nid, vs_ctx[x], vs_lru[l]);
					sum += prom_value_of(t, key);
				}
				snprintf(key, sizeof(key), "numalens_cgroup_reclaim_%s_bytes_total{cgroup=\"/\",context=\"%s\",lru=\"%s\"}",
					 vs_kind[k], vs_ctx[x], vs_lru[l]);
				root = prom_value_of(t, key);
				if (sum != root)
					fail_msg("%s %s %s: nodes sum to %.0f, root has %.0f", vs_kind[k], vs_ctx[x], vs_lru[l], sum, root);
				grand += root;
			}
	/* every page of the fixture, once: (sum of scanned + rotated + freed) x 4096 */
	{
		uint64_t pages = 0;

		for (size_t k = 0; k < sizeof(vs_pages) / sizeof(vs_pages[0]); k++)
			pages += vs_pages[k].scanned + vs_pages[k].rotated + vs_pages[k].freed;
		assert_near(grand, (double)pages * 4096, 0);
	}
	free(t);
	nl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_node_busy),
		cmocka_unit_test(test_preferred_and_zones),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_families_contiguous),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_cardinality),
		cmocka_unit_test(test_cgroup_info),
		cmocka_unit_test(test_recreated_cgroup),
		cmocka_unit_test(test_locality_unavailable),
		cmocka_unit_test(test_seconds_format),
		cmocka_unit_test(test_accept_gzip),
		cmocka_unit_test(test_gzip_roundtrip),
		cmocka_unit_test(test_render_drained),
		cmocka_unit_test(test_render_gzip),
		cmocka_unit_test(test_gzip_stream_pieces),
		cmocka_unit_test(test_vmscan_values),
		cmocka_unit_test(test_vmscan_histogram),
		cmocka_unit_test(test_vmscan_no_duplicates),
		cmocka_unit_test(test_vmscan_node_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
