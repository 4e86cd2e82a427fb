// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * names: the one cleaning rule for process names and cgroup paths (valid
 * UTF-8 out, control characters escaped, the kernel's 15-byte cut
 * repaired), its column arithmetic, and the views that print a cleaned
 * name: the batch text keeps its columns, the TUI cells fit by width.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "names.h"
#include "snapshot_fixture.h"
#include "view_text.h"
#include "view_tui.h"
#include "prom_text.h"

/* True when @s is valid UTF-8 with no control character (what JSON
 * strings, Prometheus label values and terminals can all carry). */
static bool clean_text(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = nl_name_utf8_seq(p, strlen((const char *)p));

		if (n <= 0 || *p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] < 0xa0))
			return false;
		p += n;
	}
	return true;
}

static void check_comm(const char *raw, const char *want)
{
	char out[NL_NAME_MAX], again[NL_NAME_MAX];

	nl_name_comm_clean(out, raw);
	assert_string_equal(out, want);
	assert_true(clean_text(out));
	nl_name_comm_clean(again, out);	/* idempotent (short enough here) */
	if (strlen(out) <= NL_COMM_BYTES)
		assert_string_equal(again, out);
	nl_name_clean(again, sizeof(again), out, strlen(out), 0, NULL);
	assert_string_equal(again, out);
}

static void test_comm_rule(void **state)
{
	/* "inner-job-同步" cut by the kernel at 15 bytes, inside 步 */
	check_comm("inner-job-\xe5\x90\x8c\xe6\xad", "inner-job-\xe5\x90\x8c");
	/* bytes that start nothing valid: one U+FFFD each */
	check_comm("w\xff\xfe\x80x", "w\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx");
	/* a terminal escape sequence and whitespace controls: escaped */
	check_comm("e\x1b[2Jx", "e\\x1b[2Jx");
	check_comm("a\tb\nc\rd", "a\\x09b\\x0ac\\x0dd");
	check_comm("del\x7f", "del\\x7f");
	/* C1 control CSI (U+009B) is a terminal control too */
	check_comm("c1\xc2\x9b" "2J", "c1\\xc2\\x9b2J");
	/* valid names are untouched, backslashes included */
	check_comm("kworker/0:1H", "kworker/0:1H");
	check_comm("sd\\x2dpam", "sd\\x2dpam");
	check_comm("\xe5\x90\x8c\xe6\xad\xa5", "\xe5\x90\x8c\xe6\xad\xa5");
	/* a half character in a short name is bad data, not a cut */
	check_comm("ab\xe5\x90", "ab\xef\xbf\xbd\xef\xbf\xbd");
	/* overlong '/', a surrogate, past U+10FFFF */
	check_comm("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");
	check_comm("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	check_comm("\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* the widest comm: 15 control bytes, 60 bytes cleaned */
	char out[NL_NAME_MAX];

	nl_name_comm_clean(out, "\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b");
	assert_int_equal(strlen(out), 60);
}

static void test_clean_bounds(void **state)
{
	char out[8];
	bool alt;

	/* like snprintf: the full length back, whole characters written */
	assert_int_equal(nl_name_clean(out, sizeof(out), "ab\xff\xff", 4, 0, &alt), 8);
	assert_true(alt);
	assert_string_equal(out, "ab\xef\xbf\xbd");
	assert_int_equal(nl_name_clean(NULL, 0, "/a/b", 4, 0, &alt), 4);
	assert_false(alt);
	assert_int_equal(nl_name_clean(out, sizeof(out), "x\x1by", 3, 0, &alt), 6);
	assert_string_equal(out, "x\\x1by");
}

static void test_utf8_seq(void **state)
{
	assert_int_equal(nl_name_utf8_seq((const unsigned char *)"a", 1), 1);
	assert_int_equal(nl_name_utf8_seq((const unsigned char *)"\xe6\xad\xa5", 3), 3);
	assert_int_equal(nl_name_utf8_seq((const unsigned char *)"\xe6\xad", 2), -2);
	assert_int_equal(nl_name_utf8_seq((const unsigned char *)"\xe6", 1), -1);
	assert_int_equal(nl_name_utf8_seq((const unsigned char *)"\xe6x", 2), 0);
	assert_int_equal(nl_name_utf8_seq((const unsigned char *)"\xff", 1), 0);
}

static void test_columns(void **state)
{
	char b[64];
	int used;

	assert_int_equal(nl_name_text_cols("inner-job-\xe5\x90\x8c"), 12);	/* 同 is wide */
	assert_int_equal(nl_name_text_cols("w\xef\xbf\xbdx"), 3);
	/* a wide character never straddles the cut */
	assert_int_equal(nl_name_text_head("ab\xe5\x90\x8c", 3, &used), 2);
	assert_int_equal(used, 2);
	assert_int_equal(nl_name_text_tail("\xe5\x90\x8c" "ab", 3, &used), 3);
	assert_int_equal(used, 2);
	assert_string_equal(nl_name_text_pad(b, sizeof(b), "\xe5\x90\x8c", 4, true), "\xe5\x90\x8c  ");
	assert_string_equal(nl_name_text_pad(b, sizeof(b), "w\xef\xbf\xbdx", 5, false), "  w\xef\xbf\xbdx");
	/* an escape written by the cleaning is never cut in two: 15 columns
	 * of "evil\x1b[31mname" end before the "\x1b", not inside it */
	assert_string_equal(nl_name_text_pad(b, sizeof(b), "abcdefghijkl\\x1b[31m", 15, true),
			    "abcdefghijkl   ");
	assert_int_equal(nl_name_text_head("ab\\x1bc", 5, &used), 2);
	assert_int_equal(nl_name_text_tail("a\\x1bc", 4, &used), 5);
	assert_int_equal(nl_name_text_tail("a\\x1bc", 5, &used), 1);
	assert_int_equal(used, 5);
	/* cgroup labels: the path itself, "#id" when altered, "...#id" when cut */
	assert_false(nl_name_path_label(b, sizeof(b), "/a/b", 7));
	assert_string_equal(b, "/a/b");
	assert_true(nl_name_path_label(b, sizeof(b), "/a\x1b", 7));
	assert_string_equal(b, "/a\\x1b#7");
	assert_true(nl_name_path_label(b, 16, "/aaaaaaaaaaaaaaaaaaaa", 42));
	assert_string_equal(b, "/aaaaaaaa...#42");
	/* the TUI cell fitter: cut by cells, with its '~' */
	assert_string_equal(nl_layout_fit(b, "inner-job-\xe5\x90\x8c", 11, true, false), "inner-job-~");
	assert_string_equal(nl_layout_fit(b, "inner-job-\xe5\x90\x8c", 12, true, false),
			    "inner-job-\xe5\x90\x8c");
	assert_string_equal(nl_layout_fit(b, "ab\xe5\x90\x8c\xe5\x90\x8c", 4, true, true), "~ \xe5\x90\x8c");
	assert_string_equal(nl_layout_fit(b, "\xef\xbf\xbd\xef\xbf\xbdxyz", 3, true, false),
			    "\xef\xbf\xbd\xef\xbf\xbd~");
}

/* Batch text: the COMM column is 15 cells whatever the name's bytes, so
 * the figures after it line up with the header's. */
static void test_text_columns(void **state)
{
	struct nl_snapshot s;
	char *buf = NULL;
	size_t len = 0;
	const char *names[] = { "inner-job-\xe5\x90\x8c", "w\xef\xbf\xbd\xef\xbf\xbdx", "e\\x1b[2Jx" };

	assert_int_equal(fix_build(&s, true), 0);
	for (int i = 0; i < 3 && i < s.nr_procs; i++)
		snprintf(s.procs[i].comm, sizeof(s.procs[i].comm), "%s", names[i]);
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(nl_text_write(f, &s, NULL), 0);
	fclose(f);
	int head = -1, rows = 0;

	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		char *cpu = strstr(l, "CPU%");

		if (!strncmp(l, "    PID COMM", 12) && cpu) {
			head = nl_name_text_cols(l) - nl_name_text_cols(cpu) + 4;	/* cells to CPU%'s end */
			continue;
		}
		if (head < 0)
			continue;
		for (int i = 0; i < 3; i++) {
			char *at = strstr(l, names[i]);

			if (!at)
				continue;
			/* the CPU% figure ends where the header's CPU% ends */
			char *p = at + strlen(names[i]);

			while (*p == ' ')
				p++;
			while (*p && *p != ' ')
				p++;
			*p = '\0';
			assert_int_equal(nl_name_text_cols(l), head);
			rows++;
		}
	}
	assert_true(head > 0);
	assert_int_equal(rows, 3);
	free(buf);
	nl_snapshot_free(&s);
}

/* Prometheus: a cleaned name is a legal label value (the text stays valid
 * UTF-8; the backslash of an escape is escaped once more). */
static void test_prom_label(void **state)
{
	struct nl_snapshot s;
	struct nl_prom_opts o;
	char clean[NL_NAME_MAX];

	assert_int_equal(fix_build(&s, true), 0);
	nl_prom_opts_default(&o);
	o.top_procs = 5;
	nl_name_comm_clean(clean, "w\xff\x1b");
	snprintf(s.procs[0].comm, sizeof(s.procs[0].comm), "%s", clean);
	char *t = prom_render(&s, &o);

	assert_non_null(strstr(t, "comm=\"w\xef\xbf\xbd\\\\x1b\""));
	for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n"))
		assert_true(clean_text(l));
	free(t);
	nl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm_rule),
		cmocka_unit_test(test_clean_bounds),
		cmocka_unit_test(test_utf8_seq),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_text_columns),
		cmocka_unit_test(test_prom_label),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
