/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TUI's keys: what each does to the state (view_tui.c redraws).
 */
#ifndef NL_TUI_KEYS_H
#define NL_TUI_KEYS_H

#include <stdbool.h>
#include "tui_window.h"

struct nl_tui;

/* Act on key @key (an ncurses KEY_* or a character) on @t; sets *@redraw
 * when the screen must be drawn again (not for 'q' or an unknown key). */
enum nl_tui_action nl_tui_keys_act(struct nl_tui *t, int key, bool *redraw);

#endif /* NL_TUI_KEYS_H */
