/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pieces every TUI window draws with: the column table that drops what
 * does not fit, cells fitted to it, lines clipped to the screen, the shared
 * figure cells with their alerts, and scrolling.
 */
#ifndef NL_TUI_DRAW_H
#define NL_TUI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include "snapshot.h"
#include "tui_layout.h"
#include "tui_pics.h"
#include "vmscan_figs.h"

struct nl_tui;

#define MAX_COLS 64	/* columns a table holds */

/* A table: columns plus, per column, what it shows and for which node. */
struct nl_tui_table {
	struct nl_tui_col cols[MAX_COLS];
	int kind[MAX_COLS];
	int node[MAX_COLS];	/* index into snap.nodes for per-node columns */
	bool shown[MAX_COLS];
	int n, flexw;
};

/* Gives a row's cell of column @kind (for node index @ni, -1: none) as
 * text in @b (@sz bytes) and, in *@own, an attribute of its own (an alert). */
typedef void nl_tui_cell_fn(struct nl_tui *t, const void *row, int kind, int ni, char *b,
			    size_t sz, attr_t *own);

/* The figure columns the process and cgroup views share, drawn by one
 * function so both views format and flag them alike. Kind 0 is left
 * to the cgroup path, which is fitted keeping its tail. */
enum { FC_CPU = 1, FC_RUN, FC_RMT, FC_LCL, FC_RMTPCT, FC_LOC, FC_END };

/* Whether the terminal's locale encodes UTF-8: set once when the TUI opens,
 * read by every piece that would draw a non-ASCII character. */
void nl_tui_draw_set_utf8(bool on);
bool nl_tui_draw_utf8(void);

/* In place: each non-ASCII character of @buf becomes one '?' per cell it
 * takes; never longer than @buf. */
void nl_tui_draw_ascii(char *buf);

/* Print @fmt at row @y, clipped to the screen width and cleared to the end. */
void nl_tui_draw_line(int y, attr_t attr, const char *fmt, ...);

/* Print @text at the cursor with @attr, at most up to the screen's right
 * edge; returns the cells written. */
int nl_tui_draw_cells(attr_t attr, const char *text);

/* The attribute of level @l: its colour, or bold for "high" without colour. */
attr_t nl_tui_draw_level_attr(const struct nl_tui *t, enum nl_pic_level l);

/* Append a column to @tb (ignored once MAX_COLS are set); @kind and @node
 * (an index into snap.nodes, -1: none) are what @tb's cell function gets. */
void nl_tui_draw_col(struct nl_tui_table *tb, const char *name, int width, int prio, bool flex,
		     bool left, int kind, int node);

/* A per-node column name, @fmt with @nid, in slot @slot: it lives as long
 * as the table (until the slot is used again). */
const char *nl_tui_draw_node_col(int slot, const char *fmt, int nid);

/* Write one row of @tb at @y: @cell gives each cell's text for @row (NULL:
 * the column names), drawn with @attr plus the cell's own attribute. */
void nl_tui_draw_row(struct nl_tui_table *tb, int y, attr_t attr, nl_tui_cell_fn *cell,
		     struct nl_tui *t, const void *row);

/* Rows that fit between the header and the footer. */
int nl_tui_draw_body_rows(const struct nl_tui *t);

/* Clamp the selection of list @v (0 processes, 1 cgroups, 2 nodes) to @n
 * rows and scroll it into view. */
void nl_tui_draw_fix_scroll(struct nl_tui *t, int v, int n);

/* Cut list @v's ordered row count @n (negative: an error, no rows) to
 * --top, store it in t->nidx and keep the selection in view; returns it. */
int nl_tui_draw_cut(struct nl_tui *t, int v, int n);

/* The column names, then rows t->top[v] .. @n - 1 of list @v that fit:
 * row k is @rows + t->idx[k] * @stride bytes, the selected one reversed. */
void nl_tui_draw_list(struct nl_tui *t, struct nl_tui_table *tb, int v, int n, nl_tui_cell_fn *cell,
		      const void *rows, size_t stride);

/* One shared figure cell (FC_*) of @f into @b; false when @kind is not one
 * of them. */
bool nl_tui_draw_figs_cell(struct nl_tui *t, const struct nl_figs *f, int kind, int ni, char *b,
			   size_t sz, attr_t *own);

/* Pages freed per second by reclaim, all contexts, from this interval's
 * @d and the running @tot figures; "-" when @d is NULL (no vmscan). */
void nl_tui_draw_reclaim(char *b, size_t sz, const struct nl_snapshot *s,
			 const struct nl_vs_page_figs *d, const struct nl_vs_page_figs *tot);

#endif /* NL_TUI_DRAW_H */
