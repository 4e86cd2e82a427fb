/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TUI's cgroup window and the sparklines' samples it records.
 */
#ifndef NL_TUI_CGROUPS_H
#define NL_TUI_CGROUPS_H

struct nl_tui;

/* As nl_tui_procs_order, for the cgroup tree. */
int nl_tui_cgroups_order(struct nl_tui *t);

/* The cgroup window, with the last minute of each cgroup as sparklines. */
void nl_tui_cgroups_draw(struct nl_tui *t);

/* Record the sparklines' samples of a snapshot not recorded yet. */
void nl_tui_cgroups_record(struct nl_tui *t);

#endif /* NL_TUI_CGROUPS_H */
