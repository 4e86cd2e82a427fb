// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tools/core/ksyms.c: function ranges from a kallsyms-format file: the
 * start of each named text symbol, and the next text symbol above it as
 * the end, whatever the order of the lines (modules come after the core
 * kernel and are not sorted with it); data symbols and hidden (zero)
 * addresses are no ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture_fs.h"
#include "ksyms.h"

static void test_ranges(void **state)
{
	char *d = fixture_tmpdir("ksyms");
	char path[4096];
	const char *names[] = { "user_proactive_reclaim", "memory_reclaim", "absent_fn", "mod_fn" };
	uint64_t lo[4], hi[4];

	(void)state;
	wfile(d, "kallsyms",
	      "ffffffff81000000 T _stext\n"
	      "ffffffff81200000 T memory_reclaim\n"
	      "ffffffff81200010 d some_data\n"		/* data: not an end */
	      "ffffffff81200400 t memory_reclaim_helper\n"
	      "ffffffff81100000 T user_proactive_reclaim\n"	/* out of order */
	      "0000000000000000 T hidden_fn\n"
	      "ffffffff81100080 W weak_after\n"
	      "ffffffffc0001000 t mod_fn\t[nlmod]\n");
	snprintf(path, sizeof(path), "%s/kallsyms", d);
	assert_int_equal(nl_ksym_ranges(path, names, 4, lo, hi), 3);
	assert_true(lo[0] == 0xffffffff81100000ULL && hi[0] == 0xffffffff81100080ULL);
	assert_true(lo[1] == 0xffffffff81200000ULL && hi[1] == 0xffffffff81200400ULL);
	assert_true(lo[2] == 0 && hi[2] == 0);
	/* the last text symbol: one page */
	assert_true(lo[3] == 0xffffffffc0001000ULL && hi[3] == lo[3] + 4096);
	assert_int_equal(nl_ksym_ranges("/nonexistent/kallsyms", names, 4, lo, hi), -ENOENT);
	rmtree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
