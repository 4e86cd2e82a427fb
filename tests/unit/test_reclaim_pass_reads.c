// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_tick.c: what a background pass costs the agent in
 * memory.numa_stat reads. Each read makes the kernel flush the memcg's
 * statistics; reading the file before and after every step was most of
 * the agent's own CPU beside its reclaim writes. A pass of N steps now
 * reads it N + 1 times (the tick's refresh, then once after each step).
 * The cgroup is a fake directory and the backend is memory.reclaim (a
 * plain file here, so nothing is freed and the pass stops after 3 steps
 * without progress); inotify counts the opens of memory.numa_stat (closes
 * are watched too: inotify merges an event with an identical one queued
 * just before it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <cmocka.h>
#include "fixture_ra.h"

/* Opens of the watched file queued on @fd since the last call. */
static int opens(int fd)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int n = 0;
	ssize_t len;

	while ((len = read(fd, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + len;) {
			struct inotify_event *ev = (struct inotify_event *)p;

			n += !!(ev->mask & IN_OPEN);
			p += sizeof(*ev) + ev->len;
		}
	return n;
}

static void test_pass_reads(void **state)
{
	static struct nl_ra a;
	struct nl_ra_cfg cfg;
	char *root = fixture_tmpdir("rpass"), p[512], err[256];
	int k, fd;

	(void)state;
	assert_non_null(root);
	fixture_ra_cgroup(root, &cfg);
	assert_int_equal(nl_agent_init(&a, &cfg, NULL, err, sizeof(err)), 0);
	k = nl_agent_add(&a, "/cg");
	assert_int_equal(k, 0);

	fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(fd >= 0);
	snprintf(p, sizeof(p), "%s/cg/memory.numa_stat", root);
	assert_true(inotify_add_watch(fd, p, IN_OPEN | IN_CLOSE_NOWRITE) >= 0);

	nl_tick(&a, &a.cg[k], nl_agent_now());
	/* the pass ran and stopped on no progress after 3 steps */
	assert_int_equal(a.cg[k].passes, 1);
	assert_int_equal(a.cg[k].steps, 3);
	assert_int_equal(a.cg[k].no_progress_stops, 1);
	/* the refresh's read and one after each step (was 1 + 2 per step) */
	assert_int_equal(opens(fd), 1 + 3);
	assert_int_equal(a.cg[k].numa_reads, 1 + 3);

	/* a hook step reads before and after itself: its start waited for
	 * the kernel's own limit reclaim, which its deltas must not hold */
	assert_int_equal(nl_hook_step(&a, &a.cg[k], 1, 1, 0, 1), 0);
	assert_int_equal(a.cg[k].hook_steps, 1);
	assert_int_equal(opens(fd), 2);
	assert_int_equal(a.cg[k].numa_reads, 1 + 3 + 2);
	close(fd);
	nl_rb_cleanup();
	rmtree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
