// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The collector's process part folded from fixtures, with no BPF: raw
 * counts as the map readers hand them, a fake /proc. Deltas and CPU share,
 * a dead process's tail and its eviction, a reused pid starting from zero,
 * names of exited processes, numa_maps readings reused, the watched pid
 * and the idle-process cache.
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
#include "collect_fixture.h"
#include "collect_procs.h"
#include "fixture_fs.h"

/* A fake /proc/<pid>: stat (state @state, resident pages @rss), comm and
 * the cgroup v2 line of @cg; statm and numa_maps when @pages > 0. */
static void write_proc(const char *proc, int pid, const char *comm, char state, const char *cg,
		       unsigned long long rss, unsigned long long pages)
{
	char rel[64], buf[512];

	snprintf(rel, sizeof(rel), "%d/stat", pid);
	snprintf(buf, sizeof(buf), "%d (%s) %c 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 100 1000 %llu 0 0\n",
		 pid, comm, state, rss);
	wfile(proc, rel, buf);
	snprintf(rel, sizeof(rel), "%d/comm", pid);
	snprintf(buf, sizeof(buf), "%s\n", comm);
	wfile(proc, rel, buf);
	snprintf(rel, sizeof(rel), "%d/cgroup", pid);
	snprintf(buf, sizeof(buf), "0::%s\n", cg);
	wfile(proc, rel, buf);
	if (!pages)
		return;
	snprintf(rel, sizeof(rel), "%d/statm", pid);
	snprintf(buf, sizeof(buf), "1000 %llu 0 0 0 0 0\n", pages);
	wfile(proc, rel, buf);
	snprintf(rel, sizeof(rel), "%d/numa_maps", pid);
	snprintf(buf, sizeof(buf), "00400000 default file=/bin/x mapped=%llu N0=%llu kernelpagesize_kB=4\n",
		 pages, pages);
	wfile(proc, rel, buf);
}

static void remove_proc(const char *proc, int pid)
{
	char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%d'", proc, pid);
	assert_int_equal(system(cmd), 0);
}

struct fix {
	char *dir;
	char proc[PATH_MAX], cg[PATH_MAX];
	struct nl_collect_opts o;
	struct nl_topo topo;
	struct nl_raw_counts raw;
	struct nl_raw_counts_ops ops;
	struct fake_bpf bpf;
	struct nl_collect_procs *procs;
	struct nl_snapshot s;
	uint64_t now;		/* the fixture's CLOCK_MONOTONIC, ns */
};

/* One memory node, no cgroup view, 64 numa_maps reads a snapshot. */
static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = fixture_tmpdir("collect_procs");
	assert_non_null(f->dir);
	snprintf(f->proc, sizeof(f->proc), "%s/proc", f->dir);
	snprintf(f->cg, sizeof(f->cg), "%s/cg", f->dir);
	mkdir_p(f->proc);
	mkdir_p(f->cg);
	f->o = (struct nl_collect_opts){ .sysfs_root = f->dir, .procfs_root = f->proc,
					 .cgroup_mode = NL_CG_V2, .cgroup_root = f->cg, .rss_max_procs = 64 };
	f->topo.nr_nodes = 1;
	f->topo.node[0].online = true;
	f->topo.node[0].mem_total_bytes = 1ull << 30;
	f->now = 100ull * 1000000000ull;
	f->raw.exits = nl_exit_names_new();
	assert_non_null(f->raw.exits);
	fake_ops(&f->ops, &f->bpf);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	nl_snapshot_free(&f->s);
	nl_collect_procs_free(f->procs);
	nl_exit_names_free(f->raw.exits);
	f->raw.exits = NULL;
	nl_raw_counts_free(&f->raw);
	rmtree(f->dir);
	free(f);
	return 0;
}

/* One interval of @ns over the counts put in f->raw.tgids; the clock
 * moves on by @ns. */
static void fill(struct fix *f, uint64_t ns)
{
	struct nl_collect_procs_in in = { .raw = &f->raw, .ops = &f->ops, .topo = &f->topo,
					  .now_ns = f->now += ns };

	if (!f->procs)
		f->procs = nl_collect_procs_new(&f->o);
	assert_non_null(f->procs);
	nl_snapshot_free(&f->s);
	memset(&f->s, 0, sizeof(f->s));
	f->s.interval_ns = ns;
	assert_int_equal(nl_collect_procs_fill(f->procs, &in, &f->s), 0);
	nl_counts_clear(&f->raw.tgids);		/* the next read's table */
}

static const struct nl_proc *row(const struct fix *f, int pid)
{
	for (int i = 0; i < f->s.nr_procs; i++)
		if (f->s.procs[i].pid == pid)
			return &f->s.procs[i];
	fail_msg("no row for pid %d", pid);
	return NULL;
}

/* Deltas over two intervals; a process dead at the fold gets its tail
 * re-read, its name from the exit record, and is forgotten; the pid's
 * next process starts from zero; a reading of an unchanged process is
 * reused. */
static void test_deltas_exits_reuse(void **state)
{
	struct fix *f = *state;
	struct nl_collect_procs_stats st;
	const struct nl_proc *p;
	char shortlived[16] = "shortlived";

	write_proc(f->proc, 100, "worker", 'S', "/app", 300, 300);
	nl_exit_names_put(f->raw.exits, 200, shortlived);
	put_counts(&f->raw.tgids, 100, 1000000000, 10);
	put_counts(&f->raw.tgids, 200, 500000000, 0);
	put_counts(&f->raw.tgids, NL_TGID_OTHER_NS, 200000000, 0);
	f->bpf.reread_id = 200;
	f->bpf.reread_run_ns = 600000000;
	fill(f, 2000000000);

	assert_int_equal(f->s.nr_procs, 2);
	assert_int_equal(f->s.procs[0].pid, 100);	/* busiest first */
	p = row(f, 100);
	assert_true(p->alive);
	assert_string_equal(p->comm, "worker");
	assert_string_equal(p->cgroup_path, "/app");
	assert_true(p->f.cpu_pct > 49.99 && p->f.cpu_pct < 50.01);
	assert_int_equal(p->f.alloc.events_local, 10);
	assert_true(p->rss_known);
	assert_int_equal(p->rss_pages_by_node[0], 300);
	assert_string_equal(p->mempolicy.task, "default");
	p = row(f, 200);
	assert_false(p->alive);
	assert_string_equal(p->comm, "shortlived");
	assert_int_equal(p->f.run_ns, 600000000);	/* the tail after the read */
	assert_int_equal(f->s.other_pidns.run_ns, 200000000);
	assert_int_equal(f->bpf.forgets, 1);
	assert_int_equal(f->bpf.forget_kind, NL_KIND_TGID);
	assert_int_equal(f->bpf.nr_forgot, 1);
	assert_int_equal(f->bpf.forgot[0], 200);
	nl_collect_procs_stats(f->procs, &st);
	assert_int_equal(st.evicted, 1);
	assert_int_equal(st.rss_reads, 1);
	assert_int_equal(st.rss_reused, 0);

	/* pid 200 again, a new process; pid 100 ran half as much */
	write_proc(f->proc, 200, "newcomer", 'R', "/", 40, 40);
	put_counts(&f->raw.tgids, 100, 1500000000, 10);
	put_counts(&f->raw.tgids, 200, 100000000, 0);
	fill(f, 2000000000);

	assert_int_equal(f->s.nr_procs, 2);
	p = row(f, 100);
	assert_true(p->f.cpu_pct > 24.99 && p->f.cpu_pct < 25.01);
	assert_int_equal(p->f.alloc.events_local, 0);
	assert_true(p->rss_known);
	assert_int_equal(p->rss_pages_by_node[0], 300);
	p = row(f, 200);
	assert_true(p->alive);
	assert_string_equal(p->comm, "newcomer");
	assert_string_equal(p->cgroup_path, "/");
	assert_int_equal(p->f.run_ns, 100000000);	/* not taken off the dead one's */
	assert_int_equal(p->rss_pages_by_node[0], 40);
	nl_collect_procs_stats(f->procs, &st);
	assert_int_equal(st.rss_reads, 1);	/* pid 200 */
	assert_int_equal(st.rss_reused, 1);	/* pid 100: nothing moved */
	assert_int_equal(st.evicted, 1);
	assert_int_equal(f->bpf.forgets, 1);

	/* its pages moved on the node unseen (same resident size): the
	 * reading stands for 5 s after it was taken, then is read again */
	wfile(f->proc, "100/numa_maps", "00400000 default anon=290 N0=290 kernelpagesize_kB=4\n");
	put_counts(&f->raw.tgids, 100, 1600000000, 10);
	put_counts(&f->raw.tgids, 200, 100000000, 0);
	fill(f, 2000000000);
	assert_int_equal(row(f, 100)->rss_pages_by_node[0], 300);
	put_counts(&f->raw.tgids, 100, 1700000000, 10);
	put_counts(&f->raw.tgids, 200, 100000000, 0);
	fill(f, 2000000000);
	assert_int_equal(row(f, 100)->rss_pages_by_node[0], 290);
}

/* A process that exits without an exit record keeps the name and cgroup
 * of the previous interval; one never seen alive is "<exited>". */
static void test_exit_names(void **state)
{
	struct fix *f = *state;
	const struct nl_proc *p;

	write_proc(f->proc, 400, "sleeper", 'S', "/batch", 10, 0);
	put_counts(&f->raw.tgids, 400, 1000, 0);
	fill(f, 1000000000);
	assert_string_equal(row(f, 400)->comm, "sleeper");

	remove_proc(f->proc, 400);
	put_counts(&f->raw.tgids, 400, 5000, 0);
	put_counts(&f->raw.tgids, 500, 3000, 0);
	fill(f, 1000000000);
	p = row(f, 400);
	assert_false(p->alive);
	assert_string_equal(p->comm, "sleeper");
	assert_string_equal(p->cgroup_path, "/batch");
	assert_int_equal(p->f.run_ns, 4000);
	p = row(f, 500);
	assert_string_equal(p->comm, "<exited>");
	assert_int_equal(f->bpf.nr_forgot, 2);

	/* gone, forgotten: BPF does not count it again, no row */
	fill(f, 1000000000);
	assert_int_equal(f->s.nr_procs, 0);
}

/* A watched process BPF saw nothing of has a row of zeros with its name. */
static void test_watched_idle(void **state)
{
	struct fix *f = *state;
	const struct nl_proc *p;

	f->o.watch_pid = 600;
	write_proc(f->proc, 600, "watched", 'S', "/w", 5, 5);
	put_counts(&f->raw.tgids, 100, 1000, 0);	/* gone, never named */
	fill(f, 1000000000);
	assert_int_equal(f->s.nr_procs, 2);
	p = row(f, 600);
	assert_true(p->alive);
	assert_string_equal(p->comm, "watched");
	assert_string_equal(p->cgroup_path, "/w");
	assert_int_equal(p->f.run_ns, 0);
	assert_true(p->rss_known);		/* read whatever its rank */
	assert_int_equal(p->rss_pages_by_node[0], 5);
}

/* all_procs: idle processes come from /proc with their <pid>/stat name
 * and size; kernel threads (no resident pages) do not. While a process
 * stays idle its name is not read again (it cannot rename itself without
 * running), unless BPF dropped a count (it may have run unseen). */
static void test_idle_cache(void **state)
{
	struct fix *f = *state;
	const struct nl_proc *p;

	f->o.all_procs = true;
	write_proc(f->proc, 300, "idler", 'S', "/idle", 77, 0);
	write_proc(f->proc, 2, "kthreadd", 'S', "/", 0, 0);
	fill(f, 1000000000);
	assert_int_equal(f->s.nr_procs, 1);
	p = row(f, 300);
	assert_true(p->alive);
	assert_string_equal(p->comm, "idler");
	assert_string_equal(p->cgroup_path, "/idle");
	assert_int_equal(p->f.run_ns, 0);

	write_proc(f->proc, 300, "renamed", 'S', "/idle", 88, 0);
	fill(f, 1000000000);
	assert_string_equal(row(f, 300)->comm, "idler");	/* from the cache */

	/* 5 s after the read it is read again (its size may have shrunk) */
	fill(f, 5000000000ull);
	assert_string_equal(row(f, 300)->comm, "renamed");

	write_proc(f->proc, 300, "third", 'S', "/idle", 88, 0);
	fill(f, 1000000000);
	assert_string_equal(row(f, 300)->comm, "renamed");
	f->raw.drops[NL_DROP_TASK_MAP_FULL] = 1;	/* it may have run unseen */
	fill(f, 1000000000);
	assert_string_equal(row(f, 300)->comm, "third");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_deltas_exits_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watched_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_cache, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
