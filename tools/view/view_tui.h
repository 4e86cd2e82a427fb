/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `numalens top`: the full-screen ncurses view (numatop-like windows and
 * keys). The CLI owns the loop and the data; the TUI owns the terminal:
 *
 *	t = nl_tui_open(&opts);			// after installing SIGINT/TERM handlers
 *	nl_tui_set_stop_flag(t, &stop);		// the flag those handlers set
 *	while (!stop) {
 *		collect(&snap);
 *		nl_tui_render(t, &snap);		// copies what it needs
 *		for (left = interval_ms; left > 0; left = ms until next interval)
 *			switch (nl_tui_poll_key(t, left)) {
 *			case NL_TUI_QUIT: goto out;
 *			case NL_TUI_REFRESH: goto next;	// collect now
 *			default: break;
 *			}
 *	}
 *	out: nl_tui_close(t);
 *
 * View switches, sorting, scrolling, filtering and resizes are handled
 * inside nl_tui_poll_key, redrawn from the last rendered snapshot.
 *
 * The TUI's files: view_tui.c opens, renders, closes, draws the frame and
 * waits for keys; tui_state.h holds what they share; one file per window
 * (tui_procs.c, tui_cgroups.c, tui_nodes.c, tui_detail.c, tui_help.c), the
 * lines around them (tui_head.c), the drawing pieces (tui_draw.c, with the
 * pure column layout in tui_layout.c) and what each key does (tui_keys.c).
 */
#ifndef NL_VIEW_TUI_H
#define NL_VIEW_TUI_H

#include "tui_term.h"
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include "snapshot.h"
#include "tui_layout.h"
#include "tui_window.h"
#include "view_sort.h"

struct nl_tui;

/*
 * Take over the controlling terminal (stdout/stdin, $TERM). @init sets the
 * starting sort key, filter and top-N (NULL: defaults). Returns NULL with
 * errno set (ENOTTY when stdout is not a terminal, ENOENT when $TERM is
 * unknown, ENOMEM).
 */
struct nl_tui *nl_tui_open(const struct nl_view_opts *init);

/* As nl_tui_open on an explicit terminal: @term type (NULL: $TERM), output
 * and input streams (a pty in tests). */
struct nl_tui *nl_tui_open_term(const char *term, FILE *out, FILE *in,
				const struct nl_view_opts *init);

/*
 * Keep a private copy of @s (the caller may free it afterwards) and draw the
 * current view from it. Returns 0 or -ENOMEM (the previous copy is kept).
 */
int nl_tui_render(struct nl_tui *t, const struct nl_snapshot *s);

/*
 * Wait up to @timeout_ms (< 0: forever, 0: just check) for keys and act on
 * them; returns at the first key that needs the CLI (quit, refresh) or when
 * the time is up (NL_TUI_NONE). Waits in slices of at most 100 ms so a
 * raised stop flag is seen promptly even if no signal interrupts it.
 */
enum nl_tui_action nl_tui_poll_key(struct nl_tui *t, int timeout_ms);

/* Act on one key code (ncurses KEY_* or a char) as if typed, redrawing.
 * What nl_tui_poll_key does per key; exposed for the CLI's own bindings. */
enum nl_tui_action nl_tui_handle_key(struct nl_tui *t, int key);

/* Make nl_tui_poll_key return NL_TUI_QUIT once *@flag is non-zero. */
void nl_tui_set_stop_flag(struct nl_tui *t, volatile sig_atomic_t *flag);

/* What the window looks at now that the collector reads only on request
 * (nl_collect_focus): the process of the detail window (*@pid, 0: none)
 * and the name filter (*@comm, "" none; points into @t). */
void nl_tui_focus(const struct nl_tui *t, pid_t *pid, const char **comm);

/* The window shown now. */
enum nl_tui_view nl_tui_current_view(const struct nl_tui *t);

/* Restore the terminal (leave the alternate screen, show the cursor, reset
 * modes) and free @t. NULL and repeated calls on a closed pointer are not
 * allowed; NULL is ignored. Call from the main loop, not a signal handler. */
void nl_tui_close(struct nl_tui *t);

#endif /* NL_VIEW_TUI_H */
