/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The lines around the TUI's window: title and sources, node meters, the
 * view line, the footer.
 */
#ifndef NL_TUI_HEAD_H
#define NL_TUI_HEAD_H

struct nl_tui;

/* Rows the node meters need on this screen: 0 when off or without nodes. */
int nl_tui_head_meter_rows(const struct nl_tui *t);

/* The title, the sources line and the view line (with sort and filter). */
void nl_tui_head_title(struct nl_tui *t);

/* The node meters (t->meter_rows rows from row 2), when they are on. */
void nl_tui_head_meters(const struct nl_tui *t);

/* The last line: the filter prompt, a message, or the keys. */
void nl_tui_head_footer(struct nl_tui *t);

#endif /* NL_TUI_HEAD_H */
