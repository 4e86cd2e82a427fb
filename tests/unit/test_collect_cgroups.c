// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The collector's cgroup part folded from fixtures, with no BPF: a cgroup
 * tree of plain directories (ids are their inode numbers, as on
 * cgroupfs) and raw per-cgroup counts as the map readers hand them. The
 * hierarchy fold, memory.numa_stat, a removed cgroup shown for its grace
 * period and then forgotten, its counts kept by its parent.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "collect_cgroups.h"
#include "collect_fixture.h"
#include "fixture_fs.h"

static uint64_t id_of(const char *root, const char *rel)
{
	char path[PATH_MAX];
	uint64_t id = 0;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	assert_int_equal(nl_cgroup_id_of(path, &id), 0);
	return id;
}

static const struct nl_cgroup *row(const struct nl_snapshot *s, const char *path)
{
	for (int i = 0; i < s->nr_cgroups; i++)
		if (!strcmp(s->cgroups[i].path, path))
			return &s->cgroups[i];
	fail_msg("no row for %s", path);
	return NULL;
}

static void fill(struct nl_collect_cgroups *g, struct nl_raw_counts *raw,
		 const struct nl_raw_counts_ops *ops, struct nl_snapshot *s)
{
	nl_snapshot_free(s);
	memset(s, 0, sizeof(*s));
	s->interval_ns = 1000000000;
	s->page_size = 4096;
	assert_int_equal(nl_collect_cgroups_fill(g, raw, ops, false, s), 0);
}

static void test_fold_and_removal(void **state)
{
	char *dir = fixture_tmpdir("collect_cg"), b_path[PATH_MAX];
	struct nl_collect_cgroups *g = NULL;
	struct nl_raw_counts raw = { .exits = NULL };
	struct nl_raw_counts_ops ops;
	struct fake_bpf bpf = { 0 };
	struct nl_snapshot s = { 0 };
	const struct nl_cgroup *r;
	uint64_t root, a, b;

	(void)state;
	assert_non_null(dir);
	wfile(dir, "a/memory.numa_stat", "anon N0=4096\nfile N0=8192\n");
	mkdir_p(strcat(strcpy(b_path, dir), "/a/b"));
	root = id_of(dir, "");
	a = id_of(dir, "/a");
	b = id_of(dir, "/a/b");
	fake_ops(&ops, &bpf);
	assert_int_equal(nl_collect_cgroups_new(&g, dir, 1), 0);

	/* each cgroup's own counts; the rows are hierarchical */
	put_counts(&raw.cgroups, root, 1, 0);
	put_counts(&raw.cgroups, a, 100, 3);
	put_counts(&raw.cgroups, b, 50, 5);
	fill(g, &raw, &ops, &s);
	assert_int_equal(s.nr_cgroups, 3);
	assert_int_equal(nl_collect_cgroups_tree(g)->n, 3);
	r = row(&s, "/");
	assert_int_equal(r->f.run_ns, 151);
	assert_int_equal(r->f.alloc.events_local, 8);
	r = row(&s, "/a");
	assert_int_equal(r->id, a);
	assert_int_equal(r->parent_id, root);
	assert_int_equal(r->depth, 1);
	assert_int_equal(r->f.run_ns, 150);
	assert_true(r->numa_stat_known);
	assert_int_equal(r->anon_bytes_by_node[0], 4096);
	assert_int_equal(r->file_bytes_by_node[0], 8192);
	r = row(&s, "/a/b");
	assert_int_equal(r->f.run_ns, 50);
	assert_false(r->removed);
	assert_false(row(&s, "/")->numa_stat_known);

	/* b removed, having run 30 ns more: shown one more interval with its
	 * last totals, its counts now its parent's */
	assert_int_equal(rmdir(b_path), 0);
	nl_counts_clear(&raw.cgroups);
	put_counts(&raw.cgroups, root, 1, 0);
	put_counts(&raw.cgroups, a, 100, 3);
	put_counts(&raw.cgroups, b, 80, 5);
	fill(g, &raw, &ops, &s);
	assert_int_equal(s.nr_cgroups, 3);
	r = row(&s, "/a/b");
	assert_true(r->removed);
	assert_int_equal(r->f.run_ns_total, 50);
	assert_int_equal(r->f.run_ns, 0);
	r = row(&s, "/a");
	assert_int_equal(r->f.run_ns_total, 180);
	assert_int_equal(r->f.run_ns, 30);
	assert_int_equal(bpf.forgets, 0);
	assert_int_equal(nl_collect_cgroups_evicted(g), 0);

	/* past its grace period: no row, forgotten in the maps, and the
	 * parent keeps what it counted */
	fill(g, &raw, &ops, &s);
	assert_int_equal(s.nr_cgroups, 2);
	assert_int_equal(bpf.forgets, 1);
	assert_int_equal(bpf.forget_kind, NL_KIND_CGROUP);
	assert_int_equal(bpf.nr_forgot, 1);
	assert_int_equal(bpf.forgot[0], b);
	assert_int_equal(nl_collect_cgroups_evicted(g), 1);
	r = row(&s, "/a");
	assert_int_equal(r->f.run_ns_total, 180);
	assert_int_equal(r->f.run_ns, 0);

	nl_snapshot_free(&s);
	nl_collect_cgroups_free(g);
	nl_raw_counts_free(&raw);
	rmtree(dir);
}

/* A tree that cannot be read: no cgroup rows, and not an error. */
static void test_no_tree(void **state)
{
	struct nl_collect_cgroups *g = NULL;
	struct nl_raw_counts raw = { .exits = NULL };
	struct nl_snapshot s = { 0 };

	(void)state;
	assert_int_equal(nl_collect_cgroups_new(&g, "/nonexistent/numalens/cg", 1), 0);
	put_counts(&raw.cgroups, 42, 10, 1);
	fill(g, &raw, NULL, &s);
	assert_int_equal(s.nr_cgroups, 0);
	assert_int_equal(nl_collect_cgroups_tree(g)->n, 0);
	nl_snapshot_free(&s);
	nl_collect_cgroups_free(g);
	nl_raw_counts_free(&raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_and_removal),
		cmocka_unit_test(test_no_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
