// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* view_json: render the fixture, parse it back with cJSON and compare
 * every figure and the key sets with docs/json.md. */
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
#include "snapshot_fixture.h"
#include "view_json.h"

static cJSON *parse(const struct nl_snapshot *s, const struct nl_view_opts *o, char **text)
{
	char *t = nl_json_render(s, o);
	cJSON *root;

	assert_non_null(t);
	/* JSON Lines: the object itself never spans lines */
	assert_null(strchr(t, '\n'));
	root = cJSON_Parse(t);
	assert_non_null(root);
	if (text)
		*text = t;
	else
		free(t);
	return root;
}

static cJSON *get(const cJSON *o, const char *key)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v)
		fail_msg("missing key \"%s\"", key);
	return v;
}

static double num(const cJSON *o, const char *key)
{
	cJSON *v = get(o, key);

	if (!cJSON_IsNumber(v))
		fail_msg("\"%s\" is not a number", key);
	return v->valuedouble;
}

/* The keys of @o must be exactly @keys, in that order (docs/json.md). */
static void keys_are(const cJSON *o, const char *const *keys, int n, const char *what)
{
	const cJSON *c;
	int i = 0;

	assert_true(cJSON_IsObject(o));
	cJSON_ArrayForEach(c, o) {
		if (i >= n)
			fail_msg("%s: unexpected key \"%s\"", what, c->string);
		if (strcmp(c->string, keys[i]))
			fail_msg("%s: key %d is \"%s\", expected \"%s\"", what, i, c->string, keys[i]);
		i++;
	}
	if (i != n)
		fail_msg("%s: %d keys, expected %d", what, i, n);
}
#define KEYS(o, what, ...) do { \
		static const char *const k_[] = { __VA_ARGS__ }; \
		keys_are(o, k_, sizeof(k_) / sizeof(k_[0]), what); \
	} while (0)

/* A per-node object: keys "0" and "1" (every online node), given values. */
static void by_node(const cJSON *o, double n0, double n1)
{
	KEYS(o, "by_node", "0", "1");
	assert_near(num(o, "0"), n0, 0);
	assert_near(num(o, "1"), n1, 0);
}

static void check_common_keys(const cJSON *row)
{
	const cJSON *loc = get(row, "locality"), *a = get(row, "alloc"), *m = get(row, "migrate");

	KEYS(loc, "locality", "available", "unavailable_reason", "buckets_ns", "nofault_ns", "mean",
	     "buckets_ns_total");
	assert_int_equal(cJSON_GetArraySize(get(loc, "buckets_ns")), 8);
	assert_int_equal(cJSON_GetArraySize(get(loc, "buckets_ns_total")), 8);
	KEYS(a, "alloc", "rel_error", "events_local", "events_remote", "pages_local", "pages_remote",
	     "remote_ratio", "pages_by_node", "pages_by_class", "fail_events",
	     "events_hit", "events_miss",
	     "events_local_total", "events_remote_total", "pages_local_total",
	     "pages_remote_total", "fail_events_total", "events_hit_total", "events_miss_total");
	KEYS(get(a, "pages_by_class"), "pages_by_class", "kernel", "reclaimable", "movable",
	     "anon", "file", "shmem", "unclassified");
	KEYS(m, "migrate", "move_numa", "swap_numa", "stick_numa", "pages_ok", "pages_fail",
	     "numa_misplaced_ok", "numa_misplaced_fail", "move_numa_total", "swap_numa_total",
	     "stick_numa_total", "pages_ok_total", "pages_fail_total", "numa_misplaced_ok_total",
	     "numa_misplaced_fail_total", "by_reason");
	KEYS(get(row, "run_ns_by_node"), "run_ns_by_node", "0", "1");
	KEYS(get(row, "run_ns_total_by_node"), "run_ns_total_by_node", "0", "1");
	KEYS(get(a, "pages_by_node"), "pages_by_node", "0", "1");
}

static void test_top_level(void **state)
{
	struct nl_snapshot s;
	char *text;

	assert_int_equal(fix_build(&s, true), 0);
	cJSON *r = parse(&s, NULL, &text);
	KEYS(r, "root", "seq", "timestamp_ns", "interval_ns", "kernel", "page_size", "sources",
	     "nodes", "processes", "cgroups", "self", "other_pid_namespaces");
	assert_true(cJSON_IsNull(get(r, "other_pid_namespaces")));
	assert_near(num(r, "seq"), 7, 0);
	/* above 2^53: must be printed exactly, not as 1.7356896001234568e+18 */
	assert_non_null(strstr(text, "\"timestamp_ns\":1735689600123456789,"));
	assert_near(num(r, "interval_ns"), 2e9, 0);
	assert_string_equal(get(r, "kernel")->valuestring, "6.18.44-test");
	assert_near(num(r, "page_size"), 4096, 0);
	cJSON *src = get(r, "sources");
	KEYS(src, "sources", "sched", "alloc", "alloc_class", "migrate", "numa_balancing",
	     "vm_numa_stat", "sched_ext", "alloc_sample_period", "cgroup_mode", "cgroup_root", "missing", "vmscan",
	     "vmscan_memcg_arg", "mglru", "sysctl");
	KEYS(get(src, "sysctl"), "sysctl", "kernel.numa_balancing", "vm.numa_stat", "vm.zone_reclaim_mode");
	assert_true(cJSON_IsTrue(get(src, "numa_balancing")));
	assert_string_equal(get(src, "cgroup_mode")->valuestring, "v2");
	assert_string_equal(get(src, "cgroup_root")->valuestring, "/sys/fs/cgroup");

	cJSON *self = get(r, "self");
	KEYS(self, "self", "drops", "procs_evicted", "cgroups_evicted", "numa_maps_read",
	     "numa_maps_reused", "bpf_stats_enabled", "progs");
	KEYS(get(self, "drops"), "drops", "task_map_full", "cgroup_map_full", "pending_full",
	     "node_range", "pfn_unknown", "exit_ring_full", "slice_unseen");
	assert_near(num(get(self, "drops"), "pfn_unknown"), 4, 0);
	assert_near(num(self, "procs_evicted"), 2, 0);
	cJSON *prog = cJSON_GetArrayItem(get(self, "progs"), 0);
	KEYS(prog, "prog", "name", "run_cnt_total", "run_time_ns_total");
	assert_string_equal(get(prog, "name")->valuestring, "handle_sched_switch");
	assert_near(num(prog, "run_time_ns_total"), 95000, 0);
	cJSON_Delete(r);
	free(text);

	s.src.cgroup_mode = NL_CG_V1_MEMORY;
	r = parse(&s, NULL, NULL);
	assert_string_equal(get(get(r, "sources"), "cgroup_mode")->valuestring, "v1-memory");
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

/* In a child pid namespace the tasks it cannot see are one total. */
static void test_other_pidns(void **state)
{
	struct nl_snapshot s;

	assert_int_equal(fix_build(&s, true), 0);
	s.in_child_pidns = true;
	s.other_pidns.cpu_pct = 37.5;
	s.other_pidns.run_ns_total = 123456789;
	s.other_pidns.alloc.pages_local = 42;
	cJSON *r = parse(&s, NULL, NULL);
	cJSON *o = get(r, "other_pid_namespaces");

	assert_near(num(o, "cpu_pct"), 37.5, 1e-9);
	assert_near(num(o, "run_ns_total"), 123456789, 0);
	assert_near(num(get(o, "alloc"), "pages_local"), 42, 0);
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

static void test_nodes(void **state)
{
	struct nl_snapshot s;

	assert_int_equal(fix_build(&s, true), 0);
	/* two zones, named as /proc/zoneinfo names them */
	s.nr_zones = 2;
	snprintf(s.zone_names[0], sizeof(s.zone_names[0]), "DMA32");
	snprintf(s.zone_names[1], sizeof(s.zone_names[1]), "Normal");
	s.nodes[0].bpf_pages_by_zone[1] = 777;
	s.nodes[0].bpf_events_foreign = 5;
	s.pgalloc[1] = 780;
	cJSON *r = parse(&s, NULL, NULL), *nodes = get(r, "nodes");
	assert_int_equal(cJSON_GetArraySize(nodes), 2);
	KEYS(get(r, "pgalloc"), "pgalloc", "DMA32", "Normal");
	assert_near(num(get(r, "pgalloc"), "Normal"), 780, 0);
	cJSON *n0 = cJSON_GetArrayItem(nodes, 0);
	KEYS(n0, "node", "nid", "cpus", "nr_cpus", "cpu_busy_pct", "mem_total_bytes",
	     "mem_free_bytes", "mem_used_bytes", "numastat", "numastat_total",
	     "numastat_unattributed", "bpf", "reclaim");
	assert_true(cJSON_IsNull(get(n0, "reclaim")));	/* no vmscan program in the fixture */
	assert_string_equal(get(n0, "cpus")->valuestring, "0-1");
	assert_near(num(n0, "cpu_busy_pct"), 62.5, 0);
	assert_near(num(n0, "mem_free_bytes"), 6.0 * (1 << 30), 0);
	KEYS(get(n0, "numastat"), "numastat", "numa_hit", "numa_miss", "numa_foreign",
	     "interleave_hit", "local_node", "other_node");
	assert_near(num(get(n0, "numastat"), "other_node"), 106, 0);
	assert_near(num(get(n0, "numastat_total"), "numa_hit"), 123456789, 0);
	assert_near(num(n0, "numastat_unattributed"), 12, 0);
	KEYS(get(n0, "bpf"), "bpf", "events_local", "events_other", "events_from_remote",
	     "events_hit", "events_miss", "events_foreign", "pages", "pages_by_zone", "run_ns");
	KEYS(get(get(n0, "bpf"), "pages_by_zone"), "pages_by_zone", "DMA32", "Normal");
	assert_near(num(get(get(n0, "bpf"), "pages_by_zone"), "Normal"), 777, 0);
	assert_near(num(get(n0, "bpf"), "events_foreign"), 5, 0);
	assert_near(num(get(n0, "bpf"), "events_from_remote"), 911, 0);
	assert_near(num(get(n0, "bpf"), "run_ns"), 3.4e9, 0);
	assert_near(num(cJSON_GetArrayItem(nodes, 1), "nid"), 1, 0);
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

/* A node without online CPUs: its busy % is null, its CPU count 0. */
static void test_node_without_cpus(void **state)
{
	struct nl_snapshot s;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	s.nodes[1].nr_cpus = 0;
	s.nodes[1].cpulist[0] = '\0';
	s.nodes[1].cpu_busy_pct = NAN;
	cJSON *r = parse(&s, NULL, NULL), *n1 = cJSON_GetArrayItem(get(r, "nodes"), 1);
	assert_true(cJSON_IsNull(get(n1, "cpu_busy_pct")));
	assert_near(num(n1, "nr_cpus"), 0, 0);
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

static cJSON *proc_by_pid(cJSON *r, int pid)
{
	cJSON *p;

	cJSON_ArrayForEach(p, get(r, "processes"))
		if ((int)num(p, "pid") == pid)
			return p;
	fail_msg("pid %d not in processes", pid);
	return NULL;
}

static void test_processes(void **state)
{
	struct nl_snapshot s;

	assert_int_equal(fix_build(&s, true), 0);
	strcpy(s.procs[0].mempolicy.task, "interleave:0-1");	/* memhog */
	strcpy(s.procs[0].mempolicy.vma, "bind:1");
	strcpy(s.procs[1].mempolicy.task, "default");	/* sleeper: numa_maps unread, not shown */
	strcpy(s.procs[2].mempolicy.task, "default");	/* remote: no mapping of its own */
	cJSON *r = parse(&s, NULL, NULL), *procs = get(r, "processes"), *p;
	assert_int_equal(cJSON_GetArraySize(procs), 3);
	/* CPU% order by default */
	assert_near(num(cJSON_GetArrayItem(procs, 0), "pid"), 100, 0);
	assert_near(num(cJSON_GetArrayItem(procs, 1), "pid"), 300, 0);

	cJSON_ArrayForEach(p, procs) {
		KEYS(p, "process", "pid", "comm", "cgroup", "alive", "cpu_pct", "run_ns",
		     "run_ns_by_node", "run_ns_total", "run_ns_total_by_node", "rss_pages_by_node",
		     "mempolicy", "mempolicy_vma", "locality", "alloc", "migrate");
		check_common_keys(p);
	}

	p = proc_by_pid(r, 100);
	assert_string_equal(get(p, "comm")->valuestring, "memhog");
	assert_string_equal(get(p, "cgroup")->valuestring, "/work/a");
	assert_true(cJSON_IsTrue(get(p, "alive")));
	assert_near(num(p, "cpu_pct"), 150, 1e-9);
	assert_near(num(p, "run_ns"), 3e9, 0);
	by_node(get(p, "run_ns_by_node"), 2.4e9, 0.6e9);
	by_node(get(p, "run_ns_total_by_node"), 24e9, 6e9);
	by_node(get(p, "rss_pages_by_node"), 25600, 2560);
	assert_string_equal(get(p, "mempolicy")->valuestring, "interleave:0-1");
	assert_string_equal(get(p, "mempolicy_vma")->valuestring, "bind:1");
	assert_true(cJSON_IsNull(get(proc_by_pid(r, 200), "mempolicy")));
	assert_string_equal(get(proc_by_pid(r, 300), "mempolicy")->valuestring, "default");
	assert_true(cJSON_IsNull(get(proc_by_pid(r, 300), "mempolicy_vma")));
	cJSON *loc = get(p, "locality");
	assert_true(cJSON_IsTrue(get(loc, "available")));
	assert_near(num(loc, "mean"), 0.90625, 1e-12);
	assert_near(cJSON_GetArrayItem(get(loc, "buckets_ns"), 6)->valuedouble, 1e9, 0);
	assert_near(cJSON_GetArrayItem(get(loc, "buckets_ns"), 7)->valuedouble, 3e9, 0);
	assert_near(cJSON_GetArrayItem(get(loc, "buckets_ns_total"), 7)->valuedouble, 33e9, 0);
	assert_near(num(loc, "nofault_ns"), 5, 0);
	cJSON *a = get(p, "alloc");
	assert_near(num(a, "remote_ratio"), 0.25, 1e-12);
	assert_near(num(a, "events_remote"), 990, 0);
	by_node(get(a, "pages_by_node"), 3000, 1000);
	assert_near(num(get(a, "pages_by_class"), "movable"), 3900, 0);
	assert_near(num(get(a, "pages_by_class"), "anon"), 3500, 0);
	assert_near(num(get(a, "pages_by_class"), "kernel"), 100, 0);
	assert_near(num(get(a, "pages_by_class"), "unclassified"), 400, 0);
	assert_near(num(a, "fail_events"), 1, 0);
	assert_near(num(a, "pages_local_total"), 90000, 0);
	cJSON *m = get(p, "migrate");
	assert_near(num(m, "pages_ok"), 10, 0);
	assert_near(num(m, "pages_fail"), 2, 0);
	assert_near(num(m, "move_numa"), 3, 0);
	assert_near(num(m, "numa_misplaced_ok"), 10, 0);
	KEYS(get(m, "by_reason"), "by_reason", "compaction", "numa_misplaced");
	assert_near(num(get(get(m, "by_reason"), "numa_misplaced"), "ok"), 10, 0);
	assert_near(num(get(get(m, "by_reason"), "compaction"), "fail"), 2, 0);
	assert_near(num(m, "pages_ok_total"), 110, 0);

	p = proc_by_pid(r, 300);
	assert_near(num(get(p, "alloc"), "remote_ratio"), 0.9, 1e-12);
	assert_near(num(get(p, "locality"), "mean"), 0.1875, 1e-12);

	/* unmeasurable figures are null, never 0 */
	p = proc_by_pid(r, 200);
	assert_true(cJSON_IsNull(get(p, "rss_pages_by_node")));
	assert_true(cJSON_IsNull(get(get(p, "alloc"), "remote_ratio")));
	assert_true(cJSON_IsNull(get(get(p, "locality"), "mean")));
	assert_true(cJSON_IsFalse(get(get(p, "locality"), "available")));
	/* balancing on, nothing binned: no faults, not a missing source */
	assert_string_equal(get(get(p, "locality"), "unavailable_reason")->valuestring, "no_faults");
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

static void test_cgroups(void **state)
{
	struct nl_snapshot s;

	assert_int_equal(fix_build(&s, true), 0);
	/* what the model read from a CRI-O container's and a service's path */
	nl_cgident_parse("/kubepods.slice/kubepods-pod1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5d.slice/crio-"
			  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope",
			  &s.cgroups[2].ident);
	nl_cgident_parse("/system.slice/nginx.service", &s.cgroups[4].ident);
	cJSON *r = parse(&s, NULL, NULL), *cgs = get(r, "cgroups"), *c;
	static const char *const order[] = { "/", "/work", "/work/a", "/work/b", "/other" };
	int i = 0;

	assert_int_equal(cJSON_GetArraySize(cgs), 5);
	cJSON_ArrayForEach(c, cgs) {
		KEYS(c, "cgroup", "id", "parent_id", "path", "depth", "removed", "pod_uid",
		     "container_id", "container_runtime", "systemd_unit", "short_name", "cpu_pct",
		     "run_ns", "run_ns_by_node", "run_ns_total", "run_ns_total_by_node",
		     "locality", "alloc", "migrate", "numa_stat", "reclaim", "reclaim_agent");
		check_common_keys(c);
		assert_string_equal(get(c, "path")->valuestring, order[i++]);
	}
	c = cJSON_GetArrayItem(cgs, 0);
	assert_near(num(c, "id"), 1, 0);
	assert_near(num(c, "parent_id"), 0, 0);
	assert_near(num(c, "cpu_pct"), 205, 1e-9);
	by_node(get(c, "run_ns_by_node"), 3.4e9, 0.7e9);
	assert_near(num(get(c, "alloc"), "remote_ratio"), 1900.0 / 5000.0, 1e-12);
	assert_near(num(get(c, "locality"), "mean"), 30.5 / 40, 1e-12);
	cJSON *ns = get(c, "numa_stat");
	KEYS(ns, "numa_stat", "anon_bytes_by_node", "file_bytes_by_node");
	by_node(get(ns, "anon_bytes_by_node"), 100 << 20, 0);
	by_node(get(ns, "file_bytes_by_node"), 0, 28 << 20);
	assert_near(num(get(c, "migrate"), "pages_ok"), 60, 0);

	for (const char *const *k = (const char *const[]){ "pod_uid", "container_id", "container_runtime",
							    "systemd_unit", "short_name", NULL }; *k; k++)
		assert_true(cJSON_IsNull(get(c, *k)));	/* the root names nothing */
	c = cJSON_GetArrayItem(cgs, 2);
	assert_near(num(c, "depth"), 2, 0);
	assert_near(num(c, "parent_id"), 2, 0);
	assert_string_equal(get(c, "pod_uid")->valuestring, "1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d");
	assert_string_equal(get(c, "container_id")->valuestring,
			    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	assert_string_equal(get(c, "container_runtime")->valuestring, "cri-o");
	assert_true(cJSON_IsNull(get(c, "systemd_unit")));
	assert_string_equal(get(c, "short_name")->valuestring, "pod:1a2b3c4d/ctr:0123456789ab");
	c = cJSON_GetArrayItem(cgs, 4);
	assert_string_equal(get(c, "systemd_unit")->valuestring, "nginx.service");
	assert_string_equal(get(c, "short_name")->valuestring, "nginx.service");
	assert_true(cJSON_IsNull(get(c, "pod_uid")));
	c = cJSON_GetArrayItem(cgs, 3);
	assert_true(cJSON_IsNull(get(get(c, "locality"), "mean")));
	assert_true(cJSON_IsNull(get(get(c, "alloc"), "remote_ratio")));
	c = cJSON_GetArrayItem(cgs, 4);
	assert_true(cJSON_IsNull(get(c, "numa_stat")));
	assert_true(cJSON_IsNull(get(c, "reclaim_agent")));	/* no agent */
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

/* A reclaim agent on /work/a: the "reclaim_agent" object. */
static void test_agent(void **state)
{
	struct nl_snapshot s;
	struct nl_reclaim_agent_figs *a;

	assert_int_equal(fix_build(&s, true), 0);
	a = s.cgroups[2].agent = calloc(1, sizeof(*a));
	assert_non_null(a);
	a->pid = 4321;
	strcpy(a->backend, "damos");
	strcpy(a->victim, "round-robin");
	a->high_bytes = 24 << 20;
	a->pages_delta = 500;
	a->passes_delta = 2;
	a->passes_total = 12;
	a->pages_total[0][1] = 300;
	a->draws_total[1][0] = 60;
	a->weight[1] = 4200;
	a->weight_total = 4200;
	a->over_high_seconds_total = 3.5;
	cJSON *r = parse(&s, NULL, NULL), *c = cJSON_GetArrayItem(get(r, "cgroups"), 2), *o;

	assert_string_equal(get(c, "path")->valuestring, "/work/a");
	o = get(c, "reclaim_agent");
	KEYS(o, "reclaim_agent", "pid", "backend", "victim", "dry_run", "reclaiming", "scan_source",
	     "high_bytes", "low_bytes", "scan_weight", "weight_by_node", "draws_total_by_node",
	     "reclaimed_pages_total_by_node", "reclaimed_pages", "passes", "passes_total", "steps_total",
	     "no_progress_stops_total", "over_high_seconds_total", "agent_seconds_total");
	assert_near(num(o, "pid"), 4321, 0);
	assert_string_equal(get(o, "backend")->valuestring, "damos");
	assert_string_equal(get(o, "victim")->valuestring, "round-robin");
	assert_string_equal(get(o, "scan_source")->valuestring, "prior");
	assert_near(num(o, "high_bytes"), 24 << 20, 0);
	assert_near(num(o, "reclaimed_pages"), 500, 0);
	assert_near(num(o, "passes"), 2, 0);
	assert_near(num(o, "passes_total"), 12, 0);
	assert_near(num(o, "over_high_seconds_total"), 3.5, 0);
	by_node(get(o, "weight_by_node"), 0, 4200);
	by_node(get(get(o, "draws_total_by_node"), "agent"), 60, 0);
	by_node(get(get(o, "reclaimed_pages_total_by_node"), "damos"), 0, 300);
	by_node(get(get(o, "reclaimed_pages_total_by_node"), "memcg"), 0, 0);
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

/* alloc_latency: present only when asked for; its keys, the nine
 * histograms in place-major order, the cost per call only with run-time
 * figures, and the reason when the kernel lacks the hook. */
static void test_alloc_latency(void **state)
{
	struct nl_snapshot s;
	struct nl_alloc_latency *l = &s.alloc_lat;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	l->enabled = true;
	l->available = true;
	strcpy(l->hook, "__alloc_frozen_pages_noprof (fentry)");
	l->sample_every = 16;
	l->calls = 3200;
	l->sampled = 200;
	l->hist[1 * NL_LAT_NR_CLASSES + 2][10] = 150;	/* remote movable, [1024, 2048) ns */
	l->hist[1 * NL_LAT_NR_CLASSES + 2][12] = 50;
	l->sum_ns[1 * NL_LAT_NR_CLASSES + 2] = 400000;
	l->prog_runs = 6400;
	l->prog_run_ns = 320000;
	cJSON *r = parse(&s, NULL, NULL), *a = get(r, "alloc_latency"), *h;
	KEYS(a, "alloc_latency", "available", "unavailable_reason", "hook", "sample_every", "calls",
	     "sampled", "lost", "bpf_ns_per_call", "hists");
	assert_true(cJSON_IsNull(get(a, "unavailable_reason")));
	assert_near(num(a, "bpf_ns_per_call"), 100, 1e-9);	/* 320000 ns / 3200 calls */
	assert_int_equal(cJSON_GetArraySize(get(a, "hists")), 9);
	h = cJSON_GetArrayItem(get(a, "hists"), 5);
	KEYS(h, "hist", "place", "class", "count", "sum_ns", "buckets");
	assert_string_equal(get(h, "place")->valuestring, "remote");
	assert_string_equal(get(h, "class")->valuestring, "movable");
	assert_near(num(h, "count"), 200, 0);
	assert_int_equal(cJSON_GetArraySize(get(h, "buckets")), 32);
	assert_near(cJSON_GetArrayItem(get(h, "buckets"), 10)->valuedouble, 150, 0);
	cJSON_Delete(r);
	/* no run-time figures: no cost; unavailable: the reason, no hook */
	l->prog_runs = l->prog_run_ns = 0;
	l->available = false;
	strcpy(l->unavailable, "the kernel refused the latency program");
	r = parse(&s, NULL, NULL);
	a = get(r, "alloc_latency");
	assert_true(cJSON_IsNull(get(a, "bpf_ns_per_call")));
	assert_true(cJSON_IsNull(get(a, "hook")));
	assert_string_equal(get(a, "unavailable_reason")->valuestring, "the kernel refused the latency program");
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

/* alloc_stacks: present only when asked for; its keys, a site's share of
 * the sampled allocations, its flags and frames in order; page_lifetime:
 * eight histograms of 48 buckets, place-major, thp last. */
static void test_optin_views(void **state)
{
	struct nl_snapshot s;
	struct nl_alloc_stacks *a = &s.alloc_stacks;
	struct nl_page_lifetime *l = &s.page_life;
	cJSON *r, *o, *site, *h;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	r = parse(&s, NULL, NULL);
	assert_null(cJSON_GetObjectItemCaseSensitive(r, "alloc_stacks"));
	assert_null(cJSON_GetObjectItemCaseSensitive(r, "page_lifetime"));
	cJSON_Delete(r);
	a->enabled = a->available = true;
	a->sample_every = 1;
	a->allocs = 1000;
	a->seen_remote = 400;
	a->sampled = 400;
	a->nr_keys = 3;
	a->nr = 1;
	a->top[0].events = 300;
	a->top[0].pages = 300;
	a->top[0].kind = NL_STK_REMOTE;
	a->top[0].class = NL_CLASS_MOVABLE;
	strcpy(a->top[0].gfp_names, "__GFP_MOVABLE|__GFP_ZERO");
	a->top[0].nr_frames = 2;
	strcpy(a->top[0].frames[0], "__alloc_frozen_pages_noprof+0x286");
	strcpy(a->top[0].frames[1], "handle_mm_fault+0xec");
	l->enabled = l->available = true;
	l->sample_every = 64;
	l->hist[1 * NL_LIFE_NR_CLASSES + NL_LIFE_THP][30] = 7;
	r = parse(&s, NULL, NULL);
	o = get(r, "alloc_stacks");
	KEYS(o, "alloc_stacks", "available", "unavailable_reason", "sample_every", "allocations", "remote",
	     "miss", "sampled", "lost_no_stack", "lost_keys_full", "sites", "bpf_ns_per_allocation", "top");
	assert_int_equal(cJSON_GetArraySize(get(o, "top")), 1);
	site = cJSON_GetArrayItem(get(o, "top"), 0);
	assert_near(num(site, "share"), 0.75, 1e-9);
	assert_true(cJSON_IsTrue(get(site, "remote")));
	assert_true(cJSON_IsFalse(get(site, "miss")));
	assert_string_equal(get(site, "class")->valuestring, "movable");
	assert_string_equal(get(site, "gfp_flags")->valuestring, "__GFP_MOVABLE|__GFP_ZERO");
	assert_string_equal(cJSON_GetArrayItem(get(site, "frames"), 1)->valuestring, "handle_mm_fault+0xec");
	o = get(r, "page_lifetime");
	assert_int_equal(cJSON_GetArraySize(get(o, "hists")), 8);
	h = cJSON_GetArrayItem(get(o, "hists"), 7);
	assert_string_equal(get(h, "place")->valuestring, "remote");
	assert_string_equal(get(h, "class")->valuestring, "thp");
	assert_near(num(h, "count"), 7, 0);
	assert_int_equal(cJSON_GetArraySize(get(h, "buckets")), 48);
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

static void test_balancing_off(void **state)
{
	struct nl_snapshot s;
	cJSON *p;

	assert_int_equal(fix_build(&s, false), 0);
	cJSON *r = parse(&s, NULL, NULL);
	assert_true(cJSON_IsFalse(get(get(r, "sources"), "numa_balancing")));
	cJSON_ArrayForEach(p, get(r, "processes")) {
		assert_true(cJSON_IsNull(get(get(p, "locality"), "mean")));
		assert_true(cJSON_IsFalse(get(get(p, "locality"), "available")));
		assert_string_equal(get(get(p, "locality"), "unavailable_reason")->valuestring,
				    "numa_balancing_off");
	}
	cJSON_ArrayForEach(p, get(r, "cgroups"))
		assert_true(cJSON_IsNull(get(get(p, "locality"), "mean")));
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

static void test_odd_nodes_and_nan(void **state)
{
	struct nl_snapshot s;

	assert_int_equal(fix_build(&s, true), 0);
	/* node ids need not be 0..n-1: keys follow the nids */
	s.nodes[1].nid = 3;
	s.procs[0].f.run_ns_by_node[3] = 77;
	/* a NaN that slipped through becomes null, keeping the line valid JSON */
	s.procs[0].f.cpu_pct = NAN;
	s.procs[0].f.loc.mean = NAN;
	cJSON *r = parse(&s, NULL, NULL);
	cJSON *p = proc_by_pid(r, 100), *bn = get(p, "run_ns_by_node");
	KEYS(bn, "run_ns_by_node", "0", "3");
	assert_near(num(bn, "3"), 77, 0);
	assert_true(cJSON_IsNull(get(p, "cpu_pct")));
	assert_true(cJSON_IsNull(get(get(p, "locality"), "mean")));
	cJSON_Delete(r);
	nl_snapshot_free(&s);
}

static void test_opts_and_write(void **state)
{
	struct nl_snapshot s;
	struct nl_view_opts o;
	char *buf = NULL;
	size_t len = 0;

	assert_int_equal(fix_build(&s, true), 0);
	nl_view_opts_default(&o);
	assert_int_equal(nl_sort_filter_parse(&o.filter, "300"), 0);
	cJSON *r = parse(&s, &o, NULL);
	assert_int_equal(cJSON_GetArraySize(get(r, "processes")), 1);
	assert_near(num(cJSON_GetArrayItem(get(r, "processes"), 0), "pid"), 300, 0);
	cJSON_Delete(r);

	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(nl_json_write(f, &s, NULL), 0);
	assert_int_equal(nl_json_write(f, &s, NULL), 0);
	fclose(f);
	/* two intervals, two lines, each a complete object */
	char *nl = strchr(buf, '\n');
	assert_non_null(nl);
	assert_int_equal(buf[len - 1], '\n');
	assert_ptr_equal(strchr(nl + 1, '\n'), buf + len - 1);
	*nl = '\0';
	r = cJSON_Parse(buf);
	assert_non_null(r);
	cJSON_Delete(r);
	free(buf);
	assert_int_equal(nl_json_write(NULL, &s, NULL), -EINVAL);
	nl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_level),
		cmocka_unit_test(test_other_pidns),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_node_without_cpus),
		cmocka_unit_test(test_processes),
		cmocka_unit_test(test_cgroups),
		cmocka_unit_test(test_agent),
		cmocka_unit_test(test_alloc_latency),
		cmocka_unit_test(test_optin_views),
		cmocka_unit_test(test_balancing_off),
		cmocka_unit_test(test_odd_nodes_and_nan),
		cmocka_unit_test(test_opts_and_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
