/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pictures of `numalens top`, as text: per-node meters, the shading
 * glyphs, sparkline cells (their history: tui_hist.h), and the placement picture
 * (where a process or cgroup runs against where its memory is). Pure
 * functions of numbers, no ncurses: the tui_*.c windows place them on the screen
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
