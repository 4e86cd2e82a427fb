// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/reclaim/reclaim_hook.c: which hook steps count as the step's
 * alone. A step that a kernel limit-reclaim run of the memcg overlapped
 * holds the kernel's pages in its memory.numa_stat deltas; so may one that
 * starts soon after such a step, because the run's last pages can reach
 * the file only at a later flush of the memcg statistics. A load run of
 * the suite saw a step 32 ms after an overlapped one take 512 pages from
 * a node it was not asked for, and the VM test read it as a wrong node. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "reclaim_hook.h"

static void test_overlap_window(void **state)
{
	double ov = 0, lag;

	(void)state;
	/* no run ever overlapped: clean */
	assert_false(nl_hook_overlap(&ov, false, 10.0, 10.05, &lag));
	assert_true(lag < 0);
	/* a run overlapped: the window starts at the step's end */
	assert_true(nl_hook_overlap(&ov, true, 12.0, 12.05, &lag));
	assert_true(ov == 12.05);
	assert_true(lag < 0);
	/* 32 ms later: inside the flush lag, not the step's alone */
	assert_true(nl_hook_overlap(&ov, false, 12.082, 12.1, &lag));
	assert_true(lag > 31.9 && lag < 32.1);
	/* that step overlapped no run: it does not move the window */
	assert_true(ov == 12.05);
	/* past the window: clean again */
	assert_false(nl_hook_overlap(&ov, false, 12.05 + NL_RA_FLUSH_LAG_S + 0.01, 13.2, &lag));
	assert_true(lag < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
