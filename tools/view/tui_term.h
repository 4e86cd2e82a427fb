/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Whether a terminal can show the full-screen view (terminfo only). */
#ifndef NL_TUI_TERM_H
#define NL_TUI_TERM_H

#include <stdbool.h>

/*
 * Whether terminal type @term can show the full-screen view: it is known
 * to terminfo and can address the cursor (cup), and is no hard-copy
 * terminal. False for NULL, "", "dumb" and unknown types. Loads terminfo
 * only; nothing is written to any terminal.
 */
bool nl_tui_term_usable_as(const char *term);

/* nl_tui_term_usable_as($TERM). */
bool nl_tui_term_usable(void);

#endif
