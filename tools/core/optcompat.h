/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Old option spellings during a rename. Every command takes the same
 * grammar (docs/options.md: -d/--delay the interval, -n/--count, -j/--json,
 * --duration without a short letter); the spellings it replaced keep
 * working for one release and say once, on stderr, what to write instead.
 * Where an old short letter now means something else (scx_cling's and
 * reclaim's -d), the meaning is picked from the value and the rest of the
 * command line, and a command line that could mean either is refused:
 * reading it the new way could silently change what the program does.
 * In the core layer because scx_cling, which sits on core and source
 * only, uses it as much as the numalens commands.
 */
#ifndef NL_OPTCOMPAT_H
#define NL_OPTCOMPAT_H

#include <argp.h>
#include <stdbool.h>
#include <stdio.h>

/* nl_opt_renamed - say on @err, once per @old per process:
 * "PROG: OLD is now NOW; the old spelling goes away in the next release".
 * @old and @now are option spellings as the user writes them ("-i",
 * "-d/--delay"). Returns true when it printed the line. */
bool nl_opt_renamed(FILE *err, const char *prog, const char *old, const char *now);

/* nl_opt_renamed_reset - forget what nl_opt_renamed() said (tests). */
void nl_opt_renamed_reset(void);

/* nl_opt_fits_int - is @s a whole decimal number in [lo, hi]? */
bool nl_opt_fits_int(const char *s, long lo, long hi);

/* nl_opt_fits_seconds - is @s a decimal number of seconds in [lo, hi]?
 * The rule of nl_cli_parse_seconds(): no hex, inf or nan forms. */
bool nl_opt_fits_seconds(const char *s, double lo, double hi);

/* nl_opt_was_long - was the option argp is handing over (its value
 * @arg, NULL if it takes none) written long ("--delay 5", "--delay=5")
 * rather than short ("-d 5", "-d5", "-jd 5")? For a letter whose meaning
 * changes while its long name does not. */
bool nl_opt_was_long(const struct argp_state *st, const char *arg);

/* nl_opt_take_attached - for an option that took a value and now takes
 * none: rewrite each "--LOPT=V" word of @argv, and each "-SV" word whose
 * V starts with a digit or '.' ("-m1"; "-mj" stays the cluster -m -j),
 * up to a "--", to the bare option so that argp accepts it. The words
 * point to static strings afterwards. Returns the last V taken, or NULL
 * when there was none. */
const char *nl_opt_take_attached(int argc, char **argv, const char *lopt, char sopt);

/* Which meaning a reused short letter's value takes. */
enum nl_opt_reuse {
	NL_OPT_NEW,		/* the new meaning (also: fits neither, so the
				 * new meaning's parser says what is wrong) */
	NL_OPT_OLD,		/* the old meaning, with a rename notice */
	NL_OPT_AMBIGUOUS,	/* could be either: refuse, naming both spellings */
};

/* nl_opt_reuse_pick - the meaning of a reused letter's value.
 * @fits_new/@fits_old: the value is valid for that meaning. @old_ctx: the
 * same command line uses other old spellings, or gives the new meaning
 * its own way (so the letter cannot be it); @new_ctx: the command line
 * makes the old meaning impossible or moot. A value valid for one
 * meaning only takes that one; otherwise the context decides, and
 * without a one-sided context the answer is NL_OPT_AMBIGUOUS. */
enum nl_opt_reuse nl_opt_reuse_pick(bool fits_new, bool fits_old, bool old_ctx, bool new_ctx);

#endif
