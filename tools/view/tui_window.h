/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TUI's windows and what a key asks of the CLI: names every file of
 * the TUI uses, in a header of their own so those files need not include
 * view_tui.h, which includes theirs.
 */
#ifndef NL_TUI_WINDOW_H
#define NL_TUI_WINDOW_H

/* What the CLI must do after a key. */
enum nl_tui_action {
	NL_TUI_NONE = 0,	/* nothing: keep waiting */
	NL_TUI_QUIT,		/* 'q', or the stop flag was raised */
	NL_TUI_REFRESH,		/* 'r': collect a new snapshot now */
};

/* The windows. */
enum nl_tui_view {
	NL_TUI_VIEW_PROC = 0,	/* home: processes (numatop WIN1) */
	NL_TUI_VIEW_CGROUP,	/* cgroup tree */
	NL_TUI_VIEW_NODE,	/* node overview (numatop WIN11) */
	NL_TUI_VIEW_DETAIL,	/* one process or cgroup, broken down by node */
	NL_TUI_VIEW_HELP,
};

#endif /* NL_TUI_WINDOW_H */
