// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* procfs.c on fixture files (numa_maps, numastat, memory.numa_stat v1/v2,
 * /proc/stat, comm, stat, cgroup, sysctls) plus a few live reads of self. */
#include <errno.h>
#include <limits.h>
#include <math.h>
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
#include "procfs.h"
#include "topology.h"

static int setup_tree(void **state)
{
	*state = fixture_tmpdir("procfs");
	return *state ? 0 : -1;
}

static int teardown_tree(void **state)
{
	rmtree(*state);
	return 0;
}

/* ---- numa_maps ---- */

static void test_numa_maps(void **state)
{
	const char *r = *state;
	uint64_t pages[NL_MAX_NODES];
	long huge_mult = 2048 / (sysconf(_SC_PAGESIZE) / 1024);

	wfile(r, "1234/numa_maps",
	      "55d0c0a00000 default file=/usr/bin/cat mapped=3 N0=3 kernelpagesize_kB=4\n"
	      "55d0c0c00000 default anon=10 dirty=10 N0=6 N1=4 kernelpagesize_kB=4\n"
	      "7f0000000000 default file=/anon_hugepage\\040(deleted) huge dirty=3 N1=3 kernelpagesize_kB=2048\n"
	      "7f1000000000 bind:1 anon=512 dirty=512 active=0 N1=512 kernelpagesize_kB=4\n"
	      "7ffd00000000 default stack anon=2 dirty=2 N3=2 N20=5 N64=7 kernelpagesize_kB=4\n"
	      "7ffe00000000 default\n");
	assert_int_equal(nl_proc_numa_maps_read(r, 1234, pages), 0);
	assert_int_equal(pages[0], 9);
	assert_int_equal(pages[1], 4 + 3 * (uint64_t)huge_mult + 512);
	assert_int_equal(pages[2], 0);
	assert_int_equal(pages[3], 2);
	assert_int_equal(pages[20], 5);	/* past the old 16-node table */
	/* N64 ignored (>= NL_MAX_NODES) */

	/* kernel thread: empty file */
	wfile(r, "2/numa_maps", "");
	pages[0] = 99;
	assert_int_equal(nl_proc_numa_maps_read(r, 2, pages), 0);
	assert_int_equal(pages[0], 0);
	/* gone */
	assert_int_equal(nl_proc_numa_maps_read(r, 999999, pages), -ENOENT);
}

/* The policy column: the task's (on the most lines) and the mbind one with
 * the most pages; mode names with a space; flags kept. */
static void test_numa_maps_policy(void **state)
{
	const char *r = *state;
	uint64_t pages[NL_MAX_NODES];
	struct nl_mempolicy pol;

	/* default on 3 lines, bind:1 on one (an mbind region) */
	wfile(r, "1234/numa_maps",
	      "55d0c0a00000 default file=/usr/bin/cat mapped=3 N0=3 kernelpagesize_kB=4\n"
	      "7f1000000000 bind:1 anon=512 dirty=512 active=0 N1=512 kernelpagesize_kB=4\n"
	      "7ffd00000000 default stack anon=2 dirty=2 N0=2 kernelpagesize_kB=4\n"
	      "7ffe00000000 default\n");
	assert_int_equal(nl_proc_numa_maps_read_policy(r, 1234, pages, &pol), 0);
	assert_string_equal(pol.task, "default");
	assert_string_equal(pol.vma, "bind:1");
	assert_int_equal(pages[0], 5);
	assert_int_equal(pages[1], 512);

	/* numactl --interleave: every line the task's; nothing else */
	wfile(r, "40/numa_maps",
	      "55d0c0a00000 interleave:0-3 file=/usr/bin/cat mapped=3 N0=3 kernelpagesize_kB=4\n"
	      "55d0c0c00000 interleave:0-3 heap anon=8 dirty=8 N0=2 N1=2 N2=2 N3=2 kernelpagesize_kB=4\n"
	      "7ffd00000000 interleave:0-3 stack anon=2 dirty=2 N3=2 kernelpagesize_kB=4\n");
	assert_int_equal(nl_proc_numa_maps_read_policy(r, 40, pages, &pol), 0);
	assert_string_equal(pol.task, "interleave:0-3");
	assert_string_equal(pol.vma, "");

	/* two-word mode names, flags; of two mbind policies the one with more pages */
	wfile(r, "41/numa_maps",
	      "1000 weighted interleave:0-1 anon=4 N0=2 N1=2 kernelpagesize_kB=4\n"
	      "2000 weighted interleave:0-1 file=/lib/x.so mapped=1 N0=1 kernelpagesize_kB=4\n"
	      "3000 prefer (many):0,2 anon=3 N2=3 kernelpagesize_kB=4\n"
	      "4000 bind=static:1 anon=9 N1=9 kernelpagesize_kB=4\n");
	assert_int_equal(nl_proc_numa_maps_read_policy(r, 41, pages, &pol), 0);
	assert_string_equal(pol.task, "weighted interleave:0-1");
	assert_string_equal(pol.vma, "bind=static:1");
	wfile(r, "42/numa_maps", "3000 prefer (many):0,2 anon=3 N2=3 kernelpagesize_kB=4\n");
	assert_int_equal(nl_proc_numa_maps_read_policy(r, 42, pages, &pol), 0);
	assert_string_equal(pol.task, "prefer (many):0,2");
	assert_int_equal(pages[2], 3);

	/* a kernel thread has none; a gone process leaves both empty */
	wfile(r, "2/numa_maps", "");
	assert_int_equal(nl_proc_numa_maps_read_policy(r, 2, pages, &pol), 0);
	assert_string_equal(pol.task, "");
	strcpy(pol.task, "x");
	assert_int_equal(nl_proc_numa_maps_read_policy(r, 999999, pages, &pol), -ENOENT);
	assert_string_equal(pol.task, "");
	assert_string_equal(pol.vma, "");
}

static void test_numa_maps_self(void **state)
{
	uint64_t pages[NL_MAX_NODES], sum = 0;

	(void)state;
	if (access("/proc/self/numa_maps", R_OK))
		skip();
	assert_int_equal(nl_proc_numa_maps_read("/proc", getpid(), pages), 0);
	for (int n = 0; n < NL_MAX_NODES; n++)
		sum += pages[n];
	assert_true(sum > 10);	/* at least our text, stack and heap */
}

/* ---- numastat ---- */

static void test_numastat(void **state)
{
	const char *r = *state;
	struct nl_numastat s;

	wfile(r, "devices/system/node/node1/numastat",
	      "numa_hit 2043268\nnuma_miss 17\nnuma_foreign 5\ninterleave_hit 1116\n"
	      "local_node 2043000\nother_node 285\nnew_future_key 9\n");
	assert_int_equal(nl_proc_numastat_read(r, 1, &s), 0);
	assert_int_equal(s.numa_hit, 2043268);
	assert_int_equal(s.numa_miss, 17);
	assert_int_equal(s.numa_foreign, 5);
	assert_int_equal(s.interleave_hit, 1116);
	assert_int_equal(s.local_node, 2043000);
	assert_int_equal(s.other_node, 285);
	assert_int_equal(nl_proc_numastat_read(r, 7, &s), -ENOENT);
	wfile(r, "devices/system/node/node2/numastat", "garbage\n");
	assert_int_equal(nl_proc_numastat_read(r, 2, &s), -ENODATA);
}

static void test_numastat_host(void **state)
{
	struct nl_numastat s;

	(void)state;
	if (access("/sys/devices/system/node/node0/numastat", R_OK))
		skip();
	assert_int_equal(nl_proc_numastat_read("/sys", 0, &s), 0);
	assert_true(s.numa_hit > 0);
	assert_true(s.local_node > 0);
}

/* ---- memory.numa_stat ---- */

static void test_memcg_v2(void **state)
{
	const char *r = *state;
	uint64_t anon[NL_MAX_NODES], file[NL_MAX_NODES];
	char path[PATH_MAX];

	wfile(r, "cg2/memory.numa_stat",
	      "anon N0=1048576 N1=8192 N2=0 N3=4096\n"
	      "file N0=4096 N1=0 N2=12288 N3=0\n"
	      "kernel_stack N0=16384 N1=0 N2=0 N3=0\n"
	      "shmem N0=4096 N1=0 N2=0 N3=0\n"
	      "anon_thp N0=0 N1=0 N2=0 N3=0\n"
	      "file_mapped N0=999 N1=0 N2=0 N3=0\n"
	      "workingset_refault_anon N0=0 N1=0 N2=0 N3=0\n");
	snprintf(path, sizeof(path), "%s/cg2/memory.numa_stat", r);
	assert_int_equal(nl_proc_memcg_numa_stat_read(path, anon, file, 4096), 1);
	assert_int_equal(anon[0], 1048576);
	assert_int_equal(anon[1], 8192);
	assert_int_equal(anon[3], 4096);
	assert_int_equal(file[0], 4096);	/* not file_mapped's 999 */
	assert_int_equal(file[2], 12288);
	assert_int_equal(anon[4], 0);
}

static void test_memcg_v1(void **state)
{
	const char *r = *state;
	uint64_t anon[NL_MAX_NODES], file[NL_MAX_NODES];
	char path[PATH_MAX];

	/* the format of this host's /sys/fs/cgroup/memory/memory.numa_stat */
	wfile(r, "cg1/memory.numa_stat",
	      "total=4929 N0=4900 N1=29\n"
	      "file=1161 N0=1161 N1=0\n"
	      "anon=374 N0=370 N1=4\n"
	      "unevictable=3394 N0=3394 N1=0\n"
	      "hierarchical_total=124401 N0=124000 N1=401\n"
	      "hierarchical_file=119385 N0=119000 N1=385\n"
	      "hierarchical_anon=1622 N0=1606 N1=16\n"
	      "hierarchical_unevictable=3394 N0=3394 N1=0\n");
	snprintf(path, sizeof(path), "%s/cg1/memory.numa_stat", r);
	assert_int_equal(nl_proc_memcg_numa_stat_read(path, anon, file, 4096), 2);
	assert_int_equal(anon[0], 1606ULL * 4096);	/* hierarchical, pages -> bytes */
	assert_int_equal(anon[1], 16ULL * 4096);
	assert_int_equal(file[0], 119000ULL * 4096);
	assert_int_equal(file[1], 385ULL * 4096);

	/* without hierarchical_* lines: the plain ones */
	wfile(r, "cg1b/memory.numa_stat",
	      "total=4929 N0=4900 N1=29\nfile=1161 N0=1161 N1=0\nanon=374 N0=370 N1=4\n");
	snprintf(path, sizeof(path), "%s/cg1b/memory.numa_stat", r);
	assert_int_equal(nl_proc_memcg_numa_stat_read(path, anon, file, 16384), 2);
	assert_int_equal(anon[0], 370ULL * 16384);
	assert_int_equal(anon[1], 4ULL * 16384);
	assert_int_equal(file[0], 1161ULL * 16384);

	/* neither anon nor file */
	wfile(r, "cg1c/memory.numa_stat", "total=1 N0=1\n");
	snprintf(path, sizeof(path), "%s/cg1c/memory.numa_stat", r);
	assert_int_equal(nl_proc_memcg_numa_stat_read(path, anon, file, 4096), -ENODATA);
	snprintf(path, sizeof(path), "%s/nope/memory.numa_stat", r);
	assert_int_equal(nl_proc_memcg_numa_stat_read(path, anon, file, 4096), -ENOENT);
}

static void test_memcg_host(void **state)
{
	uint64_t anon[NL_MAX_NODES], file[NL_MAX_NODES];

	(void)state;
	if (access("/sys/fs/cgroup/memory/memory.numa_stat", R_OK))
		skip();
	assert_int_equal(nl_proc_memcg_numa_stat_read("/sys/fs/cgroup/memory/memory.numa_stat", anon, file,
						 sysconf(_SC_PAGESIZE)), 2);
	assert_true(anon[0] + file[0] > 0);
}

/* ---- /proc/stat and busy % ---- */

static void test_cpu_times(void **state)
{
	const char *r = *state;
	struct nl_cpu_times a[8], b[8];
	double pct[NL_MAX_NODES];
	struct nl_topo t = { 0 };
	int cpu_nid[4] = { 0, 0, 1, 1 };

	wfile(r, "stat",
	      "cpu  600 0 300 3000 100 0 0 0 0 0\n"
	      "cpu0 100 0 50 800 50 0 0 0 0 0\n"
	      "cpu1 200 10 50 700 0 5 5 0 0 0\n"
	      "cpu3 300 0 200 1500 50 0 0 0 0 0\n"
	      "intr 12345 0 0\nctxt 999\n");
	assert_int_equal(nl_proc_cpu_times_read(r, a, 8), 4);
	assert_true(a[0].present);
	assert_false(a[2].present);
	assert_int_equal(a[0].busy, 150);
	assert_int_equal(a[0].total, 1000);
	assert_int_equal(a[1].busy, 270);
	assert_int_equal(a[1].total, 970);
	assert_int_equal(a[3].busy, 500);
	/* CPUs beyond max_cpus are ignored */
	assert_int_equal(nl_proc_cpu_times_read(r, b, 2), 2);

	wfile(r, "stat",
	      "cpu  0 0 0 0 0 0 0 0 0 0\n"
	      "cpu0 150 0 50 850 50 0 0 0 0 0\n"	/* +50 busy, +100 total */
	      "cpu1 200 10 50 800 0 5 5 0 0 0\n"	/* +0 busy, +100 total */
	      "cpu2 10 0 0 10 0 0 0 0 0 0\n"		/* came online: skipped */
	      "cpu3 380 0 200 1520 50 0 0 0 0 0\n");	/* +80 busy, +100 total */
	assert_int_equal(nl_proc_cpu_times_read(r, b, 8), 4);

	t.nr_cpu_ids = 4;
	t.cpu_nid = cpu_nid;
	t.node[0].online = t.node[1].online = t.node[2].online = true;
	assert_int_equal(nl_proc_node_busy_pct(&t, a, b, 4, pct), 2);
	assert_float_equal(pct[0], 25.0, 1e-9);	/* 50 / 200 */
	assert_float_equal(pct[1], 80.0, 1e-9);	/* cpu3 only */
	assert_true(isnan(pct[2]));		/* memory-only node */
	assert_true(isnan(pct[5]));		/* offline */

	assert_int_equal(nl_proc_cpu_times_read("/nonexistent", a, 8), -ENOENT);
}

static void test_cpu_times_host(void **state)
{
	struct nl_cpu_times a[1024];

	(void)state;
	assert_true(nl_proc_cpu_times_read("/proc", a, 1024) >= (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(a[0].present && a[0].total >= a[0].busy && a[0].total > 0);
}

/* ---- pids, comm, cgroup ---- */

static void test_pids_comm(void **state)
{
	const char *r = *state;
	char comm[16];
	pid_t pids[8];

	wfile(r, "pids/1/comm", "systemd\n");
	wfile(r, "pids/1/stat", "1 (systemd) S 0 1 1 0 -1\n");
	wfile(r, "pids/42/comm", "a-very-long-name\n");
	wfile(r, "pids/42/stat", "42 (we) ird) Z 1 42 42\n");
	wfile(r, "pids/1/statm", "5650 3012 1800 12 0 900 0\n");
	wfile(r, "pids/42/statm", "garbage\n");
	wfile(r, "pids/7x/comm", "no\n");
	wfile(r, "pids/self/comm", "no\n");
	wfile(r, "pids/meminfo", "");
	{
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/pids", r);
		assert_int_equal(nl_proc_list_pids(p, pids, 8), 2);
		assert_true((pids[0] == 1 && pids[1] == 42) || (pids[0] == 42 && pids[1] == 1));
		assert_int_equal(nl_proc_list_pids(p, pids, 1), 2);	/* total, though only 1 stored */
		assert_true(nl_proc_pid_alive(p, 1));
		assert_false(nl_proc_pid_alive(p, 42));	/* zombie; ')' inside comm */
		assert_false(nl_proc_pid_alive(p, 43));
		assert_int_equal(nl_proc_read_comm(p, 1, comm, sizeof(comm)), 0);
		assert_string_equal(comm, "systemd");
		assert_int_equal(nl_proc_read_comm(p, 42, comm, 8), 0);
		assert_string_equal(comm, "a-very-");
		assert_int_equal(nl_proc_read_comm(p, 43, comm, sizeof(comm)), -ENOENT);
		uint64_t res = 0;

		assert_int_equal(nl_proc_statm_resident(p, 1, &res), 0);
		assert_int_equal(res, 3012);	/* the second field: resident pages */
		assert_int_equal(nl_proc_statm_resident(p, 42, &res), -EINVAL);
		assert_int_equal(nl_proc_statm_resident(p, 43, &res), -ENOENT);
		assert_int_equal(nl_proc_statm_resident("/proc", getpid(), &res), 0);
		assert_true(res > 0);
	}
	{	/* thread 51 of process 50 */
		char p[PATH_MAX];
		pid_t tg = 0;

		wfile(r, "tg/51/status", "Name:\tworker\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t50\nNgid:\t0\nPid:\t51\n");
		wfile(r, "tg/52/status", "Name:\tbroken\nPid:\t52\n");
		snprintf(p, sizeof(p), "%s/tg", r);
		assert_int_equal(nl_proc_tgid(p, 51, &tg), 0);
		assert_int_equal(tg, 50);
		assert_int_equal(nl_proc_tgid(p, 52, &tg), -EINVAL);
		assert_int_equal(nl_proc_tgid(p, 53, &tg), -ENOENT);
		assert_int_equal(nl_proc_tgid("/proc", getpid(), &tg), 0);
		assert_int_equal(tg, getpid());
	}
	{	/* resident pages and name from one read of stat: a comm with
		 * ") " and spaces in it, rss as field 24 */
		char p[PATH_MAX], c16[16];
		uint64_t res = 0, statm = 0;

		wfile(r, "rc/9/stat", "9 (a) b (c) S 1 9 9 0 -1 4194304 100 0 0 0 5 6 0 0 20 0 1 0 "
				      "777 12345678 3012 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0\n");
		wfile(r, "rc/10/stat", "10 (short) S 1 10\n");
		snprintf(p, sizeof(p), "%s/rc", r);
		assert_int_equal(nl_proc_rss_comm(p, 9, &res, c16, sizeof(c16)), 0);
		assert_int_equal(res, 3012);
		assert_string_equal(c16, "a) b (c");
		assert_int_equal(nl_proc_rss_comm(p, 9, &res, c16, 3), 0);
		assert_string_equal(c16, "a)");
		assert_int_equal(nl_proc_rss_comm(p, 10, &res, c16, sizeof(c16)), -EINVAL);
		assert_int_equal(nl_proc_rss_comm(p, 11, &res, c16, sizeof(c16)), -ENOENT);
		/* the kernel's own: near statm's resident pages, not equal
		 * (stat reads the per-CPU rss counters unsummed) */
		assert_int_equal(nl_proc_rss_comm("/proc", getpid(), &res, c16, sizeof(c16)), 0);
		assert_string_equal(c16, "test_procfs");
		assert_int_equal(nl_proc_statm_resident("/proc", getpid(), &statm), 0);
		assert_true(res > 0 && statm > 0);
	}
	/* live */
	assert_true(nl_proc_pid_alive("/proc", getpid()));
	assert_int_equal(nl_proc_read_comm("/proc", getpid(), comm, sizeof(comm)), 0);
	assert_string_equal(comm, "test_procfs");
	{
		static pid_t all[65536];
		int n = nl_proc_list_pids("/proc", all, 65536), found = 0;

		assert_true(n > 1);
		for (int i = 0; i < n && i < 65536; i++)
			found |= all[i] == getpid();
		assert_true(found);
	}
}

/* A process's start time (stat field 22, clock ticks after boot), past a
 * command name holding ") " and spaces, and the boot id: what agents'
 * state files and DAMON records name their writer by. */
static void test_proc_start(void **state)
{
	const char *r = *state;
	char p[PATH_MAX], boot[64];
	uint64_t t = 0, ns = 0;
	long hz = sysconf(_SC_CLK_TCK);

	wfile(r, "st/77/stat", "77 (a) b c) S 1 77 77 0 -1 4194560 100 0 0 0 5 6 0 0 20 0 1 0 "
	      "123456 1000 200 18446744073709551615\n");
	wfile(r, "st/78/stat", "78 (short) S 1 78\n");
	wfile(r, "st/sys/kernel/random/boot_id", "0a1b2c3d-0000-4000-8000-00000000abcd\n");
	snprintf(p, sizeof(p), "%s/st", r);
	assert_int_equal(nl_proc_start_ticks(p, 77, &t), 0);
	assert_true(t == 123456);
	assert_int_equal(nl_proc_start_ns(p, 77, &ns), 0);
	assert_true(ns == 123456ULL * (1000000000ULL / (uint64_t)hz));
	assert_int_equal(nl_proc_start_ticks(p, 78, &t), -EINVAL);
	assert_int_equal(nl_proc_start_ticks(p, 79, &t), -ENOENT);
	nl_proc_boot_id(p, boot, sizeof(boot));
	assert_string_equal(boot, "0a1b2c3d-0000-4000-8000-00000000abcd");
	nl_proc_boot_id("/nonexistent", boot, sizeof(boot));
	assert_string_equal(boot, "");
	/* the live one: this process started before now, after boot */
	assert_int_equal(nl_proc_start_ticks("/proc", getpid(), &t), 0);
	assert_true(t > 0);
	nl_proc_boot_id("/proc", boot, sizeof(boot));
	assert_int_equal(strlen(boot), 36);
}

static void test_proc_cgroup(void **state)
{
	const char *r = *state;
	char out[256];

	/* the hybrid host's format */
	wfile(r, "100/cgroup",
	      "9:name=systemd:/\n8:pids:/\n3:name=memoryx:/wrong\n"
	      "4:cpu,memory:/process_api/d17e\n2:cpuacct:/\n0::/user.slice/u.scope\n");
	assert_int_equal(nl_proc_cgroup_path(r, 100, NL_CG_V1_MEMORY, out, sizeof(out)), 0);
	assert_string_equal(out, "/process_api/d17e");
	assert_int_equal(nl_proc_cgroup_path(r, 100, NL_CG_V2, out, sizeof(out)), 0);
	assert_string_equal(out, "/user.slice/u.scope");
	assert_int_equal(nl_proc_cgroup_path(r, 100, NL_CG_V2, out, 5), -ENAMETOOLONG);
	assert_int_equal(nl_proc_cgroup_path(r, 100, 7, out, sizeof(out)), -EINVAL);
	/* pure v2 (the VM): no memory line */
	wfile(r, "101/cgroup", "0::/\n");
	assert_int_equal(nl_proc_cgroup_path(r, 101, NL_CG_V2, out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	assert_int_equal(nl_proc_cgroup_path(r, 101, NL_CG_V1_MEMORY, out, sizeof(out)), -ENOENT);
	assert_int_equal(nl_proc_cgroup_path(r, 102, NL_CG_V2, out, sizeof(out)), -ENOENT);
	/* live */
	assert_int_equal(nl_proc_cgroup_path("/proc", getpid(), NL_CG_V2, out, sizeof(out)), 0);
	assert_int_equal(out[0], '/');
}

/* ---- cgroup.procs ---- */

static void test_pid_list(void **state)
{
	const char *r = *state;
	char path[4096];
	pid_t *v = NULL;
	int n = 0, cap = 0;

	/* 0 is a process outside our pid namespace; the last line may lack
	 * its newline */
	wfile(r, "cg/cgroup.procs", "12\n0\n7\n4194304");
	snprintf(path, sizeof(path), "%s/cg/cgroup.procs", r);
	assert_int_equal(nl_proc_read_pid_list(path, &v, &n, &cap), 3);
	assert_int_equal(n, 3);
	assert_int_equal(v[0], 12);
	assert_int_equal(v[1], 7);
	assert_int_equal(v[2], 4194304);
	/* appends */
	wfile(r, "cg2/cgroup.procs", "");
	snprintf(path, sizeof(path), "%s/cg2/cgroup.procs", r);
	assert_int_equal(nl_proc_read_pid_list(path, &v, &n, &cap), 0);
	wfile(r, "cg2/cgroup.procs", "5\n");
	assert_int_equal(nl_proc_read_pid_list(path, &v, &n, &cap), 1);
	assert_int_equal(n, 4);
	assert_int_equal(v[3], 5);
	snprintf(path, sizeof(path), "%s/nope/cgroup.procs", r);
	assert_int_equal(nl_proc_read_pid_list(path, &v, &n, &cap), -ENOENT);
	assert_int_equal(n, 4);
	free(v);
}

/* ---- sysctl ---- */

static void test_sysctl(void **state)
{
	const char *r = *state;
	long v;

	wfile(r, "sys/kernel/numa_balancing", "1\n");
	wfile(r, "sys/vm/numa_stat", "0\n");
	wfile(r, "sys/vm/weird", "abc\n");
	wfile(r, "sys/vm/neg", "-5\n");
	assert_int_equal(nl_proc_sysctl_read_int(r, "kernel/numa_balancing"), 1);
	assert_int_equal(nl_proc_sysctl_read_int(r, "kernel.numa_balancing"), 1);
	assert_int_equal(nl_proc_sysctl_read_int(r, "vm/numa_stat"), 0);
	assert_int_equal(nl_proc_sysctl_read_int(r, "vm/nope"), -ENOENT);
	assert_int_equal(nl_proc_sysctl_read_int(r, "vm/weird"), -EINVAL);
	assert_int_equal(nl_proc_sysctl_read_int(r, "vm/neg"), -ERANGE);
	assert_int_equal(nl_proc_sysctl_read_long(r, "vm.neg", &v), 0);
	assert_int_equal(v, -5);
	/* live: exists on any NUMA-capable kernel */
	if (!access("/proc/sys/kernel/numa_balancing", R_OK))
		assert_in_range(nl_proc_sysctl_read_int("/proc", "kernel.numa_balancing"), 0, 3);
}

/* One call reads a process's identity: comm (cleaned), cgroup, statm and
 * numa_maps; a process that is gone stops the read at its first part. */
static void test_proc_ident(void **state)
{
	const char *root = *state;
	struct nl_proc_ident id;
	char proc[PATH_MAX];

	wfile(root, "proc/42/comm", "wor\x1bker\n");
	wfile(root, "proc/42/cgroup", "0::/svc/a\n");
	wfile(root, "proc/42/statm", "900 250 10 1 0 50 0\n");
	wfile(root, "proc/42/numa_maps", "00400000 bind:1 anon=7 dirty=7 N1=7 kernelpagesize_kB=4\n"
					 "00600000 bind:1 anon=3 dirty=3 N0=3 kernelpagesize_kB=4\n");
	snprintf(proc, sizeof(proc), "%s/proc", root);
	assert_int_equal(nl_proc_ident_read(proc, 42, NL_CG_V2,
					    NL_IDENT_COMM | NL_IDENT_CGROUP | NL_IDENT_STATM | NL_IDENT_NUMA, &id), 0);
	assert_int_equal(id.got, NL_IDENT_COMM | NL_IDENT_CGROUP | NL_IDENT_STATM | NL_IDENT_NUMA);
	assert_string_equal(id.comm, "wor\\x1bker");
	assert_string_equal(id.cgroup, "/svc/a");
	assert_int_equal(id.statm_pages, 250);
	assert_int_equal(id.pages_by_node[0], 3);
	assert_int_equal(id.pages_by_node[1], 7);
	assert_string_equal(id.pol.task, "bind:1");

	/* only what is asked */
	assert_int_equal(nl_proc_ident_read(proc, 42, NL_CG_V2, NL_IDENT_STATM, &id), 0);
	assert_int_equal(id.got, NL_IDENT_STATM);

	/* gone: the comm says so, nothing after it is read, numa figures zero */
	id.pages_by_node[1] = 99;
	assert_int_equal(nl_proc_ident_read(proc, 43, NL_CG_V2, NL_IDENT_COMM | NL_IDENT_NUMA, &id), -ENOENT);
	assert_int_equal(id.got, 0);
	assert_int_equal(id.pages_by_node[1], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_numa_maps, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_numa_maps_policy, setup_tree, teardown_tree),
		cmocka_unit_test(test_numa_maps_self),
		cmocka_unit_test_setup_teardown(test_numastat, setup_tree, teardown_tree),
		cmocka_unit_test(test_numastat_host),
		cmocka_unit_test_setup_teardown(test_memcg_v2, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_memcg_v1, setup_tree, teardown_tree),
		cmocka_unit_test(test_memcg_host),
		cmocka_unit_test_setup_teardown(test_cpu_times, setup_tree, teardown_tree),
		cmocka_unit_test(test_cpu_times_host),
		cmocka_unit_test_setup_teardown(test_pids_comm, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_proc_start, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_proc_cgroup, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_proc_ident, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_pid_list, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_sysctl, setup_tree, teardown_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
