/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pictures of `numalens top`, as text: per-node meters, the shading
 * glyphs, sparklines over a recorded history, and the placement picture
 * (where a process or cgroup runs against where its memory is). Pure
 * functions of numbers, no ncurses: view_tui.c places them on the screen
 * and colours them by nl_pic_level(). Every glyph has an ASCII twin for
 * terminals whose locale is not UTF-8.
 */
#ifndef NL_TUI_PICS_H
#define NL_TUI_PICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "nl_types.h"

/* How full a meter is, for its colour: below 60% ok, below 85% warn,
 * else high (the thresholds htop's users are used to reading). */
enum nl_pic_level { NL_PIC_OK = 0, NL_PIC_WARN, NL_PIC_HIGH };

/* nl_pic_level - the level of fraction @frac (0..1; NaN is ok). */
enum nl_pic_level nl_pic_level(double frac);

/*
 * nl_pic_meter - a meter of exactly @width cells (>= 6) into @buf (@sz >=
 * @width + 1): "[|||||    37%]", the bars filling @frac (clamped to
 * [0,1]) of the inside, the percentage right-aligned over the bars; NaN
 * gives "[   n/a]". ASCII only, so it reads on any terminal. Returns @buf.
 */
char *nl_pic_meter(char *buf, size_t sz, int width, double frac);

/* nl_pic_tick - one cell of a sparkline for @frac in [0,1]: eight heights
 * ("▁".."█"; ASCII "_.-=+*#@" with @utf8 false), " " for NaN. */
const char *nl_pic_tick(double frac, bool utf8);

/* nl_pic_shade - one cell shaded by share @frac in [0,1]: "·" below 1%,
 * then "░" from 1%, "▒" from 25%, "▓" from 50%, "█" from 75% (ASCII ".",
 * ":", "+", "*", "#"); " " for NaN. */
const char *nl_pic_shade(double frac, bool utf8);

/* --- history for sparklines ------------------------------------------- */

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

/* --- the placement picture --------------------------------------------- */

#define NL_PIC_MAX_NODES 8	/* nodes one picture shows (80 columns) */

/* What the placement picture is drawn from: shares in [0,1] (NaN:
 * unknown), per shown node. */
struct nl_pic_place {
	int n;				/* shown nodes, <= NL_PIC_MAX_NODES */
	int nr_nodes;			/* nodes the machine has (n may be fewer) */
	int nid[NL_PIC_MAX_NODES];
	double cpu[NL_PIC_MAX_NODES];	/* share of the CPU time on each node */
	double mem[NL_PIC_MAX_NODES];	/* share of the resident memory */
	double alloc[NL_PIC_MAX_NODES];	/* share of this interval's allocations */
	uint8_t dist[NL_PIC_MAX_NODES][NL_PIC_MAX_NODES];	/* SLIT, 0 unknown */
};

/*
 * nl_pic_pick_nodes - choose which of @nr nodes a picture shows: all of
 * them up to NL_PIC_MAX_NODES, else those with the largest @weight (CPU
 * plus memory share), in ascending order of position. Writes positions
 * into @pos; returns how many.
 */
int nl_pic_pick_nodes(const double *weight, int nr, int *pos);

/*
 * nl_pic_expected_distance - the distance an access travels on average if
 * each CPU touches the memory in proportion to where it sits: sum over
 * (i, j) of cpu[i] * mem[j] * dist[i][j], over the shares' sums, divided
 * by 10 (so 1.00 = all local, 2.00 = all at SLIT 20). Returns NaN when a
 * distance that counts is unknown or a share sum is 0. The model behind
 * the cling benchmark's cost column, here for one row.
 */
double nl_pic_expected_distance(const struct nl_pic_place *p);

/*
 * nl_pic_place_lines - the picture as text lines, each at most 80 cells
 * for up to 8 nodes: a header, a row per CPU node with a shaded cell per
 * memory node (CPU share x memory share) and the node's SLIT row, the
 * memory and allocation shares under the columns, a legend and the
 * expected distance. Lines go to @out (@max of them, 256 bytes each).
 * Returns the number written.
 */
int nl_pic_place_lines(char (*out)[256], int max, const struct nl_pic_place *p, bool utf8);

#endif /* NL_TUI_PICS_H */
