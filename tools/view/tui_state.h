/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of the TUI share and nothing else reads: the state behind
 * struct nl_tui (the snapshot copy, the window shown, selection, prompt,
 * sparkline history) and the screen's fixed sizes. Every window draws from
 * it; view_tui.c creates and frees it.
 */
#ifndef NL_TUI_STATE_H
#define NL_TUI_STATE_H

#include <curses.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "snapshot.h"
#include "tui_hist.h"
#include "tui_window.h"
#include "view_sort.h"

#define MIN_COLS 40
#define MIN_LINES 8
/* title, sources, the node meters (meter_rows of them), view line,
 * column header */
#define HEAD_LINES(t) (4 + (t)->meter_rows)
#define SPARK_W 12		/* cells of a sparkline column */
#define SPARK_SPAN_MS 60000	/* what a sparkline covers: the last minute */

/* Colour pairs, when the terminal has colours and NO_COLOR is not set. */
enum { PAIR_OK = 1, PAIR_WARN, PAIR_HIGH };
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

#endif /* NL_TUI_STATE_H */
