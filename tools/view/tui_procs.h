/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TUI's process window (home).
 */
#ifndef NL_TUI_PROCS_H
#define NL_TUI_PROCS_H

struct nl_tui;

/* Sort and filter the processes into t->idx, keep the selection in range;
 * returns the rows shown. */
int nl_tui_procs_order(struct nl_tui *t);

/* The process window. */
void nl_tui_procs_draw(struct nl_tui *t);

#endif /* NL_TUI_PROCS_H */
