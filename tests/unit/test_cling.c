/*
 * Unit tests for scx_cling's policy math (bpf/include/cling.h, the same
 * header the BPF scheduler compiles) against the rules docs/scx_cling.md
 * states (ratio, decay, busy node, predicate, degree, home) with worked
 * vectors, and for the statistics folding of
 * tools/source/cling_stats.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <cmocka.h>
#include "cling.h"
#include "cling_stats.h"

static struct cling_mstat fresh(void)
{
	struct cling_mstat m;

	memset(&m, 0, sizeof(m));
	m.busiest = CLING_NO_NODE;
	return m;
}

/* The failure ratio: ratio = failure*100/(total+1); 1/5 -> 19, 2/9 -> 22, 1/1 -> 99. */
static void test_ratio_vectors(void **state)
{
	struct cling_mstat m = fresh();

	assert_int_equal(cling_ratio(1 * 1024, 5 * 1024), 19);
	assert_int_equal(cling_ratio(2 * 1024, 9 * 1024), 22);
	assert_int_equal(cling_ratio(1024, 1024), 99);
	assert_int_equal(cling_ratio(0, 0), 0);
	/* The same through the bookkeeping: 4 successes + 1 failure on node 2. */
	for (int i = 0; i < 4; i++)
		cling_note(&m, 2, false);
	cling_note(&m, 2, true);
	assert_int_equal(m.total[2], 5 * 1024);
	assert_int_equal(m.failure[2], 1024);
	assert_int_equal(cling_ratio(m.failure[2], m.total[2]), 19);
	cling_note(&m, -1, true);		/* out of range: ignored */
	cling_note(&m, CLING_MAX_NODES, true);
	assert_int_equal(m.total[0], 0);
}

/* Decay: one failure, no new events: 512 after 1 period, 0 after 11;
 * busiest = argmax (strict >, lowest nid on ties, unchanged when all 0). */
static void test_decay(void **state)
{
	struct cling_mstat m = fresh();

	cling_note(&m, 1, true);
	cling_decay(&m, 4);
	assert_int_equal(m.failure[1], 512);
	assert_int_equal(m.total[1], 512);
	assert_int_equal(m.busiest, 1);
	for (int i = 2; i <= 10; i++)
		cling_decay(&m, 4);
	assert_int_equal(m.failure[1], 1);	/* 1024 >> 10 */
	cling_decay(&m, 4);
	assert_int_equal(m.failure[1], 0);	/* 11 periods */
	assert_int_equal(m.busiest, 1);		/* all 0: unchanged */

	m = fresh();
	cling_decay(&m, 4);
	assert_int_equal(m.busiest, CLING_NO_NODE);	/* initially -1 */
	cling_note(&m, 3, true);
	cling_note(&m, 2, true);
	cling_decay(&m, 4);
	assert_int_equal(m.busiest, 2);		/* tie: lowest nid */
	cling_note(&m, 3, true);
	cling_decay(&m, 4);
	assert_int_equal(m.busiest, 3);
	/* Nodes past nr_nodes are left alone. */
	m = fresh();
	cling_note(&m, 5, true);
	cling_decay(&m, 4);
	assert_int_equal(m.failure[5], 1024);
	assert_int_equal(m.busiest, CLING_NO_NODE);
}

/* The busy node: busy iff failure >= 1024 && busiest == n && ratio > degree. */
static void test_busy(void **state)
{
	struct cling_mstat m = fresh();

	m.failure[0] = 2048;
	m.total[0] = 2048;	/* ratio 99 */
	assert_false(cling_busy(&m, 0, 20));	/* busiest not set yet */
	m.busiest = 0;
	assert_true(cling_busy(&m, 0, 20));
	assert_true(cling_busy(&m, 0, 0));
	assert_true(cling_busy(&m, 0, 98));
	assert_false(cling_busy(&m, 0, 99));	/* ratio == degree: not busy */
	assert_false(cling_busy(&m, 0, 100));	/* degree 100: never */
	m.failure[0] = 1023;			/* below one weighted failure */
	assert_false(cling_busy(&m, 0, 0));
	/* Only the busiest node can be busy (at most one per group). */
	m.failure[0] = 4096; m.total[0] = 4096;
	m.failure[1] = 4096; m.total[1] = 4096;
	m.busiest = 0;
	assert_true(cling_busy(&m, 0, 20));
	assert_false(cling_busy(&m, 1, 20));
	/* Exact boundary: 1 failure in 5 attempts is ratio 19. */
	m = fresh();
	m.busiest = 2; m.failure[2] = 1024; m.total[2] = 5 * 1024;
	assert_false(cling_busy(&m, 2, 19));
	assert_true(cling_busy(&m, 2, 18));
	assert_false(cling_busy(&m, -1, 0));
	assert_false(cling_busy(&m, CLING_MAX_NODES, 0));
}

/* The cling predicate: its table over every combination. */
static void test_predicate_table(void **state)
{
	const int nodes[] = { CLING_NO_NODE, 0, 1 };
	int n = 0, hits = 0;

	for (int grouped = 0; grouped < 2; grouped++)
		for (int pi = 0; pi < 3; pi++)
			for (int si = 1; si < 3; si++)
				for (int di = 1; di < 3; di++)
					for (int busy = 0; busy < 2; busy++) {
						int p = nodes[pi], s = nodes[si], d = nodes[di];
						bool want = grouped && p != CLING_NO_NODE &&
							    s == p && d != p && !busy;
						bool got = cling_predicate(grouped, p, s, d, busy);

						assert_int_equal(got, want);
						n++;
						hits += got;
					}
	assert_int_equal(n, 48);
	/* grouped, p=0,s=0,d=1,!busy and p=1,s=1,d=0,!busy: exactly 2. */
	assert_int_equal(hits, 2);
	assert_true(cling_predicate(true, 0, 0, 1, false));
	assert_false(cling_predicate(true, 0, 0, 0, false));	/* dst is home */
	assert_false(cling_predicate(true, 0, 1, 2, false));	/* src not home */
	assert_false(cling_predicate(true, 0, 0, 1, true));	/* src busy */
	assert_false(cling_predicate(false, 0, 0, 1, false));	/* no group */
	assert_false(cling_predicate(true, CLING_NO_NODE, 0, 1, false));
}

/* The degree: 0..100 accepted, anything else rejected; default 20. */
static void test_degree_bounds(void **state)
{
	assert_int_equal(CLING_DEGREE_DEFAULT, 20);
	assert_true(cling_degree_valid(0));
	assert_true(cling_degree_valid(20));
	assert_true(cling_degree_valid(100));
	assert_false(cling_degree_valid(-1));
	assert_false(cling_degree_valid(101));
	assert_false(cling_degree_valid(1LL << 40));
}

/* The group home: home = most pages, second-best while the best is busy,
 * back to the best once decay clears it. */
static void test_home_pause_resume(void **state)
{
	cling_u64 pages[4] = { 100, 300, 200, 0 };
	struct cling_mstat m = fresh();
	int periods = 0;

	assert_int_equal(cling_group_home(pages, 4, NULL, 20, NULL), 1);
	assert_int_equal(cling_group_home(pages, 4, &m, 20, NULL), 1);
	/* Inject failures at node 1 until it is busy. */
	for (int i = 0; i < 8; i++)
		cling_note(&m, 1, i % 2 == 0);		/* 50% failures */
	cling_decay(&m, 4);
	assert_true(cling_busy(&m, 1, 20));
	assert_int_equal(cling_group_home(pages, 4, &m, 20, NULL), 2);	/* second best */
	/* Cling to node 1 is off while busy. */
	assert_false(cling_predicate(true, 1, 1, 0, cling_busy(&m, 1, 20)));
	/* A higher degree tolerates the same failures. */
	assert_int_equal(cling_group_home(pages, 4, &m, 60, NULL), 1);
	/* No new events: decay clears it and the home returns. */
	while (cling_busy(&m, 1, 20) && periods < 20) {
		cling_decay(&m, 4);
		periods++;
	}
	assert_int_equal(periods, 2);	/* 2048 -> 1024 -> 512 */
	assert_int_equal(cling_group_home(pages, 4, &m, 20, NULL), 1);
	assert_true(cling_predicate(true, 1, 1, 0, cling_busy(&m, 1, 20)));
	/* No pages anywhere (or only on the busy node): no home. */
	cling_u64 none[4] = { 0 };
	assert_int_equal(cling_group_home(none, 4, NULL, 20, NULL), CLING_NO_NODE);
	cling_u64 only1[4] = { 0, 5, 0, 0 };
	m.failure[1] = m.total[1] = 8192; m.busiest = 1;
	assert_int_equal(cling_group_home(only1, 4, &m, 20, NULL), CLING_NO_NODE);
	/* A residue is no home: 5 pages of 1005 (< 1/8) on node 1. */
	cling_u64 residue[4] = { 1000, 5, 0, 0 };
	assert_int_equal(cling_group_home(residue, 4, NULL, 20, NULL), 0);
	m = fresh();
	m.failure[0] = m.total[0] = 8192; m.busiest = 0;
	assert_int_equal(cling_group_home(residue, 4, &m, 20, NULL), CLING_NO_NODE);
	cling_u64 split[4] = { 600, 200, 150, 50 };	/* 50 < 1000/8 */
	assert_int_equal(cling_group_home(split, 4, &m, 20, NULL), 1);
	/* Ties go to the lowest nid. */
	cling_u64 tie[4] = { 0, 7, 7, 0 };
	assert_int_equal(cling_group_home(tie, 4, NULL, 20, NULL), 1);
}

/* CPU-less nodes: the nearest node with CPUs by SLIT distance serves them
 * (ties: more CPUs, then the lowest nid), and a group whose pages sit on
 * such a node is homed there; the busy rule applies to the serving node. */
static void test_cpuless_serving(void **state)
{
	/* 4 nodes: 0 and 1 have CPUs, 2 (near 1) and 3 (equally near 0 and
	 * 1) are memory-only. Rows as in nodeN/distance. */
	unsigned char d[4][4] = {
		{ 10, 20, 30, 25 }, { 20, 10, 15, 25 }, { 30, 15, 10, 40 }, { 25, 25, 40, 10 },
	};
	cling_u32 cpus[4] = { 2, 4, 0, 0 };
	cling_s32 serve[4];

	for (int n = 0; n < 4; n++)
		serve[n] = cling_nearest(d[n], cpus, 4, n);
	assert_int_equal(serve[0], 0);
	assert_int_equal(serve[1], 1);
	assert_int_equal(serve[2], 1);
	assert_int_equal(serve[3], 1);	/* tie at 25: node 1 has more CPUs */
	cpus[1] = 2;
	assert_int_equal(cling_nearest(d[3], cpus, 4, 3), 0);	/* full tie: lowest nid */
	/* Node 1's CPUs go offline: it is served by node 0 (distance 20). */
	cpus[1] = 0;
	assert_int_equal(cling_nearest(d[1], cpus, 4, 1), 0);
	assert_int_equal(cling_nearest(d[2], cpus, 4, 2), 0);
	/* No CPU anywhere: nobody serves. */
	cpus[0] = 0;
	assert_int_equal(cling_nearest(d[0], cpus, 4, 0), CLING_NO_NODE);

	/* Pages on memory-only node 2: the home is node 1, never node 2. */
	cling_u64 pages[4] = { 10, 0, 500, 0 };
	struct cling_mstat m = fresh();

	assert_int_equal(cling_group_home(pages, 4, NULL, 20, NULL), 2);
	assert_int_equal(cling_group_home(pages, 4, NULL, 20, serve), 1);
	/* Node 1 busy for the group: node 2's pages no longer pull it there. */
	for (int i = 0; i < 8; i++)
		cling_note(&m, 1, i % 2 == 0);
	cling_decay(&m, 4);
	assert_true(cling_busy(&m, 1, 20));
	assert_int_equal(cling_group_home(pages, 4, &m, 20, serve), CLING_NO_NODE);
	cling_u64 pages2[4] = { 200, 0, 500, 0 };
	assert_int_equal(cling_group_home(pages2, 4, &m, 20, serve), 0);
}

/* cling_decay halves by subtraction: an add between the read and the
 * write is kept (a plain "v /= 2" would drop it). */
static void test_halve_keeps_adds(void **state)
{
	cling_u64 v = 4096;

	cling_halve(&v);
	assert_int_equal(v, 2048);
	v = 5;
	cling_halve(&v);
	assert_int_equal(v, 2);	/* rounds down, like v / 2 */
	v = 1;
	cling_halve(&v);
	assert_int_equal(v, 0);	/* so decay reaches 0 */
}

/* Stats folding: ratio/busy per group node, busy and home counts per node. */
static void test_stats_fold(void **state)
{
	struct nl_cling_group g[2];
	struct nl_cling_stats s;

	memset(&s, 0, sizeof(s));
	memset(g, 0, sizeof(g));
	s.info.nr_nodes = 4;
	s.info.degree = 20;
	s.groups = g;
	s.nr_groups = 2;
	g[0].home = 2; g[0].busiest = 0;
	g[0].failure[0] = 3 * 1024; g[0].total[0] = 4 * 1024;
	g[1].home = 2; g[1].busiest = -1;
	g[1].failure[1] = 1024; g[1].total[1] = 5 * 1024;
	nl_cling_stats_fold(&s);
	assert_int_equal(g[0].ratio[0], 74);
	assert_true(g[0].busy[0]);
	assert_int_equal(g[1].ratio[1], 19);
	assert_false(g[1].busy[1]);
	assert_int_equal(s.node[0].busy_groups, 1);
	assert_int_equal(s.node[1].busy_groups, 0);
	assert_int_equal(s.node[2].home_groups, 2);
	assert_int_equal(s.node[0].home_groups, 0);
}

/* The loader's identity for stale pins: pid plus start time. Our own start
 * time is stable and matches field 22 of /proc/self/stat; a pid that
 * does not exist has none (so pins naming it read as not running). */
static void test_loader_start(void **state)
{
	uint64_t a = nl_cling_loader_start((uint32_t)getpid());

	assert_true(a > 0);
	assert_int_equal(nl_cling_loader_start((uint32_t)getpid()), a);
	assert_int_equal(nl_cling_loader_start(0x7ffffff0u), 0);
	/* pid 1 started at boot, before this test */
	if (nl_cling_loader_start(1))
		assert_true(nl_cling_loader_start(1) <= a);
}

/* Not running: no pins -> -ENOENT. */
static void test_stats_read_not_running(void **state)
{
	struct nl_cling_stats s;

	assert_int_equal(nl_cling_stats_read("/nonexistent/scx_cling_test", &s), -ENOENT);
	assert_null(s.groups);
	nl_cling_stats_free(&s);
	nl_cling_stats_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio_vectors),
		cmocka_unit_test(test_decay),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_predicate_table),
		cmocka_unit_test(test_degree_bounds),
		cmocka_unit_test(test_home_pause_resume),
		cmocka_unit_test(test_cpuless_serving),
		cmocka_unit_test(test_halve_keeps_adds),
		cmocka_unit_test(test_stats_fold),
		cmocka_unit_test(test_stats_read_not_running),
		cmocka_unit_test(test_loader_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
