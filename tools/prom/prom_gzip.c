// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A snapshot's exposition rendered straight into gzip; see prom_gzip.h. */
#include <errno.h>
#include <time.h>
#include "http_server.h"
#include "prom_gzip.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct slice_sink {
	struct nl_gzip *g;
	struct nl_prom_gzip_cost c;
};

/* The text buffer's drain: each slice into the gzip, timed apart. */
static int slice_to_gzip(void *ctx, const char *p, size_t n)
{
	struct slice_sink *k = ctx;
	uint64_t w0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	int e = nl_gzip_write(k->g, p, n);

	k->c.gzip_cpu_ns += clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	k->c.gzip_ns += clock_ns(CLOCK_MONOTONIC) - w0;
	k->c.plain_len += n;
	return e;
}

int nl_prom_render_gzip(struct nl_buf *gz, const struct nl_snapshot *s, const struct nl_prom_opts *o,
			struct nl_prom_gzip_cost *cost)
{
	struct slice_sink k = {};
	struct nl_buf t = { .drain = slice_to_gzip, .drain_ctx = &k, .drain_at = NL_PROM_GZIP_SLICE };
	uint64_t w0, c0, w1, c1;
	int e, ce;

	if (!gz || !s || !o)
		return -EINVAL;
	k.g = nl_gzip_open(gz);
	if (!k.g)
		return -ENOMEM;
	w0 = clock_ns(CLOCK_MONOTONIC);
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	e = nl_prom_render(&t, s, o);
	nl_prom_render_scrape_duration(&t, clock_ns(CLOCK_MONOTONIC) - w0 - k.c.gzip_ns);
	/* the render's own time: what the slices' gzip calls left */
	k.c.render_ns = clock_ns(CLOCK_MONOTONIC) - w0 - k.c.gzip_ns;
	k.c.render_cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0 - k.c.gzip_cpu_ns;
	e = e ? e : t.err;
	e = e ? e : nl_buf_drain(&t);	/* the last slice */
	w1 = clock_ns(CLOCK_MONOTONIC);
	c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	ce = nl_gzip_close(k.g);
	k.c.gzip_cpu_ns += clock_ns(CLOCK_THREAD_CPUTIME_ID) - c1;
	k.c.gzip_ns += clock_ns(CLOCK_MONOTONIC) - w1;
	e = e ? e : ce;
	nl_buf_free(&t);
	if (cost)
		*cost = k.c;
	return e;
}
