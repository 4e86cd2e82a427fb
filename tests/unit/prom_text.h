/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers the Prometheus renderer's unit tests share: render a snapshot,
 * and read one sample's value out of the exposition text. Include after
 * <cmocka.h>.
 */
#ifndef NL_TEST_PROM_TEXT_H
#define NL_TEST_PROM_TEXT_H

#include <stdlib.h>
#include <string.h>
#include "view_prom.h"

/* The exposition of @s under @o (defaults when NULL); malloc'ed, never
 * NULL (the test fails instead). */
static inline char *prom_render(const struct nl_snapshot *s, const struct nl_prom_opts *o)
{
	struct nl_prom_opts def;
	struct nl_buf b = {};

	if (!o) {
		nl_prom_opts_default(&def);
		o = &def;
	}
	assert_int_equal(nl_prom_render(&b, s, o), 0);
	assert_non_null(b.p);
	return b.p;
}

/* Value of the sample whose name and labels are exactly @series; fails
 * the test if absent. */
static inline double prom_value_of(const char *text, const char *series)
{
	size_t n = strlen(series);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, series, n) && p[n] == ' ')
			return strtod(p + n + 1, NULL);
	fail_msg("no sample %s", series);
	return 0;
}

#endif
