// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/source/agent_files.c: whether an agent's published file is a
 * running writer's is told by the stamp inside it (pid, start time after
 * boot, boot id), not by the file's mtime on the wall clock: a clock step
 * after the write keeps a live agent's file, a reused pid drops a dead
 * agent's one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture_fs.h"
#include "agent_files.h"
#include "procfs.h"

/* Set @d/@name's mtime to 1970: what a reader sees after the wall clock
 * stepped forward past the writer's start (the write looks older than the
 * writer). */
static void age(const char *d, const char *name)
{
	struct timespec old[2] = { { 1000000, 0 }, { 1000000, 0 } };
	char p[4200];

	snprintf(p, sizeof(p), "%s/%s", d, name);
	assert_int_equal(utimensat(AT_FDCWD, p, old, 0), 0);
}

static bool exists(const char *d, const char *name)
{
	char p[4200];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", d, name);
	return !stat(p, &st);
}

/* A child that publishes @d/<its pid>.status and stays until killed. */
static pid_t agent_child(const char *d)
{
	int fds[2];
	char c;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* gone with the test, even one that fails before its kill */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
		close(fds[0]);
		close(STDOUT_FILENO);
		if (nl_agent_files_put(d, "status", "state: on\n", 10))
			_exit(1);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &c, 1), 1);
	close(fds[0]);
	return pid;
}

static void test_clock_step(void **state)
{
	char *d = fixture_tmpdir("agclock");
	struct nl_agent_file *f = NULL;
	char name[64];
	pid_t child;
	int st;

	(void)state;
	/* our own file, written before the step: still read, stamp left out */
	assert_int_equal(nl_agent_files_put(d, "json", "{\"a\":1}", 7), 0);
	snprintf(name, sizeof(name), "%d.json", (int)getpid());
	age(d, name);
	assert_int_equal(nl_agent_files_read(d, "json", &f), 1);
	assert_int_equal(f[0].pid, (int)getpid());
	assert_string_equal(f[0].text, "{\"a\":1}");
	nl_agent_files_free(f, 1);
	/* another running agent's: a new agent's prune keeps it */
	child = agent_child(d);
	snprintf(name, sizeof(name), "%d.status", (int)child);
	age(d, name);
	assert_int_equal(nl_agent_files_prune(d), 0);
	assert_true(exists(d, name));
	assert_int_equal(nl_agent_files_read(d, "status", &f), 1);
	assert_string_equal(f[0].text, "state: on\n");
	nl_agent_files_free(f, 1);
	/* once it is gone, its file goes */
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_int_equal(nl_agent_files_prune(d), 1);
	assert_false(exists(d, name));
	rmtree(d);
}

/* A file stamped by an earlier process of a pid that runs now: dropped
 * although it was written after the running process started (the mtime
 * rule would keep it); so is one stamped in another boot. */
static void test_pid_reuse(void **state)
{
	char *d = fixture_tmpdir("agreuse");
	struct nl_agent_file *f = NULL;
	char name[64], text[256], boot[64];
	uint64_t start;
	pid_t child;
	int st;

	(void)state;
	child = agent_child(d);
	assert_int_equal(nl_proc_start_ticks("/proc", child, &start), 0);
	nl_proc_boot_id("/proc", boot, sizeof(boot));
	snprintf(name, sizeof(name), "%d.json", (int)child);
	snprintf(text, sizeof(text), "numalens-agent pid=%d start=%" PRIu64 " boot=%s\n{}",
		 (int)child, start - 1, boot);
	wfile(d, name, text);
	assert_int_equal(nl_agent_files_read(d, "json", &f), 0);
	/* the same writer in another boot */
	snprintf(text, sizeof(text), "numalens-agent pid=%d start=%" PRIu64 " boot=%s\n{}",
		 (int)child, start, "00000000-0000-0000-0000-000000000000");
	wfile(d, name, text);
	assert_int_equal(nl_agent_files_read(d, "json", &f), boot[0] ? 0 : 1);
	nl_agent_files_free(f, boot[0] ? 0 : 1);
	/* the right stamp: the running writer's */
	snprintf(text, sizeof(text), "numalens-agent pid=%d start=%" PRIu64 " boot=%s\n{}",
		 (int)child, start, boot[0] ? boot : "-");
	wfile(d, name, text);
	assert_int_equal(nl_agent_files_read(d, "json", &f), 1);
	assert_string_equal(f[0].text, "{}");
	nl_agent_files_free(f, 1);
	/* back to the reused pid's stamp: prune removes only that file */
	snprintf(text, sizeof(text), "numalens-agent pid=%d start=%" PRIu64 " boot=%s\n{}",
		 (int)child, start - 1, boot);
	wfile(d, name, text);
	assert_int_equal(nl_agent_files_prune(d), 1);
	assert_false(exists(d, name));
	snprintf(name, sizeof(name), "%d.status", (int)child);
	assert_true(exists(d, name));
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, &st, 0), child);
	rmtree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_step),
		cmocka_unit_test(test_pid_reuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
