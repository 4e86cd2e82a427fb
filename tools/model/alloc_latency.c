// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Allocation latency deltas; see alloc_latency.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc_lat.h"
#include "alloc_latency.h"

struct nl_alloc_latency_state {
	struct nl_lat_prog *lat;	/* NULL: not available, see why */
	uint32_t sample_every;
	char why[320];
	struct nl_alloc_lat_counts prev, cur;
};

struct nl_alloc_latency_state *nl_alloc_latency_start(uint32_t sample_every)
{
	struct nl_alloc_latency_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->sample_every = sample_every ? sample_every : 1;
	if (!nl_alloc_lat_open(&st->lat, st->sample_every, st->why, sizeof(st->why)))
		nl_alloc_lat_read(st->lat, &st->prev);
	return st;
}

static uint64_t d64(uint64_t cur, uint64_t prev)
{
	return cur > prev ? cur - prev : 0;
}

void nl_alloc_latency_fill(struct nl_alloc_latency_state *st, struct nl_alloc_latency *out)
{
	memset(out, 0, sizeof(*out));
	if (!st)
		return;
	out->enabled = true;
	out->sample_every = st->sample_every;
	if (!st->lat || nl_alloc_lat_read(st->lat, &st->cur)) {
		snprintf(out->unavailable, sizeof(out->unavailable), "%s",
			 st->lat ? "the latency maps could not be read" : st->why);
		return;
	}
	out->available = true;
	snprintf(out->hook, sizeof(out->hook), "%s", nl_alloc_lat_hook(st->lat));
	out->calls = d64(st->cur.stats[NL_LAT_CALLS], st->prev.stats[NL_LAT_CALLS]);
	out->sampled = d64(st->cur.stats[NL_LAT_SAMPLED], st->prev.stats[NL_LAT_SAMPLED]);
	out->lost = d64(st->cur.stats[NL_LAT_LOST], st->prev.stats[NL_LAT_LOST]);
	for (int k = 0; k < NL_LAT_NR_HISTS; k++) {
		for (int b = 0; b < NL_LAT_BUCKETS; b++)
			out->hist[k][b] = d64(st->cur.hist[k][b], st->prev.hist[k][b]);
		out->sum_ns[k] = d64(st->cur.sum_ns[k], st->prev.sum_ns[k]);
	}
	out->prog_runs = d64(st->cur.prog_runs, st->prev.prog_runs);
	out->prog_run_ns = d64(st->cur.prog_run_ns, st->prev.prog_run_ns);
	st->prev = st->cur;
}

void nl_alloc_latency_stop(struct nl_alloc_latency_state *st)
{
	if (!st)
		return;
	nl_alloc_lat_close(st->lat);
	free(st);
}
