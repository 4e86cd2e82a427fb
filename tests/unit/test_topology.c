// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* topology.c: cpulist parser, nl_topo_load on fixture sysfs trees, pfn range
 * table (interleaved nodes, holes, zone split, boundaries) and the shared
 * BPF/user binary search (bpf/include/pfn_lookup.h). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture_fs.h"
#include "topology.h"

/* ---- fixture tree helpers ---- */

static void memblock(const char *root, int nid, int m)
{
	char path[PATH_MAX], target[64];

	snprintf(path, sizeof(path), "%s/devices/system/memory/memory%d", root, m);
	mkdir_p(path);
	snprintf(path, sizeof(path), "%s/devices/system/node/node%d", root, nid);
	mkdir_p(path);
	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/memory%d", root, nid, m);
	snprintf(target, sizeof(target), "../../memory/memory%d", m);
	assert_int_equal(symlink(target, path), 0);
}

static char *mktree(void)
{
	char *d = strdup("/tmp/nl_topo_XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}


/* ---- cpulist ---- */

static void test_cpulist(void **state)
{
	uint8_t m[2];

	(void)state;
	assert_int_equal(nl_topo_parse_cpulist("0-3,8,10-11", m, 16), 7);
	assert_int_equal(m[0], 0x0f);
	assert_int_equal(m[1], 0x0d);	/* 8, 10, 11 */
	assert_int_equal(nl_topo_parse_cpulist("0-3,8,10-11\n", m, 16), 7);
	assert_int_equal(nl_topo_parse_cpulist("", m, 16), 0);
	assert_int_equal(m[0], 0);
	assert_int_equal(nl_topo_parse_cpulist("\n", m, 16), 0);
	assert_int_equal(nl_topo_parse_cpulist("5", m, 16), 1);
	assert_int_equal(m[0], 0x20);
	assert_int_equal(nl_topo_parse_cpulist("0-3,2", m, 16), 4);	/* duplicates once */
	assert_int_equal(nl_topo_parse_cpulist("15", m, 16), 1);
	assert_true(nl_mask_test(m, 15));
	assert_false(nl_mask_test(m, 14));
	assert_int_equal(nl_topo_parse_cpulist("16", m, 16), -ERANGE);
	assert_int_equal(nl_topo_parse_cpulist("3-1", m, 16), -EINVAL);
	assert_int_equal(nl_topo_parse_cpulist("a", m, 16), -EINVAL);
	assert_int_equal(nl_topo_parse_cpulist("1,,2", m, 16), -EINVAL);
	assert_int_equal(nl_topo_parse_cpulist("0-", m, 16), -EINVAL);
	assert_int_equal(nl_topo_parse_cpulist("-1", m, 16), -EINVAL);
	assert_int_equal(nl_topo_parse_cpulist("1 2", m, 16), -EINVAL);
	assert_int_equal(nl_topo_cpulist_max("0-3,8,10-11"), 11);
	assert_int_equal(nl_topo_cpulist_max(""), -1);
	assert_int_equal(nl_topo_cpulist_max("x"), -EINVAL);
}

/* ---- nl_topo_load ---- */

static void two_node_tree(const char *r)
{
	wfile(r, "devices/system/node/online", "0-1\n");
	wfile(r, "devices/system/cpu/possible", "0-7\n");
	wfile(r, "devices/system/node/node0/cpulist", "0-1,4-5\n");
	wfile(r, "devices/system/node/node1/cpulist", "2-3,6-7\n");
	wfile(r, "devices/system/node/node0/meminfo",
	      "Node 0 MemTotal:        4000000 kB\n"
	      "Node 0 MemFree:         1000000 kB\n"
	      "Node 0 MemUsed:         3000000 kB\n"
	      "Node 0 Active:           197832 kB\n");
	wfile(r, "devices/system/node/node1/meminfo",
	      "Node 1 MemTotal:        2097152 kB\n"
	      "Node 1 MemFree:           12345 kB\n");
}

static void test_topo_two_nodes(void **state)
{
	struct nl_topo t = { 0 };
	char *r = mktree();

	(void)state;
	two_node_tree(r);
	assert_int_equal(nl_topo_load(&t, r), 0);
	assert_int_equal(t.nr_nodes, 2);
	assert_int_equal(t.nids[0], 0);
	assert_int_equal(t.nids[1], 1);
	assert_int_equal(t.nr_cpu_ids, 8);
	assert_string_equal(t.node[0].cpulist, "0-1,4-5");
	assert_string_equal(t.node[1].cpulist, "2-3,6-7");
	assert_int_equal(t.node[0].nr_cpus, 4);
	assert_int_equal(t.node[1].nr_cpus, 4);
	{
		static const int want[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };

		for (int c = 0; c < 8; c++) {
			assert_int_equal(nl_topo_cpu_nid(&t, c), want[c]);
			assert_int_equal(nl_mask_test(t.node[want[c]].cpus, c), 1);
			assert_int_equal(nl_mask_test(t.node[!want[c]].cpus, c), 0);
		}
	}
	assert_int_equal(nl_topo_cpu_nid(&t, 8), -1);
	assert_int_equal(nl_topo_cpu_nid(&t, -1), -1);
	assert_int_equal(t.node[0].mem_total_bytes, 4000000ULL * 1024);
	assert_int_equal(t.node[0].mem_free_bytes, 1000000ULL * 1024);
	assert_int_equal(t.node[1].mem_total_bytes, 2097152ULL * 1024);
	assert_int_equal(t.node[1].mem_free_bytes, 12345ULL * 1024);
	assert_false(t.node[2].online);

	/* refresh picks up new MemFree */
	wfile(r, "devices/system/node/node1/meminfo",
	      "Node 1 MemTotal:        2097152 kB\nNode 1 MemFree:             100 kB\n");
	assert_int_equal(nl_topo_refresh_mem(&t, r), 0);
	assert_int_equal(t.node[1].mem_free_bytes, 100ULL * 1024);

	/* reload on a loaded struct frees the old one (no leak under ASan) */
	assert_int_equal(nl_topo_load(&t, r), 0);
	assert_int_equal(t.nr_nodes, 2);
	nl_topo_free(&t);
	assert_null(t.cpu_nid);
	assert_int_equal(t.nr_nodes, 0);
	rmtree(r);
}

/* Sparse node ids, a memory-only node (empty cpulist), and CPUs beyond
 * "possible" widen the map. */
static void test_topo_sparse_memonly(void **state)
{
	struct nl_topo t = { 0 };
	char *r = mktree();

	(void)state;
	wfile(r, "devices/system/node/online", "0,2-3\n");
	wfile(r, "devices/system/cpu/possible", "0-3\n");
	wfile(r, "devices/system/node/node0/cpulist", "0-1\n");
	wfile(r, "devices/system/node/node2/cpulist", "\n");
	wfile(r, "devices/system/node/node3/cpulist", "2-3,9\n");
	wfile(r, "devices/system/node/node0/meminfo", "Node 0 MemTotal: 8 kB\nNode 0 MemFree: 4 kB\n");
	wfile(r, "devices/system/node/node2/meminfo", "Node 2 MemTotal: 16 kB\nNode 2 MemFree: 16 kB\n");
	/* node3 has no meminfo: memory stays 0, not an error */
	/* distances list the online nodes in order (0, 2, 3), not by id;
	 * node2's file is garbage and node3 has none: zeros, no error */
	wfile(r, "devices/system/node/node0/distance", "10 21 31\n");
	wfile(r, "devices/system/node/node2/distance", "x\n");
	assert_int_equal(nl_topo_load(&t, r), 0);
	assert_int_equal(t.node[0].distance[0], 10);
	assert_int_equal(t.node[0].distance[1], 0);
	assert_int_equal(t.node[0].distance[2], 21);
	assert_int_equal(t.node[0].distance[3], 31);
	assert_int_equal(t.node[2].distance[0], 0);
	assert_int_equal(t.node[3].distance[3], 0);
	assert_int_equal(t.nr_nodes, 3);
	assert_int_equal(t.nids[1], 2);
	assert_int_equal(t.nids[2], 3);
	assert_int_equal(t.node[2].nr_cpus, 0);
	assert_string_equal(t.node[2].cpulist, "");
	assert_int_equal(t.node[2].mem_total_bytes, 16384);
	assert_int_equal(t.node[3].mem_total_bytes, 0);
	assert_int_equal(t.nr_cpu_ids, 10);
	assert_int_equal(nl_topo_cpu_nid(&t, 9), 3);
	assert_int_equal(nl_topo_cpu_nid(&t, 5), -1);
	assert_int_equal(t.node[3].nr_cpus, 3);
	nl_topo_free(&t);
	rmtree(r);
}

static void test_topo_too_many_nodes(void **state)
{
	struct nl_topo t = { 0 };
	char *r = mktree();

	(void)state;
	wfile(r, "devices/system/node/online", "0,64\n");
	wfile(r, "devices/system/node/node0/cpulist", "0\n");
	assert_int_equal(nl_topo_load(&t, r), -E2BIG);
	assert_non_null(strstr(t.err, "node 64"));
	assert_non_null(strstr(t.err, "at most 64 nodes"));
	assert_null(t.cpu_nid);
	assert_int_equal(t.nr_nodes, 0);

	wfile(r, "devices/system/node/online", "0-x\n");
	assert_int_equal(nl_topo_load(&t, r), -EINVAL);
	rmtree(r);
}

/* 24 nodes of one CPU each (one node per CCD on a 2-socket EPYC), ids
 * past the old 16-node table. */
static void test_topo_24_nodes(void **state)
{
	struct nl_topo t = { 0 };
	char *r = mktree(), rel[96], cpus[16];

	(void)state;
	wfile(r, "devices/system/node/online", "0-23\n");
	wfile(r, "devices/system/node/possible", "0-23\n");
	wfile(r, "devices/system/cpu/possible", "0-23\n");
	for (int n = 0; n < 24; n++) {
		snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist", n);
		snprintf(cpus, sizeof(cpus), "%d\n", n);
		wfile(r, rel, cpus);
	}
	assert_int_equal(nl_topo_load(&t, r), 0);
	assert_int_equal(t.nr_nodes, 24);
	assert_int_equal(t.nids[23], 23);
	assert_int_equal(t.node[23].nr_cpus, 1);
	assert_string_equal(t.node[23].cpulist, "23");
	assert_int_equal(nl_topo_cpu_nid(&t, 23), 23);
	assert_int_equal(nl_topo_cpu_nid(&t, 16), 16);
	nl_topo_free(&t);
	rmtree(r);
}

/* The limit every command checks before loading: possible node ids, not
 * online ones (a node can come online later). */
static void test_node_limit(void **state)
{
	char *r = mktree(), err[192] = "";

	(void)state;
	assert_int_equal(nl_topo_node_possible(r), 1);	/* no NUMA */
	wfile(r, "devices/system/node/online", "0-3\n");
	assert_int_equal(nl_topo_node_possible(r), 4);	/* no possible file: online */
	wfile(r, "devices/system/node/possible", "0-23\n");
	assert_int_equal(nl_topo_node_possible(r), 24);
	assert_int_equal(nl_topo_node_limit_check(r, err, sizeof(err)), 24);
	wfile(r, "devices/system/node/possible", "0,5\n");
	assert_int_equal(nl_topo_node_possible(r), 6);	/* sparse: sized by the highest id */
	wfile(r, "devices/system/node/possible", "0-63\n");
	assert_int_equal(nl_topo_node_limit_check(r, err, sizeof(err)), 64);
	wfile(r, "devices/system/node/possible", "0-64\n");
	assert_int_equal(nl_topo_node_limit_check(r, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "up to 64"));
	assert_non_null(strstr(err, "at most 64 nodes"));
	assert_null(strchr(err, '\n'));	/* one line */
	wfile(r, "devices/system/node/possible", "0-y\n");
	assert_int_equal(nl_topo_node_limit_check(r, err, sizeof(err)), -EINVAL);
	rmtree(r);
}

static void test_cpulist_format(void **state)
{
	uint8_t m[2];
	char b[32], tiny[4];

	(void)state;
	assert_int_equal(nl_topo_parse_cpulist("0-3,8,10-11", m, 16), 7);
	assert_int_equal(nl_topo_cpulist_format(m, 16, b, sizeof(b)), 7);
	assert_string_equal(b, "0-3,8,10-11");
	assert_int_equal(nl_topo_parse_cpulist("15", m, 16), 1);
	assert_int_equal(nl_topo_cpulist_format(m, 16, b, sizeof(b)), 1);
	assert_string_equal(b, "15");
	memset(m, 0, sizeof(m));
	assert_int_equal(nl_topo_cpulist_format(m, 16, b, sizeof(b)), 0);
	assert_string_equal(b, "");
	assert_int_equal(nl_topo_parse_cpulist("0-3,8,10-11", m, 16), 7);
	assert_int_equal(nl_topo_cpulist_format(m, 16, tiny, sizeof(tiny)), 7);	/* still counts */
	assert_int_equal(strlen(tiny), 3);	/* cut, terminated */
}

/* CPU hotplug: a node's CPUs are its cpulist's online ones, re-read by
 * nl_topo_refresh_cpus() whether or not the kernel edits the node's
 * cpulist when a CPU goes away. */
static void test_topo_hotplug(void **state)
{
	struct nl_topo t = { 0 };
	char *r = mktree();

	(void)state;
	wfile(r, "devices/system/node/online", "0-1\n");
	wfile(r, "devices/system/cpu/possible", "0-3\n");
	wfile(r, "devices/system/cpu/online", "0-3\n");
	wfile(r, "devices/system/node/node0/cpulist", "0-1\n");
	wfile(r, "devices/system/node/node1/cpulist", "2-3\n");
	assert_int_equal(nl_topo_load(&t, r), 0);
	assert_int_equal(t.node[1].nr_cpus, 2);
	/* CPU 3 offline, node cpulist unchanged */
	wfile(r, "devices/system/cpu/online", "0-2\n");
	assert_int_equal(nl_topo_refresh_cpus(&t, r), 0);
	assert_int_equal(t.node[1].nr_cpus, 1);
	assert_string_equal(t.node[1].cpulist, "2");
	assert_int_equal(nl_topo_cpu_nid(&t, 3), -1);
	assert_int_equal(nl_topo_cpu_nid(&t, 2), 1);
	/* node 1 loses its last CPU; the kernel's cpulist follows */
	wfile(r, "devices/system/cpu/online", "0-1\n");
	wfile(r, "devices/system/node/node1/cpulist", "\n");
	assert_int_equal(nl_topo_refresh_cpus(&t, r), 0);
	assert_int_equal(t.node[1].nr_cpus, 0);
	assert_string_equal(t.node[1].cpulist, "");
	assert_int_equal(nl_topo_cpu_nid(&t, 2), -1);
	assert_int_equal(t.node[0].nr_cpus, 2);
	/* both back */
	wfile(r, "devices/system/cpu/online", "0-3\n");
	wfile(r, "devices/system/node/node1/cpulist", "2-3\n");
	assert_int_equal(nl_topo_refresh_cpus(&t, r), 0);
	assert_int_equal(t.node[1].nr_cpus, 2);
	assert_string_equal(t.node[1].cpulist, "2-3");
	assert_int_equal(nl_topo_cpu_nid(&t, 3), 1);
	nl_topo_free(&t);
	rmtree(r);
}

/* No devices/system/node (CONFIG_NUMA=n): one node 0 with every CPU. */
static void test_topo_no_numa(void **state)
{
	struct nl_topo t = { 0 };
	char *r = mktree();

	(void)state;
	wfile(r, "devices/system/cpu/possible", "0-2\n");
	assert_int_equal(nl_topo_load(&t, r), 0);
	assert_int_equal(t.nr_nodes, 1);
	assert_int_equal(t.node[0].nr_cpus, 3);
	assert_string_equal(t.node[0].cpulist, "0-2");
	assert_int_equal(nl_topo_cpu_nid(&t, 2), 0);
	nl_topo_free(&t);
	rmtree(r);
}

/* The host's own topology: invariants only (the machine varies). */
static void test_topo_host(void **state)
{
	struct nl_topo t = { 0 };
	int sum = 0;

	(void)state;
	if (access("/sys/devices/system/node/online", R_OK))
		skip();
	assert_int_equal(nl_topo_load(&t, "/sys"), 0);
	assert_true(t.nr_nodes >= 1);
	for (int i = 0; i < t.nr_nodes; i++) {
		sum += t.node[t.nids[i]].nr_cpus;
		assert_true(t.node[t.nids[i]].mem_total_bytes >= t.node[t.nids[i]].mem_free_bytes);
	}
	assert_int_equal(sum, (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(nl_topo_cpu_nid(&t, 0) >= 0);
	nl_topo_free(&t);
}

/* ---- pfn ranges ---- */

/* 128 MiB blocks = 32768 pages of 4 KiB. Node 0: blocks 0-3 and 6-7;
 * node 1: 4-5 and 10-11 (interleaved, with a hole at 8-9). Zone spans
 * overlap across nodes, as on real interleaved machines. */
#define BP 32768ULL
static const char zoneinfo_fixture[] =
	"Node 0, zone      DMA\n"
	"  per-node stats\n"
	"      nr_inactive_anon 0\n"
	"  pages free     3998\n"
	"        boost    0\n"
	"        min      0\n"
	"        spanned  4095\n"
	"        present  3998\n"
	"        managed  3840\n"
	"        protection: (0, 1, 2, 2, 2)\n"
	"      nr_free_pages 3840\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count: 0\n"
	"  node_unreclaimable:  0\n"
	"  start_pfn:           1\n"
	"Node 0, zone    DMA32\n"
	"  pages free     100\n"
	"        spanned  61440\n"
	"        present  61440\n"
	"  pagesets\n"
	"  node_unreclaimable:  0\n"
	"  start_pfn:           4096\n"
	"Node 0, zone   Normal\n"
	"  pages free     100\n"
	"        spanned  196608\n"
	"        present  131072\n"
	"  pagesets\n"
	"  node_unreclaimable:  0\n"
	"  start_pfn:           65536\n"
	"Node 0, zone  Movable\n"
	"  pages free     0\n"
	"        spanned  0\n"
	"        present  0\n"
	"        managed  0\n"
	"        protection: (0, 0, 0, 0, 0)\n"
	"Node 0, zone   Device\n"
	"  pages free     0\n"
	"        spanned  0\n"
	"        present  0\n"
	"Node 1, zone      DMA\n"
	"  pages free     0\n"
	"        spanned  0\n"
	"        present  0\n"
	"Node 1, zone    DMA32\n"
	"  pages free     0\n"
	"        spanned  0\n"
	"        present  0\n"
	"Node 1, zone   Normal\n"
	"  pages free     100\n"
	"        spanned  262144\n"
	"        present  131072\n"
	"  pagesets\n"
	"  node_unreclaimable:  0\n"
	"  start_pfn:           131072\n"
	"Node 1, zone  Movable\n"
	"  pages free     0\n"
	"        spanned  0\n"
	"        present  0\n"
	"Node 1, zone   Device\n"
	"  pages free     0\n"
	"        spanned  0\n"
	"        present  0\n";

static char *pfn_tree(char *zpath, size_t zlen)
{
	char *r = mktree();
	static const int n0[] = { 0, 1, 2, 3, 6, 7 }, n1[] = { 4, 5, 10, 11 };

	wfile(r, "devices/system/memory/block_size_bytes", "8000000\n");
	for (size_t i = 0; i < sizeof(n0) / sizeof(n0[0]); i++)
		memblock(r, 0, n0[i]);
	for (size_t i = 0; i < sizeof(n1) / sizeof(n1[0]); i++)
		memblock(r, 1, n1[i]);
	wfile(r, "zoneinfo", zoneinfo_fixture);
	snprintf(zpath, zlen, "%s/zoneinfo", r);
	return r;
}

static void expect_range(const struct nl_pfn_range *x, uint64_t s, uint64_t e, uint32_t nid, uint32_t zone)
{
	if (x->start != s || x->end != e || x->nid != nid || x->zone != zone)
		fail_msg("range [%llu,%llu) nid %u zone %u, want [%llu,%llu) nid %u zone %u",
			 (unsigned long long)x->start, (unsigned long long)x->end, x->nid, x->zone,
			 (unsigned long long)s, (unsigned long long)e, nid, zone);
}

static void test_pfn_zone_split(void **state)
{
	struct nl_pfn_range r[NL_MAX_PFN_RANGES];
	char zpath[PATH_MAX];
	char *root = pfn_tree(zpath, sizeof(zpath));
	int n;

	(void)state;
	n = nl_pfn_ranges_build_ps(r, NL_MAX_PFN_RANGES, root, zpath, 4096);
	assert_int_equal(n, 6);
	/* pfn 0 is in no zone (DMA starts at 1): dropped */
	expect_range(&r[0], 1, 4096, 0, 0);			/* DMA */
	expect_range(&r[1], 4096, 65536, 0, 1);			/* DMA32 */
	expect_range(&r[2], 65536, 4 * BP, 0, 2);		/* Normal, blocks 2-3 */
	expect_range(&r[3], 4 * BP, 6 * BP, 1, 2);		/* node 1 inside node 0's span */
	expect_range(&r[4], 6 * BP, 8 * BP, 0, 2);
	expect_range(&r[5], 10 * BP, 12 * BP, 1, 2);		/* after the hole */

	/* exact boundaries, holes, unknown pfns */
	assert_int_equal(nl_pfn_lookup(r, n, 0), -1);
	assert_int_equal(nl_pfn_lookup(r, n, 1), 0);
	assert_int_equal(nl_pfn_lookup(r, n, 4095), 0);
	assert_int_equal(nl_pfn_lookup(r, n, 4096), 1);
	assert_int_equal(nl_pfn_lookup(r, n, 65535), 1);
	assert_int_equal(nl_pfn_lookup(r, n, 65536), 2);
	assert_int_equal(nl_pfn_lookup(r, n, 4 * BP - 1), 2);
	assert_int_equal(nl_pfn_lookup(r, n, 4 * BP), 3);
	assert_int_equal(nl_pfn_lookup(r, n, 6 * BP - 1), 3);
	assert_int_equal(nl_pfn_lookup(r, n, 6 * BP), 4);
	assert_int_equal(nl_pfn_lookup(r, n, 8 * BP - 1), 4);
	assert_int_equal(nl_pfn_lookup(r, n, 8 * BP), -1);	/* hole */
	assert_int_equal(nl_pfn_lookup(r, n, 9 * BP), -1);
	assert_int_equal(nl_pfn_lookup(r, n, 10 * BP - 1), -1);
	assert_int_equal(nl_pfn_lookup(r, n, 10 * BP), 5);
	assert_int_equal(nl_pfn_lookup(r, n, 12 * BP - 1), 5);
	assert_int_equal(nl_pfn_lookup(r, n, 12 * BP), -1);
	assert_int_equal(nl_pfn_lookup(r, n, ~0ULL), -1);	/* failed allocation pfn */
	assert_int_equal(nl_pfn_lookup(r, 0, 5), -1);

	/* too small an output */
	assert_int_equal(nl_pfn_ranges_build_ps(r, 5, root, zpath, 4096), -E2BIG);
	rmtree(root);
}

static void test_pfn_no_zoneinfo(void **state)
{
	struct nl_pfn_range r[NL_MAX_PFN_RANGES];
	char zpath[PATH_MAX];
	char *root = pfn_tree(zpath, sizeof(zpath));
	int n;

	(void)state;
	n = nl_pfn_ranges_build_ps(r, NL_MAX_PFN_RANGES, root, NULL, 4096);
	assert_int_equal(n, 4);
	expect_range(&r[0], 0, 4 * BP, 0, NL_ZONE_UNKNOWN);	/* blocks 0-3 merged */
	expect_range(&r[1], 4 * BP, 6 * BP, 1, NL_ZONE_UNKNOWN);
	expect_range(&r[2], 6 * BP, 8 * BP, 0, NL_ZONE_UNKNOWN);
	expect_range(&r[3], 10 * BP, 12 * BP, 1, NL_ZONE_UNKNOWN);
	/* unreadable zoneinfo behaves the same */
	assert_int_equal(nl_pfn_ranges_build_ps(r, NL_MAX_PFN_RANGES, root, "/nonexistent/zoneinfo", 4096), 4);
	/* 16 KiB pages: 8192 pages per block */
	n = nl_pfn_ranges_build_ps(r, NL_MAX_PFN_RANGES, root, NULL, 16384);
	assert_int_equal(n, 4);
	expect_range(&r[3], 10 * 8192, 12 * 8192, 1, NL_ZONE_UNKNOWN);
	rmtree(root);
}

/* A block linked under two nodes (straddling a node boundary) without zone
 * spans to separate them: the table stays non-overlapping. */
static void test_pfn_shared_block(void **state)
{
	struct nl_pfn_range r[NL_MAX_PFN_RANGES];
	char *root = mktree();
	int n;

	(void)state;
	wfile(root, "devices/system/memory/block_size_bytes", "8000000\n");
	memblock(root, 0, 0);
	memblock(root, 0, 1);
	memblock(root, 1, 1);
	memblock(root, 1, 2);
	n = nl_pfn_ranges_build_ps(r, NL_MAX_PFN_RANGES, root, NULL, 4096);
	assert_int_equal(n, 2);
	expect_range(&r[0], 0, 2 * BP, 0, NL_ZONE_UNKNOWN);
	expect_range(&r[1], 2 * BP, 3 * BP, 1, NL_ZONE_UNKNOWN);
	rmtree(root);
}

static void test_pfn_errors(void **state)
{
	struct nl_pfn_range r[4];
	char *root = mktree();

	(void)state;
	assert_int_equal(nl_pfn_ranges_build_ps(r, 4, root, NULL, 4096), -ENOENT);
	wfile(root, "devices/system/memory/block_size_bytes", "zz\n");
	memblock(root, 0, 0);
	assert_int_equal(nl_pfn_ranges_build_ps(r, 4, root, NULL, 4096), -EINVAL);
	wfile(root, "devices/system/memory/block_size_bytes", "800\n");	/* 2 KiB < page */
	assert_int_equal(nl_pfn_ranges_build_ps(r, 4, root, NULL, 4096), -EINVAL);
	rmtree(root);
}

/* The shared search on a full 256-entry table: every pfn in and around
 * every range, and n above the table size clamped. */
static void test_pfn_search_full_table(void **state)
{
	static struct nl_pfn_table t;

	(void)state;
	t.n = NL_MAX_PFN_RANGES;
	for (int i = 0; i < NL_MAX_PFN_RANGES; i++)
		t.r[i] = (struct nl_pfn_range){ .start = 10ULL * i + 2, .end = 10ULL * i + 7,
						.nid = (u32)(i % 4), .zone = 2 };
	for (uint64_t pfn = 0; pfn < 10ULL * NL_MAX_PFN_RANGES + 20; pfn++) {
		int want = (pfn % 10 >= 2 && pfn % 10 < 7 && pfn / 10 < NL_MAX_PFN_RANGES) ? (int)(pfn / 10) : -1;

		assert_int_equal(nl_pfn_table_search(&t, pfn), want);
	}
	/* smaller n: entries past n are not searched */
	t.n = 100;
	assert_int_equal(nl_pfn_table_search(&t, 995), 99);
	assert_int_equal(nl_pfn_table_search(&t, 1005), -1);
	t.n = 1;
	assert_int_equal(nl_pfn_table_search(&t, 2), 0);
	assert_int_equal(nl_pfn_table_search(&t, 12), -1);
	t.n = 0;
	assert_int_equal(nl_pfn_table_search(&t, 2), -1);
	t.n = 100000;	/* corrupt n: clamped, still correct */
	assert_int_equal(nl_pfn_table_search(&t, 2555), 255);
	assert_int_equal(nl_pfn_lookup(t.r, 100000, 2555), 255);
}

/* The host's table: sorted, non-overlapping, nodes online, and the page of
 * a local variable resolves (via /proc/self/pagemap when readable). */
static void test_pfn_host(void **state)
{
	struct nl_pfn_range r[NL_MAX_PFN_RANGES];
	int n;

	(void)state;
	if (access("/sys/devices/system/memory/block_size_bytes", R_OK))
		skip();
	n = nl_pfn_ranges_build(r, NL_MAX_PFN_RANGES, "/sys", "/proc/zoneinfo");
	assert_true(n >= 1);
	for (int i = 0; i < n; i++) {
		assert_true(r[i].start < r[i].end);
		assert_true(r[i].nid < NL_MAX_NODES);
		assert_true(r[i].zone < 8);
		if (i)
			assert_true(r[i - 1].end <= r[i].start);
	}
	{
		static char page[1 << 16] = { 1 };
		uint64_t ent = 0;
		long ps = sysconf(_SC_PAGESIZE);
		FILE *f = fopen("/proc/self/pagemap", "r");

		if (!f)
			return;
		page[ps] = 2;
		if (fseeko(f, (off_t)(((uintptr_t)page + (uintptr_t)ps) / (uintptr_t)ps * 8), SEEK_SET) == 0 &&
		    fread(&ent, 8, 1, f) == 1 && (ent & (1ULL << 63)) && (ent & ((1ULL << 55) - 1))) {
			uint64_t pfn = ent & ((1ULL << 55) - 1);

			assert_true(nl_pfn_lookup(r, n, pfn) >= 0);
		}
		fclose(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_topo_two_nodes),
		cmocka_unit_test(test_topo_sparse_memonly),
		cmocka_unit_test(test_topo_too_many_nodes),
		cmocka_unit_test(test_topo_24_nodes),
		cmocka_unit_test(test_node_limit),
		cmocka_unit_test(test_cpulist_format),
		cmocka_unit_test(test_topo_hotplug),
		cmocka_unit_test(test_topo_no_numa),
		cmocka_unit_test(test_topo_host),
		cmocka_unit_test(test_pfn_zone_split),
		cmocka_unit_test(test_pfn_no_zoneinfo),
		cmocka_unit_test(test_pfn_shared_block),
		cmocka_unit_test(test_pfn_errors),
		cmocka_unit_test(test_pfn_search_full_table),
		cmocka_unit_test(test_pfn_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
