// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/source/damon_state.c: the record of a kdamond an agent created
 * names its creator (pid, start time after boot, boot id); the kdamond is
 * an orphan to clean up only when that process is gone, never when it
 * runs, has no record or was recorded in another boot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture_fs.h"
#include "damon_state.h"
#include "procfs.h"

static void test_record_and_orphan(void **state)
{
	char *d = fixture_tmpdir("damonst");
	char dir[4096], p[4200], text[256], boot[64], who[32] = "";
	uint64_t start;
	FILE *f;
	pid_t child;
	int st;

	(void)state;
	/* the directory and its missing parents are made */
	snprintf(dir, sizeof(dir), "%s/run/numalens", d);
	assert_int_equal(nl_damon_state_record(dir, 3), 0);
	snprintf(p, sizeof(p), "%s/damon-3.state", dir);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_int_equal(nl_proc_start_ticks("/proc", getpid(), &start), 0);
	nl_proc_boot_id("/proc", boot, sizeof(boot));
	{
		char want[256];

		snprintf(want, sizeof(want), "kdamond=3 pid=%d start=%" PRIu64 " boot=%s\n",
			 (int)getpid(), start, boot);
		assert_string_equal(text, want);
	}
	/* ours, running: no orphan; no record: none either */
	assert_false(nl_damon_state_orphan(dir, 3, who, sizeof(who)));
	assert_false(nl_damon_state_orphan(dir, 4, who, sizeof(who)));
	/* a creator that has exited: an orphan, named by pid */
	child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	assert_int_equal(waitpid(child, &st, 0), child);
	snprintf(text, sizeof(text), "kdamond=4 pid=%d start=%" PRIu64 " boot=%s\n",
		 (int)child, start, boot);
	wfile(dir, "damon-4.state", text);
	assert_true(nl_damon_state_orphan(dir, 4, who, sizeof(who)));
	snprintf(text, sizeof(text), "pid %d", (int)child);
	assert_string_equal(who, text);
	/* the same in another boot: today's kdamond 4 is not its */
	snprintf(text, sizeof(text), "kdamond=4 pid=%d start=%" PRIu64 " boot=%s\n",
		 (int)child, start, "00000000-0000-0000-0000-000000000000");
	wfile(dir, "damon-4.state", text);
	assert_int_equal(nl_damon_state_orphan(dir, 4, who, sizeof(who)), !boot[0]);
	nl_damon_state_forget(dir, 3);
	assert_int_not_equal(access(p, F_OK), 0);
	rmtree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_and_orphan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
