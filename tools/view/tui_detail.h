/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TUI's detail window, and the scrolling text it shares with help.
 */
#ifndef NL_TUI_DETAIL_H
#define NL_TUI_DETAIL_H

struct nl_tui;

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

#endif /* NL_TUI_DETAIL_H */
