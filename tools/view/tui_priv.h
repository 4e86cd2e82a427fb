/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of the TUI share and nothing else includes: the state
 * behind struct nl_tui, the table that every list window draws with, and
 * the functions one window's file calls in another's. view_tui.h is the
 * TUI's face to the CLI; this header is its inside. One file per window
 * (tui_procs.c, tui_cgroups.c, tui_nodes.c, tui_detail.c and tui_help.c),
 * the header lines (tui_head.c), the drawing pieces (tui_draw.c), the keys
 * (tui_keys.c); view_tui.c opens, renders and closes.
 */
#ifndef NL_TUI_PRIV_H
#define NL_TUI_PRIV_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "tui_hist.h"
#include "tui_pics.h"
#include "view_tui.h"
#include "vmscan_figs.h"

#define MIN_COLS 40
#define MIN_LINES 8
/* title, sources, the node meters (meter_rows of them), view line,
 * column header */
#define HEAD_LINES(t) (4 + (t)->meter_rows)
#define SPARK_W 12		/* cells of a sparkline column */
#define SPARK_SPAN_MS 60000	/* what a sparkline covers: the last minute */

/* Colour pairs, when the terminal has colours and NO_COLOR is not set. */
enum { PAIR_OK = 1, PAIR_WARN, PAIR_HIGH };
#define MAX_COLS 64
#define STACK 8
#define MIB (1024.0 * 1024.0)

struct nl_tui {
	SCREEN *scr;
	struct nl_view_opts opts;
	enum nl_tui_view view;
	enum nl_tui_view stack[STACK];	/* for 'b' (back) */
	int depth;
	struct nl_snapshot snap;
	bool have_snap;
	/* selection follows the row's identity across refreshes and re-sorts */
	pid_t sel_pid;
	uint64_t sel_cg;
	int sel_node;
	int sel_idx[3], top[3];		/* per list view: row index and scroll offset */
	bool detail_is_cg;
	pid_t detail_pid;
	uint64_t detail_cg;
	int text_top;			/* scroll offset of detail/help */
	bool prompt;
	char pbuf[256];
	int plen;
	char msg[160];
	volatile sig_atomic_t *stop;
	int *idx;			/* current row order */
	int nidx, idx_cap;
	bool color;			/* draw in colour (else bold marks what colour would) */
	bool meters;			/* the node meters in the header ('m' toggles) */
	int meter_rows;			/* rows the node meters take now (set by each draw) */
	struct nl_hist hist;		/* per cgroup: remote share and locality median */
	uint64_t hist_seq;		/* the snapshot last seen */
	uint64_t hist_last_ms;		/* when a sample was last recorded */
	struct timespec t0;		/* the history's clock starts here */
};

/* --- view_tui.c ------------------------------------------------------------ */

/* Draw the whole screen again from the snapshot copy: header, the current
 * window, footer (or "terminal too small"). */
void nl_tui_redraw(struct nl_tui *t);

/* --- tui_draw.c: pieces every window draws with ----------------------------- */

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

/* One shared figure cell (FC_*) of @f into @b; false when @kind is not one
 * of them. */
bool nl_tui_draw_figs_cell(struct nl_tui *t, const struct nl_figs *f, int kind, int ni, char *b,
			   size_t sz, attr_t *own);

/* Pages freed per second by reclaim, all contexts, from this interval's
 * @d and the running @tot figures; "-" when @d is NULL (no vmscan). */
void nl_tui_draw_reclaim(char *b, size_t sz, const struct nl_snapshot *s,
			 const struct nl_vs_page_figs *d, const struct nl_vs_page_figs *tot);

/* --- tui_head.c: the lines above and below the window ----------------------- */

/* Rows the node meters need on this screen: 0 when off or without nodes. */
int nl_tui_head_meter_rows(const struct nl_tui *t);

/* The title, the sources line and the view line (with sort and filter). */
void nl_tui_head_title(struct nl_tui *t);

/* The node meters (t->meter_rows rows from row 2), when they are on. */
void nl_tui_head_meters(const struct nl_tui *t);

/* The last line: the filter prompt, a message, or the keys. */
void nl_tui_head_footer(struct nl_tui *t);

/* --- the windows -------------------------------------------------------------- */

/* Sort and filter the processes into t->idx, keep the selection in range;
 * returns the rows shown. */
int nl_tui_procs_order(struct nl_tui *t);

/* The process window. */
void nl_tui_procs_draw(struct nl_tui *t);

/* As nl_tui_procs_order, for the cgroup tree. */
int nl_tui_cgroups_order(struct nl_tui *t);

/* The cgroup window, with the last minute of each cgroup as sparklines. */
void nl_tui_cgroups_draw(struct nl_tui *t);

/* Record the sparklines' samples of a snapshot not recorded yet. */
void nl_tui_cgroups_record(struct nl_tui *t);

/* The node window. */
void nl_tui_nodes_draw(struct nl_tui *t);

/* Lines of the detail and help windows, 256 bytes each. */
struct nl_tui_lines {
	char (*l)[256];
	int n, cap;
};

/* Append one line to @L (dropped when out of memory). */
void nl_tui_detail_add(struct nl_tui_lines *L, const char *fmt, ...);

/* The detail of the process or cgroup t->detail_* names, by node. */
void nl_tui_detail_build(struct nl_tui *t, struct nl_tui_lines *L);

/* Draw @L from t->text_top (clamped so no blank rows show below it). */
void nl_tui_detail_draw(struct nl_tui *t, struct nl_tui_lines *L);

/* The help window's lines. */
void nl_tui_help_build(struct nl_tui_lines *L);

#endif /* NL_TUI_PRIV_H */
