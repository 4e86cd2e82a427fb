// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cgroup.c: mode detection from mounts fixtures, the id <-> path walker on
 * real temporary trees (real inode numbers), and the hierarchy fold
 * (Peter's A/B/t1 example; a parent's counts never go down at rmdir). */
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
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture_fs.h"
#include "cgroup.h"

static void mkd(const char *root, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	mkdir_p(p);
}

static uint64_t ino_of(const char *root, const char *rel)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(stat(p, &st), 0);
	return (uint64_t)st.st_ino;
}

static int setup_tree(void **state)
{
	*state = fixture_tmpdir("cgroup");
	return *state ? 0 : -1;
}

static int teardown_tree(void **state)
{
	rmtree(*state);
	return 0;
}

/* ---- detection ---- */

static void test_detect(void **state)
{
	const char *r = *state;
	enum nl_cgroup_mode mode = 99;
	char root[PATH_MAX], mounts[PATH_MAX * 4], want[PATH_MAX], mp[PATH_MAX];

	/* pure v2 with memory (the VM guest) */
	wfile(r, "v2/cgroup.controllers", "cpuset cpu io memory hugetlb pids\n");
	snprintf(mounts, sizeof(mounts),
		 "sysfs /sys sysfs rw 0 0\ncgroup2 %s/v2 cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate 0 0\n", r);
	wfile(r, "m_v2", mounts);
	snprintf(mp, sizeof(mp), "%s/m_v2", r);
	assert_int_equal(nl_mount_detect(mp, &mode, root, sizeof(root)), 0);
	assert_int_equal(mode, NL_CG_V2);
	snprintf(want, sizeof(want), "%s/v2", r);
	assert_string_equal(root, want);
	assert_int_equal(nl_mount_detect(mp, &mode, root, 4), -ENAMETOOLONG);

	/* hybrid (this host): v2 at unified holds only hugetlb; v1 memory
	 * mount point with an escaped space */
	wfile(r, "unified/cgroup.controllers", "hugetlb\n");
	mkd(r, "my mem");
	snprintf(mounts, sizeof(mounts),
		 "tmpfs %s tmpfs rw 0 0\n"
		 "cgroup %s/cpu cgroup rw,relatime,cpu 0 0\n"
		 "cgroup %s/memoryless cgroup rw,relatime,name=memoryx 0 0\n"
		 "cgroup %s/my\\040mem cgroup rw,relatime,memory 0 0\n"
		 "cgroup2 %s/unified cgroup2 rw,relatime 0 0\n", r, r, r, r, r);
	wfile(r, "m_hy", mounts);
	snprintf(mp, sizeof(mp), "%s/m_hy", r);
	assert_int_equal(nl_mount_detect(mp, &mode, root, sizeof(root)), 0);
	assert_int_equal(mode, NL_CG_V1_MEMORY);
	snprintf(want, sizeof(want), "%s/my mem", r);
	assert_string_equal(root, want);

	/* v2 without memory and no v1 memory: still v2 */
	snprintf(mounts, sizeof(mounts), "cgroup %s/cpu cgroup rw,cpu 0 0\ncgroup2 %s/unified cgroup2 rw 0 0\n", r, r);
	wfile(r, "m_v2nomem", mounts);
	snprintf(mp, sizeof(mp), "%s/m_v2nomem", r);
	mode = 99;
	assert_int_equal(nl_mount_detect(mp, &mode, root, sizeof(root)), 0);
	assert_int_equal(mode, NL_CG_V2);
	snprintf(want, sizeof(want), "%s/unified", r);
	assert_string_equal(root, want);

	/* none */
	wfile(r, "m_none", "proc /proc proc rw 0 0\ncgroup %s/cpu cgroup rw,cpu 0 0\n");
	snprintf(mp, sizeof(mp), "%s/m_none", r);
	assert_int_equal(nl_mount_detect(mp, &mode, root, sizeof(root)), -ENOENT);
	assert_int_equal(nl_mount_detect("/nonexistent/mounts", &mode, root, sizeof(root)), -ENOENT);
}

static void test_detect_host(void **state)
{
	enum nl_cgroup_mode mode;
	char root[PATH_MAX];
	struct stat st;

	(void)state;
	if (nl_mount_detect("/proc/self/mounts", &mode, root, sizeof(root)) == -ENOENT)
		skip();
	assert_true(mode == NL_CG_V2 || mode == NL_CG_V1_MEMORY);
	assert_int_equal(stat(root, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* this host (hybrid, memory on v1) and the VM (pure v2) */
	if (!access("/sys/fs/cgroup/memory/memory.numa_stat", R_OK)) {
		assert_int_equal(mode, NL_CG_V1_MEMORY);
		assert_string_equal(root, "/sys/fs/cgroup/memory");
	}
}

/* ---- walker ---- */

static void test_map_tree(void **state)
{
	const char *r = *state;
	struct nl_cgroup_map m = { 0 };
	char root[PATH_MAX], p[PATH_MAX];
	const struct nl_cgroup_ent *e;
	int ia, ib;

	snprintf(root, sizeof(root), "%s/cg", r);
	mkd(root, "A/B");
	mkd(root, "A/C");
	mkd(root, "D");
	wfile(root, "A/cgroup.procs", "");	/* files are not cgroups */
	wfile(root, "A/B/memory.numa_stat", "");
	snprintf(p, sizeof(p), "%s/A/B", root);
	{
		char l[PATH_MAX];

		snprintf(l, sizeof(l), "%s/D/link", root);
		assert_int_equal(symlink(p, l), 0);	/* not followed */
	}
	assert_int_equal(nl_cgroup_map_build(&m, root), 5);
	assert_false(m.truncated);
	assert_int_equal(m.ents[0].id, ino_of(root, "."));
	assert_string_equal(m.ents[0].path, "/");
	assert_int_equal(m.ents[0].depth, 0);
	assert_int_equal(m.ents[0].parent_id, 0);
	assert_int_equal(m.ents[0].parent_idx, -1);

	e = nl_cgroup_map_find(&m, ino_of(root, "A/B"));
	assert_non_null(e);
	assert_string_equal(e->path, "/A/B");
	assert_int_equal(e->depth, 2);
	assert_int_equal(e->parent_id, ino_of(root, "A"));
	ia = nl_cgroup_map_index(&m, ino_of(root, "A"));
	ib = nl_cgroup_map_index(&m, ino_of(root, "A/B"));
	assert_true(ia > 0 && ib > ia);	/* pre-order */
	assert_int_equal(m.ents[ib].parent_idx, ia);
	assert_string_equal(m.ents[ia].path, "/A");
	assert_int_equal(m.ents[ia].parent_id, m.ents[0].id);
	e = nl_cgroup_map_find(&m, ino_of(root, "D"));
	assert_non_null(e);
	assert_string_equal(e->path, "/D");
	assert_string_equal(nl_cgroup_map_find(&m, ino_of(root, "A/C"))->path, "/A/C");
	for (int i = 1; i < m.n; i++)
		assert_true(m.ents[i].parent_idx >= 0 && m.ents[i].parent_idx < i);
	assert_null(nl_cgroup_map_find(&m, 1));	/* not in this tree */
	assert_int_equal(nl_cgroup_map_index(&m, ino_of(root, "A/cgroup.procs")), -1);
	{
		uint64_t id;

		assert_int_equal(nl_cgroup_id_of(p, &id), 0);
		assert_int_equal(id, ino_of(root, "A/B"));
	}

	/* rmdir and rebuild */
	{
		uint64_t bid = ino_of(root, "A/B");
		char f[PATH_MAX];

		snprintf(f, sizeof(f), "%s/A/B/memory.numa_stat", root);
		assert_int_equal(unlink(f), 0);
		assert_int_equal(rmdir(p), 0);
		assert_int_equal(nl_cgroup_map_build(&m, root), 4);
		assert_null(nl_cgroup_map_find(&m, bid));
		assert_non_null(nl_cgroup_map_find(&m, ino_of(root, "A/C")));
	}
	nl_cgroup_map_free(&m);
	assert_int_equal(m.n, 0);

	assert_int_equal(nl_cgroup_map_build(&m, "/nonexistent/cg"), -ENOENT);
	assert_int_equal(m.n, 0);
}

static void test_map_depth_limit(void **state)
{
	const char *r = *state;
	struct nl_cgroup_map m = { 0 };
	char path[PATH_MAX];
	size_t l;

	l = (size_t)snprintf(path, sizeof(path), "%s/deep", r);
	for (int i = 0; i < NL_CGROUP_MAX_DEPTH + 6; i++)
		l += (size_t)snprintf(path + l, sizeof(path) - l, "/d");
	mkdir_p(path);
	snprintf(path, sizeof(path), "%s/deep", r);
	assert_int_equal(nl_cgroup_map_build(&m, path), NL_CGROUP_MAX_DEPTH + 1);
	assert_true(m.truncated);
	assert_int_equal(m.ents[m.n - 1].depth, NL_CGROUP_MAX_DEPTH);
	nl_cgroup_map_free(&m);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* 3000 directories: 30 x 10 x 10, all found with their paths. The time is
 * reported, never asserted: under a loaded CI host and ASan it took 1.0 s,
 * a 200 ms bound failed a correct build. */
static void test_map_scale(void **state)
{
	const char *r = *state;
	struct nl_cgroup_map m = { 0 };
	char root[PATH_MAX], p[PATH_MAX];
	double t0, t1;

	snprintf(root, sizeof(root), "%s/big", r);
	for (int a = 0; a < 30; a++)
		for (int b = 0; b < 10; b++)
			for (int c = 0; c < 10; c++) {
				snprintf(p, sizeof(p), "%s/a%d/b%d/c%d", root, a, b, c);
				mkdir_p(p);
			}
	t0 = now_ms();
	assert_int_equal(nl_cgroup_map_build(&m, root), 1 + 30 + 300 + 3000);
	t1 = now_ms();
	print_message("# map of %d directories built in %.2f ms\n", m.n, t1 - t0);
	assert_string_equal(nl_cgroup_map_find(&m, ino_of(root, "a29/b9/c9"))->path, "/a29/b9/c9");
	for (int i = 0; i < m.n; i++)
		assert_int_equal(nl_cgroup_map_index(&m, m.ents[i].id), i);
	nl_cgroup_map_free(&m);
}

/* The real cgroupfs of this host: root id is the mount's inode. */
static void test_map_host(void **state)
{
	enum nl_cgroup_mode mode;
	char root[PATH_MAX];
	struct nl_cgroup_map m = { 0 };
	double t0, t1;
	int n;

	(void)state;
	if (nl_mount_detect("/proc/self/mounts", &mode, root, sizeof(root)))
		skip();
	t0 = now_ms();
	n = nl_cgroup_map_build(&m, root);
	t1 = now_ms();
	assert_true(n >= 1);
	print_message("# %s: %d cgroups in %.2f ms\n", root, n, t1 - t0);
	assert_int_equal(m.ents[0].id, ino_of(root, "."));
	for (int i = 1; i < n; i++) {
		char p[PATH_MAX];
		struct stat st;

		snprintf(p, sizeof(p), "%s%s", root, m.ents[i].path);
		if (stat(p, &st) == 0)	/* may vanish meanwhile */
			assert_int_equal((uint64_t)st.st_ino, m.ents[i].id);
	}
	nl_cgroup_map_free(&m);
}

/* ---- fold ---- */

/* A synthetic map: ids[i] with parent index par[i] (par[0] = -1), in
 * pre-order. */
static void fake_map(struct nl_cgroup_map *m, const uint64_t *ids, const int *par, int n)
{
	memset(m, 0, sizeof(*m));
	m->n = n;
	m->ents = calloc((size_t)n, sizeof(*m->ents));
	m->by_id = calloc((size_t)n, sizeof(int));
	assert_non_null(m->ents);
	assert_non_null(m->by_id);
	for (int i = 0; i < n; i++) {
		m->ents[i] = (struct nl_cgroup_ent){ .id = ids[i], .parent_idx = par[i],
			.parent_id = par[i] < 0 ? 0 : ids[par[i]],
			.depth = par[i] < 0 ? 0 : m->ents[par[i]].depth + 1, .path = "" };
		m->by_id[i] = i;
	}
	/* insertion sort by id */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && m->ents[m->by_id[j - 1]].id > m->ents[m->by_id[j]].id; j--) {
			int t = m->by_id[j];

			m->by_id[j] = m->by_id[j - 1];
			m->by_id[j - 1] = t;
		}
}

/* R(1) / A(10) / B(20) / t1: t1's time is in B, A and R (Peter's example). */
static void test_fold_peter(void **state)
{
	static const uint64_t ids[] = { 1, 10, 20 };
	static const int par[] = { -1, 0, 1 };
	struct nl_cgroup_map m;
	struct nl_cgroup_fold f;
	uint64_t cid[] = { 20 }, own[] = { 1000 }, tot[3];

	(void)state;
	fake_map(&m, ids, par, 3);
	assert_int_equal(nl_cgroup_fold_init(&f, 1), 0);
	assert_int_equal(nl_cgroup_fold_run(&f, &m, cid, own, 1, tot), 0);
	assert_int_equal(tot[2], 1000);	/* B */
	assert_int_equal(tot[1], 1000);	/* A */
	assert_int_equal(tot[0], 1000);	/* R */
	/* a task directly in A and one in R: parent == Σ children + own */
	{
		uint64_t cid2[] = { 20, 10, 1 }, own2[] = { 1500, 300, 7 };

		assert_int_equal(nl_cgroup_fold_run(&f, &m, cid2, own2, 3, tot), 0);
		assert_int_equal(tot[2], 1500);
		assert_int_equal(tot[1], 1800);
		assert_int_equal(tot[0], 1807);
	}
	assert_int_equal(f.unknown_ids, 0);
	nl_cgroup_fold_free(&f);
	nl_cgroup_map_free(&m);
}

/* Cgroups the walk never saw (created and removed between two walks):
 * with the parents BPF recorded, their counts land in the real parent A,
 * directly (99 -> A) and through a removed parent (100 -> 98 -> A), and
 * stay there after their counters are evicted; without, in the root. */
static void test_fold_short_lived(void **state)
{
	static const uint64_t ids[] = { 1, 10, 20 };	/* R, A, B */
	static const int par[] = { -1, 0, 0 };
	struct nl_cgroup_map m;
	struct nl_cgroup_fold f;
	uint64_t cid[] = { 99, 100, 77 }, own[] = { 2048, 512, 5 }, tot[3];

	(void)state;
	fake_map(&m, ids, par, 3);
	assert_int_equal(nl_cgroup_fold_init(&f, 1), 0);
	assert_int_equal(nl_cgroup_fold_set_parent(&f, 99, 10), 0);
	assert_int_equal(nl_cgroup_fold_set_parent(&f, 100, 98), 0);
	assert_int_equal(nl_cgroup_fold_set_parent(&f, 98, 10), 0);
	assert_int_equal(nl_cgroup_fold_set_parent(&f, 10, 20), 0);	/* not in the tree yet */
	assert_int_equal(nl_cgroup_fold_run(&f, &m, cid, own, 3, tot), 0);
	assert_int_equal(tot[1], 2048 + 512);	/* A: both children */
	assert_int_equal(tot[2], 0);		/* B: the tree's parent of A wins */
	assert_int_equal(tot[0], 2048 + 512 + 5);	/* 77: no parent known, root */
	/* the tree has shown A now: its parent is the walk's, not a hint */
	assert_int_equal(nl_cgroup_fold_set_parent(&f, 10, 20), 0);
	/* evicted from the counters: folded into A for good */
	assert_int_equal(nl_cgroup_fold_run(&f, &m, NULL, NULL, 0, tot), 0);
	assert_int_equal(tot[1], 2048 + 512);
	assert_int_equal(tot[2], 0);
	assert_int_equal(tot[0], 2048 + 512 + 5);
	nl_cgroup_fold_free(&f);
	nl_cgroup_map_free(&m);
}

/* rmdir of a child: the parent never goes down, before and after the
 * child's counters are evicted; W = 3 counters per id. */
static void test_fold_rmdir(void **state)
{
	static const uint64_t ids1[] = { 1, 10, 20, 30 };	/* R, A, A/B, A/C */
	static const int par1[] = { -1, 0, 1, 1 };
	static const uint64_t ids2[] = { 1, 10, 20 };		/* C removed */
	static const int par2[] = { -1, 0, 1 };
	struct nl_cgroup_map m1, m2;
	struct nl_cgroup_fold f;
	uint64_t tot[4 * 3], dead[3];

	(void)state;
	fake_map(&m1, ids1, par1, 4);
	fake_map(&m2, ids2, par2, 3);
	assert_int_equal(nl_cgroup_fold_init(&f, 3), 0);
	{
		uint64_t cid[] = { 20, 30 }, own[] = { 10, 1, 100, 20, 2, 200 };

		assert_int_equal(nl_cgroup_fold_run(&f, &m1, cid, own, 2, tot), 0);
		assert_int_equal(tot[1 * 3 + 0], 30);
		assert_int_equal(tot[1 * 3 + 1], 3);
		assert_int_equal(tot[1 * 3 + 2], 300);
		assert_int_equal(tot[3 * 3 + 2], 200);
	}
	/* C removed, its BPF entry still there (and not grown) */
	{
		uint64_t cid[] = { 20, 30 }, own[] = { 10, 1, 100, 20, 2, 200 };

		assert_int_equal(nl_cgroup_fold_run(&f, &m2, cid, own, 2, tot), 0);
		assert_int_equal(tot[1 * 3 + 0], 30);
		assert_int_equal(tot[1 * 3 + 2], 300);
		assert_int_equal(tot[0 * 3 + 2], 300);
		assert_int_equal(nl_cgroup_fold_dead(&f, 30, dead), 0);
		assert_int_equal(dead[0], 20);
		assert_int_equal(dead[2], 200);
	}
	/* C's entry evicted by collect: A keeps it (retired) */
	{
		uint64_t cid[] = { 20 }, own[] = { 10, 1, 100 };

		assert_int_equal(nl_cgroup_fold_run(&f, &m2, cid, own, 1, tot), 0);
		assert_int_equal(tot[1 * 3 + 0], 30);
		assert_int_equal(tot[1 * 3 + 1], 3);
		assert_int_equal(tot[1 * 3 + 2], 300);
		assert_int_equal(tot[0 * 3 + 0], 30);
		assert_int_equal(f.retired_ids, 1);
		assert_int_equal(nl_cgroup_fold_dead(&f, 30, dead), -ENOENT);
	}
	/* B grows: A = B + retired C */
	{
		uint64_t cid[] = { 20 }, own[] = { 15, 1, 150 };

		assert_int_equal(nl_cgroup_fold_run(&f, &m2, cid, own, 1, tot), 0);
		assert_int_equal(tot[1 * 3 + 0], 35);
		assert_int_equal(tot[1 * 3 + 2], 350);
		assert_int_equal(tot[2 * 3 + 0], 15);
	}
	assert_int_equal(f.unknown_ids, 0);
	nl_cgroup_fold_free(&f);
	nl_cgroup_map_free(&m1);
	nl_cgroup_map_free(&m2);
}

/* A/B/C removed together; B evicted first while C's entry lingers: C still
 * lands in A (not in R only), then both retired into A. */
static void test_fold_nested_removal(void **state)
{
	static const uint64_t ids1[] = { 1, 10, 20, 30 };	/* R, A, A/B, A/B/C */
	static const int par1[] = { -1, 0, 1, 2 };
	static const uint64_t ids2[] = { 1, 10, 40 };		/* R, A, A/D (new) */
	static const int par2[] = { -1, 0, 1 };
	struct nl_cgroup_map m1, m2;
	struct nl_cgroup_fold f;
	uint64_t tot[4];

	(void)state;
	fake_map(&m1, ids1, par1, 4);
	fake_map(&m2, ids2, par2, 3);
	assert_int_equal(nl_cgroup_fold_init(&f, 1), 0);
	{
		uint64_t cid[] = { 20, 30 }, own[] = { 3, 7 };

		assert_int_equal(nl_cgroup_fold_run(&f, &m1, cid, own, 2, tot), 0);
		assert_int_equal(tot[1], 10);
		assert_int_equal(tot[2], 10);
		assert_int_equal(tot[3], 7);
	}
	{
		uint64_t cid[] = { 30 }, own[] = { 7 };	/* B evicted, C lingers */

		assert_int_equal(nl_cgroup_fold_run(&f, &m2, cid, own, 1, tot), 0);
		assert_int_equal(tot[1], 10);	/* A */
		assert_int_equal(tot[0], 10);
		assert_int_equal(tot[2], 0);	/* D: nothing of B/C */
	}
	{
		assert_int_equal(nl_cgroup_fold_run(&f, &m2, NULL, NULL, 0, tot), 0);
		assert_int_equal(tot[1], 10);
		assert_int_equal(tot[0], 10);
		assert_int_equal(f.retired_ids, 2);
	}
	nl_cgroup_fold_free(&f);
	nl_cgroup_map_free(&m1);
	nl_cgroup_map_free(&m2);
}

/* Ids unknown to the tree go to the root and are counted; one that shows
 * up in the tree later moves under its real parent. Duplicates are summed;
 * a counter that goes down is a reset, not a loss. */
static void test_fold_unknown_dup_reset(void **state)
{
	static const uint64_t ids1[] = { 1, 10 };
	static const int par1[] = { -1, 0 };
	static const uint64_t ids2[] = { 1, 10, 50 };
	static const int par2[] = { -1, 0, 1 };
	struct nl_cgroup_map m1, m2;
	struct nl_cgroup_fold f;
	uint64_t tot[3];

	(void)state;
	fake_map(&m1, ids1, par1, 2);
	fake_map(&m2, ids2, par2, 3);
	assert_int_equal(nl_cgroup_fold_init(&f, 1), 0);
	{
		uint64_t cid[] = { 10, 999, 50, 10 }, own[] = { 4, 100, 8, 6 };

		assert_int_equal(nl_cgroup_fold_run(&f, &m1, cid, own, 4, tot), 0);
		assert_int_equal(tot[1], 10);		/* 4 + 6 summed */
		assert_int_equal(tot[0], 10 + 100 + 8);
		assert_int_equal(f.unknown_ids, 2);	/* 999 and 50 */
	}
	{
		uint64_t cid[] = { 10, 999, 50 }, own[] = { 10, 100, 9 };

		assert_int_equal(nl_cgroup_fold_run(&f, &m2, cid, own, 3, tot), 0);
		assert_int_equal(tot[2], 9);		/* 50 now known, under A */
		assert_int_equal(tot[1], 19);
		assert_int_equal(tot[0], 119);
		assert_int_equal(f.unknown_ids, 2);	/* counted once each */
	}
	{
		uint64_t cid[] = { 10, 999, 50 }, own[] = { 3, 100, 9 };	/* A reset: 10 -> 3 */

		assert_int_equal(nl_cgroup_fold_run(&f, &m2, cid, own, 3, tot), 0);
		assert_int_equal(tot[1], 10 + 3 + 9);
		assert_int_equal(tot[0], 10 + 3 + 9 + 100);
		assert_int_equal(f.resets, 1);
	}
	assert_int_equal(nl_cgroup_fold_run(&f, &m2, NULL, NULL, -1, tot), -EINVAL);
	nl_cgroup_fold_free(&f);
	nl_cgroup_map_free(&m1);
	nl_cgroup_map_free(&m2);
	assert_int_equal(nl_cgroup_fold_init(&f, 0), -EINVAL);
}

/* Property: random creates/removes/evictions and growing counters over 300
 * rounds of a 60-slot tree; every surviving cgroup's totals never go down,
 * and the root always equals the sum of every counter ever seen. */
static void test_fold_random_monotonic(void **state)
{
	enum { SLOTS = 60, ROUNDS = 300 };
	uint64_t val[SLOTS] = { 0 };		/* current BPF value of slot's id */
	uint64_t id_of[SLOTS], retired_sum = 0;
	int parent[SLOTS], alive[SLOTS], counted[SLOTS];
	uint64_t next_id = 100, prev_tot[4096];
	uint64_t prev_id[4096];
	int prev_n = 0;
	struct nl_cgroup_fold f;
	unsigned seed = 12345;

	(void)state;
	assert_int_equal(nl_cgroup_fold_init(&f, 1), 0);
	for (int s = 0; s < SLOTS; s++) {
		alive[s] = counted[s] = 0;
		parent[s] = -1;
		id_of[s] = 0;
	}
	/* slot 0 is the root, always alive */
	alive[0] = 1;
	counted[0] = 1;
	id_of[0] = 1;
	for (int round = 0; round < ROUNDS; round++) {
		struct nl_cgroup_map m;
		uint64_t ids[SLOTS], own[SLOTS], tot[SLOTS], mids[SLOTS];
		int mpar[SLOTS], order[SLOTS], idx_of[SLOTS], n = 0, nc = 0;

		/* mutate */
		for (int k = 0; k < 3; k++) {
			int s = 1 + (int)(rand_r(&seed) % (SLOTS - 1));

			if (!alive[s] && !counted[s]) {	/* create under a live slot */
				int p = (int)(rand_r(&seed) % SLOTS);

				if (!alive[p] || p == s)
					continue;
				alive[s] = counted[s] = 1;
				parent[s] = p;
				id_of[s] = next_id++;
				val[s] = 0;
			} else if (alive[s]) {	/* rmdir if no live children */
				int kids = 0;

				for (int c = 0; c < SLOTS; c++)
					kids += alive[c] && parent[c] == s;
				if (!kids)
					alive[s] = 0;
			} else if (counted[s] && rand_r(&seed) % 2) {	/* evict */
				counted[s] = 0;
				retired_sum += val[s];
			}
		}
		for (int s = 0; s < SLOTS; s++)
			if (alive[s])
				val[s] += rand_r(&seed) % 50;
		/* pre-order map of live slots */
		{
			int stack[SLOTS], sp = 0;

			stack[sp++] = 0;
			while (sp) {
				int s = stack[--sp];

				idx_of[s] = n;
				order[n] = s;
				mids[n] = id_of[s];
				mpar[n] = s == 0 ? -1 : idx_of[parent[s]];
				n++;
				for (int c = SLOTS - 1; c >= 0; c--)
					if (alive[c] && parent[c] == s && c != 0)
						stack[sp++] = c;
			}
		}
		fake_map(&m, mids, mpar, n);
		for (int s = 0; s < SLOTS; s++)
			if (counted[s]) {
				ids[nc] = id_of[s];
				own[nc++] = val[s];
			}
		assert_int_equal(nl_cgroup_fold_run(&f, &m, ids, own, nc, tot), 0);
		{
			uint64_t sum = retired_sum;

			for (int s = 0; s < SLOTS; s++)
				if (counted[s])
					sum += val[s];
			assert_int_equal(tot[0], sum);
		}
		for (int i = 0; i < n; i++)
			for (int j = 0; j < prev_n; j++)
				if (prev_id[j] == mids[i] && tot[i] < prev_tot[j])
					fail_msg("round %d: cgroup %llu went down %llu -> %llu", round,
						 (unsigned long long)mids[i], (unsigned long long)prev_tot[j],
						 (unsigned long long)tot[i]);
		for (int i = 0; i < n; i++) {
			prev_id[i] = mids[i];
			prev_tot[i] = tot[i];
		}
		prev_n = n;
		(void)order;
		nl_cgroup_map_free(&m);
	}
	nl_cgroup_fold_free(&f);
}

/* The fold over a real directory tree and its real inode ids. */
static void test_fold_real_tree(void **state)
{
	const char *r = *state;
	struct nl_cgroup_map m = { 0 };
	struct nl_cgroup_fold f;
	char root[PATH_MAX], p[PATH_MAX];
	uint64_t tot[8], cid[2], own[2];
	int ia, ib, n;

	snprintf(root, sizeof(root), "%s/real", r);
	mkd(root, "A/B");
	mkd(root, "A/C");
	assert_int_equal(nl_cgroup_map_build(&m, root), 4);
	ia = nl_cgroup_map_index(&m, ino_of(root, "A"));
	cid[0] = ino_of(root, "A/B");
	cid[1] = ino_of(root, "A/C");
	own[0] = 5;
	own[1] = 6;
	assert_int_equal(nl_cgroup_fold_init(&f, 1), 0);
	assert_int_equal(nl_cgroup_fold_run(&f, &m, cid, own, 2, tot), 0);
	assert_int_equal(tot[ia], 11);
	assert_int_equal(tot[0], 11);
	snprintf(p, sizeof(p), "%s/A/C", root);
	assert_int_equal(rmdir(p), 0);
	n = nl_cgroup_map_build(&m, root);
	assert_int_equal(n, 3);
	ia = nl_cgroup_map_index(&m, ino_of(root, "A"));
	ib = nl_cgroup_map_index(&m, cid[0]);
	own[0] = 7;
	assert_int_equal(nl_cgroup_fold_run(&f, &m, cid, own, 1, tot), 0);	/* C evicted */
	assert_int_equal(tot[ib], 7);
	assert_int_equal(tot[ia], 13);
	assert_int_equal(tot[0], 13);
	nl_cgroup_fold_free(&f);
	nl_cgroup_map_free(&m);
}

/* ---- cgroup namespaces ---- */

static void put(const char *root, const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_ns_join(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(nl_mount_ns_join("", "/b/c", out, sizeof(out)), 0);
	assert_string_equal(out, "/b/c");
	assert_int_equal(nl_mount_ns_join("/kubepods/pod1", "/", out, sizeof(out)), 0);
	assert_string_equal(out, "/kubepods/pod1");
	/* outside the namespace's root: /proc/<pid>/cgroup climbs with ".." */
	assert_int_equal(nl_mount_ns_join("/kubepods/pod1", "/../pod2/c", out, sizeof(out)), 0);
	assert_string_equal(out, "/kubepods/pod2/c");
	assert_int_equal(nl_mount_ns_join("/kubepods/pod1", "/../..", out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	assert_int_equal(nl_mount_ns_join("/a", "/../..", out, sizeof(out)), -EINVAL);
	assert_int_equal(nl_mount_ns_join("/a", "/./b/", out, sizeof(out)), 0);
	assert_string_equal(out, "/a/b");
	assert_int_equal(nl_mount_ns_join("/a", "/bbbbbbbbbbbb", out, 8), -ENAMETOOLONG);
}

static void test_ns_prefix(void **state)
{
	const char *d = *state;
	char proc[PATH_MAX], root[PATH_MAX], me[32], out[256];

	snprintf(proc, sizeof(proc), "%s/proc", d);
	snprintf(root, sizeof(root), "%s/cg", d);
	mkd(d, "proc/self");
	mkd(d, "cg/kubepods/pod1/ctr");
	mkd(d, "cg/system.slice");
	snprintf(me, sizeof(me), "1\n%d\n", (int)getpid());
	put(d, "cg/cgroup.procs", "1\n");
	put(d, "cg/kubepods/cgroup.procs", "");
	put(d, "cg/kubepods/pod1/cgroup.procs", "");
	put(d, "cg/system.slice/cgroup.procs", "7\n");
	put(d, "cg/kubepods/pod1/ctr/cgroup.procs", me);
	/* in a namespace rooted at the pod: we read "/ctr" */
	put(d, "proc/self/cgroup", "0::/ctr\n");
	assert_int_equal(nl_cgroup_ns_prefix(proc, root, NL_CG_V2, out, sizeof(out)), 0);
	assert_string_equal(out, "/kubepods/pod1");
	/* rooted at our own cgroup: "/" */
	put(d, "proc/self/cgroup", "0::/\n");
	assert_int_equal(nl_cgroup_ns_prefix(proc, root, NL_CG_V2, out, sizeof(out)), 0);
	assert_string_equal(out, "/kubepods/pod1/ctr");
	/* no namespace: the path is the hierarchy's, nothing to add */
	put(d, "proc/self/cgroup", "0::/kubepods/pod1/ctr\n");
	assert_int_equal(nl_cgroup_ns_prefix(proc, root, NL_CG_V2, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	/* v1: the memory line counts */
	put(d, "proc/self/cgroup", "5:cpu,cpuacct:/x\n4:memory:/ctr\n0::/\n");
	assert_int_equal(nl_cgroup_ns_prefix(proc, root, NL_CG_V1_MEMORY, out, sizeof(out)), 0);
	assert_string_equal(out, "/kubepods/pod1");
	/* our path does not end the one that lists us: not this hierarchy */
	put(d, "proc/self/cgroup", "0::/other\n");
	assert_int_equal(nl_cgroup_ns_prefix(proc, root, NL_CG_V2, out, sizeof(out)), -EINVAL);
	/* listed nowhere */
	put(d, "cg/kubepods/pod1/ctr/cgroup.procs", "1\n");
	assert_int_equal(nl_cgroup_ns_prefix(proc, root, NL_CG_V2, out, sizeof(out)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_detect, setup_tree, teardown_tree),
		cmocka_unit_test(test_detect_host),
		cmocka_unit_test_setup_teardown(test_map_tree, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_map_depth_limit, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_map_scale, setup_tree, teardown_tree),
		cmocka_unit_test(test_map_host),
		cmocka_unit_test(test_fold_peter),
		cmocka_unit_test(test_fold_rmdir),
		cmocka_unit_test(test_fold_short_lived),
		cmocka_unit_test(test_fold_nested_removal),
		cmocka_unit_test(test_fold_unknown_dup_reset),
		cmocka_unit_test(test_fold_random_monotonic),
		cmocka_unit_test_setup_teardown(test_fold_real_tree, setup_tree, teardown_tree),
		cmocka_unit_test(test_ns_join),
		cmocka_unit_test_setup_teardown(test_ns_prefix, setup_tree, teardown_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
