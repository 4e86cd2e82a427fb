// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/model/reclaim_read.c: a running agent's state file becomes
 * nl_cgroup.agent in the snapshot: values, deltas between two reads, and
 * the files that must be ignored (dead pid, a reused pid, other
 * hierarchy, other format, a temporary file, a removed cgroup). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "cgroup.h"
#include "fixture_fs.h"
#include "agent_files.h"
#include "reclaim_read.h"

static struct nl_cgroup cgs[3];
static struct nl_snapshot snap;

static void setup(void)
{
	for (int i = 0; i < 3; i++)
		free(cgs[i].agent);
	memset(cgs, 0, sizeof(cgs));
	memset(&snap, 0, sizeof(snap));
	cgs[0].id = 1;
	cgs[1].id = 4242;
	cgs[2].id = 77;
	cgs[2].removed = true;
	snap.nr_cgroups = 3;
	snap.cgroups = cgs;
}

/* An agent file for pid @pid with cgroups 4242 and 77 (@passes, pages). */
static void agent_file(const char *dir, const char *name, int pid, const char *mode,
		       const char *fmt, int passes, int madv0)
{
	char buf[2048];

	snprintf(buf, sizeof(buf),
		 "{\"format\":\"%s\",\"pid\":%d,\"cgroup_mode\":\"%s\",\"cgroup_root\":\"/x\","
		 "\"backend\":\"madvise\",\"victim\":\"lottery\",\"dry_run\":false,\"scan_source\":\"vmscan\","
		 "\"cgroups\":[{\"id\":4242,\"path\":\"/a\",\"reclaiming\":true,\"high_bytes\":25165824,"
		 "\"low_bytes\":20971520,\"scan_weight\":3000,\"weight_by_node\":[1000,2000],"
		 "\"draws_by_node\":{\"limit\":[5,6],\"agent\":[30,70]},"
		 "\"pages_by_node\":{\"damos\":[0,0],\"madvise\":[%d,400],\"memcg\":[0,0]},"
		 "\"passes\":%d,\"steps\":90,\"no_progress_stops\":2,\"over_high_seconds\":4.5,"
		 "\"agent_seconds\":0.25},{\"id\":77,\"path\":\"/gone\",\"passes\":9}]}",
		 fmt, pid, mode, madv0, passes);
	wfile(dir, name, buf);
}

static void test_read_values_and_deltas(void **state)
{
	char *d = fixture_tmpdir("rread");
	struct nl_ra_reader *r = nl_ra_reader_new();
	char name[64];
	const struct nl_reclaim_agent_figs *a;

	(void)state;
	assert_non_null(d);
	setup();
	snprintf(name, sizeof(name), "%d.json", (int)getpid());
	agent_file(d, name, (int)getpid(), "v2", NL_RECLAIM_FORMAT, 10, 600);
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 1);
	assert_null(cgs[0].agent);
	assert_null(cgs[2].agent);	/* removed: not attached */
	a = cgs[1].agent;
	assert_non_null(a);
	assert_int_equal(a->pid, getpid());
	assert_string_equal(a->backend, "madvise");
	assert_string_equal(a->victim, "lottery");
	assert_true(a->reclaiming && a->scan_vmscan && !a->dry_run);
	assert_int_equal(a->high_bytes, 24u << 20);
	assert_int_equal(a->low_bytes, 20u << 20);
	assert_int_equal(a->weight_total, 3000);
	assert_int_equal(a->weight[1], 2000);
	assert_int_equal(a->draws_total[0][1], 6);
	assert_int_equal(a->draws_total[1][0], 30);
	assert_int_equal(a->pages_total[1][0], 600);
	assert_int_equal(a->pages_total[1][1], 400);
	assert_int_equal(a->pages_total[0][0], 0);
	assert_int_equal(a->passes_total, 10);
	assert_int_equal(a->steps_total, 90);
	assert_int_equal(a->no_progress_stops_total, 2);
	assert_true(a->over_high_seconds_total == 4.5 && a->agent_seconds_total == 0.25);
	assert_int_equal(a->pages_delta, 0);	/* first sight */
	/* next interval: 3 passes and 250 pages more */
	setup();
	agent_file(d, name, (int)getpid(), "v2", NL_RECLAIM_FORMAT, 13, 850);
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 1);
	assert_int_equal(cgs[1].agent->passes_delta, 3);
	assert_int_equal(cgs[1].agent->pages_delta, 250);
	/* the same ids in another hierarchy mean other cgroups */
	setup();
	assert_int_equal(nl_ra_read(r, d, NL_CG_V1_MEMORY, &snap), 0);
	assert_null(cgs[1].agent);
	setup();
	nl_ra_reader_free(r);
	rmtree(d);
}

static void test_ignored_files(void **state)
{
	char *d = fixture_tmpdir("rread2");
	struct nl_ra_reader *r = nl_ra_reader_new();
	char name[64];

	(void)state;
	setup();
	/* pid 0x7ffffff0 does not exist; a .tmp of ours is half-written by
	 * definition; another format is not ours to read */
	agent_file(d, "2147483632.json", 2147483632, "v2", NL_RECLAIM_FORMAT, 1, 1);
	snprintf(name, sizeof(name), "%d.json.tmp", (int)getpid());
	agent_file(d, name, (int)getpid(), "v2", NL_RECLAIM_FORMAT, 1, 1);
	snprintf(name, sizeof(name), "%d.json", (int)getpid());
	agent_file(d, name, (int)getpid(), "v2", "numalens-reclaim-agent/99", 1, 1);
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 0);
	assert_null(cgs[1].agent);
	/* a pid field that is not the file's owner */
	agent_file(d, name, 1, "v2", NL_RECLAIM_FORMAT, 1, 1);
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 0);
	wfile(d, name, "{ not json");
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 0);
	/* a valid file of our pid, last written before this process started:
	 * left by a killed agent whose pid we now have (pid reuse) */
	agent_file(d, name, (int)getpid(), "v2", NL_RECLAIM_FORMAT, 1, 1);
	{
		char p[4200];
		struct timespec old[2] = { { 1000000, 0 }, { 1000000, 0 } };

		snprintf(p, sizeof(p), "%s/%s", d, name);
		assert_int_equal(utimensat(AT_FDCWD, p, old, 0), 0);
	}
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 0);
	assert_null(cgs[1].agent);
	/* the same file written now is the live agent's */
	agent_file(d, name, (int)getpid(), "v2", NL_RECLAIM_FORMAT, 1, 1);
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 1);
	assert_non_null(cgs[1].agent);
	/* no directory at all: no agent */
	assert_int_equal(nl_ra_read(r, "/nonexistent/numalens", NL_CG_V2, &snap), 0);
	nl_ra_reader_free(r);
	rmtree(d);
}

/* Names of a live pid that are not regular files: a FIFO would block
 * open(2) until a writer comes (top, export and reclaim --status hung
 * there), a symlink may lead to one or to a device. alarm() turns a hang
 * into a failure. */
static void test_not_regular_files(void **state)
{
	char *d = fixture_tmpdir("rread3");
	struct nl_ra_reader *r = nl_ra_reader_new();
	char p[4200], q[4200];

	(void)state;
	setup();
	snprintf(p, sizeof(p), "%s/%d.json", d, (int)getpid());
	assert_int_equal(mkfifo(p, 0644), 0);
	alarm(20);
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 0);
	/* a symlink of the agent's name to a FIFO elsewhere */
	snprintf(q, sizeof(q), "%s/elsewhere", d);
	assert_int_equal(rename(p, q), 0);
	assert_int_equal(symlink(q, p), 0);
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 0);
	alarm(0);
	assert_null(cgs[1].agent);
	/* the agent's own regular file is still read */
	assert_int_equal(unlink(p), 0);
	agent_file(d, strrchr(p, '/') + 1, (int)getpid(), "v2", NL_RECLAIM_FORMAT, 1, 1);
	assert_int_equal(nl_ra_read(r, d, NL_CG_V2, &snap), 1);
	nl_ra_reader_free(r);
	rmtree(d);
}

/* A starting agent removes what dead agents left: a dead pid's files, a
 * live pid's file older than its process, a left-over .tmp of a dead one;
 * never its own file or anything that is not a regular file. */
static void test_prune(void **state)
{
	char *d = fixture_tmpdir("rprune");
	char name[64], p[4200];
	struct stat st;
	struct timespec old[2] = { { 1000000, 0 }, { 1000000, 0 } };

	(void)state;
	wfile(d, "2147483632.json", "{}");
	wfile(d, "2147483632.status", "x");
	wfile(d, "2147483632.json.tmp", "{");
	wfile(d, "1.json", "{}");			/* pid 1 lives, but started later */
	snprintf(p, sizeof(p), "%s/1.json", d);
	assert_int_equal(utimensat(AT_FDCWD, p, old, 0), 0);
	snprintf(name, sizeof(name), "%d.json", (int)getpid());
	wfile(d, name, "{}");				/* ours */
	wfile(d, "notes.txt", "x");			/* not an agent's */
	snprintf(p, sizeof(p), "%s/2147483633.json", d);
	assert_int_equal(mkdir(p, 0755), 0);		/* not a regular file */
	assert_int_equal(nl_agent_files_prune(d), 4);
	snprintf(p, sizeof(p), "%s/%s", d, name);
	assert_int_equal(stat(p, &st), 0);
	snprintf(p, sizeof(p), "%s/notes.txt", d);
	assert_int_equal(stat(p, &st), 0);
	snprintf(p, sizeof(p), "%s/1.json", d);
	assert_int_not_equal(stat(p, &st), 0);
	snprintf(p, sizeof(p), "%s/2147483633.json", d);
	assert_int_equal(rmdir(p), 0);
	rmtree(d);
}

/* nl_ra_owner: which running agent manages a cgroup, so a second agent
 * on it can be refused naming the first: by id and hierarchy, never the
 * asking process itself, 0 when none. */
static void test_owner(void **state)
{
	char *d = fixture_tmpdir("rowner");
	char name[64];

	(void)state;
	assert_non_null(d);
	assert_int_equal(nl_ra_owner(d, NL_CG_V2, 4242, 0), 0);	/* no file yet */
	snprintf(name, sizeof(name), "%d.json", (int)getpid());
	agent_file(d, name, (int)getpid(), "v2", NL_RECLAIM_FORMAT, 1, 1);
	assert_int_equal(nl_ra_owner(d, NL_CG_V2, 4242, 0), getpid());
	assert_int_equal(nl_ra_owner(d, NL_CG_V2, 77, 0), getpid());
	assert_int_equal(nl_ra_owner(d, NL_CG_V2, 5, 0), 0);		/* not listed */
	assert_int_equal(nl_ra_owner(d, NL_CG_V1_MEMORY, 4242, 0), 0);	/* other hierarchy */
	assert_int_equal(nl_ra_owner(d, NL_CG_V2, 4242, getpid()), 0);	/* itself */
	rmtree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_values_and_deltas),
		cmocka_unit_test(test_ignored_files),
		cmocka_unit_test(test_prune),
		cmocka_unit_test(test_not_regular_files),
		cmocka_unit_test(test_owner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
