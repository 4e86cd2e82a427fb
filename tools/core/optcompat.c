// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Old option spellings during a rename; see optcompat.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "optcompat.h"

/* The old spellings already named: a script that repeats one (-i 1 -i 2)
 * gets one line, not one per use. */
#define NL_OPT_TOLD_MAX 16
static char told[NL_OPT_TOLD_MAX][32];
static int nr_told;

bool nl_opt_renamed(FILE *err, const char *prog, const char *old, const char *now)
{
	for (int i = 0; i < nr_told; i++)
		if (!strcmp(told[i], old))
			return false;
	if (nr_told < NL_OPT_TOLD_MAX)
		snprintf(told[nr_told++], sizeof(told[0]), "%s", old);
	fprintf(err, "%s: %s is now %s; the old spelling goes away in the next release\n", prog, old, now);
	fflush(err);
	return true;
}

void nl_opt_renamed_reset(void)
{
	nr_told = 0;
}

bool nl_opt_fits_int(const char *s, long lo, long hi)
{
	char *end;
	long v;

	if (!s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	return !errno && end != s && !*end && v >= lo && v <= hi;
}

bool nl_opt_fits_seconds(const char *s, double lo, double hi)
{
	char *end;
	double v;

	if (!s)
		return false;
	errno = 0;
	v = strtod(s, &end);
	return !errno && end != s && !*end && !strpbrk(s, "xXnN") && v >= lo && v <= hi;
}

bool nl_opt_was_long(const struct argp_state *st, const char *arg)
{
	/* argp calls the parser right after getopt took the option, before
	 * getopt moves any operand: argv[next - 1] is the option, or its
	 * value when that came as the next word */
	int i = st->next - 1;

	if (arg && i > 0 && st->argv[i] == arg)
		i--;
	return i >= 0 && i < st->argc && !strncmp(st->argv[i], "--", 2);
}

const char *nl_opt_take_attached(int argc, char **argv, const char *lopt, char sopt)
{
	static char bare_long[64], bare_short[3];
	size_t n = strlen(lopt);
	const char *v = NULL;

	snprintf(bare_long, sizeof(bare_long), "--%s", lopt);
	snprintf(bare_short, sizeof(bare_short), "-%c", sopt);
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, lopt, n) && argv[i][2 + n] == '=') {
			v = argv[i] + 3 + n;
			argv[i] = bare_long;
		} else if (argv[i][0] == '-' && argv[i][1] == sopt &&
			   ((argv[i][2] >= '0' && argv[i][2] <= '9') || argv[i][2] == '.')) {
			/* a number: "-mj" is -m -j, a cluster of the new grammar */
			v = argv[i] + 2;
			argv[i] = bare_short;
		}
	}
	return v;
}

enum nl_opt_reuse nl_opt_reuse_pick(bool fits_new, bool fits_old, bool old_ctx, bool new_ctx)
{
	if (fits_old && !fits_new)
		return NL_OPT_OLD;
	if (!fits_old)		/* the new meaning, or its parser's error */
		return NL_OPT_NEW;
	if (old_ctx != new_ctx)
		return old_ctx ? NL_OPT_OLD : NL_OPT_NEW;
	return NL_OPT_AMBIGUOUS;
}
