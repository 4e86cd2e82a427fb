/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TUI's node window.
 */
#ifndef NL_TUI_NODES_H
#define NL_TUI_NODES_H

struct nl_tui;

/* The node window. */
void nl_tui_nodes_draw(struct nl_tui *t);

#endif /* NL_TUI_NODES_H */
