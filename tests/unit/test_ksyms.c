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

/* The ranges come from the same table as the frame names: a name listed
 * twice (static functions of two files) is taken at its first line even
 * when a later one has a lower address; its end skips an alias at the
 * same address; a file whose addresses are all hidden finds nothing
 * without failing. */
static void test_ranges_dup_and_hidden(void **state)
{
	char *d = fixture_tmpdir("ksymdup");
	char path[4096];
	const char *names[] = { "dup_fn", "aliased" };
	uint64_t lo[2], hi[2];

	(void)state;
	wfile(d, "kallsyms",
	      "ffffffff81300000 t dup_fn\n"
	      "ffffffff81300200 T after_dup\n"
	      "ffffffff81050000 t dup_fn\n"
	      "ffffffff81060000 T aliased\n"
	      "ffffffff81060000 T alias_of_aliased\n"
	      "ffffffff81060300 T next_fn\n");
	snprintf(path, sizeof(path), "%s/kallsyms", d);
	assert_int_equal(nl_ksym_ranges(path, names, 2, lo, hi), 2);
	assert_true(lo[0] == 0xffffffff81300000ULL && hi[0] == 0xffffffff81300200ULL);
	assert_true(lo[1] == 0xffffffff81060000ULL && hi[1] == 0xffffffff81060300ULL);
	wfile(d, "hidden", "0000000000000000 T dup_fn\n0000000000000000 t aliased\n");
	snprintf(path, sizeof(path), "%s/hidden", d);
	lo[0] = hi[0] = 1;
	assert_int_equal(nl_ksym_ranges(path, names, 2, lo, hi), 0);
	assert_true(lo[0] == 0 && hi[0] == 0);
	rmtree(d);
}

/* The whole table names a stack frame: the highest text symbol at or
 * below the address, with the offset; data symbols and hidden addresses
 * are left out, lines out of order are sorted. */
static void test_table(void **state)
{
	char *d = fixture_tmpdir("ksymtab");
	char path[4096];
	struct nl_ksym_table *t;
	uint64_t off = 99;

	(void)state;
	wfile(d, "kallsyms",
	      "ffffffff81200000 T handle_mm_fault\n"
	      "ffffffff81200100 d some_data\n"
	      "ffffffff81100000 T do_anonymous_page\n"
	      "0000000000000000 T hidden_fn\n"
	      "ffffffffc0001000 t mod_fn\t[nlmod]\n");
	snprintf(path, sizeof(path), "%s/kallsyms", d);
	t = nl_ksym_table_load(path);
	assert_non_null(t);
	assert_string_equal(nl_ksym_table_name(t, 0xffffffff81200150ULL, &off), "handle_mm_fault");
	assert_true(off == 0x150);
	assert_string_equal(nl_ksym_table_name(t, 0xffffffff81100000ULL, &off), "do_anonymous_page");
	assert_true(off == 0);
	assert_string_equal(nl_ksym_table_name(t, 0xffffffffc0001010ULL, NULL), "mod_fn");
	assert_null(nl_ksym_table_name(t, 0xffffffff81000000ULL, &off));
	nl_ksym_table_free(t);
	assert_null(nl_ksym_table_load("/nonexistent/kallsyms"));
	assert_int_equal(errno, ENOENT);
	wfile(d, "hidden", "0000000000000000 T a\n0000000000000000 t b\n");
	snprintf(path, sizeof(path), "%s/hidden", d);
	assert_null(nl_ksym_table_load(path));
	assert_int_equal(errno, ENODATA);
	rmtree(d);
}

/* In the kernel's sorted run, reading stops once every name was found and
 * followed by a higher text address: a later line (here one no real
 * kernel lists, below the found end) is not read. Lines out of order
 * before that make it read to the end. */
static void test_ranges_stop(void **state)
{
	char *d = fixture_tmpdir("ksymstop");
	char path[4096];
	const char *names[] = { "user_proactive_reclaim", "memory_reclaim" };
	uint64_t lo[2], hi[2];

	(void)state;
	wfile(d, "sorted",
	      "ffffffff81000000 T _stext\n"
	      "ffffffff81100000 T user_proactive_reclaim\n"
	      "ffffffff81100080 t next_a\n"
	      "ffffffff81200000 t memory_reclaim\n"
	      "ffffffff81200400 T next_b\n"
	      "ffffffff81200200 t not_read\t[mod]\n");
	snprintf(path, sizeof(path), "%s/sorted", d);
	assert_int_equal(nl_ksym_ranges(path, names, 2, lo, hi), 2);
	assert_true(lo[0] == 0xffffffff81100000ULL && hi[0] == 0xffffffff81100080ULL);
	assert_true(lo[1] == 0xffffffff81200000ULL && hi[1] == 0xffffffff81200400ULL);
	wfile(d, "unsorted",
	      "ffffffff81000000 T _stext\n"
	      "ffffffff81200000 t memory_reclaim\n"
	      "ffffffff81100000 T user_proactive_reclaim\n"
	      "ffffffff81100080 t next_a\n"
	      "ffffffff81200400 T next_b\n"
	      "ffffffff81200200 t read_too\t[mod]\n");
	snprintf(path, sizeof(path), "%s/unsorted", d);
	assert_int_equal(nl_ksym_ranges(path, names, 2, lo, hi), 2);
	assert_true(lo[1] == 0xffffffff81200000ULL && hi[1] == 0xffffffff81200200ULL);
	rmtree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_ranges_dup_and_hidden),
		cmocka_unit_test(test_ranges_stop),
		cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
