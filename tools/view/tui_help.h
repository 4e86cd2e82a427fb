/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TUI's help text.
 */
#ifndef NL_TUI_HELP_H
#define NL_TUI_HELP_H

#include "tui_detail.h"

struct nl_tui;

/* The help window's lines. */
void nl_tui_help_build(struct nl_tui_lines *L);

#endif /* NL_TUI_HELP_H */
