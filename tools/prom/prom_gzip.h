/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A snapshot's Prometheus text rendered straight into its gzip, the form
 * `numalens export` keeps and serves: the text is written a slice at a
 * time into a small buffer that each slice's gzip empties, so the whole
 * text (26 MiB at 2,000 cgroups x 4 nodes, for a 1.6 MiB gzip) is never
 * held, nor faulted in afresh for every snapshot, and the slice is still
 * in cache when it is compressed.
 */
#ifndef NL_PROM_GZIP_H
#define NL_PROM_GZIP_H

#include <stddef.h>
#include <stdint.h>
#include "view_prom.h"

/* Bytes of text between two gzip calls (the slice buffer is about this). */
#define NL_PROM_GZIP_SLICE (256u << 10)

/* What one nl_prom_render_gzip() cost, the render and the gzip apart:
 * wall time (CLOCK_MONOTONIC) and the calling thread's CPU time, in ns. */
struct nl_prom_gzip_cost {
	uint64_t render_ns, gzip_ns;
	uint64_t render_cpu_ns, gzip_cpu_ns;
	size_t plain_len;	/* bytes of text gzipped */
};

/*
 * Replace @gz with one gzip member of the exposition of @s
 * (nl_prom_render(), then numalens_scrape_duration_seconds carrying the
 * render's own wall time, the gzip's left out). @cost (may be NULL) gets
 * the times and the text's length. Returns 0, -EINVAL on NULL args,
 * -ENOMEM or -EIO; after a failure @gz holds a partial gzip.
 */
int nl_prom_render_gzip(struct nl_buf *gz, const struct nl_snapshot *s, const struct nl_prom_opts *o,
			struct nl_prom_gzip_cost *cost);

#endif
