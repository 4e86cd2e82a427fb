// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * optcompat: the rename notice (one line per old spelling, its exact
 * text), the value checks that tell a reused letter's meanings apart, and
 * the pick between them.
 */
#include <argp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "optcompat.h"

/* What nl_opt_renamed() writes for the calls @run makes, as one string. */
static char *notices(void (*run)(FILE *f))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	nl_opt_renamed_reset();
	run(f);
	fclose(f);
	return buf;
}

static void say_i_twice_and_t(FILE *f)
{
	assert_true(nl_opt_renamed(f, "numalens export", "-i", "-d/--delay"));
	assert_false(nl_opt_renamed(f, "numalens export", "-i", "-d/--delay"));
	assert_true(nl_opt_renamed(f, "numalens export", "--interval", "-d/--delay"));
}

static void test_renamed_once_each(void **state)
{
	char *s = notices(say_i_twice_and_t);

	assert_string_equal(s,
		"numalens export: -i is now -d/--delay; the old spelling goes away in the next release\n"
		"numalens export: --interval is now -d/--delay; the old spelling goes away in the next release\n");
	free(s);
}

static void say_many(FILE *f)
{
	char old[16];

	/* more spellings than remembered: each still said, never a crash */
	for (int i = 0; i < 20; i++) {
		snprintf(old, sizeof(old), "-%c", 'a' + i);
		assert_true(nl_opt_renamed(f, "p", old, "-z"));
	}
}

static void test_renamed_many(void **state)
{
	char *s = notices(say_many);
	int lines = 0;

	for (char *p = s; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 20);
	assert_non_null(strstr(s, "p: -t is now -z;"));
	free(s);
}

static void test_fits_int(void **state)
{
	assert_true(nl_opt_fits_int("0", 0, 100));
	assert_true(nl_opt_fits_int("100", 0, 100));
	assert_true(nl_opt_fits_int("50", 0, 100));
	assert_false(nl_opt_fits_int("101", 0, 100));
	assert_false(nl_opt_fits_int("-1", 0, 100));
	assert_false(nl_opt_fits_int("0.5", 0, 100));
	assert_false(nl_opt_fits_int("5s", 0, 100));
	assert_false(nl_opt_fits_int("", 0, 100));
	assert_false(nl_opt_fits_int(NULL, 0, 100));
	assert_false(nl_opt_fits_int("99999999999999999999", 0, 100));
}

static void test_fits_seconds(void **state)
{
	assert_true(nl_opt_fits_seconds("0.1", 0.1, 3600));
	assert_true(nl_opt_fits_seconds("2", 0.1, 3600));
	assert_true(nl_opt_fits_seconds("3600", 0.1, 3600));
	assert_false(nl_opt_fits_seconds("3600.5", 0.1, 3600));
	assert_false(nl_opt_fits_seconds("0", 0.1, 3600));
	assert_false(nl_opt_fits_seconds("0x10", 0, 3600));
	assert_false(nl_opt_fits_seconds("nan", 0, 3600));
	assert_false(nl_opt_fits_seconds("inf", 0, 1e300));
	assert_false(nl_opt_fits_seconds("1e", 0, 3600));
	assert_false(nl_opt_fits_seconds("", 0, 3600));
	assert_false(nl_opt_fits_seconds(NULL, 0, 3600));
}

static void test_reuse_pick(void **state)
{
	/* the value alone tells */
	assert_int_equal(nl_opt_reuse_pick(true, false, false, false), NL_OPT_NEW);
	assert_int_equal(nl_opt_reuse_pick(false, true, false, false), NL_OPT_OLD);
	assert_int_equal(nl_opt_reuse_pick(false, true, false, true), NL_OPT_OLD);
	/* fits neither: the new meaning's parser reports it */
	assert_int_equal(nl_opt_reuse_pick(false, false, true, false), NL_OPT_NEW);
	/* fits both: the context decides, or nothing does */
	assert_int_equal(nl_opt_reuse_pick(true, true, true, false), NL_OPT_OLD);
	assert_int_equal(nl_opt_reuse_pick(true, true, false, true), NL_OPT_NEW);
	assert_int_equal(nl_opt_reuse_pick(true, true, false, false), NL_OPT_AMBIGUOUS);
	assert_int_equal(nl_opt_reuse_pick(true, true, true, true), NL_OPT_AMBIGUOUS);
}

/* A real argp run: records, for -d/--delay, whether nl_opt_was_long()
 * saw it long, and the operands in order. */
static struct { int n; bool lng[8]; char val[8][16]; int nops; char ops[4][16]; bool j; } seen;

static error_t rec_parse(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'd':
		seen.lng[seen.n] = nl_opt_was_long(st, arg);
		snprintf(seen.val[seen.n++], sizeof(seen.val[0]), "%s", arg);
		break;
	case 'j':
		seen.j = true;
		break;
	case ARGP_KEY_ARG:
		snprintf(seen.ops[seen.nops++], sizeof(seen.ops[0]), "%s", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void run_argp(int argc, char **argv)
{
	static const struct argp_option o[] = {
		{ "delay", 'd', "S", 0, "", 0 }, { "json", 'j', NULL, 0, "", 0 }, { 0 } };
	static const struct argp a = { o, rec_parse, NULL, NULL, NULL, NULL, NULL };

	memset(&seen, 0, sizeof(seen));
	assert_int_equal(argp_parse(&a, argc, argv, ARGP_NO_EXIT | ARGP_NO_HELP, NULL, NULL), 0);
}

static void test_was_long(void **state)
{
	char *v[] = { "p", "-d", "1", "/cg", "--delay", "2", "-d3", "--delay=4", "-jd", "5", "x", "-d", "--delay", NULL };

	run_argp(13, v);
	assert_int_equal(seen.n, 6);
	assert_false(seen.lng[0]);
	assert_string_equal(seen.val[0], "1");
	assert_true(seen.lng[1]);
	assert_string_equal(seen.val[1], "2");
	assert_false(seen.lng[2]);	/* -d3 */
	assert_string_equal(seen.val[2], "3");
	assert_true(seen.lng[3]);	/* --delay=4 */
	assert_string_equal(seen.val[3], "4");
	assert_false(seen.lng[4]);	/* -jd 5 */
	assert_string_equal(seen.val[4], "5");
	assert_true(seen.j);
	/* "-d --delay": the value of -d is the word "--delay" */
	assert_false(seen.lng[5]);
	assert_string_equal(seen.val[5], "--delay");
	/* operands between options did not confuse it */
	assert_int_equal(seen.nops, 2);
	assert_string_equal(seen.ops[0], "/cg");
	assert_string_equal(seen.ops[1], "x");
}

static void test_take_attached(void **state)
{
	char *v[] = { "scx_cling", "--monitor=2", "-mj", "-m5", "-m", "--monitors=1", "--", "-m7", NULL };

	assert_string_equal(nl_opt_take_attached(8, v, "monitor", 'm'), "5");
	assert_string_equal(v[1], "--monitor");
	assert_string_equal(v[2], "-mj");	/* a cluster of switches, kept */
	assert_string_equal(v[3], "-m");
	assert_string_equal(v[4], "-m");
	assert_string_equal(v[5], "--monitors=1");	/* another option */
	assert_string_equal(v[7], "-m7");	/* after "--": an operand */
	{
		char *w[] = { "scx_cling", "-m", "-d", "1", NULL };

		assert_null(nl_opt_take_attached(4, w, "monitor", 'm'));
		assert_string_equal(w[1], "-m");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_renamed_once_each),
		cmocka_unit_test(test_renamed_many),
		cmocka_unit_test(test_fits_int),
		cmocka_unit_test(test_fits_seconds),
		cmocka_unit_test(test_reuse_pick),
		cmocka_unit_test(test_was_long),
		cmocka_unit_test(test_take_attached),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
