// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Page lifetime deltas; see page_lifetime.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "page_life.h"
#include "page_lifetime.h"

struct nl_page_lifetime_state {
	struct nl_life_prog *prog;	/* NULL: not available, see why */
	uint32_t sample_every;
	char why[320];
	struct nl_page_life_counts prev, cur;
};

struct nl_page_lifetime_state *nl_page_lifetime_start(uint32_t sample_every)
{
	struct nl_page_lifetime_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->sample_every = sample_every ? sample_every : 1;
	if (!nl_page_life_open(&st->prog, st->sample_every, st->why, sizeof(st->why)))
		nl_page_life_read(st->prog, &st->prev);
	return st;
}

static uint64_t d64(uint64_t cur, uint64_t prev)
{
	return cur > prev ? cur - prev : 0;
}

void nl_page_lifetime_fill(struct nl_page_lifetime_state *st, struct nl_page_lifetime *out)
{
	memset(out, 0, sizeof(*out));
	if (!st)
		return;
	out->enabled = true;
	out->sample_every = st->sample_every;
	if (!st->prog || nl_page_life_read(st->prog, &st->cur)) {
		snprintf(out->unavailable, sizeof(out->unavailable), "%s",
			 st->prog ? "the lifetime maps could not be read" : st->why);
		return;
	}
	out->available = true;
	out->allocs = d64(st->cur.stats[NL_LIFE_ALLOCS], st->prev.stats[NL_LIFE_ALLOCS]);
	out->sampled = d64(st->cur.stats[NL_LIFE_SAMPLED], st->prev.stats[NL_LIFE_SAMPLED]);
	out->not_kept = d64(st->cur.stats[NL_LIFE_NOT_KEPT], st->prev.stats[NL_LIFE_NOT_KEPT]);
	out->freed = d64(st->cur.stats[NL_LIFE_FREED], st->prev.stats[NL_LIFE_FREED]);
	for (int k = 0; k < NL_LIFE_NR_HISTS; k++) {
		for (int b = 0; b < NL_LIFE_BUCKETS; b++)
			out->hist[k][b] = d64(st->cur.hist[k][b], st->prev.hist[k][b]);
		out->sum_ns[k] = d64(st->cur.sum_ns[k], st->prev.sum_ns[k]);
	}
	out->prog_runs = d64(st->cur.prog_runs, st->prev.prog_runs);
	out->prog_run_ns = d64(st->cur.prog_run_ns, st->prev.prog_run_ns);
	st->prev = st->cur;
}

void nl_page_lifetime_stop(struct nl_page_lifetime_state *st)
{
	if (!st)
		return;
	nl_page_life_close(st->prog);
	free(st);
}
