/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The history behind the TUI's sparklines: per key (a cgroup id) a ring
 * of the last samples, kept sorted by key, and the sparkline drawn from
 * it. Apart from tui_pics.h because it keeps state across snapshots while
 * the pictures are pure functions of one.
 */
#ifndef NL_TUI_HIST_H
#define NL_TUI_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NL_HIST_SAMPLES 64	/* per series: a minute at 1 s, with room */
#define NL_HIST_VALUES 2	/* values per sample (remote share, locality) */

/* One series: the last NL_HIST_SAMPLES samples of one key (a cgroup id),
 * oldest first from @head. t_ms is milliseconds on the caller's clock. */
struct nl_hist_series {
	uint64_t key;
	uint64_t t_ms[NL_HIST_SAMPLES];
	float v[NL_HIST_VALUES][NL_HIST_SAMPLES];	/* NaN: no value then */
	int head, n;
};

/* Series sorted by key. Zero-initialise; nl_hist_free() releases. */
struct nl_hist {
	struct nl_hist_series *s;
	int n, cap;
};

/* nl_hist_add - append a sample of @v (NL_HIST_VALUES values, NaN allowed)
 * at @t_ms to @key's series, creating it. 0 or -ENOMEM. */
int nl_hist_add(struct nl_hist *h, uint64_t key, uint64_t t_ms, const double *v);

/* nl_hist_find - @key's series or NULL. */
const struct nl_hist_series *nl_hist_find(const struct nl_hist *h, uint64_t key);

/* nl_hist_prune - drop the series whose last sample is older than
 * @now_ms - @keep_ms (cgroups that went away). */
void nl_hist_prune(struct nl_hist *h, uint64_t now_ms, uint64_t keep_ms);

/* nl_hist_free - release @h and zero it. */
void nl_hist_free(struct nl_hist *h);

/*
 * nl_hist_spark - a sparkline of value @which of @s over the last @span_ms
 * before @now_ms, in @width cells (each cell the mean of the samples that
 * fall in its 1/@width of the span; a cell with none is blank), oldest on
 * the left, scaled 0..1. @s NULL gives blanks. Returns @buf (@sz >= 4 *
 * @width + 1).
 */
char *nl_hist_spark(char *buf, size_t sz, const struct nl_hist_series *s, int which,
		    uint64_t now_ms, uint64_t span_ms, int width, bool utf8);

#endif /* NL_TUI_HIST_H */
